/*
 * plan_doc.c - the plan's JSON/YAML contract. Keys are documented in
 * gpushare(1): add keys, never rename them.
 *
 * The plan is described once, to a streaming writer (doc/doc.h): written
 * straight out as JSON or YAML by gs_plan_write, so that a plan of a
 * million replicas takes no document tree, or built as a tree by
 * gs_doc_plan for the callers that want one.
 */
#include <string.h>

#include "doc/doc.h"
#include "plan/plan_internal.h"
#include "scenario/scenario.h"

/* A key and its value, the one shape every entry below is made of. */
static void kstr(gs_wr *w, const char *k, const char *s) { gs_wr_key(w, k); gs_wr_str(w, s); }
static void kint(gs_wr *w, const char *k, int64_t v) { gs_wr_key(w, k); gs_wr_int(w, v); }
static void knull(gs_wr *w, const char *k) { gs_wr_key(w, k); gs_wr_null(w); }

static void money(gs_wr *w, const char *k, gs_micros m)
{
	gs_wr_key(w, k);
	gs_wr_money(w, m, 2);
}

static void fixed(gs_wr *w, const char *k, int64_t v, int scale, int decimals)
{
	gs_wr_key(w, k);
	gs_wr_fixed(w, v, scale, decimals);
}

static void pct_ppm(gs_wr *w, const char *k, int64_t ppm) { fixed(w, k, ppm, 10000, 2); }
static void gib_bytes(gs_wr *w, const char *k, int64_t b) { fixed(w, k, b, 1 << 30, 2); }
static void permille(gs_wr *w, const char *k, int v) { fixed(w, k, v, 10, 1); }
static void cores(gs_wr *w, const char *k, int64_t millis) { fixed(w, k, millis, 1000, 3); }

static void assignments(gs_wr *w, const gs_assignment *a, size_t n, int mps)
{
	gs_wr_key(w, "assignments");
	gs_wr_seq(w);
	for (size_t i = 0; i < n; i++) {
		gs_wr_map(w);
		kstr(w, "workload", a[i].workload->name);
		kint(w, "replica", a[i].replica);
		gib_bytes(w, "memory_gib", a[i].workload->memory_bytes);
		pct_ppm(w, "compute_percent", a[i].compute_ppm);
		if (mps) {
			kint(w, "thread_percent", a[i].thread_percent);
			kint(w, "memory_limit_mib", a[i].memory_limit_mib);
		}
		gs_wr_end(w);
	}
	gs_wr_end(w);
}

/* Planned device memory against what the GPU or instance offers. */
static void memory_keys(gs_wr *w, int64_t mem, int64_t offer, int64_t room)
{
	gib_bytes(w, "memory_planned_gib", mem);
	gib_bytes(w, "memory_capacity_gib", offer);
	pct_ppm(w, "memory_headroom_percent", room);
}

static void mig_entry(gs_wr *w, const gs_plan_mig *m)
{
	gs_wr_map(w);
	kstr(w, "profile", m->profile->name);
	kint(w, "start", m->start);
	/* An instance alone is "none" to the device plugin. */
	kstr(w, "strategy",
	     m->strategy == GS_STRATEGY_DEDICATED ? "none" : gs_strategy_name(m->strategy));
	kint(w, "replicas", m->replicas);
	assignments(w, m->assignments, m->n_assignments, 0);
	memory_keys(w, m->memory_bytes, m->memory_offer_bytes, m->memory_headroom_ppm);
	gs_wr_end(w);
}

static void gpu_entry(gs_wr *w, const gs_plan_gpu *g)
{
	gs_wr_map(w);
	kint(w, "index", g->index);
	kstr(w, "model", g->model->name);
	kstr(w, "strategy", gs_strategy_name(g->strategy));
	if (g->strategy == GS_STRATEGY_FRACTION)
		kstr(w, "backend", gs_backend_name(g->backend));
	kint(w, "replicas", g->replicas);
	gs_wr_key(w, "mig");
	gs_wr_seq(w);
	for (size_t i = 0; i < g->n_mig; i++)
		mig_entry(w, &g->mig[i]);
	gs_wr_end(w);
	assignments(w, g->assignments, g->n_assignments,
	            g->strategy == GS_STRATEGY_MPS || g->strategy == GS_STRATEGY_FRACTION);
	memory_keys(w, g->memory_bytes, g->memory_offer_bytes, g->memory_headroom_ppm);
	gs_wr_end(w);
}

