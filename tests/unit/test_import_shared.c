/*
 * test_import_shared.c - issue 15 §1, shared GPUs read right, on small
 * clusters built in memory: a time-slice or MPS replica without metrics
 * keeps its share; a shared GPU's readings are divided among its pods (by
 * the replicas each holds, vgpu labels included) unless its series are
 * each pod's own; a GPU one pod holds is that pod's; values above 100 %
 * are data errors; bad lines and unknown GPUs are warnings unless strict;
 * the workload file carries the cluster's cost and each workload's share;
 * a plan that costs more than the cluster says why. Exact figures.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

TU_CATALOG_GROUP(cat)

/* ---- a cluster in memory ------------------------------------------------------ */

#define NODE(name, type, product, extra, cap)                                            \
	"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\","     \
	"\"labels\":{\"node.kubernetes.io/instance-type\":\"" type "\","                    \
	"\"nvidia.com/gpu.product\":\"" product "\"" extra "}},"                            \
	"\"status\":{\"capacity\":{" cap "}}}"

#define POD(ns, name, owner, node, res, n)                                               \
	"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\","      \
	"\"namespace\":\"" ns "\",\"ownerReferences\":[{\"kind\":\"Job\",\"name\":\""       \
	owner "\",\"controller\":true}]},\"spec\":{\"nodeName\":\"" node "\","             \
	"\"containers\":[{\"name\":\"main\",\"resources\":{\"limits\":{\"" res "\":\"" n   \
	"\"}}}]},\"status\":{\"phase\":\"Running\"}}"

#define LIST(...) "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" __VA_ARGS__ "]}"

/* A T4 time-sliced 8 ways, a T4 under MPS 4 ways, and an L4. */
static const char nodes[] = LIST(
	NODE("ts", "g4dn.xlarge", "Tesla-T4-SHARED", ",\"nvidia.com/gpu.replicas\":\"8\"",
	     "\"nvidia.com/gpu\":\"8\"") ","
	NODE("mps", "g4dn.xlarge", "Tesla-T4", ",\"nvidia.com/gpu.replicas\":\"4\","
	     "\"nvidia.com/gpu.sharing-strategy\":\"mps\"", "\"nvidia.com/gpu\":\"4\"") ","
	NODE("l4", "g6.xlarge", "NVIDIA-L4", "", "\"nvidia.com/gpu\":\"1\""));

/* Three pods of `a` and one of `b` on the time-sliced T4 (b holds two
 * replicas), one of `m` on the MPS T4, one of `api` on the L4. */
static const char pods[] = LIST(
	POD("ml", "a-0", "a", "ts", "nvidia.com/gpu", "1") ","
	POD("ml", "a-1", "a", "ts", "nvidia.com/gpu", "1") ","
	POD("ml", "a-2", "a", "ts", "nvidia.com/gpu", "1") ","
	POD("ml", "b-0", "b", "ts", "nvidia.com/gpu", "2") ","
	POD("ml", "m-0", "m", "mps", "nvidia.com/gpu", "1") ","
	POD("web", "api-0", "api", "l4", "nvidia.com/gpu", "1"));

#define TS "Hostname=\"ts\",gpu=\"0\""
#define PODL(name) ",namespace=\"ml\",pod=\"" name "\",container=\"main\""

static gs_inventory *import_mem(const char *nl, const char *pl, const char *metrics,
                                int strict, gs_error *err, int *rc)
{
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_memory_source ms[3];
	gs_source src[3];
	gs_inventory *inv = NULL;
	const char *bufs[3] = { nl, pl, metrics };
	const char *names[3] = { "nodes.json", "pods.json", "m.prom" };

	o.strict = strict;
	memset(err, 0, sizeof *err);
	if ((*rc = gs_import_begin(cat, &o, &inv, err)) < 0)
		return NULL;
	for (int i = 0; i < 3 && *rc == 0; i++) {
		if (!bufs[i])
			continue;
		gs_source_memory(&src[i], &ms[i], names[i], bufs[i], strlen(bufs[i]));
		*rc = gs_import_read(inv, (gs_import_input)i, &src[i], err);
	}
	if (*rc == 0)
		*rc = gs_import_end(inv, err);
	if (*rc < 0) {
		gs_import_free(inv);
		return NULL;
	}
	return inv;
}

