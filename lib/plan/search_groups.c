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

#include "plan/memo.h"
#include "plan/group_evals.h"
#include "plan/plan_ident.h"
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

/* ---- what a group's search found ----------------------------------------- */

enum { GROUP_HEAD = 6 };

long gs_group_replicas(const gs_planner *pl, const gs_groups *g, size_t t)
{
	long n = 0;
	for (int i = g->at[t]; i < g->at[t + 1]; i++)
		n += replicas_of(pl, g->wls[i]);
	return n;
}

/* Notes workload w's words in r. */
static int note(gs_group_rec *r, const gs_planner *pl, int w)
{
	size_t n = gs_ident_workload(pl, w, 0, NULL);
	int64_t *words = malloc(n * sizeof *words);
	int rc = words ? 0 : -1;
	if (words) {
		n = gs_ident_workload(pl, w, 0, words);
		rc = gs_group_rec_note(pl->gevals, r, w, words, n);
	}
	free(words);
	return rc;
}

gs_group_rec *gs_group_open(const gs_planner *pl, const gs_groups *g, size_t t)
{
	size_t n;
	int64_t *who;
	gs_group_rec *r;
	if (!pl->gevals)
		return NULL;
	n = 2 + gs_ident_planner(pl, NULL);
	if (!(who = malloc(n * sizeof *who)))
		return NULL;
	who[0] = (int64_t)t;
	who[1] = g->at[t + 1] - g->at[t];
	gs_ident_planner(pl, who + 2);
	r = gs_group_evals_open(pl->gevals, who, n, pl->s->n);
	free(who);
	for (int i = g->at[t]; r && i < g->at[t + 1]; i++)
		if (note(r, pl, g->wls[i]) < 0)
			r = NULL;
	return r;
}

int64_t *gs_group_key(const gs_planner *pl, const gs_choice *c, const gs_groups *g, size_t t,
                      long share, long budget, int *nkey)
{
	size_t n = GROUP_HEAD, k = 0;
	int64_t *key;
	for (int i = g->at[t]; i < g->at[t + 1]; i++) {
		int w = g->wls[i];
		n += 3 + (size_t)c->ncand[w] + (size_t)replicas_of(pl, w);
		if (pl->ident)
			n += gs_ident_workload(pl, w, 0, NULL);
	}
	if (pl->ident)
		n += gs_ident_planner(pl, NULL);
	if (n > INT32_MAX || !(key = malloc(n * sizeof *key)))
		return NULL;
	key[k++] = (int64_t)t;
	key[k++] = share;
	key[k++] = budget;
	key[k++] = pl->no_mig;
	key[k++] = pl->no_mps;
	key[k++] = g->at[t + 1] - g->at[t];
	for (int i = g->at[t]; i < g->at[t + 1]; i++) {
		int w = g->wls[i];
		key[k++] = w;
		key[k++] = c->model[w];
		key[k++] = c->ncand[w];
		for (int j = 0; j < c->ncand[w]; j++)
			key[k++] = c->cands[w][j];
		for (int r = pl->rep_at[w]; r < pl->rep_at[w + 1]; r++)
			key[k++] = pl->reps[r].no_mig;
		if (pl->ident)
			k += gs_ident_workload(pl, w, 0, key + k);
	}
	if (pl->ident)
		k += gs_ident_planner(pl, key + k);
	*nkey = (int)k;
	return key;
}

int gs_group_recall(const gs_planner *pl, const int64_t *key, int nkey, gs_choice *c,
                    const gs_groups *g, size_t t, long *share)
{
	int nval;
	long unused;
	const int64_t *got = pl->groups ? gs_memo_get(pl->groups, key, nkey, &nval, &unused)
	                                : NULL;
	if (!got || nval != 1 + g->at[t + 1] - g->at[t])
		return 0;
	*share = (long)got[0];
	for (int i = g->at[t]; i < g->at[t + 1]; i++)
		c->model[g->wls[i]] = (int)got[1 + i - g->at[t]];
	return 1;
}

void gs_group_keep(const gs_planner *pl, const int64_t *key, int nkey, const gs_choice *c,
                   const gs_groups *g, size_t t, long share)
{
	int nw = g->at[t + 1] - g->at[t];
	int64_t *val = pl->groups ? malloc((size_t)(nw + 1) * sizeof *val) : NULL;
	if (!val)
		return;
	val[0] = share;
	for (int i = 0; i < nw; i++)
		val[1 + i] = c->model[g->wls[g->at[t] + i]];
	gs_memo_put(pl->groups, key, nkey, val, nw + 1, 0);
	free(val);
}
