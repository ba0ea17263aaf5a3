/*
 * pack_share.c - whole GPUs shared by the replicas of one tenant: the rules
 * for a replica joining a group (tenant, isolation, spread, memory, the
 * target compute, and MPS's equal split under the device plugin; each
 * says which of them refuses, for the plan's reasons), and
 * first-fit-decreasing of a model's shareable replicas into such groups.
 * pack.c then gives small tenants the exact packing (pack_exact.c), which
 * asks the same rules; this file calls neither of them.
 *
 * The rules and the fit share a file because the fit calls them in its
 * innermost loop: the static versions may be inlined there, which the
 * exported ones, interposable in a shared library, may not.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/host.h"
#include "plan/pack.h"
#include "plan/radix.h"
#include "plan/robust.h"
#include "plan/share_rule.h"
#include "scenario/scenario.h"

static int64_t gpu_bytes(const gs_gpu *g) { return gs_usable_bytes(g); }
int64_t gs_gpu_bytes(const gs_gpu *g) { return gpu_bytes(g); }

/* First-fit's size of a replica of mem bytes and comp ppm on g: the
 * larger of its part of the memory and of the target. */
static int64_t size_of(const gs_planner *pl, const gs_gpu *g, int64_t mem, int64_t comp)
{
	int64_t mem_share = mem * GS_PPM / gpu_bytes(g);
	int64_t comp_share = comp * GS_PPM / pl->target;
	return mem_share > comp_share ? mem_share : comp_share;
}

int64_t gs_rep_size(const gs_planner *pl, int r, const gs_gpu *g)
{
	return size_of(pl, g, pl->reps[r].w->memory_bytes, gs_rep_comp(pl, r, g));
}

static int group_add(gs_group *gr, int r)
{
	if (gr->n == gr->cap) {
		int ncap = gr->cap ? gr->cap * 2 : 4;
		int *p = realloc(gr->reps, (size_t)ncap * sizeof *p);
		if (!p)
			return -1;
		gr->reps = p;
		gr->cap = ncap;
	}
	gr->reps[gr->n++] = r;
	return 0;
}

/* A replica as a group takes it in, and first-fit sorts it: its size,
 * and what joining reads of it. First-fit copies these while the
 * replicas are read in order: its sort scatters them, and at a million
 * replicas the reads of each one's record and workload at its step were
 * nearly two fifths of first-fit's time. */
typedef struct sortkey {
	int64_t size;
	int64_t mem, comp, headroom;
	int r, tenant, wi, no_ts;
} sortkey;

static void key_of(const gs_planner *pl, const gs_gpu *g, int r, sortkey *k)
{
	const gs_replica *p = &pl->reps[r];
	k->r = r;
	k->mem = p->w->memory_bytes;
	k->comp = gs_rep_comp(pl, r, g);
	k->headroom = p->headroom;
	k->tenant = p->tenant;
	k->wi = p->wi;
	k->no_ts = p->no_ts;
	k->size = size_of(pl, g, k->mem, k->comp);
}

static int key_join(gs_group *gr, const sortkey *k)
{
	int rc = group_add(gr, k->r);
	gr->mem += k->mem;
	gr->comp += k->comp;
	gr->no_ts |= k->no_ts;
	if (k->headroom > gr->headroom)
		gr->headroom = k->headroom;
	return rc;
}

int gs_group_join(const gs_planner *pl, const gs_gpu *g, gs_group *gr, int r)
{
	sortkey k;
	key_of(pl, g, r, &k);
	return key_join(gr, &k);
}

