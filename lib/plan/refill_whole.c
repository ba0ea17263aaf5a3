/*
 * refill_whole.c - the refill under robust placement: a workload moves as
 * a whole or not at all.
 *
 * Robust placement keeps a workload to one model and one request (its
 * pods share one template), so a single replica may not go where its
 * siblings are not. A workload whose every replica holds a whole GPU with
 * none but its own moves when all of them find room, on one other model
 * among its candidates, in GPUs of its tenant; the GPUs it leaves empty.
 * The packer's robust rule (gs_can_join) holds each joined GPU to the
 * worst case of the workloads it then admits.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/radix.h"
#include "plan/refill.h"
#include "scenario/scenario.h"

/* The workload of every replica of spot s, or -1 when it holds two. */
static int sole(const gs_filler *f, int s)
{
	const gs_group *gr = &gs_spot_gpu(f, s)->g[0];
	int wi = f->pl->reps[gr->reps[0]].wi;
	for (int k = 1; k < gr->n; k++)
		if (f->pl->reps[gr->reps[k]].wi != wi)
			return -1;
	return wi;
}

/* Each workload's spots, when they hold all its replicas and nothing
 * else: spots of workload w are list[at[w] .. at[w + 1]), empty for the
 * others. -1 when out of memory. */
typedef struct owned {
	int *at, *list;
} owned;

static int owned_of(const gs_filler *f, owned *o)
{
	size_t nw = f->pl->s->n;
	int *reps = calloc(nw + 1, sizeof *reps), *who = malloc(((size_t)f->n + 1) * sizeof *who);
	int rc = -1;
	o->at = calloc(nw + 2, sizeof *o->at);
	o->list = malloc(((size_t)f->n + 1) * sizeof *o->list);
	if (!reps || !who || !o->at || !o->list)
		goto done;
	for (int s = 0; s < f->n; s++)
		if ((who[s] = sole(f, s)) >= 0)
			reps[who[s]] += gs_spot_gpu(f, s)->g[0].n;
	for (int s = 0; s < f->n; s++)
		if (who[s] >= 0 && reps[who[s]] == f->pl->reps[f->pl->rep_at[who[s]]].w->replicas)
			o->at[who[s] + 1]++;
	for (size_t w = 0; w < nw; w++)
		o->at[w + 1] += o->at[w];
	memcpy(reps, o->at, nw * sizeof *reps);
	for (int s = 0; s < f->n; s++)
		if (who[s] >= 0 && o->at[who[s] + 1] > o->at[who[s]])
			o->list[reps[who[s]]++] = s;
	rc = 0;
done:
	free(reps);
	free(who);
	return rc;
}

/* Moves workload w, whose spots are sp[0..n), onto model m: 1 when every
 * replica found room there, 0 when not (nothing moved), -1. */
static int move_to(gs_filler *f, const int *sp, int n, int m)
{
	int mark = f->nlog;
	for (int j = 0; j < n; j++)
		gs_spot_set_gone(f, sp[j], 1);
	for (int j = 0; j < n; j++) {
		const gs_group *gr = &gs_spot_gpu(f, sp[j])->g[0];
		for (int k = 0; k < gr->n; k++) {
			int s = gs_spot_host(f, gr->reps[k], UINT64_C(1) << m);
			if (s >= 0 && gs_spot_join(f, s, gr->reps[k]) < 0)
				return -1;
			if (s < 0) {
				gs_spot_put_back(f, mark);
				for (int q = 0; q < n; q++)
					gs_spot_set_gone(f, sp[q], 0);
				return 0;
			}
		}
	}
	for (int j = mark; j < f->nlog; j++)
		f->v[f->log[j].s].touched = 1;
	return 1;
}

/* Tries w's other candidate models, cheapest GPU first; 1 when it moved.
 * A GPU of w's that others joined since holds them too: w stays. */
static int move_workload(gs_filler *f, int w, const int *sp, int n)
{
	const gs_choice *c = f->c;
	int from = f->v[sp[0]].m, tried = 0;
	uint64_t done = UINT64_C(1) << from;
	for (int j = 0; j < n; j++)
		if (f->v[sp[j]].touched)
			return 0;
	while (tried++ < c->ncand[w]) {
		int best = -1, rc;
		for (int k = 0; k < c->ncand[w]; k++) {
			int m = c->cands[w][k];
			if (!(done >> m & 1) &&
			    (best < 0 || f->pl->gpu_price[m] < f->pl->gpu_price[best]))
				best = m;
		}
		if (best < 0 || f->checks <= 0 || f->scans <= 0)
			return 0;
		done |= UINT64_C(1) << best;
		if ((rc = move_to(f, sp, n, best)) != 0)
			return rc;
	}
	return 0;
}

int gs_refill_workloads(gs_filler *f)
{
	owned o = { NULL, NULL };
	size_t nw = f->pl->s->n;
	gs_keyed *k = malloc((nw + 1) * sizeof *k), *tmp = malloc((nw + 1) * sizeof *tmp);
	int emptied = 0, rc = owned_of(f, &o), nk = 0;
	if (!k || !tmp)
		rc = -1;
	/* Least filled first: the workloads' mean fill. */
	for (size_t w = 0; rc == 0 && w < nw; w++) {
		int64_t sum = 0;
		int n = o.at[w + 1] - o.at[w];
		if (n == 0)
			continue;
		for (int j = o.at[w]; j < o.at[w + 1]; j++)
			sum += f->v[o.list[j]].fill;
		k[nk].key = (uint64_t)(sum / n);
		k[nk++].val = w;
	}
	if (rc == 0)
		gs_radix_sort(k, tmp, (size_t)nk);
	for (int j = 0; rc == 0 && j < nk && f->checks > 0 && f->scans > 0; j++) {
		int w = (int)k[j].val, n = o.at[w + 1] - o.at[w];
		if ((rc = move_workload(f, w, o.list + o.at[w], n)) > 0) {
			emptied += n;
			rc = 0;
		}
	}
	free(k);
	free(tmp);
	free(o.at);
	free(o.list);
	return rc < 0 ? -1 : emptied;
}
