/*
 * pack.c - packing the replicas of one model onto GPUs.
 *
 * Replicas are packed first-fit-decreasing into shared groups of one
 * tenant (time-slicing, or MPS where advice rules time-slicing out;
 * pack_share.c), small tenants then exactly (pack_exact.c), and then
 * fault-isolated replicas and small groups are tried as MIG instances
 * (pack_mig.c), which is the only way tenants may share a GPU. The
 * cheapest packing wins; ties keep fewer GPUs, then fewer MIG GPUs (less
 * to reconfigure).
 *
 * This file only directs: the packers it calls never call it back, and
 * the packing's data is pack_gpu.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/pack.h"

/* A whole GPU for one group, shared as gs_group_share says. */
static int add_whole(const gs_planner *pl, gs_pack *pk, const gs_gpu *g, const gs_group *gr)
{
	gs_strategy st = gs_group_share(pl, g, gr);
	gs_pgpu *pg = gs_pack_add_gpu(pk, g, st);
	if (!pg || gs_pack_add_group(pk, pg, gr) < 0)
		return -1;
	pg->k = gr->n;
	return 0;
}

/* Builds into pk, empty, the packing where the groups flagged in to_mig
 * become MIG instances; fault-isolated replicas are always MIG when they
 * fit one. Where pk lends, its groups lend their replicas from shared
 * and fault. */
static int build(const gs_planner *pl, const gs_gpu *g, gs_group *shared, int ns,
                 const char *to_mig, gs_group *fault, int nf, gs_pack *pk)
{
	gs_group **inst = malloc((size_t)(ns + nf + 1) * sizeof *inst);
	int ni = 0, rc = 0;

	if (!inst)
		return -1;
	/* The model search's work: each build places every group again. */
	if (pl->work)
		*pl->work -= ns + nf;
	for (int i = 0; i < nf && rc == 0; i++) {
		gs_pgpu *pg;
		if (fault[i].prof) {
			inst[ni++] = &fault[i];
			continue;
		}
		pg = gs_pack_add_gpu(pk, g, GS_STRATEGY_DEDICATED);
		rc = pg ? gs_pack_add_group(pk, pg, &fault[i]) : -1;
		if (pg)
			pg->span = pl->reps[fault[i].reps[0]].w->gpus_per_replica;
	}
	for (int i = 0; i < ns && rc == 0; i++) {
		if (to_mig && to_mig[i])
			inst[ni++] = &shared[i];
		else
			rc = add_whole(pl, pk, g, &shared[i]);
	}
	if (rc == 0)
		rc = gs_pack_mig(pl, g, inst, ni, pk);
	free(inst);
	if (rc < 0)
		gs_pack_release(pk);
	return rc;
}

/* A packing's score: what it costs bought (when the planner can price
 * it), then GPUs, then MIG GPUs (less to reconfigure). */
typedef struct score {
	gs_micros cost;
	int gpus, mig;
} score;

