/* util.c - errors, allocation that aborts on exhaustion, buffers. */
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ptb_err_set(struct ptb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->code = code;
	err->hint[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
}

void ptb_err_hint(struct ptb_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->hint, sizeof err->hint, fmt, ap);
	va_end(ap);
}

void ptb_err_clear(struct ptb_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
	err->hint[0] = '\0';
}

void ptb_oom(void)
{
	fputs("ptbuild: fatal: out of memory\n", stderr);
	abort();
}

#ifdef PTB_GCOV
void __gcov_dump(void);
#endif

void ptb_child_exit(int code)
{
#ifdef PTB_GCOV
	__gcov_dump();
#endif
	_exit(code);
}

void *ptb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		ptb_oom();
	return p;
}

void *ptb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		ptb_oom();
	return p;
}

void *ptb_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		ptb_oom();
	return q;
}

char *ptb_xstrdup(const char *s)
{
	return ptb_xstrndup(s, strlen(s));
}

char *ptb_xstrndup(const char *s, size_t n)
{
	char *p = ptb_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *ptb_xasprintf(const char *fmt, ...)
{
	struct ptb_buf b;
	va_list ap;

	ptb_buf_init(&b);
	va_start(ap, fmt);
	ptb_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return ptb_buf_detach(&b);
}

void ptb_buf_init(struct ptb_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void ptb_buf_free(struct ptb_buf *b)
{
	free(b->data);
	ptb_buf_init(b);
}

void ptb_buf_reset(struct ptb_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

static void grow(struct ptb_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need < b->len)
		ptb_oom();
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need) {
		if (cap > (size_t)-1 / 2)
			ptb_oom();
		cap *= 2;
	}
	b->data = ptb_xrealloc(b->data, cap);
	b->cap = cap;
}

void ptb_buf_add(struct ptb_buf *b, const void *data, size_t n)
{
	grow(b, n);
	if (n)
		memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void ptb_buf_adds(struct ptb_buf *b, const char *s)
{
	ptb_buf_add(b, s, strlen(s));
}

void ptb_buf_addc(struct ptb_buf *b, char c)
{
	ptb_buf_add(b, &c, 1);
}

void ptb_buf_vprintf(struct ptb_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	grow(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void ptb_buf_printf(struct ptb_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ptb_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *ptb_buf_detach(struct ptb_buf *b)
{
	char *p = b->data;

	if (!p)
		p = ptb_xstrdup("");
	ptb_buf_init(b);
	return p;
}
