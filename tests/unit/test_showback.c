/*
 * test_showback.c - what a replica pays is the capacity it holds, what
 * nobody holds is idle, and the teams' cost plus idle is the plan's cost
 * to the micro-dollar: exact figures on the reproductions of issue 13 and
 * hand-made plans, then the sums over a few hundred random workload files.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define TRUTH "cli/fixtures/truth/"

TU_CATALOG_GROUP(cat)

static gs_plan *plan_text(const char *name, const char *yaml, gs_scenario **scn)
{
	*scn = tu_scenario(cat, name, yaml);
	return tu_plan(*scn);
}

static gs_plan *plan_file(const char *path, gs_scenario **scn)
{
	*scn = tu_scenario_file(cat, path);
	return tu_plan(*scn);
}

static const gs_plan_workload *workload(const gs_plan *p, const char *name)
{
	for (size_t i = 0; i < gs_plan_workload_count(p); i++)
		if (strcmp(gs_plan_workload_at(p, i)->workload->name, name) == 0)
			return gs_plan_workload_at(p, i);
	fail_msg("no workload %s", name);
	return NULL;
}

static const gs_plan_team *team(const gs_plan *p, const char *name)
{
	for (size_t i = 0; i < gs_plan_team_count(p); i++)
		if (strcmp(gs_plan_team_at(p, i)->team, name) == 0)
			return gs_plan_team_at(p, i);
	fail_msg("no team %s", name);
	return NULL;
}

/* The sums every plan keeps, to the micro-dollar. */
static void assert_adds_up(const gs_plan *p)
{
	const gs_plan_summary *s = gs_plan_summary_get(p);
	gs_micros nodes = 0, teams = 0, team_idle = 0, wls = 0, wl_idle = 0;
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		nodes += gs_plan_node_at(p, i)->price_per_hour;
	for (size_t i = 0; i < gs_plan_team_count(p); i++) {
		teams += gs_plan_team_at(p, i)->cost_per_hour;
		team_idle += gs_plan_team_at(p, i)->idle_per_hour;
		assert_true(gs_plan_team_at(p, i)->idle_per_hour >= 0);
	}
	for (size_t i = 0; i < gs_plan_workload_count(p); i++) {
		wls += gs_plan_workload_at(p, i)->cost_per_hour;
		wl_idle += gs_plan_workload_at(p, i)->idle_per_hour;
		assert_true(gs_plan_workload_at(p, i)->cost_per_hour > 0);
	}
	assert_int_equal(nodes, s->after_per_hour);
	assert_int_equal(teams + team_idle, s->after_per_hour);
	assert_int_equal(wls + wl_idle, s->after_per_hour);
	assert_int_equal(teams, wls);
	assert_int_equal(team_idle, s->idle_per_hour);
	assert_int_equal(wl_idle, s->idle_per_hour);
}

/* ---- exact figures ------------------------------------------------------- */

/* The seed: three 25% workloads time-sliced on one V100, the fourth alone
 * on another. Each holds 25% of a $3.06 GPU wherever it sits; the half of
 * the bought capacity nobody holds is idle, spread evenly over the team. */
static void test_seed_pays_by_capacity(void **state)
{
	gs_scenario *scn;
	gs_plan *p = plan_file(TRUTH "seed.yaml", &scn);
	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const gs_plan_workload *w = gs_plan_workload_at(p, i);
		assert_int_equal(w->cost_per_hour, 765000);
		assert_int_equal(w->idle_per_hour, 765000);
	}
	assert_int_equal(gs_plan_team_count(p), 1);
	assert_int_equal(team(p, "default")->cost_per_hour, 3060000);
	assert_int_equal(team(p, "default")->idle_per_hour, 3060000);
	assert_int_equal(gs_plan_summary_get(p)->idle_per_hour, 3060000);
	assert_adds_up(p);
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* A MIG slice is paid as the larger of its memory and compute slices: a
 * 3g.40gb on an H100 is 4 of 8 memory slots and 3 of 7 compute slices,
 * so half of the $6.88 GPU; the other half is red's idle. A fault-isolated
 * replica alone on a whole GPU holds all of it. */