static gs_inventory *import_ok(const char *metrics)
{
	gs_error err;
	int rc;
	gs_inventory *inv = import_mem(nodes, pods, metrics, 0, &err, &rc);
	assert_gs_ok(rc, &err);
	return inv;
}

static const gs_import_workload *wl(const gs_inventory *inv, const char *name)
{
	for (size_t i = 0; i < gs_import_workload_count(inv); i++)
		if (strcmp(gs_import_workload_at(inv, i)->name, name) == 0)
			return gs_import_workload_at(inv, i);
	fail_msg("no workload %s", name);
	return NULL;
}

static const gs_import_node *node(const gs_inventory *inv, const char *name)
{
	for (size_t i = 0; i < gs_import_node_count(inv); i++)
		if (strcmp(gs_import_node_at(inv, i)->name, name) == 0)
			return gs_import_node_at(inv, i);
	fail_msg("no node %s", name);
	return NULL;
}

/* ---- 1: a replica without metrics keeps its share --------------------------------- */

static void test_kept_share(void **state)
{
	gs_inventory *inv = import_ok(NULL);
	const gs_import_workload *a = wl(inv, "a"), *b = wl(inv, "b"), *m = wl(inv, "m");
	(void)state;

	/* 1/8 of a T4: 12.5% and (15360 - 393) / 8 MiB. */
	assert_int_equal(a->compute_ppm, 125000);
	assert_int_equal(a->file_compute_ppm, 125000);
	assert_int_equal(a->memory_mib, 1870);
	assert_int_equal(a->gpu_memory_mib, 1870);
	/* b's pod asks for two replicas: two replicas of 1/8 each. */
	assert_int_equal(b->replicas, 2);
	assert_int_equal(b->compute_ppm, 125000);
	/* MPS 4 ways: a quarter. */
	assert_int_equal(m->compute_ppm, 250000);
	assert_int_equal(m->gpu_memory_mib, 3741);
	/* Its share of its node today: 3/8 of a $0.526 g4dn.xlarge. */
	assert_int_equal(a->current_ppm, 375000);
	assert_int_equal(a->current_per_hour, 197250);
	assert_int_equal(m->current_ppm, 250000);
	assert_int_equal(wl(inv, "api")->current_ppm, GS_PPM);
	gs_import_free(inv);
}

/* ---- 2: a shared GPU's readings divided among its pods ------------------------------ */

/* dcgm-exporter copies the GPU's series to each pod (two instants). */
static const char copies[] =
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("a-0") "} 0.40 1000\n"
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("a-1") "} 0.40 1000\n"
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("a-2") "} 0.40 1000\n"
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("b-0") "} 0.40 1000\n"
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("a-0") "} 0.20 2000\n"
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("b-0") "} 0.20 2000\n"
	"DCGM_FI_DEV_FB_USED{" TS "} 10000 1000\n";

static void test_even(void **state)
{
	gs_inventory *inv = import_ok(copies);
	const gs_import_node *ts = node(inv, "ts");
	(void)state;

	/* The GPU: p95 of 0.40 and 0.20 = 0.40; its 4 pods hold 5 replicas. */
	assert_int_equal(ts->gpus[0].compute_ppm, 400000);
	assert_int_equal(ts->gpus[0].holders, 4);
	assert_string_equal(ts->gpus[0].division, "even");
	assert_true(ts->gpus[0].attributed);
	/* 0.40 / 5 per replica, for a (3 pods) and b (1 pod, 2 replicas). */
	assert_int_equal(wl(inv, "a")->compute_ppm, 80000);
	assert_int_equal(wl(inv, "b")->compute_ppm, 80000);
	/* 10000 MiB / 5 = 2000, up to 2048, under 14967 / 5 = 2993. */
	assert_int_equal(wl(inv, "a")->memory_mib, 2000);
	assert_int_equal(wl(inv, "a")->gpu_memory_mib, 2048);
	assert_int_equal(gs_import_warning_count(inv), 1);
	assert_string_equal(gs_import_warning_at(inv, 0),
	                    "node 'ts' gpu 0: its 4 pods hold 5 replicas, and no per-pod series "
	                    "tell their use apart (DCGM_FI_PROF_GR_ENGINE_ACTIVE, "
	                    "DCGM_FI_DEV_FB_USED are the whole GPU's): divided evenly by the "
	                    "replicas each holds, the GPU's p95 of 40.0% active and 10000 MiB "
	                    "used is 8.0% and 2000 MiB per replica");
	gs_import_free(inv);
}

