/*
 * decide.c - each workload's decision record: where its first replica
 * landed, and why, in the words of the rule that put it there.
 *
 * The facts are asked of the packer's own rules (gs_join_rule, gs_mps_rule,
 * gs_mig_rule: the functions the packer decides with) about the plan as
 * built, and of its own scores (decide_cost.c): a reason can name only
 * what a rule answered. advice.c renders the records as text.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/offer.h"
#include "plan/decision.h"
#include "plan/nodes.h"
#include "plan/plan_internal.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

/* Where one replica landed in the built nodes. */
typedef struct place {
	int node, gpu, group;
	const gs_pgpu *pg;
} place;

typedef struct ctx {
	gs_plan *p;
	gs_planner *pl;
	gs_choice *c;
	const gs_built *b;
	int shared;
	place *at;            /* per replica */
	int *first;           /* per workload: its first replica */
	gs_mig_probe *probe;  /* per model, once asked */
	char *probed;
	int *alt;             /* per workload: the cheapest other model, or -1 */
	gs_micros *alt_delta;
	int n_tenants;        /* distinct tenants in the scenario */
	gs_near *near;        /* the groups dedicated replicas could join */
} ctx;

static int model_index(const gs_planner *pl, const gs_gpu *g)
{
	for (int m = 0; m < pl->nmodels; m++)
		if (pl->models[m] == g)
			return m;
	return -1;
}

static void locate(ctx *x)
{
	const gs_nodeset *ns = &x->b->ns;
	for (int i = 0; i < ns->n; i++)
		for (int j = 0; j < ns->v[i].n; j++) {
			const gs_pgpu *pg = ns->v[i].gpus[j];
			/* A replica of several GPUs is where its first one is. */
			if (j > 0 && ns->v[i].gpus[j - 1] == pg)
				continue;
			for (int k = 0; k < pg->ng; k++)
				for (int r = 0; r < pg->g[k].n; r++) {
					place *pl = &x->at[pg->g[k].reps[r]];
					pl->node = i;
					pl->gpu = j;
					pl->group = k;
					pl->pg = pg;
				}
		}
}

static int before(const place *a, const place *b)
{
	if (a->node != b->node)
		return a->node < b->node;
	if (a->gpu != b->gpu)
		return a->gpu < b->gpu;
	return a->pg->g[a->group].start < b->pg->g[b->group].start;
}

/* How many of w's replicas are on another model than `model`, and the
 * commonest of those models (ties: the planner's first). */
static void elsewhere(const ctx *x, size_t wi, const gs_gpu *model, gs_decision *d)
{
	const gs_planner *pl = x->pl;
	int end = x->first[wi] + pl->reps[x->first[wi]].w->replicas;
	int counts[GS_MAX_MODELS] = { 0 }, most = 0;
	d->n_elsewhere = 0;
	d->elsewhere = NULL;
	for (int r = x->first[wi]; r < end; r++)
		for (int m = 0; m < pl->nmodels; m++)
			if (pl->models[m] == x->at[r].pg->model && pl->models[m] != model) {
				counts[m]++;
				d->n_elsewhere++;
				break;
			}
	for (int m = 0; m < pl->nmodels; m++)
		if (counts[m] > most) {
			most = counts[m];
			d->elsewhere = pl->models[m];
		}
}

/* The strategy most of w's replicas have (ties: the first in gs_strategy
 * order), and its first replica in the plan's order. */
static int pick(const ctx *x, size_t wi, gs_decision *d)
{
	const gs_workload *w = x->pl->reps[x->first[wi]].w;
	int counts[GS_STRATEGY_COUNT] = { 0 }, best = 0, r0 = -1;
	for (int r = x->first[wi]; r < x->first[wi] + w->replicas; r++)
		counts[x->at[r].pg->strategy]++;
	for (int s = 1; s < GS_STRATEGY_COUNT; s++)
		if (counts[s] > counts[best])
			best = s;
	for (int r = x->first[wi]; r < x->first[wi] + w->replicas; r++)
		if ((int)x->at[r].pg->strategy == best && (r0 < 0 || before(&x->at[r], &x->at[r0])))
			r0 = r;
	d->w = w;
	d->strategy = (gs_strategy)best;
	d->n_other = w->replicas - counts[best];
	counts[best] = 0;
	for (int s = 0; s < GS_STRATEGY_COUNT; s++)
		if (counts[s] > counts[d->other])
			d->other = (gs_strategy)s;
	d->replica = x->pl->reps[r0].replica;
	elsewhere(x, wi, x->at[r0].pg->model, d);
	return r0;
}