static void test_mig_slice_and_whole_gpu(void **state)
{
	gs_scenario *scn;
	gs_plan *p = plan_file(TRUTH "mig-showback.yaml", &scn);
	(void)state;
	assert_int_equal(workload(p, "a")->strategy, GS_STRATEGY_MIG);
	assert_int_equal(workload(p, "a")->cost_per_hour, 3440000);
	assert_int_equal(workload(p, "a")->idle_per_hour, 3440000);
	assert_int_equal(workload(p, "b")->strategy, GS_STRATEGY_DEDICATED);
	assert_int_equal(workload(p, "b")->cost_per_hour, 6880000);
	assert_int_equal(workload(p, "b")->idle_per_hour, 0);
	assert_int_equal(team(p, "red")->idle_per_hour, 3440000);
	assert_int_equal(team(p, "blue")->idle_per_hour, 0);
	assert_adds_up(p);
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* Shares over a whole GPU are scaled to fit it: a holds 12 of 15.78 GiB
 * (760,396 ppm by memory), b 80% of the compute: 156% together, scaled to
 * 487,309 and 512,690 ppm. The 1 ppm left by rounding down is idle.
 * (memoryHeadroom 0%: 15 GiB then fit one V100's usable memory.) */
static void test_shares_over_a_gpu_scale_down(void **state)
{
	const char *yaml = "version: 1\ncloud: aws\ninstances: [\"p3.2xlarge\"]\n"
	                   "memoryHeadroom: 0%\nworkloads:\n"
	                   "  - {name: a, gpuMemory: 12GiB, compute: 10%}\n"
	                   "  - {name: b, gpuMemory: 3GiB, compute: 80%}\n";
	gs_scenario *scn;
	gs_plan *p = plan_text("scale", yaml, &scn);
	(void)state;
	assert_int_equal(gs_plan_node_count(p), 1);
	/* $3.06 x 487,309 / 999,999 of the held part, and the remainder. */
	assert_int_equal(workload(p, "a")->cost_per_hour, 1491166);
	assert_int_equal(workload(p, "b")->cost_per_hour, 1568831);
	assert_int_equal(gs_plan_summary_get(p)->idle_per_hour, 3);
	assert_adds_up(p);
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* Each plan of the reproductions and of the shipped examples. */
static void test_sums_on_shipped_plans(void **state)
{
	static const char *const files[] = {
		TRUTH "seed.yaml",           TRUTH "before.yaml",
		TRUTH "eks-team.yaml",       TRUTH "nothing-shared.yaml",
		TRUTH "mig-showback.yaml",   TRUTH "target-mixed.yaml",
		TRUTH "current-partial.yaml", "../examples/workloads.yaml",
		"../examples/mixed-fleet.yaml", "../examples/multi-tenant-mig.yaml",
		"../examples/spot.yaml",
	};
	(void)state;
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		gs_scenario *scn;
		gs_plan *p = plan_file(files[i], &scn);
		assert_adds_up(p);
		gs_plan_free(p);
		gs_scenario_free(scn);
	}
}

/* ---- random workload files ----------------------------------------------- */

static unsigned long rng = 88172645463325252UL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* A random workload file: kinds, latency, isolation, tenants, teams,
 * spread, measured models, targets and instance mixes. */
static void random_file(char *buf, size_t size)
{
	static const char *const kinds[] = { "inference", "batch", "training", "notebook", "ci" };
	static const char *const mixes[] = {
		"[\"p5.*\"]", "[\"g5.*\", \"p5.*\"]", "[\"g6.*\", \"p4d.*\", \"p5.*\"]",
		"[\"p3.*\", \"p5.4xlarge\"]", "[\"g4dn.*\", \"g5.*\", \"p5.*\"]",
	};
	static const char *const spreads[] = { "none", "none", "none", "gpu", "node" };
	int n = 1 + (int)rnd(7);
	size_t o = (size_t)snprintf(buf, size, "version: 1\ncloud: aws\ninstances: %s\n"
	                                       "targetUtilization: %u%%\n%sworkloads:\n",
	                            mixes[rnd(5)], 50 + rnd(51),
	                            rnd(4) ? "" : "pricing: spot\n");
	for (int i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o,
		                      "  - {name: w%d, kind: %s, replicas: %u, gpuMemory: %uGiB, "
		                      "compute: %u%%, latency: %s, isolation: %s, tenant: t%u, "
		                      "team: team%u, spread: %s%s}\n",
		                      i, kinds[rnd(5)], 1 + rnd(4), 1 + rnd(40), 1 + rnd(95),
		                      rnd(3) ? "tolerant" : "critical", rnd(6) ? "none" : "fault",
		                      rnd(3), rnd(4), spreads[rnd(5)],
		                      rnd(3) ? "" : ", measuredOn: A10G");
}

static int shares_nothing(const gs_plan *p)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		for (size_t g = 0; g < gs_plan_node_at(p, i)->n_gpus; g++) {
			const gs_plan_gpu *pg = &gs_plan_node_at(p, i)->gpus[g];
			size_t n = pg->n_assignments;
			for (size_t m = 0; m < pg->n_mig; m++)
				n += pg->mig[m].n_assignments;
			if (n > 1)
				return 0;
		}
	return 1;
}

/* Over random files: the sums hold exactly, the plan never costs more
 * than the dedicated plan, and a plan that shares no GPU saves nothing. */
static void test_random_scenarios(void **state)
{
	int planned = 0, unshared = 0;
	(void)state;
	for (int i = 0; i < 150; i++) {
		char yaml[4096], name[32];
		gs_plan_opts po = GS_PLAN_OPTS_INIT;
		gs_scenario *scn = NULL;
		gs_plan *p = NULL;
		gs_error err;
		const gs_plan_summary *s;
		random_file(yaml, sizeof yaml);
		snprintf(name, sizeof name, "random-%d", i);
		/* A workload no allowed GPU holds (95% of an A10G on a T4) is
		 * refused with GS_ENOFIT, on loading or on planning. */
		if (gs_scenario_load_buffer(cat, name, yaml, strlen(yaml), &scn, &err) < 0) {
			assert_int_equal(err.code, GS_ENOFIT);
			continue;
		}
		if (gs_plan_make(scn, &po, &p, &err) < 0) {
			assert_int_equal(err.code, GS_ENOFIT);
			gs_scenario_free(scn);
			continue;
		}
		s = gs_plan_summary_get(p);
		assert_adds_up(p);
		assert_true(s->after_per_hour <= s->dedicated_per_hour);
		assert_int_equal(s->before_per_hour, s->dedicated_per_hour);
		if (shares_nothing(p)) {
			assert_int_equal(s->savings_per_hour, 0);
			assert_int_equal(s->savings_permille, 0);
			unshared++;
		}
		planned++;
		gs_plan_free(p);
		gs_scenario_free(scn);
	}
	/* The generator reaches both kinds of plan. */
	assert_true(planned > 100);
	assert_true(unshared > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_pays_by_capacity),
		cmocka_unit_test(test_mig_slice_and_whole_gpu),
		cmocka_unit_test(test_shares_over_a_gpu_scale_down),
		cmocka_unit_test(test_sums_on_shipped_plans),
		cmocka_unit_test(test_random_scenarios),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
