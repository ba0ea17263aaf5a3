/*
 * pack.c - packing replicas onto GPUs of one model.
 *
 * Replicas are packed first-fit-decreasing into shared groups of one
 * tenant (time-slicing, or MPS where advice rules time-slicing out), then
 * fault-isolated replicas and small groups are tried as MIG instances,
 * which is the only way tenants may share a GPU. The packing with the
 * fewest GPUs wins; ties keep fewer MIG GPUs (less to reconfigure).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

/* How many recently opened groups first-fit looks at: enough to fill
 * groups tightly on sorted input, few enough to stay linear. */
#define FIT_WINDOW 48

int64_t gs_rep_comp(const gs_planner *pl, int r, const gs_gpu *g)
{
	return gs_workload_compute_on(pl->reps[r].w, g);
}

static int64_t gpu_bytes(const gs_gpu *g) { return g->memory_mib << 20; }

static int group_add(gs_group *gr, int r)
{
	if (gr->n == gr->cap) {
		int ncap = gr->cap ? gr->cap * 2 : 4;
		int *p = realloc(gr->reps, (size_t)ncap * sizeof *p);
		if (!p)
			return -1;
		gr->reps = p;
		gr->cap = ncap;
	}
	gr->reps[gr->n++] = r;
	return 0;
}

static int conflicts(const gs_planner *pl, const int *reps, int n, int r)
{
	const gs_workload *w = pl->reps[r].w;
	if (w->spread == GS_SPREAD_NONE)
		return 0;
	for (int i = 0; i < n; i++)
		if (pl->reps[reps[i]].w == w)
			return 1;
	return 0;
}

/* MPS through the device plugin splits memory and threads equally. */
static int mps_fits(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r, int k)
{
	int64_t mem_each, comp_each;
	if (pl->no_mps || !g->mps_max_clients || k > g->mps_max_clients)
		return 0;
	if (pl->via_dra)
		return 1;
	mem_each = ((gpu_bytes(g) / k) >> 20) << 20;
	comp_each = (int64_t)(100 / k) * 10000;
	for (int i = 0; i <= gr->n; i++) {
		int x = i < gr->n ? gr->reps[i] : r;
		if (pl->reps[x].w->memory_bytes > mem_each || gs_rep_comp(pl, x, g) > comp_each)
			return 0;
	}
	return 1;
}

/* Can replica r join the shared group on a whole GPU? */
static int can_join(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r)
{
	const gs_replica *p = &pl->reps[r];
	int64_t comp = gr->comp + gs_rep_comp(pl, r, g);
	if (gr->tenant != p->tenant || p->w->isolation_fault ||
	    conflicts(pl, gr->reps, gr->n, r))
		return 0;
	if (gr->mem + p->w->memory_bytes > gpu_bytes(g) || comp > pl->target)
		return 0;
	if (gr->no_ts || p->no_ts)
		return mps_fits(pl, g, gr, r, gr->n + 1);
	return 1;
}

typedef struct sortkey {
	int64_t size;
	int r;
} sortkey;

static int by_size_desc(const void *a, const void *b)
{
	const sortkey *x = a, *y = b;
	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return x->r - y->r;
}

static int64_t rep_size(const gs_planner *pl, int r, const gs_gpu *g)
{
	int64_t mem = pl->reps[r].w->memory_bytes * GS_PPM / gpu_bytes(g);
	int64_t comp = gs_rep_comp(pl, r, g) * GS_PPM / pl->target;
	return mem > comp ? mem : comp;
}

static void groups_free(gs_group *gs, int n)
{
	for (int i = 0; i < n; i++)
		free(gs[i].reps);
	free(gs);
}

/* ---- exact packing for small groups ------------------------------------- */

/* Branch and bound over "which group does each replica join", for one
 * tenant's replicas on one model. FFD can land well above the optimum on
 * small fleets (three 30% and two 20% jobs: FFD needs one GPU more); this
 * finds the optimum within a step budget, or keeps FFD's answer. */
#define EXACT_MAX_REPLICAS 24
#define EXACT_MAX_STEPS 50000L

typedef struct bb {
	const gs_planner *pl;
	const gs_gpu *g;
	const int *items;  /* replicas, biggest first */
	int n;
	gs_group *bins;
	int nb;
	int *assign, *best;
	int best_nb, lb;
	long steps;
} bb;

