/*
 * search_groups.c - the groups the model search takes one at a time
 * (search_groups.h).
 *
 * A tenant's search re-packs only its own replicas, which is exact since
 * tenants never share a GPU. A fleet of one tenant, the default, got
 * none of it, and its whole search, whose budget at 1,000 replicas cannot
 * try each move once, stopped early: fleet.py's mixed 1,000 replicas all
 * in one tenant planned at $658.71/h, where in their seven tenants they
 * planned at $619.54/h. Blocks of one tenant may share GPUs once planned,
 * so a block's search sees dearer packings than the plan will have: it
 * only guides, as a tenant's does, and the whole search goes on from
 * there.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/search_groups.h"

void gs_groups_release(gs_groups *g)
{
	free(g->of);
	free(g->wls);
	free(g->at);
	memset(g, 0, sizeof *g);
}

static int replicas_of(const gs_planner *pl, int w)
{
	return pl->rep_at[w + 1] - pl->rep_at[w];
}

/* Tenant t's workloads into groups: one, or blocks (search_groups.h)
 * where it is large; the last block takes what is left. */
static void split(const gs_planner *pl, int t, int *of)
{
	const int *wls = pl->tenant_wls + pl->tenant_at[t];
	int nw = pl->tenant_at[t + 1] - pl->tenant_at[t], left = 0, id = wls[0], in = 0, big;
	int in_w = 0;
	for (int i = 0; i < nw; i++)
		left += replicas_of(pl, wls[i]);
	big = left > GS_SPLIT_REPLICAS && nw >= 2 * GS_BLOCK_WORKLOADS;
	for (int i = 0; i < nw; i++) {
		/* left: the replicas from the block's first workload on. */
		if (big && in >= GS_BLOCK_REPLICAS && in_w >= GS_BLOCK_WORKLOADS &&
		    left - in >= GS_BLOCK_REPLICAS && nw - i >= GS_BLOCK_WORKLOADS) {
			id = wls[i];
			left -= in;
			in = in_w = 0;
		}
		of[wls[i]] = id;
		in += replicas_of(pl, wls[i]);
		in_w++;
	}
}

int gs_groups_init(const gs_planner *pl, gs_groups *g)
{
	size_t n = pl->s->n;
	memset(g, 0, sizeof *g);
	if (!(g->of = calloc(n + 1, sizeof *g->of)) || !(g->wls = calloc(n + 1, sizeof *g->wls)) ||
	    !(g->at = calloc(n + 2, sizeof *g->at))) {
		gs_groups_release(g);
		return -1;
	}
	for (size_t t = 0; t < n; t++)
		if (pl->tenant_at[t + 1] > pl->tenant_at[t])
			split(pl, (int)t, g->of);
	/* By counting, as the tenants are indexed (planner.c). */
	for (size_t w = 0; w < n; w++)
		g->at[g->of[w] + 2]++;
	for (size_t i = 2; i < n + 2; i++)
		g->at[i] += g->at[i - 1];
	for (size_t w = 0; w < n; w++)
		g->wls[g->at[g->of[w] + 1]++] = (int)w;
	for (size_t i = 0; i < n; i++)
		g->n += g->at[i + 1] > g->at[i];
	return 0;
}
