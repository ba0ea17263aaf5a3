/*
 * lint_dra.c - Kubernetes DRA objects (resource.k8s.io): ResourceClaims,
 * ResourceClaimTemplates and DeviceClasses, their request shapes, their
 * CEL selectors and the NVIDIA opaque parameters they carry.
 *
 * Sources: shared/reference/k8s-formats.md sections 3 (NVIDIA DRA driver:
 * api/nvidia.com/resource/v1beta1, decoded strictly by the kubelet plugin)
 * and 4 (resource.k8s.io shapes).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lint/kit.h"

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
			gs_lint_add(c, R_DRA_UNKNOWN_KEY, map->keys[i],
			            "unknown key '%s' in %s, which the NVIDIA DRA driver rejects "
			            "(it decodes strictly); write '%s'", k, where, near);
		else
			gs_lint_add(c, R_DRA_UNKNOWN_KEY, map->keys[i],
			            "unknown key '%s' in %s, which the NVIDIA DRA driver rejects "
			            "(it decodes strictly); remove it", k, where);
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

	if (!gs_lint_is_str(n))
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
		gs_lint_add(c, R_DRA_MEMORY_LIMIT, v,
		            "%s '%s' is not a quantity; write a size like 8Gi", what,
		            gs_lint_quote(v, q, sizeof q));
	else if (bytes <= 1048575.0)
		gs_lint_add(c, R_DRA_MEMORY_LIMIT, v,
		            "%s '%s' is below 1Mi, which the driver rejects as an invalid limit; "
		            "write a size like 8Gi", what, gs_lint_quote(v, q, sizeof q));
}

static void check_mps_config(lint_ctx *c, const gs_node *key, const gs_node *m)
{
	static const char *const keys[] = { "defaultActiveThreadPercentage",
		                                 "defaultPinnedDeviceMemoryLimit",
		                                 "defaultPerDevicePinnedMemoryLimit", "multiUser" };
	const gs_node *v;
	long long pct;
	char q[64];

	if (!gs_lint_is_map(m)) {
		if (m && m->kind != GS_NODE_NULL)
			gs_lint_add(c, R_DRA_UNKNOWN_KEY, gs_lint_at_or(m, key),
			            "mpsConfig must be a mapping, not %s", gs_lint_kind_name(m));
		return;
	}
	strict_keys(c, m, "mpsConfig", keys, GS_ARRAY_LEN(keys), NULL);
	if ((v = gs_lint_find(m, "defaultActiveThreadPercentage", NULL)) &&
	    v->kind != GS_NODE_NULL && (!gs_lint_int(v, &pct) || pct < 0 || pct > 100))
		gs_lint_add(c, R_DRA_THREAD_PERCENTAGE, v,
		            "defaultActiveThreadPercentage is '%s'; write a whole number from 0 "
		            "to 100", gs_lint_quote(v, q, sizeof q));
	if ((v = gs_lint_find(m, "defaultPinnedDeviceMemoryLimit", NULL)) &&
	    v->kind != GS_NODE_NULL)
		check_limit(c, "defaultPinnedDeviceMemoryLimit", v);
	if ((v = gs_lint_find(m, "defaultPerDevicePinnedMemoryLimit", NULL)) && gs_lint_is_map(v))
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

	if (!gs_lint_is_map(t)) {
		if (t && t->kind != GS_NODE_NULL)
			gs_lint_add(c, R_DRA_INTERVAL, gs_lint_at_or(t, key),
			            "timeSlicingConfig must be a mapping like {interval: "
			            "Default}, not %s", gs_lint_kind_name(t));
		return;
	}
	strict_keys(c, t, "timeSlicingConfig", keys, 1, NULL);
	if (!(iv = gs_lint_find(t, "interval", NULL)) || iv->kind == GS_NODE_NULL) {
		gs_lint_add(c, R_DRA_INTERVAL, key,
		            "timeSlicingConfig has no interval, which the driver cannot validate; "
		            "write 'interval: Default' (or Short, Medium, Long)");
		return;
	}
	for (size_t i = 0; i < GS_ARRAY_LEN(intervals); i++)
		if (gs_lint_streq(iv, intervals[i]))
			return;
	near = gs_lint_is_str(iv) ? gs_suggest(iv->text, intervals, GS_ARRAY_LEN(intervals)) : NULL;
	if (near)
		gs_lint_add(c, R_DRA_INTERVAL, iv,
		            "time-slice interval '%s' is not known; write '%s'",
		            gs_lint_quote(iv, q, sizeof q), near);
	else
		gs_lint_add(c, R_DRA_INTERVAL, iv,
		            "time-slice interval '%s' is not known; write Default, Short, Medium "
		            "or Long", gs_lint_quote(iv, q, sizeof q));
}

/* Returns 1 for TimeSlicing, 2 for MPS, 0 for anything else (reported). */
static int check_strategy(lint_ctx *c, const gs_node *key, const gs_node *sharing)
{
	static const char *const names[] = { "TimeSlicing", "MPS", "time-slicing" };
	const gs_node *s = gs_lint_find(sharing, "strategy", NULL);
	const char *near;
	char q[64];

	if (gs_lint_streq(s, "TimeSlicing") || gs_lint_streq(s, "MPS")) {
		int ts = gs_lint_streq(s, "TimeSlicing");
		/* Dropped at the end when driver values given turn the gate on. */
		gs_lint_noted(c, gs_facts_gate_need(c->facts,
		                                    ts ? "TimeSlicingSettings" : "MPSSupport",
		                                    gs_lint_where(c, s)));
		gs_lint_add(c, R_DRA_FEATURE_GATE, s,
		            "strategy %s needs the NVIDIA DRA driver's %s feature gate (alpha, "
		            "off by default); without it the claim fails when the pod starts: "
		            "enable featureGates.%s in the driver's Helm values", s->text,
		            ts ? "TimeSlicingSettings" : "MPSSupport",
		            ts ? "TimeSlicingSettings" : "MPSSupport");
		return ts ? 1 : 2;
	}
	if (!s || s->kind == GS_NODE_NULL) {
		gs_lint_add(c, R_DRA_STRATEGY, key,
		            "sharing has no strategy; write 'strategy: TimeSlicing' or "
		            "'strategy: MPS'");
		return 0;
	}
	near = gs_lint_is_str(s) ? gs_suggest(s->text, names, GS_ARRAY_LEN(names)) : NULL;
	if (near)
		gs_lint_add(c, R_DRA_STRATEGY, s,
		            "sharing strategy '%s' is not known (the names are case-sensitive); "
		            "write '%s'", gs_lint_quote(s, q, sizeof q),
		            strcmp(near, "MPS") == 0 ? "MPS" : "TimeSlicing");
	else
		gs_lint_add(c, R_DRA_STRATEGY, s,
		            "sharing strategy '%s' is not known; write TimeSlicing or MPS",
		            gs_lint_quote(s, q, sizeof q));
	return 0;
}

