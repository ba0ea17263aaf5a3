/*
 * test_plan_cache.c - gs_plan_cache: a plan made with what earlier plans
 * of edited scenarios found is the same bytes as one made without, and
 * it does find something.
 */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/group_evals.h"
#include "plan/memo.h"
#include "plan/plan_internal.h"

TU_CATALOG_GROUP(cat)

/* 240 workloads of 1 to 4 replicas (about 600) in three tenants, of every
 * kind, some fault-isolated: large enough that the model search takes
 * each tenant alone first (plan_choose.c), the step the cache keeps. */
static gs_scenario *fleet(void)
{
	static const char *kinds[] = { "inference", "notebook", "batch", "ci", "training" };
	size_t size = 64 + 160 * 240, len;
	char *text = malloc(size);
	uint64_t x = 0x9e3779b97f4a7c15u;
	gs_scenario *s;
	assert_non_null(text);
	len = (size_t)snprintf(text, size, "version: 1\ncloud: aws\nworkloads:\n");
	for (int i = 0; i < 240; i++)
		len += (size_t)snprintf(text + len, size - len,
		                        "  - {name: w%03d, kind: %s, replicas: %d, "
		                        "gpuMemory: %dGiB, compute: %d%%, tenant: t%d%s}\n",
		                        i, kinds[tu_below(&x, 5)], 1 + tu_below(&x, 4),
		                        1 + tu_below(&x, 30), 2 + tu_below(&x, 60), i % 3,
		                        tu_below(&x, 8) == 0 ? ", isolation: fault" : "");
	s = tu_scenario(cat, "t.yaml", text);
	free(text);
	return s;
}

/* s's plan as JSON, made with the cache (or without: NULL). */
static char *plan_text(const gs_scenario *s, gs_plan_cache *cache)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	gs_doc *doc = NULL;
	char *text = NULL;
	gs_error err;
	po.cache = cache;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	assert_gs_ok(gs_doc_plan(p, &doc, &err), &err);
	assert_gs_ok(gs_doc_render(doc, GS_FORMAT_JSON, &text, &err), &err);
	gs_doc_free(doc);
	gs_plan_free(p);
	return text;
}

/* The evaluations, and the kept packings, the cache gave the last plan
 * edit_and_compare made; and the groups' results it gave the third start
 * (plan_cheap.c), which searches on the second thread. */
static long evals_found, packs_found, second_found;

/* An edit, then the plan with the cache and the plan without: the same
 * text. Returns how many groups' results the cache gave that plan. */
static long edit_and_compare(gs_scenario *s, gs_plan_cache *cache, const char *who,
                             const char *key, const char *val)
{
	gs_error err;
	long before = gs_memo_hits(gs_plan_cache_groups(cache, 0));
	long evals = gs_memo_hits(gs_plan_cache_evals(cache, 0));
	long packs = gs_memo_hits(gs_plan_cache_packs(cache, 0));
	long second = gs_memo_hits(gs_plan_cache_groups(cache, 1));
	char *with, *without;
	if (key)
		assert_gs_ok(gs_scenario_set(s, who, key, val, &err), &err);
	with = plan_text(s, cache);
	evals_found = gs_memo_hits(gs_plan_cache_evals(cache, 0)) - evals;
	packs_found = gs_memo_hits(gs_plan_cache_packs(cache, 0)) - packs;
	second_found = gs_memo_hits(gs_plan_cache_groups(cache, 1)) - second;
	without = plan_text(s, NULL);
	assert_string_equal(with, without);
	free(with);
	free(without);
	return gs_memo_hits(gs_plan_cache_groups(cache, 0)) - before;
}

/* What a plan found of groups' evaluations (group_evals.h). */
static long group_evals_of(gs_scenario *s, gs_plan_cache *cache, const char *who,
                           const char *key, const char *val)
{
	long before = gs_group_evals_found(gs_plan_cache_group_evals(cache));
	edit_and_compare(s, cache, who, key, val);
	return gs_group_evals_found(gs_plan_cache_group_evals(cache)) - before;
}

