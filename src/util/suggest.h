/* suggest.h - "did you mean": the known word closest to a mistyped one. */
#ifndef PTB_SUGGEST_H
#define PTB_SUGGEST_H

#include <stddef.h>

/* Edit distance between a and b (insertions, deletions, substitutions
 * and swaps of two neighbours each count one). */
size_t ptb_suggest_distance(const char *a, const char *b);

/* The candidate closest to word when it is close: at most one edit for a
 * word of up to four characters, two up to eight, three beyond; the first
 * of equally close ones.  NULL when none is close or word is one of them.
 * NULL entries in cands are skipped. */
const char *ptb_suggest(const char *word, const char *const *cands, size_t n);

#endif