static void bb_put(bb *b, int j, int r, int add)
{
	gs_group *gr = &b->bins[j];
	int64_t mem = b->pl->reps[r].w->memory_bytes, comp = gs_rep_comp(b->pl, r, b->g);
	if (add) {
		gr->reps[gr->n++] = r;
		gr->mem += mem;
		gr->comp += comp;
	} else {
		gr->n--;
		gr->mem -= mem;
		gr->comp -= comp;
	}
	gr->no_ts = 0;
	for (int k = 0; k < gr->n; k++)
		gr->no_ts |= b->pl->reps[gr->reps[k]].no_ts;
}

static void bb_search(bb *b, int i)
{
	int r;
	if (++b->steps > EXACT_MAX_STEPS || b->best_nb <= b->lb)
		return;
	if (i == b->n) {
		if (b->nb < b->best_nb) {
			b->best_nb = b->nb;
			memcpy(b->best, b->assign, (size_t)b->n * sizeof *b->best);
		}
		return;
	}
	r = b->items[i];
	for (int j = 0; j < b->nb; j++) {
		int same = 0;
		/* Two groups in the same state lead to the same subtrees. */
		for (int k = 0; k < j && !same; k++)
			same = b->bins[k].n == b->bins[j].n && b->bins[k].mem == b->bins[j].mem &&
			       b->bins[k].comp == b->bins[j].comp;
		if (same || !can_join(b->pl, b->g, &b->bins[j], r))
			continue;
		bb_put(b, j, r, 1);
		b->assign[i] = j;
		bb_search(b, i + 1);
		bb_put(b, j, r, 0);
	}
	if (b->nb + 1 < b->best_nb) {
		gs_group *gr = &b->bins[b->nb++];
		gr->tenant = b->pl->reps[r].tenant;
		bb_put(b, b->nb - 1, r, 1);
		b->assign[i] = b->nb - 1;
		bb_search(b, i + 1);
		bb_put(b, b->nb - 1, r, 0);
		b->nb--;
	}
}

/* A bound no packing can beat: memory, and compute where replicas over
 * the target must be alone. */
static int lower_bound(const gs_planner *pl, const gs_gpu *g, const int *items, int n)
{
	int64_t mem = 0, comp = 0;
	int alone = 0, lb_mem, lb_comp;
	for (int i = 0; i < n; i++) {
		int64_t c = gs_rep_comp(pl, items[i], g);
		mem += pl->reps[items[i]].w->memory_bytes;
		if (c > pl->target)
			alone++;
		else
			comp += c;
	}
	lb_mem = (int)gs_div_ceil(mem, gpu_bytes(g));
	lb_comp = alone + (int)gs_div_ceil(comp, pl->target);
	return lb_mem > lb_comp ? lb_mem : lb_comp;
}

/* Replaces tenant t's groups by an exact packing when that needs fewer. */
static int exact_tenant(const gs_planner *pl, const gs_gpu *g, gs_group **gsp, int *ngp, int t)
{
	gs_group *gs = *gsp;
	int n = 0, ffd = 0, rc = 0, w = 0;
	int items[EXACT_MAX_REPLICAS], assign[EXACT_MAX_REPLICAS], best[EXACT_MAX_REPLICAS];
	gs_group bins[EXACT_MAX_REPLICAS];
	int store[EXACT_MAX_REPLICAS][EXACT_MAX_REPLICAS];
	bb b;

	for (int j = 0; j < *ngp; j++) {
		if (gs[j].tenant != t)
			continue;
		ffd++;
		for (int k = 0; k < gs[j].n; k++) {
			if (n == EXACT_MAX_REPLICAS)
				return 0;
			items[n++] = gs[j].reps[k];
		}
	}
	/* FFD order already put big replicas first within each group; sort
	 * the whole tenant so the search places big ones first. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && rep_size(pl, items[j], g) > rep_size(pl, items[j - 1], g); j--) {
			int x = items[j];
			items[j] = items[j - 1];
			items[j - 1] = x;
		}
	memset(&b, 0, sizeof b);
	memset(bins, 0, sizeof bins);
	for (int j = 0; j < EXACT_MAX_REPLICAS; j++)
		bins[j].reps = store[j];
	b.pl = pl;
	b.g = g;
	b.items = items;
	b.n = n;
	b.bins = bins;
	b.assign = assign;
	b.best = best;
	b.best_nb = ffd;
	b.lb = lower_bound(pl, g, items, n);
	if (ffd <= b.lb)
		return 0;
	bb_search(&b, 0);
	if (b.best_nb >= ffd)
		return 0;
	/* Drop the tenant's FFD groups, then append the exact ones. */
	for (int j = 0; j < *ngp; j++) {
		if (gs[j].tenant == t) {
			free(gs[j].reps);
			continue;
		}
		gs[w++] = gs[j];
	}
	for (int k = 0; k < b.best_nb && rc == 0; k++) {
		gs_group *gr = &gs[w++];
		memset(gr, 0, sizeof *gr);
		gr->tenant = t;
		for (int i = 0; i < n && rc == 0; i++) {
			if (best[i] != k)
				continue;
			rc = group_add(gr, items[i]);
			gr->mem += pl->reps[items[i]].w->memory_bytes;
			gr->comp += gs_rep_comp(pl, items[i], g);
			gr->no_ts |= pl->reps[items[i]].no_ts;
		}
	}
	*ngp = w;
	return rc;
}

