/*
 * test_memo.c - the planner's memo (plan/memo.h): a value comes back only
 * under its whole key, with its count, through growth of the table; a
 * memo hands its entries over to another whole; a memo kept from plan to
 * plan keeps what was used; the planner's memo is large enough for the
 * packings the model search keeps for the build.
 */
#include <stdint.h>

#include "testutil.h"
#include "plan/memo.h"
#include "plan/planner.h"

static void test_put_get(void **state)
{
	gs_memo *m = gs_memo_new((size_t)1 << 20);
	int64_t key[3] = { 7, -1, 42 }, val[2] = { 5, 9 };
	const int64_t *got;
	int n = 0;
	long extra = 0;
	(void)state;
	assert_non_null(m);
	assert_null(gs_memo_get(m, key, 3, &n, &extra));
	gs_memo_put(m, key, 3, val, 2, 11);
	got = gs_memo_get(m, key, 3, &n, &extra);
	assert_non_null(got);
	assert_int_equal(n, 2);
	assert_int_equal(got[0], 5);
	assert_int_equal(got[1], 9);
	assert_int_equal(extra, 11);
	/* A prefix of the key, or one word changed, is another key. */
	assert_null(gs_memo_get(m, key, 2, &n, &extra));
	key[2] = 43;
	assert_null(gs_memo_get(m, key, 3, &n, &extra));
	gs_memo_free(m);
}

/* Thousands of keys: the table grows and keeps every one. */
static void test_grows(void **state)
{
	gs_memo *m = gs_memo_new((size_t)1 << 20);
	(void)state;
	for (int64_t i = 0; i < 5000; i++) {
		int64_t key[2] = { i, i * 3 }, val = i * 7;
		gs_memo_put(m, key, 2, &val, 1, (long)i);
	}
	for (int64_t i = 0; i < 5000; i++) {
		int64_t key[2] = { i, i * 3 };
		int n = 0;
		long extra = -1;
		const int64_t *got = gs_memo_get(m, key, 2, &n, &extra);
		assert_non_null(got);
		assert_int_equal(n, 1);
		assert_int_equal(got[0], i * 7);
		assert_int_equal(extra, i);
	}
	gs_memo_free(m);
}

/* Over its limit the memo forgets every key at once and starts again:
 * 1,000 entries of 2 key and 62 value words (about 540 KiB with the
 * table) in a memo of 256 KiB. */
static void test_forgets_over_its_limit(void **state)
{
	gs_memo *m = gs_memo_new((size_t)256 << 10);
	int64_t val[62] = { 0 };
	int found = 0, n = 0;
	long extra = 0;
	(void)state;
	for (int64_t i = 0; i < 1000; i++) {
		int64_t key[2] = { i, -i };
		val[0] = i;
		gs_memo_put(m, key, 2, val, 62, 0);
	}
	for (int64_t i = 0; i < 1000; i++) {
		int64_t key[2] = { i, -i };
		const int64_t *got = gs_memo_get(m, key, 2, &n, &extra);
		if (got) {
			assert_int_equal(got[0], i);
			found++;
		}
	}
	/* The last entry is always there; the first went with the others. */
	{
		int64_t first[2] = { 0, 0 }, last[2] = { 999, -999 };
		assert_null(gs_memo_get(m, first, 2, &n, &extra));
		assert_non_null(gs_memo_get(m, last, 2, &n, &extra));
	}
	assert_true(found > 0 && found < 1000);
	gs_memo_free(m);
}

/* Without a memo (out of memory) nothing is found and nothing breaks. */
static void test_no_memo(void **state)
{
	int64_t key = 1, val = 2;
	int n = 0;
	long extra = 0;
	(void)state;
	gs_memo_put(NULL, &key, 1, &val, 1, 0);
	assert_null(gs_memo_get(NULL, &key, 1, &n, &extra));
	gs_memo_free(NULL);
}

/* The value of key {k} in m: its first word, or -1 when missing. */
static int64_t value_of(gs_memo *m, int64_t k, long *extra)
{
	int n = 0;
	const int64_t *got = gs_memo_get(m, &k, 1, &n, extra);
	return got ? got[0] : -1;
}

/* The copy's entries join its parent's when its work is taken; where
 * both hold a key, the parent's stays (both computed the same). */
