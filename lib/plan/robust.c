/*
 * robust.c - the worst case a shared GPU may be handed (robust.h): the k
 * largest replicas, by memory and apart by compute, of the workloads that
 * may reach it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "catalog/offer.h"
#include "plan/robust.h"
#include "plan/share_rule.h"
#include "scenario/scenario.h"

/* One workload that may reach the GPU: its replica's needs, and how many
 * of its replicas may share the GPU at once. */
typedef struct reach {
	int wi;
	int64_t mem, comp;
	int times;
} reach;

/* How many of w's replicas k slots may hold: under robust every one the
 * selectors let through (one, where spread keeps them apart); under
 * pinned those planned here, counted by the caller. */
static int cap_times(const gs_workload *w, int k)
{
	int most = w->spread != GS_SPREAD_NONE ? 1 : w->replicas;
	return most < k ? most : k;
}

int gs_robust_alone(const gs_planner *pl, const gs_workload *w, int64_t comp, int64_t mem_cap,
                    int64_t comp_cap)
{
	if (pl->placement != GS_PLACEMENT_ROBUST || pl->via_dra ||
	    pl->frac_ts != GS_BACKEND_NONE || pl->frac_mps != GS_BACKEND_NONE)
		return 0;
	if (w->replicas < 2 || w->spread != GS_SPREAD_NONE)
		return 0;
	return 2 * w->memory_bytes > mem_cap || !gs_share_within(2 * comp, comp_cap);
}

int64_t gs_robust_slots(const gs_planner *pl, const gs_workload *w, int64_t comp,
                        int64_t offer, int64_t cap)
{
	int64_t km, kc, k;
	if (pl->placement != GS_PLACEMENT_ROBUST || pl->via_dra ||
	    pl->frac_ts != GS_BACKEND_NONE || pl->frac_mps != GS_BACKEND_NONE ||
	    w->spread != GS_SPREAD_NONE)
		return 0;
	km = w->memory_bytes > 0 && offer < INT64_MAX ? offer / w->memory_bytes : INT64_MAX;
	kc = comp > 0 ? cap / comp : INT64_MAX;
	k = km < kc ? km : kc;
	return k >= 1 && w->replicas > k ? k : 0;
}

/* Where the workloads collected so far are, by workload: a node of one
 * tenant's time-sliced GPUs holds hundreds of replicas of as many
 * workloads, and a search of the list for each made fleet.py's mixed
 * 10^6 replicas in one tenant spend 30 % of its plan here. Lists of
 * FEW or fewer are searched: most groups hold a few replicas. */
#define FEW 32

typedef struct index_of {
	int *slot;          /* 1 + index into the list, 0: empty */
	unsigned mask;
} index_of;

static unsigned spot(const index_of *h, int wi)
{
	return ((unsigned)wi * 2654435761u) & h->mask;
}

static int collect(const gs_planner *pl, const gs_gpu *g, int r, reach *v,
                   int n, int k, index_of *h)
{
	const gs_replica *p = &pl->reps[r];
	int pinned = pl->placement == GS_PLACEMENT_PINNED, at = n;
	unsigned i = 0;
	if (!h->slot) {
		for (at = 0; at < n && v[at].wi != p->wi; at++)
			;
	} else {
		for (i = spot(h, p->wi); h->slot[i] && v[h->slot[i] - 1].wi != p->wi;
		     i = (i + 1) & h->mask)
			;
		at = h->slot[i] ? h->slot[i] - 1 : n;
	}
	if (at < n) {
		if (pinned && v[at].times < k)
			v[at].times++;
		return n;
	}
	if (h->slot)
		h->slot[i] = n + 1;
	v[n].wi = p->wi;
	v[n].mem = p->w->memory_bytes;
	v[n].comp = gs_rep_comp(pl, r, g);
	v[n].times = pinned ? 1 : cap_times(p->w, k);
	return n + 1;
}

static int by_mem_desc(const void *a, const void *b)
{
	int64_t x = ((const reach *)a)->mem, y = ((const reach *)b)->mem;
	return (x < y) - (x > y);
}

static int by_comp_desc(const void *a, const void *b)
{
	int64_t x = ((const reach *)a)->comp, y = ((const reach *)b)->comp;
	return (x < y) - (x > y);
}

/* The sum of the k largest units, each workload counted `times`. */
static int64_t top_k(const reach *v, int n, int k, int mem)
{
	int64_t sum = 0;
	for (int i = 0; i < n && k > 0; i++) {
		int t = v[i].times < k ? v[i].times : k;
		sum += (mem ? v[i].mem : v[i].comp) * t;
		k -= t;
	}
	return sum;
}

