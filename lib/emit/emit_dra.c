/*
 * emit_dra.c - DRA objects for a plan (shared/reference/k8s-formats.md
 * §3, §4): a ResourceClaim per shared GPU and per shared MIG instance, in
 * the namespace of its pods, since a claim serves only its own namespace;
 * a ResourceClaimTemplate per workload and MIG profile, so each pod gets a
 * slice of its own and a Deployment stays one object; a template per
 * namespace for whole GPUs; and from Kubernetes 1.34 a DeviceClass per MIG
 * profile with extendedResourceName (KEP-5004), so pods that still ask for
 * nvidia.com/mig-1g.10gb run on DRA nodes. The resource.k8s.io version
 * follows the Kubernetes version: v1 and v1beta2 wrap requests in
 * `exactly`, v1beta1 does not; opaque parameters are
 * resource.nvidia.com/v1beta1.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"

/* Claims with via: dra, or with --dra: then DRA is the cluster's stack. */
int gs_emit_wants_dra(const gs_plan *p, const gs_emit_opts *o)
{
	return o->dra || gs_scenario_via(gs_plan_scenario(p)) == GS_VIA_DRA;
}

gs_dra_api gs_emit_dra_api(const gs_emit_opts *o)
{
	if (o->dra_api != GS_DRA_AUTO)
		return o->dra_api;
	return o->kube_minor >= 34 ? GS_DRA_V1 : o->kube_minor == 33 ? GS_DRA_V1BETA2
	                                                              : GS_DRA_V1BETA1;
}

static const char *api_version(gs_dra_api v)
{
	return v == GS_DRA_V1BETA1 ? "resource.k8s.io/v1beta1"
	       : v == GS_DRA_V1BETA2 ? "resource.k8s.io/v1beta2" : "resource.k8s.io/v1";
}

/* The first Kubernetes minor that serves v (v1beta1: 1.32, off by
 * default; v1beta2: 1.33; v1: 1.34, the first on by default). */
static int first_minor(gs_dra_api v)
{
	return v == GS_DRA_V1 ? 34 : v == GS_DRA_V1BETA2 ? 33 : 32;
}

const char *gs_emit_namespace_of(const gs_plan *p, const gs_workload *w)
{
	return w->object.namespace_ ? w->object.namespace_
	                            : gs_scenario_namespace(gs_plan_scenario(p));
}

/* ---- names --------------------------------------------------------------- */

void gs_emit_claim_name(char *buf, size_t n, size_t node, size_t gpu)
{
	snprintf(buf, n, "gpushare-n%zu-gpu%zu", node + 1, gpu);
}

void gs_emit_mig_claim_name(char *buf, size_t n, size_t node, size_t gpu, size_t mig)
{
	snprintf(buf, n, "gpushare-n%zu-gpu%zu-mig%zu", node + 1, gpu, mig);
}

/* Lower case, [a-z0-9.-], alphanumeric at both ends: a DNS subdomain part. */
static void dns_part(const char *s, char *out)
{
	gs_label_value(s, out);
	for (char *c = out; *c; c++)
		*c = *c == '_' ? '-' : (char)tolower((unsigned char)*c);
}

void gs_emit_mig_template_name(char *buf, size_t n, const gs_workload *w,
                               const gs_mig_profile *prof)
{
	char name[64], pr[64];
	dns_part(w->name, name);
	dns_part(prof->name, pr);
	snprintf(buf, n, "gpushare-%s-mig-%s", name, pr);
}

int gs_emit_mig_shared(const gs_plan_mig *mi)
{
	return mi->n_assignments > 1 || mi->strategy == GS_STRATEGY_TIME_SLICING;
}

/* ---- what a DRA stack cannot run ----------------------------------------- */

/* The one namespace of a shared device's pods, or NULL when they are in
 * several. */
static const char *one_namespace(const gs_plan *p, const gs_assignment *a, size_t n)
{
	const char *ns = n ? gs_emit_namespace_of(p, a[0].workload) : "";
	for (size_t k = 1; k < n; k++)
		if (strcmp(gs_emit_namespace_of(p, a[k].workload), ns) != 0)
			return NULL;
	return ns;
}

