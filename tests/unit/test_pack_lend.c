/*
 * test_pack_lend.c - a packing that lends its groups' replicas (pack.h:
 * gs_pack.lends): releasing it leaves them to their owner, and
 * gs_pack_own copies them so that the packing outlives the groups it
 * borrowed from. Under the sanitizers (make check-run) a group freed
 * twice, or read after its owner freed it, fails the suite.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"

TU_CATALOG_GROUP(cat)

/* n groups of 1 to 3 replicas, numbered from 0, on the heap. */
static gs_group *groups(int n)
{
	gs_group *v = calloc((size_t)n, sizeof *v);
	int next = 0;
	assert_non_null(v);
	for (int i = 0; i < n; i++) {
		v[i].tenant = i % 2;
		v[i].n = v[i].cap = 1 + i % 3;
		v[i].reps = malloc((size_t)v[i].n * sizeof *v[i].reps);
		assert_non_null(v[i].reps);
		for (int k = 0; k < v[i].n; k++)
			v[i].reps[k] = next++;
	}
	return v;
}

/* A whole GPU per group, of the catalog's first model. */
static void pack_of(gs_pack *pk, const gs_group *v, int n, int lend)
{
	const gs_gpu *g = gs_catalog_gpu_at(cat, 0);
	memset(pk, 0, sizeof *pk);
	pk->lends = lend;
	for (int i = 0; i < n; i++) {
		gs_pgpu *pg = gs_pack_add_gpu(pk, g, GS_STRATEGY_TIME_SLICING);
		assert_non_null(pg);
		assert_int_equal(gs_pack_add_group(pk, pg, &v[i]), 0);
	}
}

static void test_lent_then_released(void **state)
{
	gs_group *v = groups(40);
	gs_pack pk;
	(void)state;
	pack_of(&pk, v, 40, 1);
	/* The same replicas, not copies of them. */
	for (int i = 0; i < 40; i++) {
		assert_ptr_equal(pk.gpus[i].g[0].reps, v[i].reps);
		assert_int_equal(pk.gpus[i].g[0].cap, -1);
	}
	gs_pack_release(&pk);
	/* Still the owner's to read and free. */
	assert_int_equal(v[39].reps[0], 39 / 3 * 6 + 0);
	gs_groups_free(v, 40);
}

static void test_owned_outlives_the_groups(void **state)
{
	gs_group *v = groups(40);
	gs_pack pk;
	int want[40][3];
	(void)state;
	for (int i = 0; i < 40; i++)
		memcpy(want[i], v[i].reps, (size_t)v[i].n * sizeof *v[i].reps);
	pack_of(&pk, v, 40, 1);
	assert_int_equal(gs_pack_own(&pk), 0);
	assert_int_equal(pk.lends, 0);
	gs_groups_free(v, 40);
	for (int i = 0; i < 40; i++) {
		const gs_group *gr = &pk.gpus[i].g[0];
		assert_int_equal(gr->cap, gr->n);
		assert_memory_equal(gr->reps, want[i], (size_t)gr->n * sizeof *gr->reps);
	}
	/* Groups added after it owns are copies too. */
	v = groups(3);
	assert_int_equal(gs_pack_add_group(&pk, &pk.gpus[0], &v[2]), 0);
	assert_ptr_not_equal(pk.gpus[0].g[1].reps, v[2].reps);
	gs_groups_free(v, 3);
	assert_int_equal(pk.gpus[0].g[1].reps[2], 5);
	gs_pack_release(&pk);
}

/* A packing that never lent owns every group, as before lending. */
static void test_not_lending(void **state)
{
	gs_group *v = groups(5);
	gs_pack pk;
	(void)state;
	pack_of(&pk, v, 5, 0);
	for (int i = 0; i < 5; i++)
		assert_ptr_not_equal(pk.gpus[i].g[0].reps, v[i].reps);
	gs_groups_free(v, 5);
	assert_int_equal(pk.gpus[4].g[0].reps[1], 8);
	gs_pack_release(&pk);
}

/* A reset packing builds the next trial in its arrays: the GPUs' group
 * arrays come back, those past the new build's GPUs stay until own,
 * trim or release frees them (LeakSanitizer fails a leak). */
static void test_reset_keeps_arrays(void **state)
{
	gs_group *v = groups(12);
	const gs_gpu *g = gs_catalog_gpu_at(cat, 0);
	gs_group *arrays[12];
	gs_pack pk;
	(void)state;
	pack_of(&pk, v, 12, 1);
	for (int i = 0; i < 12; i++)
		arrays[i] = pk.gpus[i].g;
	gs_pack_reset(&pk);
	assert_int_equal(pk.n, 0);
	assert_int_equal(pk.live, 12);
	for (int i = 0; i < 5; i++) {
		gs_pgpu *pg = gs_pack_add_gpu(&pk, g, GS_STRATEGY_TIME_SLICING);
		assert_non_null(pg);
		assert_ptr_equal(pg->g, arrays[i]);
		assert_int_equal(pg->ng, 0);
		assert_int_equal(gs_pack_add_group(&pk, pg, &v[11 - i]), 0);
		assert_ptr_equal(pg->g[0].reps, v[11 - i].reps);
	}
	/* Owned, it keeps its five GPUs and lets the other seven go. */
	assert_int_equal(gs_pack_own(&pk), 0);
	assert_int_equal(pk.live, 0);
	gs_groups_free(v, 12);
	assert_int_equal(pk.gpus[4].g[0].n, 1 + 7 % 3);
	assert_int_equal(pk.gpus[4].g[0].reps[1], 14);
	gs_pack_release(&pk);
	/* Reset twice, then released with arrays kept past none. */
	v = groups(6);
	pack_of(&pk, v, 6, 1);
	gs_pack_reset(&pk);
	gs_pack_reset(&pk);
	assert_int_equal(pk.live, 6);
	gs_pack_release(&pk);
	gs_groups_free(v, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_keeps_arrays),
		cmocka_unit_test(test_lent_then_released),
		cmocka_unit_test(test_owned_outlives_the_groups),
		cmocka_unit_test(test_not_lending),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
