/* plan_internal.h - the gs_plan object and its builders. */
#ifndef GS_PLAN_INTERNAL_H
#define GS_PLAN_INTERNAL_H

#include "plan/plan_nodes.h"

struct gs_plan {
	const gs_scenario *s;
	gs_plan_summary sum;
	gs_plan_node *nodes;
	size_t n_nodes;
	gs_plan_workload *wls;
	size_t n_wls;
	gs_plan_team *teams;
	size_t n_teams;
	char **warnings;
	size_t n_warnings, cap_warnings;
	void **blocks;         /* everything the records point to */
	size_t n_blocks, cap_blocks;
	gs_micros *rep_cost;   /* per replica, for workload costs */
	gs_micros current_after; /* after cost of workloads with `current` */
};

/* One node being built: an instance and the packed GPUs on it. */
typedef struct gs_bnode {
	const gs_instance *inst;
	gs_micros price;
	gs_strategy kind;
	int k;
	const gs_pgpu **gpus;
	int n;
	int *spread_wl;        /* workloads with spread: node on it */
	int nsw;
} gs_bnode;

typedef struct gs_nodeset {
	gs_bnode *v;
	int n, cap;
} gs_nodeset;

void *gs_plan_alloc(gs_plan *p, size_t n, size_t size);
char *gs_plan_strdup(gs_plan *p, const char *s);
int gs_plan_warn(gs_plan *p, const char *fmt, ...) GS_PRINTF(2, 3);

/* Buys instances for the GPUs of one model and one node kind, keeping
 * replicas of spread: node workloads on distinct nodes. */
int gs_nodes_buy(const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus, int n,
              gs_strategy kind, int k, gs_nodeset *out);
void gs_nodeset_free(gs_nodeset *ns);

/* Turns bought nodes into the plan's public records. */
int gs_plan_records(gs_plan *p, const gs_planner *pl, gs_nodeset *ns);
int gs_plan_advice(gs_plan *p, const gs_planner *pl, const gs_micros *ded_cost);

#endif