/* MPS through the device plugin splits memory and threads equally. */
static gs_rule mps_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r,
                        int k, gs_rule_figs *f)
{
	int64_t mem_each, comp_each;
	if (pl->no_mps)
		return GS_RULE_MPS_OFF;
	if (pl->no_mps_dra)
		return GS_RULE_MPS_CAPACITY;
	if (!g->mps_max_clients)
		return GS_RULE_NO_MPS;
	if (k > g->mps_max_clients)
		return gs_rule_fig(f, GS_RULE_MPS_CLIENTS, k, g->mps_max_clients, k, -1);
	if (pl->via_dra)
		return GS_RULE_OK;
	/* The plugin splits the memory the driver reports, reserve and all. */
	mem_each = (((g->memory_mib << 20) / k) >> 20) << 20;
	comp_each = (int64_t)(100 / k) * 10000;
	for (int i = 0; i <= gr->n; i++) {
		int x = i < gr->n ? gr->reps[i] : r;
		int64_t comp;
		if (pl->reps[x].w->memory_bytes > mem_each)
			return gs_rule_fig(f, GS_RULE_MPS_MEMORY, pl->reps[x].w->memory_bytes,
			                   mem_each, k, x);
		if ((comp = gs_rep_comp(pl, x, g)) > comp_each)
			return gs_rule_fig(f, GS_RULE_MPS_THREADS, comp, comp_each, k, x);
	}
	return GS_RULE_OK;
}

/* HAMi schedules at most deviceSplitCount pods on one GPU: its chart's
 * default (Project-HAMi/HAMi docs/config.md), which the emitted values
 * keep. DRA's consumable capacity counts memory alone. */
#define HAMI_SPLIT_COUNT 10

int gs_fraction_clients(gs_backend b, const gs_gpu *g)
{
	switch (b) {
	case GS_BACKEND_HAMI:
		return HAMI_SPLIT_COUNT;
	case GS_BACKEND_MPS:
		return g->mps_max_clients;
	case GS_BACKEND_DRA:
		return INT32_MAX;
	default:
		return 0;
	}
}

/* A fraction's SM limit in whole percent: its compute share, rounded up,
 * at least 1 (HAMi's gpucores and MPS's thread percentage are integers). */
static int64_t frac_percent(int64_t comp_ppm)
{
	int64_t pct = (comp_ppm + 9999) / 10000;
	return pct < 1 ? 1 : pct;
}

int gs_fraction_percent(int64_t comp_ppm) { return (int)frac_percent(comp_ppm); }

/* What a fraction backend adds to the shared rules for gr and r as k
 * clients: its client limit, and SM limits that sum within the GPU. */
static gs_rule frac_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r,
                         gs_backend b, gs_rule_figs *f)
{
	int k = gr->n + 1;
	int64_t pct = 0;
	if (b == GS_BACKEND_MPS && pl->no_mps)
		return GS_RULE_MPS_OFF;
	if (b == GS_BACKEND_MPS && !g->mps_max_clients)
		return GS_RULE_NO_MPS;
	if (k > gs_fraction_clients(b, g))
		return gs_rule_fig(f, GS_RULE_FRAC_CLIENTS, k, gs_fraction_clients(b, g), k, -1);
	if (b == GS_BACKEND_DRA)
		return GS_RULE_OK;
	for (int i = 0; i <= gr->n; i++)
		pct += frac_percent(gs_rep_comp(pl, i < gr->n ? gr->reps[i] : r, g));
	if (pct > 100)
		return gs_rule_fig(f, GS_RULE_FRAC_PERCENT, pct, 100, k, -1);
	return GS_RULE_OK;
}

/* A converted share is its exact value rounded up to a whole ppm (on an
 * L4, 45 % of a T4 is 24.1736 %): k of them may sum to k - 1 ppm above
 * their exact sum, so a sum that many ppm over the target may be exactly
 * on it (fleet.py hetero 60 seed 29: 2 x 24.1736 % + 10.9917 % + 30.6612 %
 * of an L4 is 90 % exactly, 900,002 ppm rounded). The target compares the
 * exact sum (exact_within), which never lets a GPU run over either;
 * quality.py's heterogeneous 80 replicas, seed 487 (pinned), planned
 * 2.3 % above optimum.py's optimum by the rounded sum, as two of the
 * optimum's L4 groups are 90 % exactly. */

/* The exact sum, as whole ppm and two fractions over g's figures (its
 * FP16 TFLOPS and its memory bandwidth: every converted share on g is
 * over one of them). */
