/*
 * refill_spots.c - the refill's whole GPUs (refill.h): which may give and
 * take replicas, the room they have, their lists fullest first, and the
 * joins made and undone. refill.c and refill_whole.c move replicas with
 * them; this file calls neither.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/radix.h"
#include "plan/refill.h"
#include "scenario/scenario.h"

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
static void room(gs_filler *f, int s)
{
	const gs_pgpu *pg = gs_spot_gpu(f, s);
	const gs_group *gr = &pg->g[0];
	int64_t cap = gs_gpu_bytes(pg->model);
	if (!gr->no_ts && f->pl->frac_ts == GS_BACKEND_NONE)
		cap = gs_memory_offer(pg->model, NULL, GS_STRATEGY_TIME_SLICING, gr->headroom);
	f->v[s].free_mem = cap - gr->mem;
	f->v[s].free_comp = f->pl->target - gr->comp;
	f->v[s].mps_full = 0;
	gs_room_set(f, s);
}

static int64_t fill_of(const gs_planner *pl, const gs_pgpu *pg)
{
	const gs_group *gr = &pg->g[0];
	int64_t mem = gr->mem * GS_PPM / gs_gpu_bytes(pg->model);
	int64_t comp = gr->comp * GS_PPM / pl->target;
	return mem > comp ? mem : comp;
}

/* Which of the lists spot s is in: its tenant's (and model's). */
static size_t list_of(const gs_filler *f, int s)
{
	size_t t = (size_t)f->v[s].tenant;
	return f->by_model ? t * (size_t)f->pl->nmodels + (size_t)f->v[s].m : t;
}

int gs_spots_init(gs_filler *f)
{
	const gs_planner *pl = f->pl;
	int total = 0;
	gs_keyed *k, *tmp;
	gs_spot *sorted;
	for (int m = 0; m < f->b->npacks; m++)
		total += f->b->packs[m].n;
	f->v = calloc((size_t)total + 1, sizeof *f->v);
	sorted = malloc(((size_t)total + 1) * sizeof *sorted);
	f->lists = (size_t)pl->ntenants * (size_t)(f->by_model ? pl->nmodels : 1);
	f->at = calloc(f->lists + 2, sizeof *f->at);
	k = malloc(((size_t)total + 1) * sizeof *k);
	tmp = malloc(((size_t)total + 1) * sizeof *tmp);
	if (!f->v || !sorted || !f->at || !k || !tmp) {
		free(sorted);
		free(k);
		free(tmp);
		return -1;
	}
	for (int m = 0; m < f->b->npacks; m++)
		for (int i = 0; i < f->b->packs[m].n; i++) {
			const gs_pgpu *pg = &f->b->packs[m].gpus[i];
			if (!movable(pl, pg))
				continue;
			f->v[f->n] = (gs_spot){ m, i, fill_of(pl, pg), pg->g[0].tenant,
				                0, 0, 0, 0, 0 };
			room(f, f->n);
			/* By tenant (and model), fullest first; the sort keeps
			 * packing order. */
			k[f->n].key = (uint64_t)list_of(f, f->n) << 32 |
			              (UINT32_MAX - (uint32_t)f->v[f->n].fill);
			k[f->n].val = (size_t)f->n;
			f->n++;
		}
	gs_radix_sort(k, tmp, (size_t)f->n);
	/* The spots themselves in that order, so that a scan reads them one
	 * after another. */
	for (int j = 0; j < f->n; j++) {
		sorted[j] = f->v[k[j].val];
		f->at[list_of(f, (int)k[j].val) + 1]++;
	}
	for (size_t l = 0; l <= f->lists; l++)
		f->at[l + 1] += f->at[l];
	free(f->v);
	f->v = sorted;
	free(k);
	free(tmp);
	return gs_room_init(f);
}

void gs_spot_set_gone(gs_filler *f, int s, int gone)
{
	f->v[s].gone = gone;
	gs_room_set(f, s);
}

