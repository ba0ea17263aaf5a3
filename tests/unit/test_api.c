/*
 * test_api.c - the conventions every caller relies on: an options struct of
 * another version is refused by name, the plan lends back the scenario it
 * borrows, and texts written later are the texts; and a set of files is
 * written as one (gs_write_dir).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static gs_catalog *cat;
static gs_scenario *scen;
static gs_plan *plan;

static int setup(void **state)
{
	gs_error err;
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	(void)state;
	if (gs_catalog_load(TEST_PROFILES, &cat, &err) < 0 ||
	    gs_scenario_load(cat, "../examples/workloads.yaml", &scen, &err) < 0 ||
	    gs_plan_make(scen, &po, &plan, &err) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	gs_plan_free(plan);
	gs_scenario_free(scen);
	gs_catalog_free(cat);
	return 0;
}

#define WANT_VERSION_ERROR_OF(err, what, want)                                       \
	assert_gs_error((err), "error: " what " version 7 is not " want ": initialise it " \
	                       "with its _INIT macro")
#define WANT_VERSION_ERROR(err, what) WANT_VERSION_ERROR_OF(err, what, "1")

static void test_plan_opts_version(void **state)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	gs_error err;
	(void)state;
	po.version = 6;
	assert_int_equal(gs_plan_make(scen, &po, &p, &err), GS_EINVAL);
	/* Version 5 added texts_later, 6 summary_only, 7 finish_later. */
	assert_gs_error(&err, "error: gs_plan_opts version 6 is not 7: initialise it with its "
	                      "_INIT macro");
	assert_null(p);
}

static void test_savings_opts_version(void **state)
{
	gs_savings_opts so = GS_SAVINGS_OPTS_INIT;
	gs_savings s;
	gs_error err;
	(void)state;
	so.instance = "p3.2xlarge";
	so.replicas = 4;
	assert_gs_ok(gs_savings_compute(cat, &so, &s, &err), &err);
	so.version = 7;
	assert_int_equal(gs_savings_compute(cat, &so, &s, &err), GS_EINVAL);
	/* Version 2 added compute and target_utilization, 3 backend and memory. */
	WANT_VERSION_ERROR_OF(&err, "gs_savings_opts", "3");
}

static void test_emit_opts_version(void **state)
{
	gs_emit_opts eo = GS_EMIT_OPTS_INIT;
	char *out = NULL;
	gs_error err;
	(void)state;
	eo.version = 7;
	assert_int_equal(gs_emit(plan, GS_EMIT_DEVICE_PLUGIN, &eo, &out, &err), GS_EINVAL);
	WANT_VERSION_ERROR_OF(&err, "gs_emit_opts", "2");
	assert_null(out);
}

static void test_lint_opts_version(void **state)
{
	gs_lint_opts lo = GS_LINT_OPTS_INIT;
	gs_lint *l = NULL;
	gs_error err;
	(void)state;
	lo.version = 7;
	assert_int_equal(gs_lint_new(&lo, &l, &err), GS_EINVAL);
	WANT_VERSION_ERROR(&err, "gs_lint_opts");
	assert_null(l);
}

static void test_import_opts_version(void **state)
{
	gs_import_opts io = GS_IMPORT_OPTS_INIT;
	gs_inventory *inv = NULL;
	gs_error err;
	(void)state;
	io.version = 7;
	io.nodes = "fixtures/import/nodes.json";
	assert_int_equal(gs_import_load(cat, &io, &inv, &err), GS_EINVAL);
	WANT_VERSION_ERROR_OF(&err, "gs_import_opts", "2");
	assert_null(inv);
}

static void test_plan_lends_its_scenario(void **state)
{
	(void)state;
	assert_ptr_equal(gs_plan_scenario(plan), scen);
	assert_int_equal(gs_scenario_via(scen), GS_VIA_DEVICE_PLUGIN);
}

/* A plan made with texts_later has none until gs_plan_texts, which writes
 * the texts a plan made without it has; a second call changes nothing.
 * mixed-fleet.yaml has reasons of every kind and conversion notes. */
