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
	int *want;      /* per slot: replicas still to put in its profile */
	gs_built *b;
} real;

static int copies(const real *r, int col)
{
	double v = r->x[col];
	return v > 0.5 ? (int)floor(v + 0.5) : 0;
}

static int add_whole(real *r, int m, const gs_group *gr)
{
	gs_strategy st = gr->n == 1 ? GS_STRATEGY_DEDICATED
	                 : gr->no_ts ? GS_STRATEGY_MPS : GS_STRATEGY_TIME_SLICING;
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

/* Replica x alone in an instance of profile p of g. */
static void one_of(const gs_planner *pl, const gs_gpu *g, int *x, const gs_mig_profile *p,
                   gs_group *gr)
{
	const gs_replica *rep = &pl->reps[*x];
	memset(gr, 0, sizeof *gr);
	gr->tenant = rep->tenant;
	gr->n = gr->cap = 1;
	gr->reps = x;
	gr->mem = rep->w->memory_bytes;
	gr->comp = gs_rep_comp(pl, *x, g);
	gr->no_ts = rep->no_ts;
	gr->headroom = rep->headroom;
	gr->prof = p;
}

/* An instance of profile p on pg for some replica the solution put in p. */
static int seat(real *r, gs_pgpu *pg, int m, int p)
{
	gs_opt *o = r->o;
	const gs_gpu *g = o->pl->models[m];
	for (int i = 0; i < o->nslots; i++) {
		const gs_opt_slot *s = &o->slots[i];
		gs_group gr;
		int x, rc;
		if (s->model != m || s->prof != p || r->want[i] == 0 ||
		    r->next[s->w] >= o->wn[s->w])
			continue;
		x = o->wreps[s->w][r->next[s->w]];
		one_of(o->pl, g, &x, &g->mig_profiles[p], &gr);
		if ((rc = gs_mig_place(o->pl, pg, &gr)) < 0)
			return -1;
		if (rc == 1) {
			r->want[i]--;
			r->next[s->w]++;
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

/* Replicas the geometries could not seat, packed as the packer would. */
static int leftovers(real *r, int m)
{
	gs_opt *o = r->o;
	const gs_gpu *g = o->pl->models[m];
	int n = 0, rc;
	gs_group *v = calloc((size_t)o->pl->nreps + 1, sizeof *v);
	gs_group **inst = calloc((size_t)o->pl->nreps + 1, sizeof *inst);
	int *xs = malloc(((size_t)o->pl->nreps + 1) * sizeof *xs);
	rc = v && inst && xs ? 0 : -1;
	for (int i = 0; i < o->nslots && rc == 0; i++) {
		const gs_opt_slot *s = &o->slots[i];
		for (; s->model == m && r->want[i] > 0 && r->next[s->w] < o->wn[s->w];
		     r->want[i]--) {
			xs[n] = o->wreps[s->w][r->next[s->w]++];
			one_of(o->pl, g, &xs[n], &g->mig_profiles[s->prof], &v[n]);
			inst[n] = &v[n];
			n++;
		}
	}
	if (rc == 0 && n)
		rc = gs_pack_mig(o->pl, g, inst, n, &r->b->packs[m]);
	free(v);
	free(inst);
	free(xs);
	return rc;
}

static int realize(real *r)
{
	gs_opt *o = r->o;
	for (int i = 0; i < o->nslots; i++)
		r->want[i] = copies(r, o->slots[i].col);
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
	real r = { o, x, NULL, NULL, b };
	int rc = -1;
	r.next = calloc((size_t)o->nw + 1, sizeof *r.next);
	r.want = calloc((size_t)o->nslots + 1, sizeof *r.want);
	if (r.next && r.want)
		rc = realize(&r);
	free(r.next);
	free(r.want);
	return rc;
}
