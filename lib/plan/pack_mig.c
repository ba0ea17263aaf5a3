/*
 * pack_mig.c - MIG instances: the profile a group needs, and packing
 * instances onto GPUs within the geometries the GPU allows. MIG is the only
 * way tenants may share a GPU.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/host.h"
#include "plan/mig_fits.h"
#include "plan/pack.h"
#include "plan/radix.h"
#include "plan/robust.h"

int gs_mig_candidate(const gs_gpu *g, const gs_mig_profile *p)
{
	return !p->variant && p->compute_slices < g->mig_compute_slices;
}

int gs_mig_candidate_for(const gs_gpu *g, const gs_mig_profile *p, int fault)
{
	return fault ? !p->variant : gs_mig_candidate(g, p);
}

gs_rule gs_mig_holds(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                     const gs_mig_profile *p, gs_rule_figs *f)
{
	int64_t share = (int64_t)p->sm_count * GS_PPM / g->sm_count;
	int64_t cap = gr->n > 1 ? share * pl->target / GS_PPM : share;
	if (f)
		f->prof = p;
	int64_t offer = gs_memory_offer(g, p, gr->n > 1 ? GS_STRATEGY_TIME_SLICING
	                                              : GS_STRATEGY_DEDICATED,
	                                gr->headroom);
	gs_worst w = { gr->mem, gr->comp };
	/* A time-sliced instance's slots go to any pod that asks its profile. */
	if (gr->n > 1 && pl->placement == GS_PLACEMENT_ROBUST)
		w = gs_robust_bind(pl, w, gs_robust_worst(pl, g, gr->reps, gr->n, -1, gr->n),
		                   offer);
	if (w.mem > offer)
		return gs_rule_fig(f, GS_RULE_MIG_MEMORY, w.mem, offer, gr->n, -1);
	if (w.comp > cap)
		return gs_rule_fig(f, GS_RULE_MIG_COMPUTE, w.comp, cap, gr->n, -1);
	return GS_RULE_OK;
}

/* Fewest slots, then fewest compute slices. */
static int smaller(const gs_mig_profile *a, const gs_mig_profile *b)
{
	return a->memory_slices != b->memory_slices ? a->memory_slices < b->memory_slices
	                                            : a->compute_slices < b->compute_slices;
}

gs_rule gs_mig_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                    const gs_mig_profile **prof, gs_rule_figs *f)
{
	const gs_mig_profile *best = NULL, *largest = NULL;
	*prof = NULL;
	if (pl->no_mig)
		return GS_RULE_MIG_OFF;
	if (!g->mig_slots)
		return GS_RULE_NO_MIG;
	if (gr->n > 1 && gr->no_ts)
		return GS_RULE_MIG_TS;
	/* (A group without replicas stands for one asked about: advise.) */
	for (int i = 0; gr->reps && i < gr->n; i++)
		if (pl->reps[gr->reps[i]].no_mig)
			return GS_RULE_MIG_MIXED;
	/* The device plugin hands a time-sliced instance's slots to any pod
	 * of its profile on the node, two of one spread: gpu workload among
	 * them: such a replica keeps an instance of its own, on a GPU that
	 * time-slices none (mig_strict). A DRA claim names its instance. */
	for (int i = 0; gr->reps && gr->n > 1 && !pl->via_dra && i < gr->n; i++)
		if (pl->reps[gr->reps[i]].spread == GS_SPREAD_GPU)
			return GS_RULE_SPREAD;
	for (size_t i = 0; i < g->n_mig_profiles; i++) {
		const gs_mig_profile *p = &g->mig_profiles[i];
		if (!gs_mig_candidate(g, p))
			continue;
		if (!largest || smaller(largest, p))
			largest = p;
		if (gs_mig_holds(pl, g, gr, p, NULL) == GS_RULE_OK && (!best || smaller(p, best)))
			best = p;
	}
	if (best) {
		*prof = best;
		return GS_RULE_OK;
	}
	/* Nothing holds it: the largest candidate says by how much. */
	return largest ? gs_mig_holds(pl, g, gr, largest, f) : GS_RULE_NO_MIG;
}

const gs_mig_profile *gs_mig_profile_for(const gs_planner *pl, const gs_gpu *g,
                                         const gs_group *gr)
{
	const gs_mig_profile *best;
	gs_mig_rule(pl, g, gr, &best, NULL);
	return best;
}

