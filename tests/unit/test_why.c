/*
 * test_why.c - every why-text against the decision that made it: plans
 * built from small workload files (and repro/eks-team.yaml as a buffer),
 * the exact text of each reason, and then the facts it states checked in
 * the plan's own records: "alone" means one assignment on the GPU, an
 * MPS split is the one the records give each client, a named cost is a
 * node's price, idle GPUs are GPUs without assignments, a tenant named is
 * on the same GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/decision.h"
#include "plan/strategy.h"

static gs_catalog *cat;

typedef struct planned {
	gs_scenario *s;
	gs_plan *p;
} planned;

static planned make(const char *yaml)
{
	planned x = { NULL, NULL };
	x.s = tu_scenario(cat, "test.yaml", yaml);
	x.p = tu_plan(x.s);
	return x;
}

static void drop(planned *x)
{
	gs_plan_free(x->p);
	gs_scenario_free(x->s);
}

static size_t index_of(const gs_plan *p, const char *name)
{
	for (size_t i = 0; i < gs_plan_workload_count(p); i++)
		if (strcmp(gs_plan_workload_at(p, i)->workload->name, name) == 0)
			return i;
	fail_msg("no workload %s", name);
	return 0;
}

static const gs_decision *dec(const gs_plan *p, const char *name)
{
	const gs_decision *d = gs_plan_decision_at(p, index_of(p, name));
	assert_non_null(d);
	assert_string_equal(d->w->name, name);
	return d;
}

static void expect_why(const gs_plan *p, const char *name, const char *want)
{
	assert_string_equal(gs_plan_workload_at(p, index_of(p, name))->why, want);
}

/* The GPU the decision describes, from the plan's records. */
static const gs_plan_gpu *gpu_of(const gs_plan *p, const gs_decision *d)
{
	const gs_plan_node *n = gs_plan_node_at(p, (size_t)d->node);
	assert_non_null(n);
	assert_true((size_t)d->gpu < n->n_gpus);
	return &n->gpus[d->gpu];
}

static int is(const gs_assignment *a, const char *name, int replica)
{
	return strcmp(a->workload->name, name) == 0 && a->replica == replica;
}

/* The replica's assignment on GPU pg, or NULL. */
static const gs_assignment *on_gpu(const gs_plan_gpu *pg, const char *name, int replica)
{
	for (size_t a = 0; a < pg->n_assignments; a++)
		if (is(&pg->assignments[a], name, replica))
			return &pg->assignments[a];
	for (size_t m = 0; m < pg->n_mig; m++)
		for (size_t a = 0; a < pg->mig[m].n_assignments; a++)
			if (is(&pg->mig[m].assignments[a], name, replica))
				return &pg->mig[m].assignments[a];
	return NULL;
}

/* Where a replica is in the records: its node, GPU and assignment. */
static const gs_assignment *find(const gs_plan *p, const char *name, int replica,
                                 size_t *node, size_t *gpu)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++) {
			const gs_assignment *a = on_gpu(&n->gpus[g], name, replica);
			if (a) {
				*node = i;
				*gpu = g;
				return a;
			}
		}
	}
	fail_msg("%s/%d is not in the plan", name, replica);
	return NULL;
}

static int idle_gpus(const gs_plan_node *n)
{
	int idle = 0;
	for (size_t g = 0; g < n->n_gpus; g++)
		idle += n->gpus[g].n_assignments == 0 && n->gpus[g].n_mig == 0;
	return idle;
}

static int64_t gib(int64_t n) { return n << 30; }
static gs_micros usd(int64_t cents) { return cents * (GS_MICROS_PER_USD / 100); }

/* The figures of "dedicated ($X/h instead of $Y/h)": X is a whole GPU
 * per replica (in these tests at the price per GPU of the one node its
 * replicas are on now), Y is its cost_per_hour in the plan: the capacity
 * it holds, without its part of the idle (showback). */
static void expect_dedicated_figures(const gs_plan *p, const char *name)
{
	const gs_decision *d = dec(p, name);
	const gs_plan_node *n = gs_plan_node_at(p, (size_t)d->node);
	gs_micros per_gpu = n->price_per_hour / (gs_micros)n->n_gpus;
	assert_int_equal(d->ded_cost, d->w->replicas * per_gpu);
	assert_int_equal(d->cost, gs_plan_workload_at(p, index_of(p, name))->cost_per_hour);
	/* "instead of $Y": what it pays here, its part of the idle included. */
	assert_int_equal(d->idle, gs_plan_workload_at(p, index_of(p, name))->idle_per_hour);
}

/* Every why of p: the words "light" and "heavy" come from no template, and
 * "tenant" only where tenants differ. */
static void expect_no_template_words(const gs_plan *p, int tenants)
{
	for (size_t i = 0; i < gs_plan_workload_count(p); i++) {
		const char *why = gs_plan_workload_at(p, i)->why;
		assert_null(strstr(why, "light"));
		assert_null(strstr(why, "heavy"));
		if (!tenants)
			assert_null(strstr(why, "tenant"));
	}
}

/* ---- repro/eks-team.yaml ------------------------------------------------- */

