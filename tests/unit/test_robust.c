/*
 * test_robust.c - robust placement: a shared GPU holds the worst case of
 * the workloads its pool admits (the k largest replicas any placement may
 * seat there), pools separate nodes of different workloads, and the plan
 * states what robustness costs against pinned placement; what of it the
 * bounds keep. Exact figures
 * from the shipped profiles (an L4 offers 19.76 GiB to time-sliced pods).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/robust.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* Two of a (11 GiB) may land on one L4 beside nothing else: 22 GiB. */
#define PAIRS "version: 1\ninstances: [g6.xlarge]\nworkloads:\n" \
	"  - {name: a, replicas: 2, gpuMemory: 11GiB, compute: 10%}\n" \
	"  - {name: b, replicas: 2, gpuMemory: 8GiB, compute: 10%}\n"

static int shared_gpus(const gs_plan *p)
{
	int n = 0;
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		n += gs_plan_node_at(p, i)->gpus[0].strategy == GS_STRATEGY_TIME_SLICING;
	return n;
}

static void test_robust_keeps_the_worst_case(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", PAIRS);
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	(void)state;
	/* a + b fits one L4 (19 of 19.76 GiB), but so would the scheduler's
	 * a + a (22 GiB): a stays alone, the two b share. */
	assert_int_equal(sum->gpus_after, 3);
	assert_int_equal(shared_gpus(p), 1);
	assert_int_equal(sum->placement, GS_PLACEMENT_ROBUST);
	assert_int_equal(sum->after_per_hour, 2414400);
	assert_int_equal(sum->pinned_per_hour, 1609600);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* The rule the bounds keep of robust placement (robust.h): a workload of
 * two replicas or more, without spread, whose two replicas need more than
 * a GPU's memory or compute over its cap, has each GPU it shares alone. */
static void test_robust_alone(void **state)
{
	gs_planner pl;
	gs_workload w;
	const int64_t gib = 1LL << 30;
	(void)state;
	memset(&pl, 0, sizeof pl);
	memset(&w, 0, sizeof w);
	pl.placement = GS_PLACEMENT_ROBUST;
	w.replicas = 2;
	w.memory_bytes = 12 * gib;
	assert_true(gs_robust_alone(&pl, &w, 100000, 23 * gib, 900000));  /* 24 GiB */
	assert_false(gs_robust_alone(&pl, &w, 100000, 24 * gib, 900000)); /* fits */
	assert_true(gs_robust_alone(&pl, &w, 450001, 24 * gib, 900000));  /* compute */
	assert_false(gs_robust_alone(&pl, &w, 450000, 24 * gib, 900000));
	w.spread = GS_SPREAD_GPU; /* one per GPU */
	assert_false(gs_robust_alone(&pl, &w, 100000, 23 * gib, 900000));
	w.spread = GS_SPREAD_NONE;
	w.replicas = 1; /* none to pair with */
	assert_false(gs_robust_alone(&pl, &w, 100000, 23 * gib, 900000));
	w.replicas = 2;
	pl.frac_ts = GS_BACKEND_HAMI; /* fractions: rules of their own */
	assert_false(gs_robust_alone(&pl, &w, 100000, 23 * gib, 900000));
	pl.frac_ts = GS_BACKEND_NONE;
	pl.placement = GS_PLACEMENT_PINNED;
	assert_false(gs_robust_alone(&pl, &w, 100000, 23 * gib, 900000));
}

/* So the volume bound gives a (two of 12 GiB: 24 GiB, over an L4's 22.49)
 * whole GPUs under robust placement, $0.8048/h each, and b its shares on
 * top: time-sliced, 4 of the 19.755 GiB the default headroom of 10 % leaves
 * of 21.95 usable; under MPS, a fifth (4 GiB fits the split of 23,034 MiB
 * five ways, 4,606 MiB, not six): the lesser, twice, $0.32192/h. Pinned, a replica of a
 * takes over half an L4, so the bound's dual feasible function counts it
 * whole too, but then drops b's: $1.6096/h (less a micro-dollar, rounded
 * down). */
#define ALONE "version: 1\ninstances: [g6.xlarge]\nworkloads:\n" \
	"  - {name: a, replicas: 2, gpuMemory: 12GiB, compute: 10%}\n" \
	"  - {name: b, replicas: 2, gpuMemory: 4GiB, compute: 10%}\n"

static void test_volume_bound_keeps_alone(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", ALONE);
	(void)state;
	assert_int_equal(tu_volume_of(s), 1931519);
	s->placement = GS_PLACEMENT_PINNED;
	assert_int_equal(tu_volume_of(s), 1609599);
	gs_scenario_free(s);
}

static void test_pinned_keeps_the_exact_packing(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", PAIRS);
	gs_plan *p;
	(void)state;
	s->placement = GS_PLACEMENT_PINNED;
	p = tu_plan(s);
	assert_int_equal(gs_plan_summary_get(p)->gpus_after, 2);
	assert_int_equal(shared_gpus(p), 2);
	assert_int_equal(gs_plan_summary_get(p)->pinned_per_hour, -1);
	gs_plan_free(p);
	gs_scenario_free(s);
}

static void test_spread_counts_one_per_node(void **state)
{
	/* spread: node keeps a's replicas apart, so one a per GPU at worst. */
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ninstances: [g6.xlarge]\nworkloads:\n"
	                             "  - {name: a, replicas: 2, gpuMemory: 11GiB, compute: 10%,\n"
	                             "     spread: node}\n"
	                             "  - {name: b, replicas: 2, gpuMemory: 8GiB, compute: 10%}\n");
	gs_plan *p = tu_plan(s);
	(void)state;
	assert_int_equal(gs_plan_summary_get(p)->gpus_after, 2);
	assert_int_equal(gs_plan_summary_get(p)->pinned_per_hour,
	                 gs_plan_summary_get(p)->after_per_hour);
	gs_plan_free(p);
	gs_scenario_free(s);
}

