/*
 * pack_exact.c - exact packing for small tenants.
 *
 * Branch and bound over "which group does each replica join", for one
 * tenant's replicas on one model. First-fit-decreasing can land well above
 * the optimum on small fleets (three 30% and two 20% jobs: FFD needs one
 * GPU more); this finds the optimum within a step budget, or keeps FFD's
 * answer. It asks pack_share.c's rules whether a replica may join a group,
 * and is called by pack.c after the first fit.
 *
 * Replicas of one workload are twins, tried in one order only, and a
 * branch whose open groups leave too little room for the rest is cut. On
 * fleet.py's mixed 1,000 replicas (seed 1) that took the searches from
 * 4.1 million steps, 63 of them stopped by the budget, to 0.47 million,
 * none stopped; in a 40-edit REPL session on 10,000, from 5.9 million
 * (105 stopped) to 1.9 million (27), finding 192 better packings where
 * 172 were found.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/memo.h"
#include "plan/plan_ident.h"
#include "plan/pack.h"

#define EXACT_MAX_REPLICAS 24
#define EXACT_MAX_STEPS 50000L

typedef struct bb {
	const gs_planner *pl;
	const gs_gpu *g;
	const int *items;  /* replicas, biggest first */
	int n;
	gs_group *bins;
	int nb;
	int *assign, *best;
	int best_nb, lb;
	long steps;
	/* Of the items from i on: their memory, the compute of those within
	 * the target, and how many are over it (each alone on a GPU). */
	int64_t rest_mem[EXACT_MAX_REPLICAS + 1], rest_comp[EXACT_MAX_REPLICAS + 1];
	int rest_alone[EXACT_MAX_REPLICAS + 1];
	/* The item before i that is its twin (same workload and the same
	 * figures the rules read), -1: none. */
	int twin[EXACT_MAX_REPLICAS];
} bb;

static void bb_put(bb *b, int j, int r, int add)
{
	gs_group *gr = &b->bins[j];
	int64_t mem = b->pl->reps[r].w->memory_bytes, comp = gs_rep_comp(b->pl, r, b->g);
	if (add) {
		gr->reps[gr->n++] = r;
		gr->mem += mem;
		gr->comp += comp;
	} else {
		gr->n--;
		gr->mem -= mem;
		gr->comp -= comp;
	}
	gr->no_ts = 0;
	gr->headroom = 0;
	for (int k = 0; k < gr->n; k++) {
		const gs_replica *x = &b->pl->reps[gr->reps[k]];
		gr->no_ts |= x->no_ts;
		if (x->headroom > gr->headroom)
			gr->headroom = x->headroom;
	}
}

/* Two groups in the same state lead to the same subtrees: only the first
 * of them from `from` on is worth trying. */
static int same_as_earlier(const bb *b, int from, int j)
{
	for (int k = from; k < j; k++)
		if (b->bins[k].n == b->bins[j].n && b->bins[k].mem == b->bins[j].mem &&
		    b->bins[k].comp == b->bins[j].comp &&
		    b->bins[k].headroom == b->bins[j].headroom &&
		    b->bins[k].no_ts == b->bins[j].no_ts)
			return 1;
	return 0;
}

/* The groups that the items from i on need besides the open ones, at
 * least: what memory and compute the open ones have no room for, and a
 * group of its own for each replica over the target (lower_bound's
 * rules, on what is left). */
static int more_needed(const bb *b, int i)
{
	int64_t cap = gs_gpu_bytes(b->g), target = b->pl->target, mem, comp;
	int by_mem, by_comp;
	mem = b->rest_mem[i];
	comp = b->rest_comp[i];
	for (int j = 0; j < b->nb; j++) {
		mem -= b->bins[j].mem < cap ? cap - b->bins[j].mem : 0;
		comp -= b->bins[j].comp < target ? target - b->bins[j].comp : 0;
	}
	by_mem = mem > 0 ? (int)gs_div_ceil(mem, cap) : 0;
	by_comp = b->rest_alone[i] + (comp > 0 ? (int)gs_div_ceil(comp, target) : 0);
	return by_mem > by_comp ? by_mem : by_comp;
}

/* A branch that cannot use fewer groups than the best found is cut:
 * without that, searches that ran out of steps were nine tenths of the
 * steps of a REPL session on fleet.py's mixed 10,000 replicas. */
