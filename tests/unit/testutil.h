/*
 * testutil.h - shared by the cmocka unit tests.
 *
 * Tests run from tests/ (make check does `cd tests`), so fixtures are at
 * fixtures/ and the shipped profiles at ../profiles.
 */
#ifndef GS_TESTUTIL_H
#define GS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gpushare.h"

#define TEST_PROFILES "../profiles"

/* Fails the test with the library's message when rc is an error. */
#define assert_gs_ok(rc, err)                                                 \
	do {                                                                      \
		int rc_ = (rc);                                                       \
		if (rc_ < 0) {                                                        \
			char buf_[1024];                                                  \
			fail_msg("%s: %s", #rc, gs_error_format((err), buf_, sizeof buf_)); \
		}                                                                     \
	} while (0)

/* Asserts that the formatted error equals `want` exactly. */
#define assert_gs_error(err, want)                                            \
	do {                                                                      \
		char buf_[1024];                                                      \
		assert_string_equal(gs_error_format((err), buf_, sizeof buf_), (want)); \
	} while (0)

/* For the planning tests: a catalog, a scenario from a buffer (named
 * `name` in messages) or a file, and its plan. Each fails the test with the
 * library's message; the caller frees what it gets. */
static inline int tu_catalog(const char *dirs, gs_catalog **out)
{
	gs_error err;
	return gs_catalog_load(dirs, out, &err) < 0 ? -1 : 0;
}

/* A test file's shipped catalog, loaded once for its group:
 * TU_CATALOG_GROUP(cat) defines `cat` and cmocka's group setup and
 * teardown, tu_catalog_setup and tu_catalog_teardown. */
#define TU_CATALOG_GROUP(var)                                                 \
	static gs_catalog *var;                                               \
	static int tu_catalog_setup(void **state)                             \
	{                                                                     \
		(void)state;                                                  \
		return tu_catalog(TEST_PROFILES, &var);                       \
	}                                                                     \
	static int tu_catalog_teardown(void **state)                          \
	{                                                                     \
		(void)state;                                                  \
		gs_catalog_free(var);                                         \
		return 0;                                                     \
	}

static inline gs_scenario *tu_scenario(const gs_catalog *cat, const char *name,
                                       const char *yaml)
{
	gs_scenario *s = NULL;
	gs_error err;
	assert_gs_ok(gs_scenario_load_buffer(cat, name, yaml, strlen(yaml), &s, &err), &err);
	return s;
}

static inline gs_scenario *tu_scenario_file(const gs_catalog *cat, const char *path)
{
	gs_scenario *s = NULL;
	gs_error err;
	assert_gs_ok(gs_scenario_load(cat, path, &s, &err), &err);
	return s;
}

static inline gs_plan *tu_plan(const gs_scenario *s)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	gs_error err;
	assert_gs_ok(gs_plan_make(s, &po, &p, &err), &err);
	return p;
}

/* Plans s, then frees it: the plan costs `cost` and reports `bound`,
 * known by `by`. */
static inline void tu_expect_plan(gs_scenario *s, gs_micros cost, gs_micros bound,
                                  const char *by)
{
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	assert_int_equal(sum->after_per_hour, cost);
	assert_int_equal(sum->lower_bound_per_hour, bound);
	assert_string_equal(sum->lower_bound_by, by);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Memory-heavy, compute-heavy and small replicas of one tenant on L4s
 * (19.76 GiB and 90% for shared pods): the three fit one GPU together
 * (17.5 GiB, 87%) but no two of a kind do, so 4 GPUs hold 12 replicas
 * (test_opt.c proves it, test_cg.c bounds it). */
#define TU_TRIPLES "version: 1\nplacement: pinned\ninstances: [g6.xlarge]\nworkloads:\n" \
	"  - {name: mem, replicas: 4, gpuMemory: 11GiB, compute: 12%}\n" \
	"  - {name: cpu, replicas: 4, gpuMemory: 1.5GiB, compute: 60%}\n" \
	"  - {name: small, replicas: 4, gpuMemory: 5GiB, compute: 15%}\n"

#endif