static const char eks_team[] =
	"instances: [\"g5.*\", \"g6.*\", \"p4d.*\", \"p5.*\"]\n"
	"workloads:\n"
	"  - {name: embed-api, kind: inference, replicas: 3, gpuMemory: 3GiB, compute: 10%, "
	"measuredOn: A10G, team: search}\n"
	"  - {name: rerank-api, kind: inference, replicas: 2, gpuMemory: 4GiB, compute: 15%, "
	"measuredOn: A10G, team: search}\n"
	"  - {name: ocr-api, kind: inference, replicas: 2, gpuMemory: 5GiB, compute: 20%, "
	"measuredOn: A10G, team: docs}\n"
	"  - {name: tts-api, kind: inference, replicas: 1, gpuMemory: 6GiB, compute: 15%, "
	"measuredOn: A10G, team: voice}\n"
	"  - {name: fraud-score, kind: inference, replicas: 2, gpuMemory: 2GiB, compute: 10%, "
	"latency: critical, measuredOn: A10G, team: payments}\n"
	"  - {name: asr-stream, kind: inference, replicas: 2, gpuMemory: 6GiB, compute: 30%, "
	"latency: critical, measuredOn: A10G, team: voice}\n"
	"  - {name: chat-llm, kind: inference, replicas: 2, gpuMemory: 18GiB, compute: 60%, "
	"latency: critical, measuredOn: A10G, team: assistant}\n"
	"  - {name: vision-llm, kind: inference, replicas: 2, gpuMemory: 14GiB, compute: 55%, "
	"latency: critical, measuredOn: A10G, team: assistant}\n"
	"  - {name: summarize-offline, kind: inference, replicas: 1, gpuMemory: 12GiB, "
	"compute: 65%, measuredOn: A10G, team: docs}\n"
	"  - {name: translate-api, kind: inference, replicas: 2, gpuMemory: 8GiB, compute: 40%, "
	"measuredOn: A10G, team: docs}\n"
	"  - {name: nb-alice, kind: notebook, gpuMemory: 8GiB, compute: 10%, team: research}\n"
	"  - {name: nb-bob, kind: notebook, gpuMemory: 6GiB, compute: 5%, team: research}\n"
	"  - {name: nb-carol, kind: notebook, gpuMemory: 10GiB, compute: 15%, team: research}\n"
	"  - {name: nb-dave, kind: notebook, gpuMemory: 4GiB, compute: 5%, team: research}\n"
	"  - {name: nb-erin, kind: notebook, gpuMemory: 12GiB, compute: 20%, team: research}\n"
	"  - {name: nb-frank, kind: notebook, gpuMemory: 4GiB, compute: 5%, team: research}\n"
	"  - {name: ci-unit-gpu, kind: ci, replicas: 2, gpuMemory: 2GiB, compute: 10%, "
	"team: platform}\n"
	"  - {name: ci-model-smoke, kind: ci, gpuMemory: 4GiB, compute: 15%, team: platform}\n"
	"  - {name: ci-perf, kind: ci, gpuMemory: 6GiB, compute: 25%, team: platform}\n"
	"  - {name: ci-e2e, kind: ci, gpuMemory: 3GiB, compute: 10%, team: platform}\n"
	"  - {name: nightly-finetune, kind: training, gpuMemory: 30GiB, compute: 85%, "
	"measuredOn: A100-SXM4-40GB, team: research}\n"
	"  - {name: batch-embed-backfill, kind: batch, replicas: 2, gpuMemory: 16GiB, "
	"compute: 75%, measuredOn: A10G, team: search}\n";

/* The file, with a pricing line or "", and keys (", bound: compute")
 * added to workload name's mapping, or none when name is NULL. */
static planned eks_with(const char *pricing, const char *name, const char *keys)
{
	char buf[sizeof eks_team + 256] = "version: 1\ncloud: aws\n", at[64];
	const char *w, *end;
	strcat(buf, pricing);
	if (!name) {
		strcat(buf, eks_team);
		return make(buf);
	}
	snprintf(at, sizeof at, "{name: %s,", name);
	assert_non_null(w = strstr(eks_team, at));
	assert_non_null(end = strstr(w, "}\n"));
	strncat(buf, eks_team, (size_t)(end - eks_team));
	strcat(buf, keys);
	strcat(buf, end);
	return make(buf);
}

/* The file, with a pricing line or "". */
static planned eks(const char *pricing)
{
	return eks_with(pricing, NULL, NULL);
}

/* vision-llm is dedicated because the device plugin's MPS split for two
 * clients is below its memory: the text says so, with the split the
 * records would give each of two clients. (This test used chat-llm until
 * bandwidth conversion made its 60% of an A10G 120% of an L4, which puts
 * it in a MIG slice: test_mig_one_tenant. vision-llm, measured on the A10G
 * it runs on, keeps this rule without changing the file.) */