static void node_entry(gs_wr *w, const gs_plan_node *n)
{
	gs_wr_map(w);
	kstr(w, "instance", n->instance->type);
	kstr(w, "cloud", n->instance->cloud);
	money(w, "price_per_hour", n->price_per_hour);
	kstr(w, "config", n->config);
	kstr(w, "pool", n->pool);
	kstr(w, "mig_config", n->mig_config);
	gs_wr_key(w, "gpus");
	gs_wr_seq(w);
	for (size_t i = 0; i < n->n_gpus; i++)
		gpu_entry(w, &n->gpus[i]);
	gs_wr_end(w);
	kstr(w, "arch", gs_arch_name(n->instance->arch));
	cores(w, "allocatable_cpu", n->cpu_allocatable_millis);
	gib_bytes(w, "allocatable_memory_gib", n->memory_allocatable_bytes);
	cores(w, "requested_cpu", n->cpu_requested_millis);
	gib_bytes(w, "requested_memory_gib", n->memory_requested_bytes);
	gs_wr_end(w);
}

/* What before is, the cheapest plan with a whole GPU per replica, today's
 * bill as a share, and the capacity nobody holds. */
static void baselines(gs_wr *w, const gs_plan_summary *s)
{
	kstr(w, "before_is", s->before_is_cluster ? "cluster" : "dedicated");
	money(w, "dedicated_per_hour", s->dedicated_per_hour);
	money(w, "savings_vs_dedicated_per_hour", s->savings_vs_dedicated_per_hour);
	permille(w, "savings_vs_dedicated_percent", s->savings_vs_dedicated_permille);
	if (s->current_per_hour < 0)
		knull(w, "current_savings_percent");
	else
		permille(w, "current_savings_percent", s->current_savings_permille);
	money(w, "idle_per_hour", s->idle_per_hour);
}

/* What no plan can cost less than, how that is known, and the most the
 * plan may be above it (percent, rounded up). */
static void bound(gs_wr *w, const gs_plan_summary *s)
{
	int gap = gs_plan_gap_permille(s);
	if (gap < 0) {
		knull(w, "lower_bound_per_hour");
		knull(w, "lower_bound_by");
		knull(w, "gap_percent");
		return;
	}
	money(w, "lower_bound_per_hour", s->lower_bound_per_hour);
	kstr(w, "lower_bound_by", s->lower_bound_by);
	permille(w, "gap_percent", gap);
}

static void cost_entry(gs_wr *w, const gs_plan *p)
{
	const gs_plan_summary *s = &p->sum;
	int h = s->hours_per_month;
	gs_wr_key(w, "cost");
	gs_wr_map(w);
	kstr(w, "pricing", gs_pricing_name(s->pricing));
	money(w, "before_per_hour", s->before_per_hour);
	money(w, "after_per_hour", s->after_per_hour);
	money(w, "savings_per_hour", s->savings_per_hour);
	permille(w, "savings_percent", s->savings_permille);
	kint(w, "hours_per_month", h);
	money(w, "before_per_month", s->before_per_hour * h);
	money(w, "after_per_month", s->after_per_hour * h);
	money(w, "savings_per_month", s->savings_per_hour * h);
	if (s->current_per_hour < 0) {
		knull(w, "current_per_hour");
		knull(w, "current_savings_per_hour");
	} else {
		money(w, "current_per_hour", s->current_per_hour);
		money(w, "current_savings_per_hour", s->current_per_hour - p->current_after);
	}
	baselines(w, s);
	bound(w, s);
	gs_wr_end(w);
}

/* gpus and instances: before, after and dedicated (the cheapest plan with
 * a whole GPU per replica; before too, unless before is a cluster). */
static void counts(gs_wr *w, const char *k, int64_t before, int64_t after, int64_t dedicated)
{
	gs_wr_key(w, k);
	gs_wr_map(w);
	kint(w, "before", before);
	kint(w, "after", after);
	kint(w, "dedicated", dedicated);
	gs_wr_end(w);
}