/* Each tenant's open groups, so first-fit looks only at groups a replica
 * may join: with many tenants, a window over all groups would rarely hold
 * one of the replica's own. */
typedef struct tenant_groups {
	int *idx;
	int n, cap;
} tenant_groups;

static int tg_add(tenant_groups *t, int g)
{
	if (t->n == t->cap) {
		int ncap = t->cap ? t->cap * 2 : 8;
		int *p = realloc(t->idx, (size_t)ncap * sizeof *p);
		if (!p)
			return -1;
		t->idx = p;
		t->cap = ncap;
	}
	t->idx[t->n++] = g;
	return 0;
}

/* First-fit-decreasing of the shareable replicas into one-tenant groups. */
static int pack_shared(const gs_planner *pl, const gs_gpu *g, const int *reps,
                       int n, gs_group **out, int *nout)
{
	sortkey *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
	tenant_groups *tg = calloc((size_t)(pl->ntenants ? pl->ntenants : 1), sizeof *tg);
	gs_group *gs = NULL;
	size_t cap = 0;
	int ng = 0, rc = 0;

	if (!keys || !tg) {
		free(keys);
		free(tg);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		keys[i].r = reps[i];
		keys[i].size = rep_size(pl, reps[i], g);
	}
	qsort(keys, (size_t)n, sizeof *keys, by_size_desc);
	for (int i = 0; i < n && rc == 0; i++) {
		int r = keys[i].r, placed = 0;
		tenant_groups *t = &tg[pl->reps[r].tenant];
		for (int k = t->n - 1; k >= 0 && k >= t->n - FIT_WINDOW && !placed; k--) {
			int j = t->idx[k];
			if (!can_join(pl, g, &gs[j], r))
				continue;
			rc = group_add(&gs[j], r);
			gs[j].mem += pl->reps[r].w->memory_bytes;
			gs[j].comp += gs_rep_comp(pl, r, g);
			gs[j].no_ts |= pl->reps[r].no_ts;
			placed = 1;
		}
		if (placed)
			continue;
		if (gs_grow(&gs, &cap, (size_t)ng + 1, sizeof *gs) < 0) {
			rc = -1;
			break;
		}
		memset(&gs[ng], 0, sizeof gs[ng]);
		gs[ng].tenant = pl->reps[r].tenant;
		gs[ng].mem = pl->reps[r].w->memory_bytes;
		gs[ng].comp = gs_rep_comp(pl, r, g);
		gs[ng].no_ts = pl->reps[r].no_ts;
		rc = group_add(&gs[ng], r);
		if (rc == 0)
			rc = tg_add(t, ng);
		ng++;
	}
	for (int k = 0; k < pl->ntenants; k++)
		free(tg[k].idx);
	free(tg);
	free(keys);
	/* Small tenants get the exact packing. exact_tenant reorders the
	 * groups, so collect the tenants first. */
	{
		int *tenants = malloc((size_t)(ng ? ng : 1) * sizeof *tenants), nt = 0;
		if (!tenants)
			rc = -1;
		for (int j = 0; tenants && j < ng; j++) {
			int seen = 0;
			for (int k = 0; k < nt && !seen; k++)
				seen = tenants[k] == gs[j].tenant;
			if (!seen)
				tenants[nt++] = gs[j].tenant;
		}
		for (int k = 0; k < nt && rc == 0; k++)
			rc = exact_tenant(pl, g, &gs, &ng, tenants[k]);
		free(tenants);
	}
	if (rc < 0) {
		groups_free(gs, ng);
		return -1;
	}
	*out = gs;
	*nout = ng;
	return 0;
}