static void test_mps_split(void **state)
{
	planned x = eks("");
	const gs_decision *d = dec(x.p, "vision-llm");
	size_t n, g, cn, cg;
	gs_micros ded_nodes = 0;
	(void)state;
	expect_why(x.p, "vision-llm",
	           "dedicated A10G (55% compute, 14.00 GiB): time-slicing is ruled out "
	           "(latency-critical inference at 55% of A10G >= 50%) and MPS's split for 2 "
	           "clients gives 11.24 GiB per client < its 14.00 GiB; rejected: MIG (A10G "
	           "has no MIG), H100-SXM5-80GB (+$4.87/h if moved alone)");
	assert_int_equal(d->why, GS_WHY_RULE);
	assert_int_equal(d->bind.rule, GS_RULE_MPS_MEMORY);
	assert_null(d->bind.with);
	assert_int_equal(d->bind.figs.k, 2);
	/* The split a client gets in the records (plan_records.c). */
	assert_int_equal(d->bind.figs.have >> 20, (d->model->memory_mib << 20) / 2 >> 20);
	assert_int_equal(d->bind.figs.have >> 20, 11514);
	assert_int_equal(d->bind.figs.need, gib(14));
	assert_string_equal(d->ts.rule, "latency-critical heavy inference");
	assert_int_equal(d->ts.threshold_ppm, GS_TS_LATENCY_HEAVY_PPM);
	/* Dedicated: alone on its GPU, both replicas. */
	for (int r = 0; r < 2; r++) {
		find(x.p, "vision-llm", r, &n, &g);
		assert_int_equal(gs_plan_node_at(x.p, n)->gpus[g].n_assignments, 1);
		assert_int_equal(gs_plan_node_at(x.p, n)->gpus[g].strategy,
		                 GS_STRATEGY_DEDICATED);
		ded_nodes += gs_plan_node_at(x.p, n)->price_per_hour;
	}
	/* H100 +$4.87/h: the local search's measure, which is one more
	 * p5.4xlarge (chat-llm's MIG GPU has no memory slice left) for the two
	 * g5.xlarge it frees. */
	find(x.p, "chat-llm", 0, &cn, &cg);
	assert_ptr_equal(d->alt_model, gs_plan_node_at(x.p, cn)->gpus[cg].model);
	assert_int_equal(d->alt_delta, gs_plan_node_at(x.p, cn)->price_per_hour - ded_nodes);
	assert_int_equal((d->alt_delta + usd(1) / 2) / usd(1), 487);
	drop(&x);
}

/* summarize-offline uses 65% of an A10G: tolerant inference, which no rule
 * of the study keeps off time-slicing; it is not "light". It now
 * time-slices on the A10G it was measured on (on an L4, bandwidth
 * conversion makes its 65% 130%). */
static void test_ts_rule_words(void **state)
{
	planned x = eks("");
	const gs_decision *d = dec(x.p, "summarize-offline");
	(void)state;
	expect_why(x.p, "summarize-offline",
	           "time-slicing on A10G (65% compute, 12.00 GiB): with 1 other replica, "
	           "together 85% compute (targetUtilization 90%) and 17.00 of 19.97 GiB; "
	           "allowed for latency-tolerant inference; rejected: MIG (A10G has no MIG), "
	           "dedicated ($1.01/h instead of $0.75/h with its share of idle), "
	           "H100-SXM5-80GB (+$6.88/h if moved alone)");
	assert_null(d->ts.rule);
	assert_int_equal(d->ts.threshold_ppm, 0);
	assert_int_equal(d->ts.share_ppm, 650000);
	/* The group's figures are the records' of its GPU. */
	{
		const gs_plan_gpu *pg = gpu_of(x.p, d);
		int64_t comp = 0;
		assert_int_equal(pg->n_assignments, 2);
		for (size_t a = 0; a < pg->n_assignments; a++)
			comp += pg->assignments[a].compute_ppm;
		assert_int_equal(comp, d->group_comp);
		assert_int_equal(d->group_n, 2);
	}
	/* Latency-critical inference under the threshold names it. */
	d = dec(x.p, "asr-stream");
	assert_non_null(strstr(gs_plan_workload_at(x.p, index_of(x.p, "asr-stream"))->why,
	                       "allowed for latency-critical inference at 30% of A10G < 50%;"));
	assert_true(d->ts.share_ppm < d->ts.threshold_ppm);
	expect_no_template_words(x.p, 0);
	drop(&x);
}

/* chat-llm in MIG beside nightly-finetune, every workload of tenant
 * `default`: no "isolates it from other tenants"; the whole-GPU cost is
 * two of the node it is on; the next smaller profile lacks memory. (This
 * test used embed-api until bandwidth conversion: chat-llm's 60% of an
 * A10G is 120% of an L4, so it, not embed-api, now joins nightly-finetune
 * on the H100, with no change to the file.) */
