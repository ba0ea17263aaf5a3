/*
 * test_import.c - the cluster importer (lib/import.c) on the fixtures in
 * fixtures/import/ (see its README.md): the exact workloads, GPUs,
 * percentiles and idle money it finds, the scenario and workload file it
 * writes, and its errors with their messages.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define FIX "fixtures/import/"
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static gs_catalog *cat;
static const char *const all_metrics[] = {
	FIX "t4-a-1.prom",     FIX "t4-a-2.prom", FIX "t4-b.prom",
	FIX "a100-mixed.prom", FIX "range.json",
};

static int group_setup(void **state)
{
	gs_error err;
	(void)state;
	return gs_catalog_load(TEST_PROFILES, &cat, &err) < 0 ? -1 : 0;
}

static int group_teardown(void **state)
{
	(void)state;
	gs_catalog_free(cat);
	return 0;
}

static gs_error clean_err(void)
{
	gs_error e;
	memset(&e, 0, sizeof e);
	return e;
}

static gs_inventory *load(const char *nodes, const char *pods, size_t n_metrics, int pct,
                          const char *team_label)
{
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_error err = clean_err();
	gs_inventory *inv = NULL;
	o.nodes = nodes;
	o.pods = pods;
	o.metrics = all_metrics;
	o.n_metrics = n_metrics;
	o.percentile = pct;
	o.team_label = team_label;
	assert_gs_ok(gs_import_load(cat, &o, &inv, &err), &err);
	return inv;
}

static gs_inventory *load_all(int pct)
{
	return load(FIX "nodes.json", FIX "pods.json", N_OF(all_metrics), pct, NULL);
}

/* ---- workloads ------------------------------------------------------------------- */

typedef struct want_wl {
	const char *name, *ns, *kind, *owner, *team;
	int pods, measured, replicas;
	int64_t requested;
	const char *gpu, *instance;
	int nodes;
	const char *metric;
	int64_t compute_ppm, memory_mib;
	int memory_measured;
	int64_t gpu_memory_mib;
	int percent;
	unsigned flags;
} want_wl;

#define GR "DCGM_FI_PROF_GR_ENGINE_ACTIVE"
#define SM "DCGM_FI_PROF_SM_ACTIVE"
#define A100 "A100-SXM4-40GB"
#define H100 "H100-SXM5-80GB"

