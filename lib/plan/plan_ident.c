/*
 * plan_ident.c - the words of a plan's input for keys that outlive the
 * plan (plan_ident.h).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/memo.h"
#include "plan/plan_ident.h"
#include "plan/plan_internal.h"
#include "scenario/scenario.h"

/* The words flags_of writes. */
#define FLAGS 4

/* What a key must know of replica p beyond its workload's keys. */
static size_t flags_of(const gs_replica *p, int64_t *to)
{
	to[0] = p->tenant;
	to[1] = p->no_ts;
	to[2] = p->headroom;
	to[3] = p->spread;
	return FLAGS;
}

int gs_ident_init(gs_planner *pl, gs_plan_cache *cache)
{
	const gs_scenario *s = pl->s;
	int rc = 0;
	if (!cache)
		return 0;
	if (!(pl->ident = malloc((s->n + 1) * sizeof *pl->ident)))
		return -1;
	for (size_t w = 0; w <= s->n && rc == 0; w++) {
		char *text = NULL;
		/* A workload's keys as the last plan named them: writing them
		 * out was 9 ms of a 70 ms re-plan of 2,200 workloads. */
		if (w < s->n && gs_plan_cache_stamped(cache, s->w[w]->stamp, &pl->ident[w]))
			continue;
		rc = gs_scenario_text(s, w < s->n ? s->w[w] : NULL, &text);
		if (rc == 0)
			rc = gs_plan_cache_id(cache, text, &pl->ident[w]);
		if (rc == 0 && w < s->n)
			gs_plan_cache_stamp(cache, s->w[w]->stamp, pl->ident[w]);
		free(text);
	}
	if (rc < 0)
		return -1;
	gs_memo_free(pl->groups);
	pl->groups = gs_plan_cache_groups(cache, 0);
	pl->groups2 = gs_plan_cache_groups(cache, 1);
	pl->groups_kept = 1;
	pl->evals = gs_plan_cache_evals(cache, 0);
	pl->evals2 = gs_plan_cache_evals(cache, 1);
	pl->packs = gs_plan_cache_packs(cache, 0);
	pl->packs2 = gs_plan_cache_packs(cache, 1);
	pl->gevals = gs_plan_cache_group_evals(cache);
	return 0;
}

/* Do a and b give a key the same flags? Read through flags_of, so that a
 * flag added there can never join replicas whose flags differ. */
static int same_flags(const gs_replica *a, const gs_replica *b)
{
	int64_t x[FLAGS], y[FLAGS];
	flags_of(a, x);
	flags_of(b, y);
	return !memcmp(x, y, sizeof x);
}

/* The replicas' flags go as runs (a count, then the flags that many
 * replicas in a row share): a workload's replicas nearly always share
 * theirs, and four words a replica made the keys of bench.c's re-plan
 * 80 KB each. The replica count first says where the runs end. */
size_t gs_ident_workload(const gs_planner *pl, int w, int at, int64_t *to)
{
	int lo = pl->rep_at[w], hi = pl->rep_at[w + 1];
	size_t k = 3;
	if (!to)
		return 3 + (1 + FLAGS) * (size_t)(hi - lo);
	to[0] = pl->ident[w];
	to[1] = at ? lo : -1;
	to[2] = hi - lo;
	for (int r = lo, e; r < hi; r = e) {
		for (e = r + 1; e < hi && same_flags(&pl->reps[r], &pl->reps[e]); e++)
			;
		to[k++] = e - r;
		k += flags_of(&pl->reps[r], to + k);
	}
	return k;
}

size_t gs_ident_replica(const gs_planner *pl, int r, int64_t *to)
{
	const gs_replica *p = &pl->reps[r];
	if (to) {
		to[0] = pl->ident[p->wi];
		to[1] = r - pl->rep_at[p->wi];
		flags_of(p, to + 2);
		to[2 + FLAGS] = p->no_mig;
	}
	return 3 + FLAGS;
}

size_t gs_ident_planner(const gs_planner *pl, int64_t *to)
{
	int64_t v[] = { pl->ident[pl->s->n], (int64_t)(intptr_t)pl->cat, pl->target,
		        pl->nmodels, pl->via_dra, pl->frac_ts, pl->frac_mps, pl->no_mps_dra,
		        pl->placement, pl->wide, pl->wide_apart, pl->host_needs,
		        pl->effort, pl->tenant_work, pl->quick, pl->cost != NULL };
	size_t k = sizeof v / sizeof *v;
	if (to)
		memcpy(to, v, sizeof v);
	for (int m = 0; m < pl->nmodels; m++) {
		if (to) {
			to[k] = (int64_t)(intptr_t)pl->models[m];
			to[k + 1] = pl->gpu_price[m];
			to[k + 2] = pl->model_arch[m];
			to[k + 3] = pl->cap_cpu[m];
			to[k + 4] = pl->cap_mem[m];
		}
		k += 5;
	}
	return k + gs_memo_text(pl->cloud, to ? to + k : NULL);
}
