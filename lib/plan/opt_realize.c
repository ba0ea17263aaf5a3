/*
 * opt_realize.c - a solution of the optimiser's program as the planner's
 * packings: each column used becomes that many GPUs, filled with the
 * replicas its counts name (a group takes fewer where a workload has run
 * out, which every rule allows). MIG instances are placed by the packer's
 * own rule (gs_mig_place); one it refuses is packed afterwards.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/opt.h"

typedef struct real {
	gs_opt *o;
	const double *x;
	int *next;      /* per workload: its next replica to place */
	gs_built *b;
	struct pend *pend;
	int npend;
	size_t cappend;
} real;

static int copies(const real *r, int col)
{
	double v = r->x[col];
	return v > 0.5 ? (int)floor(v + 0.5) : 0;
}

static int add_whole(real *r, int m, const gs_group *gr)
{
	gs_strategy st = gs_group_share(r->o->pl, r->o->pl->models[m], gr);
	gs_pgpu *pg = gs_pack_add_gpu(&r->b->packs[m], r->o->pl->models[m], st);
	if (!pg || gs_pgpu_add_group(pg, gr) < 0)
		return -1;
	pg->k = gr->n;
	return 0;
}

/* One GPU of a whole-GPU column. */
static int fill_whole(real *r, const gs_opt_col *c)
{
	gs_opt *o = r->o;
	const gs_gpu *g = o->pl->models[c->model];
	gs_group gr;
	int rc = 0;
	memset(&gr, 0, sizeof gr);
	gr.tenant = c->tenant;
	for (int k = 0; k < c->n && rc == 0; k++) {
		const gs_opt_item *it = &o->items[c->first + k];
		for (int j = 0; j < it->count && r->next[it->w] < o->wn[it->w] && rc == 0; j++)
			rc = gs_group_join(o->pl, g, &gr, o->wreps[it->w][r->next[it->w]++]);
	}
	if (rc == 0 && gr.n)
		rc = add_whole(r, c->model, &gr);
	free(gr.reps);
	return rc;
}

/* An instance to seat: a group of one profile of a model, from the
 * solution's slots. */
typedef struct pend {
	int m, p, shared, seated;
	gs_group g;
} pend;

static int pend_new(real *r, const gs_opt_slot *s, int x)
{
	gs_opt *o = r->o;
	const gs_gpu *g = o->pl->models[s->model];
	pend *d;
	if (gs_grow(&r->pend, &r->cappend, (size_t)r->npend + 1, sizeof *r->pend) < 0)
		return -1;
	d = &r->pend[r->npend++];
	memset(d, 0, sizeof *d);
	d->m = s->model;
	d->p = s->prof;
	d->shared = s->shared;
	d->g.tenant = o->pl->reps[x].tenant;
	d->g.prof = &g->mig_profiles[s->prof];
	return gs_group_join(o->pl, g, &d->g, x);
}

/* Does replica x fit the shared instance d with its members? */
static int pend_takes(real *r, pend *d, int x)
{
	const gs_planner *pl = r->o->pl;
	const gs_gpu *g = pl->models[d->m];
	gs_group t = d->g;
	int ok;
	if (pl->reps[x].tenant != d->g.tenant || gs_spread_conflict(pl, d->g.reps, d->g.n, x))
		return 0;
	t.reps = malloc(((size_t)d->g.n + 1) * sizeof *t.reps);
	if (!t.reps)
		return -1;
	memcpy(t.reps, d->g.reps, (size_t)d->g.n * sizeof *t.reps);
	t.cap = d->g.n + 1;
	ok = gs_group_join(pl, g, &t, x) == 0 && !t.no_ts &&
	     gs_mig_holds(pl, g, &t, t.prof, NULL) == GS_RULE_OK;
	free(t.reps);
	return ok;
}

/* Replica x into slot s's instances: a shared one that takes it, else a
 * new one. */
