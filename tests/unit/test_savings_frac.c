/*
 * test_savings_frac.c - `savings --strategy fraction`: equal fractions of
 * one GPU, as many as every rule of the backend allows, and the rule that
 * bound the count named; an asked count a rule refuses is an error naming
 * that rule. The figures come from the profiles: an L4 reports 23034 MiB
 * and keeps 556 MiB, so 22478 MiB (21.95 GiB) are usable; a V100-SXM2-16GB
 * allows 16 MPS clients, an L4 48; g6.xlarge is one L4 at $0.8048/h.
 */
#include <string.h>

#include "testutil.h"

TU_CATALOG_GROUP(cat)

static gs_savings_opts frac_opts(const char *instance, gs_backend b, const char *memory)
{
	gs_savings_opts so = GS_SAVINGS_OPTS_INIT;
	so.instance = instance;
	so.strategy = GS_STRATEGY_FRACTION;
	so.backend = b;
	so.memory = memory;
	return so;
}

/* The example: 4 GiB caps at 10% each on an L4 under HAMi. Compute
 * leaves room for 9, the SM limits for 10, HAMi's split count for 10, but
 * 6 caps of 4096 MiB (24576) pass 22478 MiB: memory binds at 5. */
static void test_hami_l4_memory_binds(void **state)
{
	gs_savings_opts so = frac_opts("g6.xlarge", GS_BACKEND_HAMI, "4Gi");
	gs_savings s;
	gs_error err;
	(void)state;
	so.compute = "10%";
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.strategy, GS_STRATEGY_FRACTION);
	assert_int_equal(s.backend, GS_BACKEND_HAMI);
	assert_int_equal(s.replicas, 5);
	assert_int_equal(s.replicas_asked, 5);
	assert_string_equal(s.bound_by, "memory");
	assert_int_equal(s.max_clients, 10);
	assert_int_equal(s.memory_mib, 4096);
	assert_int_equal(s.thread_percent, 10);
	assert_int_equal(s.compute_permille, 100);
	assert_int_equal(s.memory_isolated, 1);
	assert_int_equal(s.fault_isolated, 0);
	assert_int_equal(s.workloads, 5);
	assert_int_equal(s.gpus_after, 1);
	assert_int_equal(s.before_per_hour, 5 * 804800);
	assert_int_equal(s.after_per_hour, 804800);
	assert_int_equal(s.saved_permille, 800);
	assert_string_equal(s.rule, "memory bounds it: 5 caps of 4.00 GiB fit the 21.95 GiB "
	                            "usable memory of one L4; 6 would need 24.00 GiB");
	/* Five fit, six are refused by the rule that bound the count. */
	so.replicas = 5;
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_string_equal(s.bound_by, "asked");
	so.replicas = 6;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_ENOFIT);
	assert_gs_error(&err, "error: 6 caps of 4.00 GiB need 24.00 GiB, over the 21.95 GiB "
	                      "usable memory of one L4: room for 5");
}

/* DRA limits no compute: no SM %, and 1/R of the time when all are busy. */
static void test_dra_limits_no_compute(void **state)
{
	gs_savings_opts so = frac_opts("g6.xlarge", GS_BACKEND_DRA, "1Gi");
	gs_savings s;
	gs_error err;
	(void)state;
	so.compute = "33.1%";
	so.target_utilization = "100%";
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.replicas, 3);
	assert_string_equal(s.bound_by, "compute");
	assert_int_equal(s.max_clients, 0);
	assert_int_equal(s.thread_percent, 0);
	assert_int_equal(s.compute_permille, 333);
	assert_string_equal(s.rule, "compute bounds it: 3 of these at 33.1% use 99.3% of one "
	                            "GPU, within targetUtilization 100%");
	/* HAMi rounds each SM limit up to 34%: three would need 102%. */
	so.backend = GS_BACKEND_HAMI;
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.replicas, 2);
	assert_string_equal(s.bound_by, "sm");
	assert_int_equal(s.thread_percent, 34);
	assert_string_equal(s.rule, "SM limits bound it: HAMi gives each 34% of the SMs (33.1% "
	                            "rounded up), so 2 fit in 100%");
	so.replicas = 3;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_ENOFIT);
	assert_gs_error(&err, "error: HAMi limits each fraction to 34% of the SMs (33.1% rounded "
	                      "up): 3 need 102%, over 100%: room for 2");
}

/* Small caps: the backend's client maximum binds, HAMi's default split
 * count of 10 and MPS's 16 on a V100 (compute capability 7.0). */
