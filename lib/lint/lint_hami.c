/*
 * lint_hami.c - HAMi's configuration: the scheduler's device config (the
 * hami-scheduler-device ConfigMap's device-config.yaml, its `nvidia:`
 * section), the device plugin's per-node config (config.json, a
 * `nodeconfig` list) and the HAMi chart's Helm values. What a mistake there
 * costs: a split count below 1 leaves no slot on any GPU; a memory scaling
 * above 1 offers more memory than a GPU has, so the gpumem caps no longer
 * hold; a value of the wrong type stops HAMi reading the file; an unknown
 * key is ignored without a word.
 *
 * Source: Project-HAMi/HAMi pkg/device/nvidia/device.go (NvidiaConfig and
 * its yaml keys, read case-sensitively; NodeDefaultConfig and the
 * nodeconfig entries' json keys, read ignoring case), the chart's
 * templates/scheduler/device-configmap.yaml and values.yaml
 * (devicePlugin.deviceSplitCount, deviceMemoryScaling, deviceCoreScaling,
 * migStrategy; devices.nvidia.gpuCorePolicy), docs/config.md (split count
 * default 10; memory scaling above 1 is virtual, oversubscribed memory).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint/kit.h"

/* What a value must be. */
typedef enum vkind {
	V_ANY,   /* not checked (lists of geometries, log levels) */
	V_STR,   /* a scalar */
	V_BOOL,
	V_INT,   /* a whole number from min to max */
	V_NUM,   /* a number above 0 */
	V_SPLIT, /* deviceSplitCount: a whole number of at least 1 */
	V_SCALE, /* deviceMemoryScaling: a number above 0, at most 1 to hold */
	V_ENUM   /* one of choices */
} vkind;

typedef struct hami_key {
	const char *name;
	vkind kind;
	long long min, max;
	const char *const *choices; /* NULL-terminated, with V_ENUM */
} hami_key;

static const char *const policies[] = { "default", "force", "disable", NULL };
static const char *const mig_strategies[] = { "none", "mixed", NULL };
static const char *const modes[] = { "hami-core", "mig", "mps", NULL };

/* The scheduler's `nvidia:` section (yaml keys, case-sensitive). */
static const hami_key nvidia_keys[] = {
	{ "resourceCountName", V_STR, 0, 0, NULL },
	{ "resourceMemoryName", V_STR, 0, 0, NULL },
	{ "resourceCoreName", V_STR, 0, 0, NULL },
	{ "resourceMemoryPercentageName", V_STR, 0, 0, NULL },
	{ "resourcePriorityName", V_STR, 0, 0, NULL },
	{ "overwriteEnv", V_BOOL, 0, 0, NULL },
	{ "defaultMemory", V_INT, 0, INT32_MAX, NULL },
	{ "defaultCores", V_INT, 0, 100, NULL },
	{ "defaultGPUNum", V_INT, 0, INT32_MAX, NULL },
	{ "memoryFactor", V_INT, 0, INT32_MAX, NULL },
	{ "disableCoreLimit", V_BOOL, 0, 0, NULL },
	{ "knownMigGeometries", V_ANY, 0, 0, NULL },
	{ "gpuCorePolicy", V_ENUM, 0, 0, policies },
	{ "runtimeClassName", V_STR, 0, 0, NULL },
	{ "deviceSplitCount", V_SPLIT, 0, 0, NULL },
	{ "deviceMemoryScaling", V_SCALE, 0, 0, NULL },
	{ "deviceCoreScaling", V_NUM, 0, 0, NULL },
	{ "preConfiguredDeviceMemory", V_INT, 0, INT64_MAX, NULL },
	{ "libCudaLogLevel", V_ANY, 0, 0, NULL },
};

/* One entry of the device plugin's nodeconfig (json keys, any case). */
static const hami_key node_keys[] = {
	{ "name", V_STR, 0, 0, NULL },
	{ "operatingmode", V_ENUM, 0, 0, modes },
	{ "migstrategy", V_ENUM, 0, 0, mig_strategies },
	{ "filterdevices", V_ANY, 0, 0, NULL },
	{ "devicesplitcount", V_SPLIT, 0, 0, NULL },
	{ "devicememoryscaling", V_SCALE, 0, 0, NULL },
	{ "devicecorescaling", V_NUM, 0, 0, NULL },
	{ "preconfigureddevicememory", V_INT, 0, INT64_MAX, NULL },
	{ "libcudaloglevel", V_ANY, 0, 0, NULL },
};

/* The chart's values that reach the two configs. */
static const hami_key plugin_values[] = {
	{ "deviceSplitCount", V_SPLIT, 0, 0, NULL },
	{ "deviceMemoryScaling", V_SCALE, 0, 0, NULL },
	{ "deviceCoreScaling", V_NUM, 0, 0, NULL },
	{ "migStrategy", V_ENUM, 0, 0, mig_strategies },
};

/* ---- what a tree is -------------------------------------------------------- */