static void bb_search(bb *b, int i)
{
	int r;
	if (++b->steps > EXACT_MAX_STEPS || b->best_nb <= b->lb ||
	    b->nb + more_needed(b, i) >= b->best_nb)
		return;
	if (i == b->n) {
		if (b->nb < b->best_nb) {
			b->best_nb = b->nb;
			memcpy(b->best, b->assign, (size_t)b->n * sizeof *b->best);
		}
		return;
	}
	r = b->items[i];
	/* Twins are interchangeable: a packing with them in groups of
	 * falling order is the same packing with them swapped, so a twin
	 * goes where its earlier twin went or later. */
	for (int j = b->twin[i] >= 0 ? b->assign[b->twin[i]] : 0; j < b->nb; j++) {
		if (same_as_earlier(b, b->twin[i] >= 0 ? b->assign[b->twin[i]] : 0, j) ||
		    !gs_can_join(b->pl, b->g, &b->bins[j], r))
			continue;
		bb_put(b, j, r, 1);
		b->assign[i] = j;
		bb_search(b, i + 1);
		bb_put(b, j, r, 0);
	}
	if (b->nb + 1 < b->best_nb) {
		gs_group *gr = &b->bins[b->nb++];
		gr->tenant = b->pl->reps[r].tenant;
		bb_put(b, b->nb - 1, r, 1);
		b->assign[i] = b->nb - 1;
		bb_search(b, i + 1);
		bb_put(b, b->nb - 1, r, 0);
		b->nb--;
	}
}

/* A bound no packing can beat: memory, and compute where replicas over
 * the target must be alone. */
static int lower_bound(const gs_planner *pl, const gs_gpu *g, const int *items, int n)
{
	int64_t mem = 0, comp = 0;
	int alone = 0, lb_mem, lb_comp;
	for (int i = 0; i < n; i++) {
		int64_t c = gs_rep_comp(pl, items[i], g);
		mem += pl->reps[items[i]].w->memory_bytes;
		if (c > pl->target)
			alone++;
		else
			comp += c;
	}
	lb_mem = (int)gs_div_ceil(mem, gs_gpu_bytes(g));
	lb_comp = alone + (int)gs_div_ceil(comp, pl->target);
	return lb_mem > lb_comp ? lb_mem : lb_comp;
}

/* Tenant t's replicas into items, biggest first, and how many groups FFD
 * gave them; -1 when the tenant is too big for the search. */
static int tenant_items(const gs_planner *pl, const gs_gpu *g, const gs_group *gs, int ng,
                        int t, int *items, int *n)
{
	int ffd = 0;
	*n = 0;
	for (int j = 0; j < ng; j++) {
		if (gs[j].tenant != t)
			continue;
		ffd++;
		for (int k = 0; k < gs[j].n; k++) {
			if (*n == EXACT_MAX_REPLICAS)
				return -1;
			items[(*n)++] = gs[j].reps[k];
		}
	}
	/* FFD order already put big replicas first within each group; sort
	 * the whole tenant so the search places big ones first. */
	for (int i = 1; i < *n; i++)
		for (int j = i; j > 0 &&
		     gs_rep_size(pl, items[j], g) > gs_rep_size(pl, items[j - 1], g); j--) {
			int x = items[j];
			items[j] = items[j - 1];
			items[j - 1] = x;
		}
	return ffd;
}

/* The last item before i that is a replica of the same workload with
 * the same figures, or -1. */
static int twin_of(const gs_planner *pl, const int *items, int i)
{
	const gs_replica *r = &pl->reps[items[i]];
	for (int k = i - 1; k >= 0; k--) {
		const gs_replica *x = &pl->reps[items[k]];
		if (x->wi == r->wi && x->no_ts == r->no_ts && x->headroom == r->headroom &&
		    x->no_mig == r->no_mig)
			return k;
	}
	return -1;
}

/* Drops tenant t's groups, then appends the ones the search found: group
 * k holds the items i with best[i] == k. */
static int replace_groups(const gs_planner *pl, const gs_gpu *g, gs_group *gs, int *ngp,
                          int t, const bb *b)
{
	int w = 0, rc = 0;
	for (int j = 0; j < *ngp; j++) {
		if (gs[j].tenant == t) {
			free(gs[j].reps);
			continue;
		}
		gs[w++] = gs[j];
	}
	for (int k = 0; k < b->best_nb && rc == 0; k++) {
		gs_group *gr = &gs[w++];
		memset(gr, 0, sizeof *gr);
		gr->tenant = t;
		for (int i = 0; i < b->n && rc == 0; i++)
			if (b->best[i] == k)
				rc = gs_group_join(pl, g, gr, b->items[i]);
	}
	*ngp = w;
	return rc;
}

/* The memo's key of a search: everything the rules it asks read (the
 * model, the target, placement, MPS and where worst cases are counted),
 * FFD's group count and the items in order. */
static int search_key(const gs_planner *pl, const bb *b, int64_t *key)
{
	int k = 0;
	key[k++] = (int64_t)(intptr_t)b->g;
	key[k++] = pl->target;
	key[k++] = pl->placement;
	key[k++] = pl->no_mps * 2 + pl->via_dra;
	key[k++] = pl->robust_bound != NULL;
	key[k++] = b->best_nb;
	for (int i = 0; i < b->n; i++)
		key[k++] = b->items[i];
	return k;
}

/* With a gs_plan_cache (pl->evals), the key also says what each item is,
 * not where: the search reads its replicas, not their indices, so it is
 * found again after an edit moved them. In new memory; NULL when out of
 * it. */
