/* progress.c - progress lines and the terminal status line. */
#include "fetch/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "fetch/fetch.h"
#include "util/log.h"

struct ptb_progress_slot {
	struct ptb_progress *p;
	const char *name, *version;
	int64_t have, size;     /* size -1: not known yet */
	int64_t got;            /* bytes received in this run */
	double t1;              /* when this run's transfer began */
	int active, done;
};

struct ptb_progress {
	int mode;
	struct ptb_progress_slot *slots;
	size_t n, cap;
	int64_t bytes, total;   /* this run's transfers only */
	int64_t got;            /* of which received, not resumed from disk */
	size_t unknown;         /* transfers whose size is not known yet */
	double t0, last;
	int lines;              /* lines on the screen to redraw */
	size_t done, nitems, unpacked;
};

static struct ptb_progress *current;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void ptb_fmt_bytes(char *buf, size_t n, double b)
{
	if (b >= 1024.0 * 1024 * 1024)
		snprintf(buf, n, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		snprintf(buf, n, "%.1f MiB", b / (1024.0 * 1024));
	else if (b >= 1024.0)
		snprintf(buf, n, "%.1f KiB", b / 1024.0);
	else
		snprintf(buf, n, "%.0f B", b);
}

struct ptb_progress *ptb_progress_new(int mode, size_t nitems)
{
	struct ptb_progress *p = ptb_xcalloc(1, sizeof *p);

