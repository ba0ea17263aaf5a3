/*
 * lint_k8s.c - Kubernetes objects: ConfigMaps that carry configs, DRA
 * ResourceClaims, ResourceClaimTemplates and DeviceClasses with NVIDIA
 * opaque parameters, Karpenter NodePools and their older kinds; and Helm
 * values that embed configs.
 *
 * Sources: shared/reference/k8s-formats.md sections 3 (NVIDIA DRA driver:
 * api/nvidia.com/resource/v1beta1, decoded strictly by the kubelet plugin),
 * 4 (resource.k8s.io shapes), 5 (Karpenter v1 CRDs and their CEL rules) and
 * 6 (GPU Operator values).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint/lint.h"

static int streq(const gs_node *n, const char *s)
{
	return lint_is_str(n) && strcmp(n->text, s) == 0;
}

static int is_map(const gs_node *n)
{
	return n && n->kind == GS_NODE_MAP;
}

static const gs_node *at_or(const gs_node *n, const gs_node *fallback)
{
	return n && n->line ? n : fallback;
}

/* ---- NVIDIA opaque parameters --------------------------------------------- */

static const char *const nv_kinds[] = { "GpuConfig", "MigDeviceConfig", "VfioDeviceConfig",
	                                    "ComputeDomainChannelConfig",
	                                    "ComputeDomainDaemonConfig" };

static void strict_keys(lint_ctx *c, const gs_node *map, const char *where,
                        const char *const *keys, size_t n, const char *skip)
{
	for (size_t i = 0; i < map->n; i++) {
		const char *k = map->keys[i]->text, *near;
		int known = skip && strcmp(k, skip) == 0;
		for (size_t j = 0; j < n; j++)
			known |= strcmp(k, keys[j]) == 0;
		if (known)
			continue;
		if ((near = gs_suggest(k, keys, n)))
			lint_add(c, R_DRA_UNKNOWN_KEY, map->keys[i],
			         "unknown key '%s' in %s, which the NVIDIA DRA driver rejects (it "
			         "decodes strictly); write '%s'", k, where, near);
		else
			lint_add(c, R_DRA_UNKNOWN_KEY, map->keys[i],
			         "unknown key '%s' in %s, which the NVIDIA DRA driver rejects (it "
			         "decodes strictly); remove it", k, where);
	}
}

