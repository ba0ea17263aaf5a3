/*
 * opt_model.c - the optimiser's program: rows over opt_cols.c's columns,
 * and the solve (milp.h). Prices enter as micro-dollars, so the optimum
 * is integral and the solver's bound may be rounded up.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/opt.h"

/* A row being built. */
typedef struct row {
	int *cols;
	double *vals;
	int n, cap;
} row;

static int row_put(row *r, int col, double val)
{
	if (r->n == r->cap) {
		int ncap = r->cap ? r->cap * 2 : 32;
		int *c = realloc(r->cols, (size_t)ncap * sizeof *c);
		double *v;
		if (!c)
			return -1;
		r->cols = c;
		if (!(v = realloc(r->vals, (size_t)ncap * sizeof *v)))
			return -1;
		r->vals = v;
		r->cap = ncap;
	}
	r->cols[r->n] = col;
	r->vals[r->n++] = val;
	return 0;
}

static int row_done(gs_milp *m, row *r, double lo)
{
	int rc = r->n ? gs_milp_row(m, r->cols, r->vals, r->n, lo, 1e30) : 0;
	r->n = 0;
	return rc;
}

static int columns(gs_opt *o, gs_milp *m)
{
	double ub = (double)o->pl->nreps;
	for (int i = 0; i < o->ncols; i++)
		if ((o->cols[i].col = gs_milp_col(m, 0, ub, 1)) < 0)
			return -1;
	for (int i = 0; i < o->nslots; i++)
		if ((o->slots[i].col = gs_milp_col(m, 0, o->wn[o->slots[i].w], 1)) < 0)
			return -1;
	return 0;
}

/* Each workload's replicas covered by groups and instances. */
static int demand_rows(gs_opt *o, gs_milp *m, row *r)
{
	for (int w = 0; w < o->nw; w++) {
		if (o->wn[w] == 0)
			continue;
		for (int i = 0; i < o->ncols; i++) {
			const gs_opt_col *c = &o->cols[i];
			if (c->kind != GS_OPT_WHOLE)
				continue;
			for (int k = 0; k < c->n; k++)
				if (o->items[c->first + k].w == w &&
				    row_put(r, c->col, o->items[c->first + k].count) < 0)
					return -1;
		}
		for (int i = 0; i < o->nslots; i++)
			if (o->slots[i].w == w && row_put(r, o->slots[i].col, 1) < 0)
				return -1;
		if (row_done(m, r, o->wn[w]) < 0)
			return -1;
	}
	return 0;
}

/* The instances of profile p of model md in the geometries bought, less
 * what the slots take of them: by memory (mem) or by compute. */
static int profile_row(gs_opt *o, gs_milp *m, row *r, int md, int p, int by_comp)
{
	for (int i = 0; i < o->nslots; i++) {
		const gs_opt_slot *s = &o->slots[i];
		double part = !s->shared ? 1 : (double)(by_comp ? s->comp : s->mem) / GS_PPM;
		if (s->model == md && s->prof == p && row_put(r, s->col, -part) < 0)
			return -1;
	}
	for (int i = 0; i < o->ncols; i++) {
		const gs_opt_col *c = &o->cols[i];
		if (c->kind != GS_OPT_GEOMETRY || c->model != md)
			continue;
		for (int k = 0; k < c->n; k++)
			if (o->items[c->first + k].w == p &&
			    row_put(r, c->col, o->items[c->first + k].count) < 0)
				return -1;
	}
	return row_done(m, r, 0);
}

/* Per model and profile: instances in the geometries bought hold the
 * replicas put in that profile, one alone or several sharing each (a
 * shared instance's members add up to at most all of its memory and of
 * its compute at the target). */
static int profile_rows(gs_opt *o, gs_milp *m, row *r)
{
	for (int md = 0; md < o->pl->nmodels; md++) {
		const gs_gpu *g = o->pl->models[md];
		for (size_t p = 0; g->mig_slots && p < g->n_mig_profiles; p++) {
			int any = 0, shared = 0;
			for (int i = 0; i < o->nslots; i++)
				if (o->slots[i].model == md && o->slots[i].prof == (int)p) {
					any = 1;
					shared |= o->slots[i].shared;
				}
			if (any && profile_row(o, m, r, md, (int)p, 0) < 0)
				return -1;
			if (shared && profile_row(o, m, r, md, (int)p, 1) < 0)
				return -1;
		}
	}
	return 0;
}

/* Per model: the instances bought have a GPU for every column used. */
static int cover_rows(gs_opt *o, gs_shop *shops, gs_milp *m, row *r)
{
	for (int md = 0; md < o->pl->nmodels; md++) {
		const gs_shop *sh = &shops[md];
		int used = 0;
		for (int i = 0; i < o->ncols; i++)
			if (o->cols[i].model == md) {
				used = 1;
				if (row_put(r, o->cols[i].col, -1) < 0)
					return -1;
			}
		for (int i = 0; used && i < sh->n; i++) {
			int k = sh->insts[i]->gpu_count;
			int c = gs_milp_col(m, (double)sh->price[i],
			                    ceil((double)o->pl->nreps / k) + 1, 1);
			o->inst_col[md][i] = c;
			if (c < 0 || row_put(r, c, k) < 0)
				return -1;
		}
		if (row_done(m, r, 0) < 0)
			return -1;
	}
	return 0;
}

int gs_opt_solve(gs_opt *o, gs_shop *shops, gs_milp *m, double seconds, gs_milp_result *res)
{
	row r;
	int rc;
	memset(&r, 0, sizeof r);
	rc = columns(o, m);
	if (rc == 0)
		rc = demand_rows(o, m, &r);
	if (rc == 0)
		rc = profile_rows(o, m, &r);
	if (rc == 0)
		rc = cover_rows(o, shops, m, &r);
	free(r.cols);
	free(r.vals);
	if (rc == 0)
		rc = gs_milp_solve(m, GS_OPT_NODES, seconds, res);
	return rc;
}