static const want_wl fixture_wls[] = {
	/* MIG single: nvidia.com/gpu is a 1g.5gb slice; no metrics: keeps it. */
	{ "cuda-vectoradd", "default", "Pod", "cuda-vectoradd", "default", 1, 0, 1, 142857, A100,
	  "p4d.24xlarge", 1, NULL, 142857, 4864, 0, 4864, 15, GS_IMPORT_NO_METRICS },
	/* p95 of 0.40, 0.55, 0.60 of a 1g slice: 0.60 x 1/7 of the GPU. */
	{ "j-e2e-1", "default", "Job", "j-e2e-1", "default", 2, 1, 2, 285714, A100, "p4d.24xlarge",
	  1, GR, 85714, 3500, 1, 3584, 9, GS_IMPORT_PARTIAL },
	/* Five pods share one T4 and their series are its copies: the GPU at
	 * two instants (0.156205 scraped, 0.12 with a timestamp), p95 = rank 2
	 * = 0.156205, divided by the 5 replicas held: 0.031241; FB 5120 / 5. */
	{ "time-slicing-verification", "default", "Deployment", "time-slicing-verification",
	  "default", 5, 5, 5, 625000, "T4", "g4dn.xlarge", 1, GR, 31241, 1024, 1, 1024, 4, 0 },
	/* No metrics on a T4 time-sliced 4 ways: a replica keeps a quarter of it,
	 * 25% and (15360 - 393) / 4 MiB, never the whole GPU. */
	{ "ts-share", "gpu-sharing-test", "Deployment", "ts-share", "gpu-sharing-test", 4, 0, 4,
	  1000000, "T4", "g4dn.12xlarge", 1, NULL, 250000, 3741, 0, 3741, 25,
	  GS_IMPORT_NO_METRICS },
	/* The same name in two namespaces: the second gets its namespace. */
	{ "mig-demo-cuda-vectoradd", "mig-demo", "Pod", "cuda-vectoradd", "mig-demo", 1, 1, 1,
	  285714, A100, "p4d.24xlarge", 1, GR, 71429, 1200, 1, 1536, 8, 0 },
	{ "sweep", "queue", "Job", "sweep", "queue", 1, 0, 1, 0, NULL, NULL, 0, NULL, 1000000, 0, 0,
	  512, 100, GS_IMPORT_UNSCHEDULED | GS_IMPORT_NO_METRICS },
	{ "debug-shell", "research", "Pod", "debug-shell", "research", 1, 0, 1, 0, NULL, NULL, 0,
	  NULL, 1000000, 0, 0, 512, 100, GS_IMPORT_UNSCHEDULED | GS_IMPORT_NO_METRICS },
	/* A Job named <cronjob>-<minutes> is the CronJob's. */
	{ "eval-nightly", "research", "CronJob", "eval-nightly", "research", 1, 1, 1,
	  428571, A100, "p4d.24xlarge", 1, GR, 214286, 9000, 1, 9216, 22, 0 },
	/* SM activity wins over GR; a pod of 2 whole GPUs is 1 replica of 2,
	 * compute and memory the p95 over the samples of both GPUs. */
	{ "finetune-lora", "research", "Job", "finetune-lora", "research", 1, 1, 1, 2000000, H100,
	  "p5.48xlarge", 1, SM, 620000, 40200, 1, 40448, 62, GS_IMPORT_MULTI_GPU },
	/* The Pending pod counts as a replica, without metrics. */
	{ "llm-train", "research", "StatefulSet", "llm-train", "research", 3, 2, 3, 2000000, H100,
	  "p5.48xlarge", 1, GR, 970000, 63000, 1, 63488, 97, GS_IMPORT_PARTIAL },
	/* The 1g.5gb instance whose series name no pod is the one pod of its node
	 * that asks for a 1g.5gb: 0.995687 x 1/7 of the GPU. */
	{ "notebook-alice", "research", "Pod", "notebook-alice", "research", 1, 1, 1, 142857, A100,
	  "p4d.24xlarge", 1, GR, 142241, 4864, 0, 4864, 15, 0 },
};

static void check_wl(const gs_import_workload *w, const want_wl *e)
{
	assert_non_null(w);
	assert_string_equal(w->name, e->name);
	assert_string_equal(w->namespace_, e->ns);
	assert_string_equal(w->owner_kind, e->kind);
	assert_string_equal(w->owner, e->owner);
	assert_string_equal(w->team, e->team);
	assert_int_equal(w->pods, e->pods);
	assert_int_equal(w->pods_measured, e->measured);
	assert_int_equal(w->replicas, e->replicas);
	assert_int_equal(w->requested_ppm, e->requested);
	if (e->gpu)
		assert_string_equal(w->gpu->name, e->gpu);
	else
		assert_null(w->gpu);
	if (e->instance)
		assert_string_equal(w->instance->type, e->instance);
	else
		assert_null(w->instance);
	assert_int_equal(w->nodes, e->nodes);
	if (e->metric)
		assert_string_equal(w->metric, e->metric);
	else
		assert_null(w->metric);
	assert_int_equal(w->compute_ppm, e->compute_ppm);
	assert_int_equal(w->memory_mib, e->memory_mib);
	assert_int_equal(w->memory_measured, e->memory_measured);
	assert_int_equal(w->gpu_memory_mib, e->gpu_memory_mib);
	assert_int_equal(w->compute_percent, e->percent);
	assert_int_equal(w->flags, e->flags);
	/* Only pods of several whole GPUs make replicas of several. */
	assert_int_equal(w->gpus_per_replica, strcmp(e->name, "finetune-lora") == 0 ? 2 : 1);
}

