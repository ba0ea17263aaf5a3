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
	char claim[160];     /* DRA claim (or template) name, "" if none */
	char request[32];    /* DRA request within the claim */
	int template_;       /* claim is a ResourceClaimTemplate */
	/* Under DRA, the MPS GPU whose claim the pod shares, else NULL: its
	 * clients share one MPS daemon, so each client's own limits go into
	 * its environment (gs_emit_place_env). Same claim, same GPU. */
	const gs_plan_gpu *mps_gpu;
	/* Whole GPUs the pod requests: its workload's gpusPerReplica on a
	 * dedicated GPU, else 1. A patch never changes it. */
	int count;
	/* A fraction's backend (NONE: not a fraction) and its limits: a HAMi
	 * pod asks them as nvidia.com/gpumem and nvidia.com/gpucores, a DRA
	 * capacity claim the memory; MPS sets them in the environment. */
	gs_backend backend;
	int64_t frac_mib;
	int frac_cores;
} place;

/* The place of the replica on GPU gpu of the plan's node `node`, in MIG
 * instance mig (-1: the whole GPU); dra: gs_emit_wants_dra(p, o), which
 * scans the plan's nodes, so the caller asks it once, not per replica
 * (100,000 replicas took two minutes to emit). */
void gs_emit_place_of(const gs_plan *p, const gs_emit_opts *o, int dra, size_t node,
                      size_t gpu, long mig, place *pl);

/* Completes pl for workload w's replica on a fraction GPU g (place_of
 * first): its backend and limits, and under DRA capacity the template of
 * w's memory. Nothing for other GPUs. */
void gs_emit_place_fraction(const gs_plan_gpu *g, const gs_workload *w, place *pl);

/* The environment workload w's container needs at pl, put into the
 * container map c as `env` (nothing when none is needed): an MPS client's
 * planned limits under DRA, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE and
 * CUDA_MPS_PINNED_DEVICE_MEM_LIMIT ("0=<MiB>M": the claim's one GPU is
 * device 0 in the container). A client may only lower the claim's MPS
 * defaults, which are the loosest of its clients' (emit_dra.c). */
void gs_emit_place_env(int *bad, const place *pl, const gs_workload *w, gs_node *c);

#endif