/* --kubernetes-virtual-gpus: one copy per replica, the replica in vgpu. a-0
 * holds replicas 0 and 1 (its request says 1, its series 2), b-0 none here. */
static const char vgpus[] =
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("a-0") ",vgpu=\"0\"} 0.30\n"
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("a-0") ",vgpu=\"1\"} 0.30\n"
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" TS PODL("a-1") ",vgpu=\"2\"} 0.30\n";

static void test_vgpu(void **state)
{
	gs_inventory *inv = import_ok(vgpus);
	const gs_import_node *ts = node(inv, "ts");
	(void)state;

	/* Holders: a-0 (2 vgpus), a-1 (1); a-2 and b-0 (no series, one GPU on
	 * the node: they hold it too, by their requests 1 and 2). 6 replicas. */
	assert_int_equal(ts->gpus[0].holders, 4);
	assert_int_equal(wl(inv, "a")->compute_ppm, 50000); /* 0.30 / 6 */
	assert_non_null(strstr(gs_import_warning_at(inv, 0),
	                       "its 4 pods hold 6 replicas, and no per-pod series tell their "
	                       "use apart (DCGM_FI_PROF_GR_ENGINE_ACTIVE is the whole GPU's, "
	                       "copied per vgpu replica): divided evenly by the replicas each "
	                       "holds (vgpu labels), the GPU's p95 of 30.0% active is 5.0% per "
	                       "replica"));
	gs_import_free(inv);
}

/* Per-process values (newer exporters): pods differ from each other and
 * from the device at one instant, so each keeps its own. */
static const char own[] =
	"DCGM_FI_DEV_GPU_UTIL{" TS "} 40\n"
	"DCGM_FI_DEV_GPU_UTIL{" TS PODL("a-0") "} 10\n"
	"DCGM_FI_DEV_GPU_UTIL{" TS PODL("b-0") "} 30\n";

static void test_own(void **state)
{
	gs_inventory *inv = import_ok(own);
	const gs_import_node *ts = node(inv, "ts");
	(void)state;

	assert_string_equal(ts->gpus[0].division, "per-pod");
	assert_int_equal(ts->gpus[0].compute_ppm, 400000); /* the device's */
	assert_int_equal(wl(inv, "a")->compute_ppm, 100000);
	assert_int_equal(wl(inv, "a")->pods_measured, 1);
	assert_int_equal(wl(inv, "b")->compute_ppm, 150000); /* 30% over its 2 replicas */
	assert_int_equal(gs_import_warning_count(inv), 0);
	gs_import_free(inv);
}

/* A MIG instance time-sliced 2 ways, each replica a pod: its series copied
 * per vgpu replica, divided, and scaled from the 1g instance to the GPU. */
