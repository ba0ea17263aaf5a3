/*
 * group_evals.h - what a group's model searches (search_groups.h)
 * evaluated, kept by a gs_plan_cache from one plan to the next
 * (group_evals.c).
 *
 * A group's search has a memo of its own and counts its work as it packs,
 * so that it is the same search whatever was searched before it. After a
 * REPL edit of one workload, its group searches again, and most of what
 * it evaluates holds none of the edited workload. This keeps those
 * evaluations with the work each took: the search finds one here where
 * its own memo has none, charges the work it took, and goes on as if it
 * had packed it, which it would have done with the same result.
 *
 * An evaluation's key names workloads by index (plan_choose.c). It holds
 * here while the planner is the same (gs_ident_planner) and none of the
 * workloads it names changed since it was kept: each group's record notes,
 * per workload, the last search at which the workload's words
 * (gs_ident_workload) were new.
 *
 * Only lib/plan/ includes it. Used on the planner's own thread only: a
 * copy at work on another thread has none (fork.c).
 */
#ifndef GS_PLAN_GROUP_EVALS_H
#define GS_PLAN_GROUP_EVALS_H

#include <stddef.h>
#include <stdint.h>

/* Every group's record, in a gs_plan_cache. */
typedef struct gs_group_evals gs_group_evals;
/* One group's record, owned by its gs_group_evals. */
typedef struct gs_group_rec gs_group_rec;

/* An empty set of records; NULL when out of memory. */
gs_group_evals *gs_group_evals_new(void);
void gs_group_evals_free(gs_group_evals *ge);

/* The record named who[0..nwho) (found, or new) for a new search of a
 * fleet of nw workloads; NULL when out of memory (the search then packs
 * all it evaluates). Its workloads are then noted. Past a limit of their
 * own, the records and evaluations are all forgotten first. */
gs_group_rec *gs_group_evals_open(gs_group_evals *ge, const int64_t *who, size_t nwho,
                                  size_t nw);
/* Notes workload w's words (what names it, gs_ident_workload) at this
 * search: whether they are new since the last. -1 when out of memory. */
int gs_group_rec_note(gs_group_evals *ge, gs_group_rec *r, int w, const int64_t *words,
                      size_t n);

/* How many evaluations searches found in ge. */
long gs_group_evals_found(const gs_group_evals *ge);

/* The evaluation of key (plan_choose.c's, of n words: `head` words,
 * then one per workload, its index times two plus a flag) kept by an
 * earlier search, when every workload it names is as it was then: 1, its
 * totals in val[0..3) and the work it took in *work; else 0 (also when
 * out of memory: the search then packs it). */
int gs_group_rec_get(gs_group_evals *ge, const gs_group_rec *r, const int64_t *key, int n,
                     int head, int64_t *val, long *work);

/* Keeps an evaluation: its key (as above), its totals and its work. */
void gs_group_rec_put(gs_group_evals *ge, const gs_group_rec *r, const int64_t *key, int n,
                      int head, const int64_t *val, long work);

#endif
