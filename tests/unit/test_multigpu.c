/*
 * test_multigpu.c - replicas of several GPUs (gpusPerReplica): the key
 * read, written back and refused; a replica of N GPUs planned dedicated on
 * one node with N GPUs or more, priced as N of its GPUs; robust placement
 * filling such nodes only where all their workloads fit at once, pinned
 * letting others fill them; and the
 * patch and DRA template requesting N.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

TU_CATALOG_GROUP(cat)

/* A file of one workload of 3 A10Gs per replica, then `more` workloads,
 * with `top` keys, on the g5 instances: g5.xlarge to g5.16xlarge have 1
 * GPU, g5.12xlarge and g5.24xlarge 4, g5.48xlarge 8. */
static gs_scenario *wide(const char *top, const char *replicas, const char *more)
{
	char yaml[2048];
	snprintf(yaml, sizeof yaml,
	         "version: 1\n"
	         "cloud: aws\n"
	         "instances: [\"g5.*\"]\n"
	         "%s"
	         "workloads:\n"
	         "  - name: ollama\n"
	         "    object: {container: ollama}\n"
	         "    replicas: %s\n"
	         "    gpusPerReplica: 3\n"
	         "    gpuMemory: 20GiB\n"
	         "    compute: 60%%\n"
	         "    measuredOn: A10G\n"
	         "%s",
	         top, replicas, more);
	return tu_scenario(cat, "t.yaml", yaml);
}

static const gs_workload *find(const gs_scenario *s, const char *name)
{
	const gs_workload *w = gs_scenario_find(s, name);
	assert_non_null(w);
	return w;
}

/* ---- the key ------------------------------------------------------------- */

/* Read, defaulted, written back only above 1, and read again alike. */
static void test_key_round_trip(void **state)
{
	gs_scenario *s = wide("", "2", "  - {name: small, gpuMemory: 4GiB, compute: 20%}\n"), *back;
	gs_doc *doc;
	gs_error err;
	char *text;
	(void)state;
	assert_int_equal(find(s, "ollama")->gpus_per_replica, 3);
	assert_int_equal(find(s, "small")->gpus_per_replica, 1);
	assert_gs_ok(gs_doc_scenario(s, &doc, &err), &err);
	assert_gs_ok(gs_doc_render(doc, GS_FORMAT_YAML, &text, &err), &err);
	assert_non_null(strstr(text, "  replicas: 2\n  gpusPerReplica: 3\n  gpuMemory:"));
	/* Only once: small's 1 is left out. */
	assert_null(strstr(strstr(text, "gpusPerReplica") + 1, "gpusPerReplica"));
	back = tu_scenario(cat, "back.yaml", text);
	assert_int_equal(find(back, "ollama")->gpus_per_replica, 3);
	assert_int_equal(find(back, "small")->gpus_per_replica, 1);
	free(text);
	gs_doc_free(doc);
	gs_scenario_free(back);
	gs_scenario_free(s);
}

/* set takes it as a file does, and refuses what a file refuses. */
static void test_key_set(void **state)
{
	gs_scenario *s = wide("", "1", ""), *copy;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_scenario_set(s, "ollama", "gpusPerReplica", "8", &err), &err);
	assert_int_equal(find(s, "ollama")->gpus_per_replica, 8);
	assert_int_equal(gs_scenario_set(s, "ollama", "gpusPerReplica", "9", &err), GS_ESCHEMA);
	assert_gs_error(&err, "error: gpusPerReplica must be a whole number from 1 to 8, not "
	                      "'9'");
	assert_int_equal(gs_scenario_set(s, "ollama", "gpusPerReplica", "two", &err),
	                 GS_ESCHEMA);
	assert_int_equal(find(s, "ollama")->gpus_per_replica, 8);
	assert_gs_ok(gs_scenario_clone(s, &copy, &err), &err);
	assert_int_equal(find(copy, "ollama")->gpus_per_replica, 8);
	gs_scenario_free(copy);
	gs_scenario_free(s);
}