/* A Kubernetes quantity in bytes; 0 when it is not one. */
static int quantity(const gs_node *n, double *out)
{
	static const struct { const char *s; double f; } sfx[] = {
		{ "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 },
		{ "Ti", 1099511627776.0 }, { "Pi", 1125899906842624.0 },
		{ "Ei", 1152921504606846976.0 }, { "n", 1e-9 }, { "u", 1e-6 }, { "m", 1e-3 },
		{ "", 1.0 }, { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 },
		{ "P", 1e15 }, { "E", 1e18 },
	};
	const char *s, *p;
	char *end;
	double v;

	if (!lint_is_str(n))
		return 0;
	s = p = n->text;
	if (*p == '+' || *p == '-')
		p++;
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return 0;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	v = strtod(s, &end);
	/* strtod also reads a decimal exponent ("1e9"); "1E" alone is exa. */
	if (end > p && (*p == 'e' || *p == 'E') && *end == '\0') {
		*out = v;
		return 1;
	}
	if (end != p)
		return 0;
	for (size_t i = 0; i < GS_ARRAY_LEN(sfx); i++)
		if (strcmp(p, sfx[i].s) == 0) {
			*out = v * sfx[i].f;
			return 1;
		}
	return 0;
}

static void check_limit(lint_ctx *c, const char *what, const gs_node *v)
{
	double bytes;
	char q[64];

	if (!quantity(v, &bytes))
		lint_add(c, R_DRA_MEMORY_LIMIT, v, "%s '%s' is not a quantity; write a size like 8Gi",
		         what, lint_quote(v, q, sizeof q));
	else if (bytes <= 1048575.0)
		lint_add(c, R_DRA_MEMORY_LIMIT, v,
		         "%s '%s' is below 1Mi, which the driver rejects as an invalid limit; write "
		         "a size like 8Gi", what, lint_quote(v, q, sizeof q));
}

static void check_mps_config(lint_ctx *c, const gs_node *key, const gs_node *m)
{
	static const char *const keys[] = { "defaultActiveThreadPercentage",
		                                 "defaultPinnedDeviceMemoryLimit",
		                                 "defaultPerDevicePinnedMemoryLimit", "multiUser" };
	const gs_node *v;
	long long pct;
	char q[64];

	if (!is_map(m)) {
		if (m && m->kind != GS_NODE_NULL)
			lint_add(c, R_DRA_UNKNOWN_KEY, at_or(m, key), "mpsConfig must be a mapping, not %s",
			         lint_kind_name(m));
		return;
	}
	strict_keys(c, m, "mpsConfig", keys, GS_ARRAY_LEN(keys), NULL);
	if ((v = lint_find(m, "defaultActiveThreadPercentage", NULL)) && v->kind != GS_NODE_NULL &&
	    (!lint_int(v, &pct) || pct < 0 || pct > 100))
		lint_add(c, R_DRA_THREAD_PERCENTAGE, v,
		         "defaultActiveThreadPercentage is '%s'; write a whole number from 0 to 100",
		         lint_quote(v, q, sizeof q));
	if ((v = lint_find(m, "defaultPinnedDeviceMemoryLimit", NULL)) && v->kind != GS_NODE_NULL)
		check_limit(c, "defaultPinnedDeviceMemoryLimit", v);
	if ((v = lint_find(m, "defaultPerDevicePinnedMemoryLimit", NULL)) && is_map(v))
		for (size_t i = 0; i < v->n; i++)
			check_limit(c, "the pinned memory limit", v->items[i]);
}

static void check_time_slicing(lint_ctx *c, const gs_node *key, const gs_node *t)
{
	static const char *const intervals[] = { "Default", "Short", "Medium", "Long" };
	static const char *const keys[] = { "interval" };
	const gs_node *iv;
	const char *near;
	char q[64];

	if (!is_map(t)) {
		if (t && t->kind != GS_NODE_NULL)
			lint_add(c, R_DRA_INTERVAL, at_or(t, key),
			         "timeSlicingConfig must be a mapping like {interval: Default}, not %s",
			         lint_kind_name(t));
		return;
	}
	strict_keys(c, t, "timeSlicingConfig", keys, 1, NULL);
	if (!(iv = lint_find(t, "interval", NULL)) || iv->kind == GS_NODE_NULL) {
		lint_add(c, R_DRA_INTERVAL, key,
		         "timeSlicingConfig has no interval, which the driver cannot validate; write "
		         "'interval: Default' (or Short, Medium, Long)");
		return;
	}
	for (size_t i = 0; i < GS_ARRAY_LEN(intervals); i++)
		if (streq(iv, intervals[i]))
			return;
	near = lint_is_str(iv) ? gs_suggest(iv->text, intervals, GS_ARRAY_LEN(intervals)) : NULL;
	if (near)
		lint_add(c, R_DRA_INTERVAL, iv, "time-slice interval '%s' is not known; write '%s'",
		         lint_quote(iv, q, sizeof q), near);
	else
		lint_add(c, R_DRA_INTERVAL, iv,
		         "time-slice interval '%s' is not known; write Default, Short, Medium or Long",
		         lint_quote(iv, q, sizeof q));
}

/* Returns 1 for TimeSlicing, 2 for MPS, 0 for anything else (reported). */
static int check_strategy(lint_ctx *c, const gs_node *key, const gs_node *sharing)
{
	static const char *const names[] = { "TimeSlicing", "MPS", "time-slicing" };
	const gs_node *s = lint_find(sharing, "strategy", NULL);
	const char *near;
	char q[64];

	if (streq(s, "TimeSlicing") || streq(s, "MPS")) {
		int ts = streq(s, "TimeSlicing");
		lint_add(c, R_DRA_FEATURE_GATE, s,
		         "strategy %s needs the NVIDIA DRA driver's %s feature gate (alpha, off by "
		         "default); without it the claim fails when the pod starts: enable "
		         "featureGates.%s in the driver's Helm values",
		         s->text, ts ? "TimeSlicingSettings" : "MPSSupport",
		         ts ? "TimeSlicingSettings" : "MPSSupport");
		return ts ? 1 : 2;
	}
	if (!s || s->kind == GS_NODE_NULL) {
		lint_add(c, R_DRA_STRATEGY, key, "sharing has no strategy; write 'strategy: "
		                                 "TimeSlicing' or 'strategy: MPS'");
		return 0;
	}
	near = lint_is_str(s) ? gs_suggest(s->text, names, GS_ARRAY_LEN(names)) : NULL;
	if (near)
		lint_add(c, R_DRA_STRATEGY, s,
		         "sharing strategy '%s' is not known (the names are case-sensitive); "
		         "write '%s'", lint_quote(s, q, sizeof q),
		         strcmp(near, "MPS") == 0 ? "MPS" : "TimeSlicing");
	else
		lint_add(c, R_DRA_STRATEGY, s,
		         "sharing strategy '%s' is not known; write TimeSlicing or MPS",
		         lint_quote(s, q, sizeof q));
	return 0;
}

static void check_sharing(lint_ctx *c, const gs_node *key, const gs_node *sh, int mig,
                          int is_template)
{
	static const char *const gpu_keys[] = { "strategy", "timeSlicingConfig", "mpsConfig" };
	gs_node *tk = NULL, *mk = NULL;
	const gs_node *tsc, *mpc;
	int strategy;

	if (!is_map(sh)) {
		if (sh && sh->kind != GS_NODE_NULL)
			lint_add(c, R_DRA_STRATEGY, at_or(sh, key), "sharing must be a mapping, not %s",
			         lint_kind_name(sh));
		return;
	}
	if (is_template)
		lint_add(c, R_DRA_TEMPLATE_SHARING, key,
		         "a ResourceClaimTemplate gives every pod its own claim, so pods never share "
		         "this GPU; to share it, create a ResourceClaim and reference it with "
		         "resourceClaimName");
	strict_keys(c, sh, "sharing", gpu_keys, GS_ARRAY_LEN(gpu_keys),
	            mig ? "timeSlicingConfig" : NULL);
	tsc = lint_find(sh, "timeSlicingConfig", &tk);
	mpc = lint_find(sh, "mpsConfig", &mk);
	if (mig && tk) {
		lint_add(c, R_DRA_MIG_TIMESLICING, tk,
		         "MigDeviceConfig has no timeSlicingConfig: time slices cannot be set on MIG "
		         "devices; remove it");
		tsc = tk = NULL;
	}
	strategy = check_strategy(c, key, sh);
	if (strategy == 1 && mk && mpc && mpc->kind != GS_NODE_NULL)
		lint_add(c, R_DRA_STRATEGY_CONFIG, mk,
		         "mpsConfig cannot be used with the TimeSlicing strategy; remove it, or write "
		         "'strategy: MPS'");
	if (strategy == 2 && tk && tsc && tsc->kind != GS_NODE_NULL)
		lint_add(c, R_DRA_STRATEGY_CONFIG, tk,
		         "timeSlicingConfig cannot be used with the MPS strategy; remove it, or write "
		         "'strategy: TimeSlicing'");
	if (tk)
		check_time_slicing(c, tk, tsc);
	if (mk)
		check_mps_config(c, mk, mpc);
}

static void check_params(lint_ctx *c, const gs_node *params, const gs_node *driver,
                         int is_template)
{
	static const char *const cfg_keys[] = { "apiVersion", "kind", "sharing" };
	static const char *const vfio_keys[] = { "apiVersion", "kind", "iommu" };
	gs_node *sk, *vk, *kk;
	const gs_node *av = lint_find(params, "apiVersion", &vk);
	const gs_node *kind = lint_find(params, "kind", &kk);
	const char *near;
	size_t k;
	char q[64];

	for (k = 0; k < GS_ARRAY_LEN(nv_kinds); k++)
		if (streq(kind, nv_kinds[k]))
			break;
	if (streq(av, "gpu.nvidia.com/v1alpha1"))
		lint_add(c, R_DRA_OLD_API, av,
		         "parameters apiVersion gpu.nvidia.com/v1alpha1 was renamed "
		         "resource.nvidia.com/v1beta1 in February 2025 and current drivers cannot "
		         "decode it; write 'apiVersion: resource.nvidia.com/v1beta1'");
	else if (!streq(av, "resource.nvidia.com/v1beta1"))
		lint_add(c, R_DRA_PARAMS_API, at_or(av, params),
		         "the NVIDIA DRA driver decodes only resource.nvidia.com/v1beta1 parameters, "
		         "not '%s'; write 'apiVersion: resource.nvidia.com/v1beta1'",
		         lint_quote(av, q, sizeof q));
	if (k == GS_ARRAY_LEN(nv_kinds)) {
		near = lint_is_str(kind) ? gs_suggest(kind->text, nv_kinds, GS_ARRAY_LEN(nv_kinds))
		                         : NULL;
		lint_add(c, R_DRA_PARAMS_API, at_or(kind, params),
		         "parameters kind '%s' is not one the NVIDIA DRA driver knows; write %s%s%s",
		         lint_quote(kind, q, sizeof q), near ? "'" : "GpuConfig or MigDeviceConfig",
		         near ? near : "", near ? "'" : "");
		return;
	}
	if (k < 3 && driver && !streq(driver, "gpu.nvidia.com"))
		lint_add(c, R_DRA_DRIVER, at_or(driver, params),
		         "driver is '%s', but %s parameters are for the NVIDIA GPU driver; write "
		         "'driver: gpu.nvidia.com'", lint_quote(driver, q, sizeof q), kind->text);
	if (k == 2)
		strict_keys(c, params, kind->text, vfio_keys, GS_ARRAY_LEN(vfio_keys), NULL);
	if (k >= 2)
		return;
	strict_keys(c, params, kind->text, cfg_keys, GS_ARRAY_LEN(cfg_keys), NULL);
	if (lint_find(params, "sharing", &sk))
		check_sharing(c, sk, lint_find(params, "sharing", NULL), k == 1, is_template);
}

static void check_opaque(lint_ctx *c, const gs_node *opaque, int is_template)
{
	const gs_node *driver = lint_find(opaque, "driver", NULL);
	const gs_node *params = lint_find(opaque, "parameters", NULL);
	const gs_node *av = lint_find(params, "apiVersion", NULL);
	int nvidia = lint_is_str(av) && (strncmp(av->text, "resource.nvidia.com/", 20) == 0 ||
	                                 strncmp(av->text, "gpu.nvidia.com/", 15) == 0);

	if (!is_map(params))
		return;
	if (nvidia || streq(driver, "gpu.nvidia.com"))
		check_params(c, params, driver, is_template);
}

/* ---- CEL selectors -------------------------------------------------------- */

static void check_attribute(lint_ctx *c, const gs_node *expr, const char *attr)
{
	static const char *const removed[] = { "index", "minor", "parentIndex" };

	for (size_t i = 0; i < GS_ARRAY_LEN(removed); i++)
		if (strcmp(attr, removed[i]) == 0)
			lint_add(c, R_DRA_REMOVED_ATTRIBUTE, expr,
			         "CEL selector uses attribute '%s', which the NVIDIA DRA driver no "
			         "longer publishes (gone since v25.8), so it matches no device; select "
			         "by uuid or productName", attr);
	if (strcmp(attr, "pcieBusID") == 0)
		lint_add(c, R_DRA_REMOVED_ATTRIBUTE, expr,
		         "CEL selector uses attribute 'pcieBusID', which the NVIDIA DRA driver "
		         "replaced in v25.12; write "
		         "device.attributes['resource.kubernetes.io'].pciBusID");
	if (strcmp(attr, "memory") == 0)
		lint_add(c, R_DRA_MEMORY_ATTRIBUTE, expr,
		         "CEL selector reads memory as an attribute, but it is a capacity; write "
		         "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0");
}

/* Finds attributes['gpu.nvidia.com'].NAME and attributes['gpu.nvidia.com']['NAME']. */
static void check_cel(lint_ctx *c, const gs_node *expr)
{
	const char *p = expr->text;

	while ((p = strstr(p, "attributes["))) {
		char attr[64];
		size_t n = 0;
		char quote;
		p += 11;
		quote = *p;
		if ((quote != '\'' && quote != '"') || strncmp(p + 1, "gpu.nvidia.com", 14) != 0 ||
		    p[15] != quote || p[16] != ']')
			continue;
		p += 17;
		if (*p == '.') {
			p++;
		} else if (p[0] == '[' && (p[1] == '\'' || p[1] == '"')) {
			p += 2;
		} else {
			continue;
		}
		while ((isalnum((unsigned char)*p) || *p == '_') && n < sizeof attr - 1)
			attr[n++] = *p++;
		attr[n] = '\0';
		check_attribute(c, expr, attr);
	}
}

/* Walks a spec for CEL selectors and opaque configs. */
static void walk(lint_ctx *c, const gs_node *n, int is_template)
{
	if (!n)
		return;
	if (n->kind == GS_NODE_SEQ)
		for (size_t i = 0; i < n->n; i++)
			walk(c, n->items[i], is_template);
	if (n->kind != GS_NODE_MAP)
		return;
	for (size_t i = 0; i < n->n; i++) {
		const char *k = n->keys[i]->text;
		const gs_node *v = n->items[i], *e;
		if (strcmp(k, "cel") == 0 && (e = lint_find(v, "expression", NULL)) && lint_is_str(e))
			check_cel(c, e);
		else if (strcmp(k, "opaque") == 0 && is_map(v))
			check_opaque(c, v, is_template);
		else
			walk(c, v, is_template);
	}
}

/* ---- resource.k8s.io ------------------------------------------------------ */

static void check_request(lint_ctx *c, const gs_node *req, int v1, const char *av)
{
	gs_node *ek, *dk;
	const gs_node *exactly = lint_find(req, "exactly", &ek);
	const gs_node *flat = lint_find(req, "deviceClassName", &dk);
	const gs_node *first = lint_find(req, "firstAvailable", NULL);
	const gs_node *name = lint_find(req, "name", NULL);
	char q[64];

	if (v1 && flat)
		lint_add(c, R_DRA_REQUEST_SHAPE, dk,
		         "%s puts deviceClassName under 'exactly:'; write 'exactly: "
		         "{deviceClassName: %s}' (the flat form is resource.k8s.io/v1beta1's)",
		         av, lint_quote(flat, q, sizeof q));
	else if (v1 && !exactly && !first)
		lint_add(c, R_DRA_REQUEST_SHAPE, req,
		         "request '%s' needs 'exactly:' with a deviceClassName (or firstAvailable)",
		         lint_quote(name, q, sizeof q));
	else if (!v1 && exactly)
		lint_add(c, R_DRA_REQUEST_SHAPE, ek,
		         "%s has no 'exactly:'; put deviceClassName directly on the request, or "
		         "write apiVersion resource.k8s.io/v1", av);
	else if (!v1 && !flat && !first)
		lint_add(c, R_DRA_REQUEST_SHAPE, req, "request '%s' needs a deviceClassName",
		         lint_quote(name, q, sizeof q));
}

/* Returns 1 for the v1 shape (v1, v1beta2), 0 for the flat one, -1 when the
 * version does not exist (reported). */
static int dra_version(lint_ctx *c, const gs_node *av, const char *version,
                       const char *kind)
{
	if (strcmp(version, "v1") == 0 || strcmp(version, "v1beta2") == 0)
		return 1;
	if (strcmp(version, "v1beta1") == 0)
		return 0;
	if (strcmp(version, "v1alpha3") == 0) {
		if (strcmp(kind, "DeviceTaintRule") != 0)
			lint_add(c, R_DRA_API_ALPHA, av,
			         "resource.k8s.io/v1alpha3 %ss are served only by Kubernetes 1.31; "
			         "write resource.k8s.io/v1 (1.34 and later) with 'exactly:', or v1beta1",
			         kind);
		return 0;
	}
	if (strcmp(version, "v1alpha1") == 0 || strcmp(version, "v1alpha2") == 0)
		lint_add(c, R_DRA_API_VERSION, av,
		         "resource.k8s.io/%s (classic DRA) was removed in Kubernetes 1.31; write "
		         "resource.k8s.io/v1 (1.34 and later), v1beta2 (1.33) or v1beta1 (1.32)",
		         version);
	else
		lint_add(c, R_DRA_API_VERSION, av,
		         "resource.k8s.io/%s does not exist; write resource.k8s.io/v1 (Kubernetes "
		         "1.34 and later), v1beta2 (1.33) or v1beta1 (1.32)", version);
	return -1;
}

static void check_dra(lint_ctx *c, const gs_node *obj, const gs_node *av,
                      const char *version, const char *kind)
{
	int is_template = strcmp(kind, "ResourceClaimTemplate") == 0, v1;
	gs_node *sk;
	const gs_node *spec = lint_find(obj, "spec", &sk), *devices, *reqs;

	if (strcmp(kind, "ResourceClaim") != 0 && !is_template && strcmp(kind, "DeviceClass") != 0)
		return;
	c->configs++;
	if ((v1 = dra_version(c, av, version, kind)) < 0)
		return;
	if (is_template && is_map(spec)) {
		const gs_node *inner = lint_find(spec, "spec", NULL);
		if (!inner && lint_find(spec, "devices", NULL))
			lint_add(c, R_DRA_TEMPLATE_SPEC, sk,
			         "a ResourceClaimTemplate holds its claim in spec.spec; indent devices "
			         "under another 'spec:'");
		else
			spec = inner;
	}
	devices = lint_find(spec, "devices", NULL);
	reqs = lint_find(devices, "requests", NULL);
	if (reqs && reqs->kind == GS_NODE_SEQ)
		for (size_t i = 0; i < reqs->n; i++)
			if (is_map(reqs->items[i]))
				check_request(c, reqs->items[i], v1, av->text);
	walk(c, spec, is_template);
}

/* ---- Karpenter ------------------------------------------------------------ */

static const char *const aws_labels[] = {
	"instance-encryption-in-transit-supported", "instance-category", "instance-hypervisor",
	"instance-family", "instance-generation", "instance-local-nvme", "instance-size",
	"instance-cpu", "instance-cpu-manufacturer", "instance-cpu-sustained-clock-speed-mhz",
	"instance-memory", "instance-ebs-bandwidth", "instance-network-bandwidth",
	"instance-gpu-name", "instance-gpu-manufacturer", "instance-gpu-count",
	"instance-gpu-memory", "instance-accelerator-name", "instance-accelerator-manufacturer",
	"instance-accelerator-count", "instance-capability-flex",
};

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Why Karpenter refuses a label key (its NodePool CRD's CEL rules), or NULL. */
static const char *restricted(const char *key)
{
	const char *slash = strchr(key, '/');
	size_t dlen = slash ? (size_t)(slash - key) : 0;

	if (strcmp(key, "kubernetes.io/hostname") == 0 || strcmp(key, "karpenter.sh/nodepool") == 0)
		return "is set by Kubernetes or Karpenter itself";
	if (ends_with(key, dlen, "karpenter.sh") && strcmp(key, "karpenter.sh/capacity-type") != 0)
		return "is in the karpenter.sh domain, which Karpenter reserves";
	if (ends_with(key, dlen, "karpenter.k8s.aws")) {
		for (size_t i = 0; i < GS_ARRAY_LEN(aws_labels); i++)
			if (strcmp(slash + 1, aws_labels[i]) == 0 && dlen == 17)
				return NULL;
		return "is in the karpenter.k8s.aws domain, which Karpenter reserves";
	}
	return NULL;
}

static void check_nodeclassref(lint_ctx *c, const gs_node *tspec, const gs_node *tkey)
{
	static const struct { const char *key, *write; } want[] = {
		{ "group", "group: karpenter.k8s.aws" }, { "kind", "kind: EC2NodeClass" },
		{ "name", "name: <the EC2NodeClass's name>" },
	};
	gs_node *rk;
	const gs_node *ref = lint_find(tspec, "nodeClassRef", &rk);

	if (!is_map(ref)) {
		lint_add(c, R_KARPENTER_NODECLASSREF, ref ? rk : tkey,
		         "NodePool needs spec.template.spec.nodeClassRef; write 'nodeClassRef: "
		         "{group: karpenter.k8s.aws, kind: EC2NodeClass, name: NAME}'");
		return;
	}
	for (size_t i = 0; i < GS_ARRAY_LEN(want); i++) {
		const gs_node *v = lint_find(ref, want[i].key, NULL);
		if (lint_is_str(v) && v->text[0])
			continue;
		if (i == 0 && lint_find(ref, "apiVersion", NULL))
			lint_add(c, R_KARPENTER_NODECLASSREF, rk,
			         "nodeClassRef.apiVersion is the v1beta1 form; karpenter.sh/v1 needs "
			         "'group: karpenter.k8s.aws' instead");
		else
			lint_add(c, R_KARPENTER_NODECLASSREF, at_or(v, rk),
			         "nodeClassRef has no %s; write '%s'", want[i].key, want[i].write);
	}
}

static void check_requirement(lint_ctx *c, const gs_node *r)
{
	const gs_node *key = lint_find(r, "key", NULL), *op = lint_find(r, "operator", NULL);
	const gs_node *vals = lint_find(r, "values", NULL);
	size_t n = vals && vals->kind == GS_NODE_SEQ ? vals->n : 0;
	const char *why;
	long long x;

	if (lint_is_str(key) && (why = restricted(key->text)))
		lint_add(c, R_KARPENTER_RESTRICTED_LABEL, key,
		         "requirement key '%s' %s, so the NodePool is rejected; use a well-known "
		         "label such as karpenter.k8s.aws/instance-gpu-name", key->text, why);
	if (streq(op, "In") && n == 0)
		lint_add(c, R_KARPENTER_REQUIREMENT, op,
		         "operator In needs values; write 'values: [...]', or operator Exists");
	if ((streq(op, "Gt") || streq(op, "Lt") || streq(op, "Gte") || streq(op, "Lte")) &&
	    !(n == 1 && lint_is_str(vals->items[0]) &&
	      lint_int(&(gs_node){ .kind = GS_NODE_STRING, .text = vals->items[0]->text }, &x) &&
	      x >= 0))
		lint_add(c, R_KARPENTER_REQUIREMENT, op,
		         "operator %s needs exactly one value, a whole number; write 'values: "
		         "[\"8\"]'", op->text);
}

static void check_nodepool(lint_ctx *c, const gs_node *obj)
{
	gs_node *tk = NULL, *sk = NULL;
	const gs_node *spec = lint_find(obj, "spec", &sk);
	const gs_node *tmpl = lint_find(spec, "template", &tk);
	const gs_node *labels = lint_find(lint_find(tmpl, "metadata", NULL), "labels", NULL);
	gs_node *tsk = NULL;
	const gs_node *tspec = lint_find(tmpl, "spec", &tsk);
	const gs_node *reqs = lint_find(tspec, "requirements", NULL);
	const char *why;

	if (is_map(labels))
		for (size_t i = 0; i < labels->n; i++)
			if ((why = restricted(labels->keys[i]->text)))
				lint_add(c, R_KARPENTER_RESTRICTED_LABEL, labels->keys[i],
				         "label '%s' %s, so the NodePool is rejected; use your own domain, "
				         "e.g. example.com/%s", labels->keys[i]->text, why,
				         strchr(labels->keys[i]->text, '/') + 1);
	if (is_map(tspec))
		check_nodeclassref(c, tspec, tsk);
	else if (sk)
		check_nodeclassref(c, NULL, tk ? tk : sk);
	if (reqs && reqs->kind == GS_NODE_SEQ)
		for (size_t i = 0; i < reqs->n; i++)
			if (is_map(reqs->items[i]))
				check_requirement(c, reqs->items[i]);
}

static void check_karpenter(lint_ctx *c, const gs_node *obj, const gs_node *av,
                            const gs_node *kind)
{
	const char *a = lint_is_str(av) ? av->text : "";

	c->configs++;
	if (streq(kind, "Provisioner") || streq(kind, "AWSNodeTemplate")) {
		lint_add(c, R_KARPENTER_OLD_API, kind,
		         "%s (%s) was removed in Karpenter v0.33; write a karpenter.sh/v1 NodePool "
		         "and a karpenter.k8s.aws/v1 EC2NodeClass", kind->text,
		         streq(kind, "Provisioner") ? "karpenter.sh/v1alpha5"
		                                    : "karpenter.k8s.aws/v1alpha1");
		return;
	}
	if (strcmp(a, "karpenter.sh/v1alpha5") == 0 || strcmp(a, "karpenter.k8s.aws/v1alpha1") == 0) {
		lint_add(c, R_KARPENTER_OLD_API, av,
		         "%s was removed in Karpenter v0.33; write a karpenter.sh/v1 NodePool and a "
		         "karpenter.k8s.aws/v1 EC2NodeClass", a);
		return;
	}
	if (strcmp(a, "karpenter.sh/v1beta1") == 0 || strcmp(a, "karpenter.k8s.aws/v1beta1") == 0) {
		int sh = strncmp(a, "karpenter.sh/", 13) == 0;
		lint_add(c, R_KARPENTER_OLD_API, av,
		         "%s was removed in Karpenter v1.1; write 'apiVersion: %s' (%s)", a,
		         sh ? "karpenter.sh/v1" : "karpenter.k8s.aws/v1",
		         sh ? "NodePool, NodeClaim" : "EC2NodeClass");
		return;
	}
	if (streq(kind, "NodePool") && strcmp(a, "karpenter.sh/v1") == 0)
		check_nodepool(c, obj);
}

/* ---- ConfigMaps and Helm values ------------------------------------------- */

static void embedded_map(lint_ctx *c, const gs_node *map, const char *path)
{
	char what[160];

	if (!is_map(map))
		return;
	for (size_t i = 0; i < map->n; i++) {
		snprintf(what, sizeof what, "%s key '%s'", path, map->keys[i]->text);
		lint_embedded(c, map->keys[i], map->items[i], what);
	}
}

/* A `default` that must name a key of `data`. */
static void check_default(lint_ctx *c, const gs_node *def, const gs_node *data,
                          const char *path, const char *data_path)
{
	char names[256];
	size_t o = 0;

	if (!lint_is_str(def) || !def->text[0] || !is_map(data) || lint_find(data, def->text, NULL))
		return;
	names[0] = '\0';
	for (size_t i = 0; i < data->n && o < sizeof names - 1; i++)
		o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "",
		                      data->keys[i]->text);
	lint_add(c, R_VALUES_DEFAULT, def,
	         "%s '%s' names no config of %s; write one of: %s", path, def->text, data_path,
	         names);
}

void lint_helm_values(lint_ctx *c, const gs_node *root)
{
	const gs_node *dp = lint_find(lint_find(root, "devicePlugin", NULL), "config", NULL);
	const gs_node *mm = lint_find(lint_find(root, "migManager", NULL), "config", NULL);
	const gs_node *chart = lint_find(root, "config", NULL), *def;

	if (is_map(dp)) {
		embedded_map(c, lint_find(dp, "data", NULL), "devicePlugin.config.data");
		check_default(c, lint_find(dp, "default", NULL), lint_find(dp, "data", NULL),
		              "devicePlugin.config.default", "devicePlugin.config.data");
	}
	if (is_map(mm)) {
		embedded_map(c, lint_find(mm, "data", NULL), "migManager.config.data");
		def = lint_find(mm, "default", NULL);
		if (lint_is_str(def) && def->text[0] && strcmp(def->text, "all-disabled") != 0)
			lint_add(c, R_VALUES_DEFAULT, def,
			         "migManager.config.default is '%s', but the GPU Operator accepts only "
			         "all-disabled or empty; select configs with the nvidia.com/mig.config "
			         "node label", def->text);
	}
	if (is_map(chart) && lint_find(chart, "map", NULL)) {
		embedded_map(c, lint_find(chart, "map", NULL), "config.map");
		check_default(c, lint_find(chart, "default", NULL), lint_find(chart, "map", NULL),
		              "config.default", "config.map");
	}
}

void lint_k8s_object(lint_ctx *c, const gs_node *obj)
{
	const gs_node *av = lint_find(obj, "apiVersion", NULL);
	const gs_node *kind = lint_find(obj, "kind", NULL);
	const char *a = lint_is_str(av) ? av->text : "", *slash = strchr(a, '/');

	if (streq(kind, "ConfigMap")) {
		embedded_map(c, lint_find(obj, "data", NULL), "data");
	} else if (slash && strncmp(a, "resource.k8s.io/", 16) == 0 && lint_is_str(kind)) {
		check_dra(c, obj, av, slash + 1, kind->text);
	} else if (strncmp(a, "karpenter.", 10) == 0 || streq(kind, "Provisioner") ||
	           streq(kind, "AWSNodeTemplate")) {
		check_karpenter(c, obj, av, kind);
	}
}