/* MIG: the next smaller candidate profile than the chosen one, and what
 * it lacked for the group. */
static void smaller_profile(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                            gs_decision *d)
{
	const gs_mig_profile *ch = gr->prof, *best = NULL;
	for (size_t i = 0; i < g->n_mig_profiles; i++) {
		const gs_mig_profile *p = &g->mig_profiles[i];
		int below = p->memory_slices != ch->memory_slices
		                    ? p->memory_slices < ch->memory_slices
		                    : p->compute_slices < ch->compute_slices;
		if (!gs_mig_candidate(g, p) || !below)
			continue;
		if (!best || p->memory_slices > best->memory_slices ||
		    (p->memory_slices == best->memory_slices &&
		     p->compute_slices > best->compute_slices))
			best = p;
	}
	d->smaller.rule = GS_RULE_OK;
	d->smaller.figs.prof = NULL;
	if (best)
		d->smaller.rule = gs_mig_holds(pl, g, gr, best, &d->smaller.figs);
}

/* Another tenant, and another workload, on the same GPU. */
static void neighbours(const ctx *x, int r0, gs_decision *d)
{
	const gs_pgpu *pg = x->at[r0].pg;
	for (int k = 0; k < pg->ng; k++)
		for (int i = 0; i < pg->g[k].n; i++) {
			const gs_replica *o = &x->pl->reps[pg->g[k].reps[i]];
			if (o->w == d->w)
				continue;
			if (!d->beside)
				d->beside = o->w;
			if (o->tenant != x->pl->reps[r0].tenant && !d->other_tenant)
				d->other_tenant = o->w->tenant;
		}
}

/* Why not MIG, for a replica on a whole GPU: the rule for its group,
 * unless the packer also priced the group split into one instance per
 * replica. OK means a MIG instance holds it and the packer priced that
 * (d->probe). */
static void why_not_mig(const ctx *x, int r0, gs_decision *d)
{
	const gs_pgpu *pg = x->at[r0].pg;
	const gs_group *gr = &pg->g[x->at[r0].group];
	const gs_mig_profile *prof;
	gs_rule v = gs_mig_rule(x->pl, pg->model, gr, &prof, &d->mig.figs);
	if (v != GS_RULE_OK && v != GS_RULE_MIG_OFF && v != GS_RULE_NO_MIG &&
	    gs_group_splits(x->pl, pg->model, gr))
		v = GS_RULE_OK;
	d->mig.rule = v;
}

static void node_facts(const ctx *x, int r0, gs_decision *d)
{
	const gs_bnode *bn = &x->b->ns.v[x->at[r0].node];
	const gs_shop *sh = &x->pl->shops[model_index(x->pl, d->model)];
	int span = d->w->gpus_per_replica;
	d->node_gpus = bn->inst->gpu_count;
	d->node_idle = bn->inst->gpu_count - bn->n;
	d->min_gpus = 0;
	/* The smallest instance that could hold one replica. */
	for (int i = 0; i < sh->n; i++)
		if (sh->insts[i]->gpu_count >= span &&
		    (!d->min_gpus || sh->insts[i]->gpu_count < d->min_gpus))
			d->min_gpus = sh->insts[i]->gpu_count;
}

/* What the group's GPU or MIG instance offers it, by the packer's own
 * rule (usable memory, less the headroom where replicas time-slice). */
static int64_t group_offer(const gs_pgpu *pg, const gs_group *gr)
{
	gs_strategy st = gr->n < 2 ? GS_STRATEGY_DEDICATED
	               : pg->strategy == GS_STRATEGY_MIG ? GS_STRATEGY_TIME_SLICING : pg->strategy;
	return gs_memory_offer(pg->model, pg->strategy == GS_STRATEGY_MIG ? gr->prof : NULL, st,
	                       gr->headroom);
}

