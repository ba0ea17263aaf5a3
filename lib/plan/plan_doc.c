/*
 * plan_doc.c - the plan's JSON/YAML contract. Keys are documented in
 * gpushare(1): add keys, never rename them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "plan/plan_internal.h"
#include "scenario/scenario.h"

static gs_node *money(gs_micros m) { return gs_node_money(m, 2); }
static gs_node *pct_ppm(int64_t ppm) { return gs_node_fixed(ppm, 10000, 2); }
static gs_node *gib_bytes(int64_t b) { return gs_node_fixed(b, 1 << 30, 2); }
static gs_node *permille(int v) { return gs_node_fixed(v, 10, 1); }
static gs_node *cores(int64_t millis) { return gs_node_fixed(millis, 1000, 3); }

static gs_node *assignment(const gs_assignment *a, int mps)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "workload", gs_node_str(a->workload->name));
	rc |= gs_node_put(m, "replica", gs_node_int(a->replica));
	rc |= gs_node_put(m, "memory_gib", gib_bytes(a->workload->memory_bytes));
	rc |= gs_node_put(m, "compute_percent", pct_ppm(a->compute_ppm));
	if (mps) {
		rc |= gs_node_put(m, "thread_percent", gs_node_int(a->thread_percent));
		rc |= gs_node_put(m, "memory_limit_mib", gs_node_int(a->memory_limit_mib));
	}
	return gs_node_done(m, rc);
}

static gs_node *assignments(const gs_assignment *a, size_t n, int mps)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; seq && i < n; i++)
		rc |= gs_node_push(seq, assignment(&a[i], mps));
	return gs_node_done(seq, rc);
}

/* Planned device memory against what the GPU or instance offers. */
static int memory_keys(gs_node *e, int64_t mem, int64_t offer, int64_t room)
{
	int rc = 0;
	rc |= gs_node_put(e, "memory_planned_gib", gib_bytes(mem));
	rc |= gs_node_put(e, "memory_capacity_gib", gib_bytes(offer));
	rc |= gs_node_put(e, "memory_headroom_percent", pct_ppm(room));
	return rc;
}

static gs_node *mig_entry(const gs_plan_mig *m)
{
	gs_node *e = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(e, "profile", gs_node_str(m->profile->name));
	rc |= gs_node_put(e, "start", gs_node_int(m->start));
	/* An instance alone is "none" to the device plugin. */
	rc |= gs_node_put(e, "strategy",
	                  gs_node_str(m->strategy == GS_STRATEGY_DEDICATED
	                                      ? "none" : gs_strategy_name(m->strategy)));
	rc |= gs_node_put(e, "replicas", gs_node_int(m->replicas));
	rc |= gs_node_put(e, "assignments", assignments(m->assignments, m->n_assignments, 0));
	rc |= memory_keys(e, m->memory_bytes, m->memory_offer_bytes, m->memory_headroom_ppm);
	return gs_node_done(e, rc);
}

static gs_node *gpu_entry(const gs_plan_gpu *g)
{
	gs_node *e = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *mig = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; i < g->n_mig; i++)
		rc |= gs_node_push(mig, mig_entry(&g->mig[i]));
	rc |= gs_node_put(e, "index", gs_node_int(g->index));
	rc |= gs_node_put(e, "model", gs_node_str(g->model->name));
	rc |= gs_node_put(e, "strategy", gs_node_str(gs_strategy_name(g->strategy)));
	rc |= gs_node_put(e, "replicas", gs_node_int(g->replicas));
	rc |= gs_node_put(e, "mig", mig);
	rc |= gs_node_put(e, "assignments", assignments(g->assignments, g->n_assignments,
	                                                g->strategy == GS_STRATEGY_MPS));
	rc |= memory_keys(e, g->memory_bytes, g->memory_offer_bytes, g->memory_headroom_ppm);
	return gs_node_done(e, rc);
}

