/*
 * mig_repack.c - a repair after packing (planner.h, gs_mig_repack): the
 * MIG GPUs of a model whose instances each hold one replica, laid out
 * again by a geometry program.
 *
 * The packer seats instances biggest first, each of the smallest profile
 * that holds its replica, so its geometries are those first-fit happens
 * to build: on an A100 two 3g.20gb instances take all eight memory slots
 * and strand a compute slice, and a 4g.20gb alone strands three. The
 * program (milp.h) chooses how many GPUs to cut as each maximal geometry
 * of the model's profiles and which profile each instance takes (any
 * that holds it, a larger one too), for the fewest GPUs. Under robust
 * placement one template asks one profile, so a workload's instances
 * take one profile together: workloads of as many instances and the
 * same profiles that hold them are one class, each member taking one
 * profile whole.
 *
 * Tenants, spread and the node's CPU and RAM are left to the packer's
 * rule, asked as each instance is seated (gs_mig_place); an instance no
 * geometry seats is packed as the packer would (gs_pack_mig). The plan
 * is bought again and kept only when it costs less.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/milp.h"
#include "plan/pack.h"
#include "plan/planner.h"

/* The program's search: deterministic node budget, and a wall-clock net
 * that a program of a few dozen columns never reaches. */
#define REPACK_NODES 20
#define REPACK_SECONDS 5.0
/* Instances a slot of a geometry tries before it stays empty (a spread
 * workload's replica refuses a GPU that holds another). */
#define SEAT_TRIES 64
/* Maximal geometries kept per model, at most. */
#define MAX_GEOMETRIES 4096

/* An instance of the repack: a shallow copy of its group (replicas
 * borrowed from the plan), what holds it, and its order key. */
typedef struct inst {
	gs_group g;
	uint32_t mask;  /* bit p: profile p holds it */
	int wi;         /* its workload */
	int seated;
} inst;

/* Instances that take one profile per unit, `count` units of `unit`. */
typedef struct klass {
	uint32_t mask;
	int unit, count, first; /* first: index into order */
	int col;                /* its first z column */
} klass;

typedef struct repack {
	const gs_planner *pl;
	const gs_gpu *gpu;
	const gs_mig_profile *prof[32];
	int np;
	inst *v;
	int n, loose_gpus;
	int *order;     /* instances by class, then workload */
	klass *k;
	int nk;
	int *geo;       /* ngeo rows of np counts */
	int ngeo;
	size_t capgeo;
	int *queue;     /* instances by target profile */
	int qat[33];    /* profile p's are queue[qat[p] .. qat[p + 1]) */
	int qhead[32];
} repack;

/* A GPU the repack lays out again: MIG, every instance holding one
 * replica (a time-sliced instance's GPU keeps its own rules). */
static int loose(const gs_pgpu *pg)
{
	if (pg->strategy != GS_STRATEGY_MIG || pg->mig_ts || pg->ng == 0)
		return 0;
	for (int j = 0; j < pg->ng; j++)
		if (pg->g[j].n != 1)
			return 0;
	return 1;
}

static int profiles(repack *r)
{
	for (size_t i = 0; i < r->gpu->n_mig_profiles; i++) {
		const gs_mig_profile *p = &r->gpu->mig_profiles[i];
		if (!gs_mig_candidate(r->gpu, p))
			continue;
		if (r->np == 32)
			return -1;
		r->prof[r->np++] = p;
	}
	return 0;
}

static uint32_t holds(const repack *r, const gs_group *g)
{
	uint32_t mask = 0;
	for (int p = 0; p < r->np; p++)
		if (gs_mig_holds(r->pl, r->gpu, g, r->prof[p], NULL) == GS_RULE_OK)
			mask |= 1u << p;
	return mask;
}

/* The instances of pk's loose GPUs; -1 when out of memory. */
static int collect(repack *r, const gs_pack *pk)
{
	int n = 0;
	for (int i = 0; i < pk->n; i++)
		if (loose(&pk->gpus[i])) {
			n += pk->gpus[i].ng;
			r->loose_gpus++;
		}
	if (!(r->v = calloc((size_t)n + 1, sizeof *r->v)))
		return -1;
	for (int i = 0; i < pk->n; i++) {
		const gs_pgpu *pg = &pk->gpus[i];
		for (int j = 0; loose(pg) && j < pg->ng; j++) {
			inst *x = &r->v[r->n++];
			x->g = pg->g[j];
			x->mask = holds(r, &x->g);
			x->wi = r->pl->reps[x->g.reps[0]].wi;
		}
	}
	return 0;
}

/* ---- classes -------------------------------------------------------------- */

/* An instance's order: by class (what holds it, the instances it moves
 * with), then workload, then where the plan had it. */
typedef struct key {
	uint32_t mask;
	int unit, wi, idx;
} key;