static int mixed(const gs_plan *p, const gs_assignment *a, size_t n, size_t node, size_t gpu,
                 gs_error *err)
{
	if (one_namespace(p, a, n))
		return 0;
	return gs_fail(err, GS_EINVAL,
	               "node %zu GPU %zu is shared by pods of the namespaces of %s and %s, but a "
	               "DRA claim serves only its own namespace: plan with `via: dra`, which "
	               "keeps namespaces apart", node + 1, gpu, a[0].workload->name,
	               a[n - 1].workload->name);
}

int gs_emit_dra_check(const gs_plan *p, const gs_emit_opts *o, gs_error *err)
{
	gs_dra_api api = gs_emit_dra_api(o);
	if (o->kube_minor < GS_KUBE_MINOR_MIN || o->kube_minor > GS_KUBE_MINOR_MAX)
		return gs_fail(err, GS_EINVAL, "Kubernetes 1.%d is not supported (1.%d to 1.%d)",
		               o->kube_minor, GS_KUBE_MINOR_MIN, GS_KUBE_MINOR_MAX);
	if ((unsigned)api > GS_DRA_V1BETA1)
		return gs_fail(err, GS_EINVAL, "unknown resource.k8s.io version");
	if (!gs_emit_wants_dra(p, o))
		return 0;
	if (o->kube_minor < first_minor(api))
		return gs_fail(err, GS_EINVAL, "Kubernetes 1.%d does not serve %s (it is served "
		               "from 1.%d)", o->kube_minor, api_version(api), first_minor(api));
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++) {
			const gs_plan_gpu *pg = &n->gpus[g];
			if (pg->strategy != GS_STRATEGY_DEDICATED &&
			    mixed(p, pg->assignments, pg->n_assignments, i, g, err) < 0)
				return GS_EINVAL;
			for (size_t m = 0; m < pg->n_mig; m++)
				if (gs_emit_mig_shared(&pg->mig[m]) &&
				    mixed(p, pg->mig[m].assignments, pg->mig[m].n_assignments, i, g,
				          err) < 0)
					return GS_EINVAL;
		}
	}
	return 0;
}

/* ---- documents ----------------------------------------------------------- */

static gs_node *cel_selectors(int *bad, const char *cel)
{
	gs_node *sels = gs_emit_seq(), *sel = gs_emit_map(), *c = gs_emit_map();
	gs_emit_put(bad, c, "expression", gs_node_str(cel));
	gs_emit_put(bad, sel, "cel", c);
	gs_emit_push(bad, sels, sel);
	return sels;
}

static gs_node *request(int *bad, gs_dra_api api, const char *name, const char *cls,
                        const char *cel)
{
	gs_node *r = gs_emit_map(), *inner = api == GS_DRA_V1BETA1 ? r : gs_emit_map();
	gs_emit_put(bad, r, "name", gs_node_str(name));
	gs_emit_put(bad, inner, "deviceClassName", gs_node_str(cls));
	if (cel)
		gs_emit_put(bad, inner, "selectors", cel_selectors(bad, cel));
	if (inner != r)
		gs_emit_put(bad, r, "exactly", inner);
	return r;
}

static gs_node *opaque(int *bad, const char *kind, gs_node *sharing, const char *req)
{
	gs_node *c = gs_emit_map(), *op = gs_emit_map(), *params = gs_emit_map(),
	        *reqs = gs_emit_seq();
	gs_emit_put(bad, params, "apiVersion", gs_node_str("resource.nvidia.com/v1beta1"));
	gs_emit_put(bad, params, "kind", gs_node_str(kind));
	gs_emit_put(bad, params, "sharing", sharing);
	gs_emit_put(bad, op, "driver", gs_node_str("gpu.nvidia.com"));
	gs_emit_put(bad, op, "parameters", params);
	gs_emit_push(bad, reqs, gs_node_str(req));
	gs_emit_put(bad, c, "requests", reqs);
	gs_emit_put(bad, c, "opaque", op);
	return c;
}

