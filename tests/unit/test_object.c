/*
 * test_object.c - the keys that name the Kubernetes objects: a workload's
 * `object` ({kind, name, namespace, container}), the file's `namespace`
 * and `placement`: their defaults, the names they refuse (with the place),
 * the REPL's `set` one sub-key at a time, and the written-back file read
 * again to the same values.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "base/base.h"

TU_CATALOG_GROUP(cat)

#define HEAD "version: 1\n"
#define WL "workloads:\n  - name: chat\n    gpuMemory: 10GiB\n    compute: 40%\n"

static const gs_workload *first(const gs_scenario *s)
{
	return gs_scenario_workload_at(s, 0);
}

static void test_defaults(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", HEAD WL);
	const gs_workload *w = first(s);
	(void)state;

	assert_int_equal(w->object.kind, GS_OBJECT_DEPLOYMENT);
	assert_null(w->object.name);
	assert_null(w->object.namespace_);
	assert_null(w->object.container);
	assert_string_equal(gs_scenario_namespace(s), "default");
	assert_int_equal(gs_scenario_placement(s), GS_PLACEMENT_ROBUST);
	gs_scenario_free(s);
}

static void test_all_keys(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             HEAD "namespace: ml\nplacement: pinned\n" WL
	                                  "    object: {kind: CronJob, name: chat.v2,"
	                                  " namespace: serving, container: server}\n");
	const gs_workload *w = first(s);
	(void)state;

	assert_int_equal(w->object.kind, GS_OBJECT_CRONJOB);
	assert_string_equal(w->object.name, "chat.v2");
	assert_string_equal(w->object.namespace_, "serving");
	assert_string_equal(w->object.container, "server");
	assert_string_equal(gs_scenario_namespace(s), "ml");
	assert_int_equal(gs_scenario_placement(s), GS_PLACEMENT_PINNED);
	assert_string_equal(gs_object_kind_name(GS_OBJECT_STATEFULSET), "StatefulSet");
	assert_string_equal(gs_object_kind_name((gs_object_kind)99), "unknown");
	gs_scenario_free(s);
}

static void test_kinds(void **state)
{
	static const char *const names[] = { "Deployment", "StatefulSet", "Job", "CronJob",
		                                 "Pod" };
	(void)state;

	for (int k = 0; k < 5; k++) {
		char yaml[256];
		gs_scenario *s;
		snprintf(yaml, sizeof yaml, "%s    object: {kind: %s}\n", HEAD WL, names[k]);
		s = tu_scenario(cat, "t.yaml", yaml);
		assert_int_equal(first(s)->object.kind, k);
		assert_null(first(s)->object.name);
		gs_scenario_free(s);
	}
}

static void expect_error(const char *yaml, const char *want)
{
	gs_scenario *s = NULL;
	gs_error err;

	assert_int_equal(gs_scenario_load_buffer(cat, "t.yaml", yaml, strlen(yaml), &s, &err),
	                 GS_ESCHEMA);
	assert_null(s);
	assert_gs_error(&err, want);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error(HEAD WL "    object: {kind: deployment}\n",
	             "t.yaml:6:20: error: invalid object kind 'deployment' (did you mean "
	             "'Deployment'?)");
	expect_error(HEAD WL "    object: {kind: ReplicaSet}\n",
	             "t.yaml:6:20: error: invalid object kind 'ReplicaSet' (expected "
	             "Deployment, StatefulSet, Job, CronJob or Pod)");
	expect_error(HEAD WL "    object: {nmae: x}\n",
	             "t.yaml:6:14: error: unknown key 'nmae' (did you mean 'name'?)");
	expect_error(HEAD WL "    object: {name: -chat}\n",
	             "t.yaml:6:20: error: object name '-chat' must be a DNS-1123 subdomain: "
	             GS_DNS_SUBDOMAIN_RULE);
	expect_error(HEAD WL "    object: {name: a..b}\n",
	             "t.yaml:6:20: error: object name 'a..b' must be a DNS-1123 subdomain: "
	             GS_DNS_SUBDOMAIN_RULE);
	expect_error(HEAD WL "    object: {namespace: a.b}\n",
	             "t.yaml:6:25: error: object namespace 'a.b' must be a DNS-1123 label: "
	             GS_DNS_LABEL_RULE);
	expect_error(HEAD WL "    object: {container: [server]}\n",
	             "t.yaml:6:25: error: 'object.container' must be a string");
	expect_error(HEAD WL "    object: [Job]\n",
	             "t.yaml:6:13: error: 'object' must be a mapping, not a list");
	expect_error(HEAD "namespace: Prod\n" WL,
	             "t.yaml:2:12: error: namespace 'Prod' must be a DNS-1123 label: "
	             GS_DNS_LABEL_RULE);
	expect_error(HEAD "placement: exact\n" WL,
	             "t.yaml:2:12: error: invalid placement 'exact' (expected robust or pinned)");
}

static void test_subdomain(void **state)
{
	char long_name[300];
	(void)state;

	assert_true(gs_is_dns_subdomain("chat"));
	assert_true(gs_is_dns_subdomain("chat.v2.example"));
	assert_true(gs_is_dns_subdomain("0a-b"));
	assert_false(gs_is_dns_subdomain(""));
	assert_false(gs_is_dns_subdomain("."));
	assert_false(gs_is_dns_subdomain("a."));
	assert_false(gs_is_dns_subdomain(".a"));
	assert_false(gs_is_dns_subdomain("a.-b"));
	assert_false(gs_is_dns_subdomain("A"));
	assert_false(gs_is_dns_subdomain("a_b"));
	/* 253 characters pass, 254 do not; a part of 64 does not. */
	memset(long_name, 'a', 253);
	for (int i = 63; i < 253; i += 64)
		long_name[i] = '.';
	long_name[253] = '\0';
	assert_true(gs_is_dns_subdomain(long_name));
	long_name[253] = 'a';
	long_name[254] = '\0';
	assert_false(gs_is_dns_subdomain(long_name));
	memset(long_name, 'a', 64);
	long_name[64] = '\0';
	assert_false(gs_is_dns_subdomain(long_name));
}