static int64_t *kept_key(const gs_planner *pl, const bb *b, int *nkey)
{
	size_t n = 6 + (size_t)b->n * gs_ident_replica(pl, b->items[0], NULL) +
	           gs_ident_planner(pl, NULL), k;
	int64_t *key = malloc(n * sizeof *key);
	if (!key)
		return NULL;
	k = (size_t)search_key(pl, b, key) - (size_t)b->n;
	for (int i = 0; i < b->n; i++)
		k += gs_ident_replica(pl, b->items[i], key + k);
	k += gs_ident_planner(pl, key + k);
	*nkey = (int)k;
	return key;
}

/* The search, or its result from the memo: b->best_nb and b->best, and
 * the worst cases it counted in pl->robust_bound. */
static void search(const gs_planner *pl, bb *b)
{
	int64_t own[EXACT_MAX_REPLICAS + 8], val[EXACT_MAX_REPLICAS + 1];
	int nkey = 0, nval;
	int64_t *kept = pl->evals && b->n ? kept_key(pl, b, &nkey) : NULL;
	int64_t *key = kept ? kept : own;
	gs_memo *memo = kept ? pl->evals : pl->memo;
	long before = pl->robust_bound ? *pl->robust_bound : 0, counted;
	const int64_t *got;
	if (!kept)
		nkey = search_key(pl, b, own);
	got = gs_memo_get(memo, key, nkey, &nval, &counted);
	if (got) {
		b->best_nb = (int)got[0];
		for (int i = 0; i < b->n; i++)
			b->best[i] = (int)got[1 + i];
		if (pl->robust_bound)
			*pl->robust_bound += counted;
		free(kept);
		return;
	}
	bb_search(b, 0);
	val[0] = b->best_nb;
	for (int i = 0; i < b->n; i++)
		val[1 + i] = b->best[i];
	counted = pl->robust_bound ? *pl->robust_bound - before : 0;
	gs_memo_put(memo, key, nkey, val, b->n + 1, counted);
	free(kept);
}

/* Replaces tenant t's groups among gs[0..*ngp) by an exact packing when
 * that needs fewer groups. */
static int exact_tenant(const gs_planner *pl, const gs_gpu *g, gs_group *gs, int *ngp,
                        int t)
{
	int items[EXACT_MAX_REPLICAS], assign[EXACT_MAX_REPLICAS], best[EXACT_MAX_REPLICAS];
	int store[EXACT_MAX_REPLICAS][EXACT_MAX_REPLICAS];
	gs_group bins[EXACT_MAX_REPLICAS];
	int n, ffd = tenant_items(pl, g, gs, *ngp, t, items, &n);
	bb b;

	if (ffd < 0)
		return 0;
	memset(&b, 0, sizeof b);
	memset(bins, 0, sizeof bins);
	for (int j = 0; j < EXACT_MAX_REPLICAS; j++)
		bins[j].reps = store[j];
	b.pl = pl;
	b.g = g;
	b.items = items;
	b.n = n;
	b.bins = bins;
	b.assign = assign;
	b.best = best;
	b.best_nb = ffd;
	b.lb = lower_bound(pl, g, items, n);
	for (int i = 0; i < n; i++)
		b.twin[i] = twin_of(pl, items, i);
	for (int i = n - 1; i >= 0; i--) {
		int64_t c = gs_rep_comp(pl, items[i], g);
		b.rest_mem[i] = b.rest_mem[i + 1] + pl->reps[items[i]].w->memory_bytes;
		b.rest_comp[i] = b.rest_comp[i + 1] + (c > pl->target ? 0 : c);
		b.rest_alone[i] = b.rest_alone[i + 1] + (c > pl->target);
	}
	if (ffd <= b.lb)
		return 0;
	search(pl, &b);
	if (b.best_nb >= ffd)
		return 0;
	return replace_groups(pl, g, gs, ngp, t, &b);
}

/* exact_tenant reorders the groups, so the tenants are collected first,
 * with their replicas counted: a tenant of more than the search takes is
 * passed over without gathering its groups (at a million replicas that
 * was a scan of every group per tenant, per packing). */
int gs_share_exact(const gs_planner *pl, const gs_gpu *g, gs_group *gs, int *ng)
{
	int *tenants = malloc((size_t)(*ng ? *ng : 1) * 2 * sizeof *tenants), nt = 0, rc = 0;
	int *reps;
	if (!tenants)
		return -1;
	reps = tenants + (*ng ? *ng : 1);
	for (int j = 0; j < *ng; j++) {
		int k = 0;
		while (k < nt && tenants[k] != gs[j].tenant)
			k++;
		if (k == nt) {
			tenants[nt] = gs[j].tenant;
			reps[nt++] = 0;
		}
		reps[k] += gs[j].n;
	}
	for (int k = 0; k < nt && rc == 0; k++)
		if (reps[k] <= EXACT_MAX_REPLICAS)
			rc = exact_tenant(pl, g, gs, ng, tenants[k]);
	free(tenants);
	return rc;
}
