/*
 * catalog_doc.c - the stable JSON/YAML shapes of catalog records and savings.
 * Key names here are a contract with scripts (see gpushare(1)); add keys,
 * never rename them.
 */
#include <stdio.h>

#include "catalog/catalog.h"

static gs_node *gib(int64_t mib)
{
	return gs_node_fixed(mib, 1024, 2);
}

static gs_node *placements(const gs_mig_profile *p)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t s = 0; seq && s < p->n_starts; s++) {
		gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
		rc |= gs_node_put(m, "start", gs_node_int(p->starts[s]));
		rc |= gs_node_put(m, "size", gs_node_int(p->memory_slices));
		rc |= gs_node_push(seq, m);
	}
	return gs_node_done(seq, rc);
}

static gs_node *profile_node(const gs_mig_profile *p)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "name", gs_node_str(p->name));
	rc |= gs_node_put(m, "compute_slices", gs_node_int(p->compute_slices));
	rc |= gs_node_put(m, "memory_slices", gs_node_int(p->memory_slices));
	rc |= gs_node_put(m, "memory_gib", gib(p->memory_mib));
	rc |= gs_node_put(m, "sm_count", gs_node_int(p->sm_count));
	rc |= gs_node_put(m, "max_count", gs_node_int(p->max_count));
	rc |= gs_node_put(m, "placements", placements(p));
	return gs_node_done(m, rc);
}

static gs_node *gpu_node(const gs_gpu *g)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *al = gs_node_new(GS_NODE_SEQ, NULL);
	gs_node *mig = gs_node_new(GS_NODE_SEQ, NULL);
	char cc[16];
	int rc = 0;

	snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
	for (size_t i = 0; i < g->n_aliases; i++)
		rc |= gs_node_push(al, gs_node_str(g->aliases[i]));
	for (size_t i = 0; i < g->n_mig_profiles; i++)
		rc |= gs_node_push(mig, profile_node(&g->mig_profiles[i]));
	rc |= gs_node_put(m, "name", gs_node_str(g->name));
	rc |= gs_node_put(m, "aliases", al);
	rc |= gs_node_put(m, "architecture", gs_node_str(g->architecture));
	rc |= gs_node_put(m, "compute_capability", gs_node_str(cc));
	rc |= gs_node_put(m, "memory_gib", gib(g->memory_mib));
	rc |= gs_node_put(m, "memory_reserve_mib", gs_node_int(g->memory_reserve_mib));
	rc |= gs_node_put(m, "usable_memory_gib", gib(g->usable_memory_mib));
	rc |= gs_node_put(m, "memory_bandwidth_gbs", gs_node_int(g->memory_bandwidth_gbs));
	rc |= gs_node_put(m, "sm_count", gs_node_int(g->sm_count));
	rc |= gs_node_put(m, "relative_throughput", gs_node_fixed(g->fp16_mtflops, 1000, 1));
	rc |= gs_node_put(m, "mps_max_clients", gs_node_int(g->mps_max_clients));
	rc |= gs_node_put(m, "mig_profiles", mig);
	return gs_node_done(m, rc);
}

int gs_doc_gpus(const gs_catalog *cat, const gs_gpu *only, gs_doc **out,
                gs_error *err)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; seq && i < gs_catalog_gpu_count(cat); i++) {
		const gs_gpu *g = gs_catalog_gpu_at(cat, i);
		if (!only || g == only)
			rc |= gs_node_push(seq, gpu_node(g));
	}
	return gs_doc_wrap(gs_node_done(seq, rc), out, err);
}

