/*
 * plan_ident.h - what a plan's input is, as words, for the keys of
 * results that outlive the plan (a gs_plan_cache's: plan_ident.c). A key
 * within one plan may name a workload by its index, since the plan never
 * changes it; across plans the scenario may have been edited, so such a
 * key also says what each workload it reads is (its keys, as a file
 * writes them), what the file is, and what the planner made of both.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_IDENT_H
#define GS_PLAN_IDENT_H

#include <stddef.h>
#include <stdint.h>

#include "plan/planner.h"

/* With a cache: gives pl the cache's memos (pl->groups, pl->evals) and
 * each workload's id (pl->ident). Without: nothing. -1 when out of
 * memory. */
int gs_ident_init(gs_planner *pl, gs_plan_cache *cache);

/* The words such a key adds for workload w (its id, its replicas' flags,
 * and with `at` its first replica's index, for results that name
 * replicas), into `to`: how many; with `to` NULL, how many at most. */
size_t gs_ident_workload(const gs_planner *pl, int w, int at, int64_t *to);

/* The words such a key adds for replica r alone (its workload's id, its
 * place among the workload's replicas, its flags), into `to` unless
 * NULL: how many. */
size_t gs_ident_replica(const gs_planner *pl, int r, int64_t *to);

/* The words it adds for the planner: the file's id, the cloud, the
 * catalog and what the planner made of them and of the whole fleet (its
 * models, their prices, its rules and budgets). */
size_t gs_ident_planner(const gs_planner *pl, int64_t *to);

#endif
