/*
 * plan_placement.c - what robust placement costs: the same scenario
 * planned pinned, where every placement is an object of its own and a GPU
 * holds only its planned replicas. Planned again only when the worst case
 * refused some place, so a plan it did not bind costs nothing more.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "plan/planner.h"

/* The plan pinned, searched from the models in `from` (NULL: each
 * workload's first choice); -1 when it cannot be built. */
gs_micros gs_pinned_from(const gs_planner *pl, const gs_choice *from)
{
	gs_planner alt = *pl;
	gs_choice c;
	gs_built b;
	gs_micros cost = -1;
	alt.placement = GS_PLACEMENT_PINNED;
	alt.robust_bound = NULL;
	/* Large fleets: the robust plan's models packed pinned, as they
	 * stand (a budget of 30 re-packings at 10,000 replicas took twice
	 * the plan's own time to find 2 % less). */
	if (from && !gs_choose_thorough(pl))
		alt.quick = 1;
	memset(&b, 0, sizeof b);
	memset(&c, 0, sizeof c);
	if ((from ? gs_choice_fork(&alt, from, &c) : gs_choice_init(&alt, &c)) == 0 &&
	    gs_choose_models(&alt, alt.shops, &c) == 0 &&
	    gs_build_chosen(&alt, alt.shops, &c, &b) == 0 &&
	    gs_refill(&alt, alt.shops, &c, &b) == 0)
		cost = b.cost;
	gs_built_release(&b);
	gs_choice_release(&alt, &c);
	return cost;
}

int gs_pinned_fresh(const gs_planner *pl)
{
	return gs_choose_thorough(pl);
}

gs_micros gs_pinned_least(gs_micros from, gs_micros fresh)
{
	return from >= 0 && fresh >= 0 && fresh < from ? fresh : from;
}

/* What the plan costs pinned: from the robust plan's
 * models (c), which pinned's looser rules hold at most as dear, searched
 * where the search can afford it, and then from the first choice too.
 * From the first choice alone, large fleets' small budgets left it above
 * the robust plan (100,000 replicas: reported at the robust plan's
 * $70,581.80/h, where from its models it is $64,786.62/h). */
gs_micros gs_pinned_cost(const gs_planner *pl, const gs_choice *c)
{
	gs_micros cost = gs_pinned_from(pl, c);
	if (cost >= 0 && gs_pinned_fresh(pl))
		cost = gs_pinned_least(cost, gs_pinned_from(pl, NULL));
	return cost;
}

/* The "after" cost of the plan with replicas of several GPUs kept to
 * nodes of their own span (apart) or not; -1 when it cannot be built. */
static gs_micros wide_cost(const gs_planner *pl, int apart)
{
	gs_planner alt = *pl;
	gs_choice c;
	gs_built b;
	gs_micros cost = -1;
	alt.wide_apart = apart;
	alt.robust_bound = NULL;
	memset(&b, 0, sizeof b);
	if (gs_choice_init(&alt, &c) == 0 && gs_choose_models(&alt, alt.shops, &c) == 0 &&
	    gs_build_chosen(&alt, alt.shops, &c, &b) == 0)
		cost = b.cost;
	gs_built_release(&b);
	gs_choice_release(&alt, &c);
	return cost;
}

int gs_plan_wide_apart(gs_planner *pl)
{
	gs_micros mixed, apart;
	pl->wide_apart = 0;
	/* The local search over models is greedy: where wide replicas may
	 * share nodes, it can gather every workload onto one large instance
	 * and find no single move off it cheaper. Apart is a plan too. */
	if (!pl->wide || pl->via_dra || pl->quick || pl->placement != GS_PLACEMENT_ROBUST)
		return 0;
	mixed = wide_cost(pl, 0);
	apart = wide_cost(pl, 1);
	pl->wide_apart = apart >= 0 && (mixed < 0 || apart < mixed);
	return 0;
}

int gs_pinned_priced(const gs_planner *pl)
{
	return pl->placement == GS_PLACEMENT_ROBUST && pl->robust_bound &&
	       (*pl->robust_bound || pl->wide);
}

int gs_plan_placement_set(gs_plan *p, const gs_planner *pl, int priced, gs_micros pinned)
{
	gs_plan_summary *sum = &p->sum;
	sum->placement = pl->placement;
	sum->pinned_per_hour =
	    pl->placement == GS_PLACEMENT_PINNED ? -1 : sum->after_per_hour;
	/* Replicas of several GPUs share nodes under robust placement only
	 * where all their workloads fit at once (robust_span.c); pinned lets
	 * others fill the rest. */
	if (!priced)
		return 0;
	if ((sum->pinned_per_hour = pinned) < 0)
		return -1;
	/* A heuristic may land a pinned plan above the robust one. */
	if (sum->pinned_per_hour > sum->after_per_hour)
		sum->pinned_per_hour = sum->after_per_hour;
	return 0;
}
