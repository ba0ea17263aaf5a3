/*
 * refill.c - a repair after packing, under pinned placement: whole GPUs
 * are emptied, least filled first, into the room other whole GPUs of their
 * tenant have left, on any model (a replica's compute converts to the GPU
 * it joins).
 *
 * Packing goes model by model, with each workload's replicas on one
 * model: a GPU that one large replica holds alone keeps its room while
 * the tenant's small replicas fill GPUs of a cheaper model. Pinned copies
 * each name a node, so a workload may end up on two models. Robust
 * placement keeps a workload to one model and one request
 * (gs_built_one_request) and is not refilled.
 *
 * Every move asks the packer's own rule (gs_can_join: tenant, spread,
 * memory under headroom, the target, MPS's split, fractions, the node's
 * CPU and RAM); the GPUs are then bought again and the result kept only
 * when it costs less.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"
#include "plan/radix.h"
#include "scenario/scenario.h"

/* The rule checks one refill may make, per replica of the fleet (at
 * least CHECKS_LEAST), and the GPUs it may look at per check: each
 * replica of a GPU being emptied scans its tenant's. On fleet.py's mixed
 * fleet of 100,000 replicas, pinned, it emptied 13,015 GPUs in 45 million
 * looks, 9 % of the plan's instructions, for 12 % off its cost; 8 looks a
 * check ran out at 8,390. */
#define CHECKS_PER_REPLICA 32
#define CHECKS_LEAST 200000L
#define SCANS_PER_CHECK 16

/* A whole GPU of the packing, as the refill sees it. */
typedef struct spot {
	int m, i;      /* b->packs[m].gpus[i] */
	int64_t fill;  /* the larger of its memory and compute shares, ppm
	                * (below 2^32: shares of one GPU) */
	int tenant;
	int gone;      /* emptied */
	int touched;   /* its group changed */
	/* The room its sums leave, kept here so that a scan of the tenant's
	 * GPUs reads one array: usable bytes, and ppm below the target. */
	int64_t free_mem, free_comp;
} spot;

typedef struct refill {
	const gs_planner *pl;
	const gs_choice *c; /* whose candidates say where a workload may go */
	gs_built *b;
	spot *v;
	int n;
	int *order;     /* spot indices by tenant, fullest first */
	int *at;        /* tenant t's: order[at[t] .. at[t + 1]) */
	long checks;    /* rule checks left */
	long scans;     /* GPUs looked at left */
	struct saved *log; /* the joins made, to undo */
	int nlog, caplog;
} refill;

static gs_pgpu *gpu_of(const refill *f, int s)
{
	return &f->b->packs[f->v[s].m].gpus[f->v[s].i];
}

/* A GPU whose group may give and take replicas: one group on one whole
 * GPU, none of its replicas fault-isolated or of several GPUs. */
static int movable(const gs_planner *pl, const gs_pgpu *pg)
{
	if (pg->strategy == GS_STRATEGY_MIG || pg->ng != 1 || pg->span > 1 || pg->g[0].n == 0 ||
	    pg->g[0].prof)
		return 0;
	for (int k = 0; k < pg->g[0].n; k++) {
		const gs_workload *w = pl->reps[pg->g[0].reps[k]].w;
		if (w->isolation_fault || w->gpus_per_replica > 1)
			return 0;
	}
	return 1;
}

/* Spot s's room, from its group as it stands: memory under the group's
 * headroom where it time-slices (a replica of larger headroom finds less,
 * which the rule then says). */
static void room(refill *f, int s)
{
	const gs_pgpu *pg = gpu_of(f, s);
	const gs_group *gr = &pg->g[0];
	int64_t cap = gs_gpu_bytes(pg->model);
	if (!gr->no_ts && f->pl->frac_ts == GS_BACKEND_NONE)
		cap = gs_memory_offer(pg->model, NULL, GS_STRATEGY_TIME_SLICING, gr->headroom);
	f->v[s].free_mem = cap - gr->mem;
	f->v[s].free_comp = f->pl->target - gr->comp;
}

static int64_t fill_of(const gs_planner *pl, const gs_pgpu *pg)
{
	const gs_group *gr = &pg->g[0];
	int64_t mem = gr->mem * GS_PPM / gs_gpu_bytes(pg->model);
	int64_t comp = gr->comp * GS_PPM / pl->target;
	return mem > comp ? mem : comp;
}

