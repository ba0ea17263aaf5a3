/*
 * pack_gpu.c - a packing's data: adding a GPU to a packing, adding a group
 * to a GPU, and freeing groups and packings.
 *
 * A leaf: the packers (pack.c, pack_share.c, pack_mig.c) and the plan
 * without sharing (plan_build.c) build their packings here, and this file
 * calls none of them back.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/pack.h"

gs_pgpu *gs_pack_add_gpu(gs_pack *pk, const gs_gpu *g, gs_strategy st)
{
	gs_pgpu *pg;
	gs_group *kept = NULL;
	int capg = 0;
	if (pk->n == pk->cap) {
		int ncap = pk->cap ? pk->cap * 2 : 8;
		gs_pgpu *p = realloc(pk->gpus, (size_t)ncap * sizeof *p);
		if (!p)
			return NULL;
		pk->gpus = p;
		pk->cap = ncap;
	}
	pg = &pk->gpus[pk->n];
	/* A reset packing's GPU keeps its array of groups. */
	if (pk->n < pk->live) {
		kept = pg->g;
		capg = pg->capg;
	}
	memset(pg, 0, sizeof *pg);
	pg->g = kept;
	pg->capg = capg;
	pg->model = g;
	pg->strategy = st;
	pk->n++;
	return pg;
}

/* Room for one more group on pg; -1 when out of memory. */
static int room_for_group(gs_pgpu *pg)
{
	if (pg->ng == pg->capg) {
		/* A whole GPU holds one group; a MIG GPU up to 7 instances,
		 * which would otherwise grow the array three times. */
		int ncap = pg->capg ? pg->capg * 2 : pg->strategy == GS_STRATEGY_MIG ? 8 : 1;
		gs_group *p = realloc(pg->g, (size_t)ncap * sizeof *p);
		if (!p)
			return -1;
		pg->g = p;
		pg->capg = ncap;
	}
	return 0;
}

/* A copy of n replicas into *to (NULL for none), its cap n; -1 when out
 * of memory. */
static int own_reps(gs_group *to, const int *reps, int n)
{
	to->reps = NULL;
	to->cap = 0;
	if (!n)
		return 0;
	if (!(to->reps = malloc((size_t)n * sizeof(int))))
		return -1;
	memcpy(to->reps, reps, (size_t)n * sizeof(int));
	to->cap = n;
	return 0;
}

int gs_pgpu_add_group(gs_pgpu *pg, const gs_group *gr)
{
	if (room_for_group(pg) < 0)
		return -1;
	pg->g[pg->ng] = *gr;
	if (own_reps(&pg->g[pg->ng], gr->reps, gr->n) < 0)
		return -1;
	pg->ng++;
	return 0;
}

/* The trial packings of pack.c's MIG choice took two allocations per
 * GPU and freed them again, a third of the bench's 10,000-replica plan
 * and re-plan in malloc and free: a lent group takes none. */
int gs_pgpu_lend_group(gs_pgpu *pg, const gs_group *gr)
{
	if (room_for_group(pg) < 0)
		return -1;
	pg->g[pg->ng] = *gr;
	pg->g[pg->ng].cap = -1;
	pg->ng++;
	return 0;
}

int gs_pack_add_group(const gs_pack *pk, gs_pgpu *pg, const gs_group *gr)
{
	return pk->lends ? gs_pgpu_lend_group(pg, gr) : gs_pgpu_add_group(pg, gr);
}

int gs_pack_own(gs_pack *pk)
{
	gs_pack_trim(pk);
	for (int i = 0; i < pk->n; i++)
		for (int j = 0; j < pk->gpus[i].ng; j++) {
			gs_group *gr = &pk->gpus[i].g[j];
			if (gr->cap < 0 && own_reps(gr, gr->reps, gr->n) < 0)
				return -1;
		}
	pk->lends = 0;
	return 0;
}

/* The trial packings of the MIG choice (pack.c) were each allocated
 * anew, an array of groups per GPU, and freed again: a reset packing is
 * the next trial's, with its arrays. */
void gs_pack_reset(gs_pack *pk)
{
	for (int i = 0; i < pk->n; i++)
		for (int j = 0; j < pk->gpus[i].ng; j++)
			if (pk->gpus[i].g[j].cap >= 0)
				free(pk->gpus[i].g[j].reps);
	if (pk->n > pk->live)
		pk->live = pk->n;
	pk->n = 0;
}

void gs_pack_trim(gs_pack *pk)
{
	for (int i = pk->n; i < pk->live; i++)
		free(pk->gpus[i].g);
	pk->live = 0;
}

void gs_groups_free(gs_group *gs, int n)
{
	for (int i = 0; i < n; i++)
		free(gs[i].reps);
	free(gs);
}

void gs_pack_release(gs_pack *p)
{
	gs_pack_trim(p);
	for (int i = 0; i < p->n; i++) {
		for (int j = 0; j < p->gpus[i].ng; j++)
			if (p->gpus[i].g[j].cap >= 0)
				free(p->gpus[i].g[j].reps);
		free(p->gpus[i].g);
	}
	free(p->gpus);
	memset(p, 0, sizeof *p);
}

/* The fraction backend a group of these replicas would use: MPS where
 * time-slicing is ruled out (HAMi and DRA time-slice compute), else the
 * file's first; NONE when the file names none. Here, in the leaf, since
 * the packers and the robust rules both ask it. */
gs_backend gs_frac_backend(const gs_planner *pl, int no_ts)
{
	return no_ts ? pl->frac_mps : pl->frac_ts;
}

gs_backend gs_pgpu_backend(const gs_planner *pl, const gs_pgpu *pg)
{
	if (pg->strategy != GS_STRATEGY_FRACTION || pg->ng < 1)
		return GS_BACKEND_NONE;
	return gs_frac_backend(pl, pg->g[0].no_ts);
}