/* No allowed instance has 3 GPUs: the loader names the largest. */
static void test_key_too_wide(void **state)
{
	static const char yaml[] = "version: 1\n"
	                           "cloud: aws\n"
	                           "instances: [\"g5.xlarge\", \"g5.2xlarge\"]\n"
	                           "workloads:\n"
	                           "  - {name: ollama, gpusPerReplica: 3, gpuMemory: 20GiB, "
	                           "compute: 60%}\n";
	gs_scenario *s = NULL;
	gs_error err;
	(void)state;
	assert_int_equal(gs_scenario_load_buffer(cat, "t.yaml", yaml, strlen(yaml), &s, &err),
	                 GS_ENOFIT);
	assert_gs_error(&err, "t.yaml:5:5: error: workload 'ollama' needs 3 GPUs per replica "
	                      "on one node, more than any instance it may run on has (the "
	                      "most: 1, g5.xlarge)");
	assert_null(s);
}

/* ---- the plan ------------------------------------------------------------ */

/* Every GPU of node n that holds replica r of w; -1 when it holds some
 * other replica too, or one of a GPU is shared. */
static int gpus_of(const gs_plan_node *n, const gs_workload *w, int r)
{
	int k = 0;
	for (size_t g = 0; g < n->n_gpus; g++) {
		const gs_plan_gpu *pg = &n->gpus[g];
		for (size_t a = 0; a < pg->n_assignments; a++) {
			if (pg->assignments[a].workload != w || pg->assignments[a].replica != r)
				continue;
			if (pg->n_assignments != 1 || pg->strategy != GS_STRATEGY_DEDICATED)
				return -1;
			k++;
		}
	}
	return k;
}

/* One replica of 3: a g5.12xlarge ($5.672/h), GPUs 0-2 dedicated; it holds
 * 3 of the node's 4 GPUs, $4.254, the 4th idle; the plan without sharing
 * is the same node. */
static void test_one_replica_on_one_node(void **state)
{
	gs_scenario *s = wide("", "1", "");
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	const gs_plan_node *n = gs_plan_node_at(p, 0);
	const gs_plan_workload *pw = gs_plan_workload_at(p, 0);
	(void)state;
	assert_int_equal(gs_plan_node_count(p), 1);
	assert_string_equal(n->instance->type, "g5.12xlarge");
	assert_int_equal(gpus_of(n, pw->workload, 0), 3);
	assert_int_equal(n->gpus[3].n_assignments, 0);
	assert_int_equal(pw->strategy, GS_STRATEGY_DEDICATED);
	assert_int_equal(pw->cost_per_hour, 4254000);
	assert_int_equal(pw->idle_per_hour, 1418000);
	assert_int_equal(sum->after_per_hour, 5672000);
	assert_int_equal(sum->dedicated_per_hour, 5672000);
	assert_int_equal(sum->gpus_after, 4);
	assert_int_equal(sum->gpus_dedicated, 4);
	assert_int_equal(sum->replicas, 1);
	/* 3 GPUs at 60% of 4: 45.0%. */
	assert_int_equal(sum->util_after_permille, 450);
	assert_non_null(strstr(pw->why, "dedicated 3 x A10G (60% compute, 20.00 GiB per GPU): "
	                                "needs 3 GPUs per replica, whole and on one node"));
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Five replicas of 3, 15 GPUs: never on the 1-GPU g5 instances, each
 * replica on one node; five g5.12xlarge ($28.36) beat 8-GPU g5.48xlarge
 * ($16.288 for two replicas). */
static void test_replicas_never_split(void **state)
{
	gs_scenario *s = wide("", "5", "");
	gs_plan *p = tu_plan(s);
	const gs_workload *w = find(s, "ollama");
	int placed[5] = { 0 };
	(void)state;
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		assert_true(n->instance->gpu_count >= 3);
		for (int r = 0; r < 5; r++) {
			int k = gpus_of(n, w, r);
			assert_true(k == 0 || k == 3);
			placed[r] += k > 0;
		}
	}
	for (int r = 0; r < 5; r++)
		assert_int_equal(placed[r], 1);
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 28360000);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Robust: two 1-GPU training replicas do not fill the g5.12xlarge's 4th
 * GPUs, as both may land on one node (3 + 2 > 4): 2 x $5.672 + 2 x $1.006
 * = $13.356; pinned they do ($11.344), and the robust plan says so. */
