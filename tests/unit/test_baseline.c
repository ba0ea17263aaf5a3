/*
 * test_baseline.c - the figures a saving is measured against: before is
 * the cheapest plan with a whole GPU per replica, bought like the plan; a
 * plan that shares nothing saves nothing; today's bill is stated beside
 * it; and `savings` shares GPUs by the rule `plan` packs by, so that the
 * two agree on every count, and both name targetUtilization alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define TRUTH "cli/fixtures/truth/"

TU_CATALOG_GROUP(cat)

static gs_plan *plan_yaml(const char *yaml, gs_scenario **scn)
{
	*scn = tu_scenario(cat, "test", yaml);
	return tu_plan(*scn);
}

static gs_plan *plan_file(const char *path, gs_scenario **scn)
{
	*scn = tu_scenario_file(cat, path);
	return tu_plan(*scn);
}

/* ---- before -------------------------------------------------------------- */

/* One training replica on p4d or p5: a p5.4xlarge gives it a whole GPU
 * for $6.88, not a p4d.24xlarge's eight for $21.96; nothing is shared, so
 * nothing is saved. */
static void test_before_buys_by_purchase_cost(void **state)
{
	gs_scenario *scn;
	gs_plan *p = plan_file(TRUTH "before.yaml", &scn);
	const gs_plan_summary *s = gs_plan_summary_get(p);
	(void)state;
	assert_int_equal(s->before_per_hour, 6880000);
	assert_int_equal(s->dedicated_per_hour, 6880000);
	assert_int_equal(s->after_per_hour, 6880000);
	assert_int_equal(s->savings_per_hour, 0);
	assert_int_equal(s->savings_permille, 0);
	assert_int_equal(s->gpus_before, 1);
	assert_int_equal(s->instances_before, 1);
	assert_false(s->before_is_cluster);
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* The dedicated plan changes instance with the count: three 30 GiB
 * replicas on three p5.4xlarge ($20.64), four on one p4d.24xlarge
 * ($21.957642, not $27.52), nine on a p4d and a p5 ($28.837642). */
static void test_before_mixes_instances(void **state)
{
	static const struct {
		int replicas;
		gs_micros before;
		int gpus, instances;
	} cases[] = { { 3, 20640000, 3, 3 }, { 4, 21957642, 8, 1 }, { 9, 28837642, 9, 2 } };
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char yaml[512];
		gs_scenario *scn;
		gs_plan *p;
		snprintf(yaml, sizeof yaml,
		         "version: 1\ncloud: aws\ninstances: [\"p4d.*\", \"p5.*\"]\nworkloads:\n"
		         "  - {name: ft, kind: training, replicas: %d, gpuMemory: 30GiB, "
		         "compute: 85%%, measuredOn: A100-SXM4-40GB, isolation: fault}\n",
		         cases[i].replicas);
		p = plan_yaml(yaml, &scn);
		assert_int_equal(gs_plan_summary_get(p)->dedicated_per_hour, cases[i].before);
		assert_int_equal(gs_plan_summary_get(p)->gpus_dedicated, cases[i].gpus);
		assert_int_equal(gs_plan_summary_get(p)->instances_dedicated, cases[i].instances);
		gs_plan_free(p);
		gs_scenario_free(scn);
	}
}

/* The EKS team of issue 13: the baseline was inflated by whole p4d
 * instances for replicas that fit a p5.4xlarge or a g5/g6. */
