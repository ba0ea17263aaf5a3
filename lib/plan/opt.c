/*
 * opt.c - directs the optimiser (opt.h): which plans it takes on, one
 * program per way the plan may share (MIG or MPS, where a plan may not
 * hold both), and the bound it proves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/opt.h"
#include "scenario/scenario.h"

static int has_mig_model(const gs_planner *pl)
{
	for (int m = 0; m < pl->nmodels; m++)
		if (pl->models[m]->mig_slots)
			return 1;
	return 0;
}

/* Each workload's model: the one that holds most of its replicas. */
static int remodel(const gs_planner *pl, gs_choice *c, const gs_built *b)
{
	int *most = calloc((size_t)pl->s->n * (size_t)pl->nmodels + 1, sizeof *most);
	if (!most)
		return -1;
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++)
			for (int j = 0; j < b->packs[m].gpus[i].ng; j++) {
				const gs_group *gr = &b->packs[m].gpus[i].g[j];
				for (int k = 0; k < gr->n; k++) {
					size_t w = (size_t)pl->reps[gr->reps[k]].wi;
					most[w * (size_t)pl->nmodels + (size_t)m]++;
				}
			}
	for (size_t w = 0; w < pl->s->n; w++) {
		int best = c->model[w];
		for (int m = 0; m < pl->nmodels; m++)
			if (most[w * (size_t)pl->nmodels + m] >
			    most[w * (size_t)pl->nmodels + (size_t)best])
				best = m;
		c->model[w] = best;
	}
	free(most);
	return 0;
}

/* The program's plan bought, in b; -2 when its solution is no plan. */
static int bought(gs_opt *o, gs_shop *shops, const double *x, gs_built *b)
{
	int rc = gs_built_init(o->pl, b);
	if (rc == 0)
		rc = gs_opt_realize(o, x, b);
	for (int m = 0; rc == 0 && m < o->pl->nmodels; m++)
		rc = gs_merge_dedicated(o->pl, &shops[m], &b->packs[m]);
	if (rc == 0 && o->pl->placement == GS_PLACEMENT_ROBUST &&
	    (rc = gs_built_one_request(o->pl, b)) == 0)
		rc = -2;
	if (rc == 1)
		rc = 0;
	if (rc == 0)
		rc = gs_built_buy(o->pl, shops, b);
	return rc;
}

static int fewer(const gs_built *a, const gs_built *b)
{
	long ga = 0, gb = 0;
	if (a->cost != b->cost)
		return a->cost < b->cost;
	for (int i = 0; i < a->ns.n; i++)
		ga += a->ns.v[i].inst->gpu_count;
	for (int i = 0; i < b->ns.n; i++)
		gb += b->ns.v[i].inst->gpu_count;
	return ga < gb;
}

static int shares_instance(const gs_opt *o, const double *x)
{
	for (int i = 0; i < o->nslots; i++)
		if (o->slots[i].shared && x[o->slots[i].col] > 0.5)
			return 1;
	return 0;
}

/* One program, under the planner's no_mig / no_mps as they stand, its
 * groups the relaxation's where k is set: its plan replaces *best when
 * cheaper; the bound of the relaxation (not of the program without shared
 * instances, nor of one restricted to k's groups) is folded into res.
 * Where the target refused a group only by the rounding of converted
 * compute (pack_share.c), *near is set and no bound is folded: the
 * program is the rounded rules', whose optimum may cost more than the
 * exact rules'. With relax, such groups pass, and only the bound is
 * kept: a program that holds every plan of the exact rules, and some the
 * rounded ones refuse. */
static int solve(gs_planner *pl, gs_shop *shops, const gs_choice *c, const gs_cg_cols *k,
                 gs_built *best, double seconds, gs_opt_result *res, int no_shared,
                 int relax, int *retry, int *near)
{
	gs_opt o;
	gs_milp *m = NULL;
	gs_milp_result r;
	long refused = 0, *was = pl->near_target;
	int rc, too_big = 0;

	*retry = 0;
	pl->near_target = &refused;
	pl->near_relax = relax;
	if ((rc = gs_opt_init(&o, pl, c)) == 0) {
		o.no_shared = no_shared;
		if ((rc = k ? gs_opt_columns_priced(&o, k) : gs_opt_columns(&o)) == -2)
			rc = 0;
	}
	pl->near_target = was;
	pl->near_relax = 0;
	*near = refused > 0;
	if (rc < 0 || o.too_big) {
		too_big = 1;
		goto done;
	}
	if (!(m = gs_milp_new()) || gs_opt_solve(&o, shops, m, seconds, &r) < 0) {
		rc = -1;
		goto done;
	}
	res->tried = 1;
	if (!no_shared && !k && (relax || !*near)) {
		res->proven &= r.status == GS_MILP_OPTIMAL;
		/* Prices are whole micro-dollars; the tie-breaks add less than
		 * a thousandth of one (opt_model.c). */
		gs_micros b = (gs_micros)ceil(r.bound - 1e-3);
		if (r.bound > -1e30 && (res->bound < 0 || b < res->bound))
			res->bound = b;
	}
	if (!relax && r.status != GS_MILP_NONE &&
	    (rc = gs_opt_take(&o, shops, r.x, best, res)) == 1) {
		*retry = !no_shared;
		rc = 0;
	}
done:
	gs_milp_free(m);
	gs_opt_release(&o);
	return rc < 0 ? rc : too_big;
}

