/*
 * test_summary_only.c - gs_plan_opts.summary_only: the totals of the
 * whole plan, to the micro-dollar, without its records, reasons, bound or
 * pinned plan; and with the same cache the whole plan after it is the
 * same bytes as one made without.
 */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#define TRUTH "cli/fixtures/truth/"

TU_CATALOG_GROUP(cat)

static gs_plan *plan_of(const gs_scenario *s, gs_plan_cache *cache, int summary_only)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	gs_error err;
	po.cache = cache;
	po.summary_only = summary_only;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	return p;
}

/* Every figure the option promises is the whole plan's; the rest is
 * left as it says. */
static void same_totals(const gs_plan_summary *a, const gs_plan_summary *w)
{
	assert_int_equal(a->after_per_hour, w->after_per_hour);
	assert_int_equal(a->gpus_after, w->gpus_after);
	assert_int_equal(a->instances_after, w->instances_after);
	assert_int_equal(a->util_after_permille, w->util_after_permille);
	assert_int_equal(a->before_per_hour, w->before_per_hour);
	assert_int_equal(a->gpus_before, w->gpus_before);
	assert_int_equal(a->instances_before, w->instances_before);
	assert_int_equal(a->util_before_permille, w->util_before_permille);
	assert_int_equal(a->before_is_cluster, w->before_is_cluster);
	assert_int_equal(a->dedicated_per_hour, w->dedicated_per_hour);
	assert_int_equal(a->gpus_dedicated, w->gpus_dedicated);
	assert_int_equal(a->instances_dedicated, w->instances_dedicated);
	assert_int_equal(a->savings_per_hour, w->savings_per_hour);
	assert_int_equal(a->savings_permille, w->savings_permille);
	assert_int_equal(a->savings_vs_dedicated_per_hour, w->savings_vs_dedicated_per_hour);
	assert_int_equal(a->savings_vs_dedicated_permille, w->savings_vs_dedicated_permille);
	assert_int_equal(a->current_per_hour, w->current_per_hour);
	assert_int_equal(a->replicas, w->replicas);
	assert_int_equal(a->placement, w->placement);
	assert_string_equal(a->cloud, w->cloud);
	assert_int_equal(a->pinned_per_hour, -1);
	assert_int_equal(a->idle_per_hour, 0);
	assert_null(a->sharing_limit);
	assert_null(a->costs_more);
}

/* s planned both ways, with one cache: the summary first, then the whole
 * plan, which is compared with one made without the cache. */
static void compare(const gs_scenario *s)
{
	gs_plan_cache *cache;
	gs_plan *part, *whole, *fresh;
	gs_error err;
	assert_gs_ok(gs_plan_cache_new(&cache, &err), &err);
	part = plan_of(s, cache, 1);
	whole = plan_of(s, cache, 0);
	fresh = plan_of(s, NULL, 0);
	same_totals(gs_plan_summary_get(part), gs_plan_summary_get(whole));
	assert_int_equal(gs_plan_summary_get(whole)->after_per_hour,
	                 gs_plan_summary_get(fresh)->after_per_hour);
	assert_int_equal(gs_plan_summary_get(whole)->lower_bound_per_hour,
	                 gs_plan_summary_get(fresh)->lower_bound_per_hour);
	assert_int_equal(gs_plan_summary_get(part)->lower_bound_per_hour, -1);
	assert_int_equal(gs_plan_cloud_count(part), 0);
	assert_int_equal(gs_plan_node_count(part), 0);
	assert_int_equal(gs_plan_workload_count(part), 0);
	assert_int_equal(gs_plan_warning_count(part), 0);
	assert_gs_ok(gs_plan_texts(part, &err), &err);
	assert_true(gs_plan_node_count(whole) > 0);
	gs_plan_free(part);
	gs_plan_free(whole);
	gs_plan_free(fresh);
	gs_plan_cache_free(cache);
}

static void compare_file(const char *path)
{
	gs_scenario *s = tu_scenario_file(cat, path);
	compare(s);
	gs_scenario_free(s);
}

/* Fleets of time-slicing, MPS, MIG and multi-GPU replicas, robust and
 * pinned, one cloud and all of them. */
static void test_fleets(void **state)
{
	(void)state;
	compare_file("../examples/workloads.yaml");
	compare_file("../examples/mixed-fleet.yaml");
	compare_file("../examples/multi-gpu.yaml");
	compare_file("../examples/spot.yaml");
	compare_file(TRUTH "mig-showback.yaml");
	compare_file(TRUTH "eks-team.yaml");
	/* Sharing costs more there than a GPU each: the plan is the
	 * dedicated one. */
	compare_file("cli/fixtures/fractions/dra-pinned.yaml");
}

/* Where sharing saves nothing the plan is the dedicated one (plan.c,
 * baseline), and an imported cluster's cost is before. */
static void test_before(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, TRUTH "before.yaml");
	gs_plan *p;
	(void)state;
	compare(s);
	p = plan_of(s, NULL, 1);
	assert_int_equal(gs_plan_summary_get(p)->savings_per_hour, 0);
	gs_plan_free(p);
	gs_scenario_free(s);
	s = tu_scenario_file(cat, TRUTH "nothing-shared.yaml");
	compare(s);
	p = plan_of(s, NULL, 1);
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour,
	                 gs_plan_summary_get(p)->dedicated_per_hour);
	gs_plan_free(p);
	gs_scenario_free(s);
	s = tu_scenario_file(cat, TRUTH "seed.yaml");
	gs_scenario_set_cluster(s, 20000000, 6, 6);
	compare(s);
	p = plan_of(s, NULL, 1);
	assert_true(gs_plan_summary_get(p)->before_is_cluster);
	assert_int_equal(gs_plan_summary_get(p)->savings_vs_dedicated_per_hour, 6120000);
	gs_plan_free(p);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fleets),
		cmocka_unit_test(test_before),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