/* The smallest base MIG profile that holds the group (fewest slots, then
 * fewest compute slices); NULL if none below the whole GPU does. */
static const gs_mig_profile *mig_profile_for(const gs_planner *pl, const gs_gpu *g,
                                             const gs_group *gr)
{
	const gs_mig_profile *best = NULL;
	if (pl->no_mig || !g->mig_slots || (gr->n > 1 && gr->no_ts))
		return NULL;
	for (size_t i = 0; i < g->n_mig_profiles; i++) {
		const gs_mig_profile *p = &g->mig_profiles[i];
		int64_t share = (int64_t)p->sm_count * GS_PPM / g->sm_count;
		int64_t cap = gr->n > 1 ? share * pl->target / GS_PPM : share;
		if (p->variant || p->compute_slices >= g->mig_compute_slices)
			continue;
		if (gr->mem > (p->memory_mib << 20) || gr->comp > cap)
			continue;
		if (!best || p->memory_slices < best->memory_slices ||
		    (p->memory_slices == best->memory_slices &&
		     p->compute_slices < best->compute_slices))
			best = p;
	}
	return best;
}

static int gs_pgpu_add_group(gs_pgpu *pg, const gs_group *gr)
{
	if (pg->ng == pg->capg) {
		int ncap = pg->capg ? pg->capg * 2 : 2;
		gs_group *p = realloc(pg->g, (size_t)ncap * sizeof *p);
		if (!p)
			return -1;
		pg->g = p;
		pg->capg = ncap;
	}
	pg->g[pg->ng] = *gr;
	if (gr->n) {
		pg->g[pg->ng].reps = malloc((size_t)gr->n * sizeof(int));
		if (!pg->g[pg->ng].reps)
			return -1;
		memcpy(pg->g[pg->ng].reps, gr->reps, (size_t)gr->n * sizeof(int));
		pg->g[pg->ng].cap = gr->n;
	}
	pg->ng++;
	return 0;
}

static gs_pgpu *pack_new_gpu(gs_pack *pk, const gs_gpu *g, gs_strategy kind)
{
	if (pk->n == pk->cap) {
		int ncap = pk->cap ? pk->cap * 2 : 8;
		gs_pgpu *p = realloc(pk->gpus, (size_t)ncap * sizeof *p);
		if (!p)
			return NULL;
		pk->gpus = p;
		pk->cap = ncap;
	}
	memset(&pk->gpus[pk->n], 0, sizeof pk->gpus[pk->n]);
	pk->gpus[pk->n].model = g;
	pk->gpus[pk->n].kind = kind;
	return &pk->gpus[pk->n++];
}

void gs_pack_free(gs_pack *p)
{
	for (int i = 0; i < p->n; i++) {
		for (int j = 0; j < p->gpus[i].ng; j++)
			free(p->gpus[i].g[j].reps);
		free(p->gpus[i].g);
	}
	free(p->gpus);
	memset(p, 0, sizeof *p);
}

/* The device plugin advertises one slot count per MIG profile and node,
 * so a GPU that time-slices an instance may hold no instance that must
 * stay alone: one fault-isolated or ruled out of time-slicing, or one
 * over the target that sharing would apply to it. Nodes keep the two
 * kinds of GPU apart (kind_key). */
static int mig_strict(const gs_planner *pl, const gs_gpu *g, const gs_group *gr)
{
	int64_t share;
	if (gr->n != 1)
		return 0;
	share = (int64_t)gr->prof->sm_count * GS_PPM / g->sm_count;
	return pl->reps[gr->reps[0]].w->isolation_fault || pl->reps[gr->reps[0]].no_ts ||
	       gr->comp > share * pl->target / GS_PPM;
}

