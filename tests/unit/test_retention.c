/*
 * test_retention.c - what sharing costs in throughput (issue 17, section 2):
 * the shipped retention profile row by row, a later directory's rows
 * replacing earlier ones, the loader's located errors, the workload keys
 * `throughput` and `retention` (file, `set`, written back), and the plan's
 * prices per unit of work to the micro-dollar.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "catalog/catalog.h"
#include "plan/decision.h"
#include "plan/plan_internal.h"

TU_CATALOG_GROUP(cat)

static void expect_row(const gs_catalog *c, gs_strategy s, gs_backend b, int64_t lo,
                       int64_t hi, const char *source)
{
	gs_retention r;
	assert_int_equal(gs_retention_of(c, s, b, &r), 0);
	assert_int_equal(r.low_ppm, lo);
	assert_int_equal(r.high_ppm, hi);
	assert_string_equal(r.source, source);
}

static void test_shipped_rows(void **state)
{
	gs_retention r;
	(void)state;
	expect_row(cat, GS_STRATEGY_DEDICATED, GS_BACKEND_NONE, 1000000, 1000000, "a whole GPU");
	expect_row(cat, GS_STRATEGY_TIME_SLICING, GS_BACKEND_NONE, 445000, 760000,
	           "NVIDIA: Dynamo study, MIG vs time-slicing");
	expect_row(cat, GS_STRATEGY_MPS, GS_BACKEND_NONE, 635000, 879000,
	           "NVIDIA Dynamo study, MPS");
	expect_row(cat, GS_STRATEGY_MIG, GS_BACKEND_NONE, 1000000, 1000000,
	           "KubeCon NA 2024 study, MIG isolates");
	expect_row(cat, GS_STRATEGY_FRACTION, GS_BACKEND_HAMI, 445000, 728000,
	           "NVIDIA Dynamo study, memory caps");
	expect_row(cat, GS_STRATEGY_FRACTION, GS_BACKEND_DRA, 445000, 728000,
	           "NVIDIA Dynamo study, memory caps");
	expect_row(cat, GS_STRATEGY_FRACTION, GS_BACKEND_MPS, 635000, 879000,
	           "NVIDIA Dynamo study, MPS");
	/* A backend only matters to fractions; a fraction needs one. */
	expect_row(cat, GS_STRATEGY_MPS, GS_BACKEND_HAMI, 635000, 879000,
	           "NVIDIA Dynamo study, MPS");
	assert_int_equal(gs_retention_of(cat, GS_STRATEGY_FRACTION, GS_BACKEND_NONE, &r),
	                 GS_ENOTFOUND);
	assert_int_equal(gs_retention_of(cat, (gs_strategy)9, GS_BACKEND_NONE, &r), GS_EINVAL);
	assert_gs_ok(gs_retention_of(cat, GS_STRATEGY_MPS, GS_BACKEND_NONE, &r), NULL);
	assert_non_null(strstr(r.url, "docs.nvidia.com/dynamo"));
	assert_gs_ok(gs_retention_of(cat, GS_STRATEGY_DEDICATED, GS_BACKEND_NONE, &r), NULL);
	assert_null(r.url);
}

/* A later directory replaces the rows it names and keeps the others; a
 * directory without the file has none. */
static void test_later_directory(void **state)
{
	gs_catalog *c = NULL;
	gs_retention r;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_catalog_load(TEST_PROFILES ":cli/fixtures/retention/site", &c, &err),
	             &err);
	expect_row(c, GS_STRATEGY_TIME_SLICING, GS_BACKEND_NONE, 600000, 700000,
	           "our V100 load test, 2026-11");
	expect_row(c, GS_STRATEGY_MPS, GS_BACKEND_NONE, 635000, 879000,
	           "NVIDIA Dynamo study, MPS");
	gs_catalog_free(c);
	assert_gs_ok(gs_catalog_load("fixtures/unit/mig", &c, &err), &err);
	assert_int_equal(gs_retention_of(c, GS_STRATEGY_MPS, GS_BACKEND_NONE, &r),
	                 GS_ENOTFOUND);
	gs_catalog_free(c);
}

