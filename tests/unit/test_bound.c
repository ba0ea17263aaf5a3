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
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* Three of 6 GiB (6,144 MiB) share one L4 (18,432 of 20,230.2 MiB). MPS
 * would split it three ways (7,678 MiB each; four ways leave 5,758), a
 * third each, more than 6,144 of 20,230.2: time-slicing's share is the
 * least, 18,432 / 20,230.2 of $0.8048/h. */
#define THREE "version: 1\ninstances: [g6.xlarge]\nplacement: pinned\n%s" \
	"workloads:\n  - {name: a, replicas: 3, gpuMemory: 6GiB, compute: 5%%}\n"

static void test_headroom_counts(void **state)
{
	char text[256];
	gs_scenario *s;
	gs_plan *p;
	(void)state;
	snprintf(text, sizeof text, THREE, "");
	s = tu_scenario(cat, "t.yaml", text);
	p = tu_plan(s);
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 804800);
	assert_int_equal(tu_volume_of(s), 733263);
	gs_plan_free(p);
	gs_scenario_free(s);
	/* Without headroom the usable memory is offered: 18,432 / 22,478. */
	snprintf(text, sizeof text, THREE, "memoryHeadroom: 0%\n");
	s = tu_scenario(cat, "t.yaml", text);
	assert_int_equal(tu_volume_of(s), 659937);
	gs_scenario_free(s);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headroom_counts),
		cmocka_unit_test(test_mps_split_keeps_it_valid),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
