/*
 * test_pack_keep.c - a packing as words and back (plan/pack.h): every
 * field of every GPU and group comes back, in new memory, and a GPU read
 * back takes more groups as one packed did.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "plan/pack.h"

static const gs_gpu model_a, model_b;
static const gs_mig_profile prof;

static void add_group(gs_pgpu *pg, int tenant, const int *reps, int n)
{
	gs_group gr;
	memset(&gr, 0, sizeof gr);
	gr.tenant = tenant;
	gr.mem = 7LL << 30;
	gr.comp = 250000 + n;
	gr.reps = (int *)reps;
	gr.n = gr.cap = n;
	gr.no_ts = n == 1;
	gr.prof = n == 1 ? &prof : NULL;
	gr.start = 4;
	gr.strict = 1;
	gr.headroom = 100000;
	assert_int_equal(gs_pgpu_add_group(pg, &gr), 0);
}

static void test_round_trip(void **state)
{
	static const int r1[] = { 3, 9, 12 }, r2[] = { 5 };
	gs_pack pk, back;
	gs_words w = { NULL, 0, 0 };
	gs_pgpu *pg;
	(void)state;
	memset(&pk, 0, sizeof pk);
	pg = gs_pack_add_gpu(&pk, &model_a, GS_STRATEGY_TIME_SLICING);
	add_group(pg, 2, r1, 3);
	pg->k = 3;
	pg = gs_pack_add_gpu(&pk, &model_b, GS_STRATEGY_MIG);
	add_group(pg, 0, r2, 1);
	add_group(pg, 1, r1, 2);
	pg->mig_ts = 1;
	pg->span = 2;
	assert_int_equal(gs_pack_save(&pk, &w), 0);
	/* 1 + (6 + 9 + 3) + (6 + 9 + 1 + 9 + 2) words. */
	assert_int_equal(w.n, 46);
	assert_int_equal(gs_pack_load(w.v, &back), 0);
	assert_int_equal(back.n, 2);
	for (int i = 0; i < 2; i++) {
		const gs_pgpu *x = &pk.gpus[i], *y = &back.gpus[i];
		assert_ptr_equal(y->model, x->model);
		assert_int_equal(y->strategy, x->strategy);
		assert_int_equal(y->k, x->k);
		assert_int_equal(y->mig_ts, x->mig_ts);
		assert_int_equal(y->span, x->span);
		assert_int_equal(y->ng, x->ng);
		for (int j = 0; j < x->ng; j++) {
			const gs_group *a = &x->g[j], *b = &y->g[j];
			assert_int_equal(b->tenant, a->tenant);
			assert_int_equal(b->mem, a->mem);
			assert_int_equal(b->comp, a->comp);
			assert_int_equal(b->n, a->n);
			assert_int_equal(b->no_ts, a->no_ts);
			assert_ptr_equal(b->prof, a->prof);
			assert_int_equal(b->start, a->start);
			assert_int_equal(b->strict, a->strict);
			assert_int_equal(b->headroom, a->headroom);
			assert_ptr_not_equal(b->reps, a->reps);
			assert_memory_equal(b->reps, a->reps, (size_t)a->n * sizeof *a->reps);
		}
	}
	/* Read back, a GPU grows as a packed one does. */
	add_group(&back.gpus[1], 1, r2, 1);
	assert_int_equal(back.gpus[1].ng, 3);
	assert_int_equal(back.gpus[1].g[2].reps[0], 5);
	gs_pack_release(&pk);
	gs_pack_release(&back);
	free(w.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