static gs_node *instance_node(const gs_instance *in)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "cloud", gs_node_str(in->cloud));
	rc |= gs_node_put(m, "instance", gs_node_str(in->type));
	rc |= gs_node_put(m, "region", gs_node_str(in->region));
	rc |= gs_node_put(m, "gpu", gs_node_str(in->gpu->name));
	rc |= gs_node_put(m, "gpu_count", gs_node_int(in->gpu_count));
	rc |= gs_node_put(m, "vcpus", gs_node_int(in->vcpus));
	rc |= gs_node_put(m, "ram_gib", gib(in->ram_mib));
	rc |= gs_node_put(m, "on_demand_per_hour", gs_node_money(in->on_demand, 2));
	rc |= gs_node_put(m, "spot_per_hour",
	                  in->spot < 0 ? gs_node_str(NULL) : gs_node_money(in->spot, 2));
	rc |= gs_node_put(m, "source", gs_node_str(in->source));
	rc |= gs_node_put(m, "price_date", gs_node_str(in->price_date));
	rc |= gs_node_put(m, "arch", gs_node_str(gs_arch_name(in->arch)));
	return gs_node_done(m, rc);
}

int gs_doc_instances(const gs_catalog *cat, const char *cloud,
                     const gs_gpu *gpu, gs_doc **out, gs_error *err)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; seq && i < gs_catalog_instance_count(cat); i++) {
		const gs_instance *in = gs_catalog_instance_at(cat, i);
		if ((cloud && !gs_strcaseeq(cloud, in->cloud)) || (gpu && in->gpu != gpu))
			continue;
		rc |= gs_node_push(seq, instance_node(in));
	}
	return gs_doc_wrap(gs_node_done(seq, rc), out, err);
}

typedef struct geo_list {
	gs_node *seq;
	int bad;
} geo_list;

static int add_geometry(const gs_mig_profile *const *profiles, const size_t *counts,
                        size_t n, void *ud)
{
	geo_list *l = ud;
	gs_node *g = gs_node_new(GS_NODE_SEQ, NULL);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < counts[i]; k++)
			l->bad |= gs_node_push(g, gs_node_str(profiles[i]->name));
	l->bad |= gs_node_push(l->seq, g);
	return 0;
}

int gs_doc_mig_geometries(const gs_gpu *gpu, const gs_mig_profile *const *allowed,
                          size_t n, int which, gs_doc **out, gs_error *err)
{
	geo_list l = { gs_node_new(GS_NODE_SEQ, NULL), 0 };
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = gs_mig_enumerate(gpu, allowed, n, which, add_geometry, &l, err);
	if (rc < 0) {
		gs_node_free(l.seq);
		gs_node_free(m);
		return rc;
	}
	l.bad |= gs_node_put(m, "gpu", gs_node_str(gpu->name));
	l.bad |= gs_node_put(m, "which",
	                     gs_node_str(which == GS_MIG_MAXIMAL ? "maximal" : "feasible"));
	l.bad |= gs_node_put(m, "geometries", l.seq);
	if (l.bad) {
		gs_node_free(m);
		return gs_fail_nomem(err);
	}
	return gs_doc_wrap(m, out, err);
}

int gs_doc_mig_fit(const gs_gpu *gpu, const gs_mig_profile *const *profiles, size_t n,
                   gs_doc **out, gs_error *err)
{
	int starts[32];
	gs_error why;
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL), *inst = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = n > 32 ? GS_ENOFIT : gs_mig_fit(gpu, profiles, n, starts, &why), bad = 0;
	if (rc < 0 && rc != GS_ENOFIT) {
		gs_node_free(m);
		gs_node_free(inst);
		return gs_fail(err, rc, "%s", why.msg);
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		gs_node *e = gs_node_new(GS_NODE_MAP, NULL);
		bad |= gs_node_put(e, "profile", gs_node_str(profiles[i]->name));
		bad |= gs_node_put(e, "start", gs_node_int(starts[i]));
		bad |= gs_node_put(e, "size", gs_node_int(profiles[i]->memory_slices));
		bad |= gs_node_push(inst, e);
	}
	bad |= gs_node_put(m, "gpu", gs_node_str(gpu->name));
	bad |= gs_node_put(m, "valid", gs_node_bool(rc == 0));
	bad |= gs_node_put(m, "reason",
	                   gs_node_str(rc == 0 ? NULL : n > 32 ? "too many instances" : why.msg));
	bad |= gs_node_put(m, "instances", inst);
	if (bad) {
		gs_node_free(m);
		return gs_fail_nomem(err);
	}
	return gs_doc_wrap(m, out, err);
}

