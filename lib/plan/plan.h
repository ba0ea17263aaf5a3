/* plan.h - the planner's internals. */
#ifndef GS_PLAN_H
#define GS_PLAN_H

#include "scenario/scenario.h"

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
	gs_strategy kind;
	int k;              /* MPS clients, time-slicing slots */
	gs_group *g;           /* groups: 1 for DED/TS/MPS, the instances for MIG */
	int ng, capg;
	int mig_ts;         /* MIG: some instance is time-sliced */
} gs_pgpu;

/* All GPUs of one model: the result of packing. */
typedef struct gs_pack {
	gs_pgpu *gpus;
	int n, cap;
} gs_pack;

struct gs_planner;
struct gs_pack;
/* What a packing costs once bought (cost.c's price_pack with the model's
 * shop), so that packings are compared by money, not GPU count. */
typedef int (*gs_pack_cost_fn)(const struct gs_planner *pl, const struct gs_pack *pk,
                            gs_micros *cost);

typedef struct gs_planner {
	const gs_scenario *s;
	const gs_catalog *cat;
	gs_replica *reps;
	int nreps;
	int ntenants;
	int64_t target;
	/* per replica, per model index: compute in ppm of that model */
	const gs_gpu *models[64];
	int nmodels;
	gs_micros gpu_price[64];   /* cheapest per-GPU price of each model */
	int via_dra;
	int no_mig, no_mps;        /* one of them, when a plan may not have both */
	gs_pack_cost_fn cost;         /* NULL: compare packings by GPU count */
	void *shops;               /* for cost: the shop of each model */
} gs_planner;

int gs_pack_model(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
               gs_pack *out);
void gs_pack_free(gs_pack *p);
int64_t gs_rep_comp(const gs_planner *pl, int r, const gs_gpu *g);

#endif