static gs_node *ts_sharing(int *bad, int whole_gpu)
{
	gs_node *s = gs_emit_map();
	gs_emit_put(bad, s, "strategy", gs_node_str("TimeSlicing"));
	if (whole_gpu) { /* MIG devices take no timeSlicingConfig */
		gs_node *t = gs_emit_map();
		gs_emit_put(bad, t, "interval", gs_node_str("Default"));
		gs_emit_put(bad, s, "timeSlicingConfig", t);
	}
	return s;
}

/* The claim's MPS daemon defaults are the loosest of its clients' limits;
 * each client tightens them to its own in its environment (place.c), as
 * an MPS client's setting may only lower the daemon's. */
static gs_node *mps_sharing(int *bad, const gs_plan_gpu *g)
{
	gs_node *s = gs_emit_map(), *m = gs_emit_map();
	int threads = 0;
	int64_t mib = 0;
	char lim[32];
	for (size_t a = 0; a < g->n_assignments; a++) {
		if (g->assignments[a].thread_percent > threads)
			threads = g->assignments[a].thread_percent;
		if (g->assignments[a].memory_limit_mib > mib)
			mib = g->assignments[a].memory_limit_mib;
	}
	snprintf(lim, sizeof lim, "%lldMi", (long long)(mib > 0 ? mib : 1));
	gs_emit_put(bad, m, "defaultActiveThreadPercentage", gs_node_int(threads));
	gs_emit_put(bad, m, "defaultPinnedDeviceMemoryLimit", gs_node_str(lim));
	gs_emit_put(bad, s, "strategy", gs_node_str("MPS"));
	gs_emit_put(bad, s, "mpsConfig", m);
	return s;
}

static gs_node *meta(int *bad, const char *name, const char *ns)
{
	gs_node *m = gs_emit_map();
	gs_emit_put(bad, m, "name", gs_node_str(name));
	if (ns)
		gs_emit_put(bad, m, "namespace", gs_node_str(ns));
	return m;
}

static gs_node *claim_doc(int *bad, gs_dra_api api, int tmpl, const char *name,
                          const char *ns, gs_node *devices)
{
	gs_node *d = gs_emit_map(), *spec = gs_emit_map();
	gs_emit_put(bad, d, "apiVersion", gs_node_str(api_version(api)));
	gs_emit_put(bad, d, "kind", gs_node_str(tmpl ? "ResourceClaimTemplate" : "ResourceClaim"));
	gs_emit_put(bad, d, "metadata", meta(bad, name, ns));
	if (tmpl) {
		gs_node *inner = gs_emit_map();
		gs_emit_put(bad, inner, "devices", devices);
		gs_emit_put(bad, spec, "spec", inner);
	} else {
		gs_emit_put(bad, spec, "devices", devices);
	}
	gs_emit_put(bad, d, "spec", spec);
	return d;
}

/* A CEL string literal of a profile name: only its safe characters. */
static void cel_profile(const char *profile, int with_type, char *buf, size_t n)
{
	size_t o = (size_t)snprintf(buf, n, "%sdevice.attributes['gpu.nvidia.com'].profile == '",
	                            with_type ? "device.driver == 'gpu.nvidia.com' && "
	                                        "device.attributes['gpu.nvidia.com'].type == "
	                                        "'mig' && " : "");
	for (; *profile && o + 3 < n; profile++)
		if (isalnum((unsigned char)*profile) || strchr(".+-", *profile))
			buf[o++] = *profile;
	buf[o++] = '\'';
	buf[o] = '\0';
}

/* Devices of one request (name req), with its sharing config or none. */
static gs_node *devices(int *bad, gs_dra_api api, const char *req, const char *cls,
                        const char *cel, gs_node *cfg)
{
	gs_node *dev = gs_emit_map(), *reqs = gs_emit_seq();
	gs_emit_push(bad, reqs, request(bad, api, req, cls, cel));
	gs_emit_put(bad, dev, "requests", reqs);
	if (cfg) {
		gs_node *cfgs = gs_emit_seq();
		gs_emit_push(bad, cfgs, cfg);
		gs_emit_put(bad, dev, "config", cfgs);
	}
	return dev;
}