/* The spots, and each tenant's, fullest first; -1 when out of memory. */
static int spots(refill *f)
{
	const gs_planner *pl = f->pl;
	int total = 0, t;
	gs_keyed *k, *tmp;
	for (int m = 0; m < f->b->npacks; m++)
		total += f->b->packs[m].n;
	f->v = calloc((size_t)total + 1, sizeof *f->v);
	f->order = malloc(((size_t)total + 1) * sizeof *f->order);
	f->at = calloc((size_t)pl->ntenants + 2, sizeof *f->at);
	k = malloc(((size_t)total + 1) * sizeof *k);
	tmp = malloc(((size_t)total + 1) * sizeof *tmp);
	if (!f->v || !f->order || !f->at || !k || !tmp) {
		free(k);
		free(tmp);
		return -1;
	}
	for (int m = 0; m < f->b->npacks; m++)
		for (int i = 0; i < f->b->packs[m].n; i++) {
			const gs_pgpu *pg = &f->b->packs[m].gpus[i];
			if (!movable(pl, pg))
				continue;
			f->v[f->n] = (spot){ m, i, fill_of(pl, pg), pg->g[0].tenant, 0, 0, 0, 0 };
			room(f, f->n);
			/* By tenant, fullest first; the sort keeps packing order. */
			k[f->n].key = (uint64_t)pg->g[0].tenant << 32 |
			              (UINT32_MAX - (uint32_t)f->v[f->n].fill);
			k[f->n].val = (size_t)f->n;
			f->n++;
		}
	gs_radix_sort(k, tmp, (size_t)f->n);
	for (int j = 0; j < f->n; j++) {
		f->order[j] = (int)k[j].val;
		f->at[f->v[k[j].val].tenant + 1]++;
	}
	for (t = 0; t <= pl->ntenants; t++)
		f->at[t + 1] += f->at[t];
	free(k);
	free(tmp);
	return 0;
}

/* A group's figures before a replica joined it, to put back. */
typedef struct saved {
	int s, n, no_ts;
	int64_t mem, comp, headroom;
} saved;

/* Undoes the joins log[from..n), last first. */
static void put_back(refill *f, int from)
{
	for (int j = f->nlog - 1; j >= from; j--) {
		const saved *sv = &f->log[j];
		gs_group *gr = &gpu_of(f, sv->s)->g[0];
		gr->n = sv->n;
		gr->no_ts = sv->no_ts;
		gr->mem = sv->mem;
		gr->comp = sv->comp;
		gr->headroom = sv->headroom;
		room(f, sv->s);
	}
	f->nlog = from;
}

/* Replica r joins spot s, logged; -1 when out of memory. */
static int join(refill *f, int s, int r)
{
	gs_pgpu *pg = gpu_of(f, s);
	gs_group *gr = &pg->g[0];
	if (f->nlog == f->caplog) {
		int ncap = f->caplog ? f->caplog * 2 : 64;
		saved *p = realloc(f->log, (size_t)ncap * sizeof *p);
		if (!p)
			return -1;
		f->log = p;
		f->caplog = ncap;
	}
	f->log[f->nlog++] = (saved){ s, gr->n, gr->no_ts, gr->mem, gr->comp, gr->headroom };
	if (gs_group_join(f->pl, pg->model, gr, r) < 0)
		return -1;
	room(f, s);
	return 0;
}

/* A GPU of r's tenant but `from`, of a model its workload may use (the
 * file's gpus, instances and arch, as the choice's candidates say), that
 * r may join, fullest first; -1: none (or the checks ran out). */
static int host_for(refill *f, int from, int r)
{
	const gs_planner *pl = f->pl;
	int t = pl->reps[r].tenant;
	int64_t mem = pl->reps[r].w->memory_bytes, comp[GS_MAX_MODELS];
	uint64_t may = 0;
	int wi = pl->reps[r].wi;
	for (int k = 0; k < f->c->ncand[wi]; k++)
		may |= UINT64_C(1) << f->c->cands[wi][k];
	for (int m = 0; m < pl->nmodels; m++)
		comp[m] = gs_rep_comp(pl, r, pl->models[m]);
	for (int j = f->at[t]; j < f->at[t + 1] && f->checks > 0 && f->scans > 0; j++) {
		int s = f->order[j];
		const spot *sp = &f->v[s];
		gs_pgpu *pg;
		f->scans--;
		/* The sums first: most GPUs have not the room. */
		if (s == from || sp->gone || !(may >> sp->m & 1) || mem > sp->free_mem ||
		    comp[sp->m] > sp->free_comp)
			continue;
		pg = gpu_of(f, s);
		f->checks--;
		if (gs_can_join(pl, pg->model, &pg->g[0], r))
			return s;
	}
	return -1;
}

/* Moves every replica of spot `from` to other GPUs, or none; 1 when it
 * emptied, 0 when not, -1 when out of memory. */