typedef struct exact_sum {
	int64_t whole, num[2], den[2];
} exact_sum;

/* Replica r's exact share into *e; 0 where a figure would overflow. */
static int exact_add(const gs_planner *pl, int r, const gs_gpu *g, exact_sum *e)
{
	const gs_workload *w = pl->reps[r].w;
	int64_t from, to;
	int k;
	if (!w->measured_on || w->measured_on == g) {
		e->whole += w->compute_ppm;
		return 1;
	}
	k = gs_workload_ratio(w, g, &from, &to) ? 1 : 0;
	if (to <= 0 || to > INT32_MAX || from < 0 || (e->den[k] && e->den[k] != to) ||
	    (w->compute_ppm && from > (INT64_MAX / 2 - e->num[k]) / w->compute_ppm))
		return 0;
	e->den[k] = to;
	e->num[k] += w->compute_ppm * from;
	return 1;
}

/* Whether gr's and r's shares on g, converted exactly, sum within the
 * target: whole parts first, then the two remainders over a common
 * denominator, each below 2^62. */
static int exact_within(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r)
{
	exact_sum e = { 0, { 0, 0 }, { 0, 0 } };
	int64_t rem[2], left;
	for (int i = 0; i <= gr->n; i++)
		if (!exact_add(pl, i < gr->n ? gr->reps[i] : r, g, &e))
			return 0;
	for (int k = 0; k < 2; k++) {
		if (!e.den[k])
			e.den[k] = 1;
		e.whole += e.num[k] / e.den[k];
		rem[k] = e.num[k] % e.den[k];
	}
	if (e.whole > pl->target)
		return 0;
	left = pl->target - e.whole;
	if (left >= 2)
		return 1;
	return rem[0] * e.den[1] + rem[1] * e.den[0] <= left * e.den[0] * e.den[1];
}

/* Whether the target's refusal of gr and r, their sum comp rounded, may
 * be the rounding's: a worst case of robust placement, whose replicas are
 * not all gr's and r's, may be over by a ppm for each of its k. Counted
 * for the optimiser, whose bound is then a program's that lets these
 * pass (opt.c). */
static int near_target(const gs_planner *pl, const gs_group *gr, int64_t comp)
{
	if (!pl->near_target || comp - (gr->n + 1) >= pl->target)
		return 0;
	++*pl->near_target;
	return 1;
}

/* Whether comp, over the target, is within it all the same: the planned
 * sum exactly, and a worst case (worst) only where the optimiser asks for
 * a bound. */
static int within_exactly(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r,
                          int64_t comp, int worst)
{
	if (comp - (gr->n + 1) >= pl->target)
		return 0;
	if (!worst)
		return exact_within(pl, g, gr, r);
	return near_target(pl, gr, comp) && pl->near_relax;
}

/* Whether r joining gr surely fits its worst case under robust
 * placement (gs_robust_surely_fits), from most (the largest memory and
 * compute among gr's members and r, where the caller keeps them) or
 * read of them. */
static int surely_fits(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r,
                       const gs_worst *most, int64_t offer)
{
	int k = gr->n + 1;
	if (!most)
		return gs_robust_surely_fits(pl, g, gr->reps, gr->n, r, k, offer);
	return most->mem * k <= offer && most->comp * k <= pl->target;
}

/* The rules for r joining gr shared by st (time-slicing, MPS, or a
 * fraction of backend b). */
