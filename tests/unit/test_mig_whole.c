/*
 * test_mig_whole.c - a fault-isolated replica that no MIG slice below the
 * whole GPU holds takes the whole GPU: dedicated, or as the whole GPU's
 * MIG instance (7g.80gb on the H100), which may share a node of MIG
 * GPUs where a dedicated GPU needs a node of its own kind. The rules the
 * bench's optimum.py reads allow both. Exact figures from the shipped
 * profiles: p5.48xlarge (eight H100s) $55.04/h, p5.4xlarge (one) $6.88/h;
 * an H100 holds seven 1g.10gb instances.
 */
#include <string.h>

#include "testutil.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* Two replicas of 54.5 GiB (no slice but 7g.80gb holds them) beside
 * sixty-three of 9 GiB, seven to a GPU: eight GPUs in all. */
#define FLEET "version: 1\ncloud: aws\ninstances: [\"%s\"]\nworkloads:\n" \
	"  - {name: big, kind: batch, replicas: 2, gpuMemory: 54.5GiB, compute: 60%%, " \
	"isolation: fault}\n" \
	"  - {name: small, kind: inference, replicas: %d, gpuMemory: 9GiB, compute: 10%%, " \
	"isolation: fault}\n"

#define P5_48 55040000
#define P5_4 6880000

/* The plan of FLEET; *s gets the scenario, which the plan reads. */
static gs_plan *plan_of(const char *instance, int small, gs_scenario **s)
{
	char text[512];
	snprintf(text, sizeof text, FLEET, instance, small);
	*s = tu_scenario(cat, "t.yaml", text);
	return tu_plan(*s);
}

/* The strategy each replica of `name` has, and the profile of its MIG
 * instance; -1 (and NULL) where they differ between its replicas. */
static gs_strategy strategy_of(const gs_plan *p, const char *name, const char **profile)
{
	int seen = 0;
	gs_strategy st = GS_STRATEGY_DEDICATED;
	*profile = NULL;
	for (size_t n = 0; n < gs_plan_node_count(p); n++) {
		const gs_plan_node *nd = gs_plan_node_at(p, n);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *gpu = &nd->gpus[g];
			for (size_t a = 0; a < gpu->n_assignments; a++)
				if (strcmp(gpu->assignments[a].workload->name, name) == 0) {
					assert_true(!seen || st == gpu->strategy);
					st = gpu->strategy;
					seen = 1;
				}
			for (size_t m = 0; m < gpu->n_mig; m++) {
				const gs_plan_mig *in = &gpu->mig[m];
				for (size_t a = 0; a < in->n_assignments; a++) {
					if (strcmp(in->assignments[a].workload->name, name) != 0)
						continue;
					assert_true(!seen || st == GS_STRATEGY_MIG);
					if (*profile)
						assert_string_equal(*profile, in->profile->name);
					*profile = in->profile->name;
					st = GS_STRATEGY_MIG;
					seen = 1;
				}
			}
		}
	}
	assert_true(seen);
	return st;
}

/* Small enough for the optimiser's program, whose columns hold the whole
 * GPU's instance: one node, proven. As dedicated GPUs the two big
 * replicas needed a second p5.48xlarge ($110.08/h, "proven" too, under
 * rules stricter than the bench's). */
static void test_program_fills_the_node(void **state)
{
	gs_scenario *s;
	gs_plan *p = plan_of("p5.48xlarge", 42, &s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	const char *prof;
	(void)state;
	assert_int_equal(sum->after_per_hour, P5_48);
	assert_int_equal(sum->gpus_after, 8);
	assert_int_equal(sum->instances_after, 1);
	assert_string_equal(sum->lower_bound_by, "optimum");
	assert_int_equal(strategy_of(p, "big", &prof), GS_STRATEGY_MIG);
	assert_string_equal(prof, "7g.80gb");
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Where each GPU is a node of its own, the instance saves nothing: the
 * replica keeps its GPU dedicated, with no geometry to apply. */
static void test_dedicated_where_it_ties(void **state)
{
	gs_scenario *s;
	gs_plan *p = plan_of("p5.4xlarge", 42, &s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	const char *prof;
	(void)state;
	assert_int_equal(sum->after_per_hour, 8 * P5_4);
	assert_int_equal(strategy_of(p, "big", &prof), GS_STRATEGY_DEDICATED);
	assert_null(prof);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Beyond the program (fixtures/unit/mig-whole.yaml: 415 replicas), the
 * packer gives the big replicas dedicated GPUs, and the plan's last step
 * makes them whole-GPU instances, which fill the eighth node's last two
 * GPUs: 8 nodes, where 9 were bought before ($495.36/h). */
static void test_packer_plan_settled(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, "fixtures/unit/mig-whole.yaml");
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	const char *prof;
	(void)state;
	assert_int_equal(sum->after_per_hour, 8 * P5_48);
	assert_int_equal(sum->gpus_after, 64);
	assert_int_equal(sum->instances_after, 8);
	assert_int_equal(strategy_of(p, "big", &prof), GS_STRATEGY_MIG);
	assert_string_equal(prof, "7g.80gb");
	assert_int_equal(strategy_of(p, "small", &prof), GS_STRATEGY_MIG);
	assert_string_equal(prof, "1g.10gb");
	gs_plan_free(p);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_program_fills_the_node),
		cmocka_unit_test(test_dedicated_where_it_ties),
		cmocka_unit_test(test_packer_plan_settled),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