static score score_of(const gs_planner *pl, const gs_pack *pk)
{
	score s = { 0, pk->n, 0 };
	for (int i = 0; i < pk->n; i++)
		s.mig += pk->gpus[i].strategy == GS_STRATEGY_MIG;
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

static int by_fill_asc(const void *a, const void *b)
{
	const fillkey *x = a, *y = b;
	if (x->fill != y->fill)
		return x->fill < y->fill ? -1 : 1;
	return x->i - y->i;
}

/* The groups that fit a MIG instance (their profile set), least filled
 * first; returns how many. */
static int movable(const gs_planner *pl, const gs_gpu *g, gs_group *shared, int ns,
                   fillkey *order)
{
	int nmov = 0;
	for (int i = 0; i < ns; i++) {
		shared[i].prof = gs_mig_profile_for(pl, g, &shared[i]);
		if (!shared[i].prof)
			continue;
		order[nmov].i = i;
		order[nmov].fill = shared[i].prof->memory_slices;
		nmov++;
	}
	qsort(order, (size_t)nmov, sizeof *order, by_fill_asc);
	return nmov;
}

/* 1, 2, 4, ... and then all n. */
static int next_count(int k, int n)
{
	if (k == n)
		return n + 1;
	return k * 2 > n ? n : k * 2;
}

/* The next count of groups to try as MIG after k: the doubling goes on
 * until WORSE_RUN counts in a row were no better than the best, and then
 * all n are tried (the examples' multi-tenant plan is best with all, after
 * several worse counts). Measured: the bench's in-process 10,000-replica
 * plan 2.18 s -> 1.56 s, the same plans. */
#define WORSE_RUN 3

static int next_try(int k, int n, int worse)
{
	if (worse < WORSE_RUN)
		return next_count(k, n);
	return k < n ? n : n + 1;
}

/* Keeps the best packing with MIG for the plan's reasons, when asked. */
static void probe_note(gs_mig_probe *pr, score sc)
{
	if (!pr || (pr->tried && sc.cost > pr->mig_cost) ||
	    (pr->tried && sc.cost == pr->mig_cost && sc.gpus >= pr->mig_gpus))
		return;
	pr->tried = 1;
	pr->mig_cost = sc.cost;
	pr->mig_gpus = sc.gpus;
}

/* Tries moving the least-filled movable groups into MIG, more at a time,
 * keeping the best packing seen. */
static int choose_mig(const gs_planner *pl, const gs_gpu *g, gs_group *shared, int ns,
                      gs_group *fault, int nf, gs_pack *best, score *best_score)
{
	char *to_mig = calloc((size_t)(ns ? ns : 1), 1);
	fillkey *order = malloc((size_t)(ns ? ns : 1) * sizeof *order);
	int nmov, rc = 0, worse = 0;
	/* Most tries are dropped: they lend their replicas, and each builds
	 * in the arrays of the one before. */
	gs_pack cand = { NULL, 0, 0, 1, 0 };

	if (!to_mig || !order) {
		free(to_mig);
		free(order);
		return -1;
	}
	nmov = movable(pl, g, shared, ns, order);
	/* Moving the k least-filled groups, for k = 1, 2, 4, ... and all:
	 * a handful of rebuilds instead of one per group. */
	for (int k = 1; k <= nmov && rc == 0; k = next_try(k, nmov, worse)) {
		score sc;
		for (int j = 0; j < k; j++)
			to_mig[order[j].i] = 1;
		gs_pack_reset(&cand);
		if ((rc = build(pl, g, shared, ns, to_mig, fault, nf, &cand)) < 0)
			break;
		sc = score_of(pl, &cand);
		probe_note(pl->probe, sc);
		if (!better(sc, *best_score)) {
			worse++;
			continue;
		}
		/* The one kept copies what it lent. */
		if ((rc = gs_pack_own(&cand)) < 0)
			break;
		gs_pack_release(best);
		*best = cand;
		*best_score = sc;
		worse = 0;
		memset(&cand, 0, sizeof cand);
		cand.lends = 1;
	}
	gs_pack_release(&cand);
	free(to_mig);
	free(order);
	return rc;
}

/* Does every replica of the group fit a MIG slice of its own? */
static int splits(const gs_planner *pl, const gs_gpu *g, const gs_group *gr)
{
	for (int r = 0; r < gr->n; r++) {
		gs_group one = { 0 };
		int x = gr->reps[r];
		one.tenant = gr->tenant;
		one.n = 1;
		one.reps = &x;
		one.mem = pl->reps[x].w->memory_bytes;
		one.comp = gs_rep_comp(pl, x, g);
		one.headroom = pl->reps[x].headroom;
		if (!gs_mig_profile_for(pl, g, &one))
			return 0;
	}
	return 1;
}

int gs_group_splits(const gs_planner *pl, const gs_gpu *g, const gs_group *gr)
{
	return gr->n > 1 && splits(pl, g, gr);
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
		int split = in[i].n > 1 && splits(pl, g, &in[i]);
		for (int r = 0; r < (split ? in[i].n : 1); r++) {
			gs_group *d = &v[k++];
			*d = in[i];
			d->cap = d->n = split ? 1 : in[i].n;
			if (!(d->reps = malloc((size_t)d->n * sizeof *d->reps))) {
				gs_groups_free(v, k);
				return -1;
			}
			if (!split) {
				memcpy(d->reps, in[i].reps, (size_t)d->n * sizeof *d->reps);
				continue;
			}
			d->reps[0] = in[i].reps[r];
			d->mem = pl->reps[d->reps[0]].w->memory_bytes;
			d->comp = gs_rep_comp(pl, d->reps[0], g);
			d->no_ts = pl->reps[d->reps[0]].no_ts;
			d->headroom = pl->reps[d->reps[0]].headroom;
		}
	}
	*out = v;
	*nout = k;
	return 0;
}

