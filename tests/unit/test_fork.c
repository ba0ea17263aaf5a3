/*
 * test_fork.c - the planner on two threads (plan/fork.h): a task runs and
 * reports its error; a copy's state is its own and its count of
 * refusals comes back; the third start begun on the other thread stands
 * only where the replicas it read are still the planner's; and a plan is
 * the same bytes on one thread or two, its sharing limit found beside
 * the reasons (plan_side.c) or after them, and written or read before
 * the second thread ends (gs_plan_opts.finish_later).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "base/buf.h"
#include "doc/doc.h"
#include "plan/fork.h"
#include "plan/memo.h"
#include "plan/plan_internal.h"

TU_CATALOG_GROUP(cat)

typedef struct job {
	int in, out, rc;
} job;

static int square(void *arg)
{
	job *j = arg;
	j->out = j->in * j->in;
	return j->rc;
}

/* A task begun runs to its end, says so, and its result is what the
 * wait says. */
static void test_task(void **state)
{
	job a = { 3, 0, 0 }, b = { 4, 0, -2 };
	gs_fork_task *t, *u;
	(void)state;
	assert_int_equal(gs_fork_start(&t, square, &a), 0);
	assert_int_equal(gs_fork_start(&u, square, &b), 0);
	while (!gs_fork_ended(t))
		sched_yield();
	assert_int_equal(a.out, 9);
	assert_true(gs_fork_ended(NULL));
	assert_int_equal(gs_fork_wait(t), 0);
	assert_int_equal(gs_fork_wait(u), -2);
	assert_int_equal(a.out, 9);
	assert_int_equal(b.out, 16);
	assert_int_equal(gs_fork_wait(NULL), 0);
}

/* What the copy writes stays in the copy: its shops' buys, its replicas'
 * flags and its memo; the refusals it counted are added to the parent's
 * when its work is taken, and not when it is dropped. */
static void test_copy_is_apart(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, "fixtures/unit/mixed-500.yaml");
	tu_planned t;
	gs_fork f;
	gs_buy b;
	long count = 5;
	int64_t key = 1, val = 2;
	int known, n = 0;
	long extra = 0;
	(void)state;
	tu_planned_open(&t, s);
	assert_int_equal(t.pl.nreps, GS_FORK_MIN_REPLICAS);
	assert_true(gs_fork_may(&t.pl));
	t.pl.robust_bound = &count;
	known = t.pl.shops[0].known;
	assert_int_equal(gs_fork_init(&f, &t.pl, GS_FORK_REPLICAS), 0);
	assert_true(f.pl.solo);
	assert_false(gs_fork_may(&f.pl));
	assert_int_equal(gs_shop_best(&f.pl.shops[0], known + 40, &b), 0);
	assert_int_equal(f.pl.shops[0].known, known + 40);
	assert_int_equal(t.pl.shops[0].known, known);
	assert_int_equal(gs_shop_key(&f.pl.shops[0]), gs_shop_key(&t.pl.shops[0]));
	f.pl.reps[0].no_mig = !t.pl.reps[0].no_mig;
	assert_int_not_equal(f.pl.reps[0].no_mig, t.pl.reps[0].no_mig);
	gs_memo_put(f.pl.memo, &key, 1, &val, 1, 0);
	assert_null(gs_memo_get(t.pl.memo, &key, 1, &n, &extra));
	*f.pl.robust_bound += 3;
	gs_fork_done(&f, &t.pl);
	assert_int_equal(count, 8);
	assert_non_null(gs_memo_get(t.pl.memo, &key, 1, &n, &extra));

	assert_int_equal(gs_fork_init(&f, &t.pl, 0), 0);
	*f.pl.robust_bound += 3;
	gs_fork_drop(&f);
	assert_int_equal(count, 8);
	t.pl.robust_bound = NULL;
	tu_planned_close(&t);
	gs_scenario_free(s);
}

typedef struct cheapest {
	gs_micros cost, volume;
	int *model;
} cheapest;

#define MIXED_3200 "fixtures/unit/mixed-3200.yaml"

/* The two starts of s's first choice as make() runs them, with the third
 * begun on the other thread (or not: third 0), and with every replica of
 * the even workloads kept off MIG after it began (as plan_uniform.c
 * marks them) or not; repaired: whether gs_build_cheapest repairs the
 * plan it keeps. The plan is repaired (refill.c) as make() would. */