int gs_opt_take(gs_opt *o, gs_shop *shops, const double *x, gs_built *best,
                gs_opt_result *res)
{
	gs_built b;
	int rc;
	memset(&b, 0, sizeof b);
	rc = bought(o, shops, x, &b);
	if (rc == 0 && fewer(&b, best)) {
		/* The program keeps to the rule the plan it improves on kept. */
		b.left_out = best->left_out;
		b.left_out_cost = best->left_out_cost;
		gs_built_release(best);
		*best = b;
		res->improved = 1;
		return 0;
	}
	gs_built_release(&b);
	/* Not taken (not a plan: a replica the rules would not seat, or
	 * dearer): worth another try without shared instances? */
	if (rc == 0 || rc == -2)
		return shares_instance(o, x);
	return rc;
}

/* The program, and again without shared MIG instances where the rules
 * refused to seat its solution. Where its groups are too many to list
 * (rc 1), no bound is proven. */
static int variant(gs_planner *pl, gs_shop *shops, const gs_choice *c, const gs_cg_cols *k,
                   gs_built *best, double seconds, gs_opt_result *res)
{
	int retry = 0, again, near = 0, rc;
	rc = solve(pl, shops, c, k, best, seconds / 2, res, 0, 0, &retry, &near);
	/* The bound where rounding refused a group: the relaxed program's. */
	if (rc == 0 && near && !k)
		rc = solve(pl, shops, c, k, best, seconds / 2, res, 0, 1, &again, &near);
	if (rc == 1) {
		res->exact = 0;
		return 0;
	}
	if (rc == 0 && retry &&
	    (rc = solve(pl, shops, c, k, best, seconds / 2, res, 1, 0, &retry, &near)) == 1)
		rc = 0;
	return rc;
}

/* The programs under the planner's rules: one, or, where MIG and MPS
 * could both be in the plan, one without each; a plan that beats *best
 * replaces it. */
static int programs(gs_planner *pl, gs_shop *shops, const gs_choice *c, const gs_cg_cols *k,
                    gs_built *best, double seconds, gs_opt_result *res)
{
	int no_mig = pl->no_mig, no_mps = pl->no_mps, rc = 0;
	int split = !pl->via_dra && has_mig_model(pl) && !no_mig && !no_mps;
	memset(res, 0, sizeof *res);
	res->bound = -1;
	res->exact = res->proven = 1;
	/* A device-plugin plan holds MIG or MPS, not both (plan_build.c). */
	for (int v = 0; v < (split ? 2 : 1) && rc == 0; v++) {
		pl->no_mps = split ? v == 0 : no_mps;
		pl->no_mig = split ? v == 1 : no_mig;
		rc = variant(pl, shops, c, k, best, seconds / (split ? 2 : 1), res);
	}
	pl->no_mig = no_mig;
	pl->no_mps = no_mps;
	/* A program too large to list proves nothing (it was flagged proven
	 * all the same, and the plan from the relaxation's columns, which
	 * runs where nothing is proven, did not run: fleet.py hetero 160 seed
	 * 2 planned $39.09/h against an optimum of $36.18/h). */
	if (!res->tried || !res->exact) {
		res->bound = -1;
		res->proven = 0;
	}
	return rc;
}

/* The bound of the programs with every replica's MIG columns: where the
 * plan kept some replicas off MIG (plan_uniform.c, a heuristic's choice,
 * not a rule), the programs without them bound only plans that keep them
 * off too. Nothing is taken from it: *best stays. */