static void test_workloads(void **state)
{
	gs_inventory *inv = load_all(95);
	(void)state;
	assert_int_equal(gs_import_workload_count(inv), N_OF(fixture_wls));
	for (size_t i = 0; i < N_OF(fixture_wls); i++)
		check_wl(gs_import_workload_at(inv, i), &fixture_wls[i]);
	assert_null(gs_import_workload_at(inv, N_OF(fixture_wls)));
	assert_int_equal(gs_import_warning_count(inv), 3);
	assert_string_equal(gs_import_warning_at(inv, 0),
	                    "pod 'research/debug-shell' runs on node 'gpu-l4-gone', which is not a "
	                    "GPU node of the node list");
	assert_string_equal(gs_import_warning_at(inv, 1),
	                    "node 'gpu-t4-a' gpu 0: its 5 pods hold 5 replicas, and no per-pod "
	                    "series tell their use apart (DCGM_FI_PROF_GR_ENGINE_ACTIVE, "
	                    "DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_FB_USED are the whole GPU's): "
	                    "divided evenly by the replicas each holds, the GPU's p95 of 15.6% "
	                    "active and 5120 MiB used is 3.1% and 1024 MiB per replica");
	assert_string_equal(gs_import_warning_at(inv, 2),
	                    "node 'gpu-t4-b': 4 of its pods run on its 4 GPUs, and no series "
	                    "names which GPU each holds: they keep what they request");
	assert_null(gs_import_warning_at(inv, 3));
	gs_import_free(inv);
}

/* The scenario names each workload's object: the owner's kind, name
 * (when the workload's differs) and namespace (when not the file's, the
 * namespace of most workloads), and the container that asks for the GPU. */
static void test_objects(void **state)
{
	static const struct {
		const char *wl;
		gs_object_kind kind;
		const char *name, *ns, *container;
	} want[] = {
		{ "time-slicing-verification", GS_OBJECT_DEPLOYMENT, NULL, "default",
		  "cuda-sample-vector-add" },
		{ "cuda-vectoradd", GS_OBJECT_POD, NULL, "default", "vectoradd" },
		{ "j-e2e-1", GS_OBJECT_JOB, NULL, "default", "cuda-container" },
		{ "ts-share", GS_OBJECT_DEPLOYMENT, NULL, "gpu-sharing-test", "cuda" },
		{ "mig-demo-cuda-vectoradd", GS_OBJECT_POD, "cuda-vectoradd", "mig-demo",
		  "cuda-vectoradd" },
		{ "eval-nightly", GS_OBJECT_CRONJOB, NULL, NULL, "eval" },
		{ "llm-train", GS_OBJECT_STATEFULSET, NULL, NULL, "trainer" },
	};
	gs_inventory *inv = load_all(95);
	gs_scenario *s = NULL;
	gs_error err;
	(void)state;

	assert_gs_ok(gs_import_scenario(inv, &s, &err), &err);
	assert_string_equal(gs_scenario_namespace(s), "research");
	for (size_t i = 0; i < N_OF(want); i++) {
		const gs_workload *w = gs_scenario_find(s, want[i].wl);
		assert_non_null(w);
		assert_int_equal(w->object.kind, want[i].kind);
		if (want[i].name)
			assert_string_equal(w->object.name, want[i].name);
		else
			assert_null(w->object.name);
		if (want[i].ns)
			assert_string_equal(w->object.namespace_, want[i].ns);
		else
			assert_null(w->object.namespace_);
		assert_string_equal(w->object.container, want[i].container);
	}
	gs_scenario_free(s);
	gs_import_free(inv);
}

/* ---- nodes and idle money ---------------------------------------------------------------- */

typedef struct want_gpu {
	int measured, attributed;
	int64_t compute_ppm, memory_mib;
	const char *metric;
} want_gpu;

typedef struct want_node {
	const char *name, *type, *product, *gpu;
	int count;
	int64_t memory_mib;
	const char *sharing;
	int replicas, pods;
	int64_t requested;
	int unrequested, low;
	gs_micros price, idle_money;
	want_gpu gpus[8];
} want_node;

#define UTIL "DCGM_FI_DEV_GPU_UTIL"
#define NOGPU { 0, 0, 0, -1, NULL }