static void test_mig_one_tenant(void **state)
{
	planned x = eks("");
	const gs_decision *d = dec(x.p, "chat-llm");
	const gs_plan_gpu *pg;
	const gs_plan_node *n;
	size_t vn, vg;
	int beside = 0;
	(void)state;
	expect_why(x.p, "chat-llm",
	           "MIG 1g.20gb on H100-SXM5-80GB (11% compute, 18.00 GiB): on whole GPUs the "
	           "H100-SXM5-80GB replicas would cost $13.76/h, not $6.88/h; beside "
	           "nightly-finetune; 1g.10gb has 9.75 GiB < 18.00 GiB; rejected: "
	           "time-slicing (latency-critical inference at 60% of A10G >= 50%), A10G "
	           "(+$2.01/h if moved alone)");
	assert_int_equal(d->why, GS_WHY_MIG);
	assert_null(d->other_tenant);
	assert_null(strstr(gs_plan_workload_at(x.p, index_of(x.p, "chat-llm"))->why, "tenant"));
	pg = gpu_of(x.p, d);
	n = gs_plan_node_at(x.p, (size_t)d->node);
	for (size_t m = 0; m < pg->n_mig; m++)
		for (size_t a = 0; a < pg->mig[m].n_assignments; a++)
			beside |= strcmp(pg->mig[m].assignments[a].workload->name,
			                 "nightly-finetune") == 0;
	assert_true(beside);
	assert_string_equal(d->profile->name, "1g.20gb");
	assert_string_equal(d->smaller.figs.prof->name, "1g.10gb");
	assert_int_equal(d->smaller.figs.have, d->smaller.figs.prof->memory_mib << 20);
	assert_int_equal(d->probe.mig_cost, n->price_per_hour);
	assert_int_equal(d->probe.whole_cost, 2 * n->price_per_hour);
	/* A10G +$2.01/h: two more g5.xlarge, the node vision-llm has. */
	find(x.p, "vision-llm", 0, &vn, &vg);
	assert_int_equal(d->alt_delta, 2 * gs_plan_node_at(x.p, vn)->price_per_hour);
	drop(&x);
}

/* The spot case: a 3%, 6 GiB service dedicated on a p4d.24xlarge
 * with 6 idle GPUs. The text names the companion's rule, the idle GPUs and
 * what MIG and the other allowed model would cost. Under usable memory
 * and bandwidth conversion the plan time-slices tts-api on an L4 (15% of
 * an A10G by bandwidth is 30% there) and gives the p4d's spare GPU to
 * summarize-offline, whose memory rather than its companion's rule keeps
 * it apart (plan_why_eks_spot shows that). So tts-api is measured
 * compute-bound (3% of an A100, as before) and allowed only datacenter
 * GPUs, A100 or H100: the p4d is then its place, and H100 its rejected
 * alternative. */
static void test_spot_p4d(void **state)
{
	planned x = eks_with("pricing: spot\n", "tts-api",
	                     ", bound: compute, gpus: [A100-SXM4-40GB, H100-SXM5-80GB]");
	const gs_decision *d = dec(x.p, "tts-api");
	const gs_plan_node *n;
	size_t nn, ng, tn, tg;
	(void)state;
	expect_why(x.p, "tts-api",
	           "dedicated A100-SXM4-40GB (3% compute, 6.00 GiB): beside nightly-finetune/0, "
	           "which rules out time-slicing (training jobs at 85% of A100-SXM4-40GB >= "
	           "70%), MPS's split for 2 clients gives 20.00 GiB per client < "
	           "nightly-finetune's 30.00 GiB; 6 of its p4d.24xlarge's 8 GPUs idle (no "
	           "smaller A100-SXM4-40GB instance); rejected: MIG (the A100-SXM4-40GB "
	           "replicas would cost $16.00/h with it, not $8.00/h), H100-SXM5-80GB "
	           "(+$23.45/h if moved alone)");
	n = gs_plan_node_at(x.p, (size_t)d->node);
	assert_string_equal(n->instance->type, "p4d.24xlarge");
	assert_int_equal(idle_gpus(n), 6);
	assert_int_equal(d->node_idle, 6);
	assert_int_equal(gpu_of(x.p, d)->n_assignments, 1);
	/* The companion is on the same node, and the split is half the GPU. */
	assert_string_equal(d->bind.with->name, "nightly-finetune");
	find(x.p, "nightly-finetune", 0, &nn, &ng);
	find(x.p, "tts-api", 0, &tn, &tg);
	assert_int_equal(nn, tn);
	assert_int_equal(d->bind.figs.have >> 20, (d->model->memory_mib << 20) / 2 >> 20);
	assert_int_equal(d->bind.figs.need, d->bind.fails->memory_bytes);
	/* MIG: two nodes instead of this one. H100: one p5.48xlarge at spot,
	 * the only H100 instance with a spot price, bought for it alone. */
	assert_int_equal(d->probe.whole_cost, n->price_per_hour);
	assert_int_equal(d->probe.mig_cost, 2 * n->price_per_hour);
	assert_string_equal(d->alt_model->name, "H100-SXM5-80GB");
	assert_int_equal(d->alt_delta, gs_instance_find(cat, "p5.48xlarge")->spot);
	drop(&x);
}

/* ---- small files --------------------------------------------------------- */

/* The seed's fourth workload: targetUtilization decides, with the figures
 * of the time-sliced GPU it could not join. */
static void test_target(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [p3.2xlarge]\nworkloads:\n"
	                 "  - {name: wl-a, gpuMemory: 3.5GiB, compute: 25%}\n"
	                 "  - {name: wl-b, gpuMemory: 3.5GiB, compute: 25%}\n"
	                 "  - {name: wl-c, gpuMemory: 3.5GiB, compute: 25%}\n"
	                 "  - {name: wl-d, gpuMemory: 3.5GiB, compute: 25%}\n");
	const gs_decision *d = dec(x.p, "wl-d");
	size_t n, g;
	int64_t comp = 0;
	const gs_plan_gpu *pg;
	(void)state;
	expect_why(x.p, "wl-d",
	           "dedicated V100-SXM2-16GB (25% compute, 3.50 GiB): beside wl-a/0 and 2 "
	           "more, the GPU would run at 100% > targetUtilization 90%; rejected: MIG "
	           "(V100-SXM2-16GB has no MIG)");
	assert_int_equal(d->bind.rule, GS_RULE_TARGET);
	find(x.p, "wl-a", 0, &n, &g);
	pg = &gs_plan_node_at(x.p, n)->gpus[g];
	assert_int_equal(pg->n_assignments, 3);
	for (size_t a = 0; a < pg->n_assignments; a++)
		comp += pg->assignments[a].compute_ppm;
	assert_int_equal(d->bind.figs.need, comp + 250000);
	assert_int_equal(d->bind.figs.have, 900000);
	assert_int_equal(gpu_of(x.p, d)->n_assignments, 1);
	drop(&x);
}