/* The device plugin advertises one slot count per MIG profile and node,
 * so a GPU that time-slices an instance may hold no instance that must
 * stay alone: one fault-isolated or ruled out of time-slicing, or one
 * over the target that sharing would apply to it. Nodes keep the two
 * kinds of GPU apart (planner.h's node keys). */
static int mig_strict(const gs_planner *pl, const gs_gpu *g, const gs_group *gr)
{
	const gs_replica *r;
	int64_t share;
	if (gr->n != 1)
		return 0;
	r = &pl->reps[gr->reps[0]];
	share = (int64_t)gr->prof->sm_count * GS_PPM / g->sm_count;
	return r->w->isolation_fault || r->no_ts || gr->comp > share * pl->target / GS_PPM ||
	       (r->spread == GS_SPREAD_GPU && !pl->via_dra);
}

/* Does group gr hold a replica of a workload with spread: gpu? */
static int spreads_gpu(const gs_planner *pl, const gs_group *gr)
{
	for (int k = 0; k < gr->n; k++)
		if (pl->reps[gr->reps[k]].spread == GS_SPREAD_GPU)
			return 1;
	return 0;
}

/* What the rules ask of an instance whatever GPU it tries, found once
 * per instance rather than once per GPU of the window. */
typedef struct facts {
	int strict;      /* mig_strict */
	int spread;      /* some replica's workload spreads */
	int spreads_gpu; /* spreads_gpu */
} facts;

static facts facts_of(const gs_planner *pl, const gs_gpu *g, const gs_group *gr)
{
	facts f = { mig_strict(pl, g, gr), 0, spreads_gpu(pl, gr) };
	for (int k = 0; k < gr->n && !f.spread; k++)
		f.spread = pl->reps[gr->reps[k]].spread != GS_SPREAD_NONE;
	return f;
}

/* Under the device plugin a pod takes any instance of its profile on its
 * node, whatever the placement (pinned copies select a node, not an
 * instance): a GPU with two instances of one profile could seat two
 * replicas of a spread: gpu workload that asks it. A DRA claim names its
 * instance. */
static int spread_profile_clash(const gs_planner *pl, const gs_pgpu *pg, const gs_group *gr,
                                const facts *f)
{
	if (pl->via_dra)
		return 0;
	for (int i = 0; i < pg->ng; i++)
		if (pg->g[i].prof == gr->prof && (f->spreads_gpu || spreads_gpu(pl, &pg->g[i])))
			return 1;
	return 0;
}

/* The instances of gr's profile on the GPU, gr with them, at the one
 * count the device plugin gives them all (gs_robust_mig_ts_holds). An
 * instance alone of its profile was held at its own count when its
 * profile was chosen (gs_mig_holds). */
static int ts_pool_holds(const gs_planner *pl, const gs_pgpu *pg, const gs_group *gr)
{
	/* A GPU holds at most its memory slices' instances: 8. */
	const gs_group *gs[16];
	int n = 0;
	if (pg->ng >= 16)
		return 0;
	for (int i = 0; i < pg->ng; i++)
		if (pg->g[i].prof == gr->prof)
			gs[n++] = &pg->g[i];
	if (n == 0)
		return 1;
	gs[n++] = gr;
	return gs_robust_mig_ts_holds(pl, pg->model, gr->prof, gs, n);
}

/* May the instance join the GPU's others (strictness, tenants, spread)? */
static int mig_may_join(const gs_planner *pl, const gs_pgpu *pg, const gs_group *gr,
                        const facts *f)
{
	for (int i = 0; i < pg->ng; i++) {
		if ((gr->n > 1 && pg->g[i].strict) || (f->strict && pg->mig_ts))
			return 0;
		/* Time-sliced instances of a profile are one pool per node under
		 * the device plugin: such a GPU holds one tenant. */
		if (!pl->via_dra && (gr->n > 1 || pg->mig_ts) && pg->g[i].tenant != gr->tenant)
			return 0;
	}
	/* (A replica that does not spread conflicts with none.) */
	for (int i = 0; f->spread && i < pg->ng; i++)
		for (int k = 0; k < gr->n; k++)
			if (gs_spread_conflict(pl, pg->g[i].reps, pg->g[i].n, gr->reps[k]))
				return 0;
	if (spread_profile_clash(pl, pg, gr, f) || !ts_pool_holds(pl, pg, gr))
		return 0;
	return gs_host_may_add(pl, pg, gr);
}

/* Places the instance (f: its facts_of) on this GPU of pk (NULL: a
 * GPU of a packing that does not lend) if it fits: 1 if placed, 0 if
 * not, -1 when out of memory. */
