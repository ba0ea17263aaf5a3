/*
 * tu_planner.h - a planner and its first choice of models, for the tests
 * that look inside the planner (test_cg.c, test_robust.c, test_search.c).
 */
#ifndef TU_PLANNER_H
#define TU_PLANNER_H

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

#endif
