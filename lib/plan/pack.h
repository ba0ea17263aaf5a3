/*
 * pack.h - the packer's header: replicas, the groups that share a GPU or a
 * MIG instance, planned GPUs, packings, and the planner state they are
 * packed under.
 *
 * Only lib/plan/ includes it. The planner packs with gs_pack_model (and
 * builds its plan without sharing from gs_pack_add_gpu); the functions of
 * the later sections are shared by the packer's own files (pack*.c), which
 * depend one way: pack.c directs pack_share.c, pack_exact.c (which asks
 * pack_share.c's rules) and pack_mig.c, and they all build on pack_gpu.c.
 */
#ifndef GS_PLAN_PACK_H
#define GS_PLAN_PACK_H

#include "base/base.h"

/* At most this many GPU models are planned at once. */
#define GS_MAX_MODELS 64

/* How many recently opened groups or GPUs first-fit looks at: enough to
 * fill them tightly on sorted input, few enough to stay linear. */
#define GS_FIT_WINDOW 48

/* One replica to place. */
typedef struct gs_replica {
	const gs_workload *w;
	int wi;        /* workload index in the scenario */
	int replica;
	int tenant;    /* tenant id */
	int no_ts;     /* advice rules out time-slicing */
} gs_replica;

/* Replicas sharing one GPU or one MIG instance. */
typedef struct gs_group {
	int tenant;
	int64_t mem, comp;  /* sums: bytes, ppm of the whole GPU */
	int *reps;
	int n, cap;
	int no_ts;          /* some member rules out time-slicing */
	const gs_mig_profile *prof; /* MIG instance profile, else NULL */
	int start;
	int strict;         /* a MIG instance that must not be time-shared */
} gs_group;

/* One planned GPU. */
typedef struct gs_pgpu {
	const gs_gpu *model;
	gs_strategy strategy;
	int k;              /* MPS clients, time-slicing slots */
	gs_group *g;        /* 1 group when whole, the instances with MIG */
	int ng, capg;
	int mig_ts;         /* MIG: some instance is time-sliced */
} gs_pgpu;

/* All GPUs of one model: the result of packing. */
typedef struct gs_pack {
	gs_pgpu *gpus;
	int n, cap;
} gs_pack;

struct gs_planner;
struct gs_shop;

/* What a packing costs once bought (gs_pack_cost, planner.h), so that
 * packings are compared by money, not GPU count. */
typedef int (*gs_pack_cost_fn)(const struct gs_planner *pl, const gs_pack *pk,
                               gs_micros *cost);

typedef struct gs_planner {
	const gs_scenario *s;
	const gs_catalog *cat;
	gs_replica *reps;
	int nreps;
	int ntenants;
	int64_t target;
	const gs_gpu *models[GS_MAX_MODELS];
	int nmodels;
	gs_micros gpu_price[GS_MAX_MODELS]; /* cheapest per-GPU price of each */
	int via_dra;
	int no_mig, no_mps;        /* one of them, when a plan may not have both */
	gs_pack_cost_fn cost;      /* NULL: compare packings by GPU count */
	struct gs_shop *shops;     /* for cost: the shop of each model */
	/* A model sold on hosts of both architectures is two models here,
	 * one per arch, so that a GPU's replicas and its node agree. */
	gs_arch model_arch[GS_MAX_MODELS];
	/* The most CPU (millicores) and RAM (bytes) one node of each model
	 * leaves its pods (host.h). */
	int64_t cap_cpu[GS_MAX_MODELS], cap_mem[GS_MAX_MODELS];
	const char *cloud;         /* the one cloud this plan buys in */
	int host_needs;            /* some replica requests host CPU or RAM */
	int quick;                 /* no local search over models (a first
	                              estimate, to rank clouds) */
} gs_planner;

/* ---- packing a model (pack.c) ------------------------------------------- */

/* Packs replicas reps[0..n) onto GPUs of model g: the cheapest packing
 * found, then the one with fewer GPUs, then fewer MIG GPUs. */
int gs_pack_model(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                  gs_pack *out);

/* ---- a packing's data (pack_gpu.c) --------------------------------------- */

/* A new GPU at the end of pk, without groups; NULL when out of memory. */
gs_pgpu *gs_pack_add_gpu(gs_pack *pk, const gs_gpu *g, gs_strategy st);
/* Appends a copy of gr (and of its replicas) to pg's groups. */
int gs_pgpu_add_group(gs_pgpu *pg, const gs_group *gr);
void gs_groups_free(gs_group *gs, int n);
void gs_pack_release(gs_pack *p);

/* ---- whole GPUs shared by one tenant (pack_share.c) ---------------------- */

int64_t gs_gpu_bytes(const gs_gpu *g);
/* Replica r's peak compute on model g, in ppm of g. */
int64_t gs_rep_comp(const gs_planner *pl, int r, const gs_gpu *g);
/* Replica r's larger share of g's memory or of the target compute. */
int64_t gs_rep_size(const gs_planner *pl, int r, const gs_gpu *g);
/* Adds replica r to gr, with its memory, compute and time-slicing rule. */
int gs_group_join(const gs_planner *pl, const gs_gpu *g, gs_group *gr, int r);
/* Does replica r belong to a spread workload with a replica among reps?
 * Inline: both packers ask it in their innermost loops. */
static inline int gs_spread_conflict(const gs_planner *pl, const int *reps, int n, int r)
{
	const gs_workload *w = pl->reps[r].w;
	if (w->spread == GS_SPREAD_NONE)
		return 0;
	for (int i = 0; i < n; i++)
		if (pl->reps[reps[i]].w == w)
			return 1;
	return 0;
}
/* May replica r join the shared group gr on a whole GPU of model g? */
int gs_can_join(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r);
/* First-fit-decreasing of shareable replicas reps[0..n) into one-tenant
 * groups. */
int gs_share_first_fit(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                       gs_group **out, int *nout);

/* ---- exact packing for small tenants (pack_exact.c) ---------------------- */

/* Replaces each small tenant's groups among gs[0..*ng) by an exact packing
 * when that needs fewer groups. */
int gs_share_exact(const gs_planner *pl, const gs_gpu *g, gs_group *gs, int *ng);

/* ---- MIG instances (pack_mig.c) ------------------------------------------ */

/* The smallest base MIG profile of g that holds the group; NULL if none
 * below the whole GPU does. */
const gs_mig_profile *gs_mig_profile_for(const gs_planner *pl, const gs_gpu *g,
                                         const gs_group *gr);
/* Packs the MIG instances inst[0..n) onto new GPUs at the end of pk. */
int gs_pack_mig(const gs_planner *pl, const gs_gpu *g, gs_group **inst, int n,
                gs_pack *pk);

#endif
