/*
 * test_refill.c - the repair after packing (refill.c): under pinned
 * placement a GPU is emptied into the room another GPU of its tenant has
 * left, on another model, when the packer's rules allow it and the plan
 * bought again costs less; never across tenants, past a rule or outside
 * the workload's candidates; under robust placement a workload moves
 * whole or not at all. Exact figures from the shipped profiles: g6e.xlarge
 * (one L40S, 40.49 GiB offered to time-sliced pods) $1.861/h, g4dn.xlarge
 * (one T4) $0.526/h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* A large replica that only an L40S holds, and small ones of a tenant
 * that the choice puts on a T4 (time-sliced when two). */
#define PAIR "version: 1\ninstances: [g6e.xlarge, g4dn.xlarge]\nplacement: %s\n" \
	"workloads:\n" \
	"  - {name: big, replicas: 1, gpuMemory: %s, compute: 10%%, tenant: a}\n" \
	"  - {name: small, replicas: %d, gpuMemory: %s, compute: 10%%, tenant: %s%s}\n"

typedef struct pair {
	const char *placement, *big_mem;
	int small_reps;
	const char *small_mem, *tenant;
	const char *extra; /* more of small's keys, or NULL */
} pair;

/* What refilling the pair's plan, big on the L40S and small on the T4,
 * comes to. */
typedef struct outcome {
	gs_micros before, after;
	int l40s, t4;   /* GPUs of each after */
	int together;   /* replicas on the first L40S after */
} outcome;

static outcome refill_pair(pair pr)
{
	char text[512];
	gs_scenario *s;
	tu_planned t;
	gs_built b;
	outcome o;
	const gs_pack *l40s, *t4;
	snprintf(text, sizeof text, PAIR, pr.placement, pr.big_mem, pr.small_reps, pr.small_mem,
	         pr.tenant, pr.extra ? pr.extra : "");
	s = tu_scenario(cat, "t.yaml", text);
	tu_planned_open(&t, s);
	t.c.model[0] = tu_model_named(&t.pl, "L40S");
	t.c.model[1] = tu_model_named(&t.pl, "T4");
	assert_int_equal(gs_build_chosen(&t.pl, t.shops, &t.c, &b), 0);
	o.before = b.cost;
	assert_int_equal(gs_refill(&t.pl, t.shops, &t.c, &b), 0);
	o.after = b.cost;
	l40s = &b.packs[tu_model_named(&t.pl, "L40S")];
	t4 = &b.packs[tu_model_named(&t.pl, "T4")];
	o.l40s = l40s->n;
	o.t4 = t4->n;
	o.together = l40s->n ? l40s->gpus[0].g[0].n : 0;
	gs_built_release(&b);
	tu_planned_close(&t);
	gs_scenario_free(s);
	return o;
}

/* 30 + 4 GiB fit the 40.49 an L40S offers: the T4 empties, $0.526/h
 * saved, and the L40S time-slices both. */
static void test_empties_into_room(void **state)
{
	outcome o = refill_pair((pair){ "pinned", "30GiB", 1, "4GiB", "a", NULL });
	(void)state;
	assert_int_equal(o.before, 2387000);
	assert_int_equal(o.after, 1861000);
	assert_int_equal(o.l40s, 1);
	assert_int_equal(o.t4, 0);
	assert_int_equal(o.together, 2);
}

/* Another tenant's replica never joins. */
static void test_tenants_apart(void **state)
{
	outcome o = refill_pair((pair){ "pinned", "30GiB", 1, "4GiB", "b", NULL });
	(void)state;
	assert_int_equal(o.after, 2387000);
	assert_int_equal(o.t4, 1);
	assert_int_equal(o.together, 1);
}

/* 30 + 11 GiB is over the 40.49 offered: the packer's rule refuses. */
static void test_rules_hold(void **state)
{
	outcome o = refill_pair((pair){ "pinned", "30GiB", 1, "11GiB", "a", NULL });
	(void)state;
	assert_int_equal(o.after, 2387000);
	assert_int_equal(o.t4, 1);
}

/* Only a workload's candidate models take it: small may run on T4s
 * alone. */
static void test_candidates_kept(void **state)
{
	outcome o = refill_pair((pair){ "pinned", "30GiB", 1, "4GiB", "a", ", gpus: [T4]" });
	(void)state;
	assert_int_equal(o.before, 2387000);
	assert_int_equal(o.after, 2387000);
	assert_int_equal(o.t4, 1);
}

/* A GPU empties whole or not at all: the T4 time-slices two of 4 GiB, and
 * the L40S has room for one beside 34 GiB (38 of 40.49), not both. */
static void test_all_or_none(void **state)
{
	outcome o = refill_pair((pair){ "pinned", "34GiB", 2, "4GiB", "a", NULL });
	(void)state;
	assert_int_equal(o.before, 2387000);
	assert_int_equal(o.after, 2387000);
	assert_int_equal(o.t4, 1);
	assert_int_equal(o.together, 1);
}

/* Robust placement moves a workload whole: small's one replica goes. */
static void test_robust_moves_whole(void **state)
{
	outcome o = refill_pair((pair){ "robust", "30GiB", 1, "4GiB", "a", NULL });
	(void)state;
	assert_int_equal(o.before, 2387000);
	assert_int_equal(o.after, 1861000);
	assert_int_equal(o.t4, 0);
	assert_int_equal(o.together, 2);
}

/* Robust, small's two replicas time-slice one T4; the L40S takes one
 * beside 34 GiB, not both, and small may not split: it stays. */
static void test_robust_all_or_none(void **state)
{
	outcome o = refill_pair((pair){ "robust", "34GiB", 2, "4GiB", "a", NULL });
	(void)state;
	assert_int_equal(o.after, 2387000);
	assert_int_equal(o.t4, 1);
	assert_int_equal(o.together, 1);
}