static int by_workload(const void *a, const void *b)
{
	const key *x = a, *y = b;
	if (x->wi != y->wi)
		return x->wi < y->wi ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int by_class(const void *a, const void *b)
{
	const key *x = a, *y = b;
	if (x->mask != y->mask)
		return x->mask < y->mask ? -1 : 1;
	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return by_workload(a, b);
}

/* Under robust placement, each instance moves with its workload's. */
static void units(key *k, int n)
{
	qsort(k, (size_t)n, sizeof *k, by_workload);
	for (int i = 0, j; i < n; i = j) {
		for (j = i; j < n && k[j].wi == k[i].wi; j++)
			;
		for (int t = i; t < j; t++)
			k[t].unit = j - i;
	}
}

static int classes(repack *r)
{
	key *k = malloc(((size_t)r->n + 1) * sizeof *k);
	if (!k || !(r->order = malloc(((size_t)r->n + 1) * sizeof *r->order)) ||
	    !(r->k = calloc((size_t)r->n + 1, sizeof *r->k))) {
		free(k);
		return -1;
	}
	for (int i = 0; i < r->n; i++)
		k[i] = (key){ r->v[i].mask, 1, r->v[i].wi, i };
	if (r->pl->placement == GS_PLACEMENT_ROBUST)
		units(k, r->n);
	qsort(k, (size_t)r->n, sizeof *k, by_class);
	for (int i = 0; i < r->n; i++)
		r->order[i] = k[i].idx;
	for (int i = 0; i < r->n; i += k[i].unit) {
		klass *c = r->nk ? &r->k[r->nk - 1] : NULL;
		if (!c || c->mask != k[i].mask || c->unit != k[i].unit) {
			c = &r->k[r->nk++];
			c->mask = k[i].mask;
			c->unit = k[i].unit;
			c->first = i;
		}
		c->count++;
	}
	free(k);
	return 0;
}

/* ---- the geometries ------------------------------------------------------- */

typedef struct geo_ud {
	repack *r;
	int rc;
} geo_ud;

static int geometry(const gs_mig_profile *const *profiles, const size_t *counts, size_t n,
                    void *ud)
{
	geo_ud *u = ud;
	repack *r = u->r;
	int *row;
	if (r->ngeo == MAX_GEOMETRIES)
		return 1;
	if (gs_grow(&r->geo, &r->capgeo, (size_t)(r->ngeo + 1) * (size_t)r->np,
	            sizeof *r->geo) < 0) {
		u->rc = -1;
		return 1;
	}
	row = &r->geo[(size_t)r->ngeo++ * (size_t)r->np];
	memset(row, 0, (size_t)r->np * sizeof *row);
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < r->np; p++)
			if (r->prof[p] == profiles[i])
				row[p] = (int)counts[i];
	return 0;
}

static int geometries(repack *r)
{
	geo_ud u = { r, 0 };
	if (gs_mig_enumerate(r->gpu, r->prof, (size_t)r->np, GS_MIG_MAXIMAL, geometry, &u,
	                     NULL) < 0 && u.rc == 0)
		return -1;
	return u.rc;
}

/* ---- the program ---------------------------------------------------------- */

/* Class columns before profile p's (one per profile in the mask). */
static int below(uint32_t mask, int p)
{
	int n = 0;
	for (int q = 0; q < p; q++)
		n += (int)(mask >> q & 1);
	return n;
}

/* Columns: a GPU per geometry (cost 1), then per class and profile that
 * holds it the units that take it; a hair per memory slot keeps an
 * instance at its own profile where a larger one buys nothing (all the
 * hairs together are below half a GPU). Rows: each class's units, and
 * each profile's instances within what the geometries cut. */
static int state(repack *r, gs_milp *mp)
{
	double hair = 0.5 / ((double)r->n * 64 + 1);
	int *cols = malloc(((size_t)r->ngeo + (size_t)r->nk + 1) * sizeof *cols);
	double *vals = malloc(((size_t)r->ngeo + (size_t)r->nk + 1) * sizeof *vals);
	int rc = cols && vals ? 0 : -1;
	for (int g = 0; g < r->ngeo && rc == 0; g++)
		rc = gs_milp_col(mp, 1, -1, 1) < 0 ? -1 : 0;
	for (int c = 0; c < r->nk && rc == 0; c++) {
		klass *k = &r->k[c];
		int n = 0;
		k->col = gs_milp_cols(mp);
		for (int p = 0; p < r->np && rc == 0; p++)
			if (k->mask >> p & 1) {
				double cost = hair * r->prof[p]->memory_slices * k->unit;
				cols[n] = gs_milp_col(mp, cost, k->count, 1);
				vals[n++] = 1;
				rc = cols[n - 1] < 0 ? -1 : 0;
			}
		if (rc == 0)
			rc = gs_milp_row(mp, cols, vals, n, k->count, k->count);
	}
	for (int p = 0; p < r->np && rc == 0; p++) {
		int n = 0;
		for (int c = 0; c < r->nk; c++) {
			const klass *k = &r->k[c];
			if (!(k->mask >> p & 1))
				continue;
			cols[n] = k->col + below(k->mask, p);
			vals[n++] = k->unit;
		}
		for (int g = 0; g < r->ngeo; g++)
			if (r->geo[(size_t)g * (size_t)r->np + (size_t)p]) {
				cols[n] = g;
				vals[n++] = -r->geo[(size_t)g * (size_t)r->np + (size_t)p];
			}
		if (n)
			rc = gs_milp_row(mp, cols, vals, n, -1e30, 0);
	}
	free(cols);
	free(vals);
	return rc;
}

