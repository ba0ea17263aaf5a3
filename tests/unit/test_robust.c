/*
 * test_robust.c - robust placement: a shared GPU holds the worst case of
 * the workloads its pool admits (the k largest replicas any placement may
 * seat there), pools separate nodes of different workloads, and the plan
 * states what robustness costs against pinned placement. Exact figures
 * from the shipped profiles (an L4 offers 19.76 GiB to time-sliced pods).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_robust_keeps_the_worst_case),
		cmocka_unit_test(test_pinned_keeps_the_exact_packing),
		cmocka_unit_test(test_spread_counts_one_per_node),
		cmocka_unit_test(test_pools_part_nodes_of_other_workloads),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