static int mig_try(const gs_planner *pl, const gs_pack *pk, gs_pgpu *pg, const gs_group *gr,
                   const facts *f)
{
	const gs_mig_profile *items[32];
	int starts[32];
	int strict = f->strict;
	if (pg->ng >= 31 || !mig_may_join(pl, pg, gr, f))
		return 0;
	for (int i = 0; i < pg->ng; i++)
		items[i] = pg->g[i].prof;
	items[pg->ng] = gr->prof;
	if (gs_fits_ask(pl->fits, pg->model, items, (size_t)pg->ng + 1, starts) < 0)
		return 0;
	if ((pk ? gs_pack_add_group(pk, pg, gr) : gs_pgpu_add_group(pg, gr)) < 0)
		return -1;
	pg->g[pg->ng - 1].strict = strict;
	pg->mig_ts |= gr->n > 1;
	for (int i = 0; i < pg->ng; i++)
		pg->g[i].start = starts[i];
	return 1;
}

int gs_mig_place(const gs_planner *pl, gs_pgpu *pg, const gs_group *gr)
{
	facts f = facts_of(pl, pg->model, gr);
	return mig_try(pl, NULL, pg, gr, &f);
}

/* An instance to place and its facts_of, found once per gs_pack_mig: the
 * facts read every member's record, scattered, and they were read again
 * for the check of spread, each order's sort and each placing (7 % of the
 * CPU at 10^6 replicas, most of it waiting on those reads). */
typedef struct item {
	gs_group *gr;
	facts f;
} item;

/* Biggest first: spread ones first (with spread_first), then more memory
 * slices, more compute slices, and the lower first replica, as one key
 * that increases in that order. Slices are far below 2^15 (memory slices
 * are bits of a uint64_t in catalog/mig.c) and replicas are ints. */
static uint64_t slots_key(const item *x, int spread_first)
{
	const gs_group *gr = x->gr;
	uint64_t spread = spread_first && x->f.spread;
	return (1 - spread) << 62 | (uint64_t)(0x7fff - gr->prof->memory_slices) << 47 |
	       (uint64_t)(0x7fff - gr->prof->compute_slices) << 32 | (uint32_t)gr->reps[0];
}

/* Sorts the instances biggest first (or, with spread_first, those whose
 * replicas must not share a GPU first); -1 when out of memory. */
static int sort_instances(item *it, int n, int spread_first)
{
	gs_keyed *k = malloc(2 * (size_t)(n ? n : 1) * sizeof *k);
	item *was = malloc((size_t)(n ? n : 1) * sizeof *was);
	if (!k || !was) {
		free(k);
		free(was);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		k[i].key = slots_key(&it[i], spread_first);
		k[i].val = (size_t)i;
		was[i] = it[i];
	}
	gs_radix_sort(k, k + n, (size_t)n);
	for (int i = 0; i < n; i++)
		it[i] = was[k[i].val];
	free(k);
	free(was);
	return 0;
}

/* The memory and compute slices the instances of one GPU take. */
typedef struct slices {
	int mem, cs;
} slices;

/* Whether gr's slices on top of u go past the GPU's: then gs_mig_fit
 * refuses (its budgets), found without asking it. */
static int over_slices(const gs_gpu *g, slices u, const gs_group *gr)
{
	return u.mem + gr->prof->memory_slices > g->mig_slots ||
	       u.cs + gr->prof->compute_slices > g->mig_compute_slices;
}

/* Whether instances a and b ask the same of every GPU: one profile, and
 * replicas of the same workloads in the same order (every rule of
 * mig_try reads a replica's workload only). */
static int same_ask(const gs_planner *pl, const gs_group *a, const gs_group *b)
{
	if (a->prof != b->prof || a->n != b->n || a->tenant != b->tenant)
		return 0;
	for (int k = 0; k < a->n; k++)
		if (pl->reps[a->reps[k]].wi != pl->reps[b->reps[k]].wi)
			return 0;
	return 1;
}

/* The GPUs, lo .. hi, that refused the last instance placed (last). Only
 * the GPU it went to changed since, so they refuse the next instance too
 * when it asks the same (same_ask): the sort puts a workload's instances
 * of one profile one after another. */
typedef struct refused {
	const gs_group *last;
	int lo, hi;
} refused;

/* The instance on one of the window's GPUs (their slices in used), else a
 * new one; -1 when out of memory. The rules mig_try asks are pure, so
 * over_slices, cheapest, asks first: most GPUs of a window are full; and
 * the GPUs that refused the same ask before (*no) are passed over. */
