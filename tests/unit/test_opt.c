/*
 * test_opt.c - the optimiser: the solver seam (milp.c) on programs whose
 * answers are known, and the plan's proven bound. Exact figures from the
 * shipped profiles (a g6.xlarge, one L4, costs $0.8048/h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "plan/milp.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* min 3x + 2y, x + y >= 3.5, integral: y = 4. */
static void test_milp_rounds_up(void **state)
{
	gs_milp *m = gs_milp_new();
	gs_milp_result r;
	int cols[2];
	double one[2] = { 1, 1 };
	(void)state;
	assert_non_null(m);
	cols[0] = gs_milp_col(m, 3, -1, 1);
	cols[1] = gs_milp_col(m, 2, -1, 1);
	assert_int_equal(gs_milp_row(m, cols, one, 2, 3.5, 1e30), 0);
	assert_int_equal(gs_milp_solve(m, 1000, 1, 10, &r), 0);
	assert_int_equal(r.status, GS_MILP_OPTIMAL);
	assert_true(r.obj > 7.999 && r.obj < 8.001);
	assert_true(r.bound > 7.999 && r.bound < 8.001);
	assert_true(r.x[0] < 0.001 && r.x[1] > 3.999 && r.x[1] < 4.001);
	gs_milp_free(m);
}

/* x <= 1 and x >= 2: no solution, and no crash. */
static void test_milp_infeasible(void **state)
{
	gs_milp *m = gs_milp_new();
	gs_milp_result r;
	int c;
	double one = 1;
	(void)state;
	c = gs_milp_col(m, 1, 1, 1);
	assert_int_equal(gs_milp_row(m, &c, &one, 1, 2, 1e30), 0);
	assert_int_equal(gs_milp_solve(m, 1000, 1, 10, &r), 0);
	assert_int_equal(r.status, GS_MILP_NONE);
	assert_null(r.x);
	gs_milp_free(m);
}

/* TU_TRIPLES (testutil.h): 4 GPUs hold its 12 replicas, proven. */
static void test_plan_proves_its_optimum(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", TU_TRIPLES);
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	(void)state;
	assert_int_equal(sum->gpus_after, 4);
	assert_int_equal(sum->after_per_hour, 4 * 804800);
	assert_int_equal(sum->lower_bound_per_hour, 4 * 804800);
	assert_string_equal(sum->lower_bound_by, "optimum");
	assert_int_equal(gs_plan_gap_permille(sum), 0);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* The examples' bound, from memory and compute alone: never above the plan. */
static void test_volume_bound_below_the_plan(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, "../examples/workloads.yaml");
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	(void)state;
	assert_true(sum->lower_bound_per_hour > 0);
	assert_true(sum->lower_bound_per_hour <= sum->after_per_hour);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Robust placement on H100s: the plan keeps a workload whose replicas
 * it packed both in MIG instances and on whole GPUs to whole GPUs (one
 * request per workload), and costs $55.04/h. The program without MIG for
 * that workload proved $55.04/h and the plan called itself optimal; that
 * bounds only plans that keep it off MIG too. With every replica's MIG
 * columns the bound is $48.16/h, what the same fleet costs pinned. */
#define KEPT_OFF_MIG "version: 1\ncloud: aws\nworkloads:\n" \
	"  - {name: w0, replicas: 5, gpuMemory: 30GiB, compute: 20%, " \
	"gpus: [H100-SXM5-80GB, L4], tenant: t2}\n" \
	"  - {name: w1, replicas: 4, gpuMemory: 12GiB, compute: 10%, " \
	"gpus: [H100-SXM5-80GB], tenant: t2, isolation: fault}\n" \
	"  - {name: w2, replicas: 5, gpuMemory: 8GiB, compute: 40%, " \
	"gpus: [H100-SXM5-80GB], tenant: t0, isolation: fault}\n" \
	"  - {name: w3, replicas: 1, gpuMemory: 8GiB, compute: 60%, " \
	"gpus: [H100-SXM5-80GB], tenant: t0}\n"

/* The plan of yaml costs after, and reports bound, known by `by`. */
static void expect_bound(const char *yaml, gs_micros after, gs_micros bound, const char *by)
{
	tu_expect_plan(tu_scenario(cat, "t.yaml", yaml), after, bound, by);
}

static void test_bound_gives_mig_to_all(void **state)
{
	(void)state;
	expect_bound(KEPT_OFF_MIG, 55040000, 48160000, "program");
}

/* 8 replicas of 36 GiB on one p4d.24xlarge ($21.957642/h): CBC's bound
 * came back 5 micro-dollars above the plan it proves optimal. */
#define NOISE "version: 1\ncloud: aws\nplacement: pinned\nworkloads:\n" \
	"  - {name: w0, replicas: 6, gpuMemory: 36GiB, compute: 20%, " \
	"gpus: [A100-SXM4-40GB, T4], tenant: t1, isolation: fault}\n" \
	"  - {name: w1, replicas: 2, gpuMemory: 36GiB, compute: 60%, " \
	"gpus: [A100-SXM4-40GB, T4], tenant: t2}\n"

static void test_bound_within_solver_noise(void **state)
{
	(void)state;
	expect_bound(NOISE, 21957642, 21957642, "optimum");
}

/* Shares converted to an L4: 2 x 24.1736 % + 10.9917 % + 30.6612 % fill
 * it to the 90 % target exactly (fleet.py hetero 60 seed 29), though the
 * shares rounded up to whole ppm sum to 900,002 ppm. The target compares
 * the exact sum: one L4, proven. Before, the rounded sum refused the
 * group and the plan kept two L4s over a bound of one. */
#define AT_TARGET "version: 1\ncloud: aws\nplacement: pinned\nmemoryHeadroom: 0%%\n" \
	"gpus: [L4]\nworkloads:\n" \
	"  - {name: a, kind: training, replicas: 2, gpuMemory: 2GiB, compute: 45%%, " \
	"measuredOn: T4}\n" \
	"  - {name: b, kind: notebook, replicas: 1, gpuMemory: 8.5GiB, compute: 19%%, " \
	"measuredOn: A10G}\n" \
	"  - {name: c, kind: batch, replicas: 1, gpuMemory: 1.5GiB, compute: %s, " \
	"measuredOn: A10G}\n"

static void test_bound_of_exact_shares(void **state)
{
	char doc[1024];
	(void)state;
	snprintf(doc, sizeof doc, AT_TARGET, "53%");
	expect_bound(doc, 804800, 804800, "optimum");
	/* A hundredth of a percent more of an A10G (0.0058 % of the L4) is
	 * over: two L4s. */
	snprintf(doc, sizeof doc, AT_TARGET, "53.01%");
	expect_bound(doc, 2 * 804800, 2 * 804800, "optimum");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_milp_rounds_up),
		cmocka_unit_test(test_milp_infeasible),
		cmocka_unit_test(test_plan_proves_its_optimum),
		cmocka_unit_test(test_volume_bound_below_the_plan),
		cmocka_unit_test(test_bound_gives_mig_to_all),
		cmocka_unit_test(test_bound_within_solver_noise),
		cmocka_unit_test(test_bound_of_exact_shares),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