static void test_mig_vgpu(void **state)
{
	static const char h100[] = LIST(
		NODE("h", "p5.4xlarge", "NVIDIA-H100-80GB-HBM3",
		     ",\"nvidia.com/mig.strategy\":\"mixed\","
		     "\"nvidia.com/mig-1g.10gb.replicas\":\"2\"",
		     "\"nvidia.com/mig-1g.10gb\":\"2\""));
	static const char two[] = LIST(
		POD("ml", "s-0", "s", "h", "nvidia.com/mig-1g.10gb", "1") ","
		POD("ml", "s-1", "s", "h", "nvidia.com/mig-1g.10gb", "1"));
#define MIGL(pod, v) "Hostname=\"h\",gpu=\"0\",GPU_I_PROFILE=\"1g.10gb\",GPU_I_ID=\"9\"" \
	PODL(pod) ",vgpu=\"" v "\""
	static const char metrics[] =
		"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" MIGL("s-0", "0") "} 0.70\n"
		"DCGM_FI_PROF_GR_ENGINE_ACTIVE{" MIGL("s-1", "1") "} 0.70\n";
#undef MIGL
	gs_error err;
	int rc;
	gs_inventory *inv = import_mem(h100, two, metrics, 0, &err, &rc);
	(void)state;

	assert_gs_ok(rc, &err);
	/* 0.70 of the instance over 2 replicas, 1/7 of the H100 each. */
	assert_int_equal(wl(inv, "s")->compute_ppm, 50000);
	/* Without metrics one would keep half the slice: 1/14, 9984 / 2 MiB. */
	assert_int_equal(wl(inv, "s")->requested_ppm, 142856); /* 2 x 142857 / 2 */
	assert_string_equal(gs_import_warning_at(inv, 0),
	                    "node 'h' gpu 0 MIG 1g.10gb instance 9: its 2 pods hold 2 replicas, "
	                    "and no per-pod series tell their use apart "
	                    "(DCGM_FI_PROF_GR_ENGINE_ACTIVE is the whole instance's, copied per "
	                    "vgpu replica): divided evenly by the replicas each holds (vgpu "
	                    "labels), the instance's p95 of 70.0% active is 35.0% per replica");
	gs_import_free(inv);
	inv = import_mem(h100, two, NULL, 0, &err, &rc);
	assert_int_equal(wl(inv, "s")->compute_ppm, 71428);
	assert_int_equal(wl(inv, "s")->gpu_memory_mib, 4992);
	gs_import_free(inv);
}

/* ---- 3: a GPU one pod holds is that pod's ------------------------------------------ */

static void test_sole(void **state)
{
	gs_inventory *inv = import_ok("DCGM_FI_PROF_GR_ENGINE_ACTIVE{Hostname=\"l4\",gpu=\"0\"} "
	                              "0.25\nDCGM_FI_DEV_FB_USED{Hostname=\"l4\",gpu=\"0\"} 0\n");
	const gs_import_node *l4 = node(inv, "l4");
	const gs_import_workload *api = wl(inv, "api");
	(void)state;

	assert_string_equal(l4->gpus[0].division, "sole");
	assert_true(l4->gpus[0].attributed);
	assert_int_equal(api->compute_ppm, 250000);
	assert_int_equal(api->file_compute_ppm, 250000);
	assert_int_equal(api->memory_mib, 0);
	assert_int_equal(api->gpu_memory_mib, 512);
	assert_int_equal(api->flags, 0);
	gs_import_free(inv);
}

/* ---- 4: above 100 % is a data error ------------------------------------------------- */

static void test_data_errors(void **state)
{
	gs_inventory *inv = import_ok("DCGM_FI_DEV_GPU_UTIL{Hostname=\"l4\",gpu=\"0\"} 130\n"
	                              "DCGM_FI_DEV_GPU_UTIL{" TS "} 90\n"
	                              "DCGM_FI_DEV_GPU_UTIL{" TS PODL("a-0") "} 60\n"
	                              "DCGM_FI_DEV_GPU_UTIL{" TS PODL("a-1") "} 30\n"
	                              "DCGM_FI_DEV_GPU_UTIL{" TS PODL("b-0") "} 80\n");
	(void)state;

	/* Own values, 0.60 + 0.30 + 0.80 = 1.70 where the device read 0.90:
	 * each pod its part of the 0.90 (a-0 0.3176, a-1 0.1588, b-0 0.4235
	 * over its 2 replicas). With a-2, without readings, keeping its 1/8,
	 * the GPU's pods add up to 1.025: scaled by 1/1.025. */
	assert_int_equal(wl(inv, "a")->compute_ppm, 309900);
	assert_int_equal(wl(inv, "b")->compute_ppm, 206600);
	assert_int_equal(wl(inv, "api")->compute_ppm, GS_PPM);
	assert_int_equal(gs_import_warning_count(inv), 3);
	assert_string_equal(gs_import_warning_at(inv, 0),
	                    "node 'ts' gpu 0: at 1 instant its pods' own DCGM_FI_DEV_GPU_UTIL add "
	                    "up to more than the device's (170.0% against 90.0%): a data error; "
	                    "each pod is read as its part of the device's");
	assert_string_equal(gs_import_warning_at(inv, 1),
	                    "node 'ts' gpu 0: its 4 pods add up to 102.5% of the GPU (p95 of "
	                    "DCGM_FI_DEV_GPU_UTIL): a data error; their shares are scaled to "
	                    "100%");
	assert_string_equal(gs_import_warning_at(inv, 2),
	                    "node 'l4' gpu 0: 1 sample of DCGM_FI_DEV_GPU_UTIL above 100% (up "
	                    "to 130.0%): a data error, read as 100%");
	gs_import_free(inv);
}

