/*
 * weights.c - what each pod holds of one node, in weight units
 * (GS_COST_UNIT per GPU), by the rules gpushare-cost(1) states:
 *
 *   - a whole GPU is one unit of GPU; a time-slicing or MPS replica is
 *     1/R of it, R the replicas the GPU is advertised as;
 *   - a MIG slice is its share of the GPU under the MIG rule; when the
 *     slices the node advertises (or its pods hold, if more) add up to
 *     more than the GPUs that are not whole, all slices are scaled down
 *     together to fit;
 *   - a DRA device that states the memory it consumes is that share of
 *     the GPU's memory, at most the whole GPU; a hold several pods share
 *     through one claim is split equally between them;
 *   - under the usage basis, the replicas of time-sliced and MPS GPUs
 *     held by pods with samples of their own are replaced by what those
 *     pods used: each its mean activity (the import has divided a GPU's
 *     readings among its holders already); all of it while it fits in the
 *     shared GPUs left after the pods without samples, who keep their
 *     replicas, else that room divided by their activity;
 *   - when the pods hold more than the node's GPUs, all are scaled down.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost/cost.h"

#define U GS_COST_UNIT

typedef struct node_ctx {
	const gs_import_node *n;
	gs_cost_mig rule;
	int64_t total;                /* the node's GPUs, in units */
	int64_t mig_num, mig_den;     /* the scale of MIG slices */
	int64_t shared_cap;           /* time-sliced and MPS GPUs, in units */
} node_ctx;

/* A MIG slice's share of its GPU under the rule, in units. */
static int64_t slice(const gs_gpu *g, const gs_mig_profile *p, gs_cost_mig rule)
{
	int64_t mem = g->mig_slots > 0 ? U * p->memory_slices / g->mig_slots : U;
	int64_t cmp = g->mig_compute_slices > 0 ? U * p->compute_slices / g->mig_compute_slices
	                                        : U;
	if (rule == GS_COST_MIG_MEMORY)
		return mem;
	if (rule == GS_COST_MIG_COMPUTE)
		return cmp;
	return mem > cmp ? mem : cmp;
}

/* One device of hold h, in units, before the MIG scale. */
static int64_t device(const node_ctx *x, const gs_hold *h)
{
	int64_t gpu_mib = x->n->gpu_memory_mib > 0 ? x->n->gpu_memory_mib : x->n->gpu->memory_mib;
	if (h->mig)
		return slice(x->n->gpu, h->mig, x->rule);
	if (h->memory_mib > 0 && gpu_mib > 0 && h->memory_mib < gpu_mib)
		return (int64_t)((gs_wide)U * h->memory_mib / gpu_mib);
	return U;
}

/* What hold h holds, in units, MIG scale included. */
static int64_t held(const node_ctx *x, const gs_hold *h)
{
	gs_wide w = (gs_wide)h->units * device(x, h);
	if (h->mig)
		w = w * x->mig_num / x->mig_den;
	return (int64_t)(w / ((gs_wide)h->per_device * (h->consumers > 0 ? h->consumers : 1)));
}

static int is_shared(const gs_hold *h)
{
	return !h->mig && !h->dra && h->per_device > 1;
}

/* The node's devices: the scale of its MIG slices and its shared GPUs. */
static void node_setup(gs_chargeback *c, size_t ni, const size_t *holds, size_t nh,
                       node_ctx *x)
{
	int64_t whole = 0, mig_adv = 0, mig_held = 0, room;

	x->n = gs_import_node_at(c->inv, ni);
	x->rule = c->sum.opts.mig_share;
	x->total = (int64_t)x->n->gpu_count * U;
	x->mig_num = x->mig_den = 1;
	x->shared_cap = 0;
	for (size_t i = 0; i < gs_hold_dev_count(c->inv, ni); i++) {
		gs_hold_dev d;
		gs_hold_dev_at(c->inv, ni, i, &d);
		if (d.mig)
			mig_adv += d.units / d.per_device * slice(x->n->gpu, d.mig, x->rule);
		else
			whole += d.units / d.per_device * U;
		if (!d.mig && d.per_device > 1)
			x->shared_cap += d.units / d.per_device * U;
	}
	for (size_t i = 0; i < nh; i++) {
		const gs_hold *h = gs_hold_at(c->inv, holds[i]);
		if (h->mig)
			mig_held += held(x, h);
	}
	room = x->total - whole;
	if (mig_held > mig_adv)
		mig_adv = mig_held;
	if (room < 0)
		room = 0;
	if (mig_adv > room) {
		x->mig_num = room;
		x->mig_den = mig_adv;
	}
	if (!x->shared_cap || x->shared_cap > x->total)
		x->shared_cap = x->total;
}