static void check_sharing(lint_ctx *c, const gs_node *key, const gs_node *sh, int mig,
                          int is_template)
{
	static const char *const gpu_keys[] = { "strategy", "timeSlicingConfig", "mpsConfig" };
	gs_node *tk = NULL, *mk = NULL;
	const gs_node *tsc, *mpc;
	int strategy;

	if (!gs_lint_is_map(sh)) {
		if (sh && sh->kind != GS_NODE_NULL)
			gs_lint_add(c, R_DRA_STRATEGY, gs_lint_at_or(sh, key),
			            "sharing must be a mapping, not %s", gs_lint_kind_name(sh));
		return;
	}
	if (is_template)
		gs_lint_add(c, R_DRA_TEMPLATE_SHARING, key,
		            "a ResourceClaimTemplate gives every pod its own claim, so pods never "
		            "share this GPU; to share it, create a ResourceClaim and reference it "
		            "with resourceClaimName");
	strict_keys(c, sh, "sharing", gpu_keys, GS_ARRAY_LEN(gpu_keys),
	            mig ? "timeSlicingConfig" : NULL);
	tsc = gs_lint_find(sh, "timeSlicingConfig", &tk);
	mpc = gs_lint_find(sh, "mpsConfig", &mk);
	if (mig && tk) {
		gs_lint_add(c, R_DRA_MIG_TIMESLICING, tk,
		            "MigDeviceConfig has no timeSlicingConfig: time slices cannot be set "
		            "on MIG devices; remove it");
		tsc = tk = NULL;
	}
	strategy = check_strategy(c, key, sh);
	if (strategy == 1 && mk && mpc && mpc->kind != GS_NODE_NULL)
		gs_lint_add(c, R_DRA_STRATEGY_CONFIG, mk,
		            "mpsConfig cannot be used with the TimeSlicing strategy; remove it, "
		            "or write 'strategy: MPS'");
	if (strategy == 2 && tk && tsc && tsc->kind != GS_NODE_NULL)
		gs_lint_add(c, R_DRA_STRATEGY_CONFIG, tk,
		            "timeSlicingConfig cannot be used with the MPS strategy; remove it, "
		            "or write 'strategy: TimeSlicing'");
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
	const gs_node *av = gs_lint_find(params, "apiVersion", &vk);
	const gs_node *kind = gs_lint_find(params, "kind", &kk);
	const char *near;
	size_t k;
	char q[64];

	for (k = 0; k < GS_ARRAY_LEN(nv_kinds); k++)
		if (gs_lint_streq(kind, nv_kinds[k]))
			break;
	if (gs_lint_streq(av, "gpu.nvidia.com/v1alpha1"))
		gs_lint_add(c, R_DRA_OLD_API, av,
		            "parameters apiVersion gpu.nvidia.com/v1alpha1 was renamed "
		            "resource.nvidia.com/v1beta1 in February 2025 and current drivers "
		            "cannot decode it; write 'apiVersion: resource.nvidia.com/v1beta1'");
	else if (!gs_lint_streq(av, "resource.nvidia.com/v1beta1"))
		gs_lint_add(c, R_DRA_PARAMS_API, gs_lint_at_or(av, params),
		            "the NVIDIA DRA driver decodes only resource.nvidia.com/v1beta1 "
		            "parameters, not '%s'; write 'apiVersion: resource.nvidia.com/v1beta1'",
		            gs_lint_quote(av, q, sizeof q));
	if (k == GS_ARRAY_LEN(nv_kinds)) {
		near = gs_lint_is_str(kind)
		           ? gs_suggest(kind->text, nv_kinds, GS_ARRAY_LEN(nv_kinds))
		           : NULL;
		gs_lint_add(c, R_DRA_PARAMS_API, gs_lint_at_or(kind, params),
		            "parameters kind '%s' is not one the NVIDIA DRA driver knows; write "
		            "%s%s%s", gs_lint_quote(kind, q, sizeof q),
		            near ? "'" : "GpuConfig or MigDeviceConfig", near ? near : "",
		            near ? "'" : "");
		return;
	}
	if (k < 3 && driver && !gs_lint_streq(driver, "gpu.nvidia.com"))
		gs_lint_add(c, R_DRA_DRIVER, gs_lint_at_or(driver, params),
		            "driver is '%s', but %s parameters are for the NVIDIA GPU driver; "
		            "write 'driver: gpu.nvidia.com'", gs_lint_quote(driver, q, sizeof q),
		            kind->text);
	if (k == 2)
		strict_keys(c, params, kind->text, vfio_keys, GS_ARRAY_LEN(vfio_keys), NULL);
	if (k >= 2)
		return;
	strict_keys(c, params, kind->text, cfg_keys, GS_ARRAY_LEN(cfg_keys), NULL);
	if (gs_lint_find(params, "sharing", &sk))
		check_sharing(c, sk, gs_lint_find(params, "sharing", NULL), k == 1, is_template);
}

