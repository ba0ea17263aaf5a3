/*
 * fork.h - the planner's work on both cores: a copy of the planner whose
 * state that work writes (the shops' memos of buys, the memo of packings,
 * the count of robust refusals) is its own, and a task run on a second
 * thread (fork.c).
 *
 * The copy shares what its parent only reads (the scenario, the compute
 * table, and the replicas unless it has its own), so the parent may plan
 * on while the copy works, but not change those. A copy computes what
 * its parent would have: the memo returns exactly what computing would,
 * and a copy's count of refusals starts at the parent's and is added
 * back, so where planning reads only whether one was counted
 * (pack_share.c, plan_placement.c) it reads what one thread would.
 * Copies fork no further: two cores, two tasks, and a copy's work ends
 * before the next copy is made, but for the pinned figure begun while the
 * first thread waits for the third start (gs_side_early), made without
 * the cache's memos. A copy keeps its evaluations in a memo of its own
 * too, or in a gs_plan_cache's second memo (plan_ident.h), as it does its
 * groups' searches (search_groups.h).
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_FORK_H
#define GS_PLAN_FORK_H

#include "plan/planner.h"

typedef struct gs_fork {
	gs_planner pl;                 /* the copy: plan with &fork->pl */
	gs_shop shops[GS_MAX_MODELS];
	gs_replica *reps;              /* with GS_FORK_REPLICAS: its own */
	long counted;                  /* the copy's count of refusals */
	long from;                     /* the parent's, when it was made */
} gs_fork;

/* Below this many replicas a plan takes milliseconds, and work begun on
 * the second thread is more often than not thrown away (the third start
 * built where the first choice settles on its models). */
#define GS_FORK_MIN_REPLICAS 500

/* Whether pl may fork: a fleet of GS_FORK_MIN_REPLICAS or more, not a
 * copy itself, and not within a tenant's budgeted search (plan_choose.c),
 * whose work one thread counts. */
int gs_fork_may(const gs_planner *pl);

/* How a copy is made: with its own copy of the replicas (the parent
 * marks them meanwhile: plan_uniform.c); without the memos of the
 * parent's cache, for a copy that works while another one does (the memo
 * only spares work: the copy computes the same). */
enum { GS_FORK_REPLICAS = 1, GS_FORK_NO_CACHE = 2 };

/* f becomes a copy of pl, made as `how` says. -1 when out of memory (f
 * is then empty). */
int gs_fork_init(gs_fork *f, const gs_planner *pl, int how);

/* The copy's work is pl's: adds the refusals f counted to pl's, moves
 * f's memo into pl's, and frees the rest of f. */
void gs_fork_done(gs_fork *f, gs_planner *pl);

/* Frees f, its work unused. */
void gs_fork_drop(gs_fork *f);

/* Begins task(arg) on a second thread, or runs it here at once when no
 * thread starts; -1 when out of memory (nothing runs, *t is NULL). */
typedef struct gs_fork_task gs_fork_task;
int gs_fork_start(gs_fork_task **t, int (*task)(void *), void *arg);
/* Whether t's task has ended, so that gs_fork_wait will not wait. Only
 * what the caller does next may depend on it, never what it computes. */
int gs_fork_ended(gs_fork_task *t);
/* Waits for t and frees it; its task's result. */
int gs_fork_wait(gs_fork_task *t);

#endif