static void test_absorb(void **state)
{
	gs_memo *m = gs_memo_new((size_t)1 << 20), *from = gs_memo_new((size_t)1 << 20);
	long extra = 0;
	(void)state;
	for (int64_t k = 0; k < 3000; k++) {
		int64_t v = k * 2;
		gs_memo_put(k < 1500 ? m : from, &k, 1, &v, 1, (long)k);
	}
	{
		int64_t k = 7, v = -7;
		gs_memo_put(from, &k, 1, &v, 1, 0);
	}
	gs_memo_absorb(m, from);
	for (int64_t k = 0; k < 3000; k++) {
		assert_int_equal(value_of(m, k, &extra), k * 2);
		assert_int_equal(extra, (long)k);
	}
	/* Into no memo (out of memory), the entries are freed. */
	from = gs_memo_new((size_t)1 << 20);
	{
		int64_t k = 1, v = 1;
		gs_memo_put(from, &k, 1, &v, 1, 0);
	}
	gs_memo_absorb(NULL, from);
	gs_memo_absorb(m, NULL);
	gs_memo_free(m);
}

/* Absorbing beyond the limit starts the memo again, as a put does: some
 * of what it took is there, not all. */
static void test_absorb_over_its_limit(void **state)
{
	gs_memo *m = gs_memo_new((size_t)64 << 10), *from = gs_memo_new((size_t)1 << 20);
	int64_t val[30] = { 0 };
	long extra = 0;
	int found = 0;
	(void)state;
	for (int64_t k = 0; k < 400; k++) {
		val[0] = k;
		gs_memo_put(from, &k, 1, val, 30, 0);
	}
	gs_memo_absorb(m, from);
	for (int64_t k = 0; k < 400; k++)
		found += value_of(m, k, &extra) == k;
	assert_true(found > 0 && found < 400);
	gs_memo_free(m);
}

/* Generations: after an age, what the memo held is found still, and
 * kept into the next generation when it is; what the generation before
 * held and nobody asked for is gone after the next age. Hits count. */
static void test_ages(void **state)
{
	gs_memo *m = gs_memo_new((size_t)1 << 20);
	int64_t a = 1, b = 2, c = 3, v = 10;
	int n = 0;
	long extra = 0, hits;
	(void)state;
	gs_memo_put(m, &a, 1, &v, 1, 0);
	gs_memo_put(m, &b, 1, &v, 1, 0);
	assert_int_equal(gs_memo_age(m), 0);
	gs_memo_put(m, &c, 1, &v, 1, 0);
	hits = gs_memo_hits(m);
	assert_non_null(gs_memo_get(m, &a, 1, &n, &extra)); /* from the old one */
	assert_int_equal(gs_memo_hits(m), hits + 1);
	assert_int_equal(gs_memo_age(m), 0);
	/* a was used, c was put: both live on; b was not asked for. */
	assert_non_null(gs_memo_get(m, &a, 1, &n, &extra));
	assert_non_null(gs_memo_get(m, &c, 1, &n, &extra));
	assert_null(gs_memo_get(m, &b, 1, &n, &extra));
	assert_int_equal(gs_memo_hits(m), hits + 3);
	gs_memo_free(m);
}

/* 16 MiB and 512 bytes a replica, up to 64 MiB or 256 bytes a replica:
 * fleet.py's mixed 10^6 kept 10.9 million words of packings (87 MB) for
 * the build, which 64 MiB forgot before it read them. */
static void test_planner_memo_bytes(void **state)
{
	(void)state;
	assert_int_equal(gs_planner_memo_bytes(0), (size_t)16 << 20);
	assert_int_equal(gs_planner_memo_bytes(1000), ((size_t)16 << 20) + 512000);
	assert_int_equal(gs_planner_memo_bytes(100000), (size_t)64 << 20);
	assert_int_equal(gs_planner_memo_bytes(262144), (size_t)64 << 20);
	assert_int_equal(gs_planner_memo_bytes(300000), (size_t)76800000);
	assert_int_equal(gs_planner_memo_bytes(1000000), (size_t)256000000);
	assert_true(gs_planner_memo_bytes(1000000) > (size_t)109000000 * 8 / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_grows),
		cmocka_unit_test(test_forgets_over_its_limit),
		cmocka_unit_test(test_no_memo),
		cmocka_unit_test(test_absorb),
		cmocka_unit_test(test_absorb_over_its_limit),
		cmocka_unit_test(test_ages),
		cmocka_unit_test(test_planner_memo_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
