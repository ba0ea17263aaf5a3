/* offer.c - what one GPU of a model offers its replicas (offer.h). */
#include "catalog/offer.h"

int64_t gs_usable_bytes(const gs_gpu *g)
{
	return g->usable_memory_mib << 20;
}

int64_t gs_memory_offer(const gs_gpu *g, const gs_mig_profile *p, gs_strategy st,
                        int64_t headroom_ppm)
{
	int64_t usable = p ? p->memory_mib << 20 : gs_usable_bytes(g);
	if (st != GS_STRATEGY_TIME_SLICING || headroom_ppm <= 0)
		return usable;
	/* Exact for whole bytes: sum <= usable x (1 - headroom). */
	return usable * (GS_PPM - headroom_ppm) / GS_PPM;
}
