/*
 * decide_near.c - why a dedicated replica shares nothing: the packer's
 * joining rule (gs_join_rule) asked about every whole-GPU group of its
 * tenant on its model, after what rules out any companion at all.
 *
 * The groups are indexed by model and tenant once per plan, so that each
 * replica asks only its own tenant's groups; a budget of rule checks keeps
 * plans of 100,000 replicas fast, and a reason says how many it asked when
 * the budget ran out.
 */
#include <limits.h>
#include <stdlib.h>

#include "plan/decision.h"
#include "plan/planner.h"

/* Rule checks per plan: a few milliseconds. */
#define NEAR_BUDGET 1000000L

typedef struct cand {
	int m, tenant, order;
	const gs_pgpu *pg;
	const gs_group *gr;
} cand;

struct gs_near {
	cand *v;
	int n;
	int *n_model;               /* candidates per model */
	const gs_group **apart;     /* per model: the first fault-isolated or MIG group */
	const gs_group **two;       /* per model: first groups of two tenants, 2 each */
	long budget;
};

const gs_workload *gs_ts_ruler(const gs_planner *pl, const gs_group *gr,
                               const gs_workload *w)
{
	const gs_workload *by = NULL;
	for (int i = 0; i < gr->n; i++) {
		const gs_replica *o = &pl->reps[gr->reps[i]];
		if (o->no_ts && (o->w == w || !by))
			by = o->w;
	}
	return by;
}

/* Fault-isolated replicas, and replicas of several GPUs, share nothing. */
static int has_fault(const gs_planner *pl, const gs_group *gr)
{
	for (int i = 0; i < gr->n; i++)
		if (pl->reps[gr->reps[i]].w->isolation_fault ||
		    pl->reps[gr->reps[i]].w->gpus_per_replica > 1)
			return 1;
	return 0;
}

static int by_model_tenant(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if (x->m != y->m)
		return x->m - y->m;
	if (x->tenant != y->tenant)
		return x->tenant - y->tenant;
	return x->order - y->order;
}

void gs_near_free(gs_near *n)
{
	if (!n)
		return;
	free(n->v);
	free(n->n_model);
	free(n->apart);
	free(n->two);
	free(n);
}

/* Notes group gr of model m: apart, or a candidate. */
static void note(gs_near *n, const gs_planner *pl, int m, const gs_pgpu *pg,
                 const gs_group *gr)
{
	const gs_group **two = &n->two[2 * m];
	if (pg->strategy == GS_STRATEGY_MIG || has_fault(pl, gr)) {
		if (!n->apart[m])
			n->apart[m] = gr;
		return;
	}
	if (!two[0])
		two[0] = gr;
	else if (!two[1] && two[0]->tenant != gr->tenant)
		two[1] = gr;
	n->n_model[m]++;
	n->v[n->n].m = m;
	n->v[n->n].tenant = gr->tenant;
	n->v[n->n].order = n->n;
	n->v[n->n].pg = pg;
	n->v[n->n].gr = gr;
	n->n++;
}

int gs_near_build(const gs_planner *pl, const gs_built *b, gs_near **out)
{
	size_t nm = (size_t)(pl->nmodels ? pl->nmodels : 1), total = 0;
	gs_near *n = calloc(1, sizeof *n);
	for (int m = 0; b->packs && m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++)
			total += (size_t)b->packs[m].gpus[i].ng;
	if (!n || !(n->v = malloc((total ? total : 1) * sizeof *n->v)) ||
	    !(n->n_model = calloc(nm, sizeof *n->n_model)) ||
	    !(n->apart = calloc(nm, sizeof *n->apart)) ||
	    !(n->two = calloc(2 * nm, sizeof *n->two))) {
		gs_near_free(n);
		return -1;
	}
	for (int m = 0; b->packs && m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++)
			for (int k = 0; k < b->packs[m].gpus[i].ng; k++)
				note(n, pl, m, &b->packs[m].gpus[i], &b->packs[m].gpus[i].g[k]);
	qsort(n->v, (size_t)n->n, sizeof *n->v, by_model_tenant);
	n->budget = pl->near_budget ? pl->near_budget : NEAR_BUDGET;
	*out = n;
	return 0;
}

/* What rules out any companion for r: its own compute over the target,
 * or, where time-slicing is out, MPS with a single other client split
 * equally. */
static gs_rule intrinsic(const gs_planner *pl, const gs_gpu *g, int r, gs_rule_figs *f)
{
	gs_group none = { 0 };
	gs_rule v;
	none.tenant = pl->reps[r].tenant;
	if ((v = gs_join_rule(pl, g, &none, r, f)) != GS_RULE_OK)
		return v;
	/* With MPS's per-client limits a fraction is not split equally. */
	if (!pl->reps[r].no_ts || gs_frac_backend(pl, 1) != GS_BACKEND_NONE)
		return GS_RULE_OK;
	return gs_mps_rule(pl, g, &none, r, 2, f);
}

static void verdict_with(const gs_planner *pl, gs_verdict *v, const gs_group *gr)
{
	int mps = v->rule == GS_RULE_MPS_MEMORY || v->rule == GS_RULE_MPS_THREADS;
	v->with = pl->reps[gr->reps[0]].w;
	v->with_replica = pl->reps[gr->reps[0]].replica;
	v->with_n = gr->n;
	v->fails = mps && v->figs.rep >= 0 ? pl->reps[v->figs.rep].w : NULL;
}