enum { HAMI_NONE, HAMI_DEVICE_CONFIG, HAMI_NODECONFIG, HAMI_VALUES };

static int has_known_key(const gs_node *map, const hami_key *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (gs_lint_find_ci(map, keys[i].name, NULL))
			return 1;
	return 0;
}

static int hami_kind(const gs_node *root)
{
	const gs_node *nv = gs_lint_find(root, "nvidia", NULL);
	const gs_node *dp = gs_lint_find(root, "devicePlugin", NULL);

	if (!gs_lint_is_map(root))
		return HAMI_NONE;
	if (gs_lint_find_ci(root, "nodeconfig", NULL))
		return HAMI_NODECONFIG;
	if (gs_lint_is_map(nv) && has_known_key(nv, nvidia_keys, GS_ARRAY_LEN(nvidia_keys)))
		return HAMI_DEVICE_CONFIG;
	if ((gs_lint_is_map(dp) && has_known_key(dp, plugin_values, 3)) ||
	    gs_lint_find(root, "resourceMem", NULL) || gs_lint_find(root, "resourceCores", NULL))
		return HAMI_VALUES;
	return HAMI_NONE;
}

/* ---- values ---------------------------------------------------------------- */

/* A number as Go reads one into a float64: unquoted, finite. */
static int number(const gs_node *v, double *out)
{
	char *end;
	if (!v || v->kind != GS_NODE_STRING || v->quoted || !v->text[0])
		return 0;
	*out = strtod(v->text, &end);
	return *end == '\0' && isfinite(*out);
}

static void choices_text(const char *const *choices, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; choices[i] && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s",
		                      i == 0 ? "" : choices[i + 1] ? ", " : " or ", choices[i]);
}

static void check_enum(lint_ctx *c, const hami_key *k, const char *path, const gs_node *v)
{
	char q[64], list[96];
	for (size_t i = 0; gs_lint_is_str(v) && k->choices[i]; i++)
		if (strcmp(v->text, k->choices[i]) == 0)
			return;
	choices_text(k->choices, list, sizeof list);
	gs_lint_add(c, R_HAMI_VALUE, v, "%s must be %s, not '%s'", path, list,
	            gs_lint_quote(v, q, sizeof q));
}

static void check_split(lint_ctx *c, const char *path, const gs_node *v)
{
	char q[64];
	long long n;
	/* Far past any GPU's clients, and past what HAMi's parser takes. */
	if (!gs_lint_int(v, &n) || n > INT32_MAX)
		gs_lint_add(c, R_HAMI_VALUE, v, "%s must be a whole number from 1 to %d, not '%s'",
		            path, INT32_MAX, gs_lint_quote(v, q, sizeof q));
	else if (n < 1)
		gs_lint_add(c, R_HAMI_SPLIT_COUNT, v,
		            "%s is %lld: HAMi then offers no slot on a GPU and no pod can use one; "
		            "write at least 1 (the default is 10)", path, n);
}

static void check_number(lint_ctx *c, const hami_key *k, const char *path, const gs_node *v)
{
	char q[64];
	double d;
	if (!number(v, &d) || d <= 0) {
		gs_lint_add(c, R_HAMI_VALUE, v, "%s must be a number above 0, not '%s'", path,
		            gs_lint_quote(v, q, sizeof q));
		return;
	}
	if (k->kind == V_SCALE && d > 1)
		gs_lint_add(c, R_HAMI_MEMORY_SCALING, v,
		            "%s is %s: HAMi offers more memory than each GPU has, so the pods' "
		            "nvidia.com/gpumem caps together may exceed it and no longer hold; "
		            "write 1", path, gs_lint_quote(v, q, sizeof q));
}

static void check_value(lint_ctx *c, const hami_key *k, const char *path, const gs_node *v)
{
	char q[64];
	long long n;
	int b;

	if (!v || v->kind == GS_NODE_NULL || k->kind == V_ANY)
		return;
	switch (k->kind) {
	case V_STR:
		if (!gs_lint_is_str(v))
			gs_lint_add(c, R_HAMI_VALUE, v, "%s must be a string, not %s", path,
			            gs_lint_kind_name(v));
		break;
	case V_BOOL:
		if (!gs_lint_bool(v, &b))
			gs_lint_add(c, R_HAMI_VALUE, v, "%s must be true or false, not '%s'", path,
			            gs_lint_quote(v, q, sizeof q));
		break;
	case V_INT:
		if (!gs_lint_int(v, &n) || n < k->min || n > k->max)
			gs_lint_add(c, R_HAMI_VALUE, v,
			            "%s must be a whole number from %lld to %lld, not '%s'", path,
			            k->min, k->max, gs_lint_quote(v, q, sizeof q));
		break;
	case V_SPLIT:
		check_split(c, path, v);
		break;
	case V_NUM:
	case V_SCALE:
		check_number(c, k, path, v);
		break;
	case V_ENUM:
		check_enum(c, k, path, v);
		break;
	case V_ANY:
		break;
	}
}

