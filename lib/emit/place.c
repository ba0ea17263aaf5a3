/*
 * place.c - where one planned replica lands, as its pod spec must say
 * (place.h).
 */
#include <stdio.h>
#include <string.h>

#include "emit/place.h"

static void dra_place(const gs_plan_gpu *g, size_t node, size_t gpu, long mig, place *pl)
{
	if (mig >= 0) {
		const gs_plan_mig *mi = &g->mig[mig];
		snprintf(pl->request, sizeof pl->request, "mig");
		if (gs_emit_mig_shared(mi) || !mi->n_assignments) {
			gs_emit_mig_claim_name(pl->claim, sizeof pl->claim, node, gpu, (size_t)mig);
		} else {
			gs_emit_mig_template_name(pl->claim, sizeof pl->claim,
			                          mi->assignments[0].workload, mi->profile);
			pl->template_ = 1;
		}
		return;
	}
	snprintf(pl->request, sizeof pl->request, "gpu");
	if (g->strategy == GS_STRATEGY_DEDICATED) {
		gs_emit_dra_template_name(pl->claim, sizeof pl->claim, pl->count);
		pl->template_ = 1;
		return;
	}
	gs_emit_claim_name(pl->claim, sizeof pl->claim, node, gpu);
	if (g->strategy == GS_STRATEGY_MPS || gs_emit_backend(g) == GS_BACKEND_MPS)
		pl->mps_gpu = g;
}

void gs_emit_place_of(const gs_plan *p, const gs_emit_opts *o, int dra, size_t node,
                      size_t gpu, long mig, place *pl)
{
	const gs_plan_node *n = gs_plan_node_at(p, node);
	const gs_plan_gpu *g = &n->gpus[gpu];
	memset(pl, 0, sizeof *pl);
	pl->config = n->config;
	pl->count = 1;
	/* A dedicated GPU holds one replica, which may hold more GPUs. */
	if (mig < 0 && g->strategy == GS_STRATEGY_DEDICATED && g->n_assignments &&
	    g->assignments[0].workload->gpus_per_replica > 1)
		pl->count = g->assignments[0].workload->gpus_per_replica;
	/* HAMi's nodes keep HAMi's device plugin beside a DRA stack. */
	if (dra && gs_emit_backend(g) != GS_BACKEND_HAMI)
		dra_place(g, node, gpu, mig, pl);
	else if (mig >= 0)
		gs_emit_mig_resource(g->mig[mig].profile,
		                     o->rename_shared && g->mig[mig].replicas > 1, pl->resource,
		                     sizeof pl->resource);
	else
		snprintf(pl->resource, sizeof pl->resource, "nvidia.com/gpu%s",
		         o->rename_shared && g->strategy != GS_STRATEGY_DEDICATED ? ".shared" : "");
}

void gs_emit_place_fraction(const gs_plan_gpu *g, const gs_workload *w, place *pl)
{
	const gs_assignment *a = NULL;
	if (gs_emit_backend(g) == GS_BACKEND_NONE)
		return;
	for (size_t k = 0; k < g->n_assignments && !a; k++)
		if (g->assignments[k].workload == w)
			a = &g->assignments[k];
	pl->backend = gs_emit_backend(g);
	pl->frac_mib = a ? a->memory_limit_mib : 0;
	pl->frac_cores = a ? a->thread_percent : 0;
	/* HAMi's device plugin advertises nvidia.com/gpu, never renamed. */
	if (pl->backend == GS_BACKEND_HAMI)
		snprintf(pl->resource, sizeof pl->resource, "nvidia.com/gpu");
	/* Each pod a claim of its own, on any device with the memory left. */
	if (pl->backend == GS_BACKEND_DRA) {
		pl->frac_mib = gs_emit_capacity_mib(g->model, pl->frac_mib);
		gs_emit_capacity_template_name(pl->claim, sizeof pl->claim, w, pl->frac_mib);
		pl->template_ = 1;
	}
}

static gs_node *env_var(int *bad, const char *name, const char *value)
{
	gs_node *e = gs_emit_map();
	gs_emit_put(bad, e, "name", gs_node_str(name));
	gs_emit_put(bad, e, "value", gs_node_str(value));
	return e;
}

void gs_emit_place_env(int *bad, const place *pl, const gs_workload *w, gs_node *c)
{
	const gs_assignment *a = NULL;
	gs_node *env;
	char v[48];
	if (!pl->mps_gpu)
		return;
	for (size_t k = 0; k < pl->mps_gpu->n_assignments && !a; k++)
		if (pl->mps_gpu->assignments[k].workload == w)
			a = &pl->mps_gpu->assignments[k];
	if (!a || a->thread_percent <= 0 || a->memory_limit_mib <= 0)
		return;
	env = gs_emit_seq();
	snprintf(v, sizeof v, "%d", a->thread_percent);
	gs_emit_push(bad, env, env_var(bad, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", v));
	snprintf(v, sizeof v, "0=%lldM", (long long)a->memory_limit_mib);
	gs_emit_push(bad, env, env_var(bad, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", v));
	gs_emit_put(bad, c, "env", env);
}
