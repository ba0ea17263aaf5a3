/*
 * plan_comp.c - each workload's peak compute on each model the planner
 * buys, converted once (pack.h's gs_rep_comp reads it): the packers ask
 * it for every replica they try in every group, and converting between
 * models divides.
 */
#include <stdlib.h>

#include "plan/pack.h"

int gs_planner_comp_init(gs_planner *pl)
{
	size_t ng = pl->cat->n_gpus, nw = pl->s->n;
	int ncol = 0;
	if (!(pl->comp_col = malloc((ng ? ng : 1) * sizeof *pl->comp_col)))
		return -1;
	for (size_t i = 0; i < ng; i++) {
		const gs_gpu *g = &pl->cat->gpus[i];
		pl->comp_col[i] = -1;
		for (int m = 0; m < pl->nmodels && pl->comp_col[i] < 0; m++)
			if (pl->models[m] == g)
				pl->comp_col[i] = ncol++;
	}
	if (!(pl->comp = malloc((nw && ncol ? nw * (size_t)ncol : 1) * sizeof *pl->comp)))
		return -1;
	pl->ncomp = ncol;
	for (size_t i = 0; i < ng; i++)
		for (size_t w = 0; pl->comp_col[i] >= 0 && w < nw; w++)
			pl->comp[w * (size_t)ncol + (size_t)pl->comp_col[i]] =
			    gs_workload_compute_on(&pl->s->w[w]->pub, &pl->cat->gpus[i]);
	return 0;
}

void gs_planner_comp_release(gs_planner *pl)
{
	free(pl->comp);
	free(pl->comp_col);
	pl->comp = NULL;
	pl->comp_col = NULL;
	pl->ncomp = 0;
}