static void test_same_plans(void **state)
{
	gs_scenario *s = fleet(), *copy = NULL;
	gs_plan_cache *cache;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_plan_cache_new(&cache, &err), &err);
	/* The first plan finds nothing. A plan searches the tenants twice:
	 * first, then after marking replicas off MIG (plan_uniform.c), where
	 * the marks changed every tenant's input here. The same scenario
	 * again finds all six searches. */
	assert_int_equal(edit_and_compare(s, cache, NULL, NULL, NULL), 0);
	assert_int_equal(edit_and_compare(s, cache, NULL, NULL, NULL), 6);
	/* And the model searches' evaluations, each of which the plan before
	 * made: 2,486 of them here; and the 13 packings the build takes, from
	 * a memo of their own (plan_cache.c), where they leave the totals be. */
	assert_int_equal(evals_found, 2486);
	assert_int_equal(packs_found, 13);
	/* The third start searches its three tenants on the second thread,
	 * from a memo of groups of its own: all three are found. Without it
	 * they were searched again at every REPL edit (mixed 2,500 replicas:
	 * 275 ms an edit, 106 ms with it). */
	assert_int_equal(second_found, 3);
	/* An edit in one tenant (w001 and w002 are t1's and t2's; tenants are
	 * searched t0, t1, t2) leaves the searches before it as they were, in
	 * both rounds. A search after it is found too where the edited
	 * tenant's search left the same work over for it (the compute edit),
	 * and not where it did not (the replicas edit: t2's share changed).
	 * More replicas move the later replicas' indices, which no search
	 * reads. */
	assert_int_equal(edit_and_compare(s, cache, "w001", "compute", "35%"), 4);
	/* There t0's search is found; t1's input changed, and t2's share of
	 * the work with it. */
	assert_int_equal(second_found, 1);
	assert_int_equal(edit_and_compare(s, cache, "w001", "replicas", "5"), 2);
	/* The file's settings reach every tenant: nothing is found. Nor when
	 * the file is as it was two plans ago: the cache keeps what the last
	 * plan used (memo.h, gs_memo_age). */
	assert_int_equal(edit_and_compare(s, cache, NULL, "targetUtilization", "80%"), 0);
	assert_int_equal(edit_and_compare(s, cache, NULL, "targetUtilization", "90%"), 0);
	/* The next edit finds t0's searches of the plan before again. */
	assert_int_equal(edit_and_compare(s, cache, "w001", "compute", "36%"), 2);
	/* A copy, as the REPL plans after each edit, is the same scenario:
	 * its workloads keep their stamps, and every search is found. */
	assert_gs_ok(gs_scenario_clone(s, &copy, &err), &err);
	assert_int_equal(edit_and_compare(copy, cache, NULL, NULL, NULL), 6);
	gs_scenario_free(copy);
	gs_plan_cache_free(cache);
	gs_scenario_free(s);
}

/* A tenant searched again after an edit finds what its last search
 * evaluated of models that hold none of the edited workload. */
static void test_group_evals(void **state)
{
	gs_scenario *s = fleet();
	gs_plan_cache *cache;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_plan_cache_new(&cache, &err), &err);
	/* A plan searches the tenants twice (test_same_plans): the second
	 * round finds what the first evaluated of models whose replicas'
	 * marks did not change. */
	assert_int_equal(group_evals_of(s, cache, NULL, NULL, NULL), 1413);
	/* The same scenario again recalls every search whole. */
	assert_int_equal(group_evals_of(s, cache, NULL, NULL, NULL), 0);
	/* t1 and t2 search again after an edit of w001 (test_same_plans). */
	assert_int_equal(group_evals_of(s, cache, "w001", "compute", "35%"), 1036);
	/* The file's settings name other records: only the second round
	 * finds the first's. */
	assert_int_equal(group_evals_of(s, cache, NULL, "targetUtilization", "80%"), 1397);
	/* A workload gone moves every later workload's index, which keys
	 * name: a record's workloads are compared by their words, and the
	 * plans stay the same (edit_and_compare). A workload added at the
	 * end moves none. */
	assert_gs_ok(gs_scenario_remove(s, "w004", &err), &err);
	assert_int_equal(group_evals_of(s, cache, NULL, NULL, NULL), 1442);
	assert_gs_ok(gs_scenario_add(s, "new", &err), &err);
	assert_gs_ok(gs_scenario_set(s, "new", "tenant", "t1", &err), &err);
	assert_gs_ok(gs_scenario_set(s, "new", "gpuMemory", "9GiB", &err), &err);
	assert_int_equal(group_evals_of(s, cache, "new", "compute", "20%"), 1587);
	gs_plan_cache_free(cache);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_plans),
		cmocka_unit_test(test_group_evals),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
