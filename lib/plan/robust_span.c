/*
 * robust_span.c - the worst case of a dedicated node that holds replicas of
 * several GPUs beside others under placement: robust (robust.h). Such a
 * node is a pool of its own (plan_pools.c), so only the workloads planned
 * on it may land there; on one node the device plugin's GPUs are
 * interchangeable, so every order of arrival fits as long as all that the
 * pool admits does: each workload's span times as many of its replicas as
 * the node could hold (one, where spread: node keeps them apart).
 */
#include "plan/robust.h"
#include "scenario/scenario.h"

/* The workloads of on[0..n) and pg (NULL: none), each once, in wi. */
static int node_wls(const gs_planner *pl, const gs_pgpu *const *on, int n,
                    const gs_pgpu *pg, int *wi, int cap)
{
	int m = 0;
	for (int i = 0; i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		for (int j = 0; x && j < x->ng; j++)
			for (int r = 0; r < x->g[j].n; r++) {
				int w = pl->reps[x->g[j].reps[r]].wi, seen = 0;
				for (int q = 0; q < m && !seen; q++)
					seen = wi[q] == w;
				if (!seen && m < cap)
					wi[m++] = w;
				else if (!seen)
					return -1;
			}
	}
	return m;
}

static int wl_span(const gs_planner *pl, int wi)
{
	int s = pl->s->w[wi]->pub.gpus_per_replica;
	return s > 1 ? s : 1;
}

/* Whether the workloads wi[0..m) mix spans: one of several GPUs beside
 * replicas of another span. */
static int mixed(const gs_planner *pl, const int *wi, int m)
{
	int lo = 0, hi = 0;
	for (int i = 0; i < m; i++) {
		int s = wl_span(pl, wi[i]);
		lo = !lo || s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	return hi > 1 && lo != hi;
}

/* The most workloads one node's check lists; a node of more is refused. */
#define MOST_WLS 64

/* Whether on[0..n) and pg hold at most cap replicas in all: then
 * node_wls finds at most cap workloads. */
static int few_replicas(const gs_pgpu *const *on, int n, const gs_pgpu *pg, int cap)
{
	int count = 0;
	for (int i = 0; i <= n && count <= cap; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		for (int j = 0; x && j < x->ng; j++)
			count += x->g[j].n;
	}
	return count <= cap;
}

int gs_robust_span_ok(const gs_planner *pl, const gs_pgpu *const *on, int n,
                      const gs_pgpu *pg, int gpus)
{
	int wi[MOST_WLS], m, sum = 0;
	if (pl->placement != GS_PLACEMENT_ROBUST || pl->via_dra ||
	    (pg && pg->strategy != GS_STRATEGY_DEDICATED))
		return 1;
	/* Without a replica of several GPUs (pl->wide) no node mixes spans:
	 * where the workloads fit wi, nothing to read of the replicas, which
	 * the nodes' buying asked of every dedicated GPU it placed. */
	if (!pl->wide && few_replicas(on, n, pg, MOST_WLS))
		return 1;
	/* More workloads than a node has GPUs cannot all be held anyway. */
	if ((m = node_wls(pl, on, n, pg, wi, MOST_WLS)) < 0)
		return 0;
	if (!mixed(pl, wi, m))
		return 1;
	for (int i = 0; i < m; i++) {
		const gs_workload *w = &pl->s->w[wi[i]]->pub;
		int span = wl_span(pl, wi[i]);
		int most = w->spread == GS_SPREAD_NODE ? 1 : w->replicas;
		sum += span * (most < gpus / span ? most : gpus / span);
	}
	if (sum <= gpus)
		return 1;
	if (pl->robust_bound)
		++*pl->robust_bound;
	return 0;
}