/* ---- keys ------------------------------------------------------------------ */

static const hami_key *find_key(const hami_key *keys, size_t n, const char *name, int ci)
{
	for (size_t i = 0; i < n; i++)
		if (ci ? gs_strcaseeq(keys[i].name, name) : strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

static void unknown_key(lint_ctx *c, const hami_key *keys, size_t n, const gs_node *key)
{
	const char *names[32], *near;
	const hami_key *k = find_key(keys, n, key->text, 1);

	if (k) {
		gs_lint_add(c, R_HAMI_UNKNOWN_KEY, key, "unknown key '%s' is ignored by HAMi (keys "
		            "here are case-sensitive); write '%s'", key->text, k->name);
		return;
	}
	for (size_t i = 0; i < n && i < GS_ARRAY_LEN(names); i++)
		names[i] = keys[i].name;
	if ((near = gs_suggest(key->text, names, n < 32 ? n : 32)))
		gs_lint_add(c, R_HAMI_UNKNOWN_KEY, key, "unknown key '%s' is ignored by HAMi; "
		            "write '%s'", key->text, near);
	else
		gs_lint_add(c, R_HAMI_UNKNOWN_KEY, key, "unknown key '%s' is ignored by HAMi; "
		            "remove it", key->text);
}

/* Every key of map against the table: known ones checked, others named. */
static void check_map(lint_ctx *c, const gs_node *map, const hami_key *keys, size_t n,
                      int ci, const char *prefix)
{
	char path[160];
	for (size_t i = 0; i < map->n; i++) {
		const gs_node *key = map->keys[i];
		const hami_key *k = find_key(keys, n, key->text, ci);
		if (!k) {
			unknown_key(c, keys, n, key);
			continue;
		}
		snprintf(path, sizeof path, "%s%s", prefix, key->text);
		check_value(c, k, path, map->items[i]);
	}
}

/* ---- the three files ------------------------------------------------------- */

static void device_config(lint_ctx *c, const gs_node *root)
{
	check_map(c, gs_lint_find(root, "nvidia", NULL), nvidia_keys, GS_ARRAY_LEN(nvidia_keys), 0,
	          "nvidia.");
}

static void node_config(lint_ctx *c, const gs_node *root)
{
	gs_node *key = NULL;
	const gs_node *list = gs_lint_find_ci(root, "nodeconfig", &key);
	char prefix[48];

	if (!list || list->kind == GS_NODE_NULL)
		return;
	if (list->kind != GS_NODE_SEQ) {
		gs_lint_add(c, R_HAMI_VALUE, gs_lint_at_or(list, key),
		            "%s must be a list of node entries, not %s", key->text,
		            gs_lint_kind_name(list));
		return;
	}
	for (size_t i = 0; i < list->n; i++) {
		const gs_node *e = list->items[i], *name;
		snprintf(prefix, sizeof prefix, "nodeconfig[%zu].", i);
		if (!gs_lint_is_map(e)) {
			gs_lint_add(c, R_HAMI_VALUE, gs_lint_at_or(e, key),
			            "each nodeconfig entry must be a mapping with a name, not %s",
			            gs_lint_kind_name(e));
			continue;
		}
		check_map(c, e, node_keys, GS_ARRAY_LEN(node_keys), 1, prefix);
		name = gs_lint_find_ci(e, "name", NULL);
		if (!gs_lint_is_str(name) || !name->text[0])
			gs_lint_add(c, R_HAMI_VALUE, gs_lint_at_or(name, e),
			            "nodeconfig entry %zu has no name: HAMi applies it to no node; "
			            "write the node's name", i);
	}
}

static void helm_values(lint_ctx *c, const gs_node *root)
{
	const gs_node *dp = gs_lint_find(root, "devicePlugin", NULL);
	const gs_node *nv = gs_lint_find(gs_lint_find(root, "devices", NULL), "nvidia", NULL);
	static const hami_key policy = { "gpuCorePolicy", V_ENUM, 0, 0, policies };
	char path[96];

	for (size_t i = 0; gs_lint_is_map(dp) && i < GS_ARRAY_LEN(plugin_values); i++) {
		const gs_node *v = gs_lint_find(dp, plugin_values[i].name, NULL);
		snprintf(path, sizeof path, "devicePlugin.%s", plugin_values[i].name);
		check_value(c, &plugin_values[i], path, v);
	}
	check_value(c, &policy, "devices.nvidia.gpuCorePolicy",
	            gs_lint_find(nv, "gpuCorePolicy", NULL));
}

int gs_lint_is_hami(const gs_node *root)
{
	return hami_kind(root) != HAMI_NONE;
}

void gs_lint_hami(lint_ctx *c, const gs_node *root)
{
	switch (hami_kind(root)) {
	case HAMI_DEVICE_CONFIG:
		device_config(c, root);
		break;
	case HAMI_NODECONFIG:
		node_config(c, root);
		break;
	case HAMI_VALUES:
		helm_values(c, root);
		break;
	default:
		break;
	}
}