/* Pods that ask for more replicas than the node has: what they keep is
 * scaled to the GPU. */
static void test_overcommit(void **state)
{
	static const char many[] = LIST(
		POD("ml", "a-0", "a", "mps", "nvidia.com/gpu", "3") ","
		POD("ml", "b-0", "b", "mps", "nvidia.com/gpu", "3"));
	gs_error err;
	int rc;
	gs_inventory *inv = import_mem(nodes, many, NULL, 0, &err, &rc);
	(void)state;

	assert_gs_ok(rc, &err);
	/* 6 of 4 quarters: each keeps 1/4 x 4/6 = 1/6; 6 x 3741 MiB is more than
	 * the T4 too. */
	assert_int_equal(wl(inv, "a")->compute_ppm, 166666);
	assert_string_equal(gs_import_warning_at(inv, 0),
	                    "node 'mps' gpu 0: its 2 pods add up to 150.0% of the GPU (what "
	                    "each requests): a data error; their shares are scaled to 100%");
	assert_string_equal(gs_import_warning_at(inv, 1),
	                    "node 'mps' gpu 0: its 2 pods use 22446 MiB, more than the 14967 MiB "
	                    "of its T4: a data error; their memory is scaled to fit");
	assert_string_equal(gs_import_warning_at(inv, 2),
	                    "node 'mps': its pods request 1.50 GPUs of its 1: a data error (the "
	                    "pod list and the node list disagree)");
	gs_import_free(inv);
}

/* ---- 7: bad lines and unknown GPUs --------------------------------------------------- */