static int copies(const double *x, int col) { return x[col] > 0.5 ? (int)(x[col] + 0.5) : 0; }

/* Each instance's profile as the solution gives it, and the instances
 * queued by profile. */
static int targets(repack *r, const double *x)
{
	int at[33] = { 0 };
	int *prof = malloc(((size_t)r->n + 1) * sizeof *prof);
	if (!prof || !(r->queue = malloc(((size_t)r->n + 1) * sizeof *r->queue))) {
		free(prof);
		return -1;
	}
	for (int c = 0; c < r->nk; c++) {
		const klass *k = &r->k[c];
		int i = k->first, col = k->col, end = k->first + k->count * k->unit;
		for (int p = 0; p < r->np; p++) {
			if (!(k->mask >> p & 1))
				continue;
			for (int u = copies(x, col++); u > 0 && i < end; u--)
				for (int j = 0; j < k->unit; j++)
					prof[r->order[i++]] = p;
		}
		/* (Integral, so every unit has its profile; a rounding slip
		 * keeps the rest at the packer's own.) */
		for (; i < end; i++)
			prof[r->order[i]] = -1;
	}
	for (int i = 0; i < r->n; i++)
		if (prof[i] >= 0) {
			r->v[i].g.prof = r->prof[prof[i]];
			at[prof[i] + 1]++;
		}
	for (int p = 0; p < r->np; p++)
		at[p + 1] += at[p];
	memcpy(r->qat, at, sizeof r->qat);
	memcpy(r->qhead, at, sizeof r->qhead);
	for (int i = 0; i < r->n; i++)
		if (prof[i] >= 0)
			r->queue[at[prof[i]]++] = i;
	free(prof);
	return 0;
}

/* ---- laying it out --------------------------------------------------------- */

static int copy_gpu(gs_pack *out, const gs_pgpu *pg)
{
	gs_pgpu *np = gs_pack_add_gpu(out, pg->model, pg->strategy);
	if (!np)
		return -1;
	np->k = pg->k;
	np->mig_ts = pg->mig_ts;
	np->span = pg->span;
	for (int j = 0; j < pg->ng; j++)
		if (gs_pgpu_add_group(np, &pg->g[j]) < 0)
			return -1;
	return 0;
}

/* An instance of profile p on the pack's last GPU: the first queued that
 * its rules let in, within SEAT_TRIES. */
static int seat(repack *r, gs_pack *pk, int p)
{
	int tries = 0;
	while (r->qhead[p] < r->qat[p + 1] && r->v[r->queue[r->qhead[p]]].seated)
		r->qhead[p]++;
	for (int q = r->qhead[p]; q < r->qat[p + 1] && tries < SEAT_TRIES; q++) {
		inst *x = &r->v[r->queue[q]];
		int rc;
		if (x->seated)
			continue;
		tries++;
		if ((rc = gs_mig_place(r->pl, &pk->gpus[pk->n - 1], &x->g)) < 0)
			return -1;
		if (rc == 1) {
			x->seated = 1;
			return 0;
		}
	}
	return 0;
}

static int cut(repack *r, gs_pack *pk, int g)
{
	const int *row = &r->geo[(size_t)g * (size_t)r->np];
	if (!gs_pack_add_gpu(pk, r->gpu, GS_STRATEGY_MIG))
		return -1;
	for (int p = 0; p < r->np; p++)
		for (int c = 0; c < row[p]; c++)
			if (seat(r, pk, p) < 0)
				return -1;
	if (pk->gpus[pk->n - 1].ng == 0) {
		free(pk->gpus[pk->n - 1].g);
		pk->n--;
	}
	return 0;
}