static gs_rule share_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r,
                          gs_strategy st, gs_backend b, const gs_worst *most,
                          gs_rule_figs *f)
{
	const gs_replica *p = &pl->reps[r];
	int64_t room = gr->headroom > p->headroom ? gr->headroom : p->headroom;
	int64_t offer = gs_memory_offer(g, NULL, st, room);
	/* A fraction's scheduler counts each pod's memory: only the compute
	 * of the worst case is at stake. MPS's split caps each client, but
	 * the plugin counts slots, not bytes, and its clients together may
	 * ask more than the usable memory (the split shares out the
	 * driver's reserve too): two 40 GiB clients of an 80 GB A100 ask
	 * 80 of its 79.25 GiB. */
	int capped = st == GS_STRATEGY_FRACTION;
	gs_worst w = { gr->mem + p->w->memory_bytes, gr->comp + gs_rep_comp(pl, r, g) };
	int64_t comp, planned_comp = w.comp;
	if (gr->tenant != p->tenant)
		return GS_RULE_TENANT;
	if (p->w->isolation_fault)
		return GS_RULE_FAULT;
	if (gs_spread_conflict(pl, gr->reps, gr->n, r))
		return GS_RULE_SPREAD;
	/* The worst case is never below the planned sums: those refuse
	 * first, cheaply, and a sure fit needs no worst case either. */
	if (pl->placement == GS_PLACEMENT_ROBUST && w.mem <= offer &&
	    gs_share_within(w.comp, pl->target) &&
	    !surely_fits(pl, g, gr, r, most, capped ? INT64_MAX / 64 : offer)) {
		gs_worst planned = w;
		w = gs_robust_bind(pl, w, gs_robust_worst(pl, g, gr->reps, gr->n, r, gr->n + 1),
		                   capped ? INT64_MAX : offer);
		if (capped)
			w.mem = planned.mem;
	}
	comp = w.comp;
	if (w.mem > offer)
		return gs_rule_fig(f, GS_RULE_MEMORY, w.mem, offer, gr->n + 1, -1);
	if (!gs_share_within(comp, pl->target) &&
	    !within_exactly(pl, g, gr, r, comp, comp != planned_comp))
		return gs_rule_fig(f, GS_RULE_TARGET, comp, pl->target, gr->n + 1, -1);
	/* A GPU's replicas share its node's CPU and RAM. */
	if (!gs_host_may_join(pl, g, gr->reps, gr->n, r))
		return GS_RULE_HOST;
	if (st == GS_STRATEGY_FRACTION && b == GS_BACKEND_DRA &&
	    !gs_robust_dra_ok(pl, g, gr->reps, gr->n, r))
		return gs_rule_fig(f, GS_RULE_TARGET, INT64_MAX, pl->target, gr->n + 1, -1);
	if (st == GS_STRATEGY_FRACTION)
		return frac_rule(pl, g, gr, r, b, f);
	if (st == GS_STRATEGY_MPS)
		return mps_rule(pl, g, gr, r, gr->n + 1, f);
	return GS_RULE_OK;
}

static gs_backend frac_backend(const gs_planner *pl, int no_ts)
{
	return gs_frac_backend(pl, no_ts);
}

/* A fraction where the file allows one and its rules hold; else MPS where
 * time-slicing is ruled out, else time-slicing. */
static gs_rule join_rule_most(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                              int r, const gs_worst *most, gs_rule_figs *f)
{
	int no_ts = gr->no_ts || pl->reps[r].no_ts;
	gs_backend b = frac_backend(pl, no_ts);
	gs_rule fr;
	if (b == GS_BACKEND_NONE)
		return share_rule(pl, g, gr, r, no_ts ? GS_STRATEGY_MPS : GS_STRATEGY_TIME_SLICING,
		                  GS_BACKEND_NONE, most, f);
	if ((fr = share_rule(pl, g, gr, r, GS_STRATEGY_FRACTION, b, most, NULL)) == GS_RULE_OK ||
	    share_rule(pl, g, gr, r, no_ts ? GS_STRATEGY_MPS : GS_STRATEGY_TIME_SLICING,
	               GS_BACKEND_NONE, most, f) == GS_RULE_OK)
		return GS_RULE_OK;
	/* Both refuse: a fraction offers the most memory, so unless its own
	 * limits refused, its figures are the ones that bind. */
	if (fr == GS_RULE_FRAC_CLIENTS || fr == GS_RULE_FRAC_PERCENT)
		return share_rule(pl, g, gr, r, no_ts ? GS_STRATEGY_MPS : GS_STRATEGY_TIME_SLICING,
		                  GS_BACKEND_NONE, most, f);
	return share_rule(pl, g, gr, r, GS_STRATEGY_FRACTION, b, most, f);
}

