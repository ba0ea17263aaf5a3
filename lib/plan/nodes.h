/*
 * nodes.h - packed GPUs placed on bought instances (plan_nodes.c): the
 * nodes that the plan's records are built from.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_NODES_H
#define GS_PLAN_NODES_H

#include "plan/pack.h"
#include "plan/shop.h"

/* One node being built: an instance and the packed GPUs on it. */
typedef struct gs_bnode {
	const gs_instance *inst;
	gs_micros price;
	gs_strategy strategy;  /* one sharing configuration per node */
	int k;                 /* MPS clients per GPU */
	const gs_pgpu **gpus;
	int n;
	int *spread_wl;        /* workloads with spread: node on it */
	int nsw;
} gs_bnode;

typedef struct gs_nodeset {
	gs_bnode *v;
	int n, cap;
} gs_nodeset;

/* Buys instances for the GPUs of one model and one node kind, keeping
 * replicas of spread: node workloads on distinct nodes. */
int gs_nodes_buy(const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus, int n,
                 gs_strategy st, int k, gs_nodeset *out);
void gs_nodeset_release(gs_nodeset *ns);

#endif
