/*
 * lint_dp.c - NVIDIA k8s-device-plugin config files (api/config/v1).
 *
 * The plugin reads its config with sigs.k8s.io/yaml, which is not strict:
 * an unknown or misspelt key is dropped without a word, and struct fields
 * match keys ignoring case. The sharing blocks (timeSlicing, mps) and their
 * resources have their own decoders that look keys up exactly. The rules
 * follow shared/reference/k8s-formats.md, section 1.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lint/kit.h"

/* ---- keys ----------------------------------------------------------------- */

static const char *const top_keys[] = { "version", "flags", "resources", "sharing", "imex" };
static const char *const flag_keys[] = {
	"migStrategy", "failOnInitError", "mpsRoot", "nvidiaDriverRoot", "nvidiaDevRoot",
	"gdrcopyEnabled", "gdsEnabled", "mofedEnabled", "useNodeFeatureAPI",
	"deviceDiscoveryStrategy", "plugin", "gfd",
};
static const char *const plugin_keys[] = {
	"passDeviceSpecs", "deviceListStrategy", "deviceIDStrategy", "cdiAnnotationPrefix",
	"nvidiaCTKPath", "containerDriverRoot", "sharedDevicesAllocationPolicy",
};
static const char *const gfd_keys[] = { "oneshot", "noTimestamp", "sleepInterval",
	                                    "outputFile", "machineTypeFile" };
static const char *const sharing_keys[] = { "timeSlicing", "mps" };
static const char *const replicated_keys[] = { "renameByDefault", "failRequestsGreaterThanOne",
	                                           "resources" };
static const char *const resource_keys[] = { "name", "rename", "devices", "replicas" };
static const char *const imex_keys[] = { "channelIDs", "required" };
static const char *const naming_keys[] = { "gpus", "mig" };

typedef struct level {
	const char *where;  /* where these keys belong, for messages */
	const char *const *keys;
	size_t n;
	int exact;          /* decoded by a map lookup: case matters */
} level;

enum { L_TOP, L_FLAGS, L_PLUGIN, L_GFD, L_SHARING, L_REPLICATED, L_RESOURCE, L_IMEX,
       L_NAMING, L_COUNT };

static const level levels[L_COUNT] = {
	[L_TOP] = { "the top level", top_keys, GS_ARRAY_LEN(top_keys), 0 },
	[L_FLAGS] = { "flags", flag_keys, GS_ARRAY_LEN(flag_keys), 0 },
	[L_PLUGIN] = { "flags.plugin", plugin_keys, GS_ARRAY_LEN(plugin_keys), 0 },
	[L_GFD] = { "flags.gfd", gfd_keys, GS_ARRAY_LEN(gfd_keys), 0 },
	[L_SHARING] = { "sharing", sharing_keys, GS_ARRAY_LEN(sharing_keys), 0 },
	[L_REPLICATED] = { "sharing.timeSlicing or sharing.mps", replicated_keys,
		               GS_ARRAY_LEN(replicated_keys), 1 },
	[L_RESOURCE] = { "each item of resources", resource_keys, GS_ARRAY_LEN(resource_keys), 1 },
	[L_IMEX] = { "imex", imex_keys, GS_ARRAY_LEN(imex_keys), 0 },
	[L_NAMING] = { "resources", naming_keys, GS_ARRAY_LEN(naming_keys), 0 },
};

static const char *exact_in(const level *lv, const char *k, int ci)
{
	for (size_t i = 0; i < lv->n; i++)
		if (ci ? gs_strcaseeq(lv->keys[i], k) : strcmp(lv->keys[i], k) == 0)
			return lv->keys[i];
	return NULL;
}

/* Where else a key is known, for "it belongs under ...". */
static const level *elsewhere(int here, const char *k)
{
	for (int i = 0; i < L_COUNT; i++)
		if (i != here && exact_in(&levels[i], k, 1))
			return &levels[i];
	return NULL;
}