static void test_eks_team(void **state)
{
	gs_scenario *scn;
	gs_plan *p = plan_file(TRUTH "eks-team.yaml", &scn);
	const gs_plan_summary *s = gs_plan_summary_get(p);
	(void)state;
	/* With usable memory and its headroom (step 2 §4) and conversion by
	 * bandwidth (§5), both plans cost $1 more than by nominal memory. */
	assert_int_equal(s->before_per_hour, 33639600);
	/* Robust placement (issue 14 §1): $0.20/h more than pinned. */
	assert_int_equal(s->after_per_hour, 17744800);
	assert_int_equal(s->savings_permille, 473);
	assert_int_equal(s->savings_vs_dedicated_permille, 473);
	assert_int_equal(s->pinned_per_hour, 17543600);
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* Three replicas no GPU holds two of: the plan is the dedicated plan. */
static void test_nothing_shared_saves_nothing(void **state)
{
	gs_scenario *scn;
	gs_plan *p = plan_file(TRUTH "nothing-shared.yaml", &scn);
	const gs_plan_summary *s = gs_plan_summary_get(p);
	(void)state;
	assert_int_equal(s->after_per_hour, 20640000);
	assert_int_equal(s->before_per_hour, 20640000);
	assert_int_equal(s->savings_per_hour, 0);
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* Where current is known, the saving is stated against it as well; only
 * the workloads that name it count, at what they hold and their idle. */
static void test_against_today(void **state)
{
	gs_scenario *scn;
	gs_plan *p = plan_file(TRUTH "current-partial.yaml", &scn);
	const gs_plan_summary *s = gs_plan_summary_get(p);
	const gs_plan_workload *api = gs_plan_workload_at(p, 0);
	(void)state;
	assert_string_equal(api->workload->name, "api");
	assert_int_equal(s->current_per_hour, 2012000);
	assert_int_equal(s->current_savings_per_hour,
	                 s->current_per_hour - api->cost_per_hour - api->idle_per_hour);
	assert_int_equal(s->current_savings_permille,
	                 (int)((s->current_savings_per_hour * 1000 + s->current_per_hour / 2) /
	                       s->current_per_hour));
	assert_int_equal(s->before_per_hour, s->dedicated_per_hour);
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* An imported cluster's cost replaces before; the dedicated plan is still
 * stated, and the saving against it. */
static void test_cluster_keeps_the_dedicated_plan(void **state)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_scenario *scn;
	gs_plan *p = NULL;
	gs_error err;
	const gs_plan_summary *s;
	(void)state;
	assert_gs_ok(gs_scenario_load(cat, TRUTH "seed.yaml", &scn, &err), &err);
	gs_scenario_set_cluster(scn, 20000000, 6, 6);
	assert_gs_ok(gs_plan_make(scn, &po, &p, &err), &err);
	s = gs_plan_summary_get(p);
	assert_true(s->before_is_cluster);
	assert_int_equal(s->before_per_hour, 20000000);
	assert_int_equal(s->dedicated_per_hour, 12240000);
	assert_int_equal(s->savings_vs_dedicated_per_hour, 6120000);
	assert_int_equal(s->savings_vs_dedicated_permille, 500);
	assert_int_equal(s->current_savings_per_hour, 20000000 - 6120000);
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* ---- savings and plan agree ---------------------------------------------- */

/* The seed: `plan` shares three of the four 25% workloads and names the
 * target; `savings --compute 25%` says the same in the same words. */
static void test_seed_plan_and_savings_agree(void **state)
{
	gs_savings_opts so = GS_SAVINGS_OPTS_INIT;
	gs_savings sv;
	gs_scenario *scn;
	gs_error err;
	gs_plan *p = plan_file(TRUTH "seed.yaml", &scn);
	const gs_plan_summary *s = gs_plan_summary_get(p);
	const char *rule = "targetUtilization 90% leaves room for 3 of these on one GPU; "
	                   "set targetUtilization: 100% to fit 4";
	(void)state;
	so.instance = "p3.2xlarge";
	so.replicas = 4;
	so.compute = "25%";
	assert_gs_ok(gs_savings_compute(cat, &so, &sv, &err), &err);
	assert_int_equal(sv.after_per_hour, s->after_per_hour);
	assert_int_equal(sv.before_per_hour, s->before_per_hour);
	assert_int_equal(sv.saved_permille, s->savings_permille);
	assert_int_equal(sv.saved_permille, 500);
	assert_int_equal(sv.replicas, 3);
	assert_string_equal(sv.rule, rule);
	assert_non_null(s->sharing_limit);
	assert_string_equal(s->sharing_limit,
	                    "wl-a, wl-b, wl-c, wl-d (25% compute each on V100-SXM2-16GB): "
	                    "targetUtilization 90% leaves room for 3 of these on one GPU; set "
	                    "targetUtilization: 100% to fit 4 ($3.06/h instead of $6.12/h)");
	gs_plan_free(p);
	gs_scenario_free(scn);
}

/* Without --compute, savings says what it assumes. */
static void test_savings_states_its_assumption(void **state)
{
	gs_savings_opts so = GS_SAVINGS_OPTS_INIT;
	gs_savings sv;
	gs_error err;
	(void)state;
	so.instance = "p3.2xlarge";
	so.replicas = 4;
	assert_gs_ok(gs_savings_compute(cat, &so, &sv, &err), &err);
	assert_int_equal(sv.saved_permille, 750);
	assert_false(sv.compute_given);
	assert_int_equal(sv.compute_ppm, 225000);
	assert_string_equal(sv.rule, "assumes each workload peaks at or below 22.5% of a GPU: "
	                             "targetUtilization 90% / 4 replicas");
	so.target_utilization = "100%";
	so.replicas = 7;
	assert_gs_ok(gs_savings_compute(cat, &so, &sv, &err), &err);
	assert_string_equal(sv.rule, "assumes each workload peaks at or below 14.28% of a GPU: "
	                             "targetUtilization 100% / 7 replicas");
	so.strategy = GS_STRATEGY_MPS;
	so.replicas = 3;
	assert_gs_ok(gs_savings_compute(cat, &so, &sv, &err), &err);
	assert_string_equal(sv.rule, "assumes each workload peaks at or below 33% of a GPU: MPS "
	                             "gives each of 3 clients 100 / 3 = 33% of the threads");
	so.target_utilization = "5%";
	assert_int_equal(gs_savings_compute(cat, &so, &sv, &err), GS_EINVAL);
	assert_gs_error(&err, "error: target utilization must be from 10% to 100%, not '5%'");
}

/* MPS: the device plugin's equal split binds before the target does. */
static void test_savings_mps_split(void **state)
{
	gs_savings_opts so = GS_SAVINGS_OPTS_INIT;
	gs_savings sv;
	gs_error err;
	(void)state;
	so.instance = "p3.2xlarge";
	so.strategy = GS_STRATEGY_MPS;
	so.replicas = 3;
	so.compute = "33.2%";
	so.target_utilization = "100%";
	assert_gs_ok(gs_savings_compute(cat, &so, &sv, &err), &err);
	assert_int_equal(sv.replicas, 2);
	assert_string_equal(sv.rule, "MPS gives each of 3 clients only 33% of the threads, "
	                             "below their 33.2%: room for 2 of these on one GPU");
}

/* n workloads of compute comp at target planned on p3.2xlarge cost what
 * savings says; returns 1 when the plan names the target, which it must
 * then name as savings does. */
static int agree_once(const char *target, const char *comp, int n)
{
	gs_savings_opts so = GS_SAVINGS_OPTS_INIT;
	gs_savings sv;
	gs_scenario *scn;
	gs_plan *p;
	gs_error err;
	const gs_plan_summary *s;
	char yaml[2048], *room;
	size_t o = (size_t)snprintf(yaml, sizeof yaml,
	                            "version: 1\ncloud: aws\ninstances: [\"p3.2xlarge\"]\n"
	                            "targetUtilization: %s\nworkloads:\n", target);
	int named = 0;
	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(yaml + o, sizeof yaml - o,
		                      "  - {name: w%d, gpuMemory: 1GiB, compute: %s}\n", i, comp);
	so.instance = "p3.2xlarge";
	so.replicas = n;
	so.compute = comp;
	so.target_utilization = target;
	assert_gs_ok(gs_savings_compute(cat, &so, &sv, &err), &err);
	p = plan_yaml(yaml, &scn);
	s = gs_plan_summary_get(p);
	if (sv.after_per_hour != s->after_per_hour)
		fail_msg("%d x %s at %s: savings $%lld, plan $%lld", n, comp, target,
		         (long long)sv.after_per_hour, (long long)s->after_per_hour);
	assert_int_equal(sv.gpus_after, s->gpus_after);
	room = strstr(sv.rule, " of these on one GPU");
	if (s->sharing_limit) {
		/* "targetUtilization T leaves room for K of these". */
		assert_non_null(room);
		*room = '\0';
		assert_non_null(strstr(s->sharing_limit, sv.rule));
		named = 1;
	}
	gs_plan_free(p);
	gs_scenario_free(scn);
	return named;
}

/* Over targets, compute shares and counts: n identical workloads planned
 * on p3.2xlarge cost exactly what savings says, and where the plan names
 * the target, it says what savings says. */
static void test_savings_agrees_with_plan(void **state)
{
	static const char *const targets[] = { "50%", "75%", "90%", "100%" };
	static const char *const comps[] = { "5%", "12%", "20%", "25%", "30%", "33%", "45%",
		                                 "60%" };
	int named = 0;
	(void)state;
	for (size_t t = 0; t < sizeof targets / sizeof *targets; t++)
		for (size_t c = 0; c < sizeof comps / sizeof *comps; c++)
			for (int n = 2; n <= 8; n++)
				named += agree_once(targets[t], comps[c], n);
	assert_true(named > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_before_buys_by_purchase_cost),
		cmocka_unit_test(test_before_mixes_instances),
		cmocka_unit_test(test_eks_team),
		cmocka_unit_test(test_nothing_shared_saves_nothing),
		cmocka_unit_test(test_against_today),
		cmocka_unit_test(test_cluster_keeps_the_dedicated_plan),
		cmocka_unit_test(test_seed_plan_and_savings_agree),
		cmocka_unit_test(test_savings_states_its_assumption),
		cmocka_unit_test(test_savings_mps_split),
		cmocka_unit_test(test_savings_agrees_with_plan),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