/* How full gr would be with replica r: its larger share of memory or of
 * the target, to name the companion nearest to fitting. */
static int64_t fullness(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r)
{
	int64_t mem = (gr->mem + pl->reps[r].w->memory_bytes) * 1000 / gs_gpu_bytes(g);
	int64_t cmp = (gr->comp + gs_rep_comp(pl, r, g)) * 1000 / pl->target;
	return mem > cmp ? mem : cmp;
}

/* The first candidate at or after model m and tenant t. */
static int first_of(const gs_near *n, int m, int t)
{
	int a = 0, b = n->n;
	while (a < b) {
		int mid = (a + b) / 2;
		if (n->v[mid].m < m || (n->v[mid].m == m && n->v[mid].tenant < t))
			a = mid + 1;
		else
			b = mid;
	}
	return a;
}

/* The candidates of model m and tenant t: v[*lo..*hi), both searched,
 * as the range may be most of the plan's GPUs. */
static void range_of(const gs_near *n, int m, int t, int *lo, int *hi)
{
	*lo = first_of(n, m, t);
	*hi = t == INT_MAX ? first_of(n, m + 1, INT_MIN) : first_of(n, m, t + 1);
}

/* The answers of the tenant's groups: the first allowed, the first kept
 * apart by spread, and the failing one nearest to fitting. */
typedef struct answers {
	const gs_group *allowed, *spread, *near;
	gs_verdict vn;
	int64_t near_full;
} answers;

/* How many of own's groups note() made candidates of tenant t. */
static int own_candidates(const gs_planner *pl, const gs_pgpu *own, int t)
{
	int k = 0;
	if (own->strategy == GS_STRATEGY_MIG)
		return 0;
	for (int i = 0; i < own->ng; i++)
		k += own->g[i].tenant == t && !has_fault(pl, &own->g[i]);
	return k;
}

/* Once the budget is spent the rest of the range is counted, not
 * walked: a tenant of 100,000 GPUs on one model with as many dedicated
 * replicas made the walk quadratic (fleet.py's time-slicing 10^6
 * replicas spent 20 s of 24 here). */
static void ask(gs_near *n, const gs_planner *pl, int m, const gs_pgpu *own, int r0,
                gs_decision *d, answers *an)
{
	const gs_gpu *g = pl->models[m];
	int lo, hi, t = pl->reps[r0].tenant;
	range_of(n, m, t, &lo, &hi);
	d->could_ask += hi - lo - own_candidates(pl, own, t);
	for (int i = lo; i < hi && n->budget > 0; i++) {
		const gs_group *gr = n->v[i].gr;
		gs_rule_figs f = { 0, 0, 0, -1, NULL };
		gs_rule v;
		if (n->v[i].pg == own)
			continue;
		n->budget--;
		d->asked++;
		v = gs_join_rule(pl, g, gr, r0, &f);
		if (v == GS_RULE_OK) {
			if (!an->allowed)
				an->allowed = gr;
		} else if (v == GS_RULE_SPREAD) {
			if (!an->spread)
				an->spread = gr;
		} else if (!an->near || fullness(pl, g, gr, r0) < an->near_full) {
			an->near = gr;
			an->near_full = fullness(pl, g, gr, r0);
			an->vn.rule = v;
			an->vn.figs = f;
		}
	}
}

void gs_near_explain(gs_near *n, const gs_planner *pl, int m, const gs_pgpu *own, int r0,
                     gs_decision *d)
{
	const gs_group *const *two = &n->two[2 * m];
	answers an = { NULL, NULL, NULL, { GS_RULE_OK, { 0, 0, 0, -1, NULL }, NULL, 0, 0, NULL },
		           0 };
	int others = n->n_model[m] - 1; /* its own GPU is a candidate too */

	d->why = GS_WHY_RULE;
	/* Nothing else at all on the model is the first fact; else what
	 * rules out any companion; else the companions. */
	if (others == 0 && !n->apart[m]) {
		d->why = GS_WHY_ALONE;
		return;
	}
	if ((d->bind.rule = intrinsic(pl, pl->models[m], r0, &d->bind.figs)) != GS_RULE_OK) {
		d->bind.with = NULL;
		return;
	}
	if (others == 0) {
		d->why = GS_WHY_ALONE;
		verdict_with(pl, &d->bind, n->apart[m]);
		return;
	}
	ask(n, pl, m, own, r0, d, &an);
	if (an.allowed) {
		d->why = GS_WHY_ALLOWED;
		verdict_with(pl, &d->bind, an.allowed);
	} else if (an.near) {
		d->bind = an.vn;
		verdict_with(pl, &d->bind, an.near);
		d->ts_by = pl->reps[r0].no_ts ? d->w : gs_ts_ruler(pl, an.near, d->w);
	} else if (an.spread) {
		d->bind.rule = GS_RULE_SPREAD;
		verdict_with(pl, &d->bind, an.spread);
	} else if (d->asked < d->could_ask) {
		d->why = GS_WHY_UNASKED;
	} else {
		/* Only other tenants: one of the model's first two tenants is. */
		d->bind.rule = GS_RULE_TENANT;
		verdict_with(pl, &d->bind, two[0]->tenant != pl->reps[r0].tenant ? two[0] : two[1]);
	}
}
