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

static const char *api_version(gs_dra_api v)
{
	return v == GS_DRA_V1BETA1 ? "resource.k8s.io/v1beta1"
	       : v == GS_DRA_V1BETA2 ? "resource.k8s.io/v1beta2" : "resource.k8s.io/v1";
}

/* ---- names --------------------------------------------------------------- */

void gs_emit_claim_name(char *buf, size_t n, size_t node, size_t gpu)
{
	snprintf(buf, n, "gpushare-n%zu-gpu%zu", node + 1, gpu);
}

void gs_emit_dra_template_name(char *buf, size_t n, int count)
{
	if (count > 1)
		snprintf(buf, n, "%s-x%d", GS_EMIT_DRA_TEMPLATE, count);
	else
		snprintf(buf, n, "%s", GS_EMIT_DRA_TEMPLATE);
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

void gs_emit_capacity_template_name(char *buf, size_t n, const gs_workload *w, int64_t mib)
{
	char name[64];
	dns_part(w->name, name);
	snprintf(buf, n, "gpushare-%s-%lldmi", name, (long long)mib);
}

void gs_emit_mig_template_name(char *buf, size_t n, const gs_workload *w,
                               const gs_mig_profile *prof)
{
	char name[64], pr[64];
	dns_part(w->name, name);
	dns_part(prof->name, pr);
	snprintf(buf, n, "gpushare-%s-mig-%s", name, pr);
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

/* One request of `count` devices of the class (ExactCount, the default,
 * written only above 1: every device on the claim's one node). */
static gs_node *request(int *bad, gs_dra_api api, const char *name, const char *cls,
                        const char *cel, int count)
{
	gs_node *r = gs_emit_map(), *inner = api == GS_DRA_V1BETA1 ? r : gs_emit_map();
	gs_emit_put(bad, r, "name", gs_node_str(name));
	gs_emit_put(bad, inner, "deviceClassName", gs_node_str(cls));
	if (cel)
		gs_emit_put(bad, inner, "selectors", cel_selectors(bad, cel));
	if (count > 1) {
		gs_emit_put(bad, inner, "allocationMode", gs_node_str("ExactCount"));
		gs_emit_put(bad, inner, "count", gs_node_int(count));
	}
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

/* Devices of one request (name req) of `count` devices, with its sharing
 * config or none. */
static gs_node *devices(int *bad, gs_dra_api api, const char *req, const char *cls,
                        const char *cel, gs_node *cfg, int count)
{
	gs_node *dev = gs_emit_map(), *reqs = gs_emit_seq();
	gs_emit_push(bad, reqs, request(bad, api, req, cls, cel, count));
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

#define MIG_CLASS "mig.nvidia.com"

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
			int *bad = &c->bad;
			gs_node *cfg = opaque(bad, "MigDeviceConfig", ts_sharing(bad, 0), "mig");
			gs_emit_mig_claim_name(name, sizeof name, node, gpu, m);
			cfg = devices(bad, c->api, "mig", MIG_CLASS, cel, cfg, 1);
			gs_emit_doc(c->b, claim_doc(bad, c->api, 0, name, ns, cfg));
			continue;
		}
		gs_emit_mig_template_name(name, sizeof name, mi->assignments[0].workload,
		                          mi->profile);
		if ((fresh = first_time(&c->done, ns, name)) < 0)
			c->bad = 1;
		if (fresh == 1)
			gs_emit_doc(c->b, claim_doc(&c->bad, c->api, 1, name, ns,
			                            devices(&c->bad, c->api, "mig", MIG_CLASS, cel,
			                                    NULL, 1)));
	}
}

/* A template per workload and memory cap: each pod's claim asks that
 * much of a GPU's memory capacity (KEP-5075), so the scheduler puts it on
 * any device with that much left; pods of any namespace may share one. */
static void capacity_claims(ctx *c, const gs_plan_gpu *pg)
{
	for (size_t a = 0; a < pg->n_assignments; a++) {
		const gs_assignment *as = &pg->assignments[a];
		const char *ns = gs_emit_namespace_of(c->p, as->workload);
		gs_node *dev, *req, *inner, *cap, *reqs;
		int64_t mib = gs_emit_capacity_mib(pg->model, as->memory_limit_mib);
		char name[160], mem[32];
		int fresh;
		gs_emit_capacity_template_name(name, sizeof name, as->workload, mib);
		if ((fresh = first_time(&c->done, ns, name)) != 1) {
			c->bad |= fresh < 0;
			continue;
		}
		dev = devices(&c->bad, c->api, "gpu", "gpu.nvidia.com", NULL, NULL, 1);
		req = gs_node_get(dev, "requests");
		req = req && req->n ? req->items[0] : NULL;
		inner = c->api == GS_DRA_V1BETA1 ? req : gs_node_get(req, "exactly");
		cap = gs_emit_map();
		reqs = gs_emit_map();
		snprintf(mem, sizeof mem, "%lldMi", (long long)mib);
		gs_emit_put(&c->bad, reqs, "memory", gs_node_str(mem));
		gs_emit_put(&c->bad, cap, "requests", reqs);
		if (inner)
			gs_emit_put(&c->bad, inner, "capacity", cap);
		else {
			gs_node_free(cap);
			c->bad = 1;
		}
		gs_emit_doc(c->b, claim_doc(&c->bad, c->api, 1, name, ns, dev));
	}
}

static void gpu_claims(ctx *c, const gs_plan_gpu *pg, size_t node, size_t gpu)
{
	char name[64];
	const char *ns;
	int fresh, count;
	if (pg->n_mig) {
		mig_claims(c, pg, node, gpu);
		return;
	}
	if (!pg->n_assignments || gs_emit_backend(pg) == GS_BACKEND_HAMI)
		return;
	if (gs_emit_backend(pg) == GS_BACKEND_DRA) {
		capacity_claims(c, pg);
		return;
	}
	ns = gs_emit_namespace_of(c->p, pg->assignments[0].workload);
	if (pg->strategy != GS_STRATEGY_DEDICATED) {
		int mps = pg->strategy == GS_STRATEGY_MPS || gs_emit_backend(pg) == GS_BACKEND_MPS;
		gs_node *cfg = opaque(&c->bad, "GpuConfig",
		                      mps ? mps_sharing(&c->bad, pg) : ts_sharing(&c->bad, 1),
		                      "gpu");
		gs_emit_claim_name(name, sizeof name, node, gpu);
		gs_emit_doc(c->b, claim_doc(&c->bad, c->api, 0, name, ns,
		                            devices(&c->bad, c->api, "gpu", "gpu.nvidia.com", NULL,
		                                    cfg, 1)));
		return;
	}
	/* A template gives each pod a GPU of its own, in each namespace, or
	 * as many as its workload's replicas hold (one per count). */
	count = pg->assignments[0].workload->gpus_per_replica;
	gs_emit_dra_template_name(name, sizeof name, count);
	if ((fresh = first_time(&c->done, ns, name)) < 0)
		c->bad = 1;
	if (fresh == 1)
		gs_emit_doc(c->b, claim_doc(&c->bad, c->api, 1, name, ns,
		                            devices(&c->bad, c->api, "gpu", "gpu.nvidia.com", NULL,
		                                    NULL, count)));
}

/* A DeviceClass that maps the device plugin's resource name of a MIG
 * profile to a MIG slice of that profile (KEP-5004), once per profile. */
static void device_class(ctx *c, const gs_mig_profile *prof)
{
	int *bad = &c->bad, fresh;
	gs_node *d, *spec;
	char name[96], pr[64], res[80], cel[256];
	dns_part(prof->name, pr);
	snprintf(name, sizeof name, "mig-%s.gpushare.io", pr);
	if ((fresh = first_time(&c->done, "", name)) != 1) {
		c->bad |= fresh < 0;
		return;
	}
	gs_emit_mig_resource(prof, 0, res, sizeof res);
	cel_profile(prof->name, 1, cel, sizeof cel);
	d = gs_emit_map();
	spec = gs_emit_map();
	gs_emit_put(bad, d, "apiVersion", gs_node_str(api_version(c->api)));
	gs_emit_put(bad, d, "kind", gs_node_str("DeviceClass"));
	gs_emit_put(bad, d, "metadata", meta(bad, name, NULL));
	gs_emit_put(bad, spec, "selectors", cel_selectors(bad, cel));
	gs_emit_put(bad, spec, "extendedResourceName", gs_node_str(res));
	gs_emit_put(bad, d, "spec", spec);
	gs_emit_doc(c->b, d);
}

static void device_classes(ctx *c)
{
	for (size_t i = 0; i < gs_plan_node_count(c->p); i++) {
		const gs_plan_node *n = gs_plan_node_at(c->p, i);
		for (size_t g = 0; g < n->n_gpus; g++)
			for (size_t m = 0; m < n->gpus[g].n_mig; m++)
				device_class(c, n->gpus[g].mig[m].profile);
	}
}

static int has_mig(const gs_plan *p)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		if (gs_plan_node_at(p, i)->mig_config)
			return 1;
	return 0;
}

