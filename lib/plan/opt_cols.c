/*
 * opt_cols.c - the optimiser's columns: each way to fill one GPU. Groups on
 * a whole GPU are asked of the packer's own rule (gs_can_join), so a column
 * is exactly a group the packer could have built; since every rule only
 * gets easier as replicas leave a group, maximal groups suffice.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/opt.h"
#include "scenario/scenario.h"

int gs_opt_init(gs_opt *o, gs_planner *pl, const gs_choice *c)
{
	memset(o, 0, sizeof *o);
	o->pl = pl;
	o->c = c;
	o->nw = (int)pl->s->n;
	o->max_cols = GS_OPT_MAX_COLUMNS;
	if (!(o->wreps = calloc((size_t)o->nw + 1, sizeof *o->wreps)) ||
	    !(o->wn = calloc((size_t)o->nw + 1, sizeof *o->wn)) ||
	    !(o->dem_row = calloc((size_t)o->nw + 1, sizeof *o->dem_row)))
		return -1;
	for (int r = 0; r < pl->nreps; r++)
		o->wn[pl->reps[r].wi]++;
	for (int w = 0; w < o->nw; w++) {
		if (!(o->wreps[w] = malloc((size_t)(o->wn[w] ? o->wn[w] : 1) * sizeof(int))))
			return -1;
		o->wn[w] = 0;
	}
	for (int r = 0; r < pl->nreps; r++) {
		int w = pl->reps[r].wi;
		o->wreps[w][o->wn[w]++] = r;
	}
	return 0;
}

void gs_opt_release(gs_opt *o)
{
	for (int w = 0; o->wreps && w < o->nw; w++)
		free(o->wreps[w]);
	free(o->wreps);
	free(o->wn);
	free(o->dem_row);
	free(o->keys);
	free(o->cols);
	free(o->items);
	free(o->slots);
	memset(o, 0, sizeof *o);
}

/* A new column of kind on model m whose items follow: its index. */
static int col_open(gs_opt *o, int kind, int m, int tenant)
{
	gs_opt_col *col;
	if (o->ncols >= o->max_cols) {
		o->too_big = 1;
		return -2;
	}
	if (gs_grow(&o->cols, &o->capcols, (size_t)o->ncols + 1, sizeof *o->cols) < 0)
		return -1;
	col = &o->cols[o->ncols];
	memset(col, 0, sizeof *col);
	col->kind = kind;
	col->model = m;
	col->tenant = tenant;
	col->first = o->nitems;
	col->col = -1;
	return o->ncols++;
}

static int col_item(gs_opt *o, int c, int w, int count)
{
	if (gs_grow(&o->items, &o->capitems, (size_t)o->nitems + 1, sizeof *o->items) < 0)
		return -1;
	o->items[o->nitems++] = (gs_opt_item){ w, count };
	o->cols[c].n++;
	return 0;
}

/* ---- groups on a whole GPU ----------------------------------------------- */

typedef struct dfs {
	gs_opt *o;
	int m, tenant;
	const gs_gpu *g;
	const int *ws;   /* the tenant's shareable workloads on m */
	int n;
	int *count;
	long visits;
	gs_group gr;
} dfs;

/* May one more replica of ws[k] join the group? */
static int joins(dfs *d, int k)
{
	int w = d->ws[k];
	if (d->count[k] >= d->o->wn[w])
		return 0;
	if (d->gr.n == 0)
		return 1;
	return gs_can_join(d->o->pl, d->g, &d->gr, d->o->wreps[w][d->count[k]]);
}

static int emit_group(dfs *d)
{
	int c;
	if (d->gr.n == 0)
		return 0;
	for (int k = 0; k < d->n; k++)
		if (joins(d, k))
			return 0;   /* not maximal */
	if ((c = col_open(d->o, GS_OPT_WHOLE, d->m, d->tenant)) < 0)
		return c;
	for (int k = 0; k < d->n; k++)
		if (d->count[k] && col_item(d->o, c, d->ws[k], d->count[k]) < 0)
			return -1;
	return 0;
}