static void unknown_key(lint_ctx *c, int li, const gs_node *key)
{
	const level *lv = &levels[li], *other;
	const char *k = key->text, *near;

	if ((near = exact_in(lv, k, 1)))
		gs_lint_add(c, R_DP_UNKNOWN_KEY, key,
		            "unknown key '%s' is ignored by the device plugin (keys here are "
		            "case-sensitive); write '%s'", k, near);
	else if ((near = gs_suggest(k, lv->keys, lv->n)))
		gs_lint_add(c, R_DP_UNKNOWN_KEY, key,
		            "unknown key '%s' is ignored by the device plugin; write '%s'", k,
		            near);
	else if ((other = elsewhere(li, k)))
		gs_lint_add(c, R_DP_UNKNOWN_KEY, key,
		            "key '%s' is ignored by the device plugin here; it belongs under %s",
		            k, other->where);
	else
		gs_lint_add(c, R_DP_UNKNOWN_KEY, key,
		            "unknown key '%s' is ignored by the device plugin; remove it", k);
}

static void check_keys(lint_ctx *c, const gs_node *map, int li)
{
	const level *lv = &levels[li];

	for (size_t i = 0; i < map->n; i++) {
		const gs_node *key = map->keys[i];
		const char *ci;
		if (exact_in(lv, key->text, 0))
			continue;
		ci = exact_in(lv, key->text, 1);
		if (ci && !lv->exact)
			gs_lint_add(c, R_DP_KEY_CASE, key,
			            "key '%s' works only because the device plugin ignores case "
			            "here; write '%s'", key->text, ci);
		else
			unknown_key(c, li, key);
	}
}

static int need_map(lint_ctx *c, const gs_node *key, const gs_node *v)
{
	if (v && v->kind == GS_NODE_MAP)
		return 1;
	gs_lint_add(c, R_DP_TYPE, v && v->line ? v : key, "'%s' must be a mapping, not %s",
	            key->text, gs_lint_kind_name(v));
	return 0;
}

static void need_bool(lint_ctx *c, const gs_node *map, const char *name)
{
	gs_node *key, *v = gs_lint_find_ci(map, name, &key);
	int b;
	char q[64];

	if (v && v->kind != GS_NODE_NULL && !gs_lint_bool(v, &b))
		gs_lint_add(c, R_DP_TYPE, v, "'%s' must be true or false, not '%s'", key->text,
		            gs_lint_quote(v, q, sizeof q));
}

/* A value that must be one of `allowed` (exact case, as the plugin compares). */
static void one_of(lint_ctx *c, int rule, const gs_node *key, const gs_node *v,
                   const char *const *allowed, size_t n, const char *list)
{
	const char *near;
	char q[64];

	if (!v || v->kind == GS_NODE_NULL)
		return;
	if (v->kind == GS_NODE_STRING)
		for (size_t i = 0; i < n; i++)
			if (strcmp(v->text, allowed[i]) == 0)
				return;
	near = v->kind == GS_NODE_STRING ? gs_suggest(v->text, allowed, n) : NULL;
	if (near)
		gs_lint_add(c, rule, v, "%s is '%s'; write '%s' (one of %s)", key->text,
		            gs_lint_quote(v, q, sizeof q), near, list);
	else
		gs_lint_add(c, rule, v, "%s is '%s'; write one of %s", key->text,
		            gs_lint_quote(v, q, sizeof q), list);
}

/* ---- flags ---------------------------------------------------------------- */

static const char *const mig_strategies[] = { "none", "single", "mixed" };

static void check_plugin(lint_ctx *c, const gs_node *key, const gs_node *p)
{
	static const char *const lists[] = { "envvar", "volume-mounts", "cdi-annotations",
		                                 "cdi-cri" };
	static const char *const ids[] = { "uuid", "index" };
	static const char *const policies[] = { "distributed", "packed" };
	gs_node *k, *v;

	if (!need_map(c, key, p))
		return;
	check_keys(c, p, L_PLUGIN);
	need_bool(c, p, "passDeviceSpecs");
	if ((v = gs_lint_find_ci(p, "deviceListStrategy", &k))) {
		if (v->kind == GS_NODE_SEQ)
			for (size_t i = 0; i < v->n; i++)
				one_of(c, R_DP_FLAG_VALUE, k, v->items[i], lists,
				       GS_ARRAY_LEN(lists),
				       "envvar, volume-mounts, cdi-annotations, cdi-cri");
		else
			one_of(c, R_DP_FLAG_VALUE, k, v, lists, GS_ARRAY_LEN(lists),
			       "envvar, volume-mounts, cdi-annotations, cdi-cri");
	}
	if ((v = gs_lint_find_ci(p, "deviceIDStrategy", &k)))
		one_of(c, R_DP_FLAG_VALUE, k, v, ids, 2, "uuid, index");
	if ((v = gs_lint_find_ci(p, "sharedDevicesAllocationPolicy", &k)))
		one_of(c, R_DP_FLAG_VALUE, k, v, policies, 2, "distributed, packed");
}

