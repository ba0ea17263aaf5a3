/*
 * facts.h - what the cross-file rules (lint_cross.c) need to know about
 * every file linted into one gs_lint: the device-plugin configs and the
 * resources they share, the workloads and what they request, and the
 * places that name a device-plugin config (node labels, labels.sh, pod
 * selectors, NodePool labels, Helm defaults). The checkers note facts as
 * they go; the trees are freed after each file, so every string is copied.
 */
#ifndef GS_LINT_FACTS_H
#define GS_LINT_FACTS_H

#include "base/base.h"

/* A position in a linted file (file is kept by the gs_lint). */
typedef struct lint_where {
	const char *file;
	unsigned long line, col;
} lint_where;

/* One shared resource of a device-plugin config. */
typedef struct lint_shared {
	char *name;       /* nvidia.com/gpu, nvidia.com/mig-1g.10gb */
	char *advertised; /* name, or name + ".shared" with renameByDefault */
	int mps;          /* shared with MPS, else time-slicing */
	int fail_gt1;     /* requests above 1 are refused (MPS always) */
	lint_where at;    /* the resource's name */
} lint_shared;

/* One device-plugin config: a bare file, a ConfigMap data key, or a Helm
 * values data key. */
typedef struct lint_dpconf {
	char *key;       /* the data key; NULL for a bare file */
	char *holder;    /* the ConfigMap's name, or NULL */
	int chart;       /* in the standalone chart's config.map */
	lint_where at;   /* the key (or the file's start) */
	size_t first, n; /* its shared resources in lint_facts.shared */
} lint_dpconf;

/* Where a device-plugin config is named. */
typedef enum lint_use {
	USE_NODE,           /* a Node's nvidia.com/device-plugin.config label */
	USE_SCRIPT,         /* a labels.sh line */
	USE_POD,            /* a pod template's nodeSelector or node affinity */
	USE_NODEPOOL,       /* a NodePool's template label */
	USE_DEFAULT,        /* GPU Operator devicePlugin.config.default */
	USE_DEFAULT_INLINE, /* the same, for its own data (values-default) */
	USE_CHART           /* the standalone chart's config.default */
} lint_use;

typedef struct lint_label {
	char *value;
	lint_use use;
	lint_where at;
} lint_label;

/* One object with a pod template. */
typedef struct lint_pod {
	char *what; /* "Deployment 'chat'" */
	char **sel; /* the device-plugin configs it may run on */
	size_t n_sel;
	int selects; /* 1: it runs only on sel; 0: anywhere */
	/* The gpushare.io/pool values it may run on (as gpushare's patches
	 * select nodes), which the pools' labels turn into configs. */
	char **pools;
	size_t n_pools;
} lint_pod;

/* A pool's device-plugin config, where one label map or labels.sh line
 * sets both gpushare.io/pool and nvidia.com/device-plugin.config. */
typedef struct lint_pool {
	char *pool, *config;
} lint_pool;

/* One container's request for a resource of nvidia.com. */
typedef struct lint_request {
	size_t pod;
	char *resource;
	long long qty; /* -1 when not a whole number */
	lint_where at; /* the resource's key */
} lint_request;

/* The name a GPU Operator values file gives the device-plugin ConfigMap. */
typedef struct lint_cmref {
	char *name;
	lint_where at;
} lint_cmref;

/* A DRA driver feature gate: one that driver values turn on, or one that a
 * claim's sharing strategy needs (at: its strategy). */
typedef struct lint_gate {
	char *name;
	lint_where at;
} lint_gate;

typedef struct lint_facts {
	lint_dpconf *confs;
	size_t n_confs, cap_confs;
	lint_shared *shared;
	size_t n_shared, cap_shared;
	lint_label *labels;
	size_t n_labels, cap_labels;
	lint_pod *pods;
	size_t n_pods, cap_pods;
	lint_request *reqs;
	size_t n_reqs, cap_reqs;
	lint_cmref *cmrefs;
	size_t n_cmrefs, cap_cmrefs;
	lint_gate *gates_on; /* turned on by DRA driver values */
	size_t n_gates_on, cap_gates_on;
	lint_gate *gate_needs; /* needed by claims' sharing strategies */
	size_t n_gate_needs, cap_gate_needs;
	lint_pool *pools;    /* pool -> config, from labels */
	size_t n_pools, cap_pools;
	int dra_values;      /* DRA driver values seen */
	int nodes;           /* Node objects seen, labelled or not */
	int operator_values; /* GPU Operator devicePlugin.config values seen */
} lint_facts;

/* Each adds a copy of its strings; -1 when out of memory. */
int gs_facts_conf(lint_facts *f, const char *key, const char *holder, int chart,
                  lint_where at);
/* Adds a shared resource to the last config. */
int gs_facts_shared(lint_facts *f, const char *name, int rename, int mps,
                    int fail_gt1, lint_where at);
int gs_facts_label(lint_facts *f, const char *value, lint_use use,
                   lint_where at);
/* Adds a pod; its selector values are added with gs_facts_select. */
int gs_facts_pod(lint_facts *f, const char *what);
int gs_facts_select(lint_facts *f, const char *value);
/* A gpushare.io/pool value the last pod selects. */
int gs_facts_select_pool(lint_facts *f, const char *pool);
/* Nodes of pool carry config. */
int gs_facts_pool(lint_facts *f, const char *pool, const char *config);
int gs_facts_request(lint_facts *f, const char *resource, long long qty,
                     lint_where at);
int gs_facts_cmref(lint_facts *f, const char *name, lint_where at);
/* A gate DRA driver values turn on; a gate a claim's strategy needs. */
int gs_facts_gate(lint_facts *f, const char *name, lint_where at);
int gs_facts_gate_need(lint_facts *f, const char *name, lint_where at);
/* Moves every fact of src to the end of dst (src is left empty); -1 when
 * out of memory (src is then freed). */
int gs_facts_merge(lint_facts *dst, lint_facts *src);
void gs_facts_free(lint_facts *f);

#endif
