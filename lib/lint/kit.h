/*
 * kit.h - what every lint checker is given: the rules, the context that
 * findings go through, and helpers for reading the parsed tree. Never
 * installed.
 *
 * The lint modules:
 *   lint.c      the dispatcher: splits a file into documents, finds out
 *               what each is and hands it to a checker (check.h)
 *   lint_dp.c, lint_mig.c, lint_dra.c, lint_karpenter.c, lint_values.c
 *               one checker per format; each includes this header only
 *   kit.c       the helpers declared here
 *   rules.c     the rule table; findings.c the result (gs_lint)
 * A checker never fails: it only adds findings.
 *
 * The one way back from a checker into the dispatcher: a ConfigMap value
 * or a Helm values entry is a string that holds a config, which is parsed
 * and linted like a file of its own. The checkers of those containers
 * (lint_values.c) call the context's `embedded` callback, which the
 * dispatcher sets; no checker includes the dispatcher.
 */
#ifndef GS_LINT_KIT_H
#define GS_LINT_KIT_H

#include "doc/doc.h"
#include "lint/facts.h"

/* The rules, in the order of the table in rules.c (and of the manual). */
enum lint_rule {
	/* NVIDIA device plugin */
	R_DP_VERSION,
	R_DP_BOTH_STRATEGIES,
	R_DP_NO_RESOURCES,
	R_DP_REPLICAS,
	R_DP_RESOURCE_NAME,
	R_DP_MPS_MIG,
	R_DP_MPS_REPLICAS,
	R_DP_MPS_REPLICAS_OLD_GPU,
	R_DP_RENAME,
	R_DP_DEVICES,
	R_DP_DEVICES_INVALID,
	R_DP_FAIL_REQUESTS,
	R_DP_UNKNOWN_KEY,
	R_DP_KEY_CASE,
	R_DP_MIG_STRATEGY,
	R_DP_FLAG_VALUE,
	R_DP_TYPE,
	/* mig-parted */
	R_MIG_VERSION,
	R_MIG_UNKNOWN_KEY,
	R_MIG_EMPTY,
	R_MIG_REQUIRED,
	R_MIG_DEVICES,
	R_MIG_ENABLED_WITHOUT_DEVICES,
	R_MIG_DISABLED_WITH_DEVICES,
	R_MIG_PROFILE,
	R_MIG_COUNT,
	R_MIG_GEOMETRY,
	R_MIG_GEOMETRY_ANY,
	R_MIG_DEVICE_FILTER,
	R_MIG_TYPE,
	/* DRA */
	R_DRA_OLD_API,
	R_DRA_PARAMS_API,
	R_DRA_DRIVER,
	R_DRA_UNKNOWN_KEY,
	R_DRA_STRATEGY,
	R_DRA_INTERVAL,
	R_DRA_MIG_TIMESLICING,
	R_DRA_STRATEGY_CONFIG,
	R_DRA_THREAD_PERCENTAGE,
	R_DRA_MEMORY_LIMIT,
	R_DRA_FEATURE_GATE,
	R_DRA_API_VERSION,
	R_DRA_API_ALPHA,
	R_DRA_REQUEST_SHAPE,
	R_DRA_TEMPLATE_SPEC,
	R_DRA_REMOVED_ATTRIBUTE,
	R_DRA_MEMORY_ATTRIBUTE,
	R_DRA_TEMPLATE_SHARING,
	/* DRA driver Helm values */
	R_DRA_VALUES_TYPE,
	R_DRA_VALUES_OVERRIDE,
	R_DRA_VALUES_GATE,
	/* Karpenter */
	R_KARPENTER_OLD_API,
	R_KARPENTER_NODECLASSREF,
	R_KARPENTER_RESTRICTED_LABEL,
	R_KARPENTER_REQUIREMENT,
	/* containers of configs */
	R_CONFIG_PARSE,
	R_CONFIGMAP_NOT_STRING,
	R_VALUES_DEFAULT,
	/* across files: configs, workloads and node labels */
	R_RENAMED_NOT_REQUESTED,
	R_SHARED_NOT_RENAMED,
	R_REQUEST_ABOVE_ONE,
	R_SHARED_REQUEST,
	R_CONFIG_MISSING,
	R_CONFIG_UNUSED,
	R_CONFIGMAP_NAME,
	/* HAMi */
	R_HAMI_SPLIT_COUNT,
	R_HAMI_MEMORY_SCALING,
	R_HAMI_VALUE,
	R_HAMI_UNKNOWN_KEY,
	R_HAMI_GPUMEM,
	R_HAMI_GPUCORES,
	R_HAMI_RESOURCE_VALUE,
	R_HAMI_GPUMEM_BOTH,
	R_HAMI_CORES_WITHOUT_MEMORY,
	R_COUNT
};

