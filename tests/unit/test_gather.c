/*
 * test_gather.c - the gather start's choice (plan_gather.c): the
 * workloads whose replicas each hold a whole GPU move to the MIG model
 * where an instance of the smallest profile that holds one, priced at its
 * part of the GPU's slices, costs less than that GPU; shared replicas,
 * replicas no instance holds and fleets with no MIG model stay. Exact
 * figures from the shipped profiles: g6e.xlarge (one L40S) $1.861/h,
 * p4de.24xlarge (eight A100-SXM4-80GB) $27.44705/h, $3.430881/h a GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* big: two of its replicas overflow an L40S (44.6 GiB usable), so each
 * holds one alone; a 3g.40gb instance (4 of 8 memory slices) holds one,
 * at $1.715440/h. iso: fault-isolated, alone on an L40S, in a 1g.10gb
 * (1 of 7 compute slices) at $0.490126/h. xl: 41 GiB, more than any
 * instance below the whole GPU offers. small: shares an L40S. */
#define FLEET "version: 1\ninstances: [%s]\nplacement: %s\nworkloads:\n" \
	"  - {name: big, replicas: 4, gpuMemory: 30GiB, compute: 20%%, measuredOn: L40S}\n" \
	"  - {name: iso, replicas: 2, gpuMemory: 8GiB, compute: 5%%, measuredOn: L40S, " \
	"isolation: fault}\n" \
	"  - {name: xl, replicas: 2, gpuMemory: 41GiB, compute: 10%%, measuredOn: L40S}\n" \
	"  - {name: small, replicas: 12, gpuMemory: 2GiB, compute: 4%%, measuredOn: L40S}\n"

enum { BIG, ISO, XL, SMALL, NWL };

/* The gather start's models for the fleet planned with every workload on
 * the L40S: what gs_gather_mig returned, its models in model[]. */
static int gather(const char *instances, const char *placement, int model[NWL],
                  tu_planned *t, gs_scenario **s)
{
	char text[1024];
	gs_built b;
	int rc;
	snprintf(text, sizeof text, FLEET, instances, placement);
	*s = tu_scenario(cat, "t.yaml", text);
	tu_planned_open(t, *s);
	for (int w = 0; w < NWL; w++)
		t->c.model[w] = tu_model_named(&t->pl, "L40S");
	memset(&b, 0, sizeof b);
	assert_int_equal(gs_build_after(&t->pl, t->shops, &t->c, &b), 0);
	rc = gs_gather_mig(&t->pl, &t->c, &b, model);
	gs_built_release(&b);
	return rc;
}

static void expect_gathered(const char *placement, const char *big_to)
{
	tu_planned t;
	gs_scenario *s;
	int model[NWL];
	assert_int_equal(gather("g6e.xlarge, p4de.24xlarge", placement, model, &t, &s), 1);
	assert_int_equal(model[BIG], tu_model_named(&t.pl, big_to));
	assert_int_equal(model[ISO], tu_model_named(&t.pl, "A100-SXM4-80GB"));
	assert_int_equal(model[XL], tu_model_named(&t.pl, "L40S"));
	assert_int_equal(model[SMALL], tu_model_named(&t.pl, "L40S"));
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* Under robust placement big's replicas hold an L40S each, and move. */
static void test_robust(void **state)
{
	(void)state;
	expect_gathered("robust", "A100-SXM4-80GB");
}

/* Pinned, the packer seats small's replicas beside big's: they share a
 * GPU, cost less than a whole one, and stay. */
static void test_pinned(void **state)
{
	(void)state;
	expect_gathered("pinned", "L40S");
}

/* With no MIG model to go to, nothing moves and the models are c's. */
static void test_no_mig_model(void **state)
{
	tu_planned t;
	gs_scenario *s;
	int model[NWL];
	(void)state;
	assert_int_equal(gather("g6e.xlarge", "robust", model, &t, &s), 0);
	for (int w = 0; w < NWL; w++)
		assert_int_equal(model[w], t.c.model[w]);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_pinned),
		cmocka_unit_test(test_no_mig_model),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
