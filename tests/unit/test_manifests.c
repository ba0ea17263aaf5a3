/*
 * test_manifests.c - the workloads' manifests (lib/scenario/manifests.c):
 * the real samples (fixtures/manifests/, from shared/samples/pods) load,
 * their pod templates and GPU containers are found; a JSON List, a YAML
 * stream with objects in and out of a namespace; copies that render as
 * they were read; and hostile files refused with located errors.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "scenario/manifests.h"

#define DIR "fixtures/manifests/"

static gs_manifests *load(const char *path)
{
	gs_manifests *m = NULL;
	gs_error err;
	assert_gs_ok(gs_manifests_load(path, &m, &err), &err);
	return m;
}

static const gs_manifest *find(const gs_manifests *m, gs_object_kind k, const char *ns,
                               const char *name, const char *dflt)
{
	const gs_manifest *o = NULL;
	gs_error err;
	assert_gs_ok(gs_manifests_find(m, k, ns, name, dflt, &o, &err), &err);
	return o;
}

static const char *container(const gs_manifests *m, const gs_manifest *o, const char *want)
{
	const gs_node *c = NULL;
	const char *name = NULL;
	gs_error err;
	assert_gs_ok(gs_manifest_container(m, o, want, &c, &name, &err), &err);
	assert_string_equal(gs_node_get(c, "name")->text, name);
	return name;
}

/* Each real sample: its object, and the container that gets the GPU. */
static void test_samples(void **state)
{
	static const struct {
		const char *file;
		gs_object_kind kind;
		const char *ns, *name, *container;
		size_t objects;
	} cases[] = {
		{ "nvidia-docs-time-slicing-verification.deployment.yaml", GS_OBJECT_DEPLOYMENT,
		  NULL, "time-slicing-verification", "cuda-sample-vector-add", 1 },
		{ "k8s-device-plugin-testdata-job-1.yaml", GS_OBJECT_JOB, NULL, "j-e2e-1",
		  "cuda-container", 1 },
		{ "nvidia-docs-cuda-vectoradd-mig-2g.10gb.pod.yaml", GS_OBJECT_POD, NULL,
		  "cuda-vectoradd", "cuda-vectoradd", 1 },
		{ "nvidia-docs-cuda-vectoradd-mig-single-nodeselector.pod.yaml", GS_OBJECT_POD,
		  NULL, "cuda-vectoradd", "vectoradd", 1 },
		{ "openshift-conformance-ts-share.deployment.yaml", GS_OBJECT_DEPLOYMENT,
		  "gpu-sharing-test", "ts-share", "cuda", 1 },
		{ "openshift-conformance-dra-gpu-test.resourceclaim+pod.yaml", GS_OBJECT_POD,
		  "dra-test", "dra-gpu-test", "gpu-test", 3 },
	};
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_LEN(cases); i++) {
		char path[256];
		gs_manifests *m;
		const gs_manifest *o;
		snprintf(path, sizeof path, DIR "%s", cases[i].file);
		m = load(path);
		assert_int_equal(gs_manifests_count(m), cases[i].objects);
		o = find(m, cases[i].kind, cases[i].ns, cases[i].name, "default");
		assert_string_equal(o->name, cases[i].name);
		assert_string_equal(container(m, o, NULL), cases[i].container);
		assert_string_equal(container(m, o, cases[i].container), cases[i].container);
		gs_manifests_free(m);
	}
}

/* The Namespace and the ResourceClaim are kept but are not workloads. */
static void test_other_kinds(void **state)
{
	gs_manifests *m = load(DIR "openshift-conformance-dra-gpu-test.resourceclaim+pod.yaml");
	const gs_manifest *ns = gs_manifests_at(m, 0), *claim = gs_manifests_at(m, 1);
	const gs_node *spec;
	gs_error err;
	(void)state;

	assert_string_equal(ns->kind, "Namespace");
	assert_false(ns->workload);
	assert_null(ns->namespace_);
	assert_string_equal(claim->kind, "ResourceClaim");
	assert_string_equal(claim->namespace_, "dra-test");
	assert_int_equal(claim->tree->line, 6);
	assert_int_equal(gs_manifest_pod_spec(m, claim, &spec, &err), GS_EINVAL);
	gs_manifests_free(m);
}