static void check_opaque(lint_ctx *c, const gs_node *opaque, int is_template)
{
	const gs_node *driver = gs_lint_find(opaque, "driver", NULL);
	const gs_node *params = gs_lint_find(opaque, "parameters", NULL);
	const gs_node *av = gs_lint_find(params, "apiVersion", NULL);
	int nvidia = gs_lint_is_str(av) && (strncmp(av->text, "resource.nvidia.com/", 20) == 0 ||
	                                    strncmp(av->text, "gpu.nvidia.com/", 15) == 0);

	if (!gs_lint_is_map(params))
		return;
	if (nvidia || gs_lint_streq(driver, "gpu.nvidia.com"))
		check_params(c, params, driver, is_template);
}

/* ---- CEL selectors -------------------------------------------------------- */

static void check_attribute(lint_ctx *c, const gs_node *expr, const char *attr)
{
	static const char *const removed[] = { "index", "minor", "parentIndex" };

	for (size_t i = 0; i < GS_ARRAY_LEN(removed); i++)
		if (strcmp(attr, removed[i]) == 0)
			gs_lint_add(c, R_DRA_REMOVED_ATTRIBUTE, expr,
			            "CEL selector uses attribute '%s', which the NVIDIA DRA "
			            "driver no longer publishes (gone since v25.8), so it matches "
			            "no device; select by uuid or productName", attr);
	if (strcmp(attr, "pcieBusID") == 0)
		gs_lint_add(c, R_DRA_REMOVED_ATTRIBUTE, expr,
		            "CEL selector uses attribute 'pcieBusID', which the NVIDIA DRA driver "
		            "replaced in v25.12; write "
		            "device.attributes['resource.kubernetes.io'].pciBusID");
	if (strcmp(attr, "memory") == 0)
		gs_lint_add(c, R_DRA_MEMORY_ATTRIBUTE, expr,
		            "CEL selector reads memory as an attribute, but it is a capacity; "
		            "write "
		            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) "
		            ">= 0");
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
		if (strcmp(k, "cel") == 0 && (e = gs_lint_find(v, "expression", NULL)) &&
		    gs_lint_is_str(e))
			check_cel(c, e);
		else if (strcmp(k, "opaque") == 0 && gs_lint_is_map(v))
			check_opaque(c, v, is_template);
		else
			walk(c, v, is_template);
	}
}

