/*
 * search_groups.h - the parts the model search (plan_choose.c) searches
 * one at a time before the whole: each tenant, and a large tenant in
 * blocks of consecutive workloads (search_groups.c).
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_SEARCH_GROUPS_H
#define GS_PLAN_SEARCH_GROUPS_H

#include <stdint.h>

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

/* ---- what a group's search found (search_groups.c) ------------------------
 * A group's search reads its workloads' models and candidates, its
 * replicas' marks, its two budgets (evaluations and work) and the plan's
 * rules, and has a memo of its own: it is a function of those, which the
 * key holds in full. A plan chooses models again after marking replicas
 * (plan_uniform.c), and then most groups search as they did before. */

/* The most a memo of groups' results holds: a result is a word per
 * workload, its key a few per replica (at 10,000 replicas a round of
 * every group's takes about 0.3 MiB). */
#define GS_GROUPS_MEMO_BYTES ((size_t)8 << 20)

/* The record of group t's evaluations in pl's cache (group_evals.h),
 * named by the group and the planner's words, its workloads' words noted
 * for a new search; NULL without one, or when out of memory. */
struct gs_group_rec *gs_group_open(const gs_planner *pl, const gs_groups *g, size_t t);

/* How many replicas group t has. */
long gs_group_replicas(const gs_planner *pl, const gs_groups *g, size_t t);

/* The key of group g->wls[g->at[t] ..]'s search in c with `share` work
 * and `budget` evaluations, in a new array of *nkey words; NULL when out
 * of memory. */
int64_t *gs_group_key(const gs_planner *pl, const gs_choice *c, const gs_groups *g, size_t t,
                      long share, long budget, int *nkey);
/* Gives the group's workloads in c the models its search found before,
 * and *share the work it left: 1; 0 when none was kept. */
int gs_group_recall(const gs_planner *pl, const int64_t *key, int nkey, gs_choice *c,
                    const gs_groups *g, size_t t, long *share);
/* Keeps what the search under key found: c's models, and the work left. */
void gs_group_keep(const gs_planner *pl, const int64_t *key, int nkey, const gs_choice *c,
                   const gs_groups *g, size_t t, long share);

#endif
