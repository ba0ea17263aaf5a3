/*
 * search_groups.h - the parts the model search (plan_choose.c) searches
 * one at a time before the whole: each tenant, and a large tenant in
 * blocks of consecutive workloads (search_groups.c).
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_SEARCH_GROUPS_H
#define GS_PLAN_SEARCH_GROUPS_H

#include "plan/planner.h"

/* A tenant of more than GS_SPLIT_REPLICAS replicas and at least twice
 * GS_BLOCK_WORKLOADS workloads is searched in blocks of consecutive
 * workloads of at least GS_BLOCK_REPLICAS replicas and GS_BLOCK_WORKLOADS
 * workloads each. Splitting from 300 replicas moved fleet.py's mixed
 * fleets of 5,000 and 10,000 replicas, in tenants of 300 to 450, by -1.9
 * to +1.4 %; from 600 they plan as before. */
#define GS_BLOCK_REPLICAS 150
#define GS_BLOCK_WORKLOADS 20
#define GS_SPLIT_REPLICAS (4 * GS_BLOCK_REPLICAS)

/* Group ids are workload indices, as tenant ids are (pack.h): a group's
 * id is its first workload's. of[w]: workload w's group; group g's
 * workloads, in index order, wls[at[g] .. at[g + 1]); n: how many groups
 * have workloads. */
typedef struct gs_groups {
	int *of, *wls, *at;
	int n;
} gs_groups;

/* pl's tenants, the large ones split into blocks. 0, or -1 when out of
 * memory (g is then empty). */
int gs_groups_init(const gs_planner *pl, gs_groups *g);
void gs_groups_release(gs_groups *g);

#endif
