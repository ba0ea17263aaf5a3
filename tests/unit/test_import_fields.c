/*
 * test_import_fields.c - gs_import_metric_field names exactly the DCGM
 * fields the import reads: a caller that queries Prometheus for them (the
 * CLI's --prometheus) misses none and asks for nothing the import drops.
 * Each field, as a query_range body in a memory source, must count as a
 * sample; a field not in the list must not.
 */
#include <stdlib.h>

#include "testutil.h"

#define IMPORT "fixtures/import/"

TU_CATALOG_GROUP(cat)

static int read_file(gs_inventory *inv, gs_import_input what, const char *path)
{
	gs_source src;
	gs_error err;
	int rc = gs_source_open_file(&src, path, &err);
	if (rc == 0)
		rc = gs_import_read(inv, what, &src, &err);
	gs_source_close(&src);
	assert_gs_ok(rc, &err);
	return rc;
}

/* One series of field on gpu 0 of gpu-h100, one point, as Prometheus
 * answers /api/v1/query_range. */
static void read_body(gs_inventory *inv, const char *field)
{
	char body[512];
	gs_memory_source mem;
	gs_source src;
	gs_error err;
	snprintf(body, sizeof body,
	         "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":"
	         "[{\"metric\":{\"__name__\":\"%s\",\"Hostname\":\"gpu-h100\",\"gpu\":\"0\"},"
	         "\"values\":[[1732200000,\"0.5\"]]}]}}", field);
	gs_source_memory(&src, &mem, "http://prometheus/api/v1/query_range", body, strlen(body));
	assert_gs_ok(gs_import_read(inv, GS_INPUT_METRICS, &src, &err), &err);
}

static void test_fields_are_read(void **state)
{
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_inventory *inv = NULL;
	gs_error err;
	size_t n = 0;
	const char *f;

	(void)state;
	assert_gs_ok(gs_import_begin(cat, &o, &inv, &err), &err);
	read_file(inv, GS_INPUT_NODES, IMPORT "nodes.json");
	read_file(inv, GS_INPUT_PODS, IMPORT "pods.json");
	for (; (f = gs_import_metric_field(n)); n++) {
		assert_non_null(strstr(f, "DCGM_FI_"));
		read_body(inv, f);
		assert_int_equal(gs_import_metric_field(n), f); /* static: the same string */
	}
	read_body(inv, "DCGM_FI_DEV_SM_CLOCK"); /* exported, not read */
	assert_gs_ok(gs_import_end(inv, &err), &err);
	assert_int_equal(n, 4);
	assert_string_equal(gs_import_metric_field(0), "DCGM_FI_PROF_SM_ACTIVE");
	assert_string_equal(gs_import_metric_field(3), "DCGM_FI_DEV_FB_USED");
	assert_null(gs_import_metric_field(4));
	assert_null(gs_import_metric_field((size_t)-1));
	/* Each listed field counted once; the clock not at all. */
	assert_int_equal(gs_import_summary_get(inv)->samples, n);
	assert_int_equal(gs_import_summary_get(inv)->unmatched, 0);
	gs_import_free(inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_are_read),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