/* Chooses how many of ws[i..] the group takes, most first. */
static int rec(dfs *d, int i)
{
	gs_group saved = d->gr;
	int added = 0, rc = 0;
	if (i == d->n)
		return emit_group(d);
	while (joins(d, i)) {
		int w = d->ws[i];
		if (gs_group_join(d->o->pl, d->g, &d->gr, d->o->wreps[w][d->count[i]]) < 0)
			return -1;
		d->count[i]++;
		added++;
	}
	for (;;) {
		if (++d->visits > GS_OPT_MAX_VISITS) {
			d->o->too_big = 1;
			return -2;
		}
		if ((rc = rec(d, i + 1)) < 0 || added == 0)
			break;
		d->count[i]--;
		added--;
		d->gr.n--;
		d->gr.mem -= d->o->pl->reps[d->gr.reps[d->gr.n]].w->memory_bytes;
		d->gr.comp -= gs_rep_comp(d->o->pl, d->gr.reps[d->gr.n], d->g);
		/* The flags are the most of the members' (all of one workload
		 * alike): the level's are gone with its last replica. */
		if (added == 0) {
			d->gr.no_ts = saved.no_ts;
			d->gr.headroom = saved.headroom;
		}
	}
	return rc;
}

static int tenant_groups(gs_opt *o, int m, int tenant, int *ws, int n)
{
	dfs d;
	int rc;
	memset(&d, 0, sizeof d);
	d.o = o;
	d.m = m;
	d.tenant = tenant;
	d.g = o->pl->models[m];
	d.ws = ws;
	d.n = n;
	d.gr.tenant = tenant;
	if (!(d.count = calloc((size_t)n + 1, sizeof *d.count)))
		return -1;
	rc = rec(&d, 0);
	free(d.count);
	free(d.gr.reps);
	return rc;
}

/* The tenant's workloads on m that may share a whole GPU, largest first
 * (the search then meets full groups early). */
static int64_t sort_key(const gs_opt *o, int w, int m)
{
	return gs_rep_size(o->pl, o->wreps[w][0], o->pl->models[m]);
}

static _Thread_local const gs_opt *sort_o; /* a thread's own (fork.h) */
static _Thread_local int sort_m;

static int by_size(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int64_t sx = sort_key(sort_o, x, sort_m), sy = sort_key(sort_o, y, sort_m);
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return x - y;
}

static int shareable(const gs_opt *o, int w, int m, int tenant)
{
	const gs_replica *r;
	if (o->wn[w] == 0 || !gs_choice_allows(o->c, w, m))
		return 0;
	r = &o->pl->reps[o->wreps[w][0]];
	return r->tenant == tenant && !r->w->isolation_fault && r->w->gpus_per_replica <= 1;
}

static int whole_columns(gs_opt *o, int m, int *ws)
{
	for (int t = 0; t < o->pl->ntenants; t++) {
		int n = 0, rc;
		for (int w = 0; w < o->nw; w++)
			if (shareable(o, w, m, t))
				ws[n++] = w;
		sort_o = o;
		sort_m = m;
		qsort(ws, (size_t)n, sizeof *ws, by_size);
		if (n && (rc = tenant_groups(o, m, t, ws, n)) < 0) {
			if (rc == -2 && o->listing && o->ncols < o->max_cols) {
				o->too_big = 0;
				continue;
			}
			return rc;
		}
	}
	return 0;
}

static int singles(gs_opt *o, int m)
{
	/* Every replica alone on a GPU too: a fault-isolated one must be, and
	 * one that may share is then a dedicated GPU, whose node key (any
	 * tenant, no sharing configuration) its maximal groups' time-sliced
	 * or MPS keys do not give. Without it a plan of whole GPUs on one
	 * 8-GPU node was out of the program's reach, and its bound rose above
	 * that plan. */
	for (int w = 0; w < o->nw; w++) {
		int c, t;
		if (o->wn[w] == 0 || !gs_choice_allows(o->c, w, m))
			continue;
		t = o->pl->reps[o->wreps[w][0]].tenant;
		if ((c = col_open(o, GS_OPT_WHOLE, m, t)) < 0 ||
		    col_item(o, c, w, 1) < 0)
			return c < 0 ? c : -1;
	}
	return 0;
}