static void test_pools_part_nodes_of_other_workloads(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ninstances: [g6.xlarge]\nworkloads:\n"
	                             "  - {name: a, replicas: 2, gpuMemory: 4GiB, compute: 40%}\n"
	                             "  - {name: b, replicas: 2, gpuMemory: 4GiB, compute: 40%}\n"
	                             "  - {name: c, replicas: 2, gpuMemory: 4GiB, compute: 40%,\n"
	                             "     spread: node}\n");
	gs_plan *p = tu_plan(s);
	size_t n = gs_plan_node_count(p);
	(void)state;
	/* Every node has config g6.xlarge-ts2; nodes with other workloads get
	 * other pools, nodes with the same ones the same pool. */
	for (size_t i = 0; i < n; i++) {
		const gs_plan_node *x = gs_plan_node_at(p, i);
		assert_non_null(x->pool);
		assert_true(strlen(x->pool) <= 63);
		for (size_t j = 0; j < i; j++) {
			const gs_plan_node *y = gs_plan_node_at(p, j);
			int same = x->gpus[0].n_assignments == y->gpus[0].n_assignments;
			for (size_t k = 0; same && k < x->gpus[0].n_assignments; k++) {
				const gs_workload *w = x->gpus[0].assignments[k].workload;
				int found = 0;
				for (size_t m = 0; m < y->gpus[0].n_assignments; m++)
					found |= y->gpus[0].assignments[m].workload == w;
				same = found;
			}
			if (strcmp(x->config, y->config) == 0)
				assert_int_equal(strcmp(x->pool, y->pool) == 0, same);
		}
	}
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* A time-sliced node advertises at least two slots a GPU (its config's
 * replicas), so the GPUs planned with one replica each take any two of
 * the node's pods: two of a (59 % each) would run one A100 at 118 %,
 * over the target, under either placement. Gen.py's seed 205 planned a
 * 2-GPU node so, and adversary.py seated both a's on one GPU. */
#define LONE "version: 1\ncloud: gcp\ntargetUtilization: 95%\nplacement: pinned\n" \
	"workloads:\n" \
	"  - {name: a, replicas: 2, gpuMemory: 4.5GiB, compute: 59%,\n" \
	"     measuredOn: A100-SXM4-40GB}\n" \
	"  - {name: c, replicas: 1, gpuMemory: 4.5GiB, compute: 50%,\n" \
	"     measuredOn: A100-SXM4-40GB}\n" \
	"  - {name: d, replicas: 1, gpuMemory: 4.5GiB, compute: 30%,\n" \
	"     measuredOn: A100-SXM4-40GB}\n"

