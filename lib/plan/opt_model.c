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

/* A column's price over the relaxation's columns, where no rows buy
 * nodes: a GPU's cheapest price per GPU, but a whole GPU shared by one
 * tenant takes a node of that tenant (plan_keys.c), so it costs the
 * cheapest node that sells one: on models sold 8 to a node, shared GPUs
 * priced per GPU made a plan of mixed 1,000 replicas $851/h on buying,
 * against the program's $613/h. */
static double col_price(const gs_opt *o, const gs_opt_col *c)
{
	const gs_shop *sh = &o->pl->shops[c->model];
	double least = -1;
	int reps = 0;
	for (int i = 0; c->kind == GS_OPT_WHOLE && i < c->n; i++)
		reps += o->items[c->first + i].count;
	if (reps < 2 || o->pl->via_dra)
		return (double)o->pl->gpu_price[c->model];
	for (int i = 0; i < sh->n; i++)
		if (least < 0 || (double)sh->price[i] < least)
			least = (double)sh->price[i];
	/* A candidate model is sold somewhere; else the GPU's own price. */
	return least < 0 ? (double)o->pl->gpu_price[c->model] : least;
}

/* Whether the GPUs of the relaxation's columns are counted per model and
 * price (count_rows). */
static int counted(const gs_opt *o)
{
	return o->priced && o->pl->nreps <= GS_OPT_MAX_REPLICAS;
}

static int columns(gs_opt *o, gs_milp *m)
{
	double ub = (double)o->pl->nreps;
	/* A GPU's price is its nodes' (cover_rows), or, over the relaxation's
	 * columns, its model's cheapest per GPU, in whole nodes where no node
	 * of one GPU sells at it (count_rows); past GS_OPT_MAX_REPLICAS,
	 * each column's (col_price), and buying rounds up after. */
	for (int i = 0; i < o->ncols; i++) {
		double cost = o->priced && !counted(o) ? col_price(o, &o->cols[i]) : 0;
		if ((o->cols[i].col = gs_milp_col(m, cost, ub, 1)) < 0)
			return -1;
	}
	/* At equal cost, the smaller instance: a hair per compute slice, far
	 * below a micro-dollar over the whole program (opt.c rounds the bound
	 * with room for it). */
	for (int i = 0; i < o->nslots; i++) {
		const gs_opt_slot *s = &o->slots[i];
		double eps = 1e-7 * o->pl->models[s->model]->mig_profiles[s->prof].compute_slices;
		if ((o->slots[i].col = gs_milp_col(m, eps, o->wn[s->w], 1)) < 0)
			return -1;
	}
	return 0;
}

/* Whether a node of one GPU sells the model at its price per GPU: then
 * n GPUs cost n times that price, as counting them says. */
static int sold_singly(const gs_shop *sh, gs_micros per_gpu)
{
	for (int i = 0; i < sh->n; i++)
		if (sh->insts[i]->gpu_count == 1 && sh->price[i] == per_gpu)
			return 1;
	return sh->n == 0;
}

/* The counts of one model's GPUs at one price (count_rows) into r: at a
 * shared GPU's node price, one GPU per node, and at the price per GPU
 * too where a node of one GPU sells at it; else the instances that sell
 * the model, the cheapest of each GPU count, so that a model sold 8 to a
 * node costs a whole node. Counting GPUs at the price per GPU bought one
 * A100 of a p4d.24xlarge for $2.74/h: the EKS team's fixture under DRA
 * (tests/cli/fixtures/emit/eks-team-dra.yaml) planned $32.62/h on buying
 * against the program's $13.41/h, and the plan kept the heuristic's
 * $15.73/h. (Instances counted on every model, which changes no
 * program's optimum where a single GPU sells at the price, changed the
 * path of searches stopped at their node limit: quality.py's
 * heterogeneous 80, seed 401, went from 1.0066 to 1.0084.) */
static int count_cols(gs_opt *o, gs_milp *m, row *r, int model, double price)
{
	const gs_shop *sh = &o->pl->shops[model];
	int most = 0;
	if (price != (double)o->pl->gpu_price[model] ||
	    sold_singly(sh, o->pl->gpu_price[model])) {
		int c = gs_milp_col(m, price, (double)o->pl->nreps, 1);
		return c < 0 ? -1 : row_put(r, c, 1);
	}
	for (int i = 0; i < sh->n; i++)
		most = sh->insts[i]->gpu_count > most ? sh->insts[i]->gpu_count : most;
	/* Each GPU count once, at its cheapest instance. */
	for (int g = 1; g <= most; g++) {
		double least = -1;
		int c;
		for (int i = 0; i < sh->n; i++)
			if (sh->insts[i]->gpu_count == g &&
			    (least < 0 || (double)sh->price[i] < least))
				least = (double)sh->price[i];
		if (least < 0)
			continue;
		c = gs_milp_col(m, least, ceil((double)o->pl->nreps / g) + 1, 1);
		if (c < 0 || row_put(r, c, g) < 0)
			return -1;
	}
	return 0;
}

