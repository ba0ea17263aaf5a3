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

/* targetUtilization when a file does not set it: 90%, in ppm. */
#define GS_TARGET_DEFAULT_PPM 900000

typedef struct wl {
	gs_workload pub;
	char *name, *tenant, *team;
	char *obj_name, *obj_namespace, *obj_container; /* `object`; NULL: default */
	const gs_gpu **gpus;
	int has_memory, has_compute;
	int has_bound;             /* `bound` written; else the kind's default */
	int has_arch;              /* its own arch, not the file's default */
	int retention_scalar;      /* `retention` written as one share */
	/* Changes whenever its keys may have (gs_wl_sync), never to a value
	 * another workload had, and a clone keeps it: equal stamps, equal
	 * keys (the planner's cache names workloads by it: plan_ident.c). */
	uint64_t stamp;
} wl;

/* memoryHeadroom when a file says none: time-slicing isolates no memory,
 * so one replica's growth past its gpuMemory must not take another's. */
#define GS_DEFAULT_MEMORY_HEADROOM_PPM 100000
#define GS_MAX_MEMORY_HEADROOM_PPM 900000
/* targetUtilization when a file does not set it; `savings` defaults to it
 * too, so that both commands share GPUs by the same cap. */
#define GS_TARGET_DEFAULT_PPM 900000

/* The fraction backends a file may name (gs_backend but NONE). */
#define GS_FRACTIONS_MAX 3

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
	int64_t headroom_ppm;      /* the file's memoryHeadroom */
	int has_headroom;          /* written in the file (or set) */
	gs_arch arch;              /* the workloads' default arch */
	char *namespace_;          /* `namespace`; NULL: "default" */
	gs_placement placement;    /* `placement` */
	int cluster_unpriced;      /* of cluster_nodes, those without a known price */
	gs_backend fractions[GS_FRACTIONS_MAX]; /* `fractions`, in the file's order */
	int n_fractions;
};

/* scenario.c: a workload with the defaults (NULL when out of memory), and
 * its release. */
wl *gs_wl_new(const char *name);
void gs_wl_free(wl *w);
/* Points the public record at the workload's own strings and gives the
 * workload a new stamp: whoever changes a workload's keys calls it after
 * (the key table's reads do), or the planner's cache (plan_ident.c)
 * answers for the keys the workload had. */
void gs_wl_sync(wl *w);
/* The workload named name, or NULL. */
wl *gs_scenario_wl(const gs_scenario *s, const char *name);
/* Appends w (the scenario takes it); -1 when out of memory. */
int gs_scenario_push(gs_scenario *s, wl *w);
/* Forgets the name index, after a workload is renamed or removed. */
void gs_scenario_unindex(gs_scenario *s);
/* write.c: the keys of workload w as a file writes them, or with w NULL
 * the file's own (its workloads left out), as one text in *out (the
 * caller frees it): equal texts, equal keys. -1 when out of memory. */
int gs_scenario_text(const gs_scenario *s, const wl *w, char **out);

/* Instances the scenario may buy: cloud, allow-lists and a known price. */
int gs_scenario_instance_ok(const gs_scenario *s, const gs_instance *in);
/* The same in one cloud of a scenario whose cloud is "all" (or any). */
int gs_scenario_instance_ok_in(const gs_scenario *s, const char *cloud,
                               const gs_instance *in);
/* The GPU models that some instance the scenario may buy in `cloud`
 * sells, in catalog order; a list the caller frees in *out (NULL when
 * there are none), or -1 when out of memory. */
int gs_scenario_models_sold(const gs_scenario *s, const char *cloud, const gs_gpu ***out,
                            size_t *n);
/* The models of sold[0..nsold) that workload w allows, in that order:
 * what it may run on, when sold lists the scenario's models sold. How
 * many were written to out (at most cap). */
size_t gs_workload_models_of(const gs_workload *w, const gs_gpu *const *sold, size_t nsold,
                             const gs_gpu **out, size_t cap);
/* The workload's peak compute on model g, in ppm of g (rounded up): its
 * share of measured_on scaled by the figure its bound names (dense FP16
 * throughput, or memory bandwidth). */
int64_t gs_workload_compute_on(const gs_workload *w, const gs_gpu *g);
/* The same share unrounded, for the bounds: shares rounded up may add up
 * to more than the exact ones that fill a GPU to its target. */
double gs_workload_compute_exact(const gs_workload *w, const gs_gpu *g);
/* The two figures gs_workload_compute_on scales by for w on g (from on
 * measured_on, to on g), and whether they are memory bandwidths in GB/s
 * (1) or FP16 milli-TFLOPS (0). A bandwidth-bound workload falls back to
 * FP16 where either profile gives no bandwidth. */
int gs_workload_ratio(const gs_workload *w, const gs_gpu *g, int64_t *from, int64_t *to);
gs_micros gs_instance_price(const gs_scenario *s, const gs_instance *in);

/* What bounds a workload of kind k when it does not say: LLM-style
 * inference decodes at the speed of memory, the rest at tensor throughput. */
gs_bound gs_kind_bound(gs_kind k);
const char *gs_kind_name(gs_kind k);
const char *gs_spread_name(gs_spread sp);

#endif