static const want_node fixture_nodes[] = {
	/* Older GFD: gpu.memory 16106127360 bytes is 15360 MiB. */
	{ "gpu-t4-a",
	  "g4dn.xlarge",
	  "Tesla-T4-SHARED",
	  "T4",
	  1,
	  15360,
	  "time-slicing",
	  8,
	  5,
	  625000,
	  0,
	  0,
	  526000,
	  0,
	  { { 1, 1, 156205, 5120, GR } } },
	/* 3.912 x 3 idle / 4 GPUs x 730 h. */
	{ "gpu-t4-b",
	  "g4dn.12xlarge",
	  "Tesla-T4",
	  "T4",
	  4,
	  0,
	  "time-slicing",
	  4,
	  4,
	  1000000,
	  3,
	  0,
	  3912000,
	  INT64_C(2141820000),
	  { { 1, 0, 350000, 3000, UTIL },
	    { 1, 0, 20000, 500, UTIL },
	    { 1, 0, 0, 0, UTIL },
	    { 1, 0, 0, 0, UTIL } } },
	/* 21.957642 x 7 / 8 x 730 = 14025.4438275, rounded half away from zero. */
	{ "gpu-a100-mixed",
	  "p4d.24xlarge",
	  "A100-SXM4-40GB",
	  A100,
	  8,
	  40537,
	  "mig-mixed",
	  1,
	  3,
	  857142,
	  7,
	  0,
	  21957642,
	  INT64_C(14025443828),
	  { { 1, 0, 995630, 4845, GR }, NOGPU, NOGPU, NOGPU, NOGPU, NOGPU, NOGPU, NOGPU } },
	{ "gpu-a100-single",
	  "p4d.24xlarge",
	  "A100-SXM4-40GB-MIG-1g.5gb",
	  A100,
	  8,
	  4864,
	  "mig-single",
	  1,
	  3,
	  428571,
	  7,
	  0,
	  21957642,
	  INT64_C(14025443828),
	  { NOGPU, NOGPU, NOGPU, NOGPU, NOGPU, NOGPU, NOGPU, NOGPU } },
	/* 4 GPUs no pod asks for, and gpu 3, allocated to finetune-lora at 4%:
	 * 55.04 x 5 / 8 x 730. gpu 4 is quiet but not allocated. */
	{ "gpu-h100",
	  "p5.48xlarge",
	  "NVIDIA-H100-80GB-HBM3",
	  H100,
	  8,
	  81559,
	  "none",
	  1,
	  3,
	  4000000,
	  4,
	  1,
	  55040000,
	  INT64_C(25112000000),
	  { { 1, 1, 970000, 63000, GR },
	    { 1, 1, 800000, 60000, GR },
	    { 1, 1, 620000, 40200, SM },
	    { 1, 1, 40000, 39000, SM },
	    { 1, 0, 20000, -1, GR },
	    NOGPU,
	    NOGPU,
	    NOGPU } },
};

static void check_node(const gs_import_node *n, const want_node *e)
{
	assert_non_null(n);
	assert_string_equal(n->name, e->name);
	assert_string_equal(n->instance_type, e->type);
	assert_string_equal(n->instance->type, e->type);
	assert_string_equal(n->product, e->product);
	assert_string_equal(n->gpu->name, e->gpu);
	assert_int_equal(n->gpu_count, e->count);
	assert_int_equal(n->n_gpus, e->count);
	assert_int_equal(n->gpu_memory_mib, e->memory_mib);
	assert_string_equal(n->sharing, e->sharing);
	assert_int_equal(n->replicas, e->replicas);
	assert_int_equal(n->pods, e->pods);
	assert_int_equal(n->requested_ppm, e->requested);
	assert_int_equal(n->idle_unrequested, e->unrequested);
	assert_int_equal(n->idle_low, e->low);
	assert_int_equal(n->price_per_hour, e->price);
	assert_int_equal(n->idle_per_month, e->idle_money);
	for (int g = 0; g < e->count; g++) {
		const gs_import_gpu *p = &n->gpus[g];
		assert_int_equal(p->index, g);
		assert_int_equal(p->measured, e->gpus[g].measured);
		assert_int_equal(p->attributed, e->gpus[g].attributed);
		assert_int_equal(p->compute_ppm, e->gpus[g].compute_ppm);
		assert_int_equal(p->memory_mib, e->gpus[g].memory_mib);
		if (e->gpus[g].metric)
			assert_string_equal(p->metric, e->gpus[g].metric);
		else
			assert_null(p->metric);
	}
}

