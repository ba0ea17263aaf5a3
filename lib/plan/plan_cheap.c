/*
 * plan_cheap.c - two more starts for the shared plan, each packed by the
 * same packer: every workload on its cheapest model per GPU, and every
 * workload on the model the volume bound's weights price least (bound.c),
 * which sees that memory-heavy and compute-heavy replicas fill a GPU
 * together where the first choice's estimate looks at each alone. The
 * model search (plan_choose.c) can settle where either is cheaper, most
 * often on large fleets whose search budget is small; the cheapest plan
 * stands.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"
#include "scenario/scenario.h"

/* c's candidates, each workload on the one of least price per GPU; a
 * replica of several GPUs on the one whose instances that hold it cost
 * least per GPU (gs_span_price). A model that only 8-GPU nodes sell, kept
 * for one wide replica, drew every workload that fits it onto that node. */
static void cheapest(const gs_planner *pl, const gs_choice *c, int *model)
{
	for (size_t w = 0; w < pl->s->n; w++) {
		int n = pl->s->w[w]->pub.gpus_per_replica;
		gs_micros best = -1;
		model[w] = c->model[w];
		for (int k = 0; k < c->ncand[w]; k++) {
			int m = c->cands[w][k];
			gs_micros p = gs_span_price(pl, m, n);
			if (p >= 0 && (best < 0 || p < best)) {
				best = p;
				model[w] = m;
			}
		}
	}
}

/* A start of models given per workload: searched from there as the first
 * choice was (where gs_choose_thorough), and kept (into c and after) when
 * its plan is cheaper. */
static int start_from(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                      gs_choice *alt)
{
	gs_built b;
	int rc, one = 1;

	memset(&b, 0, sizeof b);
	if (memcmp(alt->model, c->model, pl->s->n * sizeof *alt->model) == 0)
		return 0;
	rc = gs_choose_thorough(pl) ? gs_choose_models_first(pl, shops, alt) : 0;
	if (rc == 0)
		rc = gs_build_chosen(pl, shops, alt, &b);
	/* Under robust, a plan in which a workload asks two things is not one. */
	if (rc == 0 && pl->placement == GS_PLACEMENT_ROBUST &&
	    (one = gs_built_one_request(pl, &b)) < 0)
		rc = -1;
	if (rc == 0 && one == 1 && b.cost < after->cost) {
		gs_built_release(after);
		*after = b;
		memset(&b, 0, sizeof b);
		gs_choice_take(c, alt);
	}
	gs_built_release(&b);
	return rc;
}

int gs_build_cheapest(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after)
{
	gs_choice alt;
	int rc;
	if (gs_choice_fork(pl, c, &alt) < 0)
		return -1;
	cheapest(pl, c, alt.model);
	rc = start_from(pl, shops, c, after, &alt);
	gs_choice_release(pl, &alt);
	if (rc < 0 || gs_choice_fork(pl, c, &alt) < 0)
		return -1;
	/* Measured on the bench's mixed fleets, pinned: 2.1 % cheaper at
	 * 10,000 replicas and 2.7 % at 100,000 (robust keeps the first two). */
	if ((pl->volume = gs_volume_bound_hint(pl, c, alt.model)) >= 0)
		rc = start_from(pl, shops, c, after, &alt);
	gs_choice_release(pl, &alt);
	return rc;
}