static int bound_unmarked(gs_planner *pl, gs_shop *shops, const gs_choice *c, double seconds,
                          gs_opt_result *res)
{
	char *mark = malloc((size_t)pl->nreps);
	gs_opt_result free_res;
	gs_built none;
	int rc;
	if (!mark)
		return -1;
	for (int r = 0; r < pl->nreps; r++) {
		mark[r] = (char)pl->reps[r].no_mig;
		pl->reps[r].no_mig = 0;
	}
	memset(&none, 0, sizeof none);
	rc = programs(pl, shops, c, NULL, &none, seconds, &free_res);
	for (int r = 0; r < pl->nreps; r++)
		pl->reps[r].no_mig = mark[r];
	free(mark);
	gs_built_release(&none);
	res->bound = rc == 0 ? free_res.bound : -1;
	res->proven &= free_res.proven;
	return rc;
}

static int marked(const gs_planner *pl)
{
	for (int r = 0; r < pl->nreps; r++)
		if (pl->reps[r].no_mig)
			return 1;
	return 0;
}

int gs_opt_improve(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                   double seconds, gs_opt_result *res)
{
	int rc;
	memset(res, 0, sizeof *res);
	res->bound = -1;
	if (pl->wide || pl->nreps == 0 || pl->nreps > GS_OPT_MAX_REPLICAS)
		return 0;
	rc = programs(pl, shops, c, NULL, after, seconds, res);
	if (rc == 0 && res->bound >= 0 && marked(pl))
		rc = bound_unmarked(pl, shops, c, seconds, res);
	if (rc == 0 && res->improved)
		rc = remodel(pl, c, after);
	return rc;
}

static int cols_item(gs_cg_cols *out, int w)
{
	gs_cg_col *c = &out->v[out->n];
	for (int i = c->first; i < out->nitems; i++)
		if (out->items[i].w == w) {
			out->items[i].count++;
			return 0;
		}
	if (gs_grow(&out->items, &out->capitems, (size_t)out->nitems + 1, sizeof *out->items) < 0)
		return -1;
	out->items[out->nitems++] = (gs_cg_item){ w, 1 };
	c->n++;
	return 0;
}

static int cols_group(gs_cg_cols *out, const gs_planner *pl, int m, const gs_group *gr)
{
	if (gs_grow(&out->v, &out->cap, (size_t)out->n + 1, sizeof *out->v) < 0)
		return -1;
	out->v[out->n] = (gs_cg_col){ m, gr->tenant, out->nitems, 0, 0 };
	for (int i = 0; i < gr->n; i++)
		if (cols_item(out, pl->reps[gr->reps[i]].wi) < 0)
			return -1;
	out->n++;
	return 0;
}

/* k's columns and the groups of whole GPUs of the plan b: the program
 * then holds the plan it would improve on (but for its node rules), and
 * the relaxation's columns near cost, which follow the relaxation's
 * optimum, need not hold one as good. */
static int with_plan(const gs_planner *pl, const gs_cg_cols *k, const gs_built *b,
                     gs_cg_cols *out)
{
	memset(out, 0, sizeof *out);
	if (gs_grow(&out->v, &out->cap, (size_t)k->n + 1, sizeof *out->v) < 0 ||
	    gs_grow(&out->items, &out->capitems, (size_t)k->nitems + 1, sizeof *out->items) < 0)
		return -1;
	memcpy(out->v, k->v, (size_t)k->n * sizeof *k->v);
	memcpy(out->items, k->items, (size_t)k->nitems * sizeof *k->items);
	out->n = k->n;
	out->nitems = k->nitems;
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++) {
			const gs_pgpu *pg = &b->packs[m].gpus[i];
			if (pg->strategy != GS_STRATEGY_MIG && gs_pgpu_span(pg) == 1 &&
			    pg->ng == 1 && pg->g[0].n > 1 && cols_group(out, pl, m, &pg->g[0]) < 0)
				return -1;
		}
	return 0;
}

int gs_opt_priced(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                  const gs_cg_cols *k, double seconds, gs_opt_result *res)
{
	gs_cg_cols own;
	int rc, no_mig = pl->no_mig;
	memset(res, 0, sizeof *res);
	res->bound = -1;
	if (pl->wide || pl->nreps == 0 || k->n == 0)
		return 0;
	rc = with_plan(pl, k, after, &own);
	/* Without MIG: the relaxation shares MIG instances and fills GPUs
	 * sold eight to a node, which buying rounds up per tenant; on
	 * fleet.py's mixed 1,000 and 2,000 replicas those programs' plans
	 * cost 29 % and 16 % more bought than solved, and never stood. */
	pl->no_mig = 1;
	if (rc == 0)
		rc = programs(pl, shops, c, &own, after, seconds, res);
	pl->no_mig = no_mig;
	gs_cg_cols_release(&own);
	res->bound = -1;
	res->exact = res->proven = 0;
	if (rc == 0 && res->improved)
		rc = remodel(pl, c, after);
	return rc;
}