static void expect_bad(const char *yaml, const char *want)
{
	gs_catalog *c = calloc(1, sizeof *c);
	gs_error err;
	assert_non_null(c);
	assert_int_equal(gs_retention_add_buffer(c, "r.yaml", yaml, strlen(yaml), &err),
	                 GS_ESCHEMA);
	assert_gs_error(&err, want);
	gs_catalog_free(c);
}

static void test_bad_rows(void **state)
{
	(void)state;
	expect_bad("version: 1\nretention:\n"
	           "  - {strategy: mps, low: 60%, high: 70%, source: a}\n"
	           "  - {strategy: mps, low: 50%, high: 70%, source: b}\n",
	           "r.yaml:4:5: error: a second row for mps in this file");
	expect_bad("version: 1\nretention:\n"
	           "  - {strategy: mig, backend: hami, low: 60%, high: 70%, source: a}\n",
	           "r.yaml:3:30: error: 'backend' belongs to fraction rows only, not mig");
	expect_bad("version: 1\nretention:\n"
	           "  - {strategy: fraction, low: 60%, high: 70%, source: a}\n",
	           "r.yaml:3:5: error: a fraction row needs a 'backend' (hami, dra or mps)");
	expect_bad("version: 1\nretention:\n"
	           "  - {strategy: time-slicng, low: 60%, high: 70%, source: a}\n",
	           "r.yaml:3:16: error: unknown strategy 'time-slicng' (did you mean "
	           "'time-slicing'?)");
	expect_bad("version: 1\nretention:\n"
	           "  - {strategy: mps, low: 0%, high: 70%, source: a}\n",
	           "r.yaml:3:26: error: low must be more than 0% and at most 100%, not '0%'");
	expect_bad("version: 1\nretention:\n"
	           "  - {strategy: mps, low: 60%, high: 170%, source: a}\n",
	           "r.yaml:3:37: error: high must be from low (60%) to 100%, not '170%'");
	expect_bad("version: 1\nretention:\n"
	           "  - {strategy: mps, low: 60%, high: 70%}\n",
	           "r.yaml:3:5: error: missing required key 'source'");
	expect_bad("version: 1\nretention:\n"
	           "  - {strategy: mps, low: 60%, high: 70%, source: a, sources: b}\n",
	           "r.yaml:3:53: error: unknown key 'sources' (did you mean 'source'?)");
}

/* ---- the workload keys --------------------------------------------------- */

static const char *const seed =
	"version: 1\ncloud: aws\ninstances: [p3.2xlarge]\nworkloads:\n"
	"  - {name: chat, gpuMemory: 3.5GiB, compute: 20%, throughput: 1200 tokens/s}\n"
	"  - {name: ner, gpuMemory: 3GiB, compute: 20%, throughput: 12.5 requests/s,\n"
	"     retention: 80%}\n"
	"  - {name: sum, gpuMemory: 3.5GiB, compute: 25%, throughput: 500 tokens/s,\n"
	"     retention: {time-slicing: 20%, mps: 90%}}\n"
	"  - {name: emb, kind: batch, gpuMemory: 3GiB, compute: 20%}\n";

static char *yaml_of(const gs_scenario *s)
{
	gs_doc *d = NULL;
	char *text = NULL;
	gs_error err;
	assert_gs_ok(gs_doc_scenario(s, &d, &err), &err);
	assert_gs_ok(gs_doc_render(d, GS_FORMAT_YAML, &text, &err), &err);
	gs_doc_free(d);
	return text;
}