/* A workload alone in its file: nothing to share with, not "no sharing
 * group fits it". */
static void test_alone(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [\"g6.*\"]\nworkloads:\n"
	                 "  - {name: solo, kind: inference, gpuMemory: 6GiB, compute: 20%}\n");
	const gs_decision *d = dec(x.p, "solo");
	(void)state;
	expect_why(x.p, "solo",
	           "dedicated L4 (20% compute, 6.00 GiB): no other replica is planned on L4; "
	           "rejected: MIG (L4 has no MIG)");
	assert_int_equal(d->why, GS_WHY_ALONE);
	assert_int_equal(gs_plan_node_count(x.p), 1);
	assert_int_equal(gpu_of(x.p, d)->n_assignments, 1);
	drop(&x);
}

/* Two tenants in MIG on one GPU: "isolated from tenant" names the other,
 * which the records put on the same GPU; the next smaller profile lacks
 * memory. */
static void test_tenants(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [\"p4d.*\"]\nworkloads:\n"
	                 "  - {name: acme-chat, tenant: acme, replicas: 2, gpuMemory: 8GiB, "
	                 "compute: 12%}\n"
	                 "  - {name: globex-chat, tenant: globex, replicas: 2, gpuMemory: 8GiB, "
	                 "compute: 12%}\n");
	const gs_decision *d = dec(x.p, "acme-chat");
	const gs_plan_gpu *pg = gpu_of(x.p, d);
	int globex = 0;
	(void)state;
	expect_why(x.p, "acme-chat",
	           "MIG 1g.10gb on A100-SXM4-40GB (12% compute, 8.00 GiB): on whole GPUs the "
	           "A100-SXM4-40GB replicas would cost $43.92/h, not $21.96/h; isolated from "
	           "tenant globex on the same GPU; 1g.5gb has 4.75 GiB < 8.00 GiB; 7 of its "
	           "p4d.24xlarge's 8 GPUs idle (no smaller A100-SXM4-40GB instance)");
	for (size_t m = 0; m < pg->n_mig; m++)
		for (size_t a = 0; a < pg->mig[m].n_assignments; a++)
			globex |= strcmp(pg->mig[m].assignments[a].workload->tenant, "globex") == 0;
	assert_true(globex);
	assert_string_equal(d->smaller.figs.prof->name, "1g.5gb");
	assert_int_equal(d->smaller.figs.have, d->smaller.figs.prof->memory_mib << 20);
	assert_int_equal(d->probe.mig_cost, gs_plan_node_at(x.p, 0)->price_per_hour);
	expect_dedicated_figures(x.p, "acme-chat");
	drop(&x);

	/* The same file with one tenant: time-sliced, and no tenant named. */
	x = make("version: 1\ncloud: aws\ninstances: [\"p4d.*\"]\nworkloads:\n"
	         "  - {name: acme-chat, replicas: 2, gpuMemory: 8GiB, compute: 12%}\n"
	         "  - {name: globex-chat, replicas: 2, gpuMemory: 8GiB, compute: 12%}\n");
	expect_why(x.p, "acme-chat",
	           "time-slicing on A100-SXM4-40GB (12% compute, 8.00 GiB): with 3 other "
	           "replicas, together 48% compute (targetUtilization 90%) and 32.00 of 35.46 "
	           "GiB; allowed for latency-tolerant inference; 7 of its p4d.24xlarge's 8 "
	           "GPUs idle (no smaller A100-SXM4-40GB instance); rejected: MIG (the "
	           "A100-SXM4-40GB replicas would cost the same with it, with more to "
	           "reconfigure)");
	expect_dedicated_figures(x.p, "acme-chat");
	expect_no_template_words(x.p, 0);
	drop(&x);
}

/* Sharing loses: the plan keeps a whole GPU per replica, and says what
 * each plan costs; the dedicated one is the plan's. Only g5.12xlarge (4
 * A10Gs) may be bought, and DRA capacity claims cannot name their GPU:
 * the shared plan needs a node of its own beside the dedicated one. */