/* ---- resource.k8s.io ------------------------------------------------------ */

static void check_request(lint_ctx *c, const gs_node *req, int v1, const char *av)
{
	gs_node *ek, *dk;
	const gs_node *exactly = gs_lint_find(req, "exactly", &ek);
	const gs_node *flat = gs_lint_find(req, "deviceClassName", &dk);
	const gs_node *first = gs_lint_find(req, "firstAvailable", NULL);
	const gs_node *name = gs_lint_find(req, "name", NULL);
	char q[64];

	if (v1 && flat)
		gs_lint_add(c, R_DRA_REQUEST_SHAPE, dk,
		            "%s puts deviceClassName under 'exactly:'; write 'exactly: "
		            "{deviceClassName: %s}' (the flat form is resource.k8s.io/v1beta1's)",
		            av, gs_lint_quote(flat, q, sizeof q));
	else if (v1 && !exactly && !first)
		gs_lint_add(c, R_DRA_REQUEST_SHAPE, req,
		            "request '%s' needs 'exactly:' with a deviceClassName (or "
		            "firstAvailable)", gs_lint_quote(name, q, sizeof q));
	else if (!v1 && exactly)
		gs_lint_add(c, R_DRA_REQUEST_SHAPE, ek,
		            "%s has no 'exactly:'; put deviceClassName directly on the request, or "
		            "write apiVersion resource.k8s.io/v1", av);
	else if (!v1 && !flat && !first)
		gs_lint_add(c, R_DRA_REQUEST_SHAPE, req, "request '%s' needs a deviceClassName",
		            gs_lint_quote(name, q, sizeof q));
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
			gs_lint_add(c, R_DRA_API_ALPHA, av,
			            "resource.k8s.io/v1alpha3 %ss are served only by Kubernetes "
			            "1.31; write resource.k8s.io/v1 (1.34 and later) with "
			            "'exactly:', or v1beta1", kind);
		return 0;
	}
	if (strcmp(version, "v1alpha1") == 0 || strcmp(version, "v1alpha2") == 0)
		gs_lint_add(c, R_DRA_API_VERSION, av,
		            "resource.k8s.io/%s (classic DRA) was removed in Kubernetes 1.31; "
		            "write resource.k8s.io/v1 (1.34 and later), v1beta2 (1.33) or v1beta1 "
		            "(1.32)", version);
	else
		gs_lint_add(c, R_DRA_API_VERSION, av,
		            "resource.k8s.io/%s does not exist; write resource.k8s.io/v1 "
		            "(Kubernetes 1.34 and later), v1beta2 (1.33) or v1beta1 (1.32)",
		            version);
	return -1;
}

static void check_dra(lint_ctx *c, const gs_node *obj, const gs_node *av,
                      const char *version, const char *kind)
{
	int is_template = strcmp(kind, "ResourceClaimTemplate") == 0, v1;
	gs_node *sk;
	const gs_node *spec = gs_lint_find(obj, "spec", &sk), *devices, *reqs;

	if (strcmp(kind, "ResourceClaim") != 0 && !is_template && strcmp(kind, "DeviceClass") != 0)
		return;
	c->configs++;
	if ((v1 = dra_version(c, av, version, kind)) < 0)
		return;
	if (is_template && gs_lint_is_map(spec)) {
		const gs_node *inner = gs_lint_find(spec, "spec", NULL);
		if (!inner && gs_lint_find(spec, "devices", NULL))
			gs_lint_add(c, R_DRA_TEMPLATE_SPEC, sk,
			            "a ResourceClaimTemplate holds its claim in spec.spec; indent "
			            "devices under another 'spec:'");
		else
			spec = inner;
	}
	devices = gs_lint_find(spec, "devices", NULL);
	reqs = gs_lint_find(devices, "requests", NULL);
	if (reqs && reqs->kind == GS_NODE_SEQ)
		for (size_t i = 0; i < reqs->n; i++)
			if (gs_lint_is_map(reqs->items[i]))
				check_request(c, reqs->items[i], v1, av->text);
	walk(c, spec, is_template);
}

void gs_lint_dra(lint_ctx *c, const gs_node *obj)
{
	const gs_node *av = gs_lint_find(obj, "apiVersion", NULL);
	const gs_node *kind = gs_lint_find(obj, "kind", NULL);

	check_dra(c, obj, av, strchr(av->text, '/') + 1, kind->text);
}
