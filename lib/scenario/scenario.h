/* scenario.h - the scenario's internals, shared by the loader, the
 * advisor and the planner. */
#ifndef GS_SCENARIO_H
#define GS_SCENARIO_H

#include "doc/fields.h"

typedef struct wl {
	gs_workload pub;
	char *name, *tenant, *team;
	const gs_gpu **gpus;
	int has_memory, has_compute;
} wl;

struct gs_scenario {
	const gs_catalog *cat;
	char *file;
	char *cloud;               /* "aws", "azure", "gcp" or "all" */
	gs_pricing pricing;
	gs_via via;
	int64_t target_ppm;
	char **globs;              /* instance allow-list */
	size_t n_globs;
	unsigned long globs_line, globs_col; /* where the allow-list was written */
	const gs_gpu **gpus;       /* GPU allow-list */
	size_t n_gpus;
	wl **w;
	size_t n, cap;
	gs_micros cluster_cost;    /* what the cluster costs today; -1: unknown */
	int cluster_gpus, cluster_nodes; /* its size, with cluster_cost */
	size_t *index;             /* open addressing over w[] by name, +1 */
	size_t index_cap;          /* 0: no index yet */
};

/* Instances the scenario may buy: cloud, allow-lists and a known price. */
int gs_scenario_instance_ok(const gs_scenario *s, const gs_instance *in);
/* GPU models a workload may run on (allowed and purchasable), in catalog
 * order; returns how many were written to out (at most cap). */
size_t gs_workload_models(const gs_scenario *s, const gs_workload *w,
                          const gs_gpu **out, size_t cap);
/* The workload's peak compute on model g, in ppm of g (rounded up). */
int64_t gs_workload_compute_on(const gs_workload *w, const gs_gpu *g);
gs_micros gs_instance_price(const gs_scenario *s, const gs_instance *in);

const char *gs_kind_name(gs_kind k);
const char *gs_spread_name(gs_spread sp);

#endif
