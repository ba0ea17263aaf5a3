/*
 * bound.h - the least shares of a GPU a replica takes on a model
 * (bound_share.c), which the volume bound (bound.c) sums: on every GPU of
 * a plan its replicas' shares add up to at most 1 in each dimension.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_BOUND_H
#define GS_PLAN_BOUND_H

#include "plan/pack.h"

struct gs_choice;

/* a: of the memory, b: of the compute (over targetUtilization where
 * shared), t: a slot, under robust placement (0 where none binds). */
typedef struct gs_vshare {
	double a, b, t;
} gs_vshare;

/* Replica r's least shares of a GPU of model m over the ways it may be
 * placed there. tight 0: the looser shares the plan's third start reads
 * (gs_volume_bound_hint): memory over the usable memory or the profile's,
 * without headroom, MPS's split or slots. */
gs_vshare gs_vshare_least(const gs_planner *pl, const gs_replica *r, int m, int tight);

/* Whether every plan of pl under c's candidates leaves out MIG or MPS
 * while some replica could take each: the device plugin refuses MPS
 * under the 'mixed' strategy MIG nodes need (plan_build.c), so a bound
 * may be the lesser of one without MIG and one without MPS (pl's no_mig
 * and no_mps set on a copy). Not under DRA, with fractions, or where pl
 * leaves one out already. */
int gs_bound_splits(const gs_planner *pl, const struct gs_choice *c);

#endif