/* A whole GPU of model shared by st in k slots, holding reps[0..n) in
 * gr (the caller frees gr->reps). */
static void whole_gpu(const gs_planner *pl, const char *model, gs_strategy st, int k,
                      const int *reps, int n, gs_group *gr, gs_pgpu *g)
{
	memset(gr, 0, sizeof *gr);
	memset(g, 0, sizeof *g);
	gr->n = gr->cap = n;
	gr->reps = malloc((size_t)n * sizeof *gr->reps);
	assert_non_null(gr->reps);
	memcpy(gr->reps, reps, (size_t)n * sizeof *reps);
	g->model = pl->models[tu_model_named(pl, model)];
	g->strategy = st;
	g->k = k;
	g->g = gr;
	g->ng = 1;
}

static void lone_gpu(const gs_planner *pl, int r, gs_group *gr, gs_pgpu *g)
{
	whole_gpu(pl, "A100-SXM4-40GB", GS_STRATEGY_TIME_SLICING, 1, &r, 1, gr, g);
}

static void test_lone_time_sliced_gpus_share_slots(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", LONE);
	tu_planned t;
	gs_group gr[4];
	gs_pgpu g[4];
	const gs_pgpu *on[1];
	(void)state;
	tu_planned_open(&t, s);
	/* Replicas: a/0, a/1, c/0, d/0. */
	for (int r = 0; r < 4; r++)
		lone_gpu(&t.pl, r, &gr[r], &g[r]);
	on[0] = &g[0];
	assert_int_equal(gs_robust_node_holds(&t.pl, on, 1, GS_STRATEGY_TIME_SLICING, 1), 1);
	/* a/1 beside a/0: 118 %; c beside a: 109 %; d beside a: 89 %. */
	assert_int_equal(gs_robust_node_ok(&t.pl, on, 1, &g[1], GS_STRATEGY_TIME_SLICING, 1), 0);
	assert_int_equal(gs_robust_node_ok(&t.pl, on, 1, &g[2], GS_STRATEGY_TIME_SLICING, 1), 0);
	assert_int_equal(gs_robust_node_ok(&t.pl, on, 1, &g[3], GS_STRATEGY_TIME_SLICING, 1), 1);
	for (int r = 0; r < 4; r++)
		free(gr[r].reps);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* One object, one request: a whole GPU's group may keep the MIG profile
 * it was priced with, and still requests the whole GPU. gs_built_one_
 * request compared the kept profiles, so gen.py's seed 1170 planned
 * ci-bat-5 on a 1g.18gb instance and on three whole GPUs, which the
 * emitter refused under robust placement. */
static void test_one_request_reads_the_strategy(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ngpus: [H200-SXM-141GB]\nworkloads:\n"
	                             "  - {name: a, replicas: 2, gpuMemory: 6GiB, compute: 2%}\n");
	tu_planned t;
	gs_built b;
	gs_group gr[2];
	int reps[2] = { 0, 1 }, m;
	const gs_mig_profile *p;
	(void)state;
	tu_planned_open(&t, s);
	m = tu_model_named(&t.pl, "H200-SXM-141GB");
	p = tu_profile(t.pl.models[m], "1g.18gb");
	assert_non_null(p);
	assert_int_equal(gs_built_init(&t.pl, &b), 0);
	b.packs[m].gpus = calloc(2, sizeof *b.packs[m].gpus);
	assert_non_null(b.packs[m].gpus);
	b.packs[m].n = b.packs[m].cap = 2;
	memset(gr, 0, sizeof gr);
	for (int i = 0; i < 2; i++) {
		gr[i].n = 1;
		gr[i].reps = &reps[i];
		gr[i].prof = p;
		b.packs[m].gpus[i].model = t.pl.models[m];
		b.packs[m].gpus[i].g = &gr[i];
		b.packs[m].gpus[i].ng = 1;
	}
	/* Both in 1g.18gb instances: one request. */
	b.packs[m].gpus[0].strategy = b.packs[m].gpus[1].strategy = GS_STRATEGY_MIG;
	assert_int_equal(gs_built_one_request(&t.pl, &b), 1);
	/* One instance, one whole GPU that kept the profile: two. */
	b.packs[m].gpus[1].strategy = GS_STRATEGY_DEDICATED;
	assert_int_equal(gs_built_one_request(&t.pl, &b), 0);
	/* Two whole GPUs: one request again. */
	b.packs[m].gpus[0].strategy = GS_STRATEGY_DEDICATED;
	assert_int_equal(gs_built_one_request(&t.pl, &b), 1);
	free(b.packs[m].gpus);
	free(b.packs);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* Pinned copies of a spread: gpu workload on one node may ask different
 * profiles, and the device plugin hands each pod any instance of its own
 * profile there: e/0 (1g.20gb) and e/1 (2g.20gb) may both land on the
 * GPU that also holds l's 2g.20gb (gen.py's seed 1611). */
