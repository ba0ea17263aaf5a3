/*
 * backend.c - which GPUs of a plan are fractions, and of which backend:
 * the one fact about fractions that the stack's choice (dra_check.c), the
 * checks (fraction.c) and every renderer ask.
 */
#include "emit/emit.h"

gs_backend gs_emit_backend(const gs_plan_gpu *g)
{
	return g->strategy == GS_STRATEGY_FRACTION && !g->n_mig ? g->backend : GS_BACKEND_NONE;
}

int gs_emit_has_backend(const gs_plan *p, gs_backend b)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++)
			if (gs_emit_backend(&n->gpus[g]) == b && n->gpus[g].n_assignments)
				return 1;
	}
	return 0;
}

gs_backend gs_emit_node_backend(const gs_plan_node *n)
{
	for (size_t g = 0; g < n->n_gpus; g++)
		if (gs_emit_backend(&n->gpus[g]) != GS_BACKEND_NONE)
			return gs_emit_backend(&n->gpus[g]);
	return GS_BACKEND_NONE;
}

int64_t gs_emit_gpu_caps_mib(const gs_plan_gpu *g)
{
	int64_t sum = 0;
	for (size_t a = 0; a < g->n_assignments; a++)
		sum += g->assignments[a].memory_limit_mib;
	return sum;
}