static int pend_put(real *r, const gs_opt_slot *s, int x)
{
	for (int i = 0; s->shared && i < r->npend; i++) {
		pend *d = &r->pend[i];
		int ok;
		if (!d->shared || d->m != s->model || d->p != s->prof)
			continue;
		if ((ok = pend_takes(r, d, x)) < 0)
			return -1;
		if (ok)
			return gs_group_join(r->o->pl, r->o->pl->models[d->m], &d->g, x);
	}
	return pend_new(r, s, x);
}

/* The replicas the solution puts in MIG instances, grouped. */
static int pendings(real *r)
{
	gs_opt *o = r->o;
	for (int i = 0; i < o->nslots; i++) {
		const gs_opt_slot *s = &o->slots[i];
		for (int k = copies(r, s->col); k > 0 && r->next[s->w] < o->wn[s->w]; k--)
			if (pend_put(r, s, o->wreps[s->w][r->next[s->w]++]) < 0)
				return -1;
	}
	return 0;
}

/* An instance of profile p on pg for the next group that it fits. */
static int seat(real *r, gs_pgpu *pg, int m, int p)
{
	for (int i = 0; i < r->npend; i++) {
		pend *d = &r->pend[i];
		int rc;
		if (d->seated || d->m != m || d->p != p)
			continue;
		if ((rc = gs_mig_place(r->o->pl, pg, &d->g)) < 0)
			return -1;
		if (rc == 1) {
			d->seated = 1;
			return 0;
		}
	}
	return 0;
}

static int fill_geometry(real *r, const gs_opt_col *c)
{
	gs_pack *pk = &r->b->packs[c->model];
	gs_pgpu *pg = gs_pack_add_gpu(pk, r->o->pl->models[c->model], GS_STRATEGY_MIG);
	if (!pg)
		return -1;
	for (int k = 0; k < c->n; k++) {
		const gs_opt_item *it = &r->o->items[c->first + k];
		for (int j = 0; j < it->count; j++)
			if (seat(r, &pk->gpus[pk->n - 1], c->model, it->w) < 0)
				return -1;
	}
	if (pk->gpus[pk->n - 1].ng == 0) {
		free(pk->gpus[pk->n - 1].g);
		pk->n--;
	}
	return 0;
}

/* Instances the geometries could not seat, packed as the packer would. */
static int leftovers(real *r, int m)
{
	gs_group **inst = calloc((size_t)r->npend + 1, sizeof *inst);
	int n = 0, rc;
	if (!inst)
		return -1;
	for (int i = 0; i < r->npend; i++)
		if (!r->pend[i].seated && r->pend[i].m == m)
			inst[n++] = &r->pend[i].g;
	rc = n ? gs_pack_mig(r->o->pl, r->o->pl->models[m], inst, n, &r->b->packs[m]) : 0;
	free(inst);
	return rc;
}

static int realize(real *r)
{
	gs_opt *o = r->o;
	/* MIG first: whole-GPU groups take what is left, surplus and all. */
	if (pendings(r) < 0)
		return -1;
	for (int i = 0; i < o->ncols; i++) {
		const gs_opt_col *c = &o->cols[i];
		for (int k = copies(r, c->col); k > 0; k--)
			if ((c->kind == GS_OPT_WHOLE ? fill_whole(r, c) : fill_geometry(r, c)) < 0)
				return -1;
	}
	for (int m = 0; m < o->pl->nmodels; m++)
		if (leftovers(r, m) < 0)
			return -1;
	/* Every replica placed, or the solution is not a plan. */
	for (int w = 0; w < o->nw; w++)
		if (r->next[w] < o->wn[w])
			return -2;
	return 0;
}

int gs_opt_realize(gs_opt *o, const double *x, gs_built *b)
{
	real r = { o, x, NULL, b, NULL, 0, 0 };
	int rc = -1;
	if ((r.next = calloc((size_t)o->nw + 1, sizeof *r.next)))
		rc = realize(&r);
	for (int i = 0; i < r.npend; i++)
		free(r.pend[i].g.reps);
	free(r.pend);
	free(r.next);
	return rc;
}
