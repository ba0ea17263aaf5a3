/*
 * plan_side.c - what the second thread works out while the first writes
 * a plan's records (planner.h), on one copy of the planner (fork.h): for
 * a plan priced pinned, what kept it from sharing more (plan_limit.c),
 * where finding that is a scan, and what it costs pinned
 * (plan_placement.c).
 *
 * At 10,000 replicas in the REPL the pinned plan took 9 ms of the second
 * thread while the first spent 25 ms on the records, 4 of them on the
 * sharing limit's scan, which the second now makes too. Up to 5,000
 * replicas the limit plans the fleet again (a model search: 0.26 s at
 * 1,000 replicas, as long as the pinned plan), and stays on the first
 * thread, beside the pinned plan; but where the first thread computes the
 * linear relaxation's bound (cg.h: up to 2,000 replicas, 2.3 s of
 * fleet.py's mixed 2,000 against a pinned plan of 1.3 s and a limit of
 * 0.6 s), the second makes both. That limit is capped by the plan
 * without sharing in gs_side_end, as the pinned cost is.
 *
 * The pinned cost is two searches where the budget allows
 * (gs_pinned_fresh): from the plan's models and afresh. The second thread
 * makes the first; the afresh one is made by whichever thread is free
 * first, as each computes what the other would.
 *
 * The work begins with the shared plan as the one chosen, before the
 * first thread builds the plan without sharing (7 ms of a REPL edit on
 * this machine) that may yet be chosen instead: then it begins again.
 * Nothing here needs that plan's cost but the cap on the pinned cost,
 * which gs_side_end applies.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "plan/cg.h"
#include "plan/fork.h"
#include "plan/planner.h"

struct gs_side {
	gs_fork f;
	gs_choice c;          /* the plan's models, apart from the reasons' probes */
	const gs_built *chosen;
	int limit_here;       /* the limit is the first thread's (it plans again) */
	gs_limit limit;
	long counted;         /* refusals the limit's plan counted */
	int priced;           /* gs_pinned_priced, after them */
	gs_micros pinned;     /* what the plan costs pinned from c, when priced */
	/* The pinned plan searched afresh (gs_pinned_fresh): made by the
	 * thread that is free first, which takes it. */
	atomic_int fresh_taken;
	gs_micros fresh;
	int rc;
	gs_fork_task *task;
};

/* The fresh pinned plan, on pl, unless the other thread took it. */
static void take_fresh(gs_side *t, const gs_planner *pl)
{
	if (gs_pinned_fresh(pl) && atomic_exchange(&t->fresh_taken, 1) == 0)
		t->fresh = gs_pinned_from(pl, NULL);
}

/* The limit, then whether the plan is priced pinned and its pinned cost,
 * on pl (a copy, or the planner itself). The plan the limit makes at
 * another target counts its refusals as the plan's own did, and whether
 * the plan is priced pinned reads them: t->counted gets how many, which
 * a copy's parent adds to its own, as one thread would have them. */
static int limit_then_pinned(const gs_planner *pl, const gs_choice *c, gs_side *t)
{
	long from = pl->robust_bound ? *pl->robust_bound : 0;
	/* A limit that is a scan reads no cost; one that plans again is
	 * capped by the plan without sharing in gs_side_end, which this
	 * thread may begin before it is built. */
	if (gs_limit_find(pl, t->chosen, INT64_MAX, &t->limit) < 0)
		return -1;
	t->counted = pl->robust_bound ? *pl->robust_bound - from : 0;
	t->priced = gs_pinned_priced(pl);
	t->pinned = t->priced ? gs_pinned_from(pl, c) : -1;
	return 0;
}

static int side_run(void *arg)
{
	gs_side *t = arg;
	if (t->limit_here)
		t->pinned = gs_pinned_from(&t->f.pl, &t->c);
	else
		t->rc = limit_then_pinned(&t->f.pl, &t->c, t);
	if (t->rc == 0 && (t->limit_here || t->priced))
		take_fresh(t, &t->f.pl);
	return 0;
}

static void side_free(gs_side *t, const gs_planner *pl)
{
	gs_fork_wait(t->task);
	gs_choice_release(pl, &t->c);
	gs_fork_drop(&t->f);
	free(t);
}

/* Begins the work on a copy of pl (made as `how` says) and of c: the
 * pinned figure, and before it the limit unless limit_here (gs_side_end
 * finds it then, on the first thread). */
