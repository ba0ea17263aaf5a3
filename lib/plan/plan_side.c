/*
 * plan_side.c - what the second thread works out while the first writes
 * a plan's records (planner.h): what the plan costs pinned
 * (plan_placement.c) and what kept it from sharing more (plan_limit.c),
 * one after the other on one copy of the planner (fork.h).
 *
 * At 10,000 replicas in the REPL the pinned plan took 9 ms of the second
 * thread and the first spent 25 ms on the records, 4 of them on the
 * sharing limit's scan; up to 5,000 replicas that limit may plan the
 * whole fleet again.
 */
#include <stdlib.h>

#include "plan/fork.h"
#include "plan/planner.h"

struct gs_side {
	gs_fork f;
	gs_choice c;          /* the plan's models, apart from the reasons' probes */
	const gs_built *chosen;
	gs_micros before;
	gs_limit limit;
	long counted;         /* refusals the limit's plan counted */
	int priced;           /* gs_pinned_priced, after them */
	gs_micros pinned;     /* what the plan costs pinned, when priced */
	int rc;
	gs_fork_task *task;
};

/* The side's work, on the copy f.pl (or on pl itself, here). The plan
 * the limit makes at another target counts its refusals as the plan's
 * own did, and whether the plan is priced pinned reads them: the count
 * is as one thread would have it (fork.h). */
static int work(const gs_planner *pl, const gs_choice *c, gs_side *t)
{
	long from = pl->robust_bound ? *pl->robust_bound : 0;
	if (gs_limit_find(pl, t->chosen, t->before, &t->limit) < 0)
		return -1;
	t->counted = pl->robust_bound ? *pl->robust_bound - from : 0;
	t->priced = gs_pinned_priced(pl);
	t->pinned = t->priced ? gs_pinned_cost(pl, c, t->before) : -1;
	return 0;
}

static int side_run(void *arg)
{
	gs_side *t = arg;
	t->rc = work(&t->f.pl, &t->c, t);
	return 0;
}

static void side_free(gs_side *t, const gs_planner *pl)
{
	gs_fork_wait(t->task);
	gs_choice_release(pl, &t->c);
	gs_fork_drop(&t->f);
	free(t);
}

int gs_side_begin(const gs_planner *pl, const gs_choice *c, const gs_built *chosen,
                  gs_micros before, gs_side **out)
{
	gs_side *t;
	*out = NULL;
	/* Nothing to do: no pinned price, and the target is 100 %. */
	if (!gs_fork_may(pl) || (pl->target >= GS_PPM && !gs_pinned_priced(pl)))
		return 0;
	if (!(t = calloc(1, sizeof *t)))
		return -1;
	t->chosen = chosen;
	t->before = before;
	if (gs_fork_init(&t->f, pl, 0) < 0) {
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

void gs_side_drop(gs_side *t, const gs_planner *pl)
{
	if (t)
		side_free(t, pl);
}

int gs_side_end(gs_plan *p, const gs_planner *pl, const gs_choice *c,
                const gs_built *chosen, gs_micros before, gs_side *t)
{
	gs_side here, *s = t ? t : &here;
	int rc;
	if (t) {
		gs_fork_wait(t->task);
		t->task = NULL;
		if (t->rc == 0 && pl->robust_bound)
			*pl->robust_bound += t->counted;
	} else {
		here.chosen = chosen;
		here.before = before;
		here.rc = work(pl, c, &here);
	}
	rc = s->rc;
	if (rc == 0)
		rc = gs_limit_say(p, pl, chosen, &s->limit);
	if (rc == 0)
		rc = gs_plan_placement_set(p, pl, s->priced, s->pinned);
	gs_side_drop(t, pl);
	return rc;
}