static const char *const ext_gate[2] = {
	"turn on the alpha feature gate DRAExtendedResource=true\n"
	"# on kube-apiserver, kube-scheduler and the kubelets",
	"feature gate DRAExtendedResource, beta and on by default",
};

static void needs(const ctx *c, const gs_emit_opts *o, gs_dra_api api)
{
	gs_buf *b = c->b;
	const char *v = api_version(api);
	gs_buf_printf(b, "# For Kubernetes 1.%d: %s", o->kube_minor, v);
	if (o->kube_minor < 34)
		gs_buf_printf(b, " (not served by default: kube-apiserver "
		                 "--runtime-config=%s=true\n# and the feature gate "
		                 "DynamicResourceAllocation=true on the apiserver, scheduler,\n"
		                 "# controller-manager and kubelets)", v);
	else if (api != GS_DRA_V1)
		gs_buf_printf(b, " (kube-apiserver --runtime-config=%s=true)", v);
	gs_buf_puts(b, ".\n# Claims are used by pods of their own namespace only. The NVIDIA "
	               "DRA driver\n# (dra-driver-values.yaml) serves gpu.nvidia.com and "
	               "mig.nvidia.com.\n");
	if (gs_emit_has_backend(c->p, GS_BACKEND_DRA))
		gs_buf_printf(b, "# Templates with capacity.requests.memory share a GPU by "
		                 "consumable capacity\n# (KEP-5075; %s)\n# and the driver's "
		                 "ConsumableShares (dra-driver-values.yaml). The scheduler "
		                 "accounts\n# the memory; nothing holds a container to it.\n",
		              o->kube_minor >= 36 ? "feature gate DRAConsumableCapacity, beta "
		                                    "and on by default"
		                                  : "turn on the alpha feature gate "
		                                    "DRAConsumableCapacity=true");
	if (gs_emit_has_backend(c->p, GS_BACKEND_DRA))
		gs_buf_puts(b, "# Each asks its workload's gpuMemory x its GPU's reported / "
		               "usable memory, so\n# the claims a device's reported memory holds "
		               "never need more than its usable\n# memory.\n");
	if (gs_emit_has_backend(c->p, GS_BACKEND_MPS))
		gs_buf_puts(b, "# MPS fractions: the claim's MPS defaults are its loosest "
		               "client's limits; each\n# client lowers them to its own in its "
		               "environment (workloads' patches).\n");
	if (o->kube_minor >= 34 && has_mig(c->p))
		gs_buf_printf(b, "# The DeviceClasses give pods that ask for "
		                 "nvidia.com/mig-<profile> a MIG slice\n# through DRA "
		                 "(extendedResourceName, KEP-5004; the driver's gpu.nvidia.com "
		                 "does\n# so for nvidia.com/gpu): %s.\n",
		              ext_gate[o->kube_minor >= 36]);
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