/* Every replica once, and every whole GPU's group one the packer's rule
 * builds again replica by replica (the rules only tighten as a group
 * grows, so a group that holds was joinable in any order). */
static void expect_sound(const gs_planner *pl, const gs_built *b)
{
	tu_expect_placed_once(pl, b);
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++) {
			const gs_pgpu *pg = &b->packs[m].gpus[i];
			for (int j = 0; j < pg->ng; j++)
				if (pg->strategy != GS_STRATEGY_MIG && pg->g[j].n > 1)
					tu_expect_joinable(pl, pg->model, &pg->g[j]);
		}
}

/* A fixture of the bench's mixed fleets from the first choice, refilled:
 * cheaper, and sound. */
static void refill_fixture(const char *fixture, gs_placement placement, gs_micros before,
                           gs_micros after)
{
	gs_scenario *s = tu_scenario_file(cat, fixture);
	tu_planned t;
	gs_built b;
	s->placement = placement;
	tu_planned_open(&t, s);
	assert_int_equal(gs_build_chosen(&t.pl, t.shops, &t.c, &b), 0);
	assert_int_equal(b.cost, before);
	assert_int_equal(gs_refill(&t.pl, t.shops, &t.c, &b), 0);
	assert_int_equal(b.cost, after);
	expect_sound(&t.pl, &b);
	if (placement == GS_PLACEMENT_ROBUST)
		assert_int_equal(gs_built_one_request(&t.pl, &b), 1);
	gs_built_release(&b);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* 300 replicas, pinned: $1.05/h less. */
static void test_fleet_pinned(void **state)
{
	(void)state;
	refill_fixture("fixtures/unit/mixed-300.yaml", GS_PLACEMENT_PINNED, 148142400, 147090400);
}

/* 500 replicas, robust (300 move nothing whole): $0.80/h less. */
static void test_fleet_robust(void **state)
{
	(void)state;
	refill_fixture("fixtures/unit/mixed-500.yaml", GS_PLACEMENT_ROBUST, 337894000, 337089200);
}

/* What the refill's spots note (refill_spots.c): a group that MPS refuses
 * for a member over its split refuses every replica MPS would seat, so
 * a spot passes them over without asking; a replica over the split
 * itself says nothing of the others. On an L4: heavy (latency-critical,
 * 50 %) rules out time-slicing, so its group shares by MPS, and a third
 * client's split of 33 % is under heavy's 50 %. */
static void test_mps_refusal_by_member(void **state)
{
	gs_scenario *s = tu_scenario(
	        cat, "t.yaml",
	        "version: 1\ninstances: [g6.xlarge]\nplacement: pinned\nworkloads:\n"
	        "  - {name: heavy, kind: inference, latency: critical, gpuMemory: 2GiB, "
	        "compute: 50%}\n"
	        "  - {name: small, kind: inference, replicas: 3, gpuMemory: 2GiB, compute: 5%}\n"
	        "  - {name: wide, kind: inference, gpuMemory: 12GiB, compute: 5%}\n");
	tu_planned t;
	gs_group gr;
	gs_rule_figs f = { 0, 0, 0, -1, NULL };
	const gs_gpu *g;
	gs_rule v;
	(void)state;
	tu_planned_open(&t, s);
	g = t.pl.models[tu_model_named(&t.pl, "L4")];
	assert_int_equal(t.pl.nreps, 5);
	assert_string_equal(t.pl.reps[0].w->name, "heavy");
	assert_string_equal(t.pl.reps[4].w->name, "wide");
	assert_true(t.pl.reps[0].no_ts);
	memset(&gr, 0, sizeof gr);
	gr.tenant = t.pl.reps[0].tenant;
	assert_int_equal(gs_group_join(&t.pl, g, &gr, 0), 0);
	/* wide alone beside heavy: its 12 GiB is over half the L4, its own
	 * refusal. */
	v = gs_join_rule(&t.pl, g, &gr, 4, &f);
	assert_int_equal(v, GS_RULE_MPS_MEMORY);
	assert_int_equal(f.rep, 4);
	assert_false(gs_rule_refuses_mps(&t.pl, v, &f, 4));
	assert_int_equal(gs_join_rule(&t.pl, g, &gr, 1, NULL), GS_RULE_OK);
	/* A third client: heavy's, and every replica's alike. */
	assert_int_equal(gs_group_join(&t.pl, g, &gr, 1), 0);
	v = gs_join_rule(&t.pl, g, &gr, 2, &f);
	assert_int_equal(v, GS_RULE_MPS_THREADS);
	assert_int_equal(f.rep, 0);
	assert_true(gs_rule_refuses_mps(&t.pl, v, &f, 2));
	for (int r = 2; r < t.pl.nreps; r++)
		assert_int_not_equal(gs_join_rule(&t.pl, g, &gr, r, NULL), GS_RULE_OK);
	/* Not where a fraction may seat them instead. */
	t.pl.frac_mps = GS_BACKEND_HAMI;
	assert_false(gs_rule_refuses_mps(&t.pl, v, &f, 2));
	free(gr.reps);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empties_into_room),
		cmocka_unit_test(test_tenants_apart),
		cmocka_unit_test(test_rules_hold),
		cmocka_unit_test(test_candidates_kept),
		cmocka_unit_test(test_all_or_none),
		cmocka_unit_test(test_robust_moves_whole),
		cmocka_unit_test(test_robust_all_or_none),
		cmocka_unit_test(test_fleet_pinned),
		cmocka_unit_test(test_fleet_robust),
		cmocka_unit_test(test_mps_refusal_by_member),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