static gs_rule join_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r,
                         gs_rule_figs *f)
{
	return join_rule_most(pl, g, gr, r, NULL, f);
}

gs_rule gs_frac_group_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                           gs_backend b, gs_rule_figs *f)
{
	gs_group most = { 0 };
	if (gr->mem > gs_usable_bytes(g))
		return gs_rule_fig(f, GS_RULE_MEMORY, gr->mem, gs_usable_bytes(g), gr->n, -1);
	most.tenant = gr->tenant;
	most.n = gr->n - 1;
	most.reps = gr->reps;
	return frac_rule(pl, g, &most, gr->reps[gr->n - 1], b, f);
}

/* Does the whole group hold as a fraction of backend b? */
static int frac_holds(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, gs_backend b)
{
	return gr->n >= 2 && gs_frac_group_rule(pl, g, gr, b, NULL) == GS_RULE_OK;
}

gs_strategy gs_group_share(const gs_planner *pl, const gs_gpu *g, const gs_group *gr)
{
	gs_backend b = frac_backend(pl, gr->no_ts);
	if (gr->n == 1)
		return GS_STRATEGY_DEDICATED;
	if (b != GS_BACKEND_NONE && frac_holds(pl, g, gr, b))
		return GS_STRATEGY_FRACTION;
	return gr->no_ts ? GS_STRATEGY_MPS : GS_STRATEGY_TIME_SLICING;
}


/* Joining makes the group shared: by a fraction where the file allows
 * one, else by MPS where time-slicing is ruled out, whose limits isolate
 * memory, else by time-slicing, under the largest headroom of its
 * members. */
static int can_join(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r)
{
	return join_rule(pl, g, gr, r, NULL) == GS_RULE_OK;
}

int gs_can_join(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r)
{
	return can_join(pl, g, gr, r);
}

gs_rule gs_mps_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r, int k,
                    gs_rule_figs *f)
{
	return mps_rule(pl, g, gr, r, k, f);
}

gs_rule gs_join_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r,
                     gs_rule_figs *f)
{
	return join_rule(pl, g, gr, r, f);
}

int gs_rule_refuses_mps(const gs_planner *pl, gs_rule v, const gs_rule_figs *f, int r)
{
	int member = (v == GS_RULE_MPS_MEMORY || v == GS_RULE_MPS_THREADS) && f->rep >= 0 &&
	             f->rep != r;
	return (member || v == GS_RULE_MPS_CLIENTS || v == GS_RULE_MPS_OFF ||
	        v == GS_RULE_MPS_CAPACITY || v == GS_RULE_NO_MPS) &&
	       frac_backend(pl, 1) == GS_BACKEND_NONE &&
	       (pl->placement != GS_PLACEMENT_ROBUST || !pl->robust_bound || *pl->robust_bound);
}

/* ---- first fit ----------------------------------------------------------- */

static int by_size_desc(const void *a, const void *b)
{
	const sortkey *x = a, *y = b;
	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return x->r - y->r;
}

/* by_size_desc's order by radix sort, one key of the two (qsort's calls
 * were 2.4 % of a 100,000-replica plan); -1 when a size or replica does
 * not fit 32 bits (then qsort them) or out of memory. Below RADIX_FROM
 * replicas (the tenant search's packings) the radix passes cost more. */
#define RADIX_FROM 1024

static int sort_keys(sortkey *keys, int n)
{
	gs_keyed *k = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *k);
	sortkey *was = malloc((size_t)(n > 0 ? n : 1) * sizeof *was);
	int rc = k && was ? 0 : -1;
	for (int i = 0; i < n && rc == 0; i++) {
		if (keys[i].size < 0 || keys[i].size > UINT32_MAX || keys[i].r < 0)
			rc = -1;
		k[i].key = (uint64_t)(UINT32_MAX - keys[i].size) << 32 | (uint32_t)keys[i].r;
		k[i].val = (size_t)i;
		was[i] = keys[i];
	}
	if (rc == 0) {
		gs_radix_sort(k, k + n, (size_t)n);
		for (int i = 0; i < n; i++)
			keys[i] = was[k[i].val];
	}
	free(k);
	free(was);
	return rc;
}