static int group_facts(ctx *x, int r0, gs_decision *d)
{
	const place *at = &x->at[r0];
	const gs_group *gr = &at->pg->g[at->group];
	int m = model_index(x->pl, at->pg->model);
	d->model = at->pg->model;
	d->node = at->node;
	d->gpu = at->gpu;
	d->profile = at->pg->strategy == GS_STRATEGY_MIG ? gr->prof : NULL;
	d->group_n = gr->n;
	d->group_mem = gr->mem;
	d->group_comp = gr->comp;
	d->gpu_mem = group_offer(at->pg, gr);
	d->target = x->pl->target;
	d->clients = at->pg->k;
	d->ts = gs_strategy_ts_check(d->w);
	if (d->model->mig_slots && !x->probed[m]) {
		if (gs_decide_probe(x->pl, x->c, m, &x->probe[m]) < 0)
			return -1;
		x->probed[m] = 1;
	}
	if (d->model->mig_slots)
		d->probe = x->probe[m];
	node_facts(x, r0, d);
	return 0;
}

/* Fractions against the equal shares of time-slicing and MPS: what those
 * would offer a fraction's group, or what refused a shared group one. */
static void frac_facts(const ctx *x, const gs_group *gr, gs_decision *d)
{
	const gs_gpu *g = d->model;
	d->frac = gs_frac_backend(x->pl, gr->no_ts);
	if (d->frac == GS_BACKEND_NONE || gr->n < 2 || d->strategy == GS_STRATEGY_MIG)
		return;
	if (d->strategy != GS_STRATEGY_FRACTION) {
		d->frac_v.rule = gs_frac_group_rule(x->pl, g, gr, d->frac, &d->frac_v.figs);
		return;
	}
	d->ts_offer = gs_memory_offer(g, NULL, GS_STRATEGY_TIME_SLICING, gr->headroom);
	d->group_headroom = gr->headroom;
	d->mps_each = (((g->memory_mib << 20) / gr->n) >> 20) << 20;
	for (int i = 0; i < gr->n; i++)
		if (x->pl->reps[gr->reps[i]].w->memory_bytes > d->group_max_mem)
			d->group_max_mem = x->pl->reps[gr->reps[i]].w->memory_bytes;
}

static void strategy_facts(const ctx *x, int r0, gs_decision *d)
{
	const gs_group *gr = &x->at[r0].pg->g[x->at[r0].group];
	gs_group none = { 0 };
	if (d->strategy != GS_STRATEGY_MIG)
		why_not_mig(x, r0, d);
	frac_facts(x, gr, d);
	if (x->pl->reps[r0].no_ts && d->strategy != GS_STRATEGY_MPS) {
		none.tenant = x->pl->reps[r0].tenant;
		d->mps.rule = gs_mps_rule(x->pl, d->model, &none, r0, 2, &d->mps.figs);
	}
	if (d->w->gpus_per_replica > 1) {
		d->why = GS_WHY_WIDE;
		return;
	}
	if (!x->shared) {
		d->why = GS_WHY_UNSHARED;
		return;
	}
	switch (d->strategy) {
	case GS_STRATEGY_DEDICATED:
		if (d->w->isolation_fault)
			d->why = GS_WHY_FAULT;
		else
			gs_near_explain(x->near, x->pl, model_index(x->pl, d->model),
			                x->at[r0].pg, r0, d);
		break;
	case GS_STRATEGY_TIME_SLICING:
		d->why = gr->n > 1 ? GS_WHY_SHARED : GS_WHY_SPARE;
		break;
	case GS_STRATEGY_MPS:
		d->why = GS_WHY_SHARED;
		d->ts_by = gs_ts_ruler(x->pl, gr, d->w);
		break;
	case GS_STRATEGY_FRACTION:
		d->why = GS_WHY_SHARED;
		break;
	default:
		d->why = d->w->isolation_fault ? GS_WHY_FAULT : GS_WHY_MIG;
		neighbours(x, r0, d);
		smaller_profile(x->pl, d->model, gr, d);
	}
}

