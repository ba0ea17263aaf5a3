/*
 * test_bound.c - the volume bound's shares of a whole GPU (bound.c): a
 * time-sliced replica's memory counts against what the memory headroom
 * leaves, and MPS's equal split, which has no headroom, keeps the bound
 * under plans that share by MPS. Exact figures from the shipped profiles:
 * an L4 (g6.xlarge, $0.8048/h) has 22,478 usable MiB (23,034 less the
 * driver's 556), 20,230.2 of them offered to time-sliced pods under the
 * default headroom of 10 %; the device plugin splits all 23,034 among MPS
 * clients.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/bound.h"
#include "plan/cg.h"
#include "plan/robust.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* Three of 6 GiB (6,144 MiB) share one L4 (18,432 of 20,230.2 MiB). MPS
 * would split it three ways (7,678 MiB each; four ways leave 5,758), a
 * third each, more than 6,144 of 20,230.2: time-slicing's share is the
 * least, 18,432 / 20,230.2 of $0.8048/h. */
#define THREE "version: 1\ninstances: [g6.xlarge]\nplacement: pinned\n%s" \
	"workloads:\n  - {name: a, replicas: 3, gpuMemory: 6GiB, compute: 5%%}\n"

/* The plan of the file made of fmt and arg, its cost; and its volume
 * bound. */
static gs_micros plan_cost(const char *fmt, const char *arg)
{
	char text[512];
	gs_scenario *s;
	gs_plan *p;
	gs_micros cost;
	snprintf(text, sizeof text, fmt, arg);
	s = tu_scenario(cat, "t.yaml", text);
	p = tu_plan(s);
	cost = gs_plan_summary_get(p)->after_per_hour;
	gs_plan_free(p);
	gs_scenario_free(s);
	return cost;
}

static gs_micros volume_of(const char *fmt, const char *arg)
{
	char text[512];
	gs_scenario *s;
	gs_micros v;
	snprintf(text, sizeof text, fmt, arg);
	s = tu_scenario(cat, "t.yaml", text);
	v = tu_volume_of(s);
	gs_scenario_free(s);
	return v;
}

static void test_headroom_counts(void **state)
{
	(void)state;
	assert_int_equal(plan_cost(THREE, ""), 804800);
	assert_int_equal(volume_of(THREE, ""), 733263);
	/* Without headroom the usable memory is offered: 18,432 / 22,478. */
	assert_int_equal(volume_of(THREE, "memoryHeadroom: 0%\n"), 659937);
}

/* Under targetUtilization 100 %, latency-critical inference at 50 % may
 * not be time-sliced, but two MPS clients split an L4 in halves: c and d
 * (10.75 GiB, 40 %) share one: 11,008 MiB each, within the split of
 * 11,517 MiB, and 22,016 MiB together, more than time-slicing would offer.
 * Counted against that offer, d's share (0.544) and c's (a half) would
 * bound the plan above its cost; MPS's split gives d a half too. */
#define HALVES "version: 1\ninstances: [g6.xlarge]\nplacement: pinned\n" \
	"targetUtilization: 100%\nworkloads:\n" \
	"  - {name: c, kind: inference, latency: critical, gpuMemory: 10.75GiB, compute: 50%}\n" \
	"  - {name: d, kind: inference, gpuMemory: 10.75GiB, compute: 40%}\n"

static void test_mps_split_keeps_it_valid(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", HALVES);
	gs_plan *p = tu_plan(s);
	const gs_plan_node *n;
	(void)state;
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 804800);
	assert_int_equal(gs_plan_node_count(p), 1);
	n = gs_plan_node_at(p, 0);
	assert_int_equal(n->gpus[0].strategy, GS_STRATEGY_MPS);
	assert_int_equal(tu_volume_of(s), 804799);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Under robust placement a workload's replicas stand for one another: a
 * GPU that time-slices k of seven 6 GiB replicas must hold k of them, so
 * at most 3 (18,432 of 20,230.2 MiB; 4 need 24,576), and MPS splits the
 * L4 in three for 6 GiB clients too: every replica takes a slot of at
 * least a third of a GPU, 7 thirds of $0.8048/h. Pinned, a GPU holds what
 * is planned on it and the bound counts memory (6,144 / 20,230.2 each,
 * under a third: no dual feasible function rounds it up). Both plans take
 * 3 L4s. */
