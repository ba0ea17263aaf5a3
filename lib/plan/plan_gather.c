/*
 * plan_gather.c - a start that gathers replicas which hold a GPU alone
 * into MIG instances of one model. A replica that may share no GPU (fault
 * isolation without MIG, or two of its workload's copies overflow one
 * under robust placement) pays a whole GPU, where an instance of a MIG
 * model's smallest fitting profile may cost less. The model search moves
 * one workload at a time, and a model sold only as 8-GPU nodes then costs
 * a whole node for one workload: no single move pays, though many
 * together do. On fleet.py's mixed 1,000 replicas (seed 1) the linear
 * relaxation held $273/h of its $621/h bound in A100 MIG geometries,
 * while the plan bought no A100.
 */
#include <stdlib.h>

#include "catalog/offer.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

/* How many of each workload's replicas hold a whole GPU alone in b, in
 * alone[0..workloads). */
static void count_alone(const gs_planner *pl, const gs_built *b, int *alone)
{
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++) {
			const gs_pgpu *pg = &b->packs[m].gpus[i];
			if (pg->strategy != GS_STRATEGY_MIG && pg->ng == 1 && pg->g[0].n == 1 &&
			    pg->span <= 1)
				alone[pl->reps[pg->g[0].reps[0]].wi]++;
		}
}

/* What an instance of the smallest profile of MIG model m that holds a
 * replica of workload wi alone costs, by the larger of its parts of the
 * GPU's compute and memory slices; -1 when none holds it. */
static gs_micros instance_price(const gs_planner *pl, int wi, int m)
{
	const gs_gpu *g = pl->models[m];
	const gs_workload *w = &pl->s->w[wi]->pub;
	const gs_mig_profile *p;
	int r = pl->rep_at[wi];
	gs_group gr = { 0 };
	int64_t part;
	if (!g->mig_slots || !g->mig_compute_slices || pl->no_mig || pl->reps[r].no_mig)
		return -1;
	gr.tenant = pl->reps[r].tenant;
	gr.mem = w->memory_bytes;
	gr.comp = gs_workload_compute_on(w, g);
	gr.reps = &r;
	gr.n = gr.cap = 1;
	gr.no_ts = pl->reps[r].no_ts;
	gr.headroom = pl->reps[r].headroom;
	if (!(p = gs_mig_profile_for(pl, g, &gr)))
		return -1;
	part = (int64_t)p->compute_slices * GS_PPM / g->mig_compute_slices;
	if ((int64_t)p->memory_slices * GS_PPM / g->mig_slots > part)
		part = (int64_t)p->memory_slices * GS_PPM / g->mig_slots;
	return (gs_micros)((__extension__(__int128)gs_span_price(pl, m, 1) * part) / GS_PPM);
}

/* Workload wi's saving per replica from model `from`, alone, to an
 * instance of m; 0 when none. */
static gs_micros saving(const gs_planner *pl, const gs_choice *c, const int *alone, int wi,
                         int m)
{
	const gs_workload *w = &pl->s->w[wi]->pub;
	int from = c->model[wi];
	gs_micros was, now;
	if (from == m || w->gpus_per_replica > 1 || alone[wi] < (int)w->replicas)
		return 0;
	was = gs_span_price(pl, from, 1);
	now = instance_price(pl, wi, m);
	return now >= 0 && was >= 0 && now < was ? was - now : 0;
}

/* What moving workload wi to MIG model m saves in all, or 0. */
static gs_micros saved(const gs_planner *pl, const gs_choice *c, const int *alone, int wi, int m)
{
	if (!gs_choice_allows(c, wi, m))
		return 0;
	return saving(pl, c, alone, wi, m) * pl->s->w[wi]->pub.replicas;
}

int gs_gather_mig(const gs_planner *pl, const gs_choice *c, const gs_built *b, int *model)
{
	gs_micros best = 0;
	int to = -1, n = (int)pl->s->n;
	int *alone = calloc((size_t)n + 1, sizeof *alone);
	if (!alone)
		return -1;
	count_alone(pl, b, alone);
	for (int m = 0; m < pl->nmodels; m++) {
		gs_micros sum = 0;
		if (!pl->models[m]->mig_slots)
			continue;
		for (int wi = 0; wi < n; wi++)
			sum += saved(pl, c, alone, wi, m);
		if (sum > best) {
			best = sum;
			to = m;
		}
	}
	for (int wi = 0; wi < n; wi++)
		model[wi] = to >= 0 && saved(pl, c, alone, wi, to) > 0 ? to : c->model[wi];
	free(alone);
	return to >= 0;
}