static void test_json_list(void **state)
{
	gs_manifests *m = load(DIR "list.json");
	const gs_manifest *chat, *cron;
	const gs_node *spec, *cs, *c;
	const char *names[4], *name;
	size_t n;
	gs_error err;
	(void)state;

	assert_int_equal(gs_manifests_count(m), 3);
	chat = find(m, GS_OBJECT_DEPLOYMENT, "ml", "chat", "default");
	assert_gs_ok(gs_manifest_containers(m, chat, &cs, names, 4, &n, &err), &err);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "server");
	assert_string_equal(names[1], "metrics");
	assert_string_equal(container(m, chat, "metrics"), "metrics");
	assert_int_equal(gs_manifest_container(m, chat, NULL, &c, &name, &err), GS_ESCHEMA);
	assert_gs_error(&err, DIR "list.json:15:27: error: the Deployment 'chat' has 2 "
	                      "containers (server, metrics): say which uses the GPU with the "
	                      "workload's object.container");
	assert_int_equal(gs_manifest_container(m, chat, "serve", &c, &name, &err), GS_ENOTFOUND);
	assert_gs_error(&err, DIR "list.json:15:27: error: the Deployment 'chat' has no "
	                      "container 'serve' (it has server, metrics)");
	cron = find(m, GS_OBJECT_CRONJOB, NULL, "nightly-eval", "ml");
	assert_gs_ok(gs_manifest_pod_spec(m, cron, &spec, &err), &err);
	assert_string_equal(gs_node_get(spec, "restartPolicy")->text, "Never");
	assert_string_equal(container(m, cron, NULL), "eval");
	assert_string_equal(container(m, find(m, GS_OBJECT_STATEFULSET, "ml", "embed", "x"),
	                              NULL), "embed");
	/* Not found names what the file has of the kind. */
	assert_int_equal(gs_manifests_find(m, GS_OBJECT_DEPLOYMENT, NULL, "chat", "default",
	                                   &cron, &err), GS_ENOTFOUND);
	assert_gs_error(&err, DIR "list.json: error: no Deployment 'chat' in namespace default "
	                      "among the manifests (it has ml/chat)");
	assert_int_equal(gs_manifests_find(m, GS_OBJECT_JOB, "ml", "chat", "default", &cron,
	                                   &err), GS_ENOTFOUND);
	assert_gs_error(&err, DIR "list.json: error: no Job 'chat' in namespace ml among the "
	                      "manifests (it has no object of that kind)");
	gs_manifests_free(m);
}

/* Objects without a namespace are in the workload file's. */
static void test_default_namespace(void **state)
{
	gs_manifests *m = load(DIR "stream.yaml");
	const gs_manifest *o;
	gs_workload w;
	gs_error err;
	(void)state;

	assert_int_equal(gs_manifests_count(m), 3);
	o = find(m, GS_OBJECT_DEPLOYMENT, NULL, "chat", "default");
	assert_null(o->namespace_);
	assert_int_equal(o->tree->line, 11);
	o = find(m, GS_OBJECT_DEPLOYMENT, "ml", "chat", "team-a");
	assert_string_equal(o->namespace_, "ml");
	/* With the file's namespace ml, both are ml/chat. */
	assert_int_equal(gs_manifests_find(m, GS_OBJECT_DEPLOYMENT, NULL, "chat", "ml", &o,
	                                   &err), GS_ESCHEMA);
	assert_gs_error(&err, DIR "stream.yaml:28:1: error: a second Deployment 'chat' in "
	                      "namespace ml (the first, at line 11, gives no namespace, so it "
	                      "is in ml too)");
	/* A workload's object, with the defaults filled in. */
	memset(&w, 0, sizeof w);
	w.name = "chat";
	assert_gs_ok(gs_manifests_find_ref(m, &w, "default", &o, &err), &err);
	assert_int_equal(o->tree->line, 11);
	w.object.namespace_ = "ml";
	assert_gs_ok(gs_manifests_find_ref(m, &w, "default", &o, &err), &err);
	assert_int_equal(o->tree->line, 28);
	w.object.kind = GS_OBJECT_STATEFULSET;
	assert_int_equal(gs_manifests_find_ref(m, &w, "default", &o, &err), GS_ENOTFOUND);
	gs_manifests_free(m);
}