static gs_node *node_entry(const gs_plan_node *n)
{
	gs_node *e = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *gpus = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; i < n->n_gpus; i++)
		rc |= gs_node_push(gpus, gpu_entry(&n->gpus[i]));
	rc |= gs_node_put(e, "instance", gs_node_str(n->instance->type));
	rc |= gs_node_put(e, "cloud", gs_node_str(n->instance->cloud));
	rc |= gs_node_put(e, "price_per_hour", money(n->price_per_hour));
	rc |= gs_node_put(e, "config", gs_node_str(n->config));
	rc |= gs_node_put(e, "pool", gs_node_str(n->pool));
	rc |= gs_node_put(e, "mig_config", gs_node_str(n->mig_config));
	rc |= gs_node_put(e, "gpus", gpus);
	rc |= gs_node_put(e, "arch", gs_node_str(gs_arch_name(n->instance->arch)));
	rc |= gs_node_put(e, "allocatable_cpu", cores(n->cpu_allocatable_millis));
	rc |= gs_node_put(e, "allocatable_memory_gib", gib_bytes(n->memory_allocatable_bytes));
	rc |= gs_node_put(e, "requested_cpu", cores(n->cpu_requested_millis));
	rc |= gs_node_put(e, "requested_memory_gib", gib_bytes(n->memory_requested_bytes));
	return gs_node_done(e, rc);
}

/* What before is, the cheapest plan with a whole GPU per replica, today's
 * bill as a share, and the capacity nobody holds. */
static int baselines(gs_node *m, const gs_plan_summary *s)
{
	int rc = 0;
	rc |= gs_node_put(m, "before_is", gs_node_str(s->before_is_cluster ? "cluster"
	                                                                    : "dedicated"));
	rc |= gs_node_put(m, "dedicated_per_hour", money(s->dedicated_per_hour));
	rc |= gs_node_put(m, "savings_vs_dedicated_per_hour",
	                  money(s->savings_vs_dedicated_per_hour));
	rc |= gs_node_put(m, "savings_vs_dedicated_percent",
	                  permille(s->savings_vs_dedicated_permille));
	rc |= gs_node_put(m, "current_savings_percent",
	                  s->current_per_hour < 0 ? gs_node_str(NULL)
	                                          : permille(s->current_savings_permille));
	rc |= gs_node_put(m, "idle_per_hour", money(s->idle_per_hour));
	return rc;
}

static gs_node *cost_entry(const gs_plan *p)
{
	const gs_plan_summary *s = &p->sum;
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int h = s->hours_per_month, rc = 0;
	rc |= gs_node_put(m, "pricing", gs_node_str(gs_pricing_name(s->pricing)));
	rc |= gs_node_put(m, "before_per_hour", money(s->before_per_hour));
	rc |= gs_node_put(m, "after_per_hour", money(s->after_per_hour));
	rc |= gs_node_put(m, "savings_per_hour", money(s->savings_per_hour));
	rc |= gs_node_put(m, "savings_percent", permille(s->savings_permille));
	rc |= gs_node_put(m, "hours_per_month", gs_node_int(h));
	rc |= gs_node_put(m, "before_per_month", money(s->before_per_hour * h));
	rc |= gs_node_put(m, "after_per_month", money(s->after_per_hour * h));
	rc |= gs_node_put(m, "savings_per_month", money(s->savings_per_hour * h));
	rc |= gs_node_put(m, "current_per_hour",
	                  s->current_per_hour < 0 ? gs_node_str(NULL) : money(s->current_per_hour));
	rc |= gs_node_put(m, "current_savings_per_hour",
	                  s->current_per_hour < 0 ? gs_node_str(NULL)
	                                          : money(s->current_per_hour - p->current_after));
	rc |= baselines(m, s);
	return gs_node_done(m, rc);
}

static gs_node *pair(const char *a, int64_t x, const char *b, int64_t y)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	if (gs_node_put(m, a, gs_node_int(x)) | gs_node_put(m, b, gs_node_int(y))) {
		gs_node_free(m);
		return NULL;
	}
	return m;
}