static gs_node *side(int instances, int gpus, gs_micros hour, gs_micros month)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "instances", gs_node_int(instances));
	rc |= gs_node_put(m, "gpus", gs_node_int(gpus));
	rc |= gs_node_put(m, "per_hour", gs_node_money(hour, 2));
	rc |= gs_node_put(m, "per_month", gs_node_money(month, 2));
	return gs_node_done(m, rc);
}

int gs_doc_savings(const gs_savings *s, gs_doc **out, gs_error *err)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *sv = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *w = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;

	rc |= gs_node_put(sv, "per_hour", gs_node_money(s->saved_per_hour, 2));
	rc |= gs_node_put(sv, "per_month", gs_node_money(s->saved_per_month, 2));
	rc |= gs_node_put(sv, "percent", gs_node_fixed(s->saved_permille, 10, 1));
	rc |= gs_node_put(w, "max_compute_percent", gs_node_fixed(s->compute_permille, 10, 1));
	rc |= gs_node_put(w, "memory_gib", gib(s->memory_mib));
	rc |= gs_node_put(w, "thread_percent", gs_node_int(s->thread_percent));
	rc |= gs_node_put(w, "memory_isolated", gs_node_bool(s->memory_isolated));
	rc |= gs_node_put(w, "fault_isolated", gs_node_bool(s->fault_isolated));
	rc |= gs_node_put(m, "instance", gs_node_str(s->instance->type));
	rc |= gs_node_put(m, "gpu", gs_node_str(s->instance->gpu->name));
	rc |= gs_node_put(m, "strategy", gs_node_str(gs_strategy_name(s->strategy)));
	rc |= gs_node_put(m, "mig_profile",
	                  gs_node_str(s->mig_profile ? s->mig_profile->name : NULL));
	/* Fractions only, so that the other strategies' documents keep their keys. */
	if (s->strategy == GS_STRATEGY_FRACTION) {
		rc |= gs_node_put(m, "backend", gs_node_str(gs_backend_name(s->backend)));
		rc |= gs_node_put(m, "max_clients_per_gpu",
		                  s->max_clients ? gs_node_int(s->max_clients) : gs_node_str(NULL));
		rc |= gs_node_put(m, "bound_by", gs_node_str(s->bound_by));
	}
	rc |= gs_node_put(m, "pricing", gs_node_str(gs_pricing_name(s->pricing)));
	rc |= gs_node_put(m, "price_per_hour", gs_node_money(s->price_per_hour, 2));
	rc |= gs_node_put(m, "hours_per_month", gs_node_int(s->hours_per_month));
	rc |= gs_node_put(m, "workloads", gs_node_int(s->workloads));
	rc |= gs_node_put(m, "replicas_per_gpu", gs_node_int(s->replicas));
	rc |= gs_node_put(m, "before", side(s->instances_before, s->gpus_before,
	                                    s->before_per_hour, s->before_per_month));
	rc |= gs_node_put(m, "after", side(s->instances_after, s->gpus_after,
	                                   s->after_per_hour, s->after_per_month));
	rc |= gs_node_put(m, "savings", sv);
	rc |= gs_node_put(m, "per_workload", w);
	/* The rule that sets replicas_per_gpu, as `plan` applies it. */
	rc |= gs_node_put(m, "replicas_asked", gs_node_int(s->replicas_asked));
	rc |= gs_node_put(m, "target_utilization_percent", gs_node_fixed(s->target_ppm, 10000, 2));
	rc |= gs_node_put(m, "compute_percent", gs_node_fixed(s->compute_ppm, 10000, 2));
	rc |= gs_node_put(m, "compute_assumed", gs_node_bool(!s->compute_given));
	rc |= gs_node_put(m, "rule", gs_node_str(s->rule));
	return gs_doc_wrap(gs_node_done(m, rc), out, err);
}
