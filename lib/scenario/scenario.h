/*
 * scenario.h - the scenario's internals, shared by the loader, the key
 * table, the advisor and the planner.
 *
 * scenario.c is the object (workloads, their index, what may be bought);
 * keys.h the one table of keys (keys.c), which load.c (workload files),
 * set.c (the REPL's `set`) and write.c (gs_doc_scenario) go through;
 * values.c reads and writes one value.
 */
#ifndef GS_SCENARIO_H
#define GS_SCENARIO_H

#include "doc/fields.h"

typedef struct wl {
	gs_workload pub;
	char *name, *tenant, *team;
	const gs_gpu **gpus;
	int has_memory, has_compute;
	int has_arch;              /* its own arch, not the file's default */
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
	gs_arch arch;              /* the workloads' default arch */
};

/* scenario.c: a workload with the defaults (NULL when out of memory), and
 * its release. */
wl *gs_wl_new(const char *name);
void gs_wl_free(wl *w);
/* Points the public record at the workload's own strings; after any
 * change. */
void gs_wl_sync(wl *w);
/* The workload named name, or NULL. */
wl *gs_scenario_wl(const gs_scenario *s, const char *name);
/* Appends w (the scenario takes it); -1 when out of memory. */
int gs_scenario_push(gs_scenario *s, wl *w);
/* Forgets the name index, after a workload is renamed or removed. */
void gs_scenario_unindex(gs_scenario *s);

/* Instances the scenario may buy: cloud, allow-lists and a known price. */
int gs_scenario_instance_ok(const gs_scenario *s, const gs_instance *in);
/* The same in one cloud of a scenario whose cloud is "all" (or any). */
int gs_scenario_instance_ok_in(const gs_scenario *s, const char *cloud,
                               const gs_instance *in);
/* GPU models a workload may run on (allowed and purchasable), in catalog
 * order; returns how many were written to out (at most cap). */
size_t gs_workload_models(const gs_scenario *s, const gs_workload *w,
                          const gs_gpu **out, size_t cap);
size_t gs_workload_models_in(const gs_scenario *s, const char *cloud, const gs_workload *w,
                             const gs_gpu **out, size_t cap);
/* The workload's peak compute on model g, in ppm of g (rounded up). */
int64_t gs_workload_compute_on(const gs_workload *w, const gs_gpu *g);
gs_micros gs_instance_price(const gs_scenario *s, const gs_instance *in);

const char *gs_kind_name(gs_kind k);
const char *gs_spread_name(gs_spread sp);

#endif