static long repair_most; /* the planner's, for starts() (0: its default) */
static int searched;     /* starts() searches the first choice first, as make() */
static int third_first;  /* the planner's, for starts() (0: its default) */

static cheapest starts(const gs_scenario *s, int third, int mark, int repaired_there)
{
	tu_planned t;
	gs_third *th = NULL;
	gs_built after;
	cheapest out;
	int repaired;
	gs_side *early = NULL;
	tu_planned_open(&t, s);
	t.pl.repair_most = repair_most;
	t.pl.third_first = third_first;
	if (third)
		assert_int_equal(gs_third_begin(&t.pl, &t.c, &th), 0);
	assert_true(!third || th);
	for (int r = 0; mark && r < t.pl.nreps; r++)
		if (t.pl.reps[r].wi % 2 == 0)
			t.pl.reps[r].no_mig = 1;
	if (searched)
		assert_int_equal(gs_choose_models_first(&t.pl, t.pl.shops, &t.c), 0);
	assert_int_equal(gs_build_chosen(&t.pl, t.pl.shops, &t.c, &after), 0);
	assert_int_equal(gs_build_cheapest(&t.pl, t.pl.shops, &t.c, &after, th, &repaired, &early),
	                 0);
	gs_side_drop(early, &t.pl);
	assert_int_equal(repaired, repaired_there);
	if (!repaired)
		assert_int_equal(gs_refill(&t.pl, t.pl.shops, &t.c, &after), 0);
	out.cost = after.cost;
	out.volume = t.pl.volume;
	out.model = malloc(s->n * sizeof *out.model);
	assert_non_null(out.model);
	memcpy(out.model, t.c.model, s->n * sizeof *out.model);
	gs_built_release(&after);
	tu_planned_close(&t);
	return out;
}

static void expect_same(const gs_scenario *s, cheapest a, cheapest b)
{
	assert_int_equal(a.cost, b.cost);
	assert_int_equal(a.volume, b.volume);
	assert_memory_equal(a.model, b.model, s->n * sizeof *a.model);
	free(a.model);
	free(b.model);
}

/* A copy of s planned under robust placement. */
static gs_scenario *robust_copy(const gs_scenario *s)
{
	gs_scenario *robust;
	gs_error err;
	assert_gs_ok(gs_scenario_clone(s, &robust, &err), &err);
	assert_gs_ok(gs_scenario_set(robust, NULL, "placement", "robust", &err), &err);
	return robust;
}

/* The third start reads the replicas' flags: where the first choice's
 * build marked some after it began, its work is left and it is made
 * again, so the plan is the one a single thread makes. On this fleet,
 * robust, the third start's plan stands unmarked, and the marks change
 * it, or the test would prove nothing: begun on the other thread, the
 * repair runs beside it and stands unless the third start wins. Pinned
 * (the file's placement), every start is compared repaired (plan_cheap.c,
 * repair_each), the third too, on its own thread, and what stands is
 * repaired whichever wins. */
static void test_third_reads_the_marks(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, MIXED_3200), *robust = robust_copy(s);
	cheapest plain, marked;
	(void)state;
	plain = starts(robust, 0, 0, 0);
	marked = starts(robust, 0, 1, 0);
	assert_int_not_equal(plain.cost, marked.cost);
	expect_same(robust, starts(robust, 1, 1, 1), marked);
	expect_same(robust, starts(robust, 1, 0, 0), plain);
	expect_same(s, starts(s, 1, 1, 1), starts(s, 0, 1, 1));
	gs_scenario_free(robust);
	gs_scenario_free(s);
}

/* Robust, the third start is compared as built: where it has ended
 * when the plan that stands would be repaired beside it, it is compared
 * first and only the winner is repaired. Either order gives the same
 * plan and the same repair, whether the third start wins (unmarked) or
 * loses and is made again (marked). */
static void test_third_compared_first(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, MIXED_3200), *robust = robust_copy(s);
	cheapest first, after;
	(void)state;
	for (int mark = 0; mark < 2; mark++) {
		third_first = 1;
		first = starts(robust, 1, mark, mark);
		third_first = -1;
		after = starts(robust, 1, mark, mark);
		expect_same(robust, first, after);
	}
	third_first = 0;
	gs_scenario_free(robust);
	gs_scenario_free(s);
}