/* Does the MIG instance fit on this GPU (geometry and spread)? */
static int mig_try(const gs_planner *pl, gs_pgpu *pg, const gs_group *gr)
{
	const gs_mig_profile *items[32];
	int starts[32];
	int strict = mig_strict(pl, pg->model, gr);
	if (pg->ng >= 31)
		return 0;
	for (int i = 0; i < pg->ng; i++) {
		if ((gr->n > 1 && pg->g[i].strict) || (strict && pg->mig_ts))
			return 0;
		/* Time-sliced instances of a profile are one pool per node under
		 * the device plugin: such a GPU holds one tenant. */
		if (!pl->via_dra && (gr->n > 1 || pg->mig_ts) && pg->g[i].tenant != gr->tenant)
			return 0;
	}
	for (int i = 0; i < pg->ng; i++) {
		items[i] = pg->g[i].prof;
		for (int k = 0; k < gr->n; k++)
			if (conflicts(pl, pg->g[i].reps, pg->g[i].n, gr->reps[k]))
				return 0;
	}
	items[pg->ng] = gr->prof;
	if (gs_mig_fit(pg->model, items, (size_t)pg->ng + 1, starts, NULL) < 0)
		return 0;
	if (gs_pgpu_add_group(pg, gr) < 0)
		return -1;
	pg->g[pg->ng - 1].strict = strict;
	pg->mig_ts |= gr->n > 1;
	for (int i = 0; i < pg->ng; i++)
		pg->g[i].start = starts[i];
	return 1;
}

static int spread_of(const gs_group *g, const gs_planner *pl)
{
	for (int i = 0; i < g->n; i++)
		if (pl->reps[g->reps[i]].w->spread != GS_SPREAD_NONE)
			return 1;
	return 0;
}

static const gs_planner *sort_pl; /* qsort has no user data in C11 */

static int by_slots_desc(const void *a, const void *b)
{
	const gs_group *x = *(const gs_group *const *)a, *y = *(const gs_group *const *)b;
	if (sort_pl) {
		int sx = spread_of(x, sort_pl), sy = spread_of(y, sort_pl);
		if (sx != sy)
			return sy - sx;
	}
	if (x->prof->memory_slices != y->prof->memory_slices)
		return y->prof->memory_slices - x->prof->memory_slices;
	if (x->prof->compute_slices != y->prof->compute_slices)
		return y->prof->compute_slices - x->prof->compute_slices;
	return x->reps[0] - y->reps[0];
}

/* Packs MIG instances onto GPUs, biggest first (or, with spread_first,
 * those whose replicas must not share a GPU first). */
static int pack_mig_order(const gs_planner *pl, const gs_gpu *g, gs_group **inst, int n,
                          gs_pack *pk, int spread_first)
{
	int first = pk->n;
	sort_pl = spread_first ? pl : NULL;
	qsort(inst, (size_t)n, sizeof *inst, by_slots_desc);
	sort_pl = NULL;
	for (int i = 0; i < n; i++) {
		int placed = 0;
		for (int j = pk->n - 1; j >= first && j >= pk->n - FIT_WINDOW && !placed; j--) {
			int rc = mig_try(pl, &pk->gpus[j], inst[i]);
			if (rc < 0)
				return -1;
			placed = rc;
		}
		if (!placed) {
			gs_pgpu *pg = pack_new_gpu(pk, g, GS_STRATEGY_MIG);
			if (!pg || mig_try(pl, pg, inst[i]) != 1)
				return -1;
		}
	}
	return 0;
}

static int pack_mig(const gs_planner *pl, const gs_gpu *g, gs_group **inst, int n, gs_pack *pk);

/* Builds the packing where the groups flagged in to_mig become MIG
 * instances; fault-isolated replicas are always MIG when they fit one. */
static int build(const gs_planner *pl, const gs_gpu *g, gs_group *shared, int ns,
                 const char *to_mig, gs_group *fault, int nf, gs_pack *pk)
{
	gs_group **inst = malloc((size_t)(ns + nf + 1) * sizeof *inst);
	int ni = 0, rc = 0;

	if (!inst)
		return -1;
	memset(pk, 0, sizeof *pk);
	for (int i = 0; i < nf && rc == 0; i++) {
		if (fault[i].prof) {
			inst[ni++] = &fault[i];
			continue;
		}
		gs_pgpu *pg = pack_new_gpu(pk, g, GS_STRATEGY_DEDICATED);
		rc = pg ? gs_pgpu_add_group(pg, &fault[i]) : -1;
	}
	for (int i = 0; i < ns && rc == 0; i++) {
		gs_pgpu *pg;
		if (to_mig && to_mig[i]) {
			inst[ni++] = &shared[i];
			continue;
		}
		pg = pack_new_gpu(pk, g, shared[i].n == 1 ? GS_STRATEGY_DEDICATED
		                         : shared[i].no_ts ? GS_STRATEGY_MPS : GS_STRATEGY_TIME_SLICING);
		if (!pg || gs_pgpu_add_group(pg, &shared[i]) < 0)
			rc = -1;
		else
			pg->k = shared[i].n;
	}
	if (rc == 0)
		rc = pack_mig(pl, g, inst, ni, pk);
	free(inst);
	if (rc < 0)
		gs_pack_free(pk);
	return rc;
}