/* A copy renders as it was read: plain numbers and booleans plain,
 * quoted strings quoted; changing it leaves the set as it was. */
static void test_copy(void **state)
{
	gs_manifests *m = load(DIR "stream.yaml");
	const gs_manifest *o = find(m, GS_OBJECT_DEPLOYMENT, NULL, "chat", "default");
	gs_node *copy = gs_manifest_copy(o), *again = NULL;
	char *text = NULL;
	gs_error err;
	(void)state;

	assert_non_null(copy);
	assert_gs_ok(gs_yaml_render(copy, &text, &err), &err);
	assert_non_null(strstr(text, "  replicas: 2\n"));
	assert_non_null(strstr(text, "\"on\": \"yes\""));
	assert_non_null(strstr(text, "value: \"3\""));
	assert_non_null(strstr(text, "value: \"true\""));
	assert_non_null(strstr(text, "containerPort: 8080"));
	assert_non_null(strstr(text, "tty: true"));
	/* Read again, the same tree. */
	assert_gs_ok(gs_yaml_read_buffer("copy", text, strlen(text), &again, &err), &err);
	assert_string_equal(gs_node_get(gs_node_get(again, "spec"), "replicas")->text, "2");
	assert_false(gs_node_get(gs_node_get(again, "spec"), "replicas")->quoted);
	gs_node_put(gs_node_get(copy, "spec"), "paused", gs_node_bool(1));
	assert_null(gs_node_get(gs_node_get(o->tree, "spec"), "paused"));
	gs_node_free(again);
	gs_node_free(copy);
	free(text);
	gs_manifests_free(m);
}

