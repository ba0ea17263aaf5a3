/*
 * test_cloud.c - one cloud per plan: the catalog's clouds, clouds of your
 * own, and `cloud: all` choosing the cheapest single cloud.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static gs_catalog *cat, *with_onprem;

static int setup(void **state)
{
	gs_error err;
	(void)state;
	if (gs_catalog_load(TEST_PROFILES, &cat, &err) < 0)
		return -1;
	return gs_catalog_load(TEST_PROFILES ":../examples/profiles-onprem", &with_onprem, &err) <
	               0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	gs_catalog_free(cat);
	gs_catalog_free(with_onprem);
	return 0;
}

static gs_scenario *load(const gs_catalog *c, const char *yaml)
{
	return tu_scenario(c, "t.yaml", yaml);
}

static gs_plan *plan_of(const gs_scenario *s) { return tu_plan(s); }

static void assert_one_cloud(const gs_plan *p, const char *cloud)
{
	assert_string_equal(gs_plan_summary_get(p)->cloud, cloud);
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		assert_string_equal(gs_plan_node_at(p, i)->instance->cloud, cloud);
}

static void test_catalog_clouds(void **state)
{
	(void)state;
	assert_int_equal(gs_catalog_cloud_count(cat), 3);
	assert_string_equal(gs_catalog_cloud_at(cat, 0), "aws");
	assert_string_equal(gs_catalog_cloud_at(cat, 1), "azure");
	assert_string_equal(gs_catalog_cloud_at(cat, 2), "gcp");
	assert_null(gs_catalog_cloud_at(cat, 3));
	assert_int_equal(gs_catalog_cloud_count(with_onprem), 4);
	assert_string_equal(gs_catalog_cloud_at(with_onprem, 3), "onprem");
}

/* examples/multi-tenant-mig.yaml's workloads: every cloud can hold them,
 * gcp's a2-highgpu-4g is the cheapest, and the plan says what the others
 * cost. */
static void test_cheapest_cloud(void **state)
{
	gs_scenario *s = NULL;
	gs_plan *p;
	const gs_plan_cloud *c;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_scenario_load(cat, "../examples/multi-tenant-mig.yaml", &s, &err), &err);
	p = plan_of(s);
	assert_one_cloud(p, "gcp");
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 14693540);
	assert_int_equal(gs_plan_cloud_count(p), 3);
	c = gs_plan_cloud_at(p, 0);
	assert_string_equal(c->cloud, "aws");
	assert_int_equal(c->planned, 1);
	assert_int_equal(c->after_per_hour, 21957642);
	assert_int_equal(c->gpus, 8);
	assert_null(c->why);
	c = gs_plan_cloud_at(p, 1);
	assert_string_equal(c->cloud, "azure");
	assert_int_equal(c->after_per_hour, 27197000);
	c = gs_plan_cloud_at(p, 2);
	assert_string_equal(c->cloud, "gcp");
	assert_int_equal(c->after_per_hour, 14693540);
	assert_null(gs_plan_cloud_at(p, 3));
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* A named cloud plans there alone and lists no alternatives. */
static void test_named_cloud(void **state)
{
	static const char *const clouds[] = { "aws", "azure", "gcp" };
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		gs_scenario *s = NULL;
		gs_plan *p;
		gs_error err;
		assert_gs_ok(gs_scenario_load(cat, "../examples/multi-tenant-mig.yaml", &s, &err),
		             &err);
		assert_gs_ok(gs_scenario_set(s, NULL, "cloud", clouds[i], &err), &err);
		p = plan_of(s);
		assert_one_cloud(p, clouds[i]);
		assert_int_equal(gs_plan_cloud_count(p), 0);
		gs_plan_free(p);
		gs_scenario_free(s);
	}
}

/* A cloud of your own: 0.1.0 refused cloud: onprem. */
static void test_onprem(void **state)
{
	gs_scenario *s = load(with_onprem, "cloud: onprem\nworkloads:\n"
	                                   "  - {name: a, replicas: 9, gpuMemory: 40GiB, "
	                                   "compute: 60%}\n");
	gs_plan *p = plan_of(s);
	gs_error err;
	gs_scenario *bad = NULL;
	const char *typo = "cloud: onprm\nworkloads:\n  - {name: a, gpuMemory: 1GiB, "
	                   "compute: 1%}\n";
	(void)state;
	assert_one_cloud(p, "onprem");
	assert_int_equal(gs_plan_node_count(p), 2);
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 28000000);
	gs_plan_free(p);
	gs_scenario_free(s);

	assert_int_equal(gs_scenario_load_buffer(with_onprem, "t.yaml", typo, strlen(typo),
	                                         &bad, &err), GS_ESCHEMA);
	assert_gs_error(&err, "t.yaml:1:8: error: unknown cloud 'onprm' (did you mean "
	                      "'onprem'? the profiles have aws, azure, gcp, onprem or all)");
	assert_int_equal(gs_scenario_load_buffer(cat, "t.yaml", typo, strlen(typo), &bad, &err),
	                 GS_ESCHEMA);
	assert_gs_error(&err, "t.yaml:1:8: error: unknown cloud 'onprm' (the profiles have "
	                      "aws, azure, gcp or all)");
}