static void test_nodes(void **state)
{
	gs_inventory *inv = load_all(95);
	const gs_import_summary *s = gs_import_summary_get(inv);
	(void)state;

	assert_int_equal(gs_import_node_count(inv), N_OF(fixture_nodes));
	for (size_t i = 0; i < N_OF(fixture_nodes); i++)
		check_node(gs_import_node_at(inv, i), &fixture_nodes[i]);
	assert_null(gs_import_node_at(inv, 5));
	assert_int_equal(s->nodes, 5);
	assert_int_equal(s->gpus, 29);
	assert_int_equal(s->pods, 21);
	assert_int_equal(s->workloads, 11);
	assert_int_equal(s->idle_gpus, 22);
	assert_int_equal(s->percentile, 95);
	assert_int_equal(s->hours_per_month, 730);
	assert_string_equal(s->cloud, "aws");
	/* 0.526 + 3.912 + 2 x 21.957642 + 55.04 */
	assert_int_equal(s->cost_per_hour, 103393284);
	assert_int_equal(s->idle_per_month, INT64_C(55304707656));
	assert_int_equal(s->samples, 92);
	assert_int_equal(s->unmatched, 0); /* the 1g.5gb instance is notebook-alice's */
	gs_import_free(inv);
}

static void test_percentile_50(void **state)
{
	gs_inventory *inv = load_all(50);
	const gs_import_workload *tsv = gs_import_workload_at(inv, 2);
	const gs_import_workload *ft = gs_import_workload_at(inv, 8);
	const gs_import_workload *llm = gs_import_workload_at(inv, 9);
	const gs_import_node *h100 = gs_import_node_at(inv, 4);
	(void)state;

	/* The GPU's rank 1 of 2, 0.12 and 4845 MiB, over its 5 replicas. */
	assert_int_equal(tsv->compute_ppm, 24000);
	assert_int_equal(tsv->memory_mib, 969);
	assert_int_equal(tsv->gpu_memory_mib, 1024);
	assert_int_equal(tsv->file_compute_ppm, 24000);
	assert_int_equal(tsv->compute_percent, 3);
	assert_int_equal(ft->compute_ppm, 40000);    /* rank 3 of 6 */
	assert_int_equal(ft->compute_percent, 4);
	assert_int_equal(llm->compute_ppm, 820000);  /* rank 5 of 9 (a NaN is no sample) */
	assert_int_equal(llm->memory_mib, 60000);
	assert_int_equal(llm->gpu_memory_mib, 60416);
	assert_int_equal(h100->gpus[1].compute_ppm, 750000);
	assert_int_equal(h100->gpus[4].compute_ppm, 10000);
	gs_import_free(inv);
}

static void test_without_metrics(void **state)
{
	gs_inventory *inv = load(FIX "nodes.json", FIX "pods.json", 0, 95, NULL);
	const gs_import_summary *s = gs_import_summary_get(inv);
	const gs_import_node *h100 = gs_import_node_at(inv, 4);
	(void)state;

	for (size_t i = 0; i < gs_import_workload_count(inv); i++)
		assert_true(gs_import_workload_at(inv, i)->flags & GS_IMPORT_NO_METRICS);
	/* Every GPU unmeasured: only the unrequested ones are idle. */
	assert_int_equal(h100->idle_unrequested, 4);
	assert_int_equal(h100->idle_low, 0);
	assert_int_equal(s->idle_gpus, 0 + 3 + 7 + 7 + 4);
	assert_int_equal(s->samples, 0);
	/* llm-train keeps a whole H100: its 81559 - 454 MiB usable. */
	assert_int_equal(gs_import_workload_at(inv, 9)->compute_percent, 100);
	assert_int_equal(gs_import_workload_at(inv, 9)->gpu_memory_mib, 81105);
	gs_import_free(inv);
}

