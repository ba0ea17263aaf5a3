/*
 * test_lint_hami.c - lint on HAMi's configs and pod resources beyond the
 * one-case-per-rule table of test_lint.c: a device config inside the
 * hami-scheduler-device ConfigMap points into the file; the GPU a gpumem is
 * measured against (the pod's product label, --gpu, the catalog's largest,
 * none without a catalog); and hostile input (huge numbers, wrong types)
 * gives findings, never a crash or a failure.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

TU_CATALOG_GROUP(cat)

/* The findings of text as "LINE:COL: ID" lines (messages aside), with the
 * catalog when with_cat, and --gpu when gpu is given. Caller frees. */
static char *ids(const char *text, int with_cat, const char *gpu)
{
	gs_lint_opts o = GS_LINT_OPTS_INIT;
	gs_lint *l = NULL;
	gs_error err;
	size_t cap = 64, len = 0;
	char *out;

	if (with_cat)
		o.catalog = cat;
	if (gpu)
		assert_non_null(o.gpu = gs_gpu_find(cat, gpu));
	assert_gs_ok(gs_lint_new(&o, &l, &err), &err);
	assert_gs_ok(gs_lint_buffer(l, "t.yaml", text, strlen(text), &err), &err);
	assert_gs_ok(gs_lint_finish(l, &err), &err);
	for (size_t i = 0; i < gs_lint_count(l); i++)
		cap += strlen(gs_lint_at(l, i)->id) + 48;
	out = malloc(cap);
	assert_non_null(out);
	out[0] = '\0';
	for (size_t i = 0; i < gs_lint_count(l); i++) {
		const gs_finding *f = gs_lint_at(l, i);
		len += (size_t)snprintf(out + len, cap - len, "%lu:%lu: %s\n", f->line, f->col,
		                        f->id);
	}
	gs_lint_free(l);
	return out;
}

static void want_ids(const char *text, int with_cat, const char *gpu, const char *want)
{
	char *got = ids(text, with_cat, gpu);
	assert_string_equal(got, want);
	free(got);
}

/* The message of the only finding of text. Caller frees. */
static char *only_message(const char *text)
{
	gs_lint_opts o = GS_LINT_OPTS_INIT;
	gs_lint *l = NULL;
	gs_error err;
	char *msg;

	o.catalog = cat;
	assert_gs_ok(gs_lint_new(&o, &l, &err), &err);
	assert_gs_ok(gs_lint_buffer(l, "t.yaml", text, strlen(text), &err), &err);
	assert_int_equal(gs_lint_count(l), 1);
	msg = strdup(gs_lint_at(l, 0)->message);
	gs_lint_free(l);
	return msg;
}

/* A literal block's lines are the file's: the split count on line 9. */
static void test_configmap_positions(void **state)
{
	(void)state;
	want_ids("apiVersion: v1\n"
	         "kind: ConfigMap\n"
	         "metadata:\n"
	         "  name: hami-scheduler-device\n"
	         "data:\n"
	         "  device-config.yaml: |\n"
	         "    nvidia:\n"
	         "      resourceCountName: nvidia.com/gpu\n"
	         "      deviceSplitCount: 0\n",
	         1, NULL, "9:25: hami-split-count\n");
}

/* 40000 MiB fits an A100 80GB (81920 MiB) but not an L4 (23034 MiB); the
 * pod's product label wins over --gpu; without a catalog, nothing to
 * measure against. */
static void test_gpumem_against_which_gpu(void **state)
{
	static const char pod[] = "apiVersion: v1\n"
	                          "kind: Pod\n"
	                          "metadata: {name: p}\n"
	                          "spec:\n"
	                          "  nodeSelector: {nvidia.com/gpu.product: %s}\n"
	                          "  containers:\n"
	                          "  - resources: {limits: {nvidia.com/gpumem: 40000}}\n";
	char text[512];
	char *msg;
	(void)state;
	snprintf(text, sizeof text, pod, "NVIDIA-L4");
	want_ids(text, 1, "A100-SXM4-80GB", "7:45: hami-gpumem\n");
	msg = only_message(text);
	assert_string_equal(msg, "nvidia.com/gpumem is 40000 MiB, more than the 23034 MiB of one "
	                         "L4 (the pod's nvidia.com/gpu.product): HAMi finds no GPU for it "
	                         "and the pod stays Pending");
	free(msg);
	snprintf(text, sizeof text, pod, "NVIDIA-A100-SXM4-80GB");
	want_ids(text, 1, "L4", "");
	/* A label the catalog does not know: --gpu decides. */
	snprintf(text, sizeof text, pod, "Some-Future-GPU");
	want_ids(text, 1, "L4", "7:45: hami-gpumem\n");
	want_ids(text, 1, NULL, "");
	want_ids(text, 0, NULL, "");
}

/* A required node affinity on the product label: the largest model its
 * terms allow, when every term names known ones; else as without it. */