/* Returns flags.migStrategy's text, or NULL. */
static const char *check_flags(lint_ctx *c, const gs_node *key, const gs_node *f)
{
	static const char *const bools[] = { "failOnInitError", "gdrcopyEnabled", "gdsEnabled",
		                                 "mofedEnabled", "useNodeFeatureAPI" };
	static const char *const discovery[] = { "auto", "nvml", "tegra" };
	gs_node *k, *v;

	if (!need_map(c, key, f))
		return NULL;
	check_keys(c, f, L_FLAGS);
	for (size_t i = 0; i < GS_ARRAY_LEN(bools); i++)
		need_bool(c, f, bools[i]);
	if ((v = gs_lint_find_ci(f, "deviceDiscoveryStrategy", &k)))
		one_of(c, R_DP_FLAG_VALUE, k, v, discovery, 3, "auto, nvml, tegra");
	if ((v = gs_lint_find_ci(f, "plugin", &k)) && v->kind != GS_NODE_NULL)
		check_plugin(c, k, v);
	if ((v = gs_lint_find_ci(f, "gfd", &k)) && v->kind != GS_NODE_NULL && need_map(c, k, v)) {
		check_keys(c, v, L_GFD);
		need_bool(c, v, "oneshot");
		need_bool(c, v, "noTimestamp");
	}
	if ((v = gs_lint_find_ci(f, "migStrategy", &k))) {
		one_of(c, R_DP_MIG_STRATEGY, k, v, mig_strategies, 3, "none, single, mixed");
		return gs_lint_is_str(v) ? v->text : NULL;
	}
	return NULL;
}

/* ---- sharing -------------------------------------------------------------- */

