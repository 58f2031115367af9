/* progress.h - what a fetch tells the user while it runs (stderr).
 * Mode 0: nothing (-q).  Mode 1 (not a terminal): retries and warnings
 * only; a line per finished component with -v; the caller prints one
 * summary line.  Mode 2 (a terminal): lines redrawn in place - one per
 * transfer in flight (bytes, size, percentage, rate, time left) and an
 * overall one - with a line per finished component above them. */
#ifndef PTB_PROGRESS_H
#define PTB_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct ptb_fetch_item;
struct ptb_progress;
struct ptb_progress_slot;

struct ptb_progress *ptb_progress_new(int mode, size_t nitems);
void ptb_progress_free(struct ptb_progress *p);
struct ptb_progress_slot *ptb_progress_slot(struct ptb_progress *p,
                                            const struct ptb_fetch_item *it);
void ptb_progress_add(struct ptb_progress_slot *s, int64_t n);
void ptb_progress_set(struct ptb_progress_slot *s, int64_t have);
/* The size of a slot whose item named none (the server's Content-Length). */
void ptb_progress_size(struct ptb_progress_slot *s, int64_t size);
/* Bytes that came over the network in this progress object's life, and
 * the seconds since it was made. */
int64_t ptb_progress_received(const struct ptb_progress *p, double *secs);
void ptb_progress_done(struct ptb_progress *p, struct ptb_progress_slot *s,
                       const struct ptb_fetch_item *it, double secs);
void ptb_progress_cached(struct ptb_progress *p, const struct ptb_fetch_item *it);
void ptb_progress_retry(struct ptb_progress *p, const struct ptb_fetch_item *it,
                        int attempt, const char *why, long code, double delay);
void ptb_progress_unpacked(struct ptb_progress *p, const char *name);
/* A line above the status line (mode >= 1). */
void ptb_progress_line(struct ptb_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Redraw at most 10 times a second, or now when final (then clears). */
void ptb_progress_draw(struct ptb_progress *p, int final);
/* The progress object in use, for the install steps to print through. */
struct ptb_progress *ptb_progress_current(void);
/* "12.3 MiB" */
void ptb_fmt_bytes(char *buf, size_t n, double bytes);

#endif