static const char bad[] =
	"DCGM_FI_DEV_COMPUTE_PIDS{gpu=\"0\"} ERROR - FAILED TO CONVERT TO STRING\n"
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE{Hostname=\"l4\",gpu=\"0\"} 0.5\n"
	"DCGM_FI_DEV_FB_USED{Hostname=\"l4\",gpu=\"0\"} ERROR - FAILED TO CONVERT TO STRING\n"
	"* Connection #0 to host 192.168.1.16 left intact\n";

static void test_bad_lines(void **state)
{
	gs_inventory *inv = import_ok(bad);
	gs_error err;
	int rc;
	(void)state;

	assert_int_equal(gs_import_summary_get(inv)->bad_samples, 3);
	assert_int_equal(wl(inv, "api")->compute_ppm, 500000);
	assert_int_equal(gs_import_warning_count(inv), 4);
	assert_string_equal(gs_import_warning_at(inv, 0),
	                    "m.prom:1:35: skipped a bad sample: invalid value 'ERROR'");
	assert_string_equal(gs_import_warning_at(inv, 2),
	                    "m.prom:4:1: skipped a bad sample: expected a metric name, not '*'");
	assert_string_equal(gs_import_warning_at(inv, 3), "m.prom: skipped 3 bad samples");
	gs_import_free(inv);

	/* Strict: the first bad line is the error. */
	assert_null(import_mem(nodes, pods, bad, 1, &err, &rc));
	assert_int_equal(rc, GS_ESYNTAX);
	assert_gs_error(&err, "m.prom:1:35: error: invalid value 'ERROR'");
	/* Nothing that parses: not a scrape. */
	assert_null(import_mem(nodes, pods, "NAME READY\nllm-api-x 1/1\n", 0, &err, &rc));
	assert_int_equal(rc, GS_ESYNTAX);
	assert_gs_error(&err, "m.prom:1:6: error: invalid value 'READY' (no line of the file is "
	                      "a Prometheus sample)");
}

static void test_unknown_gpu(void **state)
{
	static const char odd[] = LIST(
		NODE("ada", "g6.xlarge", "NVIDIA-RTX-6000-Ada-Generation", "",
		     "\"nvidia.com/gpu\":\"1\"") ","
		NODE("l4", "g6.xlarge", "NVIDIA-L4", "", "\"nvidia.com/gpu\":\"1\""));
	static const char two[] = LIST(
		POD("r", "render-0", "render", "ada", "nvidia.com/gpu", "1") ","
		POD("web", "api-0", "api", "l4", "nvidia.com/gpu", "1"));
	gs_error err;
	int rc;
	gs_inventory *inv = import_mem(odd, two, NULL, 0, &err, &rc);
	(void)state;

	assert_gs_ok(rc, &err);
	assert_int_equal(gs_import_node_count(inv), 1);
	assert_int_equal(gs_import_summary_get(inv)->nodes_left_out, 1);
	assert_true(wl(inv, "render")->flags & GS_IMPORT_UNSCHEDULED);
	assert_int_equal(gs_import_warning_count(inv), 1);
	assert_string_equal(gs_import_warning_at(inv, 0),
	                    "node 'ada': unknown GPU product 'NVIDIA-RTX-6000-Ada-Generation' "
	                    "(label nvidia.com/gpu.product; see 'gpushare gpus', or add a GPU "
	                    "profile): left out, with the pods that run on it");
	gs_import_free(inv);
	assert_null(import_mem(odd, two, NULL, 1, &err, &rc));
	assert_int_equal(rc, GS_ENOTFOUND);
	/* Read from memory through the JSON reader, which keeps no positions:
	 * the list reader reads that item again with the YAML reader to
	 * locate it. */
	assert_gs_error(&err, "nodes.json:1:183: error: node 'ada': unknown GPU product "
	                      "'NVIDIA-RTX-6000-Ada-Generation' (label nvidia.com/gpu.product; "
	                      "see 'gpushare gpus', or add a GPU profile)");
}

/* ---- 6: the cluster's cost in the file ------------------------------------------------- */

static void test_cluster_key(void **state)
{
	gs_inventory *inv = import_ok(NULL);
	gs_scenario *back = NULL;
	gs_plan *p;
	gs_error err;
	char *text = NULL;
	const gs_workload *a;
	(void)state;

	assert_gs_ok(gs_import_render(inv, &text, &err), &err);
	/* 0.526 + 0.526 + 0.8048, each node once. */
	assert_non_null(strstr(text, "cluster:\n  costPerHour: 1.8568\n  gpus: 3\n  nodes: 3\n"));
	assert_non_null(strstr(text, "  current:\n    instance: g4dn.xlarge\n    count: 1\n"
	                             "    share: \"37.5%\"\n"));
	assert_gs_ok(gs_scenario_load_buffer(cat, "imported.yaml", text, strlen(text), &back,
	                                     &err), &err);
	a = gs_scenario_find(back, "a");
	assert_int_equal(a->current_share_ppm, 375000);
	assert_int_equal(a->compute_ppm, 125000);
	p = tu_plan(back);
	/* plan FILE compares with the cluster, as plan --nodes does. */
	assert_true(gs_plan_summary_get(p)->before_is_cluster);
	assert_int_equal(gs_plan_summary_get(p)->before_per_hour, 1856800);
	assert_int_equal(gs_plan_summary_get(p)->gpus_before, 3);
	assert_int_equal(gs_plan_summary_get(p)->current_per_hour, 1856800);
	gs_plan_free(p);
	gs_scenario_free(back);
	free(text);
	gs_import_free(inv);
}

/* Without the cluster, the workloads' `current` add up by their shares. */
static void test_current_share(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ncloud: aws\nworkloads:\n"
	                             "- {name: a, replicas: 3, gpuMemory: 1GiB, compute: 10%,\n"
	                             "   current: {instance: g4dn.xlarge, count: 1,\n"
	                             "             share: 37.5%}}\n"
	                             "- {name: b, replicas: 1, gpuMemory: 1GiB, compute: 10%,\n"
	                             "   current: {instance: g4dn.xlarge, count: 2}}\n");
	gs_plan *p = tu_plan(s);
	gs_error err;
	static const char zero[] = "version: 1\nworkloads:\n- {name: a, gpuMemory: 1GiB, "
	                           "compute: 1%, current: {instance: g4dn.xlarge, share: 0%}}\n";
	(void)state;
	/* 0.526 x 0.375 + 0.526 x 2 */
	assert_int_equal(gs_plan_summary_get(p)->current_per_hour, 197250 + 1052000);
	gs_plan_free(p);
	gs_scenario_free(s);
	assert_int_equal(gs_scenario_load_buffer(cat, "t.yaml", zero, strlen(zero), &s, &err),
	                 GS_ESCHEMA);
	assert_gs_error(&err, "t.yaml:3:83: error: current share must be more than 0% and at "
	                      "most 100%, not '0%'");
}