static void test_unshared(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [\"g5.12xlarge\"]\n"
	                 "fractions: [dra]\nplacement: pinned\nworkloads:\n"
	                 "  - {name: hot, kind: inference, replicas: 2, gpuMemory: 2GiB, "
	                 "compute: 45%}\n"
	                 "  - {name: big, kind: inference, replicas: 2, gpuMemory: 10GiB, "
	                 "compute: 40%}\n");
	const gs_decision *d = dec(x.p, "hot");
	(void)state;
	expect_why(x.p, "hot",
	           "dedicated A10G (45% compute, 2.00 GiB): no sharing plan found beats a "
	           "whole GPU per replica ($11.34/h against $5.67/h)");
	assert_int_equal(d->why, GS_WHY_UNSHARED);
	assert_int_equal(d->dedicated_cost, gs_plan_summary_get(x.p)->after_per_hour);
	assert_int_equal(d->shared_cost, 2 * gs_plan_summary_get(x.p)->after_per_hour);
	assert_int_equal(gpu_of(x.p, d)->n_assignments, 1);
	drop(&x);
}

/* A training job and two light replicas on p4d.24xlarge (8 A100s): whole
 * GPUs on one node are the cheapest plan, and the shared plan finds it
 * (the optimiser's program holds a replica alone on a GPU as a dedicated
 * one); each reason says why its replicas stayed alone. Before, the
 * program had only time-sliced groups for api, on a node of their own,
 * and the plan fell back to whole GPUs after a shared plan at $43.92/h. */
static void test_alone_on_one_node(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [\"p4d.*\"]\nworkloads:\n"
	                 "  - {name: train, kind: training, gpuMemory: 30GiB, compute: 85%}\n"
	                 "  - {name: api, kind: inference, replicas: 2, gpuMemory: 4GiB, "
	                 "compute: 10%}\n");
	(void)state;
	assert_int_equal(gs_plan_summary_get(x.p)->after_per_hour, 21957642);
	expect_why(x.p, "api",
	           "dedicated A100-SXM4-40GB (10% compute, 4.00 GiB): the rules allow it beside "
	           "api/1, where the packing did not put it; 5 of its p4d.24xlarge's 8 GPUs idle "
	           "(no smaller A100-SXM4-40GB instance); rejected: MIG (the A100-SXM4-40GB "
	           "replicas would cost the same with it, with more to reconfigure)");
	drop(&x);
}

/* Fault isolation without MIG, and a workload whose only neighbours on its
 * model are fault-isolated. */
static void test_fault(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [\"g6.*\"]\nworkloads:\n"
	                 "  - {name: pay, gpuMemory: 4GiB, compute: 10%, isolation: fault}\n"
	                 "  - {name: api, gpuMemory: 4GiB, compute: 10%}\n");
	(void)state;
	expect_why(x.p, "pay",
	           "dedicated L4 (10% compute, 4.00 GiB): isolation: fault, and L4 has no MIG; "
	           "rejected: time-slicing and MPS (isolation: fault)");
	expect_why(x.p, "api",
	           "dedicated L4 (10% compute, 4.00 GiB): no whole L4 GPU to share: the others "
	           "are fault-isolated (e.g. pay/0); rejected: MIG (L4 has no MIG)");
	assert_true(dec(x.p, "api")->bind.with->isolation_fault);
	assert_int_equal(gpu_of(x.p, dec(x.p, "pay"))->n_assignments, 1);
	drop(&x);
}

/* spread: gpu keeps two small replicas apart: on two GPUs in the records. */
static void test_spread(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [g6.xlarge]\nworkloads:\n"
	                 "  - {name: api, replicas: 2, gpuMemory: 4GiB, compute: 10%, "
	                 "spread: gpu}\n");
	size_t n0, g0, n1, g1;
	(void)state;
	expect_why(x.p, "api",
	           "dedicated L4 (10% compute, 4.00 GiB): the only whole L4 GPUs it could join "
	           "hold its own replicas, which spread: gpu keeps apart; rejected: MIG (L4 "
	           "has no MIG)");
	assert_int_equal(dec(x.p, "api")->bind.rule, GS_RULE_SPREAD);
	find(x.p, "api", 0, &n0, &g0);
	find(x.p, "api", 1, &n1, &g1);
	assert_true(n0 != n1 || g0 != g1);
	drop(&x);
}

/* A latency-tolerant replica whose memory alone is over what a shared GPU
 * offers after its headroom: the text gives both figures (it used to end
 * in "and ;"). 20 GiB against an L4's 21.95 GiB less 10%. */
static void test_memory_alone(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [g6.xlarge]\nworkloads:\n"
	                 "  - {name: chat, replicas: 2, gpuMemory: 20GiB, compute: 30%, "
	                 "gpus: [L4]}\n");
	(void)state;
	expect_why(x.p, "chat",
	           "dedicated L4 (30% compute, 20.00 GiB): time-slicing is ruled out "
	           "(latency-tolerant inference) and even alone it needs 20.00 GiB > the "
	           "19.76 GiB a shared GPU offers; rejected: MIG (L4 has no MIG)");
	drop(&x);
}

/* MIG and MPS in one device-plugin plan: the plan drops one, and the texts
 * say which and what the other plan costs. The MPS split stated is the
 * records'. llm is compute-bound (as in tests/cli/fixtures/why/
 * mig-or-mps.yaml): by bandwidth its 55% of an A10G would be 110% of the
 * L4 it is pinned to, more than a whole GPU. */