static int empty_one(refill *f, int from)
{
	const gs_group *src = &gpu_of(f, from)->g[0];
	int mark = f->nlog;
	for (int k = 0; k < src->n; k++) {
		int r = src->reps[k], s = host_for(f, from, r);
		if (s < 0) {
			put_back(f, mark);
			return 0;
		}
		if (join(f, s, r) < 0)
			return -1;
	}
	for (int j = mark; j < f->nlog; j++)
		f->v[f->log[j].s].touched = 1;
	f->v[from].gone = 1;
	return 1;
}

/* Empties what it can, least filled first; how many, or -1. */
static int empty_all(refill *f)
{
	gs_keyed *k = malloc(((size_t)f->n + 1) * sizeof *k);
	gs_keyed *tmp = malloc(((size_t)f->n + 1) * sizeof *tmp);
	int emptied = 0, rc = 0;
	if (!k || !tmp) {
		free(k);
		free(tmp);
		return -1;
	}
	for (int s = 0; s < f->n; s++) {
		k[s].key = (uint64_t)f->v[s].fill;
		k[s].val = (size_t)s;
	}
	gs_radix_sort(k, tmp, (size_t)f->n);
	for (int j = 0; j < f->n && rc >= 0 && f->checks > 0 && f->scans > 0; j++)
		if ((rc = empty_one(f, (int)k[j].val)) > 0)
			emptied++;
	free(k);
	free(tmp);
	return rc < 0 ? -1 : emptied;
}

/* Each GPU's spot in packing m, or -1. */
static int *spot_index(const refill *f, int m)
{
	int *at = malloc(((size_t)f->b->packs[m].n + 1) * sizeof *at);
	if (!at)
		return NULL;
	for (int i = 0; i < f->b->packs[m].n; i++)
		at[i] = -1;
	for (int s = 0; s < f->n; s++)
		if (f->v[s].m == m)
			at[f->v[s].i] = s;
	return at;
}

/* Packing m without the emptied GPUs, the ones replicas joined shared as
 * their groups now say, in out (empty). */
static int rebuild(const refill *f, gs_shop *shops, int m, gs_pack *out)
{
	const gs_pack *pk = &f->b->packs[m];
	int *at = spot_index(f, m), rc = at ? 0 : -1;
	for (int i = 0; i < pk->n && rc == 0; i++) {
		const gs_pgpu *pg = &pk->gpus[i];
		const spot *sp = at[i] >= 0 ? &f->v[at[i]] : NULL;
		gs_pgpu *np;
		if (sp && sp->gone)
			continue;
		np = gs_pack_add_gpu(out, pg->model, pg->strategy);
		if (!np) {
			rc = -1;
			break;
		}
		np->k = pg->k;
		np->mig_ts = pg->mig_ts;
		np->span = pg->span;
		for (int j = 0; j < pg->ng && rc == 0; j++)
			rc = gs_pgpu_add_group(np, &pg->g[j]);
		if (rc == 0 && sp && sp->touched) {
			np->strategy = gs_group_share(f->pl, pg->model, &pg->g[0]);
			np->k = pg->g[0].n;
		}
	}
	free(at);
	if (rc == 0)
		rc = gs_merge_dedicated(f->pl, &shops[m], out);
	return rc;
}

/* The plan of f->b refilled, bought; in out. */
static int refilled(const refill *f, gs_shop *shops, gs_built *out)
{
	if (gs_built_init(f->pl, out) < 0)
		return -1;
	for (int m = 0; m < f->b->npacks; m++)
		if (rebuild(f, shops, m, &out->packs[m]) < 0)
			return -1;
	return gs_built_buy(f->pl, shops, out);
}

int gs_refill(const gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b)
{
	refill f;
	gs_built out;
	long least = CHECKS_PER_REPLICA * (long)pl->nreps;
	int rc;

	memset(&f, 0, sizeof f);
	memset(&out, 0, sizeof out);
	if (pl->placement != GS_PLACEMENT_PINNED)
		return 0;
	f.pl = pl;
	f.c = c;
	f.b = b;
	f.checks = least > CHECKS_LEAST ? least : CHECKS_LEAST;
	f.scans = f.checks * SCANS_PER_CHECK;
	rc = spots(&f);
	if (rc == 0)
		rc = empty_all(&f);
	if (rc > 0 && (rc = refilled(&f, shops, &out)) == 0 && out.cost < b->cost) {
		gs_built_release(b);
		*b = out;
		memset(&out, 0, sizeof out);
	} else {
		put_back(&f, 0);
	}
	gs_built_release(&out);
	free(f.v);
	free(f.order);
	free(f.at);
	free(f.log);
	return rc < 0 ? -1 : 0;
}
