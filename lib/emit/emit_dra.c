/*
 * emit_dra.c - DRA ResourceClaims for a plan: one claim per shared GPU, so
 * its pods share it, one per tenant of a MIG GPU, and a template for the
 * GPUs that are not shared. Shapes follow shared/reference/k8s-formats.md
 * §3-§5: resource.k8s.io v1/v1beta2 wrap requests in `exactly`, v1beta1
 * does not; opaque parameters are resource.nvidia.com/v1beta1.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "emit/emit.h"

/* Claims with via: dra, or with --dra next to the device plugin. */
int gs_emit_wants_dra(const gs_plan *p, const gs_emit_opts *o)
{
	return o->dra || gs_scenario_via(gs_plan_scenario(p)) == GS_VIA_DRA;
}

/* ---- names --------------------------------------------------------------- */

void gs_emit_claim_name(char *buf, size_t n, size_t node, size_t gpu)
{
	snprintf(buf, n, "gpushare-n%zu-gpu%zu", node + 1, gpu);
}

/* Claims live in a namespace, and tenants in namespaces of their own: a
 * MIG GPU shared by tenants gets one claim per tenant, numbered in the
 * order its instances appear ("gpushare-n3-gpu1-t2"). */
const char *gs_emit_mig_tenant(const gs_plan_mig *mi)
{
	return mi->n_assignments ? mi->assignments[0].workload->tenant : "";
}

static int tenant_index(const gs_plan_gpu *g, const char *tenant, int *count)
{
	int idx = 0, n = 0;
	for (size_t m = 0; m < g->n_mig; m++) {
		int seen = 0;
		for (size_t k = 0; k < m && !seen; k++)
			seen = strcmp(gs_emit_mig_tenant(&g->mig[k]),
			              gs_emit_mig_tenant(&g->mig[m])) == 0;
		if (seen)
			continue;
		n++;
		if (strcmp(gs_emit_mig_tenant(&g->mig[m]), tenant) == 0)
			idx = n;
	}
	*count = n;
	return idx;
}

void gs_emit_mig_claim_name(char *buf, size_t n, size_t node, size_t gpu,
                            const gs_plan_gpu *g, const char *tenant)
{
	int count, idx = tenant_index(g, tenant, &count);
	if (count > 1)
		snprintf(buf, n, "gpushare-n%zu-gpu%zu-t%d", node + 1, gpu, idx);
	else
		gs_emit_claim_name(buf, n, node, gpu);
}

/* ---- the claims ---------------------------------------------------------- */

static const char *api_version(gs_dra_api v)
{
	return v == GS_DRA_V1BETA1 ? "resource.k8s.io/v1beta1"
	       : v == GS_DRA_V1BETA2 ? "resource.k8s.io/v1beta2" : "resource.k8s.io/v1";
}

static gs_node *request(int *bad, const gs_emit_opts *o, const char *name,
                        const char *cls, const char *cel)
{
	gs_node *r = gs_emit_map(), *inner = o->dra_api == GS_DRA_V1BETA1 ? r : gs_emit_map();
	gs_emit_put(bad, r, "name", gs_node_str(name));
	gs_emit_put(bad, inner, "deviceClassName", gs_node_str(cls));
	if (cel) {
		gs_node *sels = gs_emit_seq(), *sel = gs_emit_map(), *c = gs_emit_map();
		gs_emit_put(bad, c, "expression", gs_node_str(cel));
		gs_emit_put(bad, sel, "cel", c);
		gs_emit_push(bad, sels, sel);
		gs_emit_put(bad, inner, "selectors", sels);
	}
	if (inner != r)
		gs_emit_put(bad, r, "exactly", inner);
	return r;
}