static int place_one(const gs_planner *pl, const gs_gpu *g, const item *x, gs_pack *pk,
                     int first, slices **used, size_t *cap, refused *no)
{
	gs_group *gr = x->gr;
	const facts *f = &x->f;
	gs_pgpu *pg;
	int same = no->last && same_ask(pl, no->last, gr);
	int low = pk->n - GS_MIG_WINDOW > first ? pk->n - GS_MIG_WINDOW : first;
	no->last = gr;
	for (int j = pk->n - 1; j >= low; j--) {
		slices *u = &(*used)[j - first];
		int rc;
		if (same && j >= no->lo && j <= no->hi) {
			j = no->lo;
			continue;
		}
		rc = over_slices(g, *u, gr) ? 0 : mig_try(pl, pk, &pk->gpus[j], gr, f);
		if (rc != 0) {
			u->mem += gr->prof->memory_slices;
			u->cs += gr->prof->compute_slices;
			no->lo = j + 1;
			no->hi = pk->n - 1;
			return rc < 0 ? -1 : 0;
		}
	}
	no->lo = low;
	no->hi = pk->n - 1;
	pg = gs_pack_add_gpu(pk, g, GS_STRATEGY_MIG);
	if (!pg || mig_try(pl, pk, pg, gr, f) != 1 ||
	    gs_grow(used, cap, (size_t)(pk->n - first), sizeof **used) < 0)
		return -1;
	(*used)[pk->n - 1 - first].mem = gr->prof->memory_slices;
	(*used)[pk->n - 1 - first].cs = gr->prof->compute_slices;
	return 0;
}

/* Packs MIG instances onto GPUs, biggest first (or, with spread_first,
 * those whose replicas must not share a GPU first). */
static int pack_mig_order(const gs_planner *pl, const gs_gpu *g, item *it, int n,
                          gs_pack *pk, int spread_first)
{
	int first = pk->n, rc = sort_instances(it, n, spread_first);
	slices *used = NULL;
	size_t cap = 0;
	refused no = { NULL, 0, -1 };
	for (int i = 0; i < n && rc == 0; i++)
		rc = place_one(pl, g, &it[i], pk, first, &used, &cap, &no);
	free(used);
	return rc;
}

/* Frees the groups of GPUs from..to-1 (the caller drops the GPUs). */
static void drop_gpus(gs_pack *pk, int from, int to)
{
	for (int i = from; i < to; i++) {
		for (int j = 0; j < pk->gpus[i].ng; j++)
			if (pk->gpus[i].g[j].cap >= 0)
				free(pk->gpus[i].g[j].reps);
		free(pk->gpus[i].g);
	}
}

/* Packs the instances it[0..n) biggest first, and where some spread
 * (has_spread) spread ones first too, keeping the order of fewer GPUs:
 * biggest-first strands spread replicas when big instances fill GPUs
 * that the spread ones could have shared. */
static int pack_orders(const gs_planner *pl, const gs_gpu *g, item *it, int n, gs_pack *pk,
                       int has_spread)
{
	int base = pk->n, a;
	if (pack_mig_order(pl, g, it, n, pk, 0) < 0)
		return -1;
	if (!has_spread)
		return 0;
	/* GPUs are dropped and moved below: arrays kept past them would be
	 * left behind twice. */
	gs_pack_trim(pk);
	a = pk->n;
	if (pack_mig_order(pl, g, it, n, pk, 1) < 0)
		return -1;
	if (pk->n - a < a - base) {
		/* Keep the second: move it down over the first. */
		drop_gpus(pk, base, a);
		memmove(&pk->gpus[base], &pk->gpus[a], (size_t)(pk->n - a) * sizeof *pk->gpus);
		pk->n = base + (pk->n - a);
	} else {
		drop_gpus(pk, a, pk->n);
		pk->n = a;
	}
	return 0;
}

int gs_pack_mig(const gs_planner *pl, const gs_gpu *g, gs_group *const *inst, int n,
                gs_pack *pk)
{
	item *it = malloc((size_t)(n ? n : 1) * sizeof *it);
	int has_spread = 0, rc;
	if (!it)
		return -1;
	for (int i = 0; i < n; i++) {
		it[i].gr = inst[i];
		it[i].f = facts_of(pl, g, inst[i]);
		has_spread |= it[i].f.spread;
	}
	rc = pack_orders(pl, g, it, n, pk, has_spread);
	free(it);
	return rc;
}
