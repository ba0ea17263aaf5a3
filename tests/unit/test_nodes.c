/*
 * test_nodes.c - buying nodes (nodeset.c): a node keeps its GPUs' MIG
 * profile masks as it grows, and the device plugin's rule for MIG nodes
 * (a pod takes any instance of its profile on its node, so no GPU may hold
 * twice a profile that a spread: gpu workload asks) answered by those
 * masks must be the rule as robust.c states it, GPU by GPU. Seeded random
 * nodes of A100 MIG GPUs, including nodes that break the rule already.
 * And nodes that spread leaves partly empty are bought smaller; a node
 * moved onto a type of more GPUs has room for them.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/nodes.h"
#include "plan/robust.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* Two workloads with spread: gpu, two without, on p4d (A100-SXM4-40GB). */
#define FLEET "version: 1\ninstances: [p4d.24xlarge]\nworkloads:\n" \
	"  - {name: s1, replicas: 8, gpuMemory: 4GiB, compute: 5%, spread: gpu}\n" \
	"  - {name: s2, replicas: 8, gpuMemory: 9GiB, compute: 5%, spread: gpu}\n" \
	"  - {name: a, replicas: 8, gpuMemory: 4GiB, compute: 5%}\n" \
	"  - {name: b, replicas: 8, gpuMemory: 9GiB, compute: 5%}\n"

#define GPUS 400
#define MOST_GROUPS 4

typedef struct made {
	gs_pgpu gpu[GPUS];
	gs_group groups[GPUS][MOST_GROUPS];
	int reps[GPUS][MOST_GROUPS];
} made;

/* GPU i: 1 to 4 MIG instances of any of the model's profiles, each
 * with one replica: of a spread: gpu workload (0 .. 15) one time in four,
 * else of one without (16 .. 31). */
static void make_gpus(made *m, const gs_gpu *a100, uint64_t *x)
{
	memset(m, 0, sizeof *m);
	for (int i = 0; i < GPUS; i++) {
		gs_pgpu *g = &m->gpu[i];
		g->model = a100;
		g->strategy = GS_STRATEGY_MIG;
		g->ng = 1 + tu_below(x, MOST_GROUPS);
		g->g = m->groups[i];
		for (int k = 0; k < g->ng; k++) {
			gs_group *gr = &g->g[k];
			gr->prof = &a100->mig_profiles[tu_below(x, (int)a100->n_mig_profiles)];
			gr->reps = &m->reps[i][k];
			gr->reps[0] = tu_below(x, 4) == 0 ? tu_below(x, 16) : 16 + tu_below(x, 16);
			gr->n = 1;
		}
	}
}

static void test_mig_masks_are_the_rule(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", FLEET);
	made *m = malloc(sizeof *m);
	uint64_t x = UINT64_C(0x5eed5eed5eed);
	tu_planned t;
	int clashes = 0, asked = 0;
	(void)state;
	assert_non_null(m);
	tu_planned_open(&t, s);
	assert_string_equal(t.pl.models[0]->name, "A100-SXM4-40GB");
	make_gpus(m, t.pl.models[0], &x);
	for (int round = 0; round < 300; round++) {
		gs_nodeset ns;
		gs_bnode *b;
		const gs_pgpu *on[8];
		int n = tu_below(&x, 8);
		memset(&ns, 0, sizeof ns);
		b = gs_bnode_new(&ns, t.pl.shops[0].insts[0], 0, GS_STRATEGY_MIG, 0);
		assert_non_null(b);
		/* The node as bought unchecked: it may break the rule already. */
		for (int i = 0; i < n; i++) {
			gs_pgpu_facts f;
			on[i] = &m->gpu[tu_below(&x, GPUS)];
			gs_pgpu_facts_of(&t.pl, on[i], &f);
			assert_int_equal(gs_bnode_take(&t.pl, b, on[i], &f), 0);
		}
		for (int k = 0; k < 20; k++) {
			const gs_pgpu *g = &m->gpu[tu_below(&x, GPUS)];
			gs_pgpu_facts f;
			int want = !gs_robust_mig_node_ok(&t.pl, on, n, g);
			gs_pgpu_facts_of(&t.pl, g, &f);
			assert_int_equal(gs_bnode_clash(&t.pl, b, g, &f), want);
			clashes += want;
			asked++;
		}
		gs_nodeset_release(&ns);
	}
	/* Both answers occur often, or the test would prove little. */
	assert_int_equal(asked, 6000);
	assert_in_range(clashes, 1500, 4500);
	tu_planned_close(&t);
	free(m);
	gs_scenario_free(s);
}