static void test_mig_or_mps(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [g6.xlarge, \"p4d.*\"]\n"
	                 "workloads:\n"
	                 "  - {name: pay, replicas: 7, gpuMemory: 4GiB, compute: 5%, "
	                 "isolation: fault, gpus: [A100-SXM4-40GB]}\n"
	                 "  - {name: llm, replicas: 2, latency: critical, gpuMemory: 8GiB, "
	                 "compute: 55%, measuredOn: A10G, bound: compute, gpus: [L4]}\n");
	const gs_decision *d = dec(x.p, "llm");
	const gs_assignment *a;
	size_t n, g;
	(void)state;
	expect_why(x.p, "pay",
	           "dedicated A100-SXM4-40GB (5% compute, 4.00 GiB): isolation: fault, and this "
	           "plan has no MIG: the device plugin cannot mix MIG and MPS nodes, and the "
	           "plan with MIG costs $23.57/h; 1 of its p4d.24xlarge's 8 GPUs idle (no "
	           "smaller A100-SXM4-40GB instance); rejected: time-slicing and MPS "
	           "(isolation: fault)");
	expect_why(x.p, "llm",
	           "MPS on L4, 2 clients (32% compute, 8.00 GiB): time-slicing is ruled out "
	           "(latency-critical inference at 55% of A10G >= 50%); the device plugin's "
	           "split, 50% of threads and 11.25 GiB per client, holds it; rejected: MIG "
	           "(this plan has no MIG: the device plugin cannot mix MIG and MPS nodes, "
	           "and the plan with MIG costs $23.57/h), dedicated ($1.61/h instead of "
	           "$0.66/h with its share of idle)");
	assert_int_equal(d->left_out, GS_STRATEGY_MIG);
	assert_true(d->left_out_cost > gs_plan_summary_get(x.p)->after_per_hour);
	a = find(x.p, "llm", 0, &n, &g);
	assert_int_equal(a->thread_percent, 50);
	assert_int_equal(a->memory_limit_mib, 11517);
	for (size_t i = 0; i < gs_plan_node_count(x.p); i++)
		assert_int_not_equal(gs_plan_node_at(x.p, i)->gpus[0].strategy, GS_STRATEGY_MIG);
	drop(&x);
}

/* MPS under DRA: the limits per claim stated are the records'. */
static void test_dra(void **state)
{
	planned x = make("version: 1\ncloud: aws\nvia: dra\ninstances: [g6.xlarge]\n"
	                 "workloads:\n"
	                 "  - {name: llm, latency: critical, gpuMemory: 14GiB, compute: 55%, "
	                 "measuredOn: L4}\n"
	                 "  - {name: rank, latency: critical, gpuMemory: 4GiB, compute: 30%, "
	                 "measuredOn: L4}\n");
	const gs_assignment *a;
	size_t n, g;
	(void)state;
	expect_why(x.p, "rank",
	           "MPS on L4, 2 clients (30% compute, 4.00 GiB): llm rules out time-slicing "
	           "(latency-critical inference at 55% of L4 >= 50%); limits per claim: 30% "
	           "of threads and 4.00 GiB; rejected: MIG (L4 has no MIG), dedicated "
	           "($0.80/h instead of $0.26/h with its share of idle)");
	expect_dedicated_figures(x.p, "rank");
	assert_ptr_equal(dec(x.p, "rank")->ts_by, dec(x.p, "llm")->w);
	a = find(x.p, "rank", 0, &n, &g);
	assert_int_equal(a->thread_percent, 30);
	assert_int_equal(a->memory_limit_mib, 4096);
	drop(&x);
}

/* A lone replica on a time-slicing node's spare GPU. */
static void test_spare(void **state)
{
	/* lone (4 GiB) does not fit api's GPU (20 GiB together), but the
	 * node's slots may seat it beside api anyway: robust placement
	 * takes it onto the time-slicing node only because any two of them
	 * fit one GPU (16 GiB at worst). */
	planned x = make("version: 1\ncloud: aws\ninstances: [g5.12xlarge]\nworkloads:\n"
	                 "  - {name: api, replicas: 2, gpuMemory: 8GiB, compute: 20%}\n"
	                 "  - {name: lone, kind: notebook, gpuMemory: 4GiB, compute: 20%}\n");
	const gs_decision *d = dec(x.p, "lone");
	const gs_plan_gpu *pg = gpu_of(x.p, d);
	(void)state;
	expect_why(x.p, "lone",
	           "time-slicing on A10G (20% compute, 4.00 GiB): alone, on a time-slicing "
	           "node rather than a dedicated one, which priced no higher; allowed for "
	           "notebooks; 2 of its g5.12xlarge's 4 GPUs idle (no smaller A10G instance); "
	           "rejected: MIG (A10G has no MIG), dedicated ($1.42/h instead of $1.24/h "
	           "with its share of idle)");
	assert_int_equal(d->why, GS_WHY_SPARE);
	/* The dedicated clause stands as what lone pays here, its part of the
	 * idle GPUs included ($1.24/h), is less than a whole GPU ($1.42/h). */
	assert_true(d->cost + d->idle < d->ded_cost);
	expect_dedicated_figures(x.p, "lone");
	assert_int_equal(pg->n_assignments, 1);
	assert_int_equal(pg->strategy, GS_STRATEGY_TIME_SLICING);
	assert_int_equal(idle_gpus(gs_plan_node_at(x.p, (size_t)d->node)), 2);
	drop(&x);
}

/* ---- advise ------------------------------------------------------------- */