/* Loads text from a temporary file; returns the error code. */
static int load_text(const char *text, gs_error *err, char *path)
{
	gs_manifests *m = NULL;
	int fd, rc;

	strcpy(path, "/tmp/gs-manifests-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	rc = gs_manifests_load(path, &m, err);
	assert_null(m);
	unlink(path);
	return rc;
}

static void expect(const char *text, int code, const char *want)
{
	char path[64], full[1024];
	gs_error err;
	int rc = load_text(text, &err, path);

	assert_int_equal(rc, code);
	snprintf(full, sizeof full, "%s%s", path, want);
	assert_gs_error(&err, full);
}

#define DEPLOY "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: chat\n"

static void test_hostile(void **state)
{
	gs_manifests *m = NULL;
	gs_error err;
	char *big;
	(void)state;

	expect("", GS_ESCHEMA, ": error: no Kubernetes objects in the file (expected the "
	                       "workloads' manifests, as YAML documents or JSON)");
	expect("# only a comment\n---\n", GS_ESCHEMA, ": error: no Kubernetes objects in the "
	       "file (expected the workloads' manifests, as YAML documents or JSON)");
	expect("just some prose\n", GS_ESCHEMA, ":1:1: error: expected a Kubernetes object (a "
	       "mapping with apiVersion, kind and metadata), not a value");
	expect("- a\n- b\n", GS_ESCHEMA, ":1:1: error: expected a Kubernetes object (a mapping "
	       "with apiVersion, kind and metadata), not a list");
	expect("[1, 2]", GS_ESCHEMA, ":1:1: error: expected a Kubernetes object (a mapping "
	       "with apiVersion, kind and metadata), not a list");
	expect("a: 1\n", GS_ESCHEMA, ":1:1: error: not a Kubernetes object: no 'kind'");
	expect("kind: Deployment\nmetadata: {name: x}\n", GS_ESCHEMA,
	       ":1:1: error: the Deployment has no 'apiVersion'");
	expect("apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: x-\n", GS_ESCHEMA,
	       ":4:3: error: the Pod has no metadata.name (an object made with generateName "
	       "cannot be patched)");
	expect(DEPLOY "  namespace: My NS\n", GS_ESCHEMA,
	       ":5:14: error: metadata.namespace must be a DNS-1123 label: " GS_DNS_LABEL_RULE);
	expect(DEPLOY "---\n" DEPLOY, GS_ESCHEMA,
	       ":6:1: error: a second Deployment 'chat' in namespace (none) (the first is at "
	       "line 1)");
	expect("{\"kind\": \"List\", \"items\": {}}", GS_ESCHEMA,
	       ":1:27: error: a List needs 'items', a list of objects");
	expect("kind: List\nitems:\n- kind: List\n  items: []\n", GS_ESCHEMA,
	       ":3:3: error: a List inside a List");
	expect("kind: List\nitems:\n- 3\n", GS_ESCHEMA, ":3:3: error: expected a Kubernetes "
	       "object (a mapping with apiVersion, kind and metadata), not a value");
	expect(DEPLOY "  name: again\n", GS_ESCHEMA, ":5:3: error: duplicate key 'name'");
	expect("a: &x 1\nb: *x\n", GS_ESYNTAX, ":1:4: error: anchors are not supported");
	expect("a: [1\n", GS_ESYNTAX, ":2:1: error: did not find expected ',' or ']' while "
	       "parsing a flow sequence");
	/* Standard input is the CLI's to read. */
	assert_int_equal(gs_manifests_load("-", &m, &err), GS_EINVAL);
	assert_int_equal(gs_manifests_load(DIR "no-such.yaml", &m, &err), GS_EIO);
	/* Over the read limit: refused before parsing. */
	big = malloc(GS_READ_MAX_BYTES + 2);
	assert_non_null(big);
	memset(big, '#', GS_READ_MAX_BYTES + 1);
	big[GS_READ_MAX_BYTES + 1] = '\0';
	{
		char path[64];
		assert_int_equal(load_text(big, &err, path), GS_ELIMIT);
	}
	free(big);
}

/* The pod template's path, with the place where it breaks off. */
static void test_no_template(void **state)
{
	char path[64], want[512];
	gs_manifests *m = NULL;
	const gs_manifest *o;
	const gs_node *spec;
	gs_error err;
	FILE *f;
	(void)state;

	strcpy(path, "/tmp/gs-manifests-XXXXXX");
	assert_true(mkstemp(path) >= 0);
	f = fopen(path, "w");
	fputs(DEPLOY "spec:\n  template: []\n---\napiVersion: batch/v1\nkind: CronJob\n"
	      "metadata: {name: c}\nspec: {jobTemplate: {spec: {}}}\n---\n"
	      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: []\n", f);
	fclose(f);
	assert_gs_ok(gs_manifests_load(path, &m, &err), &err);
	o = find(m, GS_OBJECT_DEPLOYMENT, NULL, "chat", "default");
	assert_int_equal(gs_manifest_pod_spec(m, o, &spec, &err), GS_ESCHEMA);
	snprintf(want, sizeof want, "%s:6:13: error: the Deployment 'chat' has no pod template "
	         "(spec.template.spec): not a mapping", path);
	assert_gs_error(&err, want);
	o = find(m, GS_OBJECT_CRONJOB, NULL, "c", "default");
	assert_int_equal(gs_manifest_pod_spec(m, o, &spec, &err), GS_ESCHEMA);
	snprintf(want, sizeof want, "%s:11:28: error: the CronJob 'c' has no pod template "
	         "(spec.jobTemplate.spec.template.spec)", path);
	assert_gs_error(&err, want);
	o = find(m, GS_OBJECT_POD, NULL, "p", "default");
	assert_gs_ok(gs_manifest_pod_spec(m, o, &spec, &err), &err);
	assert_int_equal(gs_manifest_container(m, o, NULL, &spec, &(const char *){ NULL }, &err),
	                 GS_ESCHEMA);
	snprintf(want, sizeof want, "%s:17:15: error: the Pod 'p' has no containers", path);
	assert_gs_error(&err, want);
	gs_manifests_free(m);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_other_kinds),
		cmocka_unit_test(test_json_list),
		cmocka_unit_test(test_default_namespace),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_no_template),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
