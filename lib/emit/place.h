/*
 * place.h - where one planned replica lands, as its pod spec must say: the
 * extended resource it requests (device plugin), or the DRA claim and the
 * request within it, and the node configuration it selects. emit_workloads.c
 * groups a workload's replicas by it; place.c decides it.
 */
#ifndef GS_EMIT_PLACE_H
#define GS_EMIT_PLACE_H

#include "emit/emit.h"

typedef struct place {
	char resource[80];   /* extended resource, or "" under DRA */
	const char *config;  /* node label value */
	char claim[80];      /* DRA claim (or template) name, "" if none */
	char request[32];    /* DRA request within the claim */
	int template_;       /* claim is a ResourceClaimTemplate */
} place;

/* The place of the replica on GPU gpu of the plan's node `node`, in MIG
 * instance mig (-1: the whole GPU). */
void gs_emit_place_of(const gs_plan *p, const gs_emit_opts *o, size_t node, size_t gpu,
                      long mig, place *pl);

#endif