/* Over a small fleet's relaxation's columns, the GPUs of each model at
 * each price (col_price) are counted by an integer of that price, as the
 * full program's instances count them (cover_rows): the search branches
 * on how many GPUs of a model to buy, not on single groups. quality.py's
 * heterogeneous 80 replicas, seed 487 (pinned): over 1,068 columns
 * priced each, $12.598/h after 300 nodes and still after ten minutes of
 * the cbc command; counted, the optimum over 9,068 columns in a second.
 * On fleets above GS_OPT_MAX_REPLICAS, whose programs get 10 nodes and no
 * cuts, counting made fleet.py's time-slicing 500 (seed 2) 1.2 % dearer. */
static int count_rows(gs_opt *o, gs_milp *m, row *r)
{
	enum { MOST = 2 * GS_MAX_MODELS };
	int model[MOST], n = 0, rc = 0;
	double price[MOST];
	int *pair = malloc(((size_t)o->ncols + 1) * sizeof *pair);
	if (!pair)
		return -1;
	for (int i = 0; i < o->ncols; i++) {
		double p = col_price(o, &o->cols[i]);
		int k = 0;
		while (k < n && !(model[k] == o->cols[i].model && price[k] == p))
			k++;
		/* A shared GPU's price or its own: two at most per model. */
		if (k == n && n < MOST) {
			model[n] = o->cols[i].model;
			price[n++] = p;
		}
		pair[i] = k < n ? k : -1;
	}
	for (int k = 0; rc == 0 && k < n; k++) {
		rc = count_cols(o, m, r, model[k], price[k]);
		for (int i = 0; rc == 0 && i < o->ncols; i++)
			if (pair[i] == k)
				rc = row_put(r, o->cols[i].col, -1);
		if (rc == 0)
			rc = row_done(m, r, 0);
	}
	free(pair);
	return rc;
}

/* Each workload's replicas covered by groups and instances: one pass
 * over the columns gathers every workload's terms. */
