/* suggest.c - the optimal string alignment distance (Levenshtein plus
 * the swap of two neighbours), for "did you mean" hints. */
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

size_t ptb_suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *d = ptb_xcalloc((la + 1) * (lb + 1), sizeof *d);
	size_t r;

#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (size_t i = 0; i <= la; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t best = D(i - 1, j - 1) + (a[i - 1] != b[j - 1]);

			if (D(i - 1, j) + 1 < best)
				best = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < best)
				best = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < best)
				best = D(i - 2, j - 2) + 1;
			D(i, j) = best;
		}
	}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

const char *ptb_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t len = strlen(word);
	size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	const char *best = NULL;
	size_t best_d = limit + 1;

	for (size_t i = 0; i < n; i++) {
		size_t dist;

		if (!cands[i])
			continue;
		dist = ptb_suggest_distance(word, cands[i]);
		if (dist == 0)
			return NULL;
		if (dist < best_d) {
			best = cands[i];
			best_d = dist;
		}
	}
	return best;
}