void gs_spot_put_back(gs_filler *f, int from)
{
	for (int j = f->nlog - 1; j >= from; j--) {
		const gs_spot_saved *sv = &f->log[j];
		gs_group *gr = &gs_spot_gpu(f, sv->s)->g[0];
		gr->n = sv->n;
		gr->no_ts = sv->no_ts;
		gr->mem = sv->mem;
		gr->comp = sv->comp;
		gr->headroom = sv->headroom;
		room(f, sv->s);
	}
	f->nlog = from;
}

int gs_spot_join(gs_filler *f, int s, int r)
{
	gs_pgpu *pg = gs_spot_gpu(f, s);
	gs_group *gr = &pg->g[0];
	if (gs_grow(&f->log, &f->caplog, (size_t)f->nlog + 1, sizeof *f->log) < 0)
		return -1;
	f->log[f->nlog++] = (gs_spot_saved){ s, gr->n, gr->no_ts, gr->mem, gr->comp, gr->headroom };
	if (gs_group_join(f->pl, pg->model, gr, r) < 0)
		return -1;
	room(f, s);
	return 0;
}

/* Whether r may join spot s's group. A group that MPS refused for what
 * it holds refuses the next replica MPS would seat without asking: with
 * one tenant of 10^6 replicas, pinned, MPS's checks of each member were
 * a tenth of the plan, most of them here. The check is counted all the
 * same, so the refill's budget runs out where it did. */
static int joins(gs_filler *f, int s, const gs_pgpu *pg, int r)
{
	gs_rule_figs fig = { 0, 0, 0, -1, NULL };
	gs_rule v;
	if (f->v[s].mps_full && (pg->g[0].no_ts || f->pl->reps[r].no_ts))
		return 0;
	v = gs_join_rule(f->pl, pg->model, &pg->g[0], r, &fig);
	if (v != GS_RULE_OK && gs_rule_refuses_mps(f->pl, v, &fig, r))
		f->v[s].mps_full = 1;
	return v == GS_RULE_OK;
}

/* The first spot of list l from which r may join, fullest first; -1.
 * A look is a spot the tree leads to, and with f->look_past one it
 * passes over too, as if the tree were not there (refill.c says where). */
static int host_in(gs_filler *f, size_t l, int r, uint64_t may, const int64_t *comp,
                   int64_t least)
{
	const gs_planner *pl = f->pl;
	int64_t mem = pl->reps[r].w->memory_bytes;
	int s = f->at[l], end = f->at[l + 1];
	while (s < end && f->checks > 0 && f->scans > 0) {
		int next = gs_room_next(f, s, end, mem, least);
		const gs_spot *sp;
		gs_pgpu *pg;
		if (f->look_past) {
			if (next - s >= f->scans) {
				f->scans = 0;
				break;
			}
			f->scans -= next - s;
		}
		if (next == end)
			break;
		f->scans--;
		s = next + 1;
		sp = &f->v[next];
		/* The sums first: most GPUs have not the room. */
		if (sp->gone || !(may >> sp->m & 1) || mem > sp->free_mem ||
		    comp[sp->m] > sp->free_comp)
			continue;
		pg = gs_spot_gpu(f, next);
		f->checks--;
		if (joins(f, next, pg, r))
			return next;
	}
	return -1;
}

int gs_spot_host(gs_filler *f, int r, uint64_t only)
{
	const gs_planner *pl = f->pl;
	size_t t = (size_t)pl->reps[r].tenant;
	int64_t comp[GS_MAX_MODELS], least = INT64_MAX;
	uint64_t may = 0;
	int wi = pl->reps[r].wi, s = -1;
	for (int k = 0; k < f->c->ncand[wi]; k++)
		may |= UINT64_C(1) << f->c->cands[wi][k];
	may &= only;
	for (int m = 0; m < pl->nmodels; m++) {
		comp[m] = gs_rep_comp(pl, r, pl->models[m]);
		if (may >> m & 1 && comp[m] < least)
			least = comp[m];
	}
	if (!f->by_model)
		return host_in(f, t, r, may, comp, least);
	for (int m = 0; s < 0 && m < pl->nmodels; m++)
		if (may >> m & 1)
			s = host_in(f, t * (size_t)pl->nmodels + (size_t)m, r, may, comp, comp[m]);
	return s;
}