static void test_team_label(void **state)
{
	gs_inventory *inv = load(FIX "nodes.json", FIX "pods.json", 0, 95, "team");
	(void)state;
	assert_string_equal(gs_import_workload_at(inv, 3)->team, "vision");
	assert_string_equal(gs_import_workload_at(inv, 10)->team, "ml-research");
	/* Pods without the label: their namespace. */
	assert_string_equal(gs_import_workload_at(inv, 9)->team, "research");
	gs_import_free(inv);
}

/* No gpu-feature-discovery labels: the GPU comes from the instance type. */
static void test_instance_fallback(void **state)
{
	gs_inventory *inv = load(FIX "nodes-no-gfd.json", FIX "pods-empty.json", 0, 95, NULL);
	const gs_import_node *l4 = gs_import_node_at(inv, 0), *l40s = gs_import_node_at(inv, 1);
	const gs_import_summary *s = gs_import_summary_get(inv);
	(void)state;

	assert_string_equal(l4->gpu->name, "L4");
	assert_null(l4->product);
	assert_int_equal(l4->gpu_count, 1);
	assert_int_equal(l4->idle_per_month, 587504000); /* 0.8048 x 730 */
	assert_string_equal(l40s->gpu->name, "L40S");
	assert_null(l40s->instance_type);
	assert_int_equal(l40s->gpu_count, 2);
	assert_int_equal(l40s->price_per_hour, -1);
	assert_int_equal(l40s->idle_per_month, 0);
	assert_int_equal(s->cost_per_hour, 804800);
	assert_int_equal(gs_import_warning_count(inv), 1);
	assert_string_equal(gs_import_warning_at(inv, 0),
	                    "node 'gpu-onprem' has no instance-type label: its price is unknown");
	assert_int_equal(gs_import_workload_count(inv), 0);
	gs_import_free(inv);
}

/* `kubectl get node NAME -o json` prints one object; `-o yaml` prints YAML.
 * Both give what the JSON List gives. */
static void test_list_shapes(void **state)
{
	gs_inventory *inv =
	    load(FIX "node-h100.json", FIX "pods.yaml", N_OF(all_metrics), 95, NULL);
	(void)state;

	assert_int_equal(gs_import_node_count(inv), 1);
	check_node(gs_import_node_at(inv, 0), &fixture_nodes[4]);
	assert_int_equal(gs_import_workload_count(inv), N_OF(fixture_wls));
	/* The workloads on the H100 node are measured the same. */
	check_wl(gs_import_workload_at(inv, 8), &fixture_wls[8]);
	check_wl(gs_import_workload_at(inv, 9), &fixture_wls[9]);
	assert_int_equal(gs_import_workload_at(inv, 2)->flags, GS_IMPORT_UNSCHEDULED);
	gs_import_free(inv);
}

/* ---- the scenario and the workload file ---------------------------------------------- */

static void test_scenario(void **state)
{
	gs_inventory *inv = load_all(95);
	gs_scenario *s = NULL;
	gs_plan *plan = NULL;
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_error err = clean_err();
	const gs_workload *w;
	(void)state;

	assert_gs_ok(gs_import_scenario(inv, &s, &err), &err);
	/* The two workloads on no known GPU node are left out. */
	assert_int_equal(gs_scenario_workload_count(s), 9);
	assert_null(gs_scenario_find(s, "sweep"));
	w = gs_scenario_find(s, "llm-train");
	assert_non_null(w);
	assert_int_equal(w->replicas, 3);
	assert_int_equal(w->memory_bytes, INT64_C(63488) << 20);
	assert_int_equal(w->compute_ppm, 970000);
	assert_string_equal(w->measured_on->name, H100);
	assert_string_equal(w->tenant, "research");
	assert_string_equal(w->current->type, "p5.48xlarge");
	assert_int_equal(w->current_count, 1);
	assert_int_equal(w->kind, GS_KIND_INFERENCE);
	assert_int_equal(gs_scenario_find(s, "finetune-lora")->kind, GS_KIND_BATCH);
	assert_gs_ok(gs_scenario_validate(s, &err), &err);
	/* A plan's current cost is what the cluster costs today. */
	assert_gs_ok(gs_plan_make(s, &po, &plan, &err), &err);
	assert_int_equal(gs_plan_summary_get(plan)->current_per_hour, 103393284);
	gs_plan_free(plan);
	gs_scenario_free(s);
	gs_import_free(inv);
}

