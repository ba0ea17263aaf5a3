/*
 * lint.h - what the lint modules share; never installed.
 *
 * lint.c reads the input (streams, ConfigMap values, Helm values), keeps
 * the findings and maps positions; lint_dp.c checks device-plugin configs,
 * lint_mig.c mig-parted configs, lint_k8s.c DRA claims and Karpenter
 * manifests. A check never fails: it only adds findings.
 */
#ifndef GS_LINT_H
#define GS_LINT_H

#include "doc/fields.h"

/* The rules, in the order of the table in lint.c (and of the manual). */
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
	/* Karpenter */
	R_KARPENTER_OLD_API,
	R_KARPENTER_NODECLASSREF,
	R_KARPENTER_RESTRICTED_LABEL,
	R_KARPENTER_REQUIREMENT,
	/* containers of configs */
	R_CONFIG_PARSE,
	R_CONFIGMAP_NOT_STRING,
	R_VALUES_DEFAULT,
	R_NO_CONFIG,
	R_COUNT
};

/* The source text, for looking at the lines around a literal block. */
typedef struct lint_src {
	const char *buf;
	size_t len;
	size_t *starts; /* byte offset of each line; starts[0] is line 1 */
	size_t n_lines;
} lint_src;

/* Where findings go and how the positions of the tree being checked map
 * to positions in the file: line + line_base, col + col_base, or, when
 * pinned, every finding at pin_line:pin_col (a value whose lines cannot
 * be mapped exactly). */
typedef struct lint_ctx {
	struct gs_lint *lint;
	const gs_lint_opts *opts;
	const char *file;
	const lint_src *src;
	unsigned long line_base, col_base;
	int pinned;
	unsigned long pin_line, pin_col;
	int configs;  /* configs and objects recognised so far */
	int nomem;
} lint_ctx;

/* What a parsed tree is. */
typedef enum lint_kind {
	LINT_NONE,
	LINT_DEVICE_PLUGIN,
	LINT_MIG_PARTED,
	LINT_K8S_OBJECT,
	LINT_HELM_VALUES
} lint_kind;

/* lint.c */
void lint_add(lint_ctx *c, int rule, const gs_node *at, const char *fmt, ...)
	GS_PRINTF(4, 5);
lint_kind lint_detect(const gs_node *root);
/* Checks a string value that holds a config (a ConfigMap data value, a
 * Helm values entry): key is its key, val the string. `what` names it in
 * messages ("data key 'any'"). Values that are not configs are ignored. */
void lint_embedded(lint_ctx *c, const gs_node *key, const gs_node *val,
                   const char *what);
/* Checks a tree of the given kind (for a tree that is known). */
void lint_tree(lint_ctx *c, const gs_node *root, lint_kind kind);

/* Map lookups. lint_find returns the value and, through key (may be NULL),
 * the key node; lint_find_ci ignores case, as Go's encoding/json does. */
gs_node *lint_find(const gs_node *map, const char *name, gs_node **key);
gs_node *lint_find_ci(const gs_node *map, const char *name, gs_node **key);
/* Scalar readers: 1 when n is such a value (and *out is set), else 0. */
int lint_int(const gs_node *n, long long *out);
int lint_bool(const gs_node *n, int *out);
int lint_is_str(const gs_node *n); /* any non-null scalar */
const char *lint_kind_name(const gs_node *n); /* "a mapping", "a list" */
/* A short, printable copy of a scalar for messages (at most 40 chars). */
const char *lint_quote(const gs_node *n, char *buf, size_t size);

/* lint_dp.c, lint_mig.c, lint_k8s.c */
void lint_device_plugin(lint_ctx *c, const gs_node *root);
void lint_mig_parted(lint_ctx *c, const gs_node *root);
void lint_k8s_object(lint_ctx *c, const gs_node *obj);
void lint_helm_values(lint_ctx *c, const gs_node *root);

#endif