/* Two instances of 1g.5gb on one GPU: a spread: gpu replica of that
 * profile on the node's other GPU makes the pair break the rule; of
 * another profile, not. */
static void test_mig_masks_by_hand(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", FLEET);
	const gs_mig_profile *small;
	gs_group two[2], one[1];
	int r_two[2] = { 16, 17 }, r_one[1] = { 0 };
	gs_pgpu g2, g1;
	gs_pgpu_facts f;
	gs_nodeset ns;
	gs_bnode *b;
	tu_planned t;
	(void)state;
	tu_planned_open(&t, s);
	small = tu_profile(t.pl.models[0], "1g.5gb");
	memset(&ns, 0, sizeof ns);
	memset(two, 0, sizeof two);
	memset(one, 0, sizeof one);
	memset(&g2, 0, sizeof g2);
	memset(&g1, 0, sizeof g1);
	two[0].prof = two[1].prof = small;
	two[0].reps = &r_two[0];
	two[1].reps = &r_two[1];
	two[0].n = two[1].n = 1;
	g2.model = g1.model = t.pl.models[0];
	g2.strategy = g1.strategy = GS_STRATEGY_MIG;
	g2.g = two;
	g2.ng = 2;
	one[0].prof = small;
	one[0].reps = r_one; /* replica 0: workload s1, spread: gpu */
	one[0].n = 1;
	g1.g = one;
	g1.ng = 1;
	b = gs_bnode_new(&ns, t.pl.shops[0].insts[0], 0, GS_STRATEGY_MIG, 0);
	gs_pgpu_facts_of(&t.pl, &g2, &f);
	assert_int_equal(gs_bnode_take(&t.pl, b, &g2, &f), 0);
	gs_pgpu_facts_of(&t.pl, &g1, &f);
	assert_int_equal(gs_bnode_clash(&t.pl, b, &g1, &f), 1);
	one[0].prof = tu_profile(t.pl.models[0], "2g.10gb");
	gs_pgpu_facts_of(&t.pl, &g1, &f);
	assert_int_equal(gs_bnode_clash(&t.pl, b, &g1, &f), 0);
	gs_nodeset_release(&ns);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* Azure sells its A100 80GB PCIe as 1, 2 or 4 GPUs at one price per GPU,
 * so the count's best buy of 4 GPUs is one 4-GPU node. The 4 GPUs below
 * each hold a replica of `a`, whose spread: gpu keeps them on distinct
 * nodes: three could not join the first node, which then held 1 GPU of
 * its 4 ($25.71/h with three 1-GPU nodes). Each node is now the cheapest
 * that holds it. */
static void test_spread_nodes_downsized(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ncloud: azure\ngpus: [A100-PCIE-80GB]\n"
	                             "workloads:\n"
	                             "  - {name: a, replicas: 4, gpuMemory: 35.75GiB, "
	                             "compute: 74%, spread: gpu}\n"
	                             "  - {name: b, replicas: 4, gpuMemory: 30GiB, "
	                             "compute: 10%}\n");
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 14692000);
	assert_int_equal(gs_plan_summary_get(p)->gpus_after, 4);
	assert_int_equal(gs_plan_node_count(p), 4);
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		assert_string_equal(n->instance->type, "Standard_NC24ads_A100_v4");
		assert_int_equal(n->n_gpus, 1);
		assert_int_equal(n->gpus[0].n_assignments, 2);
	}
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* fixtures/unit/spread-node-h100.yaml: spread: node kept replicas off
 * an 8-GPU p5.48xlarge ($55.04/h) that buying by count had taken (a
 * p5.4xlarge, one H100, is $6.88/h: the same per GPU), and no one type
 * smaller holds what was left on it. Such a node is now split into the
 * best buy of its GPUs: the plan $158.24/h -> $137.60/h on 20 p5.4xlarge,
 * and its baseline of a whole GPU per replica, bought the same way,
 * $371.52/h on 54 GPUs -> $330.24/h on 48. Every GPU bought holds a
 * replica, or MIG instances. */
