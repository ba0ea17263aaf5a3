/*
 * test_coin.c - COIN-OR's solves from two threads at once (coin.h): the
 * plan's second thread repairs MIG GPUs with CBC (mig_repack.c) while
 * the first solves its own programs. Unlocked, CBC failed such solves
 * now and then; every solve here must find the proven optimum, and a
 * solve in a child process (gs_milp_set_apart) the same answer.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "plan/milp.h"

#define ROUNDS 20

/* A small cutting-stock program: pieces of 3, 5 and 7 (9, 7 and 5 of
 * them) cut from rolls of 10 by every pattern, fewest rolls. The pieces
 * come to 97, so 10 rolls at least; CBC proves 10. */
static const int demand[3] = { 9, 7, 5 };

/* The program, or NULL when a step failed. */
static gs_milp *program(void)
{
	gs_milp *m = gs_milp_new();
	int cols[64], n = 0, rc = m ? 0 : -1;
	double vals[3][64];
	for (int a = 0; a <= 3 && rc == 0; a++)
		for (int b = 0; b <= 2 && rc == 0; b++)
			for (int c = 0; c <= 1 && rc == 0; c++) {
				if ((a | b | c) == 0 || 3 * a + 5 * b + 7 * c > 10)
					continue;
				cols[n] = gs_milp_col(m, 1, -1, 1);
				rc = cols[n] < 0 ? -1 : 0;
				vals[0][n] = a;
				vals[1][n] = b;
				vals[2][n++] = c;
			}
	for (int i = 0; i < 3 && rc == 0; i++)
		rc = gs_milp_row(m, cols, vals[i], n, demand[i], 1e30);
	if (rc < 0) {
		gs_milp_free(m);
		return NULL;
	}
	return m;
}

/* The program's optimum, or -1 when a step failed. Asserts stay on the
 * test's own thread. */
static double solve_once(int apart)
{
	gs_milp *m = program();
	gs_milp_result res;
	double obj = -1;
	if (m)
		gs_milp_set_apart(m, apart);
	if (m && gs_milp_solve(m, 1000, 1, 60, &res) == 0 && res.status == GS_MILP_OPTIMAL)
		obj = res.obj;
	gs_milp_free(m);
	return obj;
}

static void *worker(void *arg)
{
	int *bad = arg;
	for (int i = 0; i < ROUNDS; i++)
		*bad += solve_once(i % 2) != 10;
	return NULL;
}

/* Solved here and apart: the same optimum, bound and solution. */
static void test_apart_same_answer(void **state)
{
	gs_milp *a = program(), *b = program();
	gs_milp_result ra, rb;
	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	gs_milp_set_apart(b, 1);
	assert_int_equal(gs_milp_solve(a, 1000, 1, 60, &ra), 0);
	assert_int_equal(gs_milp_solve(b, 1000, 1, 60, &rb), 0);
	assert_int_equal(ra.status, GS_MILP_OPTIMAL);
	assert_int_equal(rb.status, GS_MILP_OPTIMAL);
	assert_true(ra.obj == 10 && rb.obj == 10 && ra.bound == rb.bound);
	assert_non_null(rb.x);
	assert_memory_equal(ra.x, rb.x, (size_t)gs_milp_cols(a) * sizeof *ra.x);
	gs_milp_free(a);
	gs_milp_free(b);
}

static void test_two_threads(void **state)
{
	pthread_t t;
	int bad[2] = { 0, 0 };
	(void)state;
	assert_int_equal(pthread_create(&t, NULL, worker, &bad[0]), 0);
	worker(&bad[1]);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(bad[0], 0);
	assert_int_equal(bad[1], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_apart_same_answer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
