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

/* A tenant of more than twice this many replicas, and at least twice
 * this many workloads, is searched in blocks of consecutive workloads of
 * at least this many of each. */
#define GS_BLOCK_REPLICAS 150
#define GS_BLOCK_WORKLOADS 20

/* Group ids are workload indices, as tenant ids are (pack.h): a group's
 * id is its first workload's. of[w]: workload w's group; group g's
 * workloads, in index order, wls[at[g] .. at[g + 1]); n: how many groups
 * have workloads. */
typedef struct gs_groups {
	int *of, *wls, *at;
	int n;
} gs_groups;

/* pl's tenants, those of more than 2 x GS_BLOCK_REPLICAS replicas split
 * into blocks. 0, or -1 when out of memory (g is then empty). */
int gs_groups_init(const gs_planner *pl, gs_groups *g);
void gs_groups_release(gs_groups *g);

#endif