/* What sharing keeps of its throughput (shared workloads), and what a unit
 * of its work costs (where it gives a throughput). */
static void retention_keys(gs_wr *w, const gs_plan *p, size_t i)
{
	gs_plan_retention r = { 0 };
	if (gs_plan_retention_at(p, i, &r, NULL) < 0 || !r.shared) {
		knull(w, "retention");
	} else {
		gs_wr_key(w, "retention");
		gs_wr_map(w);
		pct_ppm(w, "low_percent", r.low_ppm);
		pct_ppm(w, "high_percent", r.high_ppm);
		kstr(w, "source", r.source);
		gs_wr_end(w);
	}
	if (r.unit == GS_WORK_NONE) {
		knull(w, "per_unit");
		return;
	}
	gs_wr_key(w, "per_unit");
	gs_wr_map(w);
	kstr(w, "unit", gs_work_per_name(r.unit));
	money(w, "before", r.before);
	money(w, "after_low", r.after_low);
	money(w, "after_high", r.after_high);
	gs_wr_key(w, "pays");
	gs_wr_bool(w, r.pays);
	gs_wr_end(w);
}

static void workload_entry(gs_wr *w, const gs_plan *p, const gs_plan_workload *pw)
{
	const gs_workload *wl = pw->workload;
	gs_wr_map(w);
	kstr(w, "name", wl->name);
	kstr(w, "kind", gs_kind_name(wl->kind));
	kint(w, "replicas", wl->replicas);
	kstr(w, "tenant", wl->tenant);
	kstr(w, "team", wl->team);
	gib_bytes(w, "memory_gib", wl->memory_bytes);
	pct_ppm(w, "compute_percent", wl->compute_ppm);
	kstr(w, "isolation", wl->isolation_fault ? "fault" : "none");
	kstr(w, "latency", wl->latency_critical ? "critical" : "tolerant");
	kstr(w, "spread", gs_spread_name(wl->spread));
	kstr(w, "strategy", gs_strategy_name(pw->strategy));
	money(w, "cost_per_hour", pw->cost_per_hour);
	kstr(w, "why", pw->why);
	kstr(w, "measured_on", wl->measured_on ? wl->measured_on->name : NULL);
	kstr(w, "bound", gs_bound_name(wl->bound));
	pct_ppm(w, "memory_headroom_percent", gs_workload_memory_headroom(p->s, wl));
	gs_wr_key(w, "notes");
	gs_wr_seq(w);
	for (size_t i = 0; i < pw->n_notes; i++)
		gs_wr_str(w, pw->notes[i]);
	gs_wr_end(w);
	money(w, "idle_per_hour", pw->idle_per_hour);
	if (wl->cpu_millis)
		cores(w, "cpu", wl->cpu_millis);
	else
		knull(w, "cpu");
	if (wl->host_memory_bytes)
		gib_bytes(w, "host_memory_gib", wl->host_memory_bytes);
	else
		knull(w, "host_memory_gib");
	kstr(w, "arch", gs_arch_name(wl->arch));
	kint(w, "gpus_per_replica", wl->gpus_per_replica);
	retention_keys(w, p, (size_t)(pw - p->wls));
	gs_wr_end(w);
}

/* With cloud: all, every cloud planned: what it costs, or why it cannot. */
static void cloud_entry(gs_wr *w, const gs_plan *p, const gs_plan_cloud *c)
{
	int ok = c->planned > 0;
	gs_wr_map(w);
	kstr(w, "cloud", c->cloud);
	if (ok) {
		money(w, "after_per_hour", c->after_per_hour);
		kint(w, "gpus", c->gpus);
		kint(w, "instances", c->instances);
	} else {
		knull(w, "after_per_hour");
		knull(w, "gpus");
		knull(w, "instances");
	}
	if (c->estimate_per_hour >= 0)
		money(w, "estimate_per_hour", c->estimate_per_hour);
	else
		knull(w, "estimate_per_hour");
	if (c->lower_bound_per_hour >= 0)
		money(w, "lower_bound_per_hour", c->lower_bound_per_hour);
	else
		knull(w, "lower_bound_per_hour");
	kstr(w, "status", c->planned > 0 ? "planned" : c->planned == 0 ? "cannot" : "skipped");
	gs_wr_key(w, "chosen");
	gs_wr_bool(w, strcmp(c->cloud, p->sum.cloud) == 0);
	kstr(w, "why_not", c->why);
	gs_wr_end(w);
}