static void test_plan_texts_later(void **state)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_scenario *s;
	gs_plan *now, *later;
	gs_error err;
	size_t notes = 0;
	const char *why0;
	(void)state;
	assert_gs_ok(gs_scenario_load(cat, "../examples/mixed-fleet.yaml", &s, &err), &err);
	assert_gs_ok(gs_plan_make(s, &po, &now, &err), &err);
	po.texts_later = 1;
	assert_gs_ok(gs_plan_make(s, &po, &later, &err), &err);
	assert_int_equal(gs_plan_workload_count(later), gs_plan_workload_count(now));
	for (size_t i = 0; i < gs_plan_workload_count(later); i++) {
		assert_null(gs_plan_workload_at(later, i)->why);
		assert_int_equal(gs_plan_workload_at(later, i)->n_notes, 0);
	}
	assert_int_equal(gs_plan_summary_get(later)->after_per_hour,
	                 gs_plan_summary_get(now)->after_per_hour);
	assert_gs_ok(gs_plan_texts(later, &err), &err);
	why0 = gs_plan_workload_at(later, 0)->why;
	assert_gs_ok(gs_plan_texts(later, &err), &err);
	assert_ptr_equal(gs_plan_workload_at(later, 0)->why, why0);
	for (size_t i = 0; i < gs_plan_workload_count(later); i++) {
		const gs_plan_workload *a = gs_plan_workload_at(now, i);
		const gs_plan_workload *b = gs_plan_workload_at(later, i);
		assert_non_null(b->why);
		assert_string_equal(b->why, a->why);
		assert_int_equal(b->n_notes, a->n_notes);
		for (size_t k = 0; k < a->n_notes; k++)
			assert_string_equal(b->notes[k], a->notes[k]);
		notes += a->n_notes;
	}
	assert_int_equal(notes, 4);
	gs_plan_free(later);
	gs_plan_free(now);
	gs_scenario_free(s);
}

static int holds(const char *path, const char *want)
{
	char got[64] = "";
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
	if (f)
		fclose(f);
	got[n] = '\0';
	return want ? strcmp(got, want) == 0 : f == NULL;
}

static void test_write_dir(void **state)
{
	char top[] = "/tmp/gs-test-dir-XXXXXX", dir[64], path[128];
	const char *names[] = { "a.yaml", "b.yaml", "c.sh" };
	const char *first[] = { "A1", "B1", NULL }, *second[] = { "A2", NULL, "C2" };
	gs_error err;
	(void)state;
	assert_non_null(mkdtemp(top));
	snprintf(dir, sizeof dir, "%s/out", top);

	assert_gs_ok(gs_write_dir(dir, names, first, 3, 0, &err), &err);
	snprintf(path, sizeof path, "%s/a.yaml", dir);
	assert_true(holds(path, "A1"));
	/* The set is there: without force it is refused, and nothing changes. */
	assert_int_equal(gs_write_dir(dir, names, second, 3, 0, &err), GS_EWRITE);
	assert_true(holds(path, "A1"));
	/* With force the new set replaces the old one whole: b.yaml is gone. */
	assert_gs_ok(gs_write_dir(dir, names, second, 3, 1, &err), &err);
	assert_true(holds(path, "A2"));
	snprintf(path, sizeof path, "%s/b.yaml", dir);
	assert_true(holds(path, NULL));
	snprintf(path, sizeof path, "%s/c.sh", dir);
	assert_true(holds(path, "C2"));
	/* A file the set does not name is somebody else's: refused, kept. */
	snprintf(path, sizeof path, "%s/notes.txt", dir);
	assert_true(fclose(fopen(path, "w")) == 0);
	assert_int_equal(gs_write_dir(dir, names, first, 3, 1, &err), GS_EWRITE);
	assert_true(strstr(err.msg, "holds 'notes.txt', which gpushare did not write") != NULL);
	assert_true(holds(path, ""));
	unlink(path);
	/* Names must be plain; '.' cannot be replaced as a whole. */
	names[1] = "../b.yaml";
	assert_int_equal(gs_write_dir(dir, names, first, 3, 1, &err), GS_EINVAL);
	names[1] = "b.yaml";
	assert_int_equal(gs_write_dir(".", names, first, 3, 1, &err), GS_EINVAL);
	/* Nothing is left beside the directory. */
	snprintf(path, sizeof path, "rm -r '%s/out' && rmdir '%s'", top, top);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_opts_version),
		cmocka_unit_test(test_savings_opts_version),
		cmocka_unit_test(test_emit_opts_version),
		cmocka_unit_test(test_lint_opts_version),
		cmocka_unit_test(test_import_opts_version),
		cmocka_unit_test(test_plan_lends_its_scenario),
		cmocka_unit_test(test_plan_texts_later),
		cmocka_unit_test(test_write_dir),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
