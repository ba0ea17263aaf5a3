/*
 * fork.c - planner copies and the threads that run them (fork.h). The
 * library's one use of POSIX threads: the plan is the same bytes with
 * them or without (each task computes what it would alone, and the
 * parent reads the results in a fixed order).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "plan/fork.h"
#include "plan/memo.h"
#include "plan/mig_fits.h"

int gs_fork_may(const gs_planner *pl)
{
	return !pl->solo && !pl->work && !pl->probe && pl->nreps >= GS_FORK_MIN_REPLICAS;
}

int gs_fork_init(gs_fork *f, const gs_planner *pl, int how)
{
	memset(f, 0, sizeof *f);
	f->pl = *pl;
	f->pl.solo = 1;
	f->pl.shops = f->shops;
	f->pl.memo = NULL;
	/* A REPL edit re-planned each group's search in the third start
	 * (plan_cheap.c) for want of this: a search is a function of its key
	 * (search_groups.h), whichever memo keeps it. */
	f->pl.groups = pl->groups2;
	f->pl.groups2 = NULL;
	f->pl.groups_kept = pl->groups2 != NULL;
	/* Copies never work at the same time (fork.h), so the one at work
	 * has the cache's second memo to itself. */
	f->pl.evals = pl->evals2;
	f->pl.evals2 = NULL;
	f->pl.packs = pl->packs2;
	f->pl.packs2 = NULL;
	if (how & GS_FORK_NO_CACHE) {
		f->pl.groups = NULL;
		f->pl.groups_kept = 0;
		f->pl.evals = NULL;
		f->pl.packs = NULL;
	}
	/* Groups' evaluations are the parent's alone. */
	f->pl.gevals = NULL;
	f->pl.grec = NULL;
	f->pl.fits = gs_fits_new();
	if (how & GS_FORK_REPLICAS) {
		size_t n = (size_t)(pl->nreps ? pl->nreps : 1);
		if (!(f->reps = malloc(n * sizeof *f->reps)))
			goto fail;
		memcpy(f->reps, pl->reps, (size_t)pl->nreps * sizeof *f->reps);
		f->pl.reps = f->reps;
	}
	for (int m = 0; m < pl->nmodels; m++)
		if (gs_shop_copy(&f->shops[m], &pl->shops[m]) < 0)
			goto fail;
	/* A memo of its own: the parent's would need a lock. Measured on
	 * fleet.py's mixed fleets of 10^4 to 10^6 replicas, a copy with one
	 * as large as the parent's planned no faster, and at 10^6 held 110
	 * MiB more (2,104 MiB against 1,989): there it is a thousandth of
	 * the parent's. Where the model search is thorough (up to 3,000
	 * replicas), its searches re-pack what they packed before, and a
	 * thousandth (16 KiB) kept almost nothing: the parent's size took
	 * mixed 2,000, robust, from 4.7 to 3.6 s for 17 MiB more. */
	f->pl.memo = gs_memo_new(gs_planner_memo_bytes(pl->nreps) /
	                         (gs_choose_thorough(pl) ? 1 : 1000));
	if (pl->robust_bound) {
		f->from = f->counted = *pl->robust_bound;
		f->pl.robust_bound = &f->counted;
	}
	return 0;
fail:
	gs_fork_drop(f);
	return -1;
}

void gs_fork_drop(gs_fork *f)
{
	for (int m = 0; m < GS_MAX_MODELS; m++)
		gs_shop_release(&f->shops[m]);
	gs_memo_free(f->pl.memo);
	gs_fits_free(f->pl.fits);
	free(f->reps);
	memset(f, 0, sizeof *f);
}

void gs_fork_done(gs_fork *f, gs_planner *pl)
{
	if (pl->robust_bound)
		*pl->robust_bound += f->counted - f->from;
	gs_memo_absorb(pl->memo, f->pl.memo);
	f->pl.memo = NULL;
	gs_fork_drop(f);
}

struct gs_fork_task {
	pthread_t thread;
	int (*task)(void *);
	void *arg;
	int rc, started;
	atomic_int ended;
};

static void *run(void *arg)
{
	gs_fork_task *t = arg;
	t->rc = t->task(t->arg);
	atomic_store_explicit(&t->ended, 1, memory_order_release);
	return NULL;
}

/* A thread with the stack the main thread has on glibc (some C
 * libraries give new threads as little as 128 KiB). */
static int start(gs_fork_task *t)
{
	pthread_attr_t attr;
	int ok;
	if (pthread_attr_init(&attr) != 0)
		return 0;
	ok = pthread_attr_setstacksize(&attr, (size_t)8 << 20) == 0 &&
	     pthread_create(&t->thread, &attr, run, t) == 0;
	pthread_attr_destroy(&attr);
	return ok;
}

int gs_fork_start(gs_fork_task **out, int (*task)(void *), void *arg)
{
	gs_fork_task *t = calloc(1, sizeof *t);
	*out = t;
	if (!t)
		return -1;
	t->task = task;
	t->arg = arg;
	atomic_init(&t->ended, 0);
	t->started = start(t);
	if (!t->started)
		t->rc = task(arg);
	return 0;
}

int gs_fork_ended(gs_fork_task *t)
{
	return !t || !t->started || atomic_load_explicit(&t->ended, memory_order_acquire);
}

int gs_fork_wait(gs_fork_task *t)
{
	int rc;
	if (!t)
		return 0;
	if (t->started)
		pthread_join(t->thread, NULL);
	rc = t->rc;
	free(t);
	return rc;
}