static gs_node *notes(const gs_plan_workload *pw)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; seq && i < pw->n_notes; i++)
		rc |= gs_node_push(seq, gs_node_str(pw->notes[i]));
	return gs_node_done(seq, rc);
}

static gs_node *workload_entry(const gs_plan *p, const gs_plan_workload *pw)
{
	const gs_workload *w = pw->workload;
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "name", gs_node_str(w->name));
	rc |= gs_node_put(m, "kind", gs_node_str(gs_kind_name(w->kind)));
	rc |= gs_node_put(m, "replicas", gs_node_int(w->replicas));
	rc |= gs_node_put(m, "tenant", gs_node_str(w->tenant));
	rc |= gs_node_put(m, "team", gs_node_str(w->team));
	rc |= gs_node_put(m, "memory_gib", gib_bytes(w->memory_bytes));
	rc |= gs_node_put(m, "compute_percent", pct_ppm(w->compute_ppm));
	rc |= gs_node_put(m, "isolation", gs_node_str(w->isolation_fault ? "fault" : "none"));
	rc |= gs_node_put(m, "latency", gs_node_str(w->latency_critical ? "critical" : "tolerant"));
	rc |= gs_node_put(m, "spread", gs_node_str(gs_spread_name(w->spread)));
	rc |= gs_node_put(m, "strategy", gs_node_str(gs_strategy_name(pw->strategy)));
	rc |= gs_node_put(m, "cost_per_hour", money(pw->cost_per_hour));
	rc |= gs_node_put(m, "why", gs_node_str(pw->why));
	rc |= gs_node_put(m, "measured_on",
	                  gs_node_str(w->measured_on ? w->measured_on->name : NULL));
	rc |= gs_node_put(m, "bound", gs_node_str(gs_bound_name(w->bound)));
	rc |= gs_node_put(m, "memory_headroom_percent",
	                  pct_ppm(gs_workload_memory_headroom(p->s, w)));
	rc |= gs_node_put(m, "notes", notes(pw));
	rc |= gs_node_put(m, "idle_per_hour", money(pw->idle_per_hour));
	rc |= gs_node_put(m, "cpu", w->cpu_millis ? cores(w->cpu_millis) : gs_node_str(NULL));
	rc |= gs_node_put(m, "host_memory_gib", w->host_memory_bytes
	                                            ? gib_bytes(w->host_memory_bytes)
	                                            : gs_node_str(NULL));
	rc |= gs_node_put(m, "arch", gs_node_str(gs_arch_name(w->arch)));
	rc |= gs_node_put(m, "gpus_per_replica", gs_node_int(w->gpus_per_replica));
	return gs_node_done(m, rc);
}

/* gpus.dedicated and instances.dedicated: the cheapest plan with a whole
 * GPU per replica (before too, unless before is an imported cluster). */
static int dedicated_counts(gs_node *root, const gs_plan_summary *s)
{
	gs_node *g = gs_node_get(root, "gpus"), *i = gs_node_get(root, "instances");
	if (!g || !i)
		return -1;
	return gs_node_put(g, "dedicated", gs_node_int(s->gpus_dedicated)) |
	       gs_node_put(i, "dedicated", gs_node_int(s->instances_dedicated));
}

/* With cloud: all, every cloud planned: what it costs, or why it cannot. */
static gs_node *cloud_list(const gs_plan *p)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; seq && i < p->n_clouds; i++) {
		const gs_plan_cloud *c = &p->clouds[i];
		gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
		int ok = c->planned > 0;
		rc |= gs_node_put(m, "cloud", gs_node_str(c->cloud));
		rc |= gs_node_put(m, "after_per_hour",
		                  ok ? money(c->after_per_hour) : gs_node_str(NULL));
		rc |= gs_node_put(m, "gpus", ok ? gs_node_int(c->gpus) : gs_node_str(NULL));
		rc |= gs_node_put(m, "instances",
		                  ok ? gs_node_int(c->instances) : gs_node_str(NULL));
		rc |= gs_node_put(m, "estimate_per_hour", c->estimate_per_hour >= 0
		                                              ? money(c->estimate_per_hour)
		                                              : gs_node_str(NULL));
		rc |= gs_node_put(m, "status", gs_node_str(c->planned > 0    ? "planned"
		                                           : c->planned == 0 ? "cannot"
		                                                             : "skipped"));
		rc |= gs_node_put(m, "chosen", gs_node_bool(strcmp(c->cloud, p->sum.cloud) == 0));
		rc |= gs_node_put(m, "why_not", gs_node_str(c->why));
		rc |= gs_node_push(seq, m);
	}
	return gs_node_done(seq, rc);
}