static int side_start(const gs_planner *pl, const gs_choice *c, const gs_built *chosen,
                      int limit_here, int how, gs_side **out)
{
	gs_side *t;
	if (!(t = calloc(1, sizeof *t)))
		return -1;
	t->chosen = chosen;
	t->limit_here = limit_here;
	t->fresh = -1;
	atomic_init(&t->fresh_taken, 0);
	if (gs_fork_init(&t->f, pl, how) < 0) {
		free(t);
		return -1;
	}
	if (gs_choice_copy(&t->f.pl, c, &t->c) < 0 || gs_fork_start(&t->task, side_run, t) < 0) {
		side_free(t, pl);
		return -1;
	}
	*out = t;
	return 0;
}

/* Below this many replicas the pinned figure does not begin early: at
 * 10^5 the first thread waited 10 ms for the third start, and the copy,
 * made while the third start's thread still ran, drew on a malloc arena
 * of its own (glibc gives each thread one it finds free): the peak went
 * from 194-200 to 216-239 MiB, against a target of 256, for no time. At
 * 10^6 the wait was a second and the peak went from about 1,810 to
 * 1,886-1,915 MiB. */
#define EARLY_MIN_REPLICAS 200000

int gs_side_early(const gs_planner *pl, const gs_choice *c, gs_side **out)
{
	*out = NULL;
	if (pl->nreps < (pl->early_least ? pl->early_least : EARLY_MIN_REPLICAS) ||
	    !gs_fork_may(pl) || !gs_pinned_priced(pl) ||
	    pl->summary_only || gs_limit_replans(pl) || gs_pinned_fresh(pl))
		return 0;
	return side_start(pl, c, NULL, 1, GS_FORK_NO_CACHE, out);
}

int gs_side_begin(const gs_planner *pl, const gs_choice *c, const gs_built *chosen,
                  gs_side *early, gs_side **out)
{
	*out = NULL;
	/* What the early work read is what the plan stands on. */
	if (early && gs_choice_same(pl, &early->c, c)) {
		*out = early;
		return 0;
	}
	gs_side_drop(early, pl);
	/* A plan not priced pinned scans for its limit on the first thread:
	 * a second thread for 20 ms of 1.4 s took a pinned plan of 100,000
	 * replicas from 171 to 185 MiB (its copy of the planner, and the C
	 * library's arena for it). */
	if (!gs_fork_may(pl) || !gs_pinned_priced(pl))
		return 0;
	return side_start(pl, c, chosen, gs_limit_replans(pl) && !gs_cg_affords(pl), 0, out);
}

void gs_side_drop(gs_side *t, const gs_planner *pl)
{
	if (t)
		side_free(t, pl);
}

/* Waits for t, having made the fresh pinned plan here if t had not taken
 * it yet: with the memo of packings this thread has (which it keeps
 * while the linear relaxation may run, plan.c), the search is as fast
 * here as there. Fleet.py's mixed 1,000 on Azure, robust: the second
 * thread's two pinned searches took 4.2 s, after the first thread's bound
 * of 0.6 s. */
static void help(gs_side *t, const gs_planner *pl)
{
	if (pl->memo)
		take_fresh(t, pl);
	gs_fork_wait(t->task);
	t->task = NULL;
}

int gs_side_end(gs_plan *p, const gs_planner *pl, const gs_choice *c,
                const gs_built *chosen, gs_micros before, gs_side *t)
{
	gs_side mine;
	const gs_side *s = &mine;
	gs_micros pinned;
	int rc;
	if (t && !t->limit_here) {
		help(t, pl);
		if (t->rc == 0 && pl->robust_bound)
			*pl->robust_bound += t->counted;
		if (t->limit.at > before)
			t->limit.at = before;
		t->pinned = gs_pinned_least(t->pinned, t->fresh);
		s = t;
	} else {
		/* The limit here, counting on the planner's own count; then the
		 * pinned cost, the copy's where one began (it began priced, and
		 * the count only grows), else made here. */
		mine.pinned = -1;
		mine.rc = gs_limit_find(pl, chosen, before, &mine.limit);
		if (mine.rc == 0 && (mine.priced = gs_pinned_priced(pl)) && t) {
			help(t, pl);
			mine.pinned = gs_pinned_least(t->pinned, t->fresh);
		} else if (mine.rc == 0 && mine.priced) {
			mine.pinned = gs_pinned_cost(pl, c);
		}
	}
	rc = s->rc;
	/* Sharing never costs more than not sharing, pinned too. */
	pinned = s->pinned >= 0 && s->pinned > before ? before : s->pinned;
	if (rc == 0)
		rc = gs_limit_say(p, pl, chosen, &s->limit);
	if (rc == 0)
		rc = gs_plan_placement_set(p, pl, s->priced, pinned);
	gs_side_drop(t, pl);
	return rc;
}