/* Each tenant's open groups, so first-fit looks only at groups a replica
 * may join: with many tenants, a window over all groups would rarely hold
 * one of the replica's own. Each keeps its group's planned sums beside
 * it, which the window is mostly passed over on: read from the groups
 * themselves, scattered, those reads were a quarter of first-fit's time
 * at a million replicas. */
typedef struct tg_slot {
	int64_t mem, comp;   /* gs[g]'s sums */
	gs_worst most;       /* the largest memory and compute of its members,
	                      * for the rules' sure fit (surely_fits): read of
	                      * the members, scattered, that was a twentieth of
	                      * the CPU at 10^6 replicas */
	int g;
	int refuses;         /* what surely_refused found of gs[g], as it stands */
} tg_slot;

typedef struct tenant_groups {
	tg_slot *v;
	int n, cap;
} tenant_groups;

static int tg_add(tenant_groups *t, const gs_group *gs, int g)
{
	if (t->n == t->cap) {
		int ncap = t->cap ? t->cap * 2 : 8;
		tg_slot *p = realloc(t->v, (size_t)ncap * sizeof *p);
		if (!p)
			return -1;
		t->v = p;
		t->cap = ncap;
	}
	/* A new group holds one replica: its sums are that replica's. */
	t->v[t->n++] = (tg_slot){ gs[g].mem, gs[g].comp, { gs[g].mem, gs[g].comp }, g, 0 };
	return 0;
}

/* First-fit's memo of one group: the worst case under robust placement
 * of its own workloads in k slots (0: none yet). */
typedef struct own_worst {
	int k;
	gs_worst w;
} own_worst;

/* Under robust placement the worst case of gr with r in k = n + 1 slots
 * is at least that of gr's own workloads in k slots, so when theirs
 * already breaks the target (or, where only time-slicing may share, the
 * memory), no rule lets r join. That case is kept in *ow, as many
 * replicas ask the same group at the same size. A refusal counted in
 * pl->robust_bound decides whether the pinned plan is priced, so the full
 * rules still run until the first one is counted. REFUSES_ALL: no replica
 * may join gr; REFUSES_TS: none that may be time-sliced. Neither depends
 * on r otherwise, and the count only grows, so either stands until gr
 * changes. */
enum { REFUSES_ALL = 1, REFUSES_TS = 2 };

static int surely_refused(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                          own_worst *ow, int r_no_ts)
{
	int no_ts = gr->no_ts || r_no_ts;
	if (pl->placement != GS_PLACEMENT_ROBUST || (pl->robust_bound && !*pl->robust_bound))
		return 0;
	if (ow->k != gr->n + 1) {
		ow->w = gs_robust_worst(pl, g, gr->reps, gr->n, -1, gr->n + 1);
		ow->k = gr->n + 1;
	}
	if (!gs_share_within(ow->w.comp, pl->target))
		return REFUSES_ALL;
	return !no_ts && frac_backend(pl, 0) == GS_BACKEND_NONE &&
	               ow->w.mem > gs_memory_offer(g, NULL, GS_STRATEGY_TIME_SLICING, gr->headroom)
	           ? REFUSES_TS
	           : 0;
}

/* The groups, by position in their tenant's list, that refused the last
 * replica placed: lo .. hi, of workload wi (-1: none). Every rule reads a
 * replica's workload only (its memory, compute, headroom, time-slicing
 * rule, spread, host requests), so until one of those groups changes it
 * refuses the workload's next replica too; and the sort puts a workload's
 * replicas one after another, the groups changing only where they go. */
typedef struct refused {
	int wi, lo, hi;
} refused;

/* Replica r into one of its tenant's last groups; 1 if it fit. Every
 * rule's worst case is at least the planned sums, and no offer exceeds
 * the usable memory, so a group those sums overflow is passed over
 * without asking the rules: most of a window's groups are nearly full.
 * The groups that refused r's workload's replica before (*no) are passed
 * over too: at a million replicas, asking them again was a third of the
 * packing. A robust refusal was counted when first asked. */