static void test_clients_bind(void **state)
{
	gs_savings_opts so = frac_opts("p3.2xlarge", GS_BACKEND_HAMI, "512Mi");
	gs_savings s;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.replicas, 10);
	assert_string_equal(s.bound_by, "clients");
	assert_int_equal(s.compute_ppm, 90000);
	assert_int_equal(s.thread_percent, 9);
	assert_string_equal(s.rule, "clients bound it: HAMi's deviceSplitCount (10 by default) "
	                            "allows 10 per GPU; assumes each workload peaks at or below "
	                            "9% of a GPU: targetUtilization 90% / 10");
	so.backend = GS_BACKEND_MPS;
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.replicas, 16);
	assert_int_equal(s.max_clients, 16);
	so.replicas = 17;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_ENOFIT);
	assert_gs_error(&err, "error: MPS on V100-SXM2-16GB allows at most 16 clients per GPU, "
	                      "not 17");
	so.backend = GS_BACKEND_HAMI;
	so.replicas = 11;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_ENOFIT);
	assert_gs_error(&err, "error: HAMi's deviceSplitCount (10 by default) allows at most 10 "
	                      "clients per GPU, not 11");
}

/* Without --memory, R equal caps split the usable memory (22478 / 4 =
 * 5619 MiB); without --compute, each is assumed to peak at 90% / 4 =
 * 22.5%, an SM limit of 23%. With 3 at 100% the limits would add up to
 * 102%: the assumption drops to 33%. */
static void test_equal_split_and_assumption(void **state)
{
	gs_savings_opts so = frac_opts("g6.xlarge", GS_BACKEND_MPS, NULL);
	gs_savings s;
	gs_error err;
	(void)state;
	so.replicas = 4;
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.memory_mib, 5619);
	assert_int_equal(s.compute_ppm, 225000);
	assert_int_equal(s.thread_percent, 23);
	assert_int_equal(s.max_clients, 48);
	assert_string_equal(s.rule, "4 equal caps of 5.49 GiB split the 21.95 GiB usable memory "
	                            "of one L4; assumes each workload peaks at or below 22.5% of "
	                            "a GPU: targetUtilization 90% / 4");
	so.replicas = 3;
	so.target_utilization = "100%";
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.compute_ppm, 330000);
	assert_int_equal(s.thread_percent, 33);
	assert_string_equal(s.rule, "3 equal caps of 7.32 GiB split the 21.95 GiB usable memory "
	                            "of one L4; assumes each workload peaks at or below 33% of a "
	                            "GPU: MPS gives each of 3 fractions 100 / 3 = 33% of the SMs");
}

/* A cap is the memory rounded up to whole MiB: 1000MB is 953.67 MiB. */
static void test_cap_rounds_up(void **state)
{
	gs_savings_opts so = frac_opts("g6.xlarge", GS_BACKEND_DRA, "1000MB");
	gs_savings s;
	gs_error err;
	(void)state;
	so.replicas = 2;
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.memory_mib, 954);
	/* One cap that fills the usable memory fits; one more MiB does not. */
	so.replicas = 0;
	so.memory = "22478Mi";
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.replicas, 1);
	assert_int_equal(s.saved_permille, 0);
	so.memory = "22479Mi";
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_ENOFIT);
	assert_gs_error(&err, "error: a fraction capped at 21.95 GiB does not fit the 21.95 GiB "
	                      "usable memory of one L4");
}

/* What does not go together is refused before anything is counted. */
static void test_refusals(void **state)
{
	gs_savings_opts so = frac_opts("g6.xlarge", GS_BACKEND_NONE, "4Gi");
	gs_savings s;
	gs_error err;
	(void)state;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_EINVAL);
	assert_gs_error(&err, "error: the fraction strategy needs a backend: hami, dra or mps");
	so.backend = GS_BACKEND_HAMI;
	so.memory = NULL;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_EINVAL);
	assert_gs_error(&err, "error: the fraction strategy needs each workload's memory or a "
	                      "replica count");
	so.memory = "0Mi";
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_EINVAL);
	assert_gs_error(&err, "error: memory must be above 0, not '0Mi'");
	so.memory = "4";
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_EINVAL);
	assert_gs_error(&err, "error: '4' needs a unit: GiB, Gi, MiB, Mi, GB or MB");
	so.strategy = GS_STRATEGY_MPS;
	so.replicas = 2;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_EINVAL);
	assert_gs_error(&err, "error: backend hami applies only to the fraction strategy");
	so.backend = GS_BACKEND_NONE;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_EINVAL);
	assert_gs_error(&err, "error: a memory size applies only to the fraction strategy");
	so.memory = NULL;
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	assert_int_equal(s.backend, GS_BACKEND_NONE);
	assert_null(s.bound_by);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hami_l4_memory_binds),
		cmocka_unit_test(test_dra_limits_no_compute),
		cmocka_unit_test(test_clients_bind),
		cmocka_unit_test(test_equal_split_and_assumption),
		cmocka_unit_test(test_cap_rounds_up),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
