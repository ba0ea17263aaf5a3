/*
 * test_plan_mem.c - the memory a plan's records are cut from (plan_mem.c):
 * every cut zeroed, aligned as malloc's, apart from every other; a large
 * record in a block of its own; a count whose bytes overflow refused; and
 * all of it freed with the plan (the valgrind pass checks that).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "plan/plan_internal.h"

static int zeroed(const unsigned char *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i])
			return 0;
	return 1;
}

/* 3,000 records of 1 to 100 bytes: more than one block's worth. Each is
 * filled with its own byte after it is checked, so a cut that overlapped
 * an earlier one would find it not zeroed, or spoil it. */
static void test_cuts(void **state)
{
	enum { N = 3000 };
	gs_plan *p = calloc(1, sizeof *p);
	unsigned char *rec[N];
	size_t len[N];
	(void)state;
	assert_non_null(p);
	for (int i = 0; i < N; i++) {
		len[i] = (size_t)(i * 37 % 100) + 1;
		rec[i] = gs_plan_alloc(p, len[i], 1);
		assert_non_null(rec[i]);
		assert_int_equal((uintptr_t)rec[i] % _Alignof(max_align_t), 0);
		assert_true(zeroed(rec[i], len[i]));
		memset(rec[i], i % 255 + 1, len[i]);
	}
	for (int i = 0; i < N; i++)
		for (size_t k = 0; k < len[i]; k++)
			assert_int_equal(rec[i][k], i % 255 + 1);
	/* 3,000 cuts of at most 112 bytes (aligned) fill a few blocks. */
	assert_in_range(p->n_blocks, 2, 6);
	gs_plan_free(p);
}

static void test_large_and_odd(void **state)
{
	gs_plan *p = calloc(1, sizeof *p);
	unsigned char *small, *big, *after;
	size_t blocks;
	(void)state;
	assert_non_null(p);
	small = gs_plan_alloc(p, 1, 8);
	blocks = p->n_blocks;
	/* A record above an eighth of a block gets one of its own, and the
	 * block the small ones are cut from goes on. */
	big = gs_plan_alloc(p, 100000, 1);
	assert_non_null(big);
	assert_true(zeroed(big, 100000));
	assert_int_equal(p->n_blocks, blocks + 1);
	after = gs_plan_alloc(p, 1, 8);
	assert_ptr_equal(after, small + _Alignof(max_align_t));
	/* No records, or records of no size, are still a place to point. */
	assert_non_null(gs_plan_alloc(p, 0, 8));
	assert_non_null(gs_plan_alloc(p, 4, 0));
	/* A count whose bytes do not fit in size_t. */
	assert_null(gs_plan_alloc(p, SIZE_MAX / 8 + 1, 8));
	assert_string_equal(gs_plan_strdup(p, "pool-a10g"), "pool-a10g");
	gs_plan_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuts),
		cmocka_unit_test(test_large_and_odd),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