/* Fault-isolated replicas each get a group of their own (and the MIG
 * profile that holds them), and so do replicas of several GPUs, which hold
 * them whole (no profile); the others go to sh for sharing. */
static int split_fault(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                       int *sh, int *nsh, gs_group *fault, int *nf)
{
	for (int i = 0; i < n; i++) {
		const gs_workload *w = pl->reps[reps[i]].w;
		gs_group *f;
		if (!w->isolation_fault && w->gpus_per_replica <= 1) {
			sh[(*nsh)++] = reps[i];
			continue;
		}
		f = &fault[(*nf)++];
		f->tenant = pl->reps[reps[i]].tenant;
		if (gs_group_join(pl, g, f, reps[i]) < 0)
			return -1;
		f->prof = w->gpus_per_replica > 1 ? NULL : gs_mig_profile_for(pl, g, f);
	}
	return 0;
}

/* Improves *out with MIG: the groups as they are, then split. */
static int try_mig(const gs_planner *pl, const gs_gpu *g, gs_group *shared, int ns,
                   gs_group *fault, int nf, gs_pack *out)
{
	score best = score_of(pl, out);
	gs_group *split = NULL;
	int nsplit = 0, rc;
	if (pl->probe) {
		pl->probe->whole_cost = best.cost;
		pl->probe->whole_gpus = best.gpus;
	}
	rc = choose_mig(pl, g, shared, ns, fault, nf, out, &best);
	if (rc == 0 && (rc = split_groups(pl, g, shared, ns, &split, &nsplit)) == 0) {
		if (nsplit != ns)
			rc = choose_mig(pl, g, split, nsplit, fault, nf, out, &best);
		gs_groups_free(split, nsplit);
	}
	return rc;
}

int gs_pack_model(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                  gs_pack *out)
{
	int *sh = malloc((size_t)(n ? n : 1) * sizeof *sh);
	gs_group *shared = NULL, *fault = calloc((size_t)(n ? n : 1), sizeof *fault);
	int ns = 0, nsh = 0, nf = 0, rc = -1;

	memset(out, 0, sizeof *out);
	/* A tenant's search (plan_choose.c) prices packings that only guide
	 * it: the exact search, the dearest step, waits for the whole one.
	 * Its work counts each replica first-fit places. */
	if (pl->work)
		*pl->work -= n;
	if (!sh || !fault || split_fault(pl, g, reps, n, sh, &nsh, fault, &nf) < 0 ||
	    gs_share_first_fit(pl, g, sh, nsh, &shared, &ns) < 0 ||
	    (!pl->only_tenant && gs_share_exact(pl, g, shared, &ns) < 0) ||
	    build(pl, g, shared, ns, NULL, fault, nf, out) < 0)
		goto done;
	rc = 0;
	if (g->mig_slots && !pl->no_mig)
		rc = try_mig(pl, g, shared, ns, fault, nf, out);
	if (rc < 0)
		gs_pack_release(out);
done:
	if (shared)
		gs_groups_free(shared, ns);
	if (fault)
		gs_groups_free(fault, nf);
	free(sh);
	return rc;
}