/* advise names the profile the packer gives the same workload. */
static void test_advise_matches_plan(void **state)
{
	planned x = make("version: 1\ncloud: aws\ninstances: [\"p4d.*\"]\nworkloads:\n"
	                 "  - {name: pay, gpuMemory: 6GiB, compute: 20%, isolation: fault}\n");
	const gs_decision *d = dec(x.p, "pay");
	char *text = NULL, want[64];
	gs_error err;
	(void)state;
	assert_gs_ok(gs_advise(cat, d->w, &text, &err), &err);
	assert_int_equal(d->strategy, GS_STRATEGY_MIG);
	snprintf(want, sizeof want, " %s %s,", d->model->name, d->profile->name);
	assert_non_null(strstr(text, want));
	assert_string_equal(d->profile->name, "2g.10gb");
	free(text);
	drop(&x);

	/* At or over the target nothing shares it: no MPS offered. */
	x = make("version: 1\ncloud: aws\ninstances: [\"p4d.*\"]\nworkloads:\n"
	         "  - {name: big, kind: training, replicas: 2, gpuMemory: 30GiB, "
	         "compute: 95%}\n");
	assert_gs_ok(gs_advise(cat, dec(x.p, "big")->w, &text, &err), &err);
	assert_string_equal(text,
	                    "big: training, 95% compute, 30720 MiB, latency tolerant, "
	                    "isolation none\n"
	                    "1. dedicated GPU: its 95% is at or over targetUtilization (90% "
	                    "unless the file sets it), the most a shared GPU may run\n"
	                    "ruled out: MIG (no profile smaller than a whole GPU holds it); "
	                    "time-slicing and MPS (they share a GPU at targetUtilization)\n");
	assert_int_equal(dec(x.p, "big")->bind.rule, GS_RULE_TARGET);
	free(text);
	drop(&x);
}

/* The rule checks behind "of its tenant's N other whole GPUs, K were
 * asked", straight from decide_near.c with a budget of 20: each
 * dedicated replica of `hot` counts its tenant's 11 other candidates
 * (not `iso`'s GPUs, kept apart, nor tenant b's), and asks while the
 * budget lasts: 11, then 9, then none, which says it did not ask. */
static void test_near_budget(void **state)
{
	gs_scenario *s = tu_scenario(
	        cat, "t.yaml",
	        "version: 1\ncloud: aws\ninstances: [g6.xlarge]\nplacement: pinned\n"
	        "workloads:\n"
	        "  - {name: hot, tenant: a, replicas: 12, gpuMemory: 4GiB, compute: 60%}\n"
	        "  - {name: iso, tenant: a, replicas: 2, gpuMemory: 4GiB, compute: 10%, "
	        "isolation: fault}\n"
	        "  - {name: other, tenant: b, replicas: 3, gpuMemory: 4GiB, compute: 60%}\n");
	tu_planned t;
	gs_built b;
	gs_near *n;
	const int want_asked[] = { 11, 9, 0 };
	int seen = 0, m;
	(void)state;
	tu_planned_open(&t, s);
	memset(&b, 0, sizeof b);
	assert_int_equal(gs_build_chosen(&t.pl, t.pl.shops, &t.c, &b), 0);
	m = tu_model_named(&t.pl, "L4");
	t.pl.near_budget = 20;
	assert_int_equal(gs_near_build(&t.pl, &b, &n), 0);
	assert_int_equal(b.packs[m].n, 17);
	for (int i = 0; i < b.packs[m].n; i++) {
		const gs_pgpu *pg = &b.packs[m].gpus[i];
		int r0 = pg->g[0].reps[0];
		gs_decision d;
		if (strcmp(t.pl.reps[r0].w->name, "hot") != 0)
			continue;
		assert_int_equal(pg->ng, 1);
		assert_int_equal(pg->g[0].n, 1);
		memset(&d, 0, sizeof d);
		d.w = t.pl.reps[r0].w;
		gs_near_explain(n, &t.pl, m, pg, r0, &d);
		assert_int_equal(d.could_ask, 11);
		assert_int_equal(d.asked, want_asked[seen < 2 ? seen : 2]);
		if (d.asked) {
			assert_int_equal(d.why, GS_WHY_RULE);
			assert_int_equal(d.bind.rule, GS_RULE_TARGET);
			assert_string_equal(d.bind.with->name, "hot");
		} else {
			assert_int_equal(d.why, GS_WHY_UNASKED);
		}
		seen++;
	}
	assert_int_equal(seen, 12);
	gs_near_free(n);
	gs_built_release(&b);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

static int setup(void **state)
{
	(void)state;
	return tu_catalog(TEST_PROFILES, &cat);
}

static int teardown(void **state)
{
	(void)state;
	gs_catalog_free(cat);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mps_split),
		cmocka_unit_test(test_ts_rule_words),
		cmocka_unit_test(test_mig_one_tenant),
		cmocka_unit_test(test_spot_p4d),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_tenants),
		cmocka_unit_test(test_unshared),
		cmocka_unit_test(test_alone_on_one_node),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_mig_or_mps),
		cmocka_unit_test(test_memory_alone),
		cmocka_unit_test(test_dra),
		cmocka_unit_test(test_spare),
		cmocka_unit_test(test_advise_matches_plan),
		cmocka_unit_test(test_near_budget),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
