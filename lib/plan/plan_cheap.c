/*
 * plan_cheap.c - a second start for the shared plan: every workload on its
 * cheapest model per GPU, packed by the same packer. The model search
 * (plan_choose.c) can settle where this simple choice is cheaper, most
 * often on large fleets whose search budget is small; the cheaper plan
 * stands.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"
#include "scenario/scenario.h"

/* c's candidates, each workload on the one of least price per GPU
 * (replicas of several GPUs keep c's model: their price is a span's). */
static void cheapest(const gs_planner *pl, const gs_choice *c, int *model)
{
	for (size_t w = 0; w < pl->s->n; w++) {
		model[w] = c->model[w];
		if (pl->s->w[w]->pub.gpus_per_replica > 1)
			continue;
		for (int k = 0; k < c->ncand[w]; k++) {
			int m = c->cands[w][k];
			if (pl->gpu_price[m] < pl->gpu_price[model[w]])
				model[w] = m;
		}
	}
}

int gs_build_cheapest(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after)
{
	int *model = malloc((pl->s->n ? pl->s->n : 1) * sizeof *model);
	int *keep = c->model, rc, same;
	gs_built b;

	if (!model)
		return -1;
	cheapest(pl, c, model);
	same = memcmp(model, keep, pl->s->n * sizeof *model) == 0;
	c->model = model;
	rc = same ? 0 : gs_build_after(pl, shops, c, &b);
	c->model = keep;
	if (same || rc < 0) {
		free(model);
		return rc;
	}
	if (pl->placement == GS_PLACEMENT_ROBUST && (rc = gs_built_one_request(pl, &b)) <= 0) {
		gs_built_release(&b);
		free(model);
		return rc < 0 ? -1 : 0;
	}
	if (b.cost < after->cost) {
		gs_built_release(after);
		*after = b;
		c->model = model;
		free(keep);
		return 0;
	}
	gs_built_release(&b);
	free(model);
	return 0;
}