/* What no geometry seated, packed as the packer would. */
static int leftovers(repack *r, gs_pack *pk)
{
	gs_group **left = malloc(((size_t)r->n + 1) * sizeof *left);
	int n = 0, rc;
	if (!left)
		return -1;
	for (int i = 0; i < r->n; i++)
		if (!r->v[i].seated)
			left[n++] = &r->v[i].g;
	rc = n ? gs_pack_mig(r->pl, r->gpu, left, n, pk) : 0;
	free(left);
	return rc;
}

/* pk laid out again into out: its other GPUs as they were, then the
 * solution's geometries. */
static int lay_out(repack *r, const gs_pack *pk, const double *x, gs_pack *out)
{
	int rc = targets(r, x);
	for (int i = 0; i < pk->n && rc == 0; i++)
		if (!loose(&pk->gpus[i]))
			rc = copy_gpu(out, &pk->gpus[i]);
	for (int g = 0; g < r->ngeo && rc == 0; g++)
		for (int c = copies(x, g); c > 0 && rc == 0; c--)
			rc = cut(r, out, g);
	return rc == 0 ? leftovers(r, out) : rc;
}

static void repack_release(repack *r)
{
	free(r->v);
	free(r->order);
	free(r->k);
	free(r->geo);
	free(r->queue);
}

/* Model m's packing laid out again into out when the program cuts fewer
 * GPUs than it holds: 1; 0 when it does not (out untouched); -1 when out
 * of memory. */
static int repack_model(const gs_planner *pl, const gs_pack *pk, int m, gs_pack *out)
{
	repack r;
	gs_milp *mp = NULL;
	gs_milp_result res;
	int rc, gpus = 0;
	memset(&r, 0, sizeof r);
	r.pl = pl;
	r.gpu = pl->models[m];
	if (!r.gpu->mig_slots || profiles(&r) < 0)
		return 0;
	rc = collect(&r, pk);
	if (rc == 0 && r.loose_gpus >= 2)
		rc = classes(&r);
	if (rc == 0 && r.loose_gpus >= 2 && (rc = geometries(&r)) == 0 && r.ngeo)
		rc = (mp = gs_milp_new()) ? state(&r, mp) : -1;
	/* GPUs are whole and the hairs below half a GPU: within a half of
	 * its bound, no solution has a GPU fewer. At 100,000 replicas the
	 * search otherwise spent its 500 nodes closing a fraction of a GPU. */
	if (rc == 0 && mp) {
		gs_milp_set_gap(mp, 0.5);
		rc = gs_milp_solve(mp, REPACK_NODES, 1, REPACK_SECONDS, &res);
	}
	if (rc == 0 && mp && res.status != GS_MILP_NONE) {
		for (int g = 0; g < r.ngeo; g++)
			gpus += copies(res.x, g);
		if (gpus < r.loose_gpus)
			rc = lay_out(&r, pk, res.x, out) < 0 ? -1 : 1;
	}
	gs_milp_free(mp);
	repack_release(&r);
	return rc;
}

/* out, with each model that repack_model laid out again (changed bit m),
 * holds b's other packings too, copied. */
static int copy_rest(const gs_built *b, uint64_t changed, gs_built *out)
{
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; !(changed >> m & 1) && i < b->packs[m].n; i++)
			if (copy_gpu(&out->packs[m], &b->packs[m].gpus[i]) < 0)
				return -1;
	return 0;
}

/* Whether out, bought, takes b's place: it costs less and, under robust
 * placement, asks one request per workload. 1, 0, or -1. */
static int better(const gs_planner *pl, gs_shop *shops, const gs_built *b, gs_built *out)
{
	int rc = gs_built_buy(pl, shops, out);
	/* (-2: some GPU's host requests fit no instance: not a plan.) */
	if (rc < 0)
		return rc == -2 ? 0 : -1;
	if (out->cost >= b->cost)
		return 0;
	return pl->placement == GS_PLACEMENT_ROBUST ? gs_built_one_request(pl, out) : 1;
}

int gs_mig_repack(const gs_planner *pl, gs_shop *shops, gs_built *b)
{
	gs_built out;
	uint64_t changed = 0;
	int rc = 0;
	if (gs_built_init(pl, &out) < 0)
		return -1;
	/* Only the models laid out again are copied first: most plans keep
	 * their MIG GPUs as they are, and the rest is copied only if not. */
	for (int m = 0; m < b->npacks && rc >= 0; m++)
		if (pl->models[m]->mig_slots &&
		    (rc = repack_model(pl, &b->packs[m], m, &out.packs[m])) > 0)
			changed |= UINT64_C(1) << m;
	if (rc >= 0 && changed && (rc = copy_rest(b, changed, &out)) == 0 &&
	    (rc = better(pl, shops, b, &out)) == 1) {
		out.left_out = b->left_out;
		out.left_out_cost = b->left_out_cost;
		gs_built_release(b);
		*b = out;
		return 0;
	}
	gs_built_release(&out);
	return rc < 0 ? -1 : 0;
}