static int count_mig(const gs_pack *pk)
{
	int n = 0;
	for (int i = 0; i < pk->n; i++)
		n += pk->gpus[i].kind == GS_STRATEGY_MIG;
	return n;
}

/* A packing's score: what it costs bought (when the planner can price
 * it), then GPUs, then MIG GPUs (less to reconfigure). */
typedef struct score {
	gs_micros cost;
	int gpus, mig;
} score;

static score score_of(const gs_planner *pl, const gs_pack *pk)
{
	score s = { 0, pk->n, count_mig(pk) };
	if (pl->cost && pl->cost(pl, pk, &s.cost) < 0)
		s.cost = INT64_MAX;
	return s;
}

static int better(score a, score b)
{
	if (a.cost != b.cost)
		return a.cost < b.cost;
	if (a.gpus != b.gpus)
		return a.gpus < b.gpus;
	return a.mig < b.mig;
}

typedef struct fillkey {
	int64_t fill;
	int i;
} fillkey;

static void pack_truncate(gs_pack *pk, int n)
{
	for (int i = n; i < pk->n; i++) {
		for (int j = 0; j < pk->gpus[i].ng; j++)
			free(pk->gpus[i].g[j].reps);
		free(pk->gpus[i].g);
	}
	pk->n = n;
}

/* Biggest-first packing strands spread replicas when big instances fill
 * GPUs that the spread ones could have shared; try both orders. */
static int pack_mig(const gs_planner *pl, const gs_gpu *g, gs_group **inst, int n, gs_pack *pk)
{
	int base = pk->n, a;
	int has_spread = 0;
	for (int i = 0; i < n; i++)
		has_spread |= spread_of(inst[i], pl);
	if (pack_mig_order(pl, g, inst, n, pk, 0) < 0)
		return -1;
	if (!has_spread)
		return 0;
	a = pk->n;
	if (pack_mig_order(pl, g, inst, n, pk, 1) < 0)
		return -1;
	if (pk->n - a < a - base) {
		/* Keep the second: move it down over the first. */
		for (int i = base; i < a; i++) {
			for (int j = 0; j < pk->gpus[i].ng; j++)
				free(pk->gpus[i].g[j].reps);
			free(pk->gpus[i].g);
		}
		memmove(&pk->gpus[base], &pk->gpus[a], (size_t)(pk->n - a) * sizeof *pk->gpus);
		pk->n = base + (pk->n - a);
	} else {
		pack_truncate(pk, a);
	}
	return 0;
}

static int by_fill_asc(const void *a, const void *b)
{
	const fillkey *x = a, *y = b;
	if (x->fill != y->fill)
		return x->fill < y->fill ? -1 : 1;
	return x->i - y->i;
}

/* Tries moving the least-filled movable groups into MIG one more at a
 * time, keeping the best packing seen. */
static int choose_mig(const gs_planner *pl, const gs_gpu *g, gs_group *shared, int ns,
                      gs_group *fault, int nf, gs_pack *best, score *best_score)
{
	char *to_mig = calloc((size_t)(ns ? ns : 1), 1);
	fillkey *order = malloc((size_t)(ns ? ns : 1) * sizeof *order);
	int nmov = 0, rc = 0;

	if (!to_mig || !order) {
		free(to_mig);
		free(order);
		return -1;
	}
	for (int i = 0; i < ns; i++) {
		shared[i].prof = mig_profile_for(pl, g, &shared[i]);
		if (!shared[i].prof)
			continue;
		order[nmov].i = i;
		order[nmov].fill = shared[i].prof->memory_slices;
		nmov++;
	}
	qsort(order, (size_t)nmov, sizeof *order, by_fill_asc);
	/* Moving the k least-filled groups, for k = 1, 2, 4, ... and all:
	 * a handful of rebuilds instead of one per group. */
	for (int k = 1; k <= nmov && rc == 0; k = k == nmov ? nmov + 1 : (k * 2 > nmov ? nmov : k * 2)) {
		gs_pack cand;
		for (int j = 0; j < k; j++)
			to_mig[order[j].i] = 1;
		if ((rc = build(pl, g, shared, ns, to_mig, fault, nf, &cand)) < 0)
			break;
		score sc = score_of(pl, &cand);
		if (better(sc, *best_score)) {
			gs_pack_free(best);
			*best = cand;
			*best_score = sc;
		} else {
			gs_pack_free(&cand);
		}
	}
	free(to_mig);
	free(order);
	return rc;
}