static void test_keys(void **state)
{
	gs_scenario *s = tu_scenario(cat, "w.yaml", seed), *again;
	const gs_workload *w;
	char *text, *text2;
	gs_error err;
	(void)state;

	w = gs_scenario_find(s, "ner");
	assert_int_equal(w->throughput_milli, 12500);
	assert_int_equal(w->work_unit, GS_WORK_REQUESTS);
	assert_int_equal(w->retention_ppm[GS_STRATEGY_DEDICATED], -1);
	for (int k = GS_STRATEGY_TIME_SLICING; k <= GS_STRATEGY_FRACTION; k++)
		assert_int_equal(w->retention_ppm[k], 800000);
	w = gs_scenario_find(s, "sum");
	assert_int_equal(w->retention_ppm[GS_STRATEGY_TIME_SLICING], 200000);
	assert_int_equal(w->retention_ppm[GS_STRATEGY_MPS], 900000);
	assert_int_equal(w->retention_ppm[GS_STRATEGY_MIG], -1);
	w = gs_scenario_find(s, "emb");
	assert_int_equal(w->work_unit, GS_WORK_NONE);
	assert_int_equal(w->retention_ppm[GS_STRATEGY_MPS], -1);

	/* Written back, read again, written alike. */
	text = yaml_of(s);
	assert_non_null(strstr(text, "throughput: \"12.5 requests/s\"\n  retention: \"80%\"\n"));
	assert_non_null(strstr(text, "  retention:\n    time-slicing: \"20%\"\n"
	                             "    mps: \"90%\"\n"));
	again = tu_scenario(cat, "again.yaml", text);
	text2 = yaml_of(again);
	assert_string_equal(text, text2);
	free(text2);
	gs_scenario_free(again);
	free(text);

	/* `set`: one strategy of the map, a scalar for all, and back to none. */
	assert_gs_ok(gs_scenario_set(s, "ner", "retention.mig", "95%", &err), &err);
	w = gs_scenario_find(s, "ner");
	assert_int_equal(w->retention_ppm[GS_STRATEGY_MIG], 950000);
	assert_int_equal(w->retention_ppm[GS_STRATEGY_MPS], 800000);
	assert_gs_ok(gs_scenario_set(s, "emb", "retention", "65%", &err), &err);
	assert_int_equal(gs_scenario_find(s, "emb")->retention_ppm[GS_STRATEGY_FRACTION], 650000);
	assert_gs_ok(gs_scenario_set(s, "emb", "retention", "", &err), &err);
	assert_int_equal(gs_scenario_find(s, "emb")->retention_ppm[GS_STRATEGY_FRACTION], -1);
	assert_int_equal(gs_scenario_set(s, "emb", "retention.dedicated", "90%", &err),
	                 GS_ESCHEMA);
	assert_int_equal(gs_scenario_set(s, "emb", "throughput", "5 tokens/h", &err),
	                 GS_ESCHEMA);
	assert_int_equal(gs_scenario_set(s, "emb", "throughput", "0 tokens/s", &err),
	                 GS_ESCHEMA);
	assert_gs_ok(gs_scenario_set(s, "emb", "throughput", "0.5 requests/s", &err), &err);
	assert_int_equal(gs_scenario_find(s, "emb")->throughput_milli, 500);
	gs_scenario_free(s);
}

/* ---- the plan's figures ---------------------------------------------------- */

/* The seed's four on one time-sliced V100 of a p3.2xlarge at $3.06/h (the
 * CLI case plan_retention_throughput states the arithmetic). */