static void test_gpumem_against_affinity(void **state)
{
	static const char pod[] = "apiVersion: v1\n"
	                          "kind: Pod\n"
	                          "spec:\n"
	                          "  affinity:\n"
	                          "    nodeAffinity:\n"
	                          "      requiredDuringSchedulingIgnoredDuringExecution:\n"
	                          "        nodeSelectorTerms:\n"
	                          "        - matchExpressions:\n"
	                          "          - {key: nvidia.com/gpu.product, operator: In,\n"
	                          "             values: [Tesla-T4, %s]}\n"
	                          "%s"
	                          "  containers:\n"
	                          "  - resources: {limits: {nvidia.com/gpumem: 30000}}\n";
	static const char other_term[] = "        - matchExpressions:\n"
	                                 "          - {key: zone, operator: In, values: [a]}\n";
	char text[1024], *msg;
	(void)state;
	snprintf(text, sizeof text, pod, "NVIDIA-L4", "");
	msg = only_message(text);
	assert_string_equal(msg, "nvidia.com/gpumem is 30000 MiB, more than the 23034 MiB of one "
	                         "L4 (the largest the pod's node affinity allows): HAMi finds no "
	                         "GPU for it and the pod stays Pending");
	free(msg);
	snprintf(text, sizeof text, pod, "NVIDIA-A100-SXM4-80GB", "");
	want_ids(text, 1, "L4", "");
	/* A term without the label lets the pod run anywhere: --gpu decides. */
	snprintf(text, sizeof text, pod, "NVIDIA-A100-SXM4-80GB", other_term);
	want_ids(text, 1, "L4", "14:45: hami-gpumem\n");
}

/* Hostile input: numbers past any integer, values of the wrong kind. Each
 * gives a finding where HAMi would fail, and lint never fails. */
static void test_hostile_config(void **state)
{
	(void)state;
	want_ids("nvidia:\n"
	         "  deviceSplitCount: 99999999999999999999999999999999\n"
	         "  deviceMemoryScaling: 1e400\n"
	         "  deviceCoreScaling: [1, 2]\n"
	         "  defaultMemory: {a: 1}\n"
	         "  defaultCores: -99999999999999999999\n"
	         "  resourceCountName: {x: y}\n"
	         "  overwriteEnv: [true]\n"
	         "  gpuCorePolicy: ~\n"
	         "  \"\": 1\n",
	         1, NULL,
	         "2:21: hami-value\n"
	         "3:24: hami-value\n"
	         "4:22: hami-value\n"
	         "5:18: hami-value\n"
	         "6:17: hami-value\n"
	         "7:22: hami-value\n"
	         "8:17: hami-value\n"
	         "10:3: hami-unknown-key\n");
	want_ids("{\"nodeconfig\": \"all\"}\n", 1, NULL, "1:16: hami-value\n");
	want_ids("{\"nodeconfig\": [1, [], {\"name\": {\"a\": 1}}]}\n", 1, NULL,
	         "1:17: hami-value\n"
	         "1:20: hami-value\n"
	         "1:33: hami-value\n"
	         "1:33: hami-value\n");
	want_ids("{\"nodeconfig\": null}\n", 1, NULL, "");
}

static void test_hostile_pod(void **state)
{
	char *msg;
	(void)state;
	want_ids("apiVersion: v1\n"
	         "kind: Pod\n"
	         "metadata: {name: p}\n"
	         "spec:\n"
	         "  containers:\n"
	         "  - \"not a container\"\n"
	         "  - resources: [1, 2]\n"
	         "  - resources: {limits: [nvidia.com/gpumem]}\n"
	         "  - resources:\n"
	         "      limits:\n"
	         "        nvidia.com/gpumem: 99999999999999999999999999\n"
	         "        nvidia.com/gpucores: {a: 1}\n"
	         "        nvidia.com/gpumem-percentage:\n"
	         "  - resources:\n"
	         "      limits: {nvidia.com/gpumem: 99999999999Gi}\n",
	         1, NULL,
	         "11:28: hami-gpumem\n"
	         "12:30: hami-resource-value\n"
	         "13:38: hami-resource-value\n"
	         "13:38: hami-gpumem-both\n"
	         "15:35: hami-resource-value\n");
	msg = only_message("kind: Pod\n"
	                   "apiVersion: v1\n"
	                   "spec:\n"
	                   "  containers:\n"
	                   "  - resources: {limits: {nvidia.com/gpumem: -5}}\n");
	assert_string_equal(msg, "nvidia.com/gpumem is -5, but a resource cannot be negative; "
	                         "write the MiB the container needs");
	free(msg);
	msg = only_message("kind: Pod\n"
	                   "apiVersion: v1\n"
	                   "spec:\n"
	                   "  containers:\n"
	                   "  - resources: {limits: {nvidia.com/gpumem: 512Ki}}\n");
	assert_string_equal(msg, "nvidia.com/gpumem is '512Ki', but HAMi takes the number as "
	                         "MiB, so it asks for 524288 MiB; write the MiB as a plain "
	                         "number: 1");
	free(msg);
}

/* GPU Operator values keep their checker: devicePlugin.config is not HAMi's. */
static void test_operator_values_are_not_hami(void **state)
{
	(void)state;
	want_ids("devicePlugin:\n"
	         "  config:\n"
	         "    name: cfg\n"
	         "    default: missing\n"
	         "    data:\n"
	         "      any: |\n"
	         "        version: v1\n",
	         1, NULL, "4:14: values-default\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_configmap_positions),
		cmocka_unit_test(test_gpumem_against_which_gpu),
		cmocka_unit_test(test_gpumem_against_affinity),
		cmocka_unit_test(test_hostile_config),
		cmocka_unit_test(test_hostile_pod),
		cmocka_unit_test(test_operator_values_are_not_hami),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
