/*
 * showback.c - what each replica costs: a node's price split by the
 * capacity each replica holds on it, so that what a replica pays does not
 * depend on where the packing happened to put it. What nobody holds is
 * "idle", charged to the replicas of the node in proportion to what they
 * hold, so that every team sees the idle capacity of the nodes it uses.
 *
 * Each team's idle is then spread over its workloads by what they hold
 * (plan.c), so that within a team a workload's idle does not depend on
 * which node it landed on either.
 *
 * The capacity a replica holds, as a share of one GPU (documented in
 * gpushare-workloads(5), OBJECTIVE):
 *   - a fault-isolated replica on a whole GPU: the whole GPU (nothing else
 *     may run there); a replica of several GPUs: each of them whole, as
 *     its pod holds them (the node lists it on each, nodeset.c);
 *   - any other replica on a whole GPU, dedicated, time-sliced or MPS: the
 *     larger of its share of the GPU's memory and of its compute;
 *   - a MIG instance: the larger of its memory slices over the GPU's slots
 *     and its compute slices over the GPU's; a replica alone in it holds
 *     all of it, replicas time-sliced in it their share of it as above.
 * Where the shares of a GPU (or of a MIG instance) add up to more than
 * all of it, they are scaled down to fill it exactly.
 *
 * Money is split in integer micro-dollars by the largest-remainder rule,
 * ties to the earlier replica, so that the replicas' costs and idle parts
 * add up to the node's price exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/nodes.h"
#include "plan/plan_internal.h"
#include "scenario/scenario.h"

typedef gs_wide wide;

/* The larger of w's share of memory and of compute on g, in ppm of g. */
static int64_t need_share(const gs_workload *w, const gs_gpu *g, int64_t mem_bytes,
                          int64_t comp_ppm)
{
	int64_t mem = (int64_t)((wide)w->memory_bytes * GS_PPM / mem_bytes);
	int64_t cmp = gs_workload_compute_on(w, g) * GS_PPM / comp_ppm;
	int64_t s = mem > cmp ? mem : cmp;
	return s < 1 ? 1 : s > GS_PPM ? GS_PPM : s;
}

/* Scales shares v[0..n) (ppm of a whole) down to add up to the whole when
 * they add up to more. */
static void fit_whole(int64_t *v, int n)
{
	int64_t sum = 0;
	for (int i = 0; i < n; i++)
		sum += v[i];
	if (sum <= GS_PPM)
		return;
	for (int i = 0; i < n; i++) {
		v[i] = v[i] * GS_PPM / sum;
		if (v[i] < 1)
			v[i] = 1;
	}
}

static int64_t mig_share(const gs_gpu *g, const gs_mig_profile *p)
{
	int64_t mem = (int64_t)p->memory_slices * GS_PPM / g->mig_slots;
	int64_t cmp = (int64_t)p->compute_slices * GS_PPM / g->mig_compute_slices;
	return mem > cmp ? mem : cmp;
}

/* Shares of the replicas in group gr, which holds `whole` ppm of GPU g,
 * appended to held[*n]; prof is the group's MIG instance, NULL on a whole
 * GPU (a group keeps the profile it was sized for even where it then
 * takes a whole GPU). */
static void group_shares(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                         const gs_mig_profile *prof, int64_t whole, int strategy,
                         int64_t *held, int *n)
{
	int64_t *v = &held[*n];
	int64_t mem = g->memory_mib << 20, comp = GS_PPM;
	if (prof) {
		mem = prof->memory_mib << 20;
		comp = (int64_t)prof->sm_count * GS_PPM / g->sm_count;
	}
	for (int i = 0; i < gr->n; i++) {
		const gs_workload *w = pl->reps[gr->reps[i]].w;
		int alone = gr->n == 1 && (prof || (strategy == GS_STRATEGY_DEDICATED &&
		                                     (w->isolation_fault ||
		                                      w->gpus_per_replica > 1)));
		v[i] = alone ? GS_PPM : need_share(w, g, mem, comp);
	}
	fit_whole(v, gr->n);
	for (int i = 0; i < gr->n; i++)
		v[i] = v[i] * whole / GS_PPM;
	*n += gr->n;
}