/* ---- MIG geometries ------------------------------------------------------ */

typedef struct geo_ud {
	gs_opt *o;
	int m;
	int rc;
} geo_ud;

static int geometry(const gs_mig_profile *const *profiles, const size_t *counts, size_t n,
                    void *ud)
{
	geo_ud *u = ud;
	const gs_gpu *g = u->o->pl->models[u->m];
	int c = col_open(u->o, GS_OPT_GEOMETRY, u->m, -1);
	if (c < 0) {
		u->rc = c;
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (counts[i] && col_item(u->o, c, (int)(profiles[i] - g->mig_profiles),
		                          (int)counts[i]) < 0) {
			u->rc = -1;
			return 1;
		}
	return 0;
}

static int slot_add(gs_opt *o, gs_opt_slot s)
{
	if (gs_grow(&o->slots, &o->capslots, (size_t)o->nslots + 1, sizeof *o->slots) < 0)
		return -1;
	s.col = -1;
	o->slots[o->nslots++] = s;
	return 0;
}

/* A replica's part of a shared instance of p: its memory over what the
 * instance offers time-sliced, its compute over the instance's share at
 * the target; 0 when it cannot share one. The compute part is of the
 * exact share and cap, rounded down: parts of the packer's rounded
 * figures (share up, cap down) could add up past a whole instance that
 * the exact ones fill, and the program's bound must hold for those
 * (pack_share.c); a solution the rules then refuse is not taken. */
static int shared_part(const gs_opt *o, const gs_replica *r, const gs_gpu *g,
                       const gs_mig_profile *p, gs_opt_slot *s)
{
	int64_t offer = gs_memory_offer(g, p, GS_STRATEGY_TIME_SLICING, r->headroom);
	double cap = (double)p->sm_count / g->sm_count * (double)o->pl->target;
	double comp = gs_workload_compute_exact(r->w, g);
	if (r->w->isolation_fault || r->no_ts || r->w->memory_bytes > offer || comp > cap ||
	    offer <= 0 || cap <= 0)
		return 0;
	s->shared = 1;
	s->mem = r->w->memory_bytes * GS_PPM / offer;
	s->comp = (int64_t)floor(comp * GS_PPM / cap);
	return 1;
}

/* Workload w's replicas in instances of each profile that holds one
 * (upsizing allowed): alone, and shared where they may be. */
static int slots_of(gs_opt *o, int w, int m)
{
	const gs_gpu *g = o->pl->models[m];
	const gs_replica *r = &o->pl->reps[o->wreps[w][0]];
	int x = o->wreps[w][0];
	gs_group one;
	memset(&one, 0, sizeof one);
	one.tenant = r->tenant;
	one.n = 1;
	one.reps = &x;
	one.mem = r->w->memory_bytes;
	one.comp = gs_rep_comp(o->pl, x, g);
	one.headroom = r->headroom;
	for (size_t p = 0; p < g->n_mig_profiles; p++) {
		const gs_mig_profile *pr = &g->mig_profiles[p];
		gs_opt_slot s = { w, m, (int)p, -1, 0, 0, 0 };
		if (!gs_mig_candidate_for(g, pr, r->w->isolation_fault) ||
		    gs_mig_holds(o->pl, g, &one, pr, NULL) != GS_RULE_OK)
			continue;
		if (slot_add(o, s) < 0 ||
		    (!o->no_shared && shared_part(o, r, g, pr, &s) && slot_add(o, s) < 0))
			return -1;
	}
	return 0;
}

static int mig_columns(gs_opt *o, int m)
{
	const gs_gpu *g = o->pl->models[m];
	const gs_mig_profile *allowed[64];
	size_t na = 0;
	geo_ud u = { o, m, 0 };
	int nslots = o->nslots;
	for (int w = 0; w < o->nw; w++) {
		if (o->wn[w] == 0 || !gs_choice_allows(o->c, w, m) ||
		    o->pl->reps[o->wreps[w][0]].no_mig ||
		    o->pl->reps[o->wreps[w][0]].w->gpus_per_replica > 1)
			continue;
		if (slots_of(o, w, m) < 0)
			return -1;
	}
	if (o->nslots == nslots)
		return 0;
	/* Geometries of every profile some replica may get (slots_of keeps
	 * the whole GPU's instance to fault-isolated ones). */
	for (size_t p = 0; p < g->n_mig_profiles && na < 64; p++)
		if (gs_mig_candidate_for(g, &g->mig_profiles[p], 1))
			allowed[na++] = &g->mig_profiles[p];
	if (gs_mig_enumerate(g, allowed, na, GS_MIG_MAXIMAL, geometry, &u, NULL) < 0 &&
	    u.rc == 0)
		return -1;
	return u.rc;
}

/* ---- the relaxation's groups -------------------------------------------- */

/* Column cc of the relaxation (cg.h) as a group, cut to the replicas the
 * packer's rule lets join in its order: the relaxation's fillings may
 * hold more than the rule allows (MPS's finer limits, each replica's own
 * headroom). A group of one is left to singles(), and an MPS group to
 * the program without MPS. count[i]: what item i keeps. */
static int priced_group(gs_opt *o, const gs_cg_cols *k, const gs_cg_col *cc, int *count)
{
	const gs_gpu *g = o->pl->models[cc->model];
	gs_group gr;
	int rc = 0, c;
	memset(&gr, 0, sizeof gr);
	gr.tenant = cc->tenant;
	for (int i = 0; i < cc->n && rc == 0; i++) {
		const gs_cg_item *it = &k->items[cc->first + i];
		for (count[i] = 0; count[i] < it->count && count[i] < o->wn[it->w]; count[i]++) {
			int r = o->wreps[it->w][count[i]];
			if (gr.n && !gs_can_join(o->pl, g, &gr, r))
				break;
			if ((rc = gs_group_join(o->pl, g, &gr, r)) < 0)
				break;
		}
	}
	if (rc == 0 && (gr.n < 2 ||
	                (o->pl->no_mps && gs_group_share(o->pl, g, &gr) == GS_STRATEGY_MPS)))
		rc = 1;
	free(gr.reps);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if ((c = col_open(o, GS_OPT_WHOLE, cc->model, cc->tenant)) < 0)
		return c;
	for (int i = 0; i < cc->n; i++)
		if (count[i] && col_item(o, c, k->items[cc->first + i].w, count[i]) < 0)
			return -1;
	return 0;
}

static int priced_groups(gs_opt *o, int m, const gs_cg_cols *k, int *count)
{
	int rc = 0;
	for (int i = 0; i < k->n && rc == 0; i++)
		if (k->v[i].model == m)
			rc = priced_group(o, k, &k->v[i], count);
	return rc;
}

/* Every column of the program, its groups the relaxation's (k) or, with
 * k NULL, every maximal one. */
static int columns_of(gs_opt *o, const gs_cg_cols *k)
{
	int most = k ? 1 : o->nw;
	int *scratch, rc;
	for (int i = 0; k && i < k->n; i++)
		most = k->v[i].n > most ? k->v[i].n : most;
	scratch = malloc((size_t)(most ? most : 1) * sizeof *scratch);
	rc = scratch ? 0 : -1;
	o->ncols = o->nitems = o->nslots = 0;
	o->too_big = 0;
	o->priced = k;
	for (int m = 0; m < o->pl->nmodels && rc == 0; m++) {
		const gs_gpu *g = o->pl->models[m];
		rc = k ? priced_groups(o, m, k, scratch) : whole_columns(o, m, scratch);
		if (rc == 0)
			rc = singles(o, m);
		if (rc == 0 && g->mig_slots && !o->pl->no_mig)
			rc = mig_columns(o, m);
	}
	free(scratch);
	return rc;
}

int gs_opt_columns(gs_opt *o)
{
	return columns_of(o, NULL);
}

int gs_opt_columns_priced(gs_opt *o, const gs_cg_cols *k)
{
	return columns_of(o, k);
}

/* ---- the groups of least reduced cost ----------------------------------- */

typedef struct cheap {
	double reduced;  /* $/h, the least over k's duals */
	int col;
} cheap;

static int by_reduced(const void *a, const void *b)
{
	const cheap *x = a, *y = b;
	if (x->reduced != y->reduced)
		return x->reduced < y->reduced ? -1 : 1;
	return x->col - y->col;
}

static double reduced_of(const gs_opt *o, const gs_cg_cols *k, const gs_opt_col *col)
{
	double price = (double)o->pl->gpu_price[col->model] / 1e6, least = 1e30;
	for (int d = 0; d < k->ndual; d++) {
		const double *du = k->dual + (size_t)d * (size_t)k->nw;
		double worth = 0;
		for (int i = col->first; i < col->first + col->n; i++)
			worth += du[o->items[i].w] * o->items[i].count;
		least = price - worth < least ? price - worth : least;
	}
	return least;
}

static int cheap_out(const gs_opt *o, const cheap *v, int n, gs_cg_cols *out)
{
	for (int i = 0; i < n; i++) {
		const gs_opt_col *col = &o->cols[v[i].col];
		double price = (double)o->pl->gpu_price[col->model] / 1e6;
		gs_cg_item *at = gs_cg_cols_add(out, col->model, col->tenant,
		                                price > 0 ? v[i].reduced / price : 0, col->n);
		if (!at)
			return -1;
		for (int j = 0; j < col->n; j++) {
			const gs_opt_item *it = &o->items[col->first + j];
			at[j] = (gs_cg_item){ it->w, it->count };
		}
	}
	return 0;
}

/* Every maximal group of o's models, as many as the limits let list:
 * where a tenant's search stops, the groups listed so far stand. */
static int list_groups(gs_opt *o)
{
	int *scratch = malloc((size_t)(o->nw ? o->nw : 1) * sizeof *scratch);
	int rc = scratch ? 0 : -1;
	o->max_cols = GS_OPT_CHEAP_LIST;
	o->listing = 1;
	for (int m = 0; m < o->pl->nmodels && rc == 0 && !o->too_big; m++)
		rc = whole_columns(o, m, scratch);
	free(scratch);
	return rc == -2 ? 0 : rc;
}

int gs_opt_cheapest(gs_planner *pl, const gs_choice *c, const gs_cg_cols *k, int most,
                    gs_cg_cols *out)
{
	gs_opt o;
	cheap *v = NULL;
	int rc, n = 0;
	memset(out, 0, sizeof *out);
	if (k->ndual == 0)
		return 0;
	rc = gs_opt_init(&o, pl, c);
	if (rc == 0)
		rc = list_groups(&o);
	if (rc == 0 && !(v = malloc(((size_t)o.ncols + 1) * sizeof *v)))
		rc = -1;
	for (int i = 0; rc == 0 && i < o.ncols; i++)
		if (o.cols[i].n > 1 || (o.cols[i].n == 1 && o.items[o.cols[i].first].count > 1))
			v[n++] = (cheap){ reduced_of(&o, k, &o.cols[i]), i };
	if (rc == 0) {
		qsort(v, (size_t)n, sizeof *v, by_reduced);
		rc = cheap_out(&o, v, n < most ? n : most, out);
	}
	free(v);
	gs_opt_release(&o);
	if (rc < 0)
		gs_cg_cols_release(out);
	return rc;
}