static void plan_lists(gs_wr *w, const gs_plan *p)
{
	gs_wr_key(w, "nodes");
	gs_wr_seq(w);
	for (size_t i = 0; i < p->n_nodes; i++)
		node_entry(w, &p->nodes[i]);
	gs_wr_end(w);
	gs_wr_key(w, "workloads");
	gs_wr_seq(w);
	for (size_t i = 0; i < p->n_wls; i++)
		workload_entry(w, p, &p->wls[i]);
	gs_wr_end(w);
	gs_wr_key(w, "teams");
	gs_wr_seq(w);
	for (size_t i = 0; i < p->n_teams; i++) {
		gs_wr_map(w);
		kstr(w, "team", p->teams[i].team);
		money(w, "cost_per_hour", p->teams[i].cost_per_hour);
		money(w, "idle_per_hour", p->teams[i].idle_per_hour);
		gs_wr_end(w);
	}
	gs_wr_end(w);
	gs_wr_key(w, "warnings");
	gs_wr_seq(w);
	for (size_t i = 0; i < p->n_warnings; i++)
		gs_wr_str(w, p->warnings[i]);
	gs_wr_end(w);
}

/* The whole document, in its keys' order. */
static void describe(gs_wr *w, const gs_plan *p)
{
	const gs_plan_summary *s = &p->sum;

	gs_wr_map(w);
	cost_entry(w, p);
	counts(w, "gpus", s->gpus_before, s->gpus_after, s->gpus_dedicated);
	counts(w, "instances", s->instances_before, s->instances_after, s->instances_dedicated);
	gs_wr_key(w, "utilization");
	gs_wr_map(w);
	permille(w, "before_percent", s->util_before_permille);
	permille(w, "after_percent", s->util_after_permille);
	gs_wr_end(w);
	kint(w, "replicas", s->replicas);
	kstr(w, "cloud", s->cloud);
	gs_wr_key(w, "cloud_alternatives");
	gs_wr_seq(w);
	for (size_t i = 0; i < p->n_clouds; i++)
		cloud_entry(w, p, &p->clouds[i]);
	gs_wr_end(w);
	kint(w, "workloads_without_cpu", s->workloads_without_cpu);
	kint(w, "workloads_without_memory", s->workloads_without_memory);
	plan_lists(w, p);
	/* A plan made with finish_later gets its last figures here, once the
	 * records are written (gs_plan_opts). */
	if (gs_plan_finish_late((gs_plan *)p) < 0)
		gs_wr_abort(w, GS_ENOMEM);
	kstr(w, "sharing_limit", s->sharing_limit);
	kstr(w, "costs_more", s->costs_more);
	kstr(w, "placement", s->placement == GS_PLACEMENT_PINNED ? "pinned" : "robust");
	if (s->pinned_per_hour < 0)
		knull(w, "pinned_per_hour");
	else
		money(w, "pinned_per_hour", s->pinned_per_hour);
	gs_wr_end(w);
}

int gs_plan_write(const gs_plan *p, gs_format fmt, gs_write_fn write, void *ctx,
                  gs_error *err)
{
	gs_wr *w;
	int rc;
	if (!p)
		return gs_fail(err, GS_EINVAL, "no plan to write");
	if ((rc = gs_wr_new(fmt, write, ctx, &w, err)) < 0)
		return rc;
	describe(w, p);
	return gs_wr_finish(w, err);
}

int gs_doc_plan(const gs_plan *p, gs_doc **out, gs_error *err)
{
	gs_node *root = NULL;
	gs_wr *w;
	int rc;
	if ((rc = gs_wr_new_tree(&w, err)) < 0)
		return rc;
	describe(w, p);
	if ((rc = gs_wr_finish_tree(w, &root, err)) < 0)
		return rc;
	return gs_doc_wrap(root, out, err);
}