static void test_set(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", HEAD WL);
	gs_error err;
	(void)state;

	assert_gs_ok(gs_scenario_set(s, "chat", "object.kind", "StatefulSet", &err), &err);
	assert_gs_ok(gs_scenario_set(s, "chat", "object.container", "server", &err), &err);
	assert_int_equal(first(s)->object.kind, GS_OBJECT_STATEFULSET);
	assert_string_equal(first(s)->object.container, "server");
	/* A bad value changes nothing. */
	assert_int_equal(gs_scenario_set(s, "chat", "object.name", "Chat", &err), GS_ESCHEMA);
	assert_null(first(s)->object.name);
	assert_int_equal(first(s)->object.kind, GS_OBJECT_STATEFULSET);
	assert_int_equal(gs_scenario_set(s, "chat", "object.kinf", "Job", &err), GS_ESCHEMA);
	assert_gs_error(&err, "error: unknown key 'object.kinf' (did you mean 'kind'?)");
	assert_int_equal(gs_scenario_set(s, "chat", "object", "Job", &err), GS_EINVAL);
	assert_int_equal(gs_scenario_set(s, "chat", "kind.x", "Job", &err), GS_ESCHEMA);
	/* An empty value is the sub-key's default again; object= all of them. */
	assert_gs_ok(gs_scenario_set(s, "chat", "object.container", "", &err), &err);
	assert_null(first(s)->object.container);
	assert_int_equal(first(s)->object.kind, GS_OBJECT_STATEFULSET);
	assert_gs_ok(gs_scenario_set(s, "chat", "object.namespace", "ml", &err), &err);
	assert_gs_ok(gs_scenario_set(s, "chat", "object", "", &err), &err);
	assert_int_equal(first(s)->object.kind, GS_OBJECT_DEPLOYMENT);
	assert_null(first(s)->object.namespace_);
	assert_gs_ok(gs_scenario_set(s, NULL, "namespace", "team-a", &err), &err);
	assert_gs_ok(gs_scenario_set(s, NULL, "placement", "pinned", &err), &err);
	assert_string_equal(gs_scenario_namespace(s), "team-a");
	assert_int_equal(gs_scenario_placement(s), GS_PLACEMENT_PINNED);
	gs_scenario_free(s);
}

static char *render(const gs_scenario *s)
{
	gs_doc *doc = NULL;
	char *text = NULL;
	gs_error err;

	assert_gs_ok(gs_doc_scenario(s, &doc, &err), &err);
	assert_gs_ok(gs_doc_render(doc, GS_FORMAT_YAML, &text, &err), &err);
	gs_doc_free(doc);
	return text;
}

/* Written back and read again: the same keys, and only those set. */
static void test_round_trip(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             HEAD "namespace: ml\nplacement: pinned\n" WL
	                                  "    object: {kind: Job, container: server}\n"
	                                  "  - name: plain\n    gpuMemory: 4GiB\n"
	                                  "    compute: 20%\n");
	gs_scenario *back, *copy = NULL;
	char *text = render(s), *again;
	gs_error err;
	(void)state;

	assert_non_null(strstr(text, "namespace: ml\nplacement: pinned\nworkloads:\n"));
	assert_non_null(strstr(text, "  object:\n    kind: Job\n    container: server\n"
	                             "- name: plain\n"));
	assert_null(strstr(strstr(text, "- name: plain"), "object"));
	back = tu_scenario(cat, "back.yaml", text);
	assert_int_equal(first(back)->object.kind, GS_OBJECT_JOB);
	assert_null(first(back)->object.name);
	assert_string_equal(first(back)->object.container, "server");
	assert_string_equal(gs_scenario_namespace(back), "ml");
	again = render(back);
	assert_string_equal(text, again);
	/* A clone keeps them too. */
	assert_gs_ok(gs_scenario_clone(back, &copy, &err), &err);
	assert_string_equal(gs_scenario_workload_at(copy, 0)->object.container, "server");
	assert_int_equal(gs_scenario_placement(copy), GS_PLACEMENT_PINNED);
	free(text);
	free(again);
	gs_scenario_free(s);
	gs_scenario_free(back);
	gs_scenario_free(copy);
}

/* The defaults are not written: files without the keys stay as they were. */
static void test_defaults_not_written(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml", HEAD WL "    object: {kind: Deployment}\n");
	char *text = render(s);
	(void)state;

	assert_null(strstr(text, "object"));
	assert_null(strstr(text, "namespace"));
	assert_null(strstr(text, "placement"));
	free(text);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_keys),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_subdomain),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_defaults_not_written),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