static void test_partly_empty_nodes_split(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, "fixtures/unit/spread-node-h100.yaml");
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	(void)state;
	assert_int_equal(sum->after_per_hour, 137600000);
	assert_int_equal(sum->instances_after, 20);
	assert_int_equal(sum->before_per_hour, 330240000);
	assert_int_equal(sum->gpus_before, 48);
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		assert_string_equal(n->instance->type, "p5.4xlarge");
		for (size_t g = 0; g < n->n_gpus; g++)
			assert_true(n->gpus[g].n_assignments > 0 || n->gpus[g].n_mig > 0);
	}
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* The baseline is bought as the plan is: its partly empty nodes split
 * too (azure's 4-GPU A100 node with 3 replicas: 2 + 1), so the savings it
 * reports are not overstated. Before, 34 GPUs ($124.882/h) on 12 nodes. */
static void test_baseline_nodes_split(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, "fixtures/unit/spread-node-a100-azure.yaml");
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	(void)state;
	assert_int_equal(sum->before_per_hour, 121209000);
	assert_int_equal(sum->gpus_before, 33);
	assert_int_equal(sum->instances_before, 13);
	assert_int_equal(sum->after_per_hour, 33057000);
	assert_int_equal(sum->gpus_after, 9);
	assert_int_equal(sum->instances_after, 9);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Nodes' GPU arrays are cut from the set's blocks (nodeset.c): 600 nodes
 * take several, each keeps its GPU, and dropping the empty ones keeps the
 * rest in order. A node that downsizing moves to an instance type of
 * more GPUs (here the only one the shop sells, cheaper than the price
 * the node was given) gets room for them all, its first GPU kept: ASan
 * and valgrind see the writes to the others. */
static void test_node_arrays(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ninstances: [g6.12xlarge]\nworkloads:\n"
	                             "  - {name: a, replicas: 1, gpuMemory: 4GiB, compute: 5%}\n");
	const gs_instance *one = gs_instance_find(cat, "g6.xlarge");
	static gs_pgpu g[600];
	gs_pgpu_facts f = { 0, 0, 0, 0 };
	gs_nodeset ns;
	tu_planned t;
	(void)state;
	assert_non_null(one);
	tu_planned_open(&t, s);
	assert_int_equal(t.pl.nmodels, 1);
	assert_int_equal(t.pl.shops[0].insts[0]->gpu_count, 4);
	memset(&ns, 0, sizeof ns);
	for (int i = 0; i < 600; i++) {
		gs_bnode *b = gs_bnode_new(&ns, one, 5000000000, GS_STRATEGY_DEDICATED, 0);
		assert_non_null(b);
		g[i].model = t.pl.models[0];
		g[i].strategy = GS_STRATEGY_DEDICATED;
		if (i % 3)
			assert_int_equal(gs_bnode_take(&t.pl, b, &g[i], &f), 0);
	}
	assert_true(ns.nblocks > 1);
	gs_nodeset_drop_empty(&ns, 0);
	assert_int_equal(ns.n, 400);
	for (int i = 0; i < ns.n; i++)
		assert_ptr_equal(ns.v[i].gpus[0], &g[i + 1 + i / 2]);
	assert_int_equal(gs_nodeset_downsize(&t.pl, &t.pl.shops[0], &ns, 0), 0);
	for (int i = 0; i < ns.n; i++) {
		gs_bnode *b = &ns.v[i];
		assert_int_equal(b->inst->gpu_count, 4);
		assert_int_equal(b->price, t.pl.shops[0].price[0]);
		assert_ptr_equal(b->gpus[0], &g[i + 1 + i / 2]);
		for (int k = 1; k < 4; k++)
			assert_int_equal(gs_bnode_take(&t.pl, b, &g[0], &f), 0);
		assert_int_equal(b->n, 4);
	}
	gs_nodeset_release(&ns);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_nodes_downsized),
		cmocka_unit_test(test_node_arrays),
		cmocka_unit_test(test_partly_empty_nodes_split),
		cmocka_unit_test(test_baseline_nodes_split),
		cmocka_unit_test(test_mig_masks_by_hand),
		cmocka_unit_test(test_mig_masks_are_the_rule),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
