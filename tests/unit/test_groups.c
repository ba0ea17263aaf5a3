/*
 * test_groups.c - the groups the model search takes one at a time
 * (search_groups.c): each tenant, and a large tenant of many workloads
 * in blocks of consecutive workloads.
 */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/search_groups.h"

TU_CATALOG_GROUP(cat)

/* A workload file: `small` workloads of 5 replicas in tenant a, then `n`
 * of `reps` replicas in tenant b. */
static gs_scenario *fleet(int small, int n, int reps)
{
	size_t size = 128 + 96 * (size_t)(small + n), len;
	char *text = malloc(size);
	gs_scenario *s;
	assert_non_null(text);
	len = (size_t)snprintf(text, size, "version: 1\ninstances: [g6.xlarge]\nworkloads:\n");
	for (int i = 0; i < small + n; i++)
		len += (size_t)snprintf(text + len, size - len,
		                        "  - {name: w%d, replicas: %d, gpuMemory: 1GiB, "
		                        "compute: 5%%, tenant: %s}\n",
		                        i, i < small ? 5 : reps, i < small ? "a" : "b");
	s = tu_scenario(cat, "t.yaml", text);
	free(text);
	return s;
}

/* The groups of such a fleet: how many, and each workload's group id. */
static void expect_groups(int small, int n, int reps, int count, const int *first, int nfirst)
{
	gs_scenario *s = fleet(small, n, reps);
	tu_planned t;
	gs_groups g;
	tu_planned_open(&t, s);
	assert_int_equal(gs_groups_init(&t.pl, &g), 0);
	assert_int_equal(g.n, count);
	/* Workload w's group is the last group start at or before it. */
	for (int w = 0, k = 0; w < small + n; w++) {
		while (k + 1 < nfirst && first[k + 1] <= w)
			k++;
		assert_int_equal(g.of[w], first[k]);
		assert_int_equal(g.wls[g.at[first[k]] + (w - first[k])], w);
	}
	gs_groups_release(&g);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

/* 50 workloads of 13 replicas in one tenant (650 replicas, over 4 x 150):
 * a block takes 20 workloads (260 replicas), and the last one the 30
 * left, since 10 would be fewer than 20. */
static void test_large_tenant_in_blocks(void **state)
{
	static const int first[] = { 0, 20 };
	(void)state;
	expect_groups(0, 50, 13, 2, first, 2);
}

/* Beside a small tenant (5 workloads, ids from 0), which stays whole. */
static void test_small_tenant_whole(void **state)
{
	static const int first[] = { 0, 5, 25 };
	(void)state;
	expect_groups(5, 50, 13, 3, first, 3);
}

/* Not split: 600 replicas (not over 4 x 150), or 39 workloads (fewer than
 * two blocks of 20). */
static void test_not_split(void **state)
{
	static const int first[] = { 0 };
	(void)state;
	expect_groups(0, 40, 15, 1, first, 1);
	expect_groups(0, 39, 20, 1, first, 1);
}

/* 200 workloads of 4 replicas (800): blocks of 38 workloads (152
 * replicas: the first count past 150 replicas and 20 workloads), four of
 * them, and a fifth of the 48 left, since 10 after a fifth 38 would be
 * too few. */
static void test_blocks_by_replicas(void **state)
{
	static const int first[] = { 0, 38, 76, 114, 152 };
	(void)state;
	expect_groups(0, 200, 4, 5, first, 5);
}

/* What a group's search found is recalled under the same key only: the
 * same share, budget, models and marks. Group 5 (tenant b's first block)
 * of 5 + 50 workloads. */
static void test_search_recalled(void **state)
{
	gs_scenario *s = fleet(5, 50, 13);
	tu_planned t;
	gs_groups g;
	int64_t *key, *other;
	int nkey, nother, first, w;
	long left = -1;
	(void)state;
	tu_planned_open(&t, s);
	assert_int_equal(gs_groups_init(&t.pl, &g), 0);
	assert_non_null(key = gs_group_key(&t.pl, &t.c, &g, 5, 1000, 40, &nkey));
	/* Head, then per workload: its index, model, candidates and marks. */
	assert_int_equal(nkey, 6 + 20 * (3 + t.c.ncand[5] + 13));
	assert_int_equal(gs_group_recall(&t.pl, key, nkey, &t.c, &g, 5, &left), 0);
	first = t.c.model[5];
	gs_group_keep(&t.pl, key, nkey, &t.c, &g, 5, 123);
	t.c.model[5] = -1;
	assert_int_equal(gs_group_recall(&t.pl, key, nkey, &t.c, &g, 5, &left), 1);
	assert_int_equal(left, 123);
	assert_int_equal(t.c.model[5], first);
	/* Another share, or a replica marked off MIG, is another search. */
	assert_non_null(other = gs_group_key(&t.pl, &t.c, &g, 5, 999, 40, &nother));
	assert_int_equal(gs_group_recall(&t.pl, other, nother, &t.c, &g, 5, &left), 0);
	free(other);
	w = g.wls[g.at[5] + 19];
	t.pl.reps[t.pl.rep_at[w]].no_mig = 1;
	assert_non_null(other = gs_group_key(&t.pl, &t.c, &g, 5, 1000, 40, &nother));
	assert_int_equal(nother, nkey);
	assert_int_equal(gs_group_recall(&t.pl, other, nother, &t.c, &g, 5, &left), 0);
	free(other);
	free(key);
	gs_groups_release(&g);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_large_tenant_in_blocks),
		cmocka_unit_test(test_small_tenant_whole),
		cmocka_unit_test(test_not_split),
		cmocka_unit_test(test_blocks_by_replicas),
		cmocka_unit_test(test_search_recalled),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