	p->mode = mode;
	p->cap = nitems ? nitems : 1;
	p->slots = ptb_xcalloc(p->cap, sizeof *p->slots);
	p->nitems = nitems;
	p->t0 = now_s();
	current = p;
	return p;
}

struct ptb_progress *ptb_progress_current(void)
{
	return current;
}

void ptb_progress_free(struct ptb_progress *p)
{
	if (!p)
		return;
	if (current == p)
		current = NULL;
	free(p->slots);
	free(p);
}

struct ptb_progress_slot *ptb_progress_slot(struct ptb_progress *p,
                                            const struct ptb_fetch_item *it)
{
	struct ptb_progress_slot *s;

	if (p->n == p->cap)
		return NULL;
	s = &p->slots[p->n++];
	s->p = p;
	s->name = it->name;
	s->version = it->version;
	s->size = it->size >= 0 ? it->size : -1;
	if (s->size >= 0)
		p->total += s->size;
	else
		p->unknown++;
	return s;
}

void ptb_progress_size(struct ptb_progress_slot *s, int64_t size)
{
	if (!s || s->size >= 0 || size < 0)
		return;
	s->size = size;
	s->p->total += size;
	s->p->unknown--;
}

int64_t ptb_progress_received(const struct ptb_progress *p, double *secs)
{
	if (secs)
		*secs = p ? now_s() - p->t0 : 0;
	return p ? p->got : 0;
}

static void begin(struct ptb_progress_slot *s)
{
	if (!s->active) {
		s->active = 1;
		if (s->t1 == 0)
			s->t1 = now_s();
	}
}

void ptb_progress_add(struct ptb_progress_slot *s, int64_t n)
{
	if (!s)
		return;
	s->have += n;
	s->got += n;
	s->p->bytes += n;
	s->p->got += n;
	begin(s);
}

void ptb_progress_set(struct ptb_progress_slot *s, int64_t have)
{
	if (!s)
		return;
	s->p->bytes += have - s->have;
	s->have = have;
	begin(s);
}

/* Erase what draw() put on the screen; the cursor ends where it began. */
static void clear(struct ptb_progress *p)
{
	if (p->lines > 0) {
		fputs("\r\033[K", stderr);
		for (int i = 1; i < p->lines; i++)
			fputs("\033[A\033[K", stderr);
		p->lines = 0;
	}
}

static void vline(struct ptb_progress *p, const char *fmt, va_list ap)
{
	if (!p || p->mode < 1)
		return;
	clear(p);
	fputs("ptbuild: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void ptb_progress_line(struct ptb_progress *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(p, fmt, ap);
	va_end(ap);
}

void ptb_progress_done(struct ptb_progress *p, struct ptb_progress_slot *s,
                       const struct ptb_fetch_item *it, double secs)
{
	char b[32];

	if (s) {
		s->active = 0;
		s->done = 1;
		ptb_progress_size(s, s->have);
	}
	p->done++;
	if (p->mode < 2 && ptb_log_verbosity() <= 0)
		return;
	ptb_fmt_bytes(b, sizeof b, (double)(it->size >= 0 ? it->size : (s ? s->have : 0)));
	ptb_progress_line(p, "fetched %s%s%s (%s in %.1f s, sha256 ok)", it->name,
	                  it->version ? " " : "", it->version ? it->version : "", b, secs);
}

void ptb_progress_cached(struct ptb_progress *p, const struct ptb_fetch_item *it)
{
	p->done++;
	if (ptb_log_verbosity() > 0)
		ptb_progress_line(p, "cached  %s%s%s", it->name, it->version ? " " : "",
		                  it->version ? it->version : "");
}

void ptb_progress_retry(struct ptb_progress *p, const struct ptb_fetch_item *it,
                        int attempt, const char *why, long code, double delay)
{
	if (code >= 400)
		ptb_progress_line(p, "retrying %s in %.1f s (attempt %d): HTTP %ld", it->name, delay, attempt + 1, code);
	else
		ptb_progress_line(p, "retrying %s in %.1f s (attempt %d): %s", it->name, delay, attempt + 1, why);
}

void ptb_progress_unpacked(struct ptb_progress *p, const char *name)
{
	if (!p)
		return;
	p->unpacked++;
	if (p->mode >= 2 || ptb_log_verbosity() > 0)
		ptb_progress_line(p, "unpacked %s", name);
}

/* "1:05 left", "2:03:00 left" */
static void fmt_eta(char *buf, size_t n, double secs)
{
	long left = (long)(secs + 0.5);

	if (left >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld left", left / 3600, left / 60 % 60, left % 60);
	else
		snprintf(buf, n, "%ld:%02ld left", left / 60, left % 60);
}

/* "12.0 MiB / 40.0 MiB  30%  5.0 MiB/s  0:05 left"; without a size,
 * "12.0 MiB / ?  5.0 MiB/s". */
static void fmt_amounts(char *buf, size_t n, int64_t have, int64_t size, double rate)
{
	char h[32], t[32] = "?", r[32], eta[32] = "";

	ptb_fmt_bytes(h, sizeof h, (double)have);
	ptb_fmt_bytes(r, sizeof r, rate);
	if (size < 0) {
		snprintf(buf, n, "%s / ?  %s/s", h, r);
		return;
	}
	ptb_fmt_bytes(t, sizeof t, (double)size);
	if (rate > 0 && size > have)
		fmt_eta(eta, sizeof eta, (double)(size - have) / rate);
	snprintf(buf, n, "%s / %s  %d%%  %s/s%s%s", h, t,
	         size > 0 ? (int)(100 * have / size) : 100, r, *eta ? "  " : "", eta);
}

/* One screen line, cut to the terminal's width (a wrapped line would
 * break the redraw). */
static void put_line(const char *s, size_t width, int newline)
{
	size_t len = strlen(s);

	fwrite(s, 1, len < width ? len : width, stderr);
	if (newline)
		fputc('\n', stderr);
}

void ptb_progress_draw(struct ptb_progress *p, int final)
{
	double t = now_s(), el;
	char line[512], amounts[160];
	struct winsize ws;
	size_t width = 80;

	if (!p || p->mode < 2)
		return;
	if (final) {
		clear(p);
		fflush(stderr);
		return;
	}
	if (t - p->last < 0.1)
		return;
	p->last = t;
	el = t - p->t0;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = ws.ws_col;
	width--;    /* the last column would wrap on some terminals */
	clear(p);
	/* A line per transfer in flight, then the whole fetch. */
	for (size_t i = 0; i < p->n; i++) {
		struct ptb_progress_slot *s = &p->slots[i];
		double sel = t - s->t1;

		if (!s->active || s->done)
			continue;
		fmt_amounts(amounts, sizeof amounts, s->have, s->size,
		            sel > 0 ? (double)s->got / sel : 0);
		snprintf(line, sizeof line, "  %s%s%s  %s", s->name, s->version ? " " : "",
		         s->version ? s->version : "", amounts);
		put_line(line, width, 1);
		p->lines++;
	}
	if (p->done == p->nitems) {   /* only unpacking left */
		snprintf(line, sizeof line, "[%zu/%zu fetched, %zu unpacked] unpacking, %.0f s",
		         p->done, p->nitems, p->unpacked, el);
	} else {
		fmt_amounts(amounts, sizeof amounts, p->bytes, p->unknown ? -1 : p->total,
		            el > 0 ? (double)p->got / el : 0);
		snprintf(line, sizeof line, "[%zu/%zu fetched, %zu unpacked] %s",
		         p->done, p->nitems, p->unpacked, amounts);
	}
	put_line(line, width, 0);
	p->lines++;
	fflush(stderr);
}
