/*
 * plan_limit.c - whether targetUtilization is what kept the plan from
 * sharing more, said with share_rule.c's sentence so that `plan` and
 * `savings` name the same knob the same way.
 *
 * The target decided when a replica on a whole GPU could join another
 * GPU of its model by every rule of the packer (pack_share.c's
 * gs_can_join) but the target's, and a plan made at the target that fits
 * them costs less: the sentence then names the lowest such target, and
 * that plan's cost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "plan/planner.h"
#include "plan/share_rule.h"
#include "scenario/scenario.h"

/* Pairs looked at, at most: linear in a fleet of any size. */
#define LIMIT_CHECKS 200000
/* Fleets up to this many replicas are planned again at the target found;
 * above it, a second plan would double the time of every REPL edit. */
#define REPLAN_MAX 5000

/* A GPU that a replica could join but for the target: gs_limit's gpu,
 * rep and need (the target that fits them). */
typedef gs_limit hit;

/* The GPU's replicas as a group of the packer, with the sums it checks. */
static int regroup(const gs_planner *pl, const gs_pgpu *g, gs_group *gr)
{
	memset(gr, 0, sizeof *gr);
	gr->tenant = pl->reps[g->g[0].reps[0]].tenant;
	for (int i = 0; i < g->g[0].n; i++)
		if (gs_group_join(pl, g->model, gr, g->g[0].reps[i]) < 0)
			return -1;
	return 0;
}

/* A replica of several GPUs joins no other and takes none in. */
static int whole_gpu(const gs_pgpu *g)
{
	return g->strategy != GS_STRATEGY_MIG && g->ng == 1 && g->g[0].n > 0 &&
	       gs_pgpu_span(g) == 1;
}

/* Looks at the replicas of each whole GPU joining the others of one
 * packing. */
static int scan_pack(const gs_planner *pl, const gs_pack *pk, long *budget, hit *best)
{
	gs_planner open = *pl;
	open.target = GS_PPM;
	for (int i = 0; i < pk->n && *budget > 0; i++) {
		const gs_pgpu *g = &pk->gpus[i];
		gs_group gr;
		if (!whole_gpu(g) || regroup(pl, g, &gr) < 0) {
			if (whole_gpu(g))
				return -1;
			continue;
		}
		for (int j = 0; j < pk->n && *budget > 0; j++) {
			const gs_pgpu *s = &pk->gpus[j];
			int n = j != i && whole_gpu(s) ? s->g[0].n : 0;
			for (int k = 0; k < n; k++, (*budget)--) {
				int r = s->g[0].reps[k];
				int64_t need;
				/* Another tenant's replica: the packer's first rule
				 * refuses it at any target, with nothing counted
				 * (pack_share.c), so it is not asked. Most pairs at
				 * 10,000 replicas in 24 tenants. */
				if (pl->reps[r].tenant != gr.tenant ||
				    gs_can_join(pl, g->model, &gr, r) ||
				    !gs_can_join(&open, g->model, &gr, r))
					continue;
				need = gs_rep_comp(pl, r, g->model) + gr.comp;
				need = gs_share_target_for(1, need);
				if (!best->gpu || need < best->need)
					*best = (hit){ g, r, need, -1 };
			}
		}
		free(gr.reps);
	}
	return 0;
}

/* What the plan costs when made at the target `need`; -1 when out of
 * memory. */
static gs_micros cost_at(const gs_planner *pl, int64_t need, gs_micros before)
{
	gs_planner alt = *pl;
	gs_choice c;
	gs_built b;
	gs_micros cost = -1;
	alt.target = need;
	memset(&b, 0, sizeof b);
	if (gs_choice_init(&alt, &c) == 0 && gs_choose_models(&alt, alt.shops, &c) == 0 &&
	    gs_build_chosen(&alt, alt.shops, &c, &b) == 0)
		cost = b.cost < before ? b.cost : before;
	gs_built_release(&b);
	gs_choice_release(&alt, &c);
	return cost;
}

/* Whether replica r's workload is among those of reps[0..n). */
static int seen_before(const gs_planner *pl, const int *reps, int n, int r)
{
	for (int i = 0; i < n; i++)
		if (pl->reps[reps[i]].w == pl->reps[r].w)
			return 1;
	return 0;
}