static void test_robust_and_pinned(void **state)
{
	static const char train[] = "  - {name: train, object: {container: main}, kind: training, "
	                            "replicas: 2, gpuMemory: 18GiB, compute: 80%}\n";
	gs_scenario *robust = wide("", "2", train), *pinned;
	gs_plan *p = tu_plan(robust), *q;
	(void)state;
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 13356000);
	assert_int_equal(gs_plan_summary_get(p)->pinned_per_hour, 11344000);
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		if (n->instance->gpu_count == 4)
			assert_int_equal(n->gpus[3].n_assignments, 0);
	}
	pinned = wide("placement: pinned\n", "2", train);
	q = tu_plan(pinned);
	assert_int_equal(gs_plan_summary_get(q)->after_per_hour, 11344000);
	assert_int_equal(gs_plan_node_count(q), 2);
	for (size_t i = 0; i < 2; i++) {
		const gs_plan_node *n = gs_plan_node_at(q, i);
		assert_string_equal(n->instance->type, "g5.12xlarge");
		assert_int_equal(gpus_of(n, find(pinned, "ollama"), (int)i), 3);
		assert_int_equal(n->gpus[3].n_assignments, 1);
		assert_string_equal(n->gpus[3].assignments[0].workload->name, "train");
	}
	gs_plan_free(q);
	gs_plan_free(p);
	gs_scenario_free(pinned);
	gs_scenario_free(robust);
}

/* Robust: a replica of 2 H100s and three 1-GPU dedicated ones on a node of
 * their own pool: all its workloads may land there at once (2 + 3 = 5 of
 * 8 GPUs), so one p5.48xlarge ($55.04/h) holds them, not one more
 * p5.4xlarge each ($55.04 + 3 x $6.88 = $75.68); the 2-GPU replica first,
 * on GPUs 0-1, the others on 2-4, 5-7 idle. */