/* ---- the claims of a plan ------------------------------------------------ */

/* Keys already emitted (template names with their namespace): a template
 * is written once however many GPUs use it. */
typedef struct seen {
	char (*v)[160];
	size_t n, cap;
} seen;

/* 1 when key is new (and now recorded), 0 when seen, -1 without memory. */
static int first_time(seen *s, const char *ns, const char *name)
{
	char key[160];
	snprintf(key, sizeof key, "%s/%s", ns, name);
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], key) == 0)
			return 0;
	if (gs_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
		return -1;
	memcpy(s->v[s->n++], key, sizeof key);
	return 1;
}

typedef struct ctx {
	const gs_plan *p;
	gs_dra_api api;
	gs_buf *b;
	seen done;
	int bad;
} ctx;

static void mig_claims(ctx *c, const gs_plan_gpu *pg, size_t node, size_t gpu)
{
	for (size_t m = 0; m < pg->n_mig; m++) {
		const gs_plan_mig *mi = &pg->mig[m];
		char name[160], cel[256];
		const char *ns;
		int fresh;
		if (!mi->n_assignments)
			continue;
		ns = gs_emit_namespace_of(c->p, mi->assignments[0].workload);
		cel_profile(mi->profile->name, 0, cel, sizeof cel);
		if (gs_emit_mig_shared(mi)) {
			gs_emit_mig_claim_name(name, sizeof name, node, gpu, m);
			gs_emit_doc(c->b, claim_doc(&c->bad, c->api, 0, name, ns,
			                            devices(&c->bad, c->api, "mig", "mig.nvidia.com",
			                                    cel, opaque(&c->bad, "MigDeviceConfig",
			                                                ts_sharing(&c->bad, 0),
			                                                "mig"))));
			continue;
		}
		gs_emit_mig_template_name(name, sizeof name, mi->assignments[0].workload,
		                          mi->profile);
		if ((fresh = first_time(&c->done, ns, name)) < 0)
			c->bad = 1;
		if (fresh == 1)
			gs_emit_doc(c->b, claim_doc(&c->bad, c->api, 1, name, ns,
			                            devices(&c->bad, c->api, "mig", "mig.nvidia.com",
			                                    cel, NULL)));
	}
}

static void gpu_claims(ctx *c, const gs_plan_gpu *pg, size_t node, size_t gpu)
{
	char name[64];
	const char *ns;
	int fresh;
	if (pg->n_mig) {
		mig_claims(c, pg, node, gpu);
		return;
	}
	if (!pg->n_assignments)
		return;
	ns = gs_emit_namespace_of(c->p, pg->assignments[0].workload);
	if (pg->strategy != GS_STRATEGY_DEDICATED) {
		gs_node *cfg = opaque(&c->bad, "GpuConfig",
		                      pg->strategy == GS_STRATEGY_MPS ? mps_sharing(&c->bad, pg)
		                                                      : ts_sharing(&c->bad, 1),
		                      "gpu");
		gs_emit_claim_name(name, sizeof name, node, gpu);
		gs_emit_doc(c->b, claim_doc(&c->bad, c->api, 0, name, ns,
		                            devices(&c->bad, c->api, "gpu", "gpu.nvidia.com", NULL,
		                                    cfg)));
		return;
	}
	/* A template gives each pod a GPU of its own, in each namespace. */
	if ((fresh = first_time(&c->done, ns, GS_EMIT_DRA_TEMPLATE)) < 0)
		c->bad = 1;
	if (fresh == 1)
		gs_emit_doc(c->b, claim_doc(&c->bad, c->api, 1, GS_EMIT_DRA_TEMPLATE, ns,
		                            devices(&c->bad, c->api, "gpu", "gpu.nvidia.com", NULL,
		                                    NULL)));
}

