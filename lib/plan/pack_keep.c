/*
 * pack_keep.c - a packing as words and back (pack.h), for the memo: the
 * local search over models keeps the packings of the choice it settles
 * on, which the plan then builds (plan_build.c) without packing them
 * again. The words hold every field, so the packing read back is the one
 * saved.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/pack.h"

static int put(gs_words *w, const int64_t *x, size_t n)
{
	if (gs_grow(&w->v, &w->cap, w->n + n, sizeof *w->v) < 0)
		return -1;
	memcpy(w->v + w->n, x, n * sizeof *x);
	w->n += n;
	return 0;
}

static int save_group(const gs_group *gr, gs_words *out)
{
	int64_t f[9] = { gr->tenant, gr->mem, gr->comp, gr->n, gr->no_ts,
		         (int64_t)(intptr_t)gr->prof, gr->start, gr->strict, gr->headroom };
	/* (A group without replicas shares its caller's array: not kept.) */
	if (gr->n <= 0 || put(out, f, 9) < 0)
		return -1;
	for (int k = 0; k < gr->n; k++) {
		int64_t r = gr->reps[k];
		if (put(out, &r, 1) < 0)
			return -1;
	}
	return 0;
}

int gs_pack_save(const gs_pack *pk, gs_words *out)
{
	int64_t n = pk->n;
	if (put(out, &n, 1) < 0)
		return -1;
	for (int i = 0; i < pk->n; i++) {
		const gs_pgpu *pg = &pk->gpus[i];
		int64_t f[6] = { (int64_t)(intptr_t)pg->model, pg->strategy, pg->k, pg->mig_ts,
			         pg->span, pg->ng };
		if (put(out, f, 6) < 0)
			return -1;
		for (int j = 0; j < pg->ng; j++)
			if (save_group(&pg->g[j], out) < 0)
				return -1;
	}
	return 0;
}

static size_t load_group(const int64_t *v, size_t at, gs_group *gr)
{
	gr->tenant = (int)v[at];
	gr->mem = v[at + 1];
	gr->comp = v[at + 2];
	gr->n = gr->cap = (int)v[at + 3];
	gr->no_ts = (int)v[at + 4];
	gr->prof = (const gs_mig_profile *)(intptr_t)v[at + 5];
	gr->start = (int)v[at + 6];
	gr->strict = (int)v[at + 7];
	gr->headroom = v[at + 8];
	at += 9;
	if (!(gr->reps = malloc((size_t)gr->n * sizeof *gr->reps)))
		return 0;
	for (int k = 0; k < gr->n; k++)
		gr->reps[k] = (int)v[at++];
	return at;
}

int gs_pack_load(const int64_t *v, gs_pack *pk)
{
	size_t at = 1;
	int n = (int)v[0];
	memset(pk, 0, sizeof *pk);
	if (!(pk->gpus = calloc((size_t)(n ? n : 1), sizeof *pk->gpus)))
		return -1;
	pk->cap = n;
	for (int i = 0; i < n; i++) {
		gs_pgpu *pg = &pk->gpus[pk->n++];
		int ng = (int)v[at + 5];
		pg->model = (const gs_gpu *)(intptr_t)v[at];
		pg->strategy = (gs_strategy)v[at + 1];
		pg->k = (int)v[at + 2];
		pg->mig_ts = (int)v[at + 3];
		pg->span = (int)v[at + 4];
		at += 6;
		if (!(pg->g = calloc((size_t)(ng ? ng : 1), sizeof *pg->g))) {
			gs_pack_release(pk);
			return -1;
		}
		pg->capg = ng;
		for (int j = 0; j < ng; j++)
			if ((at = load_group(v, at, &pg->g[pg->ng++])) == 0) {
				gs_pack_release(pk);
				return -1;
			}
	}
	return 0;
}