static int fit_open(const gs_planner *pl, const gs_gpu *g, gs_group *gs, own_worst *ow,
                    const tenant_groups *t, const sortkey *key, refused *no)
{
	int64_t mem = key->mem, comp = key->comp;
	int64_t usable = gpu_bytes(g);
	gs_worst most;
	int same = no->wi == key->wi, low = t->n - GS_FIT_WINDOW;
	no->wi = key->wi;
	for (int k = t->n - 1; k >= 0 && k >= low; k--) {
		tg_slot *x = &t->v[k];
		int j = x->g;
		if (same && k >= no->lo && k <= no->hi) {
			k = no->lo;
			continue;
		}
		if (x->mem + mem > usable || !gs_share_within(x->comp + comp, pl->target) ||
		    x->refuses == REFUSES_ALL || (x->refuses && !key->no_ts))
			continue;
		most.mem = x->most.mem > key->mem ? x->most.mem : key->mem;
		most.comp = x->most.comp > key->comp ? x->most.comp : key->comp;
		if ((x->refuses = surely_refused(pl, g, &gs[j], &ow[j], key->no_ts)) != 0 ||
		    join_rule_most(pl, g, &gs[j], key->r, &most, NULL) != GS_RULE_OK)
			continue;
		no->lo = k + 1;
		no->hi = t->n - 1;
		if (key_join(&gs[j], key) < 0)
			return -1;
		x->mem = gs[j].mem;
		x->comp = gs[j].comp;
		x->most = most;
		x->refuses = 0;
		return 1;
	}
	no->lo = low > 0 ? low : 0;
	no->hi = t->n - 1;
	return 0;
}

static int ffd(const gs_planner *pl, const gs_gpu *g, const sortkey *keys, int n,
               tenant_groups *tg, gs_group **out, int *nout)
{
	gs_group *gs = NULL;
	own_worst *ow = NULL;
	refused no = { -1, 0, -1 };
	size_t cap = 0, owcap = 0;
	int ng = 0, rc = 0;

	for (int i = 0; i < n && rc == 0; i++) {
		tenant_groups *t = &tg[keys[i].tenant];
		if ((rc = fit_open(pl, g, gs, ow, t, &keys[i], &no)) != 0) {
			rc = rc < 0 ? -1 : 0;
			continue;
		}
		if (gs_grow(&gs, &cap, (size_t)ng + 1, sizeof *gs) < 0 ||
		    gs_grow(&ow, &owcap, (size_t)ng + 1, sizeof *ow) < 0) {
			rc = -1;
			break;
		}
		memset(&gs[ng], 0, sizeof gs[ng]);
		ow[ng].k = 0;
		gs[ng].tenant = keys[i].tenant;
		rc = key_join(&gs[ng], &keys[i]);
		if (rc == 0)
			rc = tg_add(t, gs, ng);
		ng++;
	}
	free(ow);
	*out = gs;
	*nout = ng;
	return rc;
}

int gs_share_first_fit(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                       gs_group **out, int *nout)
{
	sortkey *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
	tenant_groups *tg = calloc((size_t)(pl->ntenants ? pl->ntenants : 1), sizeof *tg);
	gs_group *gs = NULL;
	int ng = 0, rc = -1;

	if (keys && tg) {
		for (int i = 0; i < n; i++)
			key_of(pl, g, reps[i], &keys[i]);
		if (n < RADIX_FROM || sort_keys(keys, n) < 0)
			qsort(keys, (size_t)n, sizeof *keys, by_size_desc);
		rc = ffd(pl, g, keys, n, tg, &gs, &ng);
		for (int k = 0; k < pl->ntenants; k++)
			free(tg[k].v);
	}
	free(tg);
	free(keys);
	if (rc < 0) {
		gs_groups_free(gs, ng);
		return -1;
	}
	*out = gs;
	*nout = ng;
	return 0;
}