/* ---- 5: a plan that costs more than the cluster --------------------------------------- */

static void test_costs_more(void **state)
{
	gs_scenario *s = tu_scenario_file(cat, "../tests/cli/fixtures/cluster/costs-more.yaml");
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	gs_error err;
	char *html = NULL, *json = NULL;
	gs_doc *doc = NULL;
	(void)state;

	assert_int_equal(sum->before_per_hour, 526000);
	assert_int_equal(sum->after_per_hour, 2540400);
	assert_string_equal(sum->costs_more,
	                    "This plan costs $2.01/h more than the cluster today ($2.54/h against "
	                    "$0.53/h, 383.0%): 1 of the cluster's 2 nodes has no known price, so "
	                    "today's cost leaves it out; 1 replica that shares a GPU today gets "
	                    "one of its own (nightly: see why below); 1 node is a larger instance "
	                    "for its pods' CPU and RAM ($1.21/h more than the same GPUs on the "
	                    "cheapest instances); the plan's GPUs cost $1.27/h each, the "
	                    "cluster's $0.26/h; the workloads that cost most more than today are "
	                    "nightly, $1.53/h ($0.13/h today); api, $1.01/h ($0.39/h today).");
	assert_gs_ok(gs_report_html(p, "t", &html, &err), &err);
	assert_non_null(strstr(html, "<p class=\"warn\" role=\"alert\"><strong>Costs more."
	                             "</strong> This plan costs $2.01/h more"));
	assert_gs_ok(gs_doc_plan(p, &doc, &err), &err);
	assert_gs_ok(gs_doc_render(doc, GS_FORMAT_JSON, &json, &err), &err);
	assert_non_null(strstr(json, "\"costs_more\": \"This plan costs $2.01/h more"));
	free(json);
	gs_doc_free(doc);
	free(html);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* Workloads that ask more than the cluster's GPUs: a data error. */
static void test_util_error(void **state)
{
	gs_scenario *s = tu_scenario(cat, "t.yaml",
	                             "version: 1\ncloud: aws\n"
	                             "cluster: {costPerHour: 0.526, gpus: 1, nodes: 1}\n"
	                             "workloads:\n- {name: a, replicas: 3, gpuMemory: 1GiB, "
	                             "compute: 50%, measuredOn: T4, gpus: [T4]}\n");
	gs_plan *p = tu_plan(s);
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	int found = 0;
	(void)state;

	assert_int_equal(sum->util_before_permille, 1500);
	for (size_t i = 0; i < gs_plan_warning_count(p); i++)
		found |= strcmp(gs_plan_warning_at(p, i),
		                "data error: the workloads ask 150.0% of the cluster's 1 GPUs "
		                "(each replica at the compute it gives), more than the cluster "
		                "has: their compute or replicas overstate what runs today (a "
		                "shared GPU's whole activity charged to each of its pods?), so "
		                "'before' is not what these workloads cost today") == 0;
	assert_true(found);
	assert_non_null(sum->costs_more);
	assert_non_null(strstr(sum->costs_more, "each replica sized at its peak compute (or its "
	                                        "request, where it has no metrics), the "
	                                        "workloads need 150.0% of the cluster's 1 GPUs, "
	                                        "above targetUtilization 90.0%"));
	gs_plan_free(p);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_share),  cmocka_unit_test(test_even),
		cmocka_unit_test(test_vgpu),        cmocka_unit_test(test_own),
		cmocka_unit_test(test_mig_vgpu),
		cmocka_unit_test(test_sole),        cmocka_unit_test(test_data_errors),
		cmocka_unit_test(test_overcommit),  cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_unknown_gpu), cmocka_unit_test(test_cluster_key),
		cmocka_unit_test(test_current_share), cmocka_unit_test(test_costs_more),
		cmocka_unit_test(test_util_error),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
