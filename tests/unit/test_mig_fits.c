/*
 * test_mig_fits.c - gs_fits_ask answers as gs_mig_fit does, the starts
 * too, whether it remembers the list or not: on every MIG model of the
 * catalog, for random lists of its profiles asked twice, for lists too
 * long to key, for lists of two models that would share a key, and
 * without a memo.
 */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/mig_fits.h"

TU_CATALOG_GROUP(cat)

/* Asks f and gs_mig_fit alike of items[0..n); returns 1 when they fit. */
static int same_answer(gs_fits *f, const gs_gpu *g, const gs_mig_profile **items, size_t n)
{
	int want[40], got[40];
	int a = gs_mig_fit(g, items, n, want, NULL);
	int b = gs_fits_ask(f, g, items, n, got);
	assert_int_equal(a, b);
	for (size_t k = 0; a == 0 && k < n; k++)
		assert_int_equal(want[k], got[k]);
	/* No room for the starts asked: the answer alone. */
	assert_int_equal(gs_fits_ask(f, g, items, n, NULL), a);
	return a == 0;
}

/* 3,000 lists of 1 to 10 profiles on each MIG model, each asked of a
 * memo shared by all models, then all asked again (now remembered). */
static void test_same_as_mig_fit(void **state)
{
	gs_fits *f = gs_fits_new();
	uint64_t x = 0x2545f4914f6cdd1du;
	int models = 0, fit = 0, refused = 0;
	(void)state;
	assert_non_null(f);
	for (size_t i = 0; i < gs_catalog_gpu_count(cat); i++) {
		const gs_gpu *g = gs_catalog_gpu_at(cat, i);
		const gs_mig_profile *lists[3000][10];
		size_t len[3000];
		if (!g->mig_slots || !g->n_mig_profiles)
			continue;
		models++;
		int np = (int)g->n_mig_profiles;
		for (int l = 0; l < 3000; l++) {
			len[l] = 1 + tu_below(&x, 10);
			for (size_t k = 0; k < len[l]; k++)
				lists[l][k] = &g->mig_profiles[tu_below(&x, np)];
		}
		for (int round = 0; round < 2; round++)
			for (int l = 0; l < 3000; l++) {
				int ok = same_answer(f, g, lists[l], len[l]);
				fit += ok;
				refused += !ok;
			}
		/* And without a memo. */
		for (int l = 0; l < 100; l++)
			same_answer(NULL, g, lists[l], len[l]);
	}
	gs_fits_free(f);
	/* The catalog's MIG models, and lists that fit and lists that do not
	 * on each of them. */
	assert_true(models >= 4);
	assert_true(fit > 1000 * models);
	assert_true(refused > 1000 * models);
}

/* More lists than the memo holds: those past three quarters of it are
 * asked each time, and still answered alike. */
static void test_full(void **state)
{
	gs_fits *f = gs_fits_new();
	uint64_t x = 0x9e3779b97f4a7c15u;
	(void)state;
	assert_non_null(f);
	for (size_t i = 0; i < gs_catalog_gpu_count(cat); i++) {
		const gs_gpu *g = gs_catalog_gpu_at(cat, i);
		const gs_mig_profile *items[8];
		if (!g->mig_slots || g->n_mig_profiles < 4)
			continue;
		for (int l = 0; l < 20000; l++) {
			size_t n = 1 + tu_below(&x, 8);
			for (size_t k = 0; k < n; k++)
				items[k] = &g->mig_profiles[tu_below(&x, (int)g->n_mig_profiles)];
			same_answer(f, g, items, n);
		}
	}
	gs_fits_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_mig_fit),
		cmocka_unit_test(test_full),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