static void test_plan_prices(void **state)
{
	gs_scenario *s = tu_scenario(cat, "w.yaml", seed);
	gs_plan *p = tu_plan(s);
	gs_plan_retention r;
	gs_error err;
	(void)state;

	assert_int_equal(gs_plan_workload_count(p), 4);
	assert_gs_ok(gs_plan_retention_at(p, 0, &r, &err), &err);
	assert_int_equal(r.shared, 1);
	assert_int_equal(r.strategy, GS_STRATEGY_TIME_SLICING);
	assert_int_equal(r.low_ppm, 445000);
	assert_int_equal(r.high_ppm, 760000);
	assert_int_equal(r.measured, 0);
	assert_int_equal(r.unit, GS_WORK_TOKENS);
	/* $3.06 / 4.32M tokens; $0.678653 / (4.32M x 0.445), / (4.32M x 0.76). */
	assert_int_equal(r.before, 708333);
	assert_int_equal(r.after_low, 353024);
	assert_int_equal(r.after_high, 206705);
	assert_int_equal(r.pays, 1);

	/* 12.5 requests/s = 45,000 an hour: $3.06 / 45 = $0.068, $0.612 / 36. */
	assert_gs_ok(gs_plan_retention_at(p, 1, &r, &err), &err);
	assert_string_equal(r.source, "your measurement");
	assert_int_equal(r.measured, 1);
	assert_int_equal(r.unit, GS_WORK_REQUESTS);
	assert_int_equal(r.before, 68000);
	assert_int_equal(r.after_low, 17000);
	assert_int_equal(r.after_high, 17000);

	/* At 20%: $0.765 / 0.36 = $2.125 against $3.06 / 1.8 = $1.70. */
	assert_gs_ok(gs_plan_retention_at(p, 2, &r, &err), &err);
	assert_int_equal(r.before, 1700000);
	assert_int_equal(r.after_low, 2125000);
	assert_int_equal(r.pays, 0);

	assert_gs_ok(gs_plan_retention_at(p, 3, &r, &err), &err);
	assert_int_equal(r.shared, 1);
	assert_int_equal(r.unit, GS_WORK_NONE);

	assert_int_equal(gs_plan_retention_at(p, 4, &r, &err), GS_EINVAL);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* A fraction is stated by the backend of the GPU holding its first
 * replica, and its own `fraction` figure replaces the backend's row. The
 * planner of fractions lands apart (issue 17, section 1): the plan is
 * edited here to what it will give. */
static void test_fraction(void **state)
{
	gs_scenario *s = tu_scenario(cat, "w.yaml", seed);
	gs_plan *p = tu_plan(s);
	const gs_decision *d = &p->decisions[0];
	gs_plan_gpu *g = (gs_plan_gpu *)&p->nodes[d->node].gpus[d->gpu];
	gs_plan_retention r;
	gs_error err;
	(void)state;

	for (size_t i = 0; i < p->n_wls; i++)
		p->wls[i].strategy = GS_STRATEGY_FRACTION;
	g->strategy = GS_STRATEGY_FRACTION;
	g->backend = GS_BACKEND_HAMI;
	assert_gs_ok(gs_plan_retention_at(p, 0, &r, &err), &err);
	assert_int_equal(r.backend, GS_BACKEND_HAMI);
	assert_int_equal(r.low_ppm, 445000);
	assert_int_equal(r.high_ppm, 728000);
	assert_string_equal(r.source, "NVIDIA Dynamo study, memory caps");
	/* $0.678653 / (4.32M x 0.445) and / (4.32M x 0.728). */
	assert_int_equal(r.after_low, 353024);
	assert_int_equal(r.after_high, 215791);
	g->backend = GS_BACKEND_MPS;
	assert_gs_ok(gs_plan_retention_at(p, 0, &r, &err), &err);
	assert_int_equal(r.low_ppm, 635000);
	assert_string_equal(r.source, "NVIDIA Dynamo study, MPS");
	/* ner's 80% holds for every shared strategy; sum names none for fractions. */
	assert_gs_ok(gs_plan_retention_at(p, 1, &r, &err), &err);
	assert_int_equal(r.low_ppm, 800000);
	assert_int_equal(r.measured, 1);
	assert_gs_ok(gs_plan_retention_at(p, 2, &r, &err), &err);
	assert_int_equal(r.measured, 0);
	assert_int_equal(r.low_ppm, 635000);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* A workload alone on its GPU keeps all of its throughput: no range, and
 * the same price per unit with a whole GPU as here. */
static void test_dedicated(void **state)
{
	gs_scenario *s = tu_scenario(cat, "d.yaml",
	                             "version: 1\ncloud: aws\ninstances: [p3.2xlarge]\n"
	                             "workloads:\n  - {name: api, gpuMemory: 3GiB, compute: 20%,"
	                             " replicas: 2, isolation: fault, throughput: 1200 tokens/s,"
	                             " retention: 50%}\n");
	gs_plan *p = tu_plan(s);
	gs_plan_retention r;
	gs_error err;
	(void)state;

	assert_gs_ok(gs_plan_retention_at(p, 0, &r, &err), &err);
	assert_int_equal(r.strategy, GS_STRATEGY_DEDICATED);
	assert_int_equal(r.shared, 0);
	assert_int_equal(r.before, 708333);
	assert_int_equal(r.after_low, 708333);
	assert_int_equal(r.after_high, 708333);
	assert_int_equal(r.pays, 1);
	gs_plan_free(p);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_rows),
		cmocka_unit_test(test_later_directory),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_plan_prices),
		cmocka_unit_test(test_fraction),
		cmocka_unit_test(test_dedicated),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