static int demand_rows(gs_opt *o, gs_milp *m)
{
	row *rw = calloc((size_t)o->nw + 1, sizeof *rw);
	int rc = rw ? 0 : -1;
	for (int i = 0; rc == 0 && i < o->ncols; i++) {
		const gs_opt_col *c = &o->cols[i];
		for (int k = 0; c->kind == GS_OPT_WHOLE && rc == 0 && k < c->n; k++)
			rc = row_put(&rw[o->items[c->first + k].w], c->col,
			             o->items[c->first + k].count);
	}
	for (int i = 0; rc == 0 && i < o->nslots; i++)
		rc = row_put(&rw[o->slots[i].w], o->slots[i].col, 1);
	for (int w = 0; rc == 0 && w < o->nw; w++) {
		o->dem_row[w] = o->wn[w] && rw[w].n ? gs_milp_rows(m) : -1;
		if (o->wn[w])
			rc = row_done(m, &rw[w], o->wn[w]);
	}
	for (int w = 0; rw && w < o->nw; w++) {
		free(rw[w].cols);
		free(rw[w].vals);
	}
	free(rw);
	return rc;
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

/* How the column's group shares its GPU (gs_group_share): the same
 * group as realizing it builds; time-slicing if out of memory, whose
 * node key is then merely dearer. */
static gs_strategy col_share(const gs_opt *o, const gs_opt_col *c)
{
	const gs_gpu *g = o->pl->models[c->model];
	gs_group gr = { 0 };
	gs_strategy st = GS_STRATEGY_TIME_SLICING;
	int ok = 0;
	gr.tenant = c->tenant;
	for (int i = 0; i < c->n; i++) {
		const gs_opt_item *it = &o->items[c->first + i];
		for (int j = 0; j < it->count; j++)
			ok |= gs_group_join(o->pl, g, &gr, o->wreps[it->w][j]);
	}
	if (ok == 0)
		st = gs_group_share(o->pl, g, &gr);
	free(gr.reps);
	return st;
}

/* The node key of a column (plan_keys.c): a GPU alone, time-sliced by one
 * tenant, MPS with k clients of one tenant, or MIG. Nodes are bought per
 * key, one sharing configuration each. */
static gs_opt_key key_of(const gs_opt *o, const gs_opt_col *c)
{
	gs_opt_key k = { c->model, GS_STRATEGY_MIG, 0, -1, -1 };
	int no_ts = 0;
	if (c->kind == GS_OPT_GEOMETRY)
		return k;
	for (int i = 0; i < c->n; i++) {
		const gs_opt_item *it = &o->items[c->first + i];
		k.k += it->count;
		no_ts |= o->pl->reps[o->wreps[it->w][0]].no_ts;
	}
	k.strategy = k.k == 1 ? GS_STRATEGY_DEDICATED
	             : no_ts ? GS_STRATEGY_MPS : GS_STRATEGY_TIME_SLICING;
	if (k.k > 1 && (o->pl->frac_ts || o->pl->frac_mps))
		k.strategy = col_share(o, c);
	if (k.strategy != GS_STRATEGY_MPS)
		k.k = 0;
	if (k.strategy == GS_STRATEGY_FRACTION)
		k.k = no_ts; /* its backend (gs_pgpu_backend) */
	if (k.strategy != GS_STRATEGY_DEDICATED && !o->pl->via_dra)
		k.tenant = c->tenant;
	return k;
}

static int same_key(const gs_opt_key *a, const gs_opt_key *b)
{
	return a->model == b->model && a->strategy == b->strategy && a->k == b->k &&
	       a->tenant == b->tenant;
}

/* The key's index in o->keys, added when new; -1 when out of memory. */
int gs_opt_key_find(gs_opt *o, const gs_opt_key *k, int add)
{
	for (int i = 0; i < o->nkeys; i++)
		if (same_key(&o->keys[i], k))
			return i;
	if (!add)
		return -1;
	if (gs_grow(&o->keys, &o->capkeys, (size_t)o->nkeys + 1, sizeof *o->keys) < 0)
		return -2;
	o->keys[o->nkeys] = *k;
	return o->nkeys++;
}

/* Per node key: the instances bought for it have a GPU for every column
 * of it. */
static int cover_rows(gs_opt *o, gs_shop *shops, gs_milp *m)
{
	row *rk;
	int rc = 0;
	o->nkeys = 0;
	for (int i = 0; i < o->ncols; i++) {
		gs_opt_key k = key_of(o, &o->cols[i]);
		if ((o->cols[i].key = gs_opt_key_find(o, &k, 1)) < 0)
			return -1;
	}
	if (!(rk = calloc((size_t)o->nkeys + 1, sizeof *rk)))
		return -1;
	for (int i = 0; rc == 0 && i < o->ncols; i++)
		rc = row_put(&rk[o->cols[i].key], o->cols[i].col, -1);
	for (int k = 0; rc == 0 && k < o->nkeys; k++) {
		const gs_shop *sh = &shops[o->keys[k].model];
		for (int i = 0; rc == 0 && i < sh->n; i++) {
			int g = sh->insts[i]->gpu_count;
			double most = ceil((double)o->pl->nreps / g) + 1;
			int c = gs_milp_col(m, (double)sh->price[i], most, 1);
			rc = c < 0 ? -1 : row_put(&rk[k], c, g);
		}
		o->keys[k].row = gs_milp_rows(m);
		if (rc == 0)
			rc = row_done(m, &rk[k], 0);
	}
	for (int k = 0; k < o->nkeys; k++) {
		free(rk[k].cols);
		free(rk[k].vals);
	}
	free(rk);
	return rc;
}

int gs_opt_program(gs_opt *o, gs_shop *shops, gs_milp *m)
{
	row r;
	int rc;
	memset(&r, 0, sizeof r);
	rc = columns(o, m);
	if (rc == 0)
		rc = demand_rows(o, m);
	if (rc == 0)
		rc = profile_rows(o, m, &r);
	if (rc == 0 && !o->priced)
		rc = cover_rows(o, shops, m);
	if (rc == 0 && counted(o))
		rc = count_rows(o, m, &r);
	free(r.cols);
	free(r.vals);
	return rc;
}

int gs_opt_solve(gs_opt *o, gs_shop *shops, gs_milp *m, double seconds, gs_milp_result *res)
{
	int rc = gs_opt_program(o, shops, m), big = o->ncols > GS_OPT_BIG;
	/* The program's search runs CBC's heuristics over hundreds of nodes,
	 * where it crashed once (milp.c); its fleets are small. */
	gs_milp_set_apart(m, 1);
	/* Over a small fleet's relaxation's columns, cuts: fleet.py hetero 80
	 * seed 54 (pinned, 116 columns) found $22.9656/h, the optimum, and
	 * proved it over them in 0.03 s, where 10 nodes without found
	 * $23.2128/h (its 25,420 groups are too many for the full program).
	 * Over more than GS_OPT_BIG columns (gs_opt_cheapest's), as in the
	 * full program, no cuts and GS_OPT_NODES_BIG: quality.py's
	 * heterogeneous 80 replicas, seed 441, planned in 8.8 s with them and
	 * in 2.9 s without, the same plan; seed 487 still plans its optimum. */
	if (rc == 0 && o->priced && o->pl->nreps <= GS_OPT_MAX_REPLICAS)
		return gs_milp_solve(m, big ? GS_OPT_NODES_BIG : GS_OPT_NODES, !big, seconds, res);
	if (rc == 0 && o->priced)
		return gs_milp_solve(m, GS_OPT_NODES_PRICED, 0, seconds, res);
	return rc < 0 ? rc
	              : gs_milp_solve(m, big ? GS_OPT_NODES_BIG : GS_OPT_NODES, !big, seconds, res);
}