struct lint_src; /* the source text: the dispatcher's, opaque here */

/* Where findings go and how the positions of the tree being checked map
 * to positions in the file: line + line_base, col + col_base, or, when
 * pinned, every finding at pin_line:pin_col (a value whose lines cannot
 * be mapped exactly). */
typedef struct lint_ctx lint_ctx;
struct lint_ctx {
	struct gs_lint *lint;
	const gs_lint_opts *opts;
	const char *file;
	const struct lint_src *src;
	unsigned long line_base, col_base;
	int pinned;
	unsigned long pin_line, pin_col;
	int configs;  /* configs and objects recognised so far */
	int nomem;
	/* The facts of this file for the cross-file rules (facts.h), and
	 * where the config being checked sits: its data key and the name of
	 * the ConfigMap holding it (NULL for a bare file), and whether it is
	 * in the standalone chart's config.map. */
	lint_facts *facts;
	const char *cfg_key, *cfg_holder;
	int cfg_chart;
	lint_where cfg_at; /* the data key, or the start of the file */
	/* Checks a string value that holds a config (a ConfigMap data value,
	 * a Helm values entry): key is its key, val the value. `what` names it
	 * in messages ("data key 'any'"). Values that are not configs are
	 * ignored. Set by the dispatcher (see the top of this file). */
	void (*embedded)(lint_ctx *c, const gs_node *key, const gs_node *val,
	                 const char *what);
};

/* Adds a finding of rule at node at (NULL: the start of the tree). */
void gs_lint_add(lint_ctx *c, int rule, const gs_node *at, const char *fmt, ...)
	GS_PRINTF(4, 5);

/* Adds a finding of rule at a noted position (cross-file rules). */
void gs_lint_add_at(lint_ctx *c, int rule, lint_where at, const char *fmt, ...)
	GS_PRINTF(4, 5);
/* Where node at (NULL: the start of the tree) is in the file. */
lint_where gs_lint_where(const lint_ctx *c, const gs_node *at);
/* Records an out-of-memory from a gs_facts_* call (rc < 0). */
void gs_lint_noted(lint_ctx *c, int rc);

/* Map lookups. gs_lint_find returns the value and, through key (may be
 * NULL), the key node; gs_lint_find_ci ignores case, as Go's encoding/json
 * does. */
gs_node *gs_lint_find(const gs_node *map, const char *name, gs_node **key);
gs_node *gs_lint_find_ci(const gs_node *map, const char *name, gs_node **key);
/* Scalar readers: 1 when n is such a value (and *out is set), else 0. */
int gs_lint_int(const gs_node *n, long long *out);
int gs_lint_bool(const gs_node *n, int *out);
int gs_lint_is_str(const gs_node *n); /* any non-null scalar */
int gs_lint_is_map(const gs_node *n);
int gs_lint_streq(const gs_node *n, const char *s); /* a string that is s */
/* n when it has a position, else fallback (to place a finding). */
const gs_node *gs_lint_at_or(const gs_node *n, const gs_node *fallback);
const char *gs_lint_kind_name(const gs_node *n); /* "a mapping", "a list" */
/* The pod spec of a workload of the given kind (NULL kind: a patch of a
 * pod template), or NULL (lint_workloads.c). */
const gs_node *gs_lint_pod_spec(const gs_node *obj, const char *kind);
/* A short, printable copy of a scalar for messages (at most 40 chars). */
const char *gs_lint_quote(const gs_node *n, char *buf, size_t size);

#endif