/* The names of the workloads on the hit's GPU (and of its replica's,
 * with_rep), at most four, and whether all their replicas need the same
 * compute there. */
static int names(const gs_planner *pl, const hit *h, int with_rep, char *buf, size_t size)
{
	const gs_group *gr = &h->gpu->g[0];
	int64_t c = gs_rep_comp(pl, h->rep, h->gpu->model);
	int same = 1, shown = 0, more = 0;
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < gr->n + with_rep; i++) {
		int r = i < gr->n ? gr->reps[i] : h->rep;
		same &= gs_rep_comp(pl, r, h->gpu->model) == c;
		if (seen_before(pl, gr->reps, i < gr->n ? i : gr->n, r))
			continue;
		if (shown == 4) {
			more++;
			continue;
		}
		if (o < size)
			o += (size_t)snprintf(buf + o, size - o, "%s%s", shown ? ", " : "",
			                      pl->reps[r].w->name);
		shown++;
	}
	if (more && o < size)
		snprintf(buf + o, size - o, " and %d more", more);
	return same;
}

/* The rule in a sentence, and what the plan would cost at the target it
 * names (at < 0: not planned). */
static void sentence(const gs_planner *pl, const hit *h, gs_micros at, gs_micros now,
                     char *buf, size_t size)
{
	char who[160], rule[256], c[16], t[16], sum[16], need[16], a[32], b[32];
	int64_t rc = gs_rep_comp(pl, h->rep, h->gpu->model), together = 0;
	const gs_group *gr = &h->gpu->g[0];
	size_t o;
	gs_share_pct(rc, c, sizeof c);
	gs_share_pct(h->need, need, sizeof need);
	gs_share_pct(pl->target, t, sizeof t);
	for (int i = 0; i < gr->n; i++)
		together += gs_rep_comp(pl, gr->reps[i], h->gpu->model);
	gs_share_pct(together, sum, sizeof sum);
	if (names(pl, h, 1, who, sizeof who)) {
		gs_share_rule_text(rule, sizeof rule, pl->target, rc, gr->n + 1);
		o = (size_t)snprintf(buf, size, "%s (%s compute each on %s): %s", who, c,
		                     h->gpu->model->name, rule);
	} else {
		names(pl, h, 0, who, sizeof who);
		o = (size_t)snprintf(buf, size, "targetUtilization %s leaves room for %s (%s "
		                     "compute together) on one %s, not %s (%s) too; set "
		                     "targetUtilization: %s to fit it", t, who, sum,
		                     h->gpu->model->name, pl->reps[h->rep].w->name, c, need);
	}
	gs_micros_format(at, 2, a, sizeof a);
	gs_micros_format(now, 2, b, sizeof b);
	if (at >= 0 && o < size)
		snprintf(buf + o, size - o, " ($%s/h instead of $%s/h)", a, b);
}

int gs_limit_replans(const gs_planner *pl)
{
	return pl->target < GS_PPM && pl->nreps <= REPLAN_MAX;
}

int gs_limit_find(const gs_planner *pl, const gs_built *chosen, gs_micros before,
                  gs_limit *out)
{
	long budget = LIMIT_CHECKS;
	*out = (hit){ NULL, -1, 0, -1 };
	if (pl->target >= GS_PPM)
		return 0;
	for (int m = 0; m < chosen->npacks; m++)
		if (scan_pack(pl, &chosen->packs[m], &budget, out) < 0)
			return -1;
	if (!out->gpu || out->need > GS_PPM) {
		out->gpu = NULL;
		return 0;
	}
	if (gs_limit_replans(pl) && (out->at = cost_at(pl, out->need, before)) < 0)
		return -1;
	return 0;
}

int gs_limit_say(gs_plan *p, const gs_planner *pl, const gs_built *chosen,
                 const gs_limit *l)
{
	char buf[640];
	if (!l->gpu || (l->at >= 0 && l->at >= chosen->cost))
		return 0;
	sentence(pl, l, l->at, chosen->cost, buf, sizeof buf);
	return (p->sum.sharing_limit = gs_plan_strdup(p, buf)) ? 0 : -1;
}