static void test_render_and_write(void **state)
{
	gs_inventory *inv = load_all(95);
	gs_error err = clean_err();
	gs_scenario *back = NULL;
	char dir[] = "/tmp/gs-import-XXXXXX", path[64], *text = NULL;
	(void)state;

	assert_gs_ok(gs_import_render(inv, &text, &err), &err);
	assert_true(strncmp(text,
	                    "# Imported by 'gpushare import': 5 GPU nodes, 21 pods; gpuMemory and\n"
	                    "# compute are the p95 of 92 DCGM samples. Review before planning.\n"
	                    "# cuda-vectoradd: no metrics, keeps what it requested\n"
	                    "# j-e2e-1: no metrics for 1 of 2 pods\n",
	                    200) == 0);
	assert_non_null(strstr(text, "# sweep: no pod runs on a known GPU node, left out\n"));
	assert_non_null(strstr(text, "\nversion: 1\ncloud: aws\n"));

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/workloads.yaml", dir);
	assert_gs_ok(gs_import_write(inv, path, 1, &err), &err);
	/* The file loads back as the same workloads. */
	assert_gs_ok(gs_scenario_load(cat, path, &back, &err), &err);
	assert_int_equal(gs_scenario_workload_count(back), 9);
	assert_int_equal(gs_scenario_find(back, "time-slicing-verification")->compute_ppm, 32000);
	assert_int_equal(gs_scenario_find(back, "ts-share")->compute_ppm, 250000);
	assert_int_equal(gs_scenario_find(back, "cuda-vectoradd")->compute_ppm, 142857);
	assert_int_equal(gs_scenario_find(back, "j-e2e-1")->memory_bytes, INT64_C(3584) << 20);
	/* Exclusive refuses to overwrite; not exclusive replaces. */
	assert_true(gs_import_write(inv, path, 1, &err) < 0);
	{
		char want[160];
		snprintf(want, sizeof want, "%s: error: exists already (use --force to replace it)",
		         path);
		assert_gs_error(&err, want);
	}
	assert_gs_ok(gs_import_write(inv, path, 0, &err), &err);
	unlink(path);
	rmdir(dir);
	gs_scenario_free(back);
	free(text);
	gs_import_free(inv);
}

static void test_report_doc(void **state)
{
	gs_inventory *inv = load_all(95);
	gs_error err = clean_err();
	gs_doc *doc = NULL;
	char *json = NULL;
	(void)state;

	assert_gs_ok(gs_doc_import_report(inv, &doc, &err), &err);
	assert_gs_ok(gs_doc_render(doc, GS_FORMAT_JSON, &json, &err), &err);
	assert_non_null(strstr(json, "\"idle_per_month\": 55304.707656,"));
	assert_non_null(strstr(json, "\"cost_per_hour\": 103.393284,"));
	assert_non_null(strstr(json, "\"flags\": [\n        \"no-metrics\"\n      ]"));
	assert_non_null(strstr(json, "\"compute_percent\": 97.0,"));
	free(json);
	gs_doc_free(doc);
	gs_import_free(inv);
}

/* ---- errors ------------------------------------------------------------------------- */