/* Above the size whose every start is repaired (plan_cheap.c, here set
 * to 1,000 replicas), the third start is still repaired on its own
 * thread, pinned, and compared with the plan that stands repaired: on
 * this fleet, its first choice searched as make() searches it, the third
 * start wins so at $1,772.17/h, where compared as built it lost to the
 * first choice. On one thread it is made and repaired there, to the same
 * plan. Below that size the cheapest start, repaired too, wins at
 * $1,761.97/h. */
static void test_third_repaired(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, MIXED_3200);
	cheapest two, one, all;
	(void)state;
	repair_most = 1000;
	searched = 1;
	two = starts(s, 1, 0, 1);
	one = starts(s, 0, 0, 1);
	repair_most = 0;
	all = starts(s, 1, 0, 1);
	searched = 0;
	assert_int_equal(two.cost, 1772168526);
	assert_int_equal(all.cost, 1761970600);
	free(all.model);
	expect_same(s, two, one);
	gs_scenario_free(s);
}

/* The plan's figures that the two threads' work gives. */
typedef struct figures {
	gs_micros pinned, after, bound;
	const char *by;
} figures;

/* The plan as JSON, planned on `threads` threads (finished later, as
 * gs_plan_write finishes it, or whole), and its figures. */
static char *plan_json_as(const gs_scenario *s, unsigned threads, int later, figures *f)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	gs_buf b = GS_BUF_INIT;
	gs_error err;
	char *text;
	po.threads = threads;
	po.finish_later = (unsigned)later;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	assert_gs_ok(gs_plan_write(p, GS_FORMAT_JSON, gs_wr_to_buf, &b, &err), &err);
	f->pinned = gs_plan_summary_get(p)->pinned_per_hour;
	f->after = gs_plan_summary_get(p)->after_per_hour;
	f->bound = gs_plan_summary_get(p)->lower_bound_per_hour;
	f->by = gs_plan_summary_get(p)->lower_bound_by;
	text = strdup(gs_buf_str(&b));
	assert_non_null(text);
	gs_buf_release(&b);
	gs_plan_free(p);
	return text;
}

static char *plan_json(const gs_scenario *s, unsigned threads, figures *f)
{
	return plan_json_as(s, threads, 0, f);
}

/* The same bytes on one thread or two: a pinned fleet whose starts are
 * compared repaired, the third on the other thread ($1,761.97/h, from the
 * cheapest models per GPU; it cost $1,855.94/h when they were compared
 * as built), and a robust one whose pinned figure is priced beside the
 * reasons and the linear relaxation's bound ($288.01/h against
 * $335.49/h, bounded by $286.01/h). Both bounds are the lesser of those
 * without MIG and without MPS: with both, $1,572.31/h and $285.77/h; the
 * gather start (plan_gather.c) took the robust plan from $339.34/h. */
static void test_same_bytes(void **state)
{
	static const char *const files[] = { MIXED_3200, "fixtures/unit/mixed-500.yaml" };
	static const figures want[] = { { -1, 1761970600, 1596422985, "volume" },
		                        { 288014600, 335492550, 286006984, "relaxation" } };
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_LEN(files); i++) {
		gs_scenario *s = tu_scenario_file(cat, files[i]);
		figures f, g;
		char *one = plan_json(s, 1, &f);
		char *two = plan_json(s, 0, &f);
		char *late = plan_json_as(s, 0, 1, &g);
		assert_int_equal(f.pinned, want[i].pinned);
		assert_int_equal(f.after, want[i].after);
		assert_int_equal(f.bound, want[i].bound);
		assert_string_equal(f.by, want[i].by);
		assert_string_equal(one, two);
		assert_string_equal(two, late);
		assert_int_equal(g.pinned, want[i].pinned);
		free(one);
		free(two);
		free(late);
		gs_scenario_free(s);
	}
}

/* The second thread begins with the shared plan as the one chosen; where
 * the plan without sharing is chosen instead, it begins again with that.
 * A capacity claim (DRA) cannot name its GPU, so robust placement shares
 * nothing of these 600 replicas, and the plan is the one without sharing,
 * priced pinned beside the reasons: the same bytes on one thread or two. */