/* Workloads no single cloud holds: the plan does not span clouds. */
static void test_no_single_cloud(void **state)
{
	gs_scenario *s = load(cat, "cloud: all\n"
	                           "instances: [\"g5g.*\", \"n1-standard-4+1x-nvidia-tesla-t4\"]\n"
	                           "workloads:\n"
	                           "  - {name: x86-api, gpuMemory: 4GiB, compute: 10%}\n"
	                           "  - {name: arm-api, gpuMemory: 4GiB, compute: 10%, "
	                           "arch: arm64}\n");
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	gs_error err;
	(void)state;
	assert_int_equal(gs_plan_make(s, &po, &p, &err), GS_ENOFIT);
	assert_gs_error(&err, "t.yaml: error: no single cloud holds every workload (a plan "
	                      "lives in one cloud): aws cannot hold 'x86-api', gcp cannot hold "
	                      "'arm-api'; in aws: workload 'x86-api' is amd64, but the only "
	                      "instances in aws with a GPU it fits (T4G) are arm64; set its arch "
	                      "to arm64 or any if its images run there, or allow other instances");
	gs_scenario_free(s);
}

/* A cloud whose lower bound is not below the best plan is not planned;
 * the bound of one that cannot hold the workloads is -1. */
static void test_skipped(void **state)
{
	gs_scenario *s = load(cat, "cloud: all\npricing: spot\nworkloads:\n"
	                           "  - {name: ci, kind: ci, replicas: 8, gpuMemory: 2GiB, "
	                           "compute: 5%}\n");
	gs_plan *p = plan_of(s);
	const gs_plan_cloud *c;
	(void)state;
	assert_one_cloud(p, "azure");
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 125398);
	c = gs_plan_cloud_at(p, 0);
	assert_string_equal(c->cloud, "aws");
	assert_int_equal(c->planned, -1);
	assert_int_equal(c->after_per_hour, -1);
	assert_int_equal(c->estimate_per_hour, 223203);
	assert_int_equal(c->lower_bound_per_hour, 233028);
	assert_string_equal(c->why, "not planned: its lower bound, $0.23/h, is not below the "
	                            "plan in azure ($0.13/h)");
	c = gs_plan_cloud_at(p, 1);
	assert_int_equal(c->planned, 1);
	assert_int_equal(c->lower_bound_per_hour, 125398);
	assert_int_equal(gs_plan_cloud_at(p, 2)->lower_bound_per_hour, 276582);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* fleet.py hetero 20 4: aws's estimate ($4.40/h) is below the plan in gcp
 * ($4.61/h, proven optimal), but its volume bound ($4.66/h) is not, so
 * aws is not planned; planned alone, it costs $5.08/h. */
static const char hetero[] =
        "pricing: on-demand\ngpus: [L4, T4, A10G]\nworkloads:\n"
        "  - {name: w000, kind: training, replicas: 2, gpuMemory: 7.75GiB, compute: 13%, "
        "measuredOn: L4}\n"
        "  - {name: w001, kind: notebook, replicas: 6, gpuMemory: 9.25GiB, compute: 10%, "
        "measuredOn: T4}\n"
        "  - {name: w002, kind: batch, replicas: 1, gpuMemory: 1.50GiB, compute: 49%, "
        "measuredOn: A10G}\n"
        "  - {name: w003, kind: ci, replicas: 4, gpuMemory: 6.25GiB, compute: 10%, "
        "measuredOn: L4}\n"
        "  - {name: w004, kind: ci, replicas: 7, gpuMemory: 2.75GiB, compute: 15%, "
        "measuredOn: T4}\n";

static gs_plan *plan_hetero_in(const char *cloud, gs_scenario **s)
{
	char yaml[1024];
	snprintf(yaml, sizeof yaml, "cloud: %s\n%s", cloud, hetero);
	*s = load(cat, yaml);
	return plan_of(*s);
}

static void test_skipped_by_bound(void **state)
{
	gs_scenario *s, *s_aws;
	gs_plan *p = plan_hetero_in("all", &s), *aws = plan_hetero_in("aws", &s_aws);
	const gs_plan_cloud *c = gs_plan_cloud_at(p, 0);
	(void)state;
	assert_one_cloud(p, "gcp");
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 4614158);
	assert_int_equal(gs_plan_summary_get(p)->lower_bound_per_hour, 4614158);
	assert_string_equal(c->cloud, "aws");
	assert_int_equal(c->planned, -1);
	assert_int_equal(c->estimate_per_hour, 4401032);
	assert_int_equal(c->lower_bound_per_hour, 4656148);
	assert_string_equal(c->why, "not planned: its lower bound, $4.66/h, is not below the "
	                            "plan in gcp ($4.61/h)");
	assert_int_equal(gs_plan_summary_get(aws)->after_per_hour, 5076000);
	assert_true(gs_plan_summary_get(aws)->lower_bound_per_hour >= c->lower_bound_per_hour);
	gs_plan_free(aws);
	gs_plan_free(p);
	gs_scenario_free(s_aws);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog_clouds),
		cmocka_unit_test(test_cheapest_cloud),
		cmocka_unit_test(test_named_cloud),
		cmocka_unit_test(test_onprem),
		cmocka_unit_test(test_no_single_cloud),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_skipped_by_bound),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