static void test_errors(void **state)
{
	static const char *const bad_line[] = { FIX "errors/bad-line.prom" };
	static const struct {
		const char *nodes, *pods;
		int metrics, code;
		const char *want;
	} cases[] = {
		/* Streamed: the first item is wrong before the file is seen to end. */
		{ FIX "errors/truncated.json", FIX "pods.json", 0, GS_ESCHEMA,
		  FIX "errors/truncated.json:7:21: error: items[0] is a Pod, not a Node" },
		{ FIX "nodes.json", FIX "errors/truncated.json", 0, GS_ESYNTAX,
		  FIX "errors/truncated.json:139:68: error: the file ends inside items[3] "
		      "(truncated?)" },
		{ FIX "errors/number.json", FIX "pods.json", 0, GS_ESCHEMA,
		  FIX "errors/number.json:1:1: error: expected the JSON object that 'kubectl get "
		      "nodes -o json' prints, not a number" },
		{ FIX "errors/no-items.json", FIX "pods.json", 0, GS_ESCHEMA,
		  FIX "errors/no-items.json:1:1: error: expected a List with 'items', the output "
		      "of 'kubectl get nodes -o json'" },
		{ FIX "nodes.json", FIX "errors/no-items.json", 0, GS_ESCHEMA,
		  FIX "errors/no-items.json:1:1: error: expected a List with 'items', the output "
		      "of 'kubectl get pods -A -o json'" },
		{ FIX "pods.json", FIX "pods.json", 0, GS_ESCHEMA,
		  FIX "pods.json:7:21: error: items[0] is a Pod, not a Node" },
		{ FIX "errors/unknown-gpu.json", FIX "pods.json", 0, GS_ENOTFOUND,
		  FIX "errors/unknown-gpu.json:15:47: error: node 'gpu-k80': unknown GPU product "
		      "'Tesla-K80' (label nvidia.com/gpu.product; see 'gpushare gpus', or add a "
		      "GPU profile)" },
		{ FIX "errors/unknown-mig.json", FIX "pods.json", 0, GS_ENOTFOUND,
		  FIX
		  "errors/unknown-mig.json:15:47: error: node 'gpu-a100-x': unknown MIG profile in "
		  "GPU product 'A100-SXM4-40GB-MIG-5g.30gb' (label nvidia.com/gpu.product)" },
		{ FIX "nodes.json", FIX "errors/bad-quantity.json", 0, GS_ESCHEMA,
		  FIX "errors/bad-quantity.json:20:51: error: pod 'default/half': container "
		      "'main': nvidia.com/gpu quantity '500m' is not a whole number up to 1000" },
		{ FIX "nodes.json", FIX "pods.json", 1, GS_ESYNTAX,
		  FIX "errors/bad-line.prom:3:126: error: invalid timestamp 'MiB'" },
		{ FIX "missing.json", FIX "pods.json", 0, GS_EIO,
		  FIX "missing.json: error: cannot open: No such file or directory" },
	};
	(void)state;

	for (size_t i = 0; i < N_OF(cases); i++) {
		gs_import_opts o = GS_IMPORT_OPTS_INIT;
		gs_error err = clean_err();
		gs_inventory *inv = (gs_inventory *)&o; /* must stay untouched */
		o.nodes = cases[i].nodes;
		o.pods = cases[i].pods;
		o.metrics = bad_line;
		o.n_metrics = (size_t)cases[i].metrics;
		o.strict = 1; /* without, bad lines and unknown GPUs are warnings */
		if (gs_import_load(cat, &o, &inv, &err) != cases[i].code)
			fail_msg("case %zu: code %d, expected %d", i, err.code, cases[i].code);
		assert_ptr_equal(inv, (gs_inventory *)&o);
		assert_gs_error(&err, cases[i].want);
	}
}

static void test_bad_options(void **state)
{
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_error err = clean_err();
	gs_inventory *inv = NULL;
	(void)state;

	assert_int_equal(gs_import_load(cat, &o, &inv, &err), GS_EINVAL);
	assert_gs_error(&err, "error: both a node list and a pod list are needed");
	o.nodes = FIX "nodes.json";
	o.pods = FIX "pods.json";
	o.percentile = 0;
	assert_int_equal(gs_import_load(cat, &o, &inv, &err), GS_EINVAL);
	assert_gs_error(&err, "error: the percentile must be from 1 to 100, not 0");
	assert_null(inv);
	gs_import_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_percentile_50),
		cmocka_unit_test(test_without_metrics),
		cmocka_unit_test(test_team_label),
		cmocka_unit_test(test_instance_fallback),
		cmocka_unit_test(test_list_shapes),
		cmocka_unit_test(test_scenario),
		cmocka_unit_test(test_render_and_write),
		cmocka_unit_test(test_report_doc),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bad_options),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
