/*
 * split.c - a price split exactly by weights: every part is rounded down,
 * and the micro-dollars that are left go one each to the parts with the
 * largest remainders (ties to the earlier part), so the parts add up to
 * the price and none is more than a micro-dollar from its exact share.
 */
#include <stdlib.h>

#include "cost/cost.h"

typedef struct part {
	gs_wide rem;
	size_t item;
} part;

static int by_remainder(const void *a, const void *b)
{
	const part *x = a, *y = b;
	if (x->rem != y->rem)
		return x->rem < y->rem ? 1 : -1;
	return (x->item > y->item) - (x->item < y->item);
}

int gs_cost_split(gs_micros total, const gs_wide *w, size_t n, gs_micros *out)
{
	part *p = malloc((n ? n : 1) * sizeof *p);
	gs_wide sum = 0;
	gs_micros left = total;

	if (!p)
		return -1;
	for (size_t i = 0; i < n; i++)
		sum += w[i];
	for (size_t i = 0; i < n; i++) {
		gs_wide x = (gs_wide)total * w[i];
		out[i] = (gs_micros)(x / sum);
		p[i] = (part){ x % sum, i };
		left -= out[i];
	}
	qsort(p, n, sizeof *p, by_remainder);
	/* left < n: each part lost less than one micro-dollar. */
	for (size_t i = 0; left > 0 && i < n; i++, left--)
		out[p[i].item]++;
	free(p);
	return 0;
}
