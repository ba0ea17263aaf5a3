/*
 * bound_share.c - the least share of a GPU's memory, compute and slots a
 * replica takes on a model, over every way it may be placed there (alone,
 * time-sliced, by MPS, a fraction, a MIG instance): each way's shares add
 * up to at most 1 on every GPU placed that way, and so do their least.
 */
#include "plan/bound.h"
#include "plan/planner.h"
#include "plan/robust.h"
#include "scenario/scenario.h"

typedef gs_vshare share;

static double lesser(double x, double y) { return x < y ? x : y; }

/* The lesser of two shares in each dimension: shares that hold on every
 * GPU of one kind (shared by time-slicing, by MPS, ...) still hold at
 * their least, so a replica may be given the least over the ways it may
 * be placed. */
static share meet(share s, share t)
{
	s.a = lesser(s.a, t.a);
	s.b = lesser(s.b, t.b);
	s.t = lesser(s.t, t.t);
	return s;
}

/* The least shares of an instance of profile p of g for a replica of w
 * with headroom room: alone, the instance's slices; sharing it (always
 * time-sliced), its memory over what the instance offers under its own
 * headroom (the instance's is the largest of its replicas'). */
static share in_mig(const gs_planner *pl, const gs_workload *w, int64_t room, const gs_gpu *g,
                    const gs_mig_profile *p, int may_share, int tight)
{
	double ms = (double)p->memory_slices / g->mig_slots;
	double cs = (double)p->compute_slices / g->mig_compute_slices;
	double part = (double)p->sm_count / g->sm_count;
	int64_t ppm = gs_workload_compute_on(w, g);
	double comp = gs_workload_compute_exact(w, g) / GS_PPM;
	double target = (double)pl->target / GS_PPM;
	int64_t cap = (int64_t)p->sm_count * GS_PPM / g->sm_count * pl->target / GS_PPM;
	int64_t offer = tight ? gs_memory_offer(g, p, GS_STRATEGY_TIME_SLICING, room)
	                      : p->memory_mib << 20;
	/* Alone, its memory slices; shared, a slot of them: the slices of a
	 * GPU's instances add up to at most its own. */
	share s = { ms, cs, ms };
	if (may_share && comp <= target * part && w->memory_bytes <= offer &&
	    !gs_robust_alone(pl, w, ppm, p->memory_mib << 20, cap)) {
		int64_t k = gs_robust_slots(pl, w, ppm, offer, cap);
		s.a = ms * (double)w->memory_bytes / (double)offer;
		s.b = cs * comp / (target * part);
		s.t = k ? ms / (double)k : 0;
	}
	return s;
}

/* The most clients of MPS through the device plugin whose equal split of
 * memory and threads (pack_share.c's mps_rule) a replica of mem bytes and
 * comp ppm fits; 1: none. A GPU it shares so has k <= that many
 * clients, each 1/k of it: 1/most is a share that adds up to at most 1. */
static int mps_most(const gs_gpu *g, int64_t mem, int64_t comp)
{
	int k = 1;
	while (k < g->mps_max_clients &&
	       mem <= ((((g->memory_mib << 20) / (k + 1)) >> 20) << 20) &&
	       comp <= (int64_t)(100 / (k + 1)) * 10000)
		k++;
	return k;
}

/* The least shares of a whole GPU of model g that replica r shares with
 * others, {2, 2} when it may not: time-sliced, its memory over what
 * time-slicing offers under its own headroom (the group's is the largest
 * of its replicas'); by MPS through the device plugin, the split of the
 * most clients it fits; by a fraction, or MPS under DRA, memory over the
 * usable. Compute is over the target in every way: exact, the share
 * unrounded (comp, rounded up, is the rules'). */
static share shared(const gs_planner *pl, const gs_replica *r, const gs_gpu *g, int64_t comp,
                    double exact)
{
	double usable = (double)gs_usable_bytes(g), mem = (double)r->w->memory_bytes;
	double b = exact / (double)pl->target;
	int64_t offer = gs_memory_offer(g, NULL, GS_STRATEGY_TIME_SLICING, r->headroom);
	share s = { 2, 2, 2 }, sums = { mem / usable, b, 0 };
	if (pl->frac_ts != GS_BACKEND_NONE || pl->frac_mps != GS_BACKEND_NONE)
		s = meet(s, sums);
	if (!r->no_ts && r->w->memory_bytes <= offer) {
		int64_t k = gs_robust_slots(pl, r->w, comp, offer, pl->target);
		s = meet(s, (share){ mem / (double)offer, b, k ? 1.0 / (double)k : 0 });
	}
	if (g->mps_max_clients && !pl->no_mps_dra && !pl->no_mps) {
		int k = pl->via_dra ? 0 : mps_most(g, r->w->memory_bytes, comp);
		int64_t kc = gs_robust_slots(pl, r->w, comp, (int64_t)usable, pl->target);
		if (pl->via_dra)
			s = meet(s, sums);
		else if (k >= 2)
			s = meet(s, (share){ 1.0 / k, b, 1.0 / (double)(kc && kc < k ? kc : k) });
	}
	return s;
}

/* tight 0: the looser shares the model hint is read from (the plan's
 * third start, gs_volume_bound_hint): memory over the usable or the
 * profile's, without headroom or MPS's split. */
static share least(const gs_planner *pl, const gs_replica *r, int m, int tight)
{
	const gs_workload *w = r->w;
	const gs_gpu *g = pl->models[m];
	int64_t comp = gs_workload_compute_on(w, g);
	double exact = gs_workload_compute_exact(w, g);
	share s = { 1, 1, 1 };
	if (w->gpus_per_replica > 1) {
		s.a = s.b = s.t = w->gpus_per_replica;
		return s;
	}
	if (!w->isolation_fault && exact <= (double)pl->target &&
	    !gs_robust_alone(pl, w, comp, g->memory_mib << 20, pl->target))
		s = meet(s, tight ? shared(pl, r, g, comp, exact)
		                  : (share){ (double)w->memory_bytes / (double)gs_usable_bytes(g),
		                             exact / (double)pl->target, 0 });
	for (size_t i = 0; g->mig_slots && !pl->no_mig && i < g->n_mig_profiles;
	     i++) {
		const gs_mig_profile *p = &g->mig_profiles[i];
		if (!gs_mig_candidate_for(g, p, w->isolation_fault) ||
		    w->memory_bytes > (p->memory_mib << 20) ||
		    exact / GS_PPM > (double)p->sm_count / g->sm_count)
			continue;
		s = meet(s, in_mig(pl, w, r->headroom, g, p, !w->isolation_fault && !r->no_ts,
		                   tight));
	}
	return s;
}

gs_vshare gs_vshare_least(const gs_planner *pl, const gs_replica *r, int m, int tight)
{
	return least(pl, r, m, tight);
}

int gs_bound_splits(const gs_planner *pl, const gs_choice *c)
{
	uint64_t used = 0;
	int mig = 0, mps = 0;
	if (pl->via_dra || pl->no_mig || pl->no_mps || pl->frac_ts != GS_BACKEND_NONE ||
	    pl->frac_mps != GS_BACKEND_NONE)
		return 0;
	for (size_t w = 0; w < pl->s->n; w++)
		for (int k = 0; k < c->ncand[w]; k++)
			used |= (uint64_t)1 << c->cands[w][k];
	for (int m = 0; m < pl->nmodels; m++)
		if (used >> m & 1) {
			mig |= pl->models[m]->mig_slots > 0;
			mps |= pl->models[m]->mps_max_clients > 0;
		}
	return mig && mps;
}
