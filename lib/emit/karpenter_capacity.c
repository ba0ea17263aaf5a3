/*
 * karpenter_capacity.c - the extended resources a planned node advertises
 * (karpenter.h). Karpenter only knows an instance type's physical GPU
 * count as nvidia.com/gpu: not time-slice replicas, not renamed .shared
 * resources, not MIG instances. This is what its NodeOverlays must say.
 */
#include <stdio.h>
#include <string.h>

#include "emit/karpenter.h"

/* Adds count to resource name in r (nr entries), appending it if new. */
static int add(gs_kp_res *r, int *nr, const char *name, long count)
{
	for (int i = 0; i < *nr; i++)
		if (strcmp(r[i].name, name) == 0) {
			r[i].count += count;
			return 0;
		}
	if (*nr == GS_KP_MAX_RES)
		return -1;
	snprintf(r[*nr].name, sizeof r[*nr].name, "%s", name);
	r[(*nr)++].count = count;
	return 0;
}

/* What HAMi's device plugin and scheduler count on a GPU: its slots as
 * nvidia.com/gpu, and the memory (its model's usable MiB; a plan of
 * several models scales all by the least, which this never exceeds by
 * more than that) and SM % its pods ask beside. */
static int hami(gs_kp_res *r, int *nr, const gs_plan_gpu *pg)
{
	long slots = pg->n_assignments > GS_EMIT_HAMI_SPLIT ? (long)pg->n_assignments
	                                                     : GS_EMIT_HAMI_SPLIT;
	const gs_gpu *m = pg->model;
	long mib = (long)(m->usable_memory_mib > 0 ? m->usable_memory_mib : m->memory_mib);
	if (add(r, nr, "nvidia.com/gpu", slots) < 0 || add(r, nr, GS_EMIT_HAMI_MEM, mib) < 0)
		return -1;
	return add(r, nr, GS_EMIT_HAMI_CORES, 100);
}

int gs_kp_capacity(const gs_plan_node *n, const gs_emit_opts *o, gs_kp_res *out)
{
	int nr = 0, bad = 0;
	add(out, &nr, "nvidia.com/gpu", 0);
	for (size_t g = 0; g < n->n_gpus; g++) {
		const gs_plan_gpu *pg = &n->gpus[g];
		int shared = pg->strategy == GS_STRATEGY_TIME_SLICING ||
		             pg->strategy == GS_STRATEGY_MPS;
		/* A MIG instance shared by time-slicing advertises its
		 * replicas; a dedicated one itself. */
		for (size_t m = 0; m < pg->n_mig; m++) {
			const gs_plan_mig *mi = &pg->mig[m];
			char res[80];
			int slots = mi->replicas > 1 ? mi->replicas : 1;
			gs_emit_mig_resource(mi->profile, o->rename_shared && mi->replicas > 1, res,
			                     sizeof res);
			bad |= add(out, &nr, res, slots) < 0;
		}
		if (pg->n_mig)
			continue;
		if (gs_emit_backend(pg) == GS_BACKEND_HAMI) {
			bad |= hami(out, &nr, pg) < 0;
			continue;
		}
		if (shared && o->rename_shared)
			bad |= add(out, &nr, "nvidia.com/gpu.shared", pg->replicas) < 0;
		else
			bad |= add(out, &nr, "nvidia.com/gpu", shared ? pg->replicas : 1) < 0;
	}
	return bad ? -1 : nr;
}

int gs_kp_needs_overlay(const gs_plan_node *n, const gs_kp_res *r, int nr)
{
	for (int i = 0; i < nr; i++) {
		int gpu = strcmp(r[i].name, "nvidia.com/gpu") == 0;
		if (gpu ? r[i].count != (long)n->n_gpus : r[i].count != 0)
			return 1;
	}
	return 0;
}