#define SEVEN "version: 1\ninstances: [g6.xlarge]\nplacement: %s\nworkloads:\n" \
	"  - {name: a, kind: batch, replicas: 7, gpuMemory: 6GiB, compute: 5%%}\n"

static void test_robust_slots(void **state)
{
	(void)state;
	assert_int_equal(plan_cost(SEVEN, "robust"), 2414400);
	assert_int_equal(volume_of(SEVEN, "robust"), 1877866);
	assert_int_equal(volume_of(SEVEN, "pinned"), 1710948);
}

/* The relaxation prices a filling by its slots too. Robust, a GPU holds
 * 3 of seven 6 GiB replicas at most, and so at most 3 replicas in all
 * once it holds one: the 1 GiB replica joins two of them, and the
 * fillings {a, a, a} and {a, a, b} cover all eight in 8/3 GPUs of
 * $0.8048/h (the plan takes 3). Pinned, {a, a, a, b} fits (19,456 of
 * 20,230.2 MiB): 7/3. */
#define EIGHT "version: 1\ninstances: [g6.xlarge]\nplacement: %s\nworkloads:\n" \
	"  - {name: a, kind: batch, replicas: 7, gpuMemory: 6GiB, compute: 5%%}\n" \
	"  - {name: b, kind: batch, gpuMemory: 1GiB, compute: 5%%}\n"

static gs_micros relaxation_of(const char *placement)
{
	char text[256];
	gs_scenario *s;
	tu_planned t;
	gs_micros v;
	snprintf(text, sizeof text, EIGHT, placement);
	s = tu_scenario(cat, "t.yaml", text);
	tu_planned_open(&t, s);
	v = gs_cg_bound(&t.pl, &t.c, 1);
	tu_planned_close(&t);
	gs_scenario_free(s);
	return v;
}

static void test_robust_relaxation(void **state)
{
	(void)state;
	assert_int_equal(relaxation_of("robust"), 2146133);
	assert_int_equal(relaxation_of("pinned"), 1877866);
}

/* ---- the bounds against robust optima found by brute force --------------- */

#define MOST 7

/* Whether replicas reps[0..n) may share one L4 (or take it alone) under
 * robust placement, time-sliced: the worst case of their workloads in n
 * slots within what time-slicing offers under their largest headroom and
 * within the target. */
static int group_fits(const gs_planner *pl, const gs_gpu *g, const int *reps, int n)
{
	int64_t room = 0;
	gs_worst w;
	if (n == 1)
		return pl->reps[reps[0]].w->memory_bytes <= gs_usable_bytes(g);
	/* Two replicas of a spread workload never share a GPU. */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (pl->reps[reps[i]].wi == pl->reps[reps[j]].wi &&
			    pl->reps[reps[i]].w->spread != GS_SPREAD_NONE)
				return 0;
	for (int i = 0; i < n; i++)
		if (pl->reps[reps[i]].headroom > room)
			room = pl->reps[reps[i]].headroom;
	w = gs_robust_worst(pl, g, reps, n, -1, n);
	return w.mem <= gs_memory_offer(g, NULL, GS_STRATEGY_TIME_SLICING, room) &&
	       w.comp <= pl->target;
}

/* The packer's own rule for the same question (gs_can_join, time-sliced
 * or by MPS where a replica may not be time-sliced), asked one replica
 * after another: a group's rules only tighten as it grows, so its every
 * order passes when the whole group may share. */
static int joins(const gs_planner *pl, const gs_gpu *g, const int *reps, int n)
{
	gs_group gr;
	int ok;
	if (n == 1)
		return pl->reps[reps[0]].w->memory_bytes <= gs_usable_bytes(g);
	memset(&gr, 0, sizeof gr);
	gr.tenant = pl->reps[reps[0]].tenant;
	ok = gs_group_join(pl, g, &gr, reps[0]) == 0;
	for (int i = 1; ok && i < n; i++)
		ok = gs_can_join(pl, g, &gr, reps[i]) && gs_group_join(pl, g, &gr, reps[i]) == 0;
	free(gr.reps);
	return ok;
}