/* Every replica of GPU pg with the share of one GPU it holds. */
static void gpu_shares(const gs_planner *pl, const gs_pgpu *pg, int *reps, int64_t *held,
                       int *n)
{
	int mig = pg->strategy == GS_STRATEGY_MIG;
	int64_t sum = 0;
	for (int j = 0; j < pg->ng; j++)
		sum += mig ? mig_share(pg->model, pg->g[j].prof) : GS_PPM;
	for (int j = 0; j < pg->ng; j++) {
		const gs_group *gr = &pg->g[j];
		int64_t whole = mig ? mig_share(pg->model, gr->prof) : GS_PPM;
		if (sum > GS_PPM)
			whole = whole * GS_PPM / sum;
		for (int i = 0; i < gr->n; i++)
			reps[*n + i] = gr->reps[i];
		group_shares(pl, pg->model, gr, mig ? gr->prof : NULL, whole, pg->strategy, held,
		             n);
	}
}

/* The replicas of node b, the share of a GPU each holds, and their count. */
static int node_shares(const gs_planner *pl, const gs_bnode *b, int **reps, int64_t **held)
{
	int n = 0, k = 0;
	for (int i = 0; i < b->n; i++)
		for (int j = 0; j < b->gpus[i]->ng; j++)
			n += b->gpus[i]->g[j].n;
	*reps = malloc((size_t)(n ? n : 1) * sizeof **reps);
	*held = malloc((size_t)(n ? n : 1) * sizeof **held);
	if (!*reps || !*held)
		return -1;
	for (int i = 0; i < b->n; i++)
		gpu_shares(pl, b->gpus[i], *reps, *held, &k);
	return n;
}

int gs_split_micros(gs_micros total, const int64_t *w, int n, gs_micros *out)
{
	wide *v = malloc((size_t)(n ? n : 1) * sizeof *v), sum = 0;
	int rc;
	if (!v)
		return -1;
	for (int i = 0; i < n; i++)
		sum += v[i] = w[i];
	if (sum == 0)
		for (int i = 0; i < n; i++)
			sum += v[i] = 1;
	rc = n ? gs_money_split(total, v, (size_t)n, out) : 0;
	free(v);
	return rc;
}

int gs_showback_node(gs_plan *p, const gs_planner *pl, const gs_bnode *b)
{
	int *reps = NULL, n;
	int64_t *held = NULL, h = 0, idle;
	wide *w = NULL;
	gs_micros *got = NULL;
	int rc = -1;

	if ((n = node_shares(pl, b, &reps, &held)) < 0)
		goto done;
	for (int i = 0; i < n; i++)
		h += held[i];
	idle = (int64_t)b->inst->gpu_count * GS_PPM - h;
	if (!(w = malloc((size_t)(2 * n + 1) * sizeof *w)) ||
	    !(got = malloc((size_t)(2 * n + 1) * sizeof *got)))
		goto done;
	/* Replica i holds held[i] and carries held[i] / h of the idle: weights
	 * held[i] * h and held[i] * idle, of h * (h + idle) in all. */
	for (int i = 0; i < n; i++) {
		w[2 * i] = (wide)held[i] * h;
		w[2 * i + 1] = (wide)held[i] * (idle > 0 ? idle : 0);
	}
	if (n > 0 && gs_money_split(b->price, w, (size_t)(2 * n), got) < 0)
		goto done;
	for (int i = 0; i < n; i++) {
		p->rep_cost[reps[i]] += got[2 * i];
		p->rep_idle[reps[i]] += got[2 * i + 1];
	}
	rc = 0;
done:
	free(reps);
	free(held);
	free(w);
	free(got);
	return rc;
}