static void test_side_begins_again(void **state)
{
	gs_scenario *s = tu_scenario(
	        cat, "t.yaml",
	        "version: 1\ncloud: aws\ninstances: [g5.12xlarge]\nfractions: [dra]\n"
	        "workloads:\n"
	        "  - {name: hot, replicas: 300, gpuMemory: 2GiB, compute: 45%}\n"
	        "  - {name: big, replicas: 300, gpuMemory: 10GiB, compute: 40%}\n");
	figures f;
	char *one = plan_json(s, 1, &f);
	char *two = plan_json(s, 0, &f);
	char *late = plan_json_as(s, 0, 1, &f);
	(void)state;
	assert_int_equal(f.after, 850800000);
	assert_int_equal(f.pinned, 850800000);
	assert_non_null(strstr(two, "no sharing plan found beats a whole GPU per replica"));
	assert_string_equal(one, two);
	assert_string_equal(two, late);
	free(one);
	free(two);
	free(late);
	gs_scenario_free(s);
}

/* The plan of `replicas` of 46 % compute on L4s, and `more`, on
 * `threads` threads: its sharing limit, cost and pinned figure. */
static void expect_limit(const char *replicas, const char *more, unsigned threads,
                         int later, const char *want, gs_micros cost, gs_micros pinned)
{
	char text[320];
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	gs_scenario *s;
	gs_error err;
	snprintf(text, sizeof text,
	         "version: 1\ncloud: aws\ninstances: [g6.xlarge]\nworkloads:\n"
	         "  - {name: pairs, replicas: %s, gpuMemory: 4GiB, compute: 46%%}\n%s",
	         replicas, more);
	s = tu_scenario(cat, "t.yaml", text);
	po.threads = threads;
	po.finish_later = (unsigned)later;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	/* Finished by the first read of the summary where it was left. */
	assert_string_equal(gs_plan_summary_get(p)->sharing_limit, want);
	assert_gs_ok(gs_plan_finish(p, &err), &err);
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, cost);
	assert_int_equal(gs_plan_summary_get(p)->pinned_per_hour, pinned);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Replicas of 46 % compute: at the target of 90 % one per L4, at 92 %
 * two. Of 6,000, with four replicas that robust placement keeps apart
 * (two of 12 GiB overflow an L4's offer), the second thread finds that
 * while the first writes the reasons, and prices the plan pinned; of
 * 600, where the fleet is planned again at 92 % (and nothing is kept
 * apart), the first thread does, after them. Of 600 with the four, small
 * enough for the linear relaxation's bound (cg.h), the second thread
 * plans it again and prices it pinned while the first bounds it. */
static void test_limit_beside(void **state)
{
	static const char *const want[] = {
		"pairs (46% compute each on L4): targetUtilization 90% leaves room for 1 of "
		"these on one GPU; set targetUtilization: 92% to fit 2",
		"pairs (46% compute each on L4): targetUtilization 90% leaves room for 1 of "
		"these on one GPU; set targetUtilization: 92% to fit 2 ($241.44/h instead of "
		"$482.88/h)",
		"pairs (46% compute each on L4): targetUtilization 90% leaves room for 1 of "
		"these on one GPU; set targetUtilization: 92% to fit 2 ($244.66/h instead of "
		"$486.10/h)",
	};
	static const char *const fleet[] = { "6000", "600", "600" };
	static const char *const more[] = {
		"  - {name: big, replicas: 4, gpuMemory: 12GiB, compute: 10%}\n", "",
		"  - {name: big, replicas: 4, gpuMemory: 12GiB, compute: 10%}\n"
	};
	static const gs_micros cost[] = { 4832019200, 482880000, 486099200 };
	static const gs_micros pinned[] = { 4828800000, 482880000, 482880000 };
	for (int i = 0; i < 3; i++)
		for (unsigned threads = 0; threads < 2; threads++)
			for (int later = 0; later < 2; later++)
				expect_limit(fleet[i], more[i], threads, later, want[i], cost[i],
				             pinned[i]);
	(void)state;
}

/* The pinned figure begun early (gs_side_early): only on large fleets
 * (200,000 replicas by default; 6,000 here), where it is sure to be asked
 * for (refusals counted already) and the sharing limit is a scan (over
 * 5,000 replicas); gs_side_begin takes it where the choice is the one it
 * began from, and drops it where a model changed (ASan and valgrind see
 * that it is freed, and its thread waited for). */
static void test_side_early(void **state)
{
	static const char *const fleet[] = { "6000", "4000" };
	for (int i = 0; i < 2; i++) {
		char text[320];
		gs_scenario *s;
		tu_planned t;
		gs_built b;
		gs_side *early = NULL, *side = NULL;
		gs_choice was;
		long count = 0;
		snprintf(text, sizeof text,
		         "version: 1\ncloud: aws\ninstances: [g6.xlarge, g5.xlarge]\nworkloads:\n"
		         "  - {name: pairs, replicas: %s, gpuMemory: 4GiB, compute: 46%%}\n"
		         "  - {name: big, replicas: 4, gpuMemory: 12GiB, compute: 10%%}\n",
		         fleet[i]);
		s = tu_scenario(cat, "t.yaml", text);
		tu_planned_open(&t, s);
		t.pl.robust_bound = &count;
		memset(&b, 0, sizeof b);
		assert_int_equal(gs_build_chosen(&t.pl, t.pl.shops, &t.c, &b), 0);
		/* At the default, too few replicas. */
		count = 1;
		assert_int_equal(gs_side_early(&t.pl, &t.c, &early), 0);
		assert_null(early);
		t.pl.early_least = 6000;
		/* Not priced yet: nothing begins. */
		count = 0;
		assert_int_equal(gs_side_early(&t.pl, &t.c, &early), 0);
		assert_null(early);
		count = 1;
		assert_int_equal(gs_side_early(&t.pl, &t.c, &early), 0);
		if (i == 1) {
			/* The limit plans the fleet again: the first thread's. */
			assert_null(early);
		} else {
			assert_non_null(early);
			assert_int_equal(gs_side_begin(&t.pl, &t.c, &b, early, &side), 0);
			assert_ptr_equal(side, early);
			gs_side_drop(side, &t.pl);
			/* Begun from another model of `pairs`: dropped. */
			assert_int_equal(gs_side_early(&t.pl, &t.c, &early), 0);
			assert_non_null(early);
			assert_int_equal(gs_choice_copy(&t.pl, &t.c, &was), 0);
			assert_true(gs_choice_same(&t.pl, &was, &t.c));
			assert_int_equal(t.c.ncand[0], 2);
			t.c.model[0] = t.c.cands[0][t.c.cands[0][0] == t.c.model[0]];
			assert_false(gs_choice_same(&t.pl, &was, &t.c));
			t.c.model[0] = was.model[0];
			t.c.per_model[0].gpus++;
			assert_false(gs_choice_same(&t.pl, &was, &t.c));
			t.c.per_model[0].gpus--;
			t.c.cands[0][1] = t.c.cands[0][0];
			assert_false(gs_choice_same(&t.pl, &was, &t.c));
			t.c.cands[0][1] = was.cands[0][1];
			assert_true(gs_choice_same(&t.pl, &was, &t.c));
			gs_choice_release(&t.pl, &was);
			t.c.model[0] = t.c.cands[0][t.c.cands[0][0] == t.c.model[0]];
			assert_int_equal(gs_side_begin(&t.pl, &t.c, &b, early, &side), 0);
			assert_non_null(side);
			gs_side_drop(side, &t.pl);
		}
		gs_built_release(&b);
		t.pl.robust_bound = NULL;
		tu_planned_close(&t);
		gs_scenario_free(s);
	}
	(void)state;
}

/* A plan left in the making: finished by gs_plan_finish (once; again is
 * at once), or freed unfinished, its second thread waited for and its
 * planner let go (ASan and valgrind see the rest). The figures are the
 * whole plan's (test_same_bytes). */
static void test_finish_later(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, "fixtures/unit/mixed-500.yaml");
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	assert_null(p->late);
	gs_plan_free(p);
	po.finish_later = 1;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	assert_non_null(p->late);
	assert_gs_ok(gs_plan_finish(p, &err), &err);
	assert_null(p->late);
	assert_gs_ok(gs_plan_finish(p, &err), &err);
	assert_int_equal(gs_plan_summary_get(p)->pinned_per_hour, 288014600);
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 335492550);
	gs_plan_free(p);
	p = NULL;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	assert_non_null(p->late);
	gs_plan_free(p);
	/* One thread: no second thread's work to leave. */
	po.threads = 1;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	assert_null(p->late);
	gs_plan_free(p);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task),
		cmocka_unit_test(test_copy_is_apart),
		cmocka_unit_test(test_third_reads_the_marks),
		cmocka_unit_test(test_third_repaired),
		cmocka_unit_test(test_third_compared_first),
		cmocka_unit_test(test_same_bytes),
		cmocka_unit_test(test_limit_beside),
		cmocka_unit_test(test_side_begins_again),
		cmocka_unit_test(test_side_early),
		cmocka_unit_test(test_finish_later),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