/* Groups are small and this runs in the packer's innermost loops: an
 * insertion sort, without qsort's calls, for the few workloads of one. */
static void sort_desc(reach *v, int n, int (*cmp)(const void *, const void *))
{
	if (n > 32) {
		qsort(v, (size_t)n, sizeof *v, cmp);
		return;
	}
	for (int i = 1; i < n; i++) {
		reach x = v[i];
		int j = i;
		for (; j > 0 && cmp(&v[j - 1], &x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static gs_worst worst_of(reach *v, int n, int k)
{
	gs_worst w;
	sort_desc(v, n, by_mem_desc);
	w.mem = top_k(v, n, k, 1);
	sort_desc(v, n, by_comp_desc);
	w.comp = top_k(v, n, k, 0);
	return w;
}

gs_worst gs_robust_worst(const gs_planner *pl, const gs_gpu *g, const int *reps,
                         int n, int extra, int k)
{
	/* 6 KiB of stack: small time-sliced replicas put 64 and more on an
	 * 80 GiB GPU, and at 64 this took 4 million mallocs a 100,000-replica
	 * plan. */
	reach small[256],
	    *v = n + 1 <= 256 ? small : malloc((size_t)(n + 1) * sizeof *v);
	gs_worst w = { 0, 0 };
	index_of h = { NULL, 0 };
	int m = 0;
	if (v && n + 1 > FEW) {
		for (h.mask = 2 * FEW - 1; h.mask < 2u * (unsigned)(n + 1); h.mask = 2 * h.mask + 1)
			;
		h.slot = calloc((size_t)h.mask + 1, sizeof *h.slot);
	}
	if (!v || (n + 1 > FEW && !h.slot)) {
		/* Out of memory: no worst case known, so nothing may share. */
		if (v != small)
			free(v);
		w.mem = w.comp = INT64_MAX / 4;
		return w;
	}
	for (int i = 0; i < n; i++)
		m = collect(pl, g, reps[i], v, m, k, &h);
	if (extra >= 0)
		m = collect(pl, g, extra, v, m, k, &h);
	w = worst_of(v, m, k);
	free(h.slot);
	if (v != small)
		free(v);
	return w;
}

int gs_robust_surely_fits(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                          int extra, int k, int64_t offer)
{
	int64_t mem = 0, comp = 0;
	for (int i = 0; i <= n; i++) {
		int r = i < n ? reps[i] : extra;
		int64_t c;
		if (r < 0)
			continue;
		if (pl->reps[r].w->memory_bytes > mem)
			mem = pl->reps[r].w->memory_bytes;
		if ((c = gs_rep_comp(pl, r, g)) > comp)
			comp = c;
	}
	return mem * k <= offer && comp * k <= pl->target;
}

gs_worst gs_robust_bind(const gs_planner *pl, gs_worst planned, gs_worst worst,
                        int64_t offer)
{
	int was = planned.mem <= offer && planned.comp <= pl->target;
	int now = worst.mem <= offer && worst.comp <= pl->target;
	if (was && !now && pl->robust_bound)
		++*pl->robust_bound;
	return worst;
}

/* Every replica of the GPUs on[0..n) and pg, in one list. */
static int *node_reps(const gs_pgpu *const *on, int n, const gs_pgpu *pg,
                      int *count)
{
	int total = 0, *reps;
	for (int i = 0; i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		total += x->g[0].n;
	}
	if (!(reps = calloc((size_t)(total ? total : 1), sizeof *reps)))
		return NULL;
	total = 0;
	for (int i = 0; i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		for (int j = 0; j < x->g[0].n; j++)
			reps[total++] = x->g[0].reps[j];
	}
	*count = total;
	return reps;
}

/* Time-slicing shares memory: the largest headroom of the node's replicas
 * holds for all, as the device plugin may seat any of them together. */
static int64_t node_headroom(const gs_planner *pl, const int *reps, int n)
{
	int64_t room = 0;
	for (int i = 0; i < n; i++)
		if (pl->reps[reps[i]].headroom > room)
			room = pl->reps[reps[i]].headroom;
	return room;
}

/* DRA's consumable capacity seats a claim on any GPU with memory left
 * among the nodes its pool may use, under either placement (a claim
 * cannot name a GPU the plan has not seen), and nothing limits its
 * compute. So a GPU holds the most compute that replicas of the workloads
 * it may serve put on it within its memory: every replica of each, as the
 * pool admits them all (a bounded knapsack over memory in 256 MiB units,
 * each replica's rounded down, so that every set that fits is counted).
 * HAMi's scheduler limits the SM percentages as well (at most 100
 * together), and MPS limits are claimed per GPU: those need no worst
 * case. */
#define DRA_UNIT_SHIFT 28

/* Adds w's replicas (as many as could fit) to the knapsack best[0..cap]. */
static void dra_add(const gs_planner *pl, const gs_gpu *g, int r, int64_t *best, int64_t cap)
{
	const gs_workload *w = pl->reps[r].w;
	int64_t size = w->memory_bytes >> DRA_UNIT_SHIFT, c = gs_rep_comp(pl, r, g);
	int64_t copies = size ? cap / size + 1 : w->replicas;
	if (copies > w->replicas)
		copies = w->replicas;
	for (int64_t k = 0; k < copies; k++)
		for (int64_t m = cap; m >= size; m--)
			if (best[m - size] + c > best[m])
				best[m] = best[m - size] + c;
}

/* One replica per workload of reps[0..n) (and r, when not -1). */
static int first_of(const gs_planner *pl, const int *reps, int n, int r, int at)
{
	int x = at < n ? reps[at] : r;
	for (int i = 0; i < at; i++)
		if (pl->reps[i < n ? reps[i] : r].wi == pl->reps[x].wi)
			return 0;
	return 1;
}

int gs_robust_dra_ok(const gs_planner *pl, const gs_gpu *g, const int *reps, int n, int r)
{
	int64_t cap = gs_usable_bytes(g) >> DRA_UNIT_SHIFT, *best;
	int ok, all = n + (r >= 0);
	if (!(best = calloc((size_t)cap + 1, sizeof *best)))
		return 0;
	for (int i = 0; i < all; i++)
		if (first_of(pl, reps, n, r, i))
			dra_add(pl, g, i < n ? reps[i] : r, best, cap);
	ok = gs_share_within(best[cap], pl->target);
	free(best);
	return ok;
}

static int fraction_node_ok(const gs_planner *pl, const gs_pgpu *const *on, int n,
                            const gs_pgpu *pg)
{
	int count = 0, ok, *reps;
	if (gs_pgpu_backend(pl, pg) != GS_BACKEND_DRA)
		return 1;
	if (!(reps = node_reps(on, n, pg, &count)))
		return 0;
	ok = gs_robust_dra_ok(pl, pg->model, reps, count, -1);
	if (!ok && pl->robust_bound)
		++*pl->robust_bound;
	free(reps);
	return ok;
}

/* gs_robust_node_ok; with count, a refusal under robust placement is
 * counted in pl->robust_bound. */
static int node_ok(const gs_planner *pl, const gs_pgpu *const *on, int n, const gs_pgpu *pg,
                   gs_strategy st, int k, int count_it)
{
	int count = 0, ok, *reps = NULL;
	gs_worst w;
	int64_t offer;
	if (st == GS_STRATEGY_FRACTION && pg->strategy == GS_STRATEGY_FRACTION)
		return fraction_node_ok(pl, on, n, pg);
	/* A time-sliced node advertises its largest group's slots on every
	 * GPU, and never fewer than two (plan_records.c's node_slots), so a
	 * GPU planned with one replica takes a second pod of the node too
	 * (MPS nodes are bought per client count). */
	for (int i = 0; st == GS_STRATEGY_TIME_SLICING && i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		if (x->k > k)
			k = x->k;
	}
	if (st == GS_STRATEGY_TIME_SLICING && k < 2)
		k = 2;
	/* Whole GPUs of a node that is not shared go one to a pod; MIG
	 * instances are checked where they are packed (gs_mig_holds). */
	if ((st != GS_STRATEGY_TIME_SLICING && st != GS_STRATEGY_MPS) || k < 2 ||
	    pg->strategy == GS_STRATEGY_MIG || pg->ng != 1)
		return 1;
	if (n > 0 && on[0]->g[0].tenant != pg->g[0].tenant) {
		if (count_it && pl->robust_bound && pl->placement == GS_PLACEMENT_ROBUST)
			++*pl->robust_bound;
		return 0;
	}
	if (!(reps = node_reps(on, n, pg, &count)))
		return 0;
	w = gs_robust_worst(pl, pg->model, reps, count, -1, k);
	/* MPS caps each client at its split of the memory, which shares out
	 * the driver's reserve too: its clients together hold the usable
	 * memory, without headroom (pack_share.c). */
	offer = gs_memory_offer(pg->model, NULL, st, node_headroom(pl, reps, count));
	ok = w.mem <= offer && w.comp <= pl->target;
	if (!ok && count_it && pl->robust_bound && pl->placement == GS_PLACEMENT_ROBUST)
		++*pl->robust_bound;
	free(reps);
	return ok;
}

int gs_robust_node_ok(const gs_planner *pl, const gs_pgpu *const *on, int n,
                      const gs_pgpu *pg, gs_strategy st, int k)
{
	return node_ok(pl, on, n, pg, st, k, 1);
}

int gs_robust_node_holds(const gs_planner *pl, const gs_pgpu *const *gpus, int n,
                         gs_strategy st, int k)
{
	return n == 0 || node_ok(pl, gpus, n - 1, gpus[n - 1], st, k, 0);
}

/* The instances of profile prof on GPU x. */
static int count_prof(const gs_pgpu *x, const gs_mig_profile *prof)
{
	int n = 0;
	for (int i = 0; i < x->ng; i++)
		n += x->g[i].prof == prof;
	return n;
}

/* Whether a spread: gpu workload asks for profile prof on any GPU of the
 * node. */
static int spread_asks(const gs_planner *pl, const gs_pgpu *const *on, int n,
                       const gs_pgpu *pg, const gs_mig_profile *prof)
{
	for (int i = 0; i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		for (int k = 0; k < x->ng; k++)
			for (int j = 0; x->g[k].prof == prof && j < x->g[k].n; j++)
				if (pl->reps[x->g[k].reps[j]].w->spread == GS_SPREAD_GPU)
					return 1;
	}
	return 0;
}

/* The most profiles one workload's replicas ask on one node that
 * asks_apart tells apart; past it the node is refused. */
#define ASKS_MOST 16

/* Pinned copies let a spread: gpu workload's replicas on one node ask
 * different profiles, and the device plugin hands each any instance of
 * its own profile there: no GPU of the node may hold two instances of
 * the profiles workload wi asks on it (gen.py's seed 1611: replicas in a
 * 1g.20gb and a 2g.20gb on two A100s, the first beside another's
 * 2g.20gb). One profile alone is gs_robust_mig_node_ok's own rule. */
static int asks_apart(const gs_planner *pl, const gs_pgpu *const *on, int n,
                      const gs_pgpu *pg, int wi)
{
	const gs_mig_profile *asks[ASKS_MOST];
	int na = 0;
	for (int i = 0; i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		for (int k = 0; x->strategy == GS_STRATEGY_MIG && k < x->ng; k++) {
			int mine = 0, seen = 0;
			for (int j = 0; j < x->g[k].n; j++)
				mine |= pl->reps[x->g[k].reps[j]].wi == wi;
			for (int a = 0; mine && a < na; a++)
				seen |= asks[a] == x->g[k].prof;
			if (mine && !seen && na == ASKS_MOST)
				return 0;
			if (mine && !seen)
				asks[na++] = x->g[k].prof;
		}
	}
	for (int i = 0; na > 1 && i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		int held = 0;
		for (int k = 0; x->strategy == GS_STRATEGY_MIG && k < x->ng; k++)
			for (int a = 0; a < na; a++)
				held += asks[a] == x->g[k].prof;
		if (held > 1)
			return 0;
	}
	return 1;
}

int gs_robust_mig_ts_holds(const gs_planner *pl, const gs_gpu *g, const gs_mig_profile *prof,
                           const gs_group *const *gs, int n)
{
	int small[64], *reps = small, k = 1, count = 0, ok;
	int64_t room = 0, offer, cap;
	gs_worst w;
	for (int i = 0; i < n; i++) {
		k = gs[i]->n > k ? gs[i]->n : k;
		count += gs[i]->n;
	}
	if (pl->via_dra || k < 2)
		return 1;
	if (count > 64 && !(reps = malloc((size_t)count * sizeof *reps)))
		return 0;
	count = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < gs[i]->n; j++) {
			int r = gs[i]->reps[j];
			reps[count++] = r;
			room = pl->reps[r].headroom > room ? pl->reps[r].headroom : room;
		}
	w = gs_robust_worst(pl, g, reps, count, -1, k);
	offer = gs_memory_offer(g, prof, GS_STRATEGY_TIME_SLICING, room);
	cap = (int64_t)prof->sm_count * GS_PPM / g->sm_count * pl->target / GS_PPM;
	ok = w.mem <= offer && w.comp <= cap;
	if (reps != small)
		free(reps);
	return ok;
}

/* The instances of the profile of pg's instance `at` on on[0..n) and pg,
 * held at the count the device plugin gives them all. */
static int profile_pool_holds(const gs_planner *pl, const gs_pgpu *const *on, int n,
                              const gs_pgpu *pg, int at)
{
	const gs_mig_profile *prof = pg->g[at].prof;
	const gs_group *small[64] = { NULL }, **gs = small;
	int total = 0, m = 0, ok;
	for (int i = 0; i <= n; i++)
		total += (i < n ? on[i] : pg)->ng;
	if (total > 64 && !(gs = malloc((size_t)total * sizeof *gs)))
		return 0;
	for (int i = 0; i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		for (int k = 0; x->strategy == GS_STRATEGY_MIG && k < x->ng; k++)
			if (x->g[k].prof == prof)
				gs[m++] = &x->g[k];
	}
	/* One instance alone of its profile was held at its own count. */
	ok = m < 2 || gs_robust_mig_ts_holds(pl, pg->model, prof, gs, m);
	if (gs != small)
		free(gs);
	return ok;
}

int gs_robust_mig_node_ok(const gs_planner *pl, const gs_pgpu *const *on, int n,
                          const gs_pgpu *pg)
{
	/* The device plugin's, pinned or robust: a DRA claim names its
	 * instance. */
	if (pl->via_dra || pg->strategy != GS_STRATEGY_MIG)
		return 1;
	/* Every profile of the node's GPUs that a spread: gpu workload asks
	 * for: at most one instance of it on each GPU. */
	for (int i = 0; i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		if (x->strategy != GS_STRATEGY_MIG)
			continue;
		for (int k = 0; k < x->ng; k++) {
			const gs_mig_profile *prof = x->g[k].prof;
			if (count_prof(x, prof) < 2 || !spread_asks(pl, on, n, pg, prof))
				continue;
			return 0;
		}
	}
	for (int k = 0; pg->mig_ts && k < pg->ng; k++)
		if (!profile_pool_holds(pl, on, n, pg, k))
			return 0;
	for (int i = 0; pl->placement == GS_PLACEMENT_PINNED && i <= n; i++) {
		const gs_pgpu *x = i < n ? on[i] : pg;
		for (int k = 0; x->strategy == GS_STRATEGY_MIG && k < x->ng; k++)
			for (int j = 0; j < x->g[k].n; j++) {
				const gs_replica *r = &pl->reps[x->g[k].reps[j]];
				if (r->spread == GS_SPREAD_GPU && !asks_apart(pl, on, n, pg, r->wi))
					return 0;
			}
	}
	return 1;
}

/* The bit of profile prof of model g, or 0 when it has none (-1: beyond
 * the mask). */
static int prof_bit(const gs_gpu *g, const gs_mig_profile *prof, uint64_t *bit)
{
	ptrdiff_t i = prof - g->mig_profiles;
	*bit = 0;
	if (!prof)
		return 0;
	if (i < 0 || i >= 64 || (size_t)i >= g->n_mig_profiles)
		return -1;
	*bit = UINT64_C(1) << i;
	return 0;
}

int gs_robust_mig_masks(const gs_planner *pl, const gs_pgpu *g, uint64_t *twice,
                        uint64_t *asked)
{
	uint64_t seen = 0;
	int spread = 0;
	*twice = *asked = 0;
	for (int k = 0; k < g->ng; k++) {
		uint64_t bit;
		if (prof_bit(g->model, g->g[k].prof, &bit) < 0)
			return -1;
		if (g->strategy == GS_STRATEGY_MIG) {
			*twice |= seen & bit;
			seen |= bit;
		} else if (!bit) {
			/* No profile, no bit to ask, and `spread` is read of MIG
			 * GPUs only: nothing to read of the replicas. */
			continue;
		}
		for (int j = 0; j < g->g[k].n; j++)
			if (pl->reps[g->g[k].reps[j]].spread == GS_SPREAD_GPU) {
				*asked |= bit;
				spread = 1;
			}
	}
	/* Pinned copies may ask several profiles a workload (asks_apart),
	 * and time-sliced instances of a profile share one count a node
	 * (gs_robust_mig_ts_holds): rules masks of profiles do not keep. */
	return g->strategy == GS_STRATEGY_MIG &&
	               ((spread && pl->placement == GS_PLACEMENT_PINNED) || g->mig_ts)
	           ? -1
	           : 0;
}