static gs_node *opaque(int *bad, const char *kind, gs_node *sharing, gs_node *reqs)
{
	gs_node *c = gs_emit_map(), *op = gs_emit_map(), *params = gs_emit_map();
	gs_emit_put(bad, params, "apiVersion", gs_node_str("resource.nvidia.com/v1beta1"));
	gs_emit_put(bad, params, "kind", gs_node_str(kind));
	gs_emit_put(bad, params, "sharing", sharing);
	gs_emit_put(bad, op, "driver", gs_node_str("gpu.nvidia.com"));
	gs_emit_put(bad, op, "parameters", params);
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

static gs_node *mps_sharing(int *bad, const gs_plan_gpu *g)
{
	gs_node *s = gs_emit_map(), *m = gs_emit_map();
	int threads = 0;
	int64_t mib = 0;
	char lim[32];
	/* One config for all the claim's consumers: the largest of them. */
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

static gs_node *claim_doc(int *bad, const gs_emit_opts *o, const char *kind,
                          const char *name, gs_node *devices)
{
	gs_node *d = gs_emit_map(), *meta = gs_emit_map(), *spec = gs_emit_map();
	gs_emit_put(bad, d, "apiVersion", gs_node_str(api_version(o->dra_api)));
	gs_emit_put(bad, d, "kind", gs_node_str(kind));
	gs_emit_put(bad, meta, "name", gs_node_str(name));
	gs_emit_put(bad, d, "metadata", meta);
	if (strcmp(kind, "ResourceClaimTemplate") == 0) {
		gs_node *inner = gs_emit_map();
		gs_emit_put(bad, inner, "devices", devices);
		gs_emit_put(bad, spec, "spec", inner);
	} else {
		gs_emit_put(bad, spec, "devices", devices);
	}
	gs_emit_put(bad, d, "spec", spec);
	return d;
}

/* A profile name inside a CEL string literal: only its safe characters. */
static void cel_profile(const char *profile, char *buf, size_t n)
{
	size_t o = (size_t)snprintf(buf, n, "device.attributes['gpu.nvidia.com'].profile == '");
	for (; *profile && o + 3 < n; profile++)
		if (isalnum((unsigned char)*profile) || strchr(".+-", *profile))
			buf[o++] = *profile;
	buf[o++] = '\'';
	buf[o] = '\0';
}

/* One tenant's instances of a MIG GPU in one claim, tied to one physical
 * GPU by matchAttribute on parentUUID, as the plan places them. */
static gs_node *mig_claim(int *bad, const gs_emit_opts *o, const gs_plan_gpu *g,
                          const char *name, const char *tenant)
{
	gs_node *dev = gs_emit_map(), *reqs = gs_emit_seq(), *cfgs = gs_emit_seq(),
	        *all = gs_emit_seq();
	for (size_t m = 0; m < g->n_mig; m++) {
		char rn[32], cel[160];
		if (strcmp(gs_emit_mig_tenant(&g->mig[m]), tenant) != 0)
			continue;
		snprintf(rn, sizeof rn, "mig-%zu", m);
		cel_profile(g->mig[m].profile->name, cel, sizeof cel);
		gs_emit_push(bad, reqs, request(bad, o, rn, "mig.nvidia.com", cel));
		gs_emit_push(bad, all, gs_node_str(rn));
		if (g->mig[m].strategy == GS_STRATEGY_TIME_SLICING) {
			gs_node *one = gs_emit_seq();
			gs_emit_push(bad, one, gs_node_str(rn));
			gs_emit_push(bad, cfgs,
			             opaque(bad, "MigDeviceConfig", ts_sharing(bad, 0), one));
		}
	}
	gs_emit_put(bad, dev, "requests", reqs);
	if (all && all->n > 1) {
		gs_node *cons = gs_emit_seq(), *c = gs_emit_map();
		gs_emit_put(bad, c, "requests", all);
		gs_emit_put(bad, c, "matchAttribute", gs_node_str("gpu.nvidia.com/parentUUID"));
		gs_emit_push(bad, cons, c);
		gs_emit_put(bad, dev, "constraints", cons);
	} else {
		gs_node_free(all);
	}
	if (cfgs && cfgs->n)
		gs_emit_put(bad, dev, "config", cfgs);
	else
		gs_node_free(cfgs);
	return claim_doc(bad, o, "ResourceClaim", name, dev);
}

static gs_node *shared_claim(int *bad, const gs_emit_opts *o, const gs_plan_gpu *g,
                             const char *name)
{
	gs_node *dev = gs_emit_map(), *reqs = gs_emit_seq(), *cfgs = gs_emit_seq(),
	        *rn = gs_emit_seq();
	gs_emit_push(bad, reqs, request(bad, o, "gpu", "gpu.nvidia.com", NULL));
	gs_emit_push(bad, rn, gs_node_str("gpu"));
	gs_emit_push(bad, cfgs, opaque(bad, "GpuConfig",
	                               g->strategy == GS_STRATEGY_MPS ? mps_sharing(bad, g)
	                                                              : ts_sharing(bad, 1),
	                               rn));
	gs_emit_put(bad, dev, "requests", reqs);
	gs_emit_put(bad, dev, "config", cfgs);
	return claim_doc(bad, o, "ResourceClaim", name, dev);
}

/* The claims of one GPU: one per tenant of a MIG GPU, one for a shared
 * GPU; *dedicated is set when it is a whole GPU of its own. */
static void gpu_claims(int *bad, const gs_emit_opts *o, const gs_plan_gpu *pg, size_t node,
                       size_t gpu, gs_buf *b, int *dedicated)
{
	char name[64];

	gs_emit_claim_name(name, sizeof name, node, gpu);
	for (size_t m = 0; m < pg->n_mig; m++) {
		int first = 1;
		const char *t = gs_emit_mig_tenant(&pg->mig[m]);
		for (size_t k = 0; k < m; k++)
			first &= strcmp(gs_emit_mig_tenant(&pg->mig[k]), t) != 0;
		if (!first)
			continue;
		gs_emit_mig_claim_name(name, sizeof name, node, gpu, pg, t);
		gs_emit_doc(b, mig_claim(bad, o, pg, name, t));
	}
	if (pg->n_mig)
		return;
	if (pg->n_assignments && pg->strategy != GS_STRATEGY_DEDICATED)
		gs_emit_doc(b, shared_claim(bad, o, pg, name));
	else if (pg->n_assignments)
		*dedicated = 1;
}

int gs_emit_dra(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	int bad = 0, dedicated = 0;
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_DRA),
	               "kubectl apply -n NAMESPACE -f resourceclaims.yaml (in the workloads' "
	               "namespace)");
	gs_buf_printf(b, "# Needs %s (Kubernetes %s) and the NVIDIA DRA driver (gpu.nvidia.com) "
	                 "with\n# feature gates TimeSlicingSettings=true and MPSSupport=true "
	                 "(not with DynamicMIG).\n",
	              api_version(o->dra_api),
	              o->dra_api == GS_DRA_V1 ? ">= 1.34"
	              : o->dra_api == GS_DRA_V1BETA2 ? "1.33 with resource.k8s.io/v1beta2 enabled"
	                                             : "1.32 with resource.k8s.io/v1beta1 enabled");
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++)
			gpu_claims(&bad, o, &n->gpus[g], i, g, b, &dedicated);
	}
	if (dedicated) {
		/* A template gives each pod a GPU of its own: right for these. */
		gs_node *dev = gs_emit_map(), *reqs = gs_emit_seq();
		gs_emit_push(&bad, reqs, request(&bad, o, "gpu", "gpu.nvidia.com", NULL));
		gs_emit_put(&bad, dev, "requests", reqs);
		gs_emit_doc(b, claim_doc(&bad, o, "ResourceClaimTemplate", GS_EMIT_DRA_TEMPLATE,
		                         dev));
	}
	return bad ? -1 : 0;
}