static int is_uuid(const char *s)
{
	size_t n = strlen(s);
	if (n == 32)
		return strspn(s, "0123456789abcdefABCDEF") == 32;
	if (n != 36)
		return 0;
	for (size_t i = 0; i < 36; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

static int is_uint(const char *s, size_t n)
{
	return n > 0 && strspn(s, "0123456789") >= n;
}

/* A GPU index, "gpu:mig", GPU-<uuid>, MIG-<uuid> or MIG-GPU-<uuid>/gi/ci. */
static int device_ref_ok(const gs_node *n)
{
	const char *s = n->text, *colon, *slash;
	long long v;

	if (gs_lint_int(n, &v))
		return v >= 0;
	if (n->kind != GS_NODE_STRING)
		return 0;
	if (is_uint(s, strlen(s)))
		return 1;
	if ((colon = strchr(s, ':')))
		return is_uint(s, (size_t)(colon - s)) && is_uint(colon + 1, strlen(colon + 1));
	if (strncmp(s, "GPU-", 4) == 0)
		return is_uuid(s + 4);
	if (strncmp(s, "MIG-GPU-", 8) == 0 && (slash = strchr(s, '/'))) {
		char uuid[40];
		const char *gi = slash + 1, *ci = strchr(gi, '/');
		size_t len = (size_t)(slash - s - 8);
		if (len >= sizeof uuid || !ci)
			return 0;
		memcpy(uuid, s + 8, len);
		uuid[len] = '\0';
		return is_uuid(uuid) && is_uint(gi, (size_t)(ci - gi)) &&
		       is_uint(ci + 1, strlen(ci + 1));
	}
	if (strncmp(s, "MIG-", 4) == 0)
		return is_uuid(s + 4);
	return 0;
}

static void check_devices(lint_ctx *c, const gs_node *key, const gs_node *v)
{
	long long count;
	char q[64];

	if (gs_lint_is_str(v) && strcmp(v->text, "all") == 0)
		return;
	if (gs_lint_int(v, &count)) {
		if (count <= 0) {
			gs_lint_add(c, R_DP_DEVICES_INVALID, v,
			            "devices is %lld, but a count of devices must be at least 1; "
			            "write all", count);
			return;
		}
	} else if (v && v->kind == GS_NODE_SEQ) {
		for (size_t i = 0; i < v->n; i++)
			if (!device_ref_ok(v->items[i])) {
				gs_lint_add(c, R_DP_DEVICES_INVALID, v->items[i],
				            "device '%s' is not a GPU index (0), a MIG index "
				            "(0:1) or a GPU or MIG UUID; write all",
				            gs_lint_quote(v->items[i], q, sizeof q));
				return;
			}
	} else {
		gs_lint_add(c, R_DP_DEVICES_INVALID, v && v->line ? v : key,
		            "devices is '%s'; write all, a count, or a list of GPU indices",
		            gs_lint_quote(v, q, sizeof q));
		return;
	}
	gs_lint_add(c, R_DP_DEVICES, key,
	            "devices is reset to all at runtime, so every GPU of the node is shared; "
	            "remove it and give other nodes another config instead");
}

/* "gpu" or "mig-<g>g.<mem>gb" with a ".me", ".me.all", ".gfx" or "-me"
 * suffix: what the plugin serves (MIG profiles with + turned into .). */
static int served_name(const char *rest)
{
	static const char *const suffixes[] = { "", ".me", ".me.all", ".gfx", "-me" };
	int g, gb, used = 0;

	if (strcmp(rest, "gpu") == 0)
		return 1;
	if (strncmp(rest, "mig-", 4) != 0 || !isdigit((unsigned char)rest[4]) ||
	    sscanf(rest + 4, "%3dg.%5dgb%n", &g, &gb, &used) != 2 || used == 0)
		return 0;
	for (size_t i = 0; i < GS_ARRAY_LEN(suffixes); i++)
		if (strcmp(rest + 4 + used, suffixes[i]) == 0)
			return 1;
	return 0;
}

/* Checks a resource's name; returns 1 when it is a MIG resource. */
static int check_name(lint_ctx *c, const gs_node *item, const gs_node *v, int mps)
{
	const char *rest;
	char full[128];

	if (!v) {
		gs_lint_add(c, R_DP_RESOURCE_NAME, item,
		            "resource has no name; write 'name: nvidia.com/gpu'");
		return 0;
	}
	if (!gs_lint_is_str(v)) {
		gs_lint_add(c, R_DP_RESOURCE_NAME, v->line ? v : item,
		            "resource name must be a string such as nvidia.com/gpu, not %s",
		            gs_lint_kind_name(v));
		return 0;
	}
	rest = strncmp(v->text, "nvidia.com/", 11) == 0 ? v->text + 11 : v->text;
	snprintf(full, sizeof full, "nvidia.com/%s", rest);
	if (strcmp(rest, "gpu.shared") == 0) {
		gs_lint_add(c, R_DP_RESOURCE_NAME, v,
		            "'%s' is the renamed resource, not one the device plugin serves; name "
		            "nvidia.com/gpu and set 'renameByDefault: true'", v->text);
		return 0;
	}
	if (!served_name(rest)) {
		gs_lint_add(c, R_DP_RESOURCE_NAME, v,
		            "resource name '%s' is not one the device plugin serves; write "
		            "nvidia.com/gpu, or nvidia.com/mig-<profile> (e.g. "
		            "nvidia.com/mig-1g.5gb) with migStrategy mixed", v->text);
		return 0;
	}
	if (mps && strncmp(rest, "mig-", 4) == 0) {
		gs_lint_add(c, R_DP_MPS_MIG, v,
		            "MPS on MIG is not supported: the device plugin cannot share %s with "
		            "MPS; share MIG devices with timeSlicing, or MPS on nvidia.com/gpu",
		            full);
		return 1;
	}
	return strncmp(rest, "mig-", 4) == 0;
}

static void check_mps_replicas(lint_ctx *c, const gs_node *v, long long r)
{
	const gs_gpu *g = c->opts->gpu;

	if (r > 48) {
		gs_lint_add(c, R_DP_MPS_REPLICAS, v,
		            "MPS replicas %lld exceed the MPS control daemon's limit of 48 "
		            "clients; write at most 48", r);
	} else if (g && g->mps_max_clients && r > g->mps_max_clients) {
		/* The catalog's limit: 16 below compute capability 7.5. */
		gs_lint_add(c, R_DP_MPS_REPLICAS, v,
		            "MPS replicas %lld exceed the limit of %d clients on %s (compute "
		            "capability %d.%d, below 7.5); write at most %d",
		            r, g->mps_max_clients, g->name, g->cc_major, g->cc_minor,
		            g->mps_max_clients);
	} else if (r > 16 && !g) {
		gs_lint_add(c, R_DP_MPS_REPLICAS_OLD_GPU, v,
		            "MPS replicas %lld fail on GPUs below compute capability 7.5 (e.g. "
		            "V100), which allow 16 clients; write at most 16 for such nodes, or "
		            "pass --gpu", r);
	}
}

static void check_replicas(lint_ctx *c, const gs_node *item, const gs_node *name,
                           int mps)
{
	gs_node *v = gs_lint_find(item, "replicas", NULL);
	long long r;
	char q[64];

	if (!v || v->kind == GS_NODE_NULL) {
		gs_lint_add(c, R_DP_REPLICAS, v && v->line ? v : item,
		            "resource%s%s%s has no replicas; write 'replicas: N' with N of at "
		            "least 2", gs_lint_is_str(name) ? " '" : "",
		            gs_lint_is_str(name) ? name->text : "",
		            gs_lint_is_str(name) ? "'" : "");
	} else if (!gs_lint_int(v, &r)) {
		if (v->kind == GS_NODE_STRING && v->quoted && gs_lint_int(&(gs_node){
			    .kind = GS_NODE_STRING, .text = v->text }, &r))
			gs_lint_add(c, R_DP_REPLICAS, v,
			            "replicas is the string \"%s\"; write it without quotes",
			            v->text);
		else
			gs_lint_add(c, R_DP_REPLICAS, v,
			            "replicas must be a whole number of at least 2, not '%s'",
			            gs_lint_quote(v, q, sizeof q));
	} else if (r < 2) {
		gs_lint_add(c, R_DP_REPLICAS, v,
		            "replicas is %lld, but the device plugin needs at least 2; write 2 or "
		            "more, or remove the resource to stop sharing it", r);
	} else if (mps) {
		check_mps_replicas(c, v, r);
	}
}

static void check_resource(lint_ctx *c, const gs_node *item, int mps)
{
	gs_node *k, *v;

	if (!item || item->kind != GS_NODE_MAP) {
		gs_lint_add(c, R_DP_TYPE, item,
		            "each resource must be a mapping with name and replicas, not %s",
		            gs_lint_kind_name(item));
		return;
	}
	check_keys(c, item, L_RESOURCE);
	v = gs_lint_find(item, "name", NULL);
	check_name(c, item, v, mps);
	check_replicas(c, item, v, mps);
	if (gs_lint_find(item, "rename", &k))
		gs_lint_add(c, R_DP_RENAME, k,
		            "rename is reset at runtime by the device plugin; remove it and set "
		            "'renameByDefault: true' to advertise <name>.shared");
	if ((v = gs_lint_find(item, "devices", &k)))
		check_devices(c, k, v);
}

/* timeSlicing or mps. */
static void check_replicated(lint_ctx *c, const gs_node *key, const gs_node *v, int mps)
{
	gs_node *k, *res;
	const char *name = mps ? "mps" : "timeSlicing";

	if (!v || v->kind == GS_NODE_NULL || (v->kind == GS_NODE_MAP && v->n == 0)) {
		/* A null mps is no MPS (a nil pointer in Go); timeSlicing is a
		 * value, whose decoder rejects null. */
		if (!mps || (v && v->kind != GS_NODE_NULL))
			gs_lint_add(c, R_DP_NO_RESOURCES, key,
			            "%s has no resources, which the device plugin rejects; list "
			            "'resources: [{name: nvidia.com/gpu, replicas: N}]', or remove "
			            "%s to stop sharing", key->text, key->text);
		return;
	}
	if (!need_map(c, key, v))
		return;
	check_keys(c, v, L_REPLICATED);
	need_bool(c, v, "renameByDefault");
	need_bool(c, v, "failRequestsGreaterThanOne");
	if (!mps && !gs_lint_find(v, "failRequestsGreaterThanOne", NULL))
		gs_lint_add(c, R_DP_FAIL_REQUESTS, key,
		            "timeSlicing without failRequestsGreaterThanOne: a pod that asks for 2 "
		            "replicas gets no more compute than with 1; write "
		            "'failRequestsGreaterThanOne: true'");
	res = gs_lint_find(v, "resources", &k);
	if (!res || res->kind == GS_NODE_NULL || (res->kind == GS_NODE_SEQ && res->n == 0)) {
		gs_lint_add(c, R_DP_NO_RESOURCES, res ? k : key,
		            "%s has no resources, which the device plugin rejects; list at least "
		            "one, e.g. '- name: nvidia.com/gpu' with 'replicas: 4'", name);
		return;
	}
	if (res->kind != GS_NODE_SEQ) {
		gs_lint_add(c, R_DP_TYPE, res, "resources must be a list, not %s",
		            gs_lint_kind_name(res));
		return;
	}
	for (size_t i = 0; i < res->n; i++)
		check_resource(c, res->items[i], mps);
}

static void check_sharing(lint_ctx *c, const gs_node *key, const gs_node *s,
                          const char *mig)
{
	gs_node *tk = NULL, *mk = NULL;
	const gs_node *ts, *mps;

	if (!s || s->kind == GS_NODE_NULL || !need_map(c, key, s))
		return;
	check_keys(c, s, L_SHARING);
	ts = gs_lint_find_ci(s, "timeSlicing", &tk);
	mps = gs_lint_find_ci(s, "mps", &mk);
	if (tk)
		check_replicated(c, tk, ts, 0);
	if (mk)
		check_replicated(c, mk, mps, 1);
	if (tk && mk && mps && mps->kind != GS_NODE_NULL)
		gs_lint_add(c, R_DP_BOTH_STRATEGIES, mk,
		            "both timeSlicing and mps are set; the device plugin silently uses mps "
		            "and ignores timeSlicing: keep only one");
	if (mk && mps && mps->kind == GS_NODE_MAP && mps->n && mig && strcmp(mig, "mixed") == 0)
		gs_lint_add(c, R_DP_MPS_MIG, mk,
		            "MPS does not work with flags.migStrategy mixed (the device plugin "
		            "refuses to start); use timeSlicing on MIG GPUs, or migStrategy none");
}

void gs_lint_device_plugin(lint_ctx *c, const gs_node *root)
{
	gs_node *k, *v;
	const char *mig = NULL;
	char q[64];

	if (!root || root->kind != GS_NODE_MAP) {
		gs_lint_add(c, R_DP_TYPE, root, "a device-plugin config must be a mapping, not %s",
		            gs_lint_kind_name(root));
		return;
	}
	check_keys(c, root, L_TOP);
	if ((v = gs_lint_find_ci(root, "version", &k)) && v->kind != GS_NODE_NULL &&
	    !(gs_lint_is_str(v) && strcmp(v->text, "v1") == 0))
		gs_lint_add(c, R_DP_VERSION, v->line ? v : k,
		            "version is '%s', but the device plugin knows only v1; write "
		            "'version: v1'", gs_lint_quote(v, q, sizeof q));
	if ((v = gs_lint_find_ci(root, "flags", &k)) && v->kind != GS_NODE_NULL)
		mig = check_flags(c, k, v);
	if ((v = gs_lint_find_ci(root, "sharing", &k)))
		check_sharing(c, k, v, mig);
	if ((v = gs_lint_find_ci(root, "imex", &k)) && v->kind != GS_NODE_NULL &&
	    need_map(c, k, v)) {
		check_keys(c, v, L_IMEX);
		need_bool(c, v, "required");
	}
	if ((v = gs_lint_find_ci(root, "resources", &k)) && v->kind != GS_NODE_NULL &&
	    need_map(c, k, v))
		check_keys(c, v, L_NAMING);
}