/* A DeviceClass per MIG profile of the plan that maps the device plugin's
 * resource name to a MIG slice of that profile (KEP-5004). */
static void device_classes(ctx *c)
{
	for (size_t i = 0; i < gs_plan_node_count(c->p); i++) {
		const gs_plan_node *n = gs_plan_node_at(c->p, i);
		for (size_t g = 0; g < n->n_gpus; g++)
			for (size_t m = 0; m < n->gpus[g].n_mig; m++) {
				const gs_mig_profile *prof = n->gpus[g].mig[m].profile;
				gs_node *d, *spec;
				char name[96], pr[64], res[80], cel[256];
				int fresh;
				dns_part(prof->name, pr);
				snprintf(name, sizeof name, "mig-%s.gpushare.io", pr);
				if ((fresh = first_time(&c->done, "", name)) != 1) {
					c->bad |= fresh < 0;
					continue;
				}
				gs_emit_mig_resource(prof, 0, res, sizeof res);
				cel_profile(prof->name, 1, cel, sizeof cel);
				d = gs_emit_map();
				spec = gs_emit_map();
				gs_emit_put(&c->bad, d, "apiVersion", gs_node_str(api_version(c->api)));
				gs_emit_put(&c->bad, d, "kind", gs_node_str("DeviceClass"));
				gs_emit_put(&c->bad, d, "metadata", meta(&c->bad, name, NULL));
				gs_emit_put(&c->bad, spec, "selectors", cel_selectors(&c->bad, cel));
				gs_emit_put(&c->bad, spec, "extendedResourceName", gs_node_str(res));
				gs_emit_put(&c->bad, d, "spec", spec);
				gs_emit_doc(c->b, d);
			}
	}
}

static int has_mig(const gs_plan *p)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		if (gs_plan_node_at(p, i)->mig_config)
			return 1;
	return 0;
}

static void needs(const ctx *c, const gs_emit_opts *o, gs_dra_api api)
{
	gs_buf *b = c->b;
	gs_buf_printf(b, "# For Kubernetes 1.%d: %s", o->kube_minor, api_version(api));
	if (o->kube_minor < 34)
		gs_buf_printf(b, " (not served by default: kube-apiserver --runtime-config=%s=true\n"
		                 "# and the feature gate DynamicResourceAllocation=true on the "
		                 "apiserver, scheduler,\n# controller-manager and kubelets)",
		              api_version(api));
	else if (api != GS_DRA_V1)
		gs_buf_printf(b, " (kube-apiserver --runtime-config=%s=true)", api_version(api));
	gs_buf_puts(b, ".\n# Claims are used by pods of their own namespace only. The NVIDIA "
	               "DRA driver\n# (dra-driver-values.yaml) serves gpu.nvidia.com and "
	               "mig.nvidia.com.\n");
	if (o->kube_minor >= 34 && has_mig(c->p))
		gs_buf_printf(b, "# The DeviceClasses give pods that ask for nvidia.com/mig-<profile> "
		                 "a MIG slice\n# through DRA (extendedResourceName, KEP-5004; the "
		                 "driver's gpu.nvidia.com does\n# so for nvidia.com/gpu): %s.\n",
		              o->kube_minor >= 36 ? "feature gate DRAExtendedResource, beta and on "
		                                    "by default"
		                                  : "turn on the alpha feature gate "
		                                    "DRAExtendedResource=true\n# on kube-apiserver, "
		                                    "kube-scheduler and the kubelets");
}

int gs_emit_dra(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	ctx c = { p, gs_emit_dra_api(o), b, { NULL, 0, 0 }, 0 };
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_DRA),
	               "kubectl apply -f resourceclaims.yaml (each claim names its namespace)");
	needs(&c, o, c.api);
	if (o->kube_minor >= 34)
		device_classes(&c);
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++)
			gpu_claims(&c, &n->gpus[g], i, g);
	}
	free(c.done.v);
	return c.bad ? -1 : 0;
}
