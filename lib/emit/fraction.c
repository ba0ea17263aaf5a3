/*
 * fraction.c - the facts of a plan's fraction GPUs (GS_STRATEGY_FRACTION)
 * that several kinds ask, and what no cluster can run, refused before
 * anything is emitted:
 *   - DRA consumable capacity beside MPS: NVIDIA's DRA driver refuses MPS
 *     while its ConsumableShares gate is on (device_state.go);
 *   - DRA consumable capacity before Kubernetes 1.34 (KEP-5075).
 */
#include <stdio.h>

#include "emit/emit.h"

int gs_emit_wants_hami(const gs_plan *p, const gs_emit_opts *o)
{
	(void)o;
	return gs_emit_has_backend(p, GS_BACKEND_HAMI);
}

/* The least ppm s with floor(memory * s / 10^6) = usable: HAMi then
 * accounts a GPU's usable memory, not what the driver keeps for itself. */
int64_t gs_emit_hami_model_scaling_ppm(const gs_gpu *m)
{
	int64_t usable = m->usable_memory_mib > 0 ? m->usable_memory_mib : m->memory_mib;
	if (m->memory_mib <= 0 || usable >= m->memory_mib)
		return 1000000;
	return (usable * 1000000 + m->memory_mib - 1) / m->memory_mib;
}

int64_t gs_emit_hami_scaling_ppm(const gs_plan *p)
{
	int64_t s = 1000000;
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++)
			if (gs_emit_backend(&n->gpus[g]) == GS_BACKEND_HAMI &&
			    gs_emit_hami_model_scaling_ppm(n->gpus[g].model) < s)
				s = gs_emit_hami_model_scaling_ppm(n->gpus[g].model);
	}
	return s;
}

int gs_emit_hami_per_node(const gs_plan *p)
{
	int64_t least = gs_emit_hami_scaling_ppm(p);
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		if (gs_emit_node_backend(n) == GS_BACKEND_HAMI &&
		    gs_emit_hami_model_scaling_ppm(n->gpus[0].model) != least)
			return 1;
	}
	return 0;
}

int64_t gs_emit_hami_budget_mib(const gs_gpu *m, int64_t scaling_ppm)
{
	return m->memory_mib * scaling_ppm / 1000000;
}

int64_t gs_emit_capacity_mib(const gs_gpu *m, int64_t mib)
{
	int64_t usable = m->usable_memory_mib;
	if (usable <= 0 || usable >= m->memory_mib)
		return mib;
	return (mib * m->memory_mib + usable - 1) / usable;
}

int gs_emit_hami_split(const gs_plan *p)
{
	size_t most = GS_EMIT_HAMI_SPLIT;
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++)
			if (gs_emit_backend(&n->gpus[g]) == GS_BACKEND_HAMI &&
			    n->gpus[g].n_assignments > most)
				most = n->gpus[g].n_assignments;
	}
	return (int)most;
}

int gs_emit_fraction_pairs(const gs_plan *p, const gs_plan_gpu *g, const gs_workload *w)
{
	const gs_assignment *a = NULL;
	for (size_t k = 0; k < g->n_assignments && !a; k++)
		if (g->assignments[k].workload == w)
			a = &g->assignments[k];
	if (!a)
		return 0;
	switch (gs_emit_backend(g)) {
	case GS_BACKEND_HAMI:
		(void)p;
		return 2 * a->memory_limit_mib <=
		               gs_emit_hami_budget_mib(g->model,
		                                       gs_emit_hami_model_scaling_ppm(g->model)) &&
		       2 * a->thread_percent <= 100;
	case GS_BACKEND_DRA:
		return 2 * gs_emit_capacity_mib(g->model, a->memory_limit_mib) <=
		       g->model->memory_mib;
	default: /* an MPS claim is the GPU its pods were planned on */
		return 0;
	}
}

/* Whether the DRA stack runs MPS anywhere: an MPS GPU or MPS fraction. */
static int dra_mps(const gs_plan *p)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++) {
			const gs_plan_gpu *pg = &n->gpus[g];
			if (pg->n_assignments && !pg->n_mig &&
			    (pg->strategy == GS_STRATEGY_MPS ||
			     gs_emit_backend(pg) == GS_BACKEND_MPS))
				return 1;
		}
	}
	return 0;
}

/* The scaled requests of each DRA capacity GPU fit what its device offers. */
static int capacity_fits(const gs_plan *p, gs_error *err)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++) {
			const gs_plan_gpu *pg = &n->gpus[g];
			int64_t sum = 0;
			if (gs_emit_backend(pg) != GS_BACKEND_DRA)
				continue;
			for (size_t a = 0; a < pg->n_assignments; a++)
				sum += gs_emit_capacity_mib(pg->model,
				                            pg->assignments[a].memory_limit_mib);
			if (sum > pg->model->memory_mib)
				return gs_fail(err, GS_EINVAL,
				               "node %zu GPU %zu: its capacity requests (%lld MiB) "
				               "exceed the %lld MiB its device offers", i + 1, g,
				               (long long)sum, (long long)pg->model->memory_mib);
		}
	}
	return 0;
}

int gs_emit_fraction_check(const gs_plan *p, const gs_emit_opts *o, gs_error *err)
{
	int dra = gs_emit_has_backend(p, GS_BACKEND_DRA);
	if (dra && dra_mps(p))
		return gs_fail(err, GS_EINVAL,
		               "DRA consumable capacity and MPS cannot share a cluster: the DRA "
		               "driver refuses MPS while its ConsumableShares gate is on");
	if (dra && o->kube_minor < 34)
		return gs_fail(err, GS_EINVAL,
		               "DRA consumable capacity needs Kubernetes 1.34 or later "
		               "(DRAConsumableCapacity), not 1.%d", o->kube_minor);
	if (dra && capacity_fits(p, err) < 0)
		return GS_EINVAL;
	return 0;
}