static void test_robust_mixed_node(void **state)
{
	static const char yaml[] =
	    "version: 1\n"
	    "cloud: aws\n"
	    "instances: [\"p5.*\"]\n"
	    "workloads:\n"
	    "  - {name: lora, object: {container: main}, kind: training, replicas: 1,\n"
	    "     gpusPerReplica: 2, gpuMemory: 70GiB, compute: 100%, gpus: [H100-SXM5-80GB]}\n"
	    "  - {name: train, object: {container: main}, kind: training, replicas: 3,\n"
	    "     gpuMemory: 70GiB, compute: 100%, gpus: [H100-SXM5-80GB]}\n";
	gs_scenario *s = tu_scenario(cat, "t.yaml", yaml);
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	const gs_plan_node *n = gs_plan_node_at(p, 0);
	(void)state;
	assert_int_equal(sum->placement, GS_PLACEMENT_ROBUST);
	assert_int_equal(gs_plan_node_count(p), 1);
	assert_string_equal(n->instance->type, "p5.48xlarge");
	assert_int_equal(sum->after_per_hour, 55040000);
	assert_int_equal(sum->pinned_per_hour, 55040000);
	assert_int_equal(sum->gpus_after, 8);
	assert_int_equal(gpus_of(n, find(s, "lora"), 0), 2);
	for (int r = 0; r < 3; r++)
		assert_int_equal(gpus_of(n, find(s, "train"), r), 1);
	assert_string_equal(n->gpus[2].assignments[0].workload->name, "train");
	assert_int_equal(n->gpus[5].n_assignments, 0);
	/* Its pool is its own, named after its configuration. */
	assert_non_null(n->pool);
	assert_string_equal(n->pool, n->config);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Two such nodes of one configuration and the same workloads (spread:
 * node puts one replica of each on each: 2 + 1 of 8 GPUs) are two pools:
 * in one pool of both, a 1-GPU pod could land where the other planned its
 * 2-GPU one. $110.08/h, not 2 x $55.04 + 2 x $6.88. */
static void test_robust_mixed_pools(void **state)
{
	static const char yaml[] =
	    "version: 1\n"
	    "cloud: aws\n"
	    "instances: [\"p5.*\"]\n"
	    "workloads:\n"
	    "  - {name: lora, object: {container: main}, kind: training, replicas: 2,\n"
	    "     spread: node, gpusPerReplica: 2, gpuMemory: 70GiB, compute: 100%,\n"
	    "     gpus: [H100-SXM5-80GB]}\n"
	    "  - {name: train, object: {container: main}, kind: training, replicas: 2,\n"
	    "     spread: node, gpuMemory: 70GiB, compute: 100%, gpus: [H100-SXM5-80GB]}\n";
	gs_scenario *s = tu_scenario(cat, "t.yaml", yaml);
	gs_plan *p = tu_plan(s);
	(void)state;
	assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 110080000);
	assert_int_equal(gs_plan_node_count(p), 2);
	for (size_t i = 0; i < 2; i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		assert_string_equal(n->instance->type, "p5.48xlarge");
		assert_int_equal(gpus_of(n, find(s, "lora"), (int)i), 2);
		assert_int_equal(gpus_of(n, find(s, "train"), (int)i), 1);
	}
	assert_string_equal(gs_plan_node_at(p, 0)->config, gs_plan_node_at(p, 1)->config);
	assert_string_equal(gs_plan_node_at(p, 0)->pool, "p5.48xlarge-none");
	assert_string_equal(gs_plan_node_at(p, 1)->pool, "p5.48xlarge-none-p2");
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* ---- emitted ------------------------------------------------------------- */

static char *emit(const gs_plan *p, gs_emit_kind k, int dra)
{
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	gs_error err;
	char *text = NULL;
	o.dra = dra;
	assert_gs_ok(gs_emit(p, k, &o, &text, &err), &err);
	return text;
}

/* Two replicas are one Deployment of 2 pods, each requesting 3 GPUs; under
 * DRA a template of count 3. */
static void test_emit_requests_n(void **state)
{
	gs_scenario *s = wide("", "2", "");
	gs_plan *p = tu_plan(s);
	char *patch = emit(p, GS_EMIT_WORKLOADS, 0), *claims = emit(p, GS_EMIT_DRA, 1);
	char *dra = emit(p, GS_EMIT_WORKLOADS, 1);
	(void)state;
	assert_non_null(strstr(patch, "# Deployment default/ollama: 2 replicas\n"));
	assert_non_null(strstr(patch, "  replicas: 2\n"));
	assert_non_null(strstr(patch, "          limits:\n            nvidia.com/gpu: 3\n"));
	assert_null(strstr(patch, "nvidia.com/gpu: 1"));
	assert_non_null(strstr(claims, "  name: gpushare-gpu-x3\n"));
	assert_non_null(strstr(claims, "          deviceClassName: gpu.nvidia.com\n"
	                               "          allocationMode: ExactCount\n"
	                               "          count: 3\n"));
	assert_non_null(strstr(dra, "resourceClaimTemplateName: gpushare-gpu-x3\n"));
	free(patch);
	free(claims);
	free(dra);
	gs_plan_free(p);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_round_trip),
		cmocka_unit_test(test_key_set),
		cmocka_unit_test(test_key_too_wide),
		cmocka_unit_test(test_one_replica_on_one_node),
		cmocka_unit_test(test_replicas_never_split),
		cmocka_unit_test(test_robust_and_pinned),
		cmocka_unit_test(test_robust_mixed_node),
		cmocka_unit_test(test_robust_mixed_pools),
		cmocka_unit_test(test_emit_requests_n),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