static void mig_gpu(const gs_planner *pl, const char *model, gs_group *gr, int ng, gs_pgpu *g)
{
	memset(g, 0, sizeof *g);
	g->model = pl->models[tu_model_named(pl, model)];
	g->strategy = GS_STRATEGY_MIG;
	g->g = gr;
	g->ng = ng;
}

static void instance(const gs_planner *pl, const char *model, const char *prof, int *r,
                     gs_group *gr)
{
	memset(gr, 0, sizeof *gr);
	gr->prof = tu_profile(pl->models[tu_model_named(pl, model)], prof);
	assert_non_null(gr->prof);
	gr->n = 1;
	gr->reps = r;
}

static void test_pinned_spread_asks_apart(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ncloud: azure\ngpus: [A100-PCIE-80GB]\n"
	                             "placement: pinned\nworkloads:\n"
	                             "  - {name: e, replicas: 2, gpuMemory: 9GiB, compute: 5%,\n"
	                             "     spread: gpu}\n"
	                             "  - {name: l, replicas: 1, gpuMemory: 9GiB, compute: 5%}\n");
	const char *m = "A100-PCIE-80GB";
	tu_planned t;
	int e0 = 0, e1 = 1, l0 = 2;
	gs_group first[2], second[1];
	gs_pgpu g0, g1;
	const gs_pgpu *on[1] = { &g0 };
	(void)state;
	tu_planned_open(&t, s);
	instance(&t.pl, m, "2g.20gb", &l0, &first[0]);
	instance(&t.pl, m, "1g.20gb", &e0, &first[1]);
	mig_gpu(&t.pl, m, first, 2, &g0);
	instance(&t.pl, m, "2g.20gb", &e1, &second[0]);
	mig_gpu(&t.pl, m, second, 1, &g1);
	assert_int_equal(gs_robust_mig_node_ok(&t.pl, on, 1, &g1), 0);
	/* e/1 on 1g.20gb too: the first GPU has one instance of it. */
	instance(&t.pl, m, "1g.20gb", &e1, &second[0]);
	assert_int_equal(gs_robust_mig_node_ok(&t.pl, on, 1, &g1), 1);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* Time-slicing inside MIG: the device plugin gives every 3g.40gb of a
 * node the largest count any holds, here three, so big's lone replica
 * (36.5 GiB) shares its instance's slots with a second of its own, or
 * with the small ones: 73 GiB in the 35.32 GiB a time-sliced 3g.40gb
 * offers (gen.py's seed 2173). Alone at one slot, or with nothing
 * time-sliced beside it, it holds. */
static void test_mig_ts_one_count_a_profile(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ncloud: gcp\ngpus: [A100-SXM4-80GB]\n"
	                             "targetUtilization: 95%\nworkloads:\n"
	                             "  - {name: small, replicas: 3, gpuMemory: 6GiB,\n"
	                             "     compute: 2%}\n"
	                             "  - {name: big, replicas: 2, gpuMemory: 36.5GiB,\n"
	                             "     compute: 2%}\n");
	const char *m = "A100-SXM4-80GB";
	tu_planned t;
	int shared[3] = { 0, 1, 2 }, lone = 3;
	gs_group a, b;
	const gs_group *both[2] = { &a, &b }, *alone[1] = { &b };
	const gs_mig_profile *p;
	const gs_gpu *g;
	(void)state;
	tu_planned_open(&t, s);
	g = t.pl.models[tu_model_named(&t.pl, m)];
	p = tu_profile(g, "3g.40gb");
	assert_non_null(p);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.prof = b.prof = p;
	a.n = 3;
	a.reps = shared;
	b.n = 1;
	b.reps = &lone;
	assert_int_equal(gs_robust_mig_ts_holds(&t.pl, g, p, both, 2), 0);
	assert_int_equal(gs_robust_mig_ts_holds(&t.pl, g, p, alone, 1), 1);
	/* The shared instance alone: 18 GiB of 35.32 at three slots. */
	alone[0] = &a;
	assert_int_equal(gs_robust_mig_ts_holds(&t.pl, g, p, alone, 1), 1);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* MPS through the device plugin (b rules out time-slicing): the split caps
 * each client at 40 GiB of an 80 GB A100, but counts slots, not bytes, and
 * two clients of 40 GiB ask 80 GiB of the 79.25 the GPU holds. gen.py's seed 3420 put sum-not-1
 * (two replicas of 40 GiB) on eight GPUs of MPS x2, one a GPU, and the
 * adversary seated both on one. */
#define MPS_SPLIT "version: 1\ngpus: [A100-SXM4-80GB]\nworkloads:\n" \
	"  - {name: a, kind: notebook, replicas: 2, gpuMemory: 40GiB, compute: 10%}\n" \
	"  - {name: b, latency: critical, replicas: 2, gpuMemory: 9GiB, compute: 60%,\n" \
	"     measuredOn: T4}\n" \
	"  - {name: x, kind: notebook, replicas: 1, gpuMemory: 40GiB, compute: 10%}\n" \
	"  - {name: y, kind: notebook, replicas: 1, gpuMemory: 40GiB, compute: 10%}\n"

static void mps_gpu(const gs_planner *pl, int r0, int r1, gs_group *gr, gs_pgpu *g)
{
	int reps[2] = { r0, r1 };
	whole_gpu(pl, "A100-SXM4-80GB", GS_STRATEGY_MPS, 2, reps, 2, gr, g);
}

static void test_mps_clients_hold_the_usable_memory(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", MPS_SPLIT);
	tu_planned t;
	gs_group one, gr[2];
	gs_pgpu g[2];
	const gs_pgpu *on[1];
	gs_rule_figs f;
	const gs_gpu *a100;
	(void)state;
	tu_planned_open(&t, s);
	a100 = t.pl.models[tu_model_named(&t.pl, "A100-SXM4-80GB")];
	/* Replicas: a/0, a/1, b/0, b/1, x/0, y/0. b/0 beside a/0 plans 49
	 * GiB, but the slots may seat a/0 and a/1: 80 GiB. */
	memset(&one, 0, sizeof one);
	one.tenant = t.pl.reps[0].tenant;
	assert_int_equal(gs_group_join(&t.pl, a100, &one, 0), 0);
	memset(&f, 0, sizeof f);
	assert_int_equal(gs_join_rule(&t.pl, a100, &one, 2, &f), GS_RULE_MEMORY);
	assert_int_equal(f.need, 80LL << 30);
	assert_int_equal(f.have, gs_usable_bytes(a100));
	assert_int_equal(f.have, 81157LL << 20); /* 79.25 GiB */
	/* x with b/0 and y with b/1 hold each (49 GiB, the worst case too),
	 * but the node's four slots may seat x and y together. */
	mps_gpu(&t.pl, 4, 2, &gr[0], &g[0]);
	mps_gpu(&t.pl, 5, 3, &gr[1], &g[1]);
	on[0] = &g[0];
	assert_int_equal(gs_robust_node_holds(&t.pl, on, 1, GS_STRATEGY_MPS, 2), 1);
	assert_int_equal(gs_robust_node_ok(&t.pl, on, 1, &g[1], GS_STRATEGY_MPS, 2), 0);
	free(one.reps);
	for (int i = 0; i < 2; i++)
		free(gr[i].reps);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* The worst case by brute force: each workload's units at most `times`
 * over the list (robust: its replicas, 1 with spread; pinned: how often
 * it is listed), the k largest summed, by memory and by compute. */
static int64_t top_units(int64_t *unit, int *times, int nw, int k)
{
	int64_t sum = 0;
	while (k > 0) {
		int best = -1;
		for (int i = 0; i < nw; i++)
			if (times[i] > 0 && (best < 0 || unit[i] > unit[best]))
				best = i;
		if (best < 0)
			break;
		sum += unit[best];
		times[best]--;
		k--;
	}
	return sum;
}

/* Lists of more than 32 replicas find their workloads by a hash: 120
 * replicas of 40 workloads, listed in a scrambled order, give the worst
 * case counted by hand under both placements, for several k, as do their
 * first 20 (searched). */
static void test_worst_of_long_lists(void **state)
{
	char text[8192];
	size_t len = (size_t)snprintf(text, sizeof text,
	                              "version: 1\ninstances: [g6.xlarge]\nworkloads:\n");
	gs_scenario *s;
	tu_planned t;
	const gs_gpu *g;
	int list[120];
	uint64_t seed = 7;
	(void)state;
	for (int i = 0; i < 40; i++)
		len += (size_t)snprintf(text + len, sizeof text - len,
		                        "  - {name: w%d, replicas: 3, gpuMemory: %dMiB, "
		                        "compute: %d%%%s}\n",
		                        i, 300 + (37 * i) % 1000, 1 + (13 * i) % 40,
		                        i % 5 == 0 ? ", spread: gpu" : "");
	s = tu_scenario(cat, "t.yaml", text);
	tu_planned_open(&t, s);
	assert_int_equal(t.pl.nreps, 120);
	g = t.pl.models[tu_model_named(&t.pl, "L4")];
	for (int i = 0; i < 120; i++)
		list[i] = i;
	for (int i = 119; i > 0; i--) {
		int j = tu_below(&seed, i + 1), x = list[i];
		list[i] = list[j];
		list[j] = x;
	}
	for (int pinned = 0; pinned < 2; pinned++) {
		t.pl.placement = pinned ? GS_PLACEMENT_PINNED : GS_PLACEMENT_ROBUST;
		for (int n = 20; n <= 120; n += 100) {
			for (int k = 1; k <= 90; k += 8) {
				int64_t mem[40], comp[40];
				int tm[40] = { 0 }, tc[40];
				gs_worst w = gs_robust_worst(&t.pl, g, list, n - 1, list[n - 1], k);
				for (int i = 0; i < n; i++) {
					const gs_replica *r = &t.pl.reps[list[i]];
					mem[r->wi] = r->w->memory_bytes;
					comp[r->wi] = gs_rep_comp(&t.pl, list[i], g);
					if (pinned)
						tm[r->wi]++;
					else
						tm[r->wi] = r->w->spread != GS_SPREAD_NONE ? 1 : 3;
				}
				for (int i = 0; i < 40; i++)
					tm[i] = tm[i] < k ? tm[i] : k;
				memcpy(tc, tm, sizeof tc);
				assert_int_equal(w.mem, top_units(mem, tm, 40, k));
				assert_int_equal(w.comp, top_units(comp, tc, 40, k));
			}
		}
	}
	tu_planned_close(&t);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_robust_keeps_the_worst_case),
		cmocka_unit_test(test_robust_alone),
		cmocka_unit_test(test_volume_bound_keeps_alone),
		cmocka_unit_test(test_pinned_keeps_the_exact_packing),
		cmocka_unit_test(test_spread_counts_one_per_node),
		cmocka_unit_test(test_pools_part_nodes_of_other_workloads),
		cmocka_unit_test(test_lone_time_sliced_gpus_share_slots),
		cmocka_unit_test(test_one_request_reads_the_strategy),
		cmocka_unit_test(test_pinned_spread_asks_apart),
		cmocka_unit_test(test_mig_ts_one_count_a_profile),
		cmocka_unit_test(test_mps_clients_hold_the_usable_memory),
		cmocka_unit_test(test_worst_of_long_lists),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
