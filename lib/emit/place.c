/*
 * place.c - where one planned replica lands, as its pod spec must say
 * (place.h).
 */
#include <stdio.h>
#include <string.h>

#include "emit/place.h"

void gs_emit_place_of(const gs_plan *p, const gs_emit_opts *o, size_t node, size_t gpu,
                      long mig, place *pl)
{
	const gs_plan_node *n = gs_plan_node_at(p, node);
	const gs_plan_gpu *g = &n->gpus[gpu];
	int dra = gs_emit_wants_dra(p, o);
	memset(pl, 0, sizeof *pl);
	pl->config = n->config;
	if (mig >= 0) {
		const gs_plan_mig *mi = &g->mig[mig];
		if (!dra)
			gs_emit_mig_resource(mi->profile, o->rename_shared && mi->replicas > 1,
			                     pl->resource, sizeof pl->resource);
		else {
			gs_emit_mig_claim_name(pl->claim, sizeof pl->claim, node, gpu, g,
			                       gs_emit_mig_tenant(mi));
			snprintf(pl->request, sizeof pl->request, "mig-%ld", mig);
		}
		return;
	}
	if (dra && g->strategy == GS_STRATEGY_DEDICATED) {
		snprintf(pl->claim, sizeof pl->claim, "%s", GS_EMIT_DRA_TEMPLATE);
		snprintf(pl->request, sizeof pl->request, "gpu");
		pl->template_ = 1;
	} else if (dra) {
		gs_emit_claim_name(pl->claim, sizeof pl->claim, node, gpu);
		snprintf(pl->request, sizeof pl->request, "gpu");
	} else {
		snprintf(pl->resource, sizeof pl->resource, "nvidia.com/gpu%s",
		         o->rename_shared && g->strategy != GS_STRATEGY_DEDICATED ? ".shared" : "");
	}
}