static int tenant_count(const ctx *x)
{
	int n = 0;
	for (size_t i = 0; i < x->pl->s->n; i++)
		n += x->pl->reps[x->first[i]].tenant == (int)i;
	return n;
}

static int describe(ctx *x, size_t wi, const gs_micros *ded, gs_decision *d)
{
	int r0 = pick(x, wi, d);
	if (group_facts(x, r0, d) < 0)
		return -1;
	strategy_facts(x, r0, d);
	d->n_tenants = x->n_tenants;
	d->left_out = x->pl->left_out;
	d->left_out_cost = x->pl->left_out_cost;
	d->ded_cost = ded[wi];
	for (int r = x->first[wi]; r < x->first[wi] + d->w->replicas; r++)
		d->cost += x->p->rep_cost[r];
	if (x->alt && x->alt[wi] >= 0) {
		d->alt_model = x->pl->models[x->alt[wi]];
		d->alt_delta = x->alt_delta[wi];
	}
	return 0;
}

static void ctx_free(ctx *x)
{
	free(x->at);
	free(x->first);
	free(x->probe);
	free(x->probed);
	free(x->alt);
	free(x->alt_delta);
	gs_near_free(x->near);
}

/* The planner's flags as they were for the plan that was built. */
static void flags(gs_planner *pl, int shared, int on)
{
	pl->no_mps = on && shared && pl->left_out == GS_STRATEGY_MPS;
	pl->no_mig = on && shared && pl->left_out == GS_STRATEGY_MIG;
}

static int decide_all(ctx *x, const gs_micros *ded, gs_decision *ds)
{
	size_t nw = x->pl->s->n;
	for (size_t i = 0, r = 0; i < nw; i++) {
		x->first[i] = (int)r;
		r += (size_t)x->pl->s->w[i]->pub.replicas;
	}
	locate(x);
	x->n_tenants = tenant_count(x);
	if (gs_near_build(x->pl, x->b, &x->near) < 0)
		return -1;
	if (x->shared && gs_decide_alt_models(x->pl, x->c, x->alt, x->alt_delta) < 0)
		return -1;
	for (size_t i = 0; i < nw; i++)
		if (describe(x, i, ded, &ds[i]) < 0)
			return -1;
	return 0;
}

int gs_plan_decide(gs_plan *p, gs_planner *pl, gs_choice *c, const gs_built *b, int shared,
                   gs_micros shared_cost, gs_micros dedicated_cost, const gs_micros *ded)
{
	size_t nw = pl->s->n, nm = (size_t)(pl->nmodels ? pl->nmodels : 1);
	gs_decision *ds = gs_plan_alloc(p, nw, sizeof *ds);
	ctx x = { p, pl, c, b, shared, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL };
	int rc = -1;

	if (!shared)
		pl->left_out = GS_STRATEGY_DEDICATED;
	x.at = calloc((size_t)(pl->nreps ? pl->nreps : 1), sizeof *x.at);
	x.first = calloc(nw ? nw : 1, sizeof *x.first);
	x.probe = calloc(nm, sizeof *x.probe);
	x.probed = calloc(nm, 1);
	x.alt = malloc((nw ? nw : 1) * sizeof *x.alt);
	x.alt_delta = calloc(nw ? nw : 1, sizeof *x.alt_delta);
	for (size_t i = 0; x.alt && i < nw; i++)
		x.alt[i] = -1;
	if (ds && x.at && x.first && x.probe && x.probed && x.alt && x.alt_delta) {
		flags(pl, shared, 1);
		rc = decide_all(&x, ded, ds);
		flags(pl, shared, 0);
	}
	for (size_t i = 0; rc == 0 && i < nw; i++) {
		ds[i].shared_cost = shared_cost;
		ds[i].dedicated_cost = dedicated_cost;
	}
	if (rc == 0) {
		p->decisions = ds;
		p->n_decisions = nw;
	}
	ctx_free(&x);
	return rc;
}

const gs_decision *gs_plan_decision_at(const gs_plan *p, size_t i)
{
	return i < p->n_decisions ? &p->decisions[i] : NULL;
}