typedef int (*fits_fn)(const gs_planner *pl, const gs_gpu *g, const int *reps, int n);

/* The fewest GPUs any partition of the n replicas into groups that fit
 * takes: every restricted growth string of n. */
static int fewest_gpus(const gs_planner *pl, const gs_gpu *g, int n, fits_fn fits)
{
	int block[MOST] = { 0 }, best = n, done = 0;
	while (!done) {
		int nb = 0, ok = 1;
		for (int i = 0; i < n; i++)
			nb = block[i] + 1 > nb ? block[i] + 1 : nb;
		for (int b = 0; ok && b < nb; b++) {
			int reps[MOST], k = 0;
			for (int i = 0; i < n; i++)
				if (block[i] == b)
					reps[k++] = i;
			ok = fits(pl, g, reps, k);
		}
		if (ok && nb < best)
			best = nb;
		/* The next string: the last place that may grow grows. */
		done = 1;
		for (int i = n - 1; i > 0; i--) {
			int most = 0;
			for (int j = 0; j < i; j++)
				most = block[j] > most ? block[j] : most;
			if (block[i] <= most) {
				block[i]++;
				for (int j = i + 1; j < n; j++)
					block[j] = 0;
				done = 0;
				break;
			}
		}
	}
	return best;
}

/* A seeded fleet of up to 7 replicas of two or three workloads (some
 * spread; with `critical`, some latency-critical inference, which MPS
 * shares where over 50 % of compute rules time-slicing out) on one-GPU
 * L4 nodes, as a format with the placement's %s. */
static void fleet_text(uint64_t *x, int critical, char *text, size_t size)
{
	static const int gib[] = { 2, 3, 5, 6, 8, 10, 12 };
	static const int pct[] = { 5, 10, 20, 30, 45, 55 };
	int nw = 2 + tu_below(x, 2), left = MOST;
	size_t len = (size_t)snprintf(text, size, "version: 1\ninstances: [g6.xlarge]\n"
	                                          "placement: %%s\nworkloads:\n");
	for (int w = 0; w < nw; w++) {
		int n = 1 + tu_below(x, w == nw - 1 ? left : left - (nw - 1 - w));
		/* One draw after another: the order of a call's arguments is
		 * the compiler's. */
		int spread = tu_below(x, 4) == 0, mem = gib[tu_below(x, 7)];
		int comp = pct[tu_below(x, critical ? 6 : 5)];
		const char *kind = critical && tu_below(x, 2) == 0
		                   ? "kind: inference, latency: critical" : "kind: batch";
		n = n > 4 ? 4 : n;
		left -= n;
		len += (size_t)snprintf(text + len, size - len,
		                        "  - {name: w%d, %s, replicas: %d, spread: %s, "
		                        "gpuMemory: %dGiB, compute: %d%%%%}\n",
		                        w, kind, n, spread ? "gpu" : "none", mem, comp);
	}
}

typedef struct brute {
	int raised;    /* the robust volume bound above the pinned one */
	int cg_raised; /* the relaxation above the robust volume bound */
	int mps;       /* fleets with a replica that only MPS may share */
} brute;

/* 200 such fleets: neither the volume bound nor the linear relaxation
 * (cg.c) exceeds the robust optimum found by fits, which the plan never
 * undercuts (the brute force knows every rule that binds them: checked
 * on 50 of them). */
