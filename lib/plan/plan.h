/* plan.h - the planner's internals. */
#ifndef GS_PLAN_H
#define GS_PLAN_H

#include "scenario/scenario.h"

/* One replica to place. */
typedef struct prep {
	const gs_workload *w;
	int wi;        /* workload index in the scenario */
	int replica;
	int tenant;    /* tenant id */
	int no_ts;     /* advice rules out time-slicing */
} prep;

/* Replicas sharing one GPU or one MIG instance. */
typedef struct group {
	int tenant;
	int64_t mem, comp;  /* sums: bytes, ppm of the whole GPU */
	int *reps;
	int n, cap;
	int no_ts;          /* some member rules out time-slicing */
	const gs_mig_profile *prof; /* MIG instance profile, else NULL */
	int start;
	int strict;         /* a MIG instance that must not be time-shared */
} group;

/* One planned GPU. */
typedef struct pgpu {
	const gs_gpu *model;
	gs_strategy kind;
	int k;              /* MPS clients, time-slicing slots */
	group *g;           /* groups: 1 for DED/TS/MPS, the instances for MIG */
	int ng, capg;
	int mig_ts;         /* MIG: some instance is time-sliced */
} pgpu;

/* All GPUs of one model: the result of packing. */
typedef struct pack {
	pgpu *gpus;
	int n, cap;
} pack;

struct planner;
struct pack;
/* What a packing costs once bought (cost.c's price_pack with the model's
 * shop), so that packings are compared by money, not GPU count. */
typedef int (*pack_cost_fn)(const struct planner *pl, const struct pack *pk,
                            gs_micros *cost);

typedef struct planner {
	const gs_scenario *s;
	const gs_catalog *cat;
	prep *reps;
	int nreps;
	int ntenants;
	int64_t target;
	/* per replica, per model index: compute in ppm of that model */
	const gs_gpu *models[64];
	int nmodels;
	gs_micros gpu_price[64];   /* cheapest per-GPU price of each model */
	int via_dra;
	int no_mig, no_mps;        /* one of them, when a plan may not have both */
	pack_cost_fn cost;         /* NULL: compare packings by GPU count */
	void *shops;               /* for cost: the shop of each model */
} planner;

int pack_model(const planner *pl, const gs_gpu *g, const int *reps, int n,
               pack *out);
void pack_free(pack *p);
int64_t rep_comp(const planner *pl, int r, const gs_gpu *g);
int rep_fits_whole(const planner *pl, int r, const gs_gpu *g);

#endif