int gs_doc_plan(const gs_plan *p, gs_doc **out, gs_error *err)
{
	gs_node *root = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *nodes = gs_node_new(GS_NODE_SEQ, NULL);
	gs_node *wls = gs_node_new(GS_NODE_SEQ, NULL);
	gs_node *teams = gs_node_new(GS_NODE_SEQ, NULL);
	gs_node *warns = gs_node_new(GS_NODE_SEQ, NULL);
	const gs_plan_summary *s = &p->sum;
	int rc = 0;

	for (size_t i = 0; i < p->n_nodes; i++)
		rc |= gs_node_push(nodes, node_entry(&p->nodes[i]));
	for (size_t i = 0; i < p->n_wls; i++)
		rc |= gs_node_push(wls, workload_entry(p, &p->wls[i]));
	for (size_t i = 0; i < p->n_teams; i++) {
		gs_node *t = gs_node_new(GS_NODE_MAP, NULL);
		rc |= gs_node_put(t, "team", gs_node_str(p->teams[i].team));
		rc |= gs_node_put(t, "cost_per_hour", money(p->teams[i].cost_per_hour));
		rc |= gs_node_put(t, "idle_per_hour", money(p->teams[i].idle_per_hour));
		rc |= gs_node_push(teams, t);
	}
	for (size_t i = 0; i < p->n_warnings; i++)
		rc |= gs_node_push(warns, gs_node_str(p->warnings[i]));
	rc |= gs_node_put(root, "cost", cost_entry(p));
	rc |= gs_node_put(root, "gpus", pair("before", s->gpus_before, "after", s->gpus_after));
	rc |= gs_node_put(root, "instances",
	                  pair("before", s->instances_before, "after", s->instances_after));
	rc |= dedicated_counts(root, s);
	{
		gs_node *u = gs_node_new(GS_NODE_MAP, NULL);
		rc |= gs_node_put(u, "before_percent", permille(s->util_before_permille));
		rc |= gs_node_put(u, "after_percent", permille(s->util_after_permille));
		rc |= gs_node_put(root, "utilization", u);
	}
	rc |= gs_node_put(root, "replicas", gs_node_int(s->replicas));
	rc |= gs_node_put(root, "cloud", gs_node_str(s->cloud));
	rc |= gs_node_put(root, "cloud_alternatives", cloud_list(p));
	rc |= gs_node_put(root, "workloads_without_cpu", gs_node_int(s->workloads_without_cpu));
	rc |= gs_node_put(root, "workloads_without_memory",
	                  gs_node_int(s->workloads_without_memory));
	rc |= gs_node_put(root, "nodes", nodes);
	rc |= gs_node_put(root, "workloads", wls);
	rc |= gs_node_put(root, "teams", teams);
	rc |= gs_node_put(root, "warnings", warns);
	rc |= gs_node_put(root, "sharing_limit", gs_node_str(s->sharing_limit));
	rc |= gs_node_put(root, "costs_more", gs_node_str(s->costs_more));
	rc |= gs_node_put(root, "placement", gs_node_str(s->placement == GS_PLACEMENT_PINNED
	                                                     ? "pinned" : "robust"));
	rc |= gs_node_put(root, "pinned_per_hour",
	                  s->pinned_per_hour < 0 ? gs_node_new(GS_NODE_NULL, NULL)
	                                         : money(s->pinned_per_hour));
	return gs_doc_wrap(gs_node_done(root, rc), out, err);
}