/* What a measured holder used, in units: its mean activity. The import
 * has already divided a shared GPU's readings among the pods that hold it
 * (lib/import/share.c), so each pod's samples are its own part. */
static int64_t activity(gs_chargeback *c, const cholder *h)
{
	return llround(c->pods[h->pod].activity * U);
}

/* Under the usage basis: the shared replicas of pods with samples become
 * what they used, all of it while it fits in the shared GPUs left after
 * the pods without samples keep theirs. shared[i] is what holder i holds
 * of shared GPUs. */
static int by_usage(gs_chargeback *c, const node_ctx *x, cholder *h, const int64_t *shared,
                    size_t n)
{
	int64_t pool = x->shared_cap, rest = x->total, kept = 0, sum = 0, used;
	int64_t *act = calloc(n ? n : 1, sizeof *act);
	int *measured = calloc(n ? n : 1, sizeof *measured);

	if (!act || !measured) {
		free(act);
		free(measured);
		return gs_fail_nomem(c->err);
	}
	for (size_t i = 0; i < n; i++) {
		rest -= h[i].weight - shared[i];
		measured[i] = shared[i] && c->pods[h[i].pod].measured;
		kept += shared[i] && !measured[i] ? shared[i] : 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (!measured[i])
			continue;
		sum += act[i] = activity(c, &h[i]);
		h[i].weight -= shared[i];
		h[i].by_usage = 1;
	}
	pool = (pool < rest ? pool : rest) - kept;
	used = sum < pool ? sum : pool > 0 ? pool : 0;
	for (size_t i = 0; i < n && sum > 0; i++)
		if (measured[i])
			h[i].weight += (int64_t)((gs_wide)used * act[i] / sum);
	free(act);
	free(measured);
	return 0;
}

static int by_pod(const void *a, const void *b)
{
	const gs_hold *x = *(const gs_hold *const *)a, *y = *(const gs_hold *const *)b;
	return (x->pod > y->pod) - (x->pod < y->pod);
}

/* The holds in pod order, merged into one holder per pod. */
static int merge(gs_chargeback *c, const node_ctx *x, const size_t *holds, size_t nh,
                 cholder *h, int64_t *shared, size_t *n)
{
	const gs_hold **v = malloc((nh ? nh : 1) * sizeof *v);
	if (!v)
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < nh; i++)
		v[i] = gs_hold_at(c->inv, holds[i]);
	qsort(v, nh, sizeof *v, by_pod);
	*n = 0;
	for (size_t i = 0; i < nh; i++) {
		int64_t w = held(x, v[i]);
		if (!*n || h[*n - 1].pod != v[i]->pod) {
			h[*n] = (cholder){ v[i]->pod, NULL, 0, 0, 0 };
			shared[(*n)++] = 0;
		}
		h[*n - 1].weight += w;
		h[*n - 1].dra |= v[i]->dra;
		shared[*n - 1] += is_shared(v[i]) ? w : 0;
	}
	free(v);
	return 0;
}

/* More held than the node has: everything scaled down to fit. */
static int fit(gs_chargeback *c, const node_ctx *x, cholder *h, size_t n)
{
	int64_t sum = 0;
	char a[32], b[32];
	for (size_t i = 0; i < n; i++)
		sum += h[i].weight;
	if (sum <= x->total)
		return 0;
	for (size_t i = 0; i < n; i++)
		h[i].weight = (int64_t)((gs_wide)h[i].weight * x->total / sum);
	gs_micros_format(gs_cost_millionths(sum), 6, a, sizeof a);
	gs_micros_format(gs_cost_millionths(x->total), 6, b, sizeof b);
	return gs_cost_warn(c, "node '%s': its pods hold %s GPUs of its %s: their shares are "
	                    "scaled down to fit", x->n->name, a, b);
}

int gs_cost_weigh(gs_chargeback *c, size_t ni, const size_t *holds, size_t nh,
                  cholder **out, size_t *n_out)
{
	node_ctx x;
	cholder *h = malloc((nh ? nh : 1) * sizeof *h);
	int64_t *shared = malloc((nh ? nh : 1) * sizeof *shared);
	int rc;

	*out = NULL;
	*n_out = 0;
	if (!h || !shared) {
		free(h);
		free(shared);
		return gs_fail_nomem(c->err);
	}
	node_setup(c, ni, holds, nh, &x);
	if ((rc = merge(c, &x, holds, nh, h, shared, n_out)) == 0) {
		if (c->sum.opts.basis == GS_COST_USAGE)
			rc = by_usage(c, &x, h, shared, *n_out);
		if (rc == 0)
			rc = fit(c, &x, h, *n_out);
	}
	free(shared);
	if (rc < 0) {
		free(h);
		*n_out = 0;
		return rc;
	}
	*out = h;
	return 0;
}
