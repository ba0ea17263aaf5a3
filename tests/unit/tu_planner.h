/*
 * tu_planner.h - a planner and its first choice of models, for the tests
 * that look inside the planner (test_bound.c, test_cg.c, test_robust.c, test_search.c,
 * test_first_fit.c, test_nodes.c); and what those tests build their
 * cases from: seeded draws and MIG profiles by name.
 */
#ifndef TU_PLANNER_H
#define TU_PLANNER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "plan/planner.h"

/* The planner points at its shops: a tu_planned stays where it was
 * opened until it is closed. */
typedef struct tu_planned {
	gs_shop shops[GS_MAX_MODELS];
	gs_planner pl;
	gs_choice c;
} tu_planned;

static inline void tu_planned_open(tu_planned *t, const gs_scenario *s)
{
	memset(t, 0, sizeof *t);
	assert_int_equal(gs_planner_init(&t->pl, s, NULL, t->shops), 0);
	assert_int_equal(gs_choice_init(&t->pl, &t->c), 0);
}

static inline void tu_planned_close(tu_planned *t)
{
	gs_choice_release(&t->pl, &t->c);
	gs_planner_release(&t->pl);
}

/* xorshift64*: the same draws on every run and every machine. */
static inline uint64_t tu_next(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * UINT64_C(2685821657736338717);
}

/* A draw in 0 .. n-1. */
static inline int tu_below(uint64_t *x, int n) { return (int)(tu_next(x) % (uint64_t)n); }

/* The volume bound (bound.c) of s's first choice. */
static inline gs_micros tu_volume_of(const gs_scenario *s)
{
	tu_planned t;
	gs_micros v;
	tu_planned_open(&t, s);
	v = gs_volume_bound(&t.pl, &t.c);
	tu_planned_close(&t);
	return v;
}

/* The planner's index of the model of that name; fails the test when it
 * plans none. */
static inline int tu_model_named(const gs_planner *pl, const char *name)
{
	for (int m = 0; m < pl->nmodels; m++)
		if (strcmp(pl->models[m]->name, name) == 0)
			return m;
	fail_msg("no model %s", name);
	return -1;
}

/* Model g's MIG profile of that name; fails the test when it has none. */
static inline const gs_mig_profile *tu_profile(const gs_gpu *g, const char *name)
{
	for (size_t i = 0; i < g->n_mig_profiles; i++)
		if (strcmp(g->mig_profiles[i].name, name) == 0)
			return &g->mig_profiles[i];
	fail_msg("%s has no MIG profile %s", g->name, name);
	return NULL;
}

/* Every replica of pl in exactly one group of b's GPUs. */
static inline void tu_expect_placed_once(const gs_planner *pl, const gs_built *b)
{
	char *seen = calloc((size_t)pl->nreps + 1, 1);
	assert_non_null(seen);
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++)
			for (int j = 0; j < b->packs[m].gpus[i].ng; j++) {
				const gs_group *gr = &b->packs[m].gpus[i].g[j];
				for (int k = 0; k < gr->n; k++)
					assert_int_equal(seen[gr->reps[k]]++, 0);
			}
	for (int r = 0; r < pl->nreps; r++)
		assert_int_equal(seen[r], 1);
	free(seen);
}

/* Group gr of a GPU of model g is one the packer's rule builds again
 * replica by replica (the rules only tighten as a group grows, so a group
 * that holds was joinable in any order). */
static inline void tu_expect_joinable(const gs_planner *pl, const gs_gpu *g, const gs_group *gr)
{
	gs_group again = { 0 };
	again.tenant = gr->tenant;
	for (int k = 0; k < gr->n; k++) {
		if (k > 0)
			assert_true(gs_can_join(pl, g, &again, gr->reps[k]));
		assert_int_equal(gs_group_join(pl, g, &again, gr->reps[k]), 0);
	}
	free(again.reps);
}

#endif