/* The groups again, with every time-sliced group whose replicas each fit
 * a MIG slice split into one group per replica: separate slices let
 * tenants share a GPU where one time-sliced pool per node cannot. */
static int split_groups(const gs_planner *pl, const gs_gpu *g, const gs_group *in, int n,
                        gs_group **out, int *nout)
{
	int total = 0, k = 0;
	gs_group *v;
	for (int i = 0; i < n; i++)
		total += in[i].n;
	if (!(v = calloc((size_t)(total ? total : 1), sizeof *v)))
		return -1;
	for (int i = 0; i < n; i++) {
		int split = in[i].n > 1;
		for (int r = 0; split && r < in[i].n; r++) {
			gs_group one = { 0 };
			int x = in[i].reps[r];
			one.tenant = in[i].tenant;
			one.n = 1;
			one.reps = &x;
			one.mem = pl->reps[x].w->memory_bytes;
			one.comp = gs_rep_comp(pl, x, g);
			split = mig_profile_for(pl, g, &one) != NULL;
		}
		for (int r = 0; r < (split ? in[i].n : 1); r++) {
			gs_group *d = &v[k++];
			*d = in[i];
			d->cap = d->n = split ? 1 : in[i].n;
			if (!(d->reps = malloc((size_t)d->n * sizeof *d->reps))) {
				groups_free(v, k);
				return -1;
			}
			if (split) {
				d->reps[0] = in[i].reps[r];
				d->mem = pl->reps[d->reps[0]].w->memory_bytes;
				d->comp = gs_rep_comp(pl, d->reps[0], g);
				d->no_ts = pl->reps[d->reps[0]].no_ts;
			} else {
				memcpy(d->reps, in[i].reps, (size_t)d->n * sizeof *d->reps);
			}
		}
	}
	*out = v;
	*nout = k;
	return 0;
}

int gs_pack_model(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
               gs_pack *out)
{
	int *sh = malloc((size_t)(n ? n : 1) * sizeof *sh);
	gs_group *shared = NULL, *fault = NULL;
	int ns = 0, nsh = 0, nf = 0, rc = -1;

	if (!sh || !(fault = calloc((size_t)(n ? n : 1), sizeof *fault)))
		goto done;
	for (int i = 0; i < n; i++) {
		if (!pl->reps[reps[i]].w->isolation_fault) {
			sh[nsh++] = reps[i];
			continue;
		}
		gs_group *f = &fault[nf++];
		f->tenant = pl->reps[reps[i]].tenant;
		f->mem = pl->reps[reps[i]].w->memory_bytes;
		f->comp = gs_rep_comp(pl, reps[i], g);
		if (group_add(f, reps[i]) < 0)
			goto done;
		f->prof = mig_profile_for(pl, g, f);
	}
	if (pack_shared(pl, g, sh, nsh, &shared, &ns) < 0)
		goto done;
	if (build(pl, g, shared, ns, NULL, fault, nf, out) < 0)
		goto done;
	rc = 0;
	if (g->mig_slots && !pl->no_mig) {
		score best = score_of(pl, out);
		gs_group *split = NULL;
		int nsplit = 0;
		rc = choose_mig(pl, g, shared, ns, fault, nf, out, &best);
		if (rc == 0 && (rc = split_groups(pl, g, shared, ns, &split, &nsplit)) == 0) {
			if (nsplit != ns)
				rc = choose_mig(pl, g, split, nsplit, fault, nf, out, &best);
			groups_free(split, nsplit);
		}
	}
	if (rc < 0)
		gs_pack_free(out);
done:
	if (shared)
		groups_free(shared, ns);
	if (fault)
		groups_free(fault, nf);
	free(sh);
	return rc;
}
