/* progress.c - progress lines and the terminal status line. */
#include "fetch/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fetch/fetch.h"
#include "util/log.h"

struct ptb_progress_slot {
	struct ptb_progress *p;
	const char *name;
	int64_t have, size;
	int active;
};

struct ptb_progress {
	int mode;
	struct ptb_progress_slot *slots;
	size_t n, cap;
	int64_t bytes, total;   /* this run's transfers only */
	double t0, last;
	int drawn;
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
	s->size = it->size;
	if (it->size > 0)
		p->total += it->size;
	return s;
}

void ptb_progress_add(struct ptb_progress_slot *s, int64_t n)
{
	if (!s)
		return;
	s->have += n;
	s->p->bytes += n;
	s->active = 1;
}

void ptb_progress_set(struct ptb_progress_slot *s, int64_t have)
{
	if (!s)
		return;
	s->p->bytes += have - s->have;
	s->have = have;
	s->active = 1;
}

static void clear(struct ptb_progress *p)
{
	if (p->drawn) {
		fputs("\r\033[K", stderr);
		p->drawn = 0;
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

	if (s)
		s->active = 0;
	p->done++;
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
	ptb_progress_line(p, "unpacked %s", name);
}

void ptb_progress_draw(struct ptb_progress *p, int final)
{
	double t = now_s(), el, rate;
	char have[32], total[32], r[32], eta[32] = "";
	int used = 0;

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
	rate = el > 0 ? (double)p->bytes / el : 0;
	ptb_fmt_bytes(have, sizeof have, (double)p->bytes);
	ptb_fmt_bytes(total, sizeof total, (double)p->total);
	ptb_fmt_bytes(r, sizeof r, rate);
	if (rate > 0 && p->total > p->bytes) {
		long left = (long)((double)(p->total - p->bytes) / rate);
		snprintf(eta, sizeof eta, "  %ld:%02ld left", left / 60, left % 60);
	}
	clear(p);
	if (p->done == p->nitems)   /* only unpacking left */
		used = fprintf(stderr, "[%zu/%zu fetched, %zu unpacked] unpacking, %.0f s",
		               p->done, p->nitems, p->unpacked, el);
	else
		used = fprintf(stderr, "[%zu/%zu fetched, %zu unpacked] %s / %s  %s/s%s",
		               p->done, p->nitems, p->unpacked, have, total, r, eta);
	for (size_t i = 0; i < p->n && used < 110; i++) {
		struct ptb_progress_slot *s = &p->slots[i];

		if (!s->active)
			continue;
		if (s->size > 0)
			used += fprintf(stderr, "  %s %d%%", s->name, (int)(100 * s->have / s->size));
		else
			used += fprintf(stderr, "  %s", s->name);
	}
	p->drawn = 1;
	fflush(stderr);
}