static brute brute_force(uint64_t seed, int critical, fits_fn fits)
{
	brute b = { 0, 0, 0 };
	uint64_t x = seed;
	for (int round = 0; round < 200; round++) {
		char text[1024], doc[1024];
		tu_planned t;
		gs_scenario *s;
		gs_plan *p;
		gs_micros opt, bound, relaxed;
		fleet_text(&x, critical, text, sizeof text);
		snprintf(doc, sizeof doc, text, "robust");
		s = tu_scenario(cat, "t.yaml", doc);
		tu_planned_open(&t, s);
		opt = (gs_micros)fewest_gpus(&t.pl, t.pl.models[0], t.pl.nreps, fits) * 804800;
		bound = gs_volume_bound(&t.pl, &t.c);
		relaxed = gs_cg_bound(&t.pl, &t.c, 1);
		for (int r = 0; r < t.pl.nreps; r++)
			if (t.pl.reps[r].no_ts) {
				b.mps++;
				break;
			}
		tu_planned_close(&t);
		assert_true(bound <= opt);
		assert_true(relaxed <= opt);
		b.cg_raised += relaxed > bound;
		/* Every fourth: a plan is the test's dearest step, under
		 * valgrind most of its time. */
		if (round % 4 == 0) {
			p = tu_plan(s);
			assert_true(gs_plan_summary_get(p)->after_per_hour >= opt);
			gs_plan_free(p);
		}
		gs_scenario_free(s);
		snprintf(doc, sizeof doc, text, "pinned");
		s = tu_scenario(cat, "t.yaml", doc);
		b.raised += bound > tu_volume_of(s);
		gs_scenario_free(s);
	}
	return b;
}

/* Batch fleets against the robust rule written out plainly (group_fits):
 * the slots raise the volume bound above the pinned one on 25, and the
 * relaxation, pricing fillings by their slots, is above the robust volume
 * bound on 178. */
static void test_robust_bound_valid(void **state)
{
	brute b = brute_force(0x5107u, 0, group_fits);
	(void)state;
	assert_int_equal(b.raised, 25);
	assert_int_equal(b.cg_raised, 178);
	assert_int_equal(b.mps, 0);
}

/* Fleets with latency-critical inference against the packer's rule,
 * MPS's split and its worst case of compute included: 35 of them have a
 * replica only MPS may share; the slots raise the volume bound on 42, the
 * relaxation is above it on 162. */
static void test_robust_bound_valid_mps(void **state)
{
	brute b = brute_force(0x3a11u, 1, joins);
	(void)state;
	assert_int_equal(b.raised, 42);
	assert_int_equal(b.cg_raised, 162);
	assert_int_equal(b.mps, 35);
}

/* The hint in two steps (gs_volume_hint, then gs_volume_hint_bound) is
 * gs_volume_bound_hint, its models and its bound; a planner that reports
 * no bound (a summary-only plan) stops at the looser shares' bound. On a
 * fleet of MIG and MPS models, where the bound also splits. */
static void test_hint_in_two_steps(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, "fixtures/unit/mixed-300.yaml");
	tu_planned t;
	gs_vhint *h;
	gs_micros whole, two, loose;
	int *a, *b;
	(void)state;
	tu_planned_open(&t, s);
	a = calloc(s->n, sizeof *a);
	b = calloc(s->n, sizeof *b);
	assert_non_null(a);
	assert_non_null(b);
	whole = gs_volume_bound_hint(&t.pl, &t.c, a);
	assert_int_equal(gs_volume_hint(&t.pl, &t.c, b, &h), 0);
	assert_memory_equal(a, b, s->n * sizeof *a);
	two = gs_volume_hint_bound(h, &t.pl, &t.c);
	gs_volume_hint_free(h);
	assert_int_equal(two, whole);
	assert_true(gs_bound_splits(&t.pl, &t.c));
	t.pl.summary_only = 1;
	assert_int_equal(gs_volume_hint(&t.pl, &t.c, b, &h), 0);
	loose = gs_volume_hint_bound(h, &t.pl, &t.c);
	gs_volume_hint_free(h);
	assert_int_equal(loose, gs_volume_bound_hint(&t.pl, &t.c, b));
	/* $127.42/h with the tight sums, $109.93/h without. */
	assert_int_equal(whole, 127421675);
	assert_int_equal(loose, 109925859);
	free(a);
	free(b);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hint_in_two_steps),
		cmocka_unit_test(test_headroom_counts),
		cmocka_unit_test(test_mps_split_keeps_it_valid),
		cmocka_unit_test(test_robust_slots),
		cmocka_unit_test(test_robust_relaxation),
		cmocka_unit_test(test_robust_bound_valid),
		cmocka_unit_test(test_robust_bound_valid_mps),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
