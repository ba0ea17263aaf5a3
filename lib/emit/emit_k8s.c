/*
 * emit_k8s.c - Kubernetes objects for a plan: what each workload requests
 * and where it lands (patches or example Deployments), DRA ResourceClaims,
 * and Karpenter NodePools. Shapes follow shared/reference/k8s-formats.md
 * §3-§5: resource.k8s.io v1/v1beta2 wrap requests in `exactly`, v1beta1
 * does not; opaque parameters are resource.nvidia.com/v1beta1.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"

/* Where a replica lands, as a Deployment sees it. */
typedef struct place {
	char resource[80];   /* extended resource, or "" under DRA */
	const char *config;  /* node label value */
	char claim[80];      /* DRA claim (or template) name, "" if none */
	char request[32];    /* DRA request within the claim */
	int template_;       /* claim is a ResourceClaimTemplate */
} place;

static void claim_name(char *buf, size_t n, size_t node, size_t gpu)
{
	snprintf(buf, n, "gpushare-n%zu-gpu%zu", node + 1, gpu);
}

/* Claims live in a namespace, and tenants in namespaces of their own: a
 * MIG GPU shared by tenants gets one claim per tenant, numbered in the
 * order its instances appear ("gpushare-n3-gpu1-t2"). */
static const char *instance_tenant(const gs_plan_mig *mi)
{
	return mi->n_assignments ? mi->assignments[0].workload->tenant : "";
}

static int tenant_index(const gs_plan_gpu *g, const char *tenant, int *count)
{
	int idx = 0, n = 0;
	for (size_t m = 0; m < g->n_mig; m++) {
		int seen = 0;
		for (size_t k = 0; k < m && !seen; k++)
			seen = strcmp(instance_tenant(&g->mig[k]), instance_tenant(&g->mig[m])) == 0;
		if (seen)
			continue;
		n++;
		if (strcmp(instance_tenant(&g->mig[m]), tenant) == 0)
			idx = n;
	}
	*count = n;
	return idx;
}

static void mig_claim_name(char *buf, size_t n, size_t node, size_t gpu,
                           const gs_plan_gpu *g, const char *tenant)
{
	int count, idx = tenant_index(g, tenant, &count);
	if (count > 1)
		snprintf(buf, n, "gpushare-n%zu-gpu%zu-t%d", node + 1, gpu, idx);
	else
		claim_name(buf, n, node, gpu);
}

static void place_of(const gs_plan *p, const gs_emit_opts *o, size_t node, size_t gpu,
                     long mig, place *pl)
{
	const gs_plan_node *n = &p->nodes[node];
	const gs_plan_gpu *g = &n->gpus[gpu];
	int dra = em_uses_dra(p, o);
	memset(pl, 0, sizeof *pl);
	pl->config = n->config;
	if (mig >= 0) {
		const gs_plan_mig *mi = &g->mig[mig];
		if (!dra)
			em_mig_resource(mi->profile, o->rename_shared && mi->replicas > 1,
			                pl->resource, sizeof pl->resource);
		else {
			mig_claim_name(pl->claim, sizeof pl->claim, node, gpu, g, instance_tenant(mi));
			snprintf(pl->request, sizeof pl->request, "mig-%ld", mig);
		}
		return;
	}
	if (dra && g->strategy == GS_STRATEGY_DEDICATED) {
		snprintf(pl->claim, sizeof pl->claim, "gpushare-gpu");
		snprintf(pl->request, sizeof pl->request, "gpu");
		pl->template_ = 1;
	} else if (dra) {
		claim_name(pl->claim, sizeof pl->claim, node, gpu);
		snprintf(pl->request, sizeof pl->request, "gpu");
	} else {
		snprintf(pl->resource, sizeof pl->resource, "nvidia.com/gpu%s",
		         o->rename_shared && g->strategy != GS_STRATEGY_DEDICATED ? ".shared" : "");
	}
}

static int same_place(const place *a, const place *b)
{
	return strcmp(a->resource, b->resource) == 0 && strcmp(a->config, b->config) == 0 &&
	       strcmp(a->claim, b->claim) == 0 && strcmp(a->request, b->request) == 0;
}

typedef struct group_ {
	place where;
	int replicas;
} pgroup;

/* The distinct places of one workload's replicas, in plan order; *out
 * grows as needed and belongs to the caller. */
static int places_of(const gs_plan *p, const gs_emit_opts *o, const gs_workload *w,
                     pgroup **outp, size_t *cap)
{
	int n = 0;
	pgroup *out = *outp;
	for (size_t i = 0; i < p->n_nodes; i++)
		for (size_t g = 0; g < p->nodes[i].n_gpus; g++) {
			const gs_plan_gpu *pg = &p->nodes[i].gpus[g];
			for (long m = -1; m < (long)pg->n_mig; m++) {
				const gs_assignment *a = m < 0 ? pg->assignments : pg->mig[m].assignments;
				size_t na = m < 0 ? pg->n_assignments : pg->mig[m].n_assignments;
				for (size_t k = 0; k < na; k++) {
					place pl;
					int j;
					if (a[k].workload != w)
						continue;
					place_of(p, o, i, g, m, &pl);
					for (j = 0; j < n && !same_place(&out[j].where, &pl); j++)
						;
					if (j == n) {
						if (gs_grow(outp, cap, (size_t)n + 1, sizeof *out) < 0)
							return -1;
						out = *outp;
						out[n].where = pl;
						out[n++].replicas = 0;
					}
					out[j].replicas++;
				}
			}
		}
	return n;
}

/* spread: node as the scheduler enforces it: at most one replica of the
 * Deployment per node. (spread: gpu has no Kubernetes form; the plan's
 * placement holds it only while nothing else is scheduled there.) */
static gs_node *spread_nodes(int *bad, const char *app)
{
	gs_node *seq = em_seq(), *c = em_map(), *sel = em_map(), *ml = em_map();
	em_put(bad, c, "maxSkew", em_int(1));
	em_put(bad, c, "topologyKey", em_str("kubernetes.io/hostname"));
	em_put(bad, c, "whenUnsatisfiable", em_str("DoNotSchedule"));
	em_put(bad, ml, "app", em_str(app));
	em_put(bad, sel, "matchLabels", ml);
	em_put(bad, c, "labelSelector", sel);
	em_push(bad, seq, c);
	return seq;
}

static gs_node *pod_spec(int *bad, const gs_workload *w, const char *app, const place *pl,
                         int full)
{
	const char *container = w->name;
	gs_node *spec = em_map(), *sel = em_map(), *tols = em_seq(), *tol = em_map();
	gs_node *ctrs = em_seq(), *c = em_map(), *res = em_map();
	em_put(bad, sel, "nvidia.com/device-plugin.config", em_str(pl->config));
	em_put(bad, spec, "nodeSelector", sel);
	if (w->spread == GS_SPREAD_NODE)
		em_put(bad, spec, "topologySpreadConstraints", spread_nodes(bad, app));
	em_put(bad, tol, "key", em_str("nvidia.com/gpu"));
	em_put(bad, tol, "operator", em_str("Exists"));
	em_put(bad, tol, "effect", em_str("NoSchedule"));
	em_push(bad, tols, tol);
	em_put(bad, spec, "tolerations", tols);
	if (pl->claim[0]) {
		gs_node *rcs = em_seq(), *rc = em_map(), *claims = em_seq(), *cl = em_map();
		em_put(bad, rc, "name", em_str("gpu"));
		em_put(bad, rc, pl->template_ ? "resourceClaimTemplateName" : "resourceClaimName",
		       em_str(pl->claim));
		em_push(bad, rcs, rc);
		em_put(bad, spec, "resourceClaims", rcs);
		em_put(bad, cl, "name", em_str("gpu"));
		em_put(bad, cl, "request", em_str(pl->request));
		em_push(bad, claims, cl);
		em_put(bad, res, "claims", claims);
	} else {
		gs_node *lim = em_map();
		em_put(bad, lim, pl->resource, em_int(1));
		em_put(bad, res, "limits", lim);
	}
	em_put(bad, c, "name", em_str(container));
	if (full)
		em_put(bad, c, "image", em_str("registry.example.com/replace-me:latest"));
	em_put(bad, c, "resources", res);
	em_push(bad, ctrs, c);
	em_put(bad, spec, "containers", ctrs);
	return spec;
}

static gs_node *deployment(int *bad, const char *name, const gs_workload *w,
                           const pgroup *g)
{
	gs_node *d = em_map(), *meta = em_map(), *labels = em_map(), *spec = em_map();
	gs_node *sel = em_map(), *ml = em_map(), *tmpl = em_map(), *tmeta = em_map(),
	        *tl = em_map();
	em_put(bad, d, "apiVersion", em_str("apps/v1"));
	em_put(bad, d, "kind", em_str("Deployment"));
	em_put(bad, labels, "app", em_str(name));
	em_put(bad, meta, "name", em_str(name));
	em_put(bad, meta, "labels", labels);
	em_put(bad, d, "metadata", meta);
	em_put(bad, spec, "replicas", em_int(g->replicas));
	em_put(bad, ml, "app", em_str(name));
	em_put(bad, sel, "matchLabels", ml);
	em_put(bad, spec, "selector", sel);
	em_put(bad, tl, "app", em_str(name));
	em_put(bad, tmeta, "labels", tl);
	em_put(bad, tmpl, "metadata", tmeta);
	em_put(bad, tmpl, "spec", pod_spec(bad, w, name, &g->where, 1));
	em_put(bad, spec, "template", tmpl);
	em_put(bad, d, "spec", spec);
	return d;
}

static gs_node *patch(int *bad, const gs_workload *w, const char *name, const pgroup *g)
{
	gs_node *d = em_map(), *spec = em_map(), *tmpl = em_map();
	em_put(bad, spec, "replicas", em_int(g->replicas));
	em_put(bad, tmpl, "spec", pod_spec(bad, w, name, &g->where, 0));
	em_put(bad, spec, "template", tmpl);
	em_put(bad, d, "spec", spec);
	return d;
}

/* "chat-api", or "chat-api-2" for a second placement: a DNS label that
 * no workload and no earlier part has (the number grows until free). */
static int name_taken(const gs_plan *p, const char *name, char (*used)[64], size_t nused)
{
	for (size_t i = 0; i < p->n_wls; i++)
		if (strcmp(p->wls[i].workload->name, name) == 0)
			return 1;
	for (size_t i = 0; i < nused; i++)
		if (strcmp(used[i], name) == 0)
			return 1;
	return 0;
}

static void part_name(const gs_plan *p, char *buf, const char *name, int k, int *next,
                      char (*used)[64], size_t nused)
{
	char suffix[16];
	if (k == 0) {
		snprintf(buf, 64, "%s", name);
		return;
	}
	do {
		snprintf(suffix, sizeof suffix, "-%d", ++*next);
		snprintf(buf, 64, "%.*s%s", (int)(63 - strlen(suffix)), name, suffix);
	} while (name_taken(p, buf, used, nused));
}

int emit_workloads(const gs_plan *p, const gs_emit_opts *o, ebuf *b)
{
	pgroup *groups = NULL;
	size_t cap = 0, nused = 0, cap_used = 0;
	char (*used)[64] = NULL;
	int bad = 0;
	eb_header(b, p, o,
	          o->example_deployments
	              ? "Example Deployments that request what the plan gives each workload."
	              : "Strategic-merge patches: what each workload's Deployment must request "
	                "and where it must land.",
	          o->example_deployments
	              ? "kubectl apply -f workloads.yaml (replace the images first)"
	              : "kubectl patch deployment NAME --type strategic --patch-file PATCH, "
	                "one document per Deployment; containers are matched by name");
	for (size_t i = 0; i < p->n_wls && !bad; i++) {
		const gs_workload *w = p->wls[i].workload;
		int n = places_of(p, o, w, &groups, &cap), next = 1;
		if (n < 0)
			bad = 1;
		for (int k = 0; k < n && !bad; k++) {
			char name[64];
			part_name(p, name, w->name, k, &next, used, nused);
			if (gs_grow(&used, &cap_used, nused + 1, sizeof *used) < 0) {
				bad = 1;
				break;
			}
			memcpy(used[nused++], name, sizeof name);
			if (o->example_deployments) {
				eb_doc(b, deployment(&bad, name, w, &groups[k]));
				continue;
			}
			eb_printf(b, "# Deployment %s%s: %d replica%s\n", name,
			          k ? " (new: a copy of the first, for replicas placed elsewhere)" : "",
			          groups[k].replicas, groups[k].replicas == 1 ? "" : "s");
			eb_doc(b, patch(&bad, w, name, &groups[k]));
		}
	}
	free(groups);
	free(used);
	return bad ? -1 : 0;
}

/* ---- DRA ------------------------------------------------------------------------- */

static const char *api_version(gs_dra_api v)
{
	return v == GS_DRA_V1BETA1 ? "resource.k8s.io/v1beta1"
	       : v == GS_DRA_V1BETA2 ? "resource.k8s.io/v1beta2" : "resource.k8s.io/v1";
}

static gs_node *request(int *bad, const gs_emit_opts *o, const char *name,
                        const char *cls, const char *cel)
{
	gs_node *r = em_map(), *inner = o->dra_api == GS_DRA_V1BETA1 ? r : em_map();
	em_put(bad, r, "name", em_str(name));
	em_put(bad, inner, "deviceClassName", em_str(cls));
	if (cel) {
		gs_node *sels = em_seq(), *sel = em_map(), *c = em_map();
		em_put(bad, c, "expression", em_str(cel));
		em_put(bad, sel, "cel", c);
		em_push(bad, sels, sel);
		em_put(bad, inner, "selectors", sels);
	}
	if (inner != r)
		em_put(bad, r, "exactly", inner);
	return r;
}

static gs_node *opaque(int *bad, const char *kind, gs_node *sharing, gs_node *reqs)
{
	gs_node *c = em_map(), *op = em_map(), *params = em_map();
	em_put(bad, params, "apiVersion", em_str("resource.nvidia.com/v1beta1"));
	em_put(bad, params, "kind", em_str(kind));
	em_put(bad, params, "sharing", sharing);
	em_put(bad, op, "driver", em_str("gpu.nvidia.com"));
	em_put(bad, op, "parameters", params);
	em_put(bad, c, "requests", reqs);
	em_put(bad, c, "opaque", op);
	return c;
}

static gs_node *ts_sharing(int *bad, int whole_gpu)
{
	gs_node *s = em_map();
	em_put(bad, s, "strategy", em_str("TimeSlicing"));
	if (whole_gpu) { /* MIG devices take no timeSlicingConfig */
		gs_node *t = em_map();
		em_put(bad, t, "interval", em_str("Default"));
		em_put(bad, s, "timeSlicingConfig", t);
	}
	return s;
}

static gs_node *mps_sharing(int *bad, const gs_plan_gpu *g)
{
	gs_node *s = em_map(), *m = em_map();
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
	em_put(bad, m, "defaultActiveThreadPercentage", em_int(threads));
	em_put(bad, m, "defaultPinnedDeviceMemoryLimit", em_str(lim));
	em_put(bad, s, "strategy", em_str("MPS"));
	em_put(bad, s, "mpsConfig", m);
	return s;
}

static gs_node *claim_doc(int *bad, const gs_emit_opts *o, const char *kind,
                          const char *name, gs_node *devices)
{
	gs_node *d = em_map(), *meta = em_map(), *spec = em_map();
	em_put(bad, d, "apiVersion", em_str(api_version(o->dra_api)));
	em_put(bad, d, "kind", em_str(kind));
	em_put(bad, meta, "name", em_str(name));
	em_put(bad, d, "metadata", meta);
	if (strcmp(kind, "ResourceClaimTemplate") == 0) {
		gs_node *inner = em_map();
		em_put(bad, inner, "devices", devices);
		em_put(bad, spec, "spec", inner);
	} else {
		em_put(bad, spec, "devices", devices);
	}
	em_put(bad, d, "spec", spec);
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
	gs_node *dev = em_map(), *reqs = em_seq(), *cfgs = em_seq(), *all = em_seq();
	for (size_t m = 0; m < g->n_mig; m++) {
		char rn[32], cel[160];
		if (strcmp(instance_tenant(&g->mig[m]), tenant) != 0)
			continue;
		snprintf(rn, sizeof rn, "mig-%zu", m);
		cel_profile(g->mig[m].profile->name, cel, sizeof cel);
		em_push(bad, reqs, request(bad, o, rn, "mig.nvidia.com", cel));
		em_push(bad, all, em_str(rn));
		if (g->mig[m].strategy == GS_STRATEGY_TIME_SLICING) {
			gs_node *one = em_seq();
			em_push(bad, one, em_str(rn));
			em_push(bad, cfgs, opaque(bad, "MigDeviceConfig", ts_sharing(bad, 0), one));
		}
	}
	em_put(bad, dev, "requests", reqs);
	if (all && all->n > 1) {
		gs_node *cons = em_seq(), *c = em_map();
		em_put(bad, c, "requests", all);
		em_put(bad, c, "matchAttribute", em_str("gpu.nvidia.com/parentUUID"));
		em_push(bad, cons, c);
		em_put(bad, dev, "constraints", cons);
	} else {
		gs_node_free(all);
	}
	if (cfgs && cfgs->n)
		em_put(bad, dev, "config", cfgs);
	else
		gs_node_free(cfgs);
	return claim_doc(bad, o, "ResourceClaim", name, dev);
}

static gs_node *shared_claim(int *bad, const gs_emit_opts *o, const gs_plan_gpu *g,
                             const char *name)
{
	gs_node *dev = em_map(), *reqs = em_seq(), *cfgs = em_seq(), *rn = em_seq();
	em_push(bad, reqs, request(bad, o, "gpu", "gpu.nvidia.com", NULL));
	em_push(bad, rn, em_str("gpu"));
	em_push(bad, cfgs, opaque(bad, "GpuConfig",
	                          g->strategy == GS_STRATEGY_MPS ? mps_sharing(bad, g)
	                                                         : ts_sharing(bad, 1),
	                          rn));
	em_put(bad, dev, "requests", reqs);
	em_put(bad, dev, "config", cfgs);
	return claim_doc(bad, o, "ResourceClaim", name, dev);
}

int emit_dra(const gs_plan *p, const gs_emit_opts *o, ebuf *b)
{
	int bad = 0, dedicated = 0;
	eb_header(b, p, o, "DRA ResourceClaims: one per shared GPU, so its pods share it.",
	          "kubectl apply -n NAMESPACE -f resourceclaims.yaml (in the workloads' namespace)");
	eb_printf(b, "# Needs %s (Kubernetes %s) and the NVIDIA DRA driver (gpu.nvidia.com) with\n"
	             "# feature gates TimeSlicingSettings=true and MPSSupport=true (not with DynamicMIG).\n",
	          api_version(o->dra_api),
	          o->dra_api == GS_DRA_V1 ? ">= 1.34"
	          : o->dra_api == GS_DRA_V1BETA2 ? "1.33 with resource.k8s.io/v1beta2 enabled"
	                                         : "1.32 with resource.k8s.io/v1beta1 enabled");
	for (size_t i = 0; i < p->n_nodes; i++)
		for (size_t g = 0; g < p->nodes[i].n_gpus; g++) {
			const gs_plan_gpu *pg = &p->nodes[i].gpus[g];
			char name[64];
			claim_name(name, sizeof name, i, g);
			for (size_t m = 0; m < pg->n_mig; m++) {
				int count, first = 1;
				const char *t = instance_tenant(&pg->mig[m]);
				for (size_t k = 0; k < m; k++)
					first &= strcmp(instance_tenant(&pg->mig[k]), t) != 0;
				if (!first)
					continue;
				mig_claim_name(name, sizeof name, i, g, pg, t);
				(void)tenant_index(pg, t, &count);
				eb_doc(b, mig_claim(&bad, o, pg, name, t));
			}
			if (pg->n_mig)
				continue;
			if (pg->n_assignments && pg->strategy != GS_STRATEGY_DEDICATED)
				eb_doc(b, shared_claim(&bad, o, pg, name));
			else if (pg->n_assignments)
				dedicated = 1;
		}
	if (dedicated) {
		/* A template gives each pod a GPU of its own: right for these. */
		gs_node *dev = em_map(), *reqs = em_seq();
		em_push(&bad, reqs, request(&bad, o, "gpu", "gpu.nvidia.com", NULL));
		em_put(&bad, dev, "requests", reqs);
		eb_doc(b, claim_doc(&bad, o, "ResourceClaimTemplate", "gpushare-gpu", dev));
	}
	return bad ? -1 : 0;
}

/* ---- Karpenter --------------------------------------------------------------------- */

/* Pools are per (config, mig_config): the second geometry of a MIG node
 * type ("gpushare-p4d.24xlarge-2") must not share the first's name. */
static void pool_name(char *buf, size_t n, const gs_plan_node *nd)
{
	const char *dash = nd->mig_config ? strrchr(nd->mig_config, '-') : NULL;
	int numbered = dash && dash[1] >= '0' && dash[1] <= '9' &&
	               strspn(dash + 1, "0123456789") == strlen(dash + 1);
	snprintf(buf, n, "gpushare-%s%s", nd->config, numbered ? dash : "");
	/* NodePool names are DNS subdomains: lower case, no '_'. */
	for (size_t i = 0; buf[i]; i++)
		buf[i] = buf[i] == '_' ? '-' : (char)tolower((unsigned char)buf[i]);
}

static int same_pool(const gs_plan_node *a, const gs_plan_node *b)
{
	return strcmp(a->config, b->config) == 0 &&
	       (a->mig_config == b->mig_config ||
	        (a->mig_config && b->mig_config && strcmp(a->mig_config, b->mig_config) == 0));
}

static gs_node *requirement(int *bad, const char *key, gs_node *values)
{
	gs_node *r = em_map();
	em_put(bad, r, "key", em_str(key));
	em_put(bad, r, "operator", em_str("In"));
	em_put(bad, r, "values", values);
	return r;
}

static gs_node *nodepool(int *bad, const gs_plan *p, size_t first)
{
	const gs_plan_node *f = &p->nodes[first];
	gs_node *np = em_map(), *meta = em_map(), *spec = em_map(), *tmpl = em_map(),
	        *tmeta = em_map(), *labels = em_map(), *tspec = em_map(), *ref = em_map(),
	        *reqs = em_seq(), *types = em_seq(), *cap = em_seq(), *taints = em_seq(),
	        *taint = em_map(), *limits = em_map(), *dis = em_map();
	char name[96], gpus[32];
	long total = 0;

	for (size_t i = first; i < p->n_nodes; i++) {
		int seen = 0;
		if (!same_pool(&p->nodes[i], f) || strcmp(p->nodes[i].instance->cloud, "aws") != 0)
			continue;
		total += (long)p->nodes[i].n_gpus;
		for (size_t j = first; j < i && !seen; j++)
			seen = same_pool(&p->nodes[j], f) && p->nodes[j].instance == p->nodes[i].instance;
		if (!seen)
			em_push(bad, types, em_str(p->nodes[i].instance->type));
	}
	pool_name(name, sizeof name, f);
	em_put(bad, np, "apiVersion", em_str("karpenter.sh/v1"));
	em_put(bad, np, "kind", em_str("NodePool"));
	em_put(bad, meta, "name", em_str(name));
	em_put(bad, np, "metadata", meta);
	em_put(bad, labels, "nvidia.com/device-plugin.config", em_str(f->config));
	if (f->mig_config)
		em_put(bad, labels, "nvidia.com/mig.config", em_str(f->mig_config));
	em_put(bad, tmeta, "labels", labels);
	em_put(bad, tmpl, "metadata", tmeta);
	em_put(bad, ref, "group", em_str("karpenter.k8s.aws"));
	em_put(bad, ref, "kind", em_str("EC2NodeClass"));
	em_put(bad, ref, "name", em_str(EM_NODECLASS));
	em_put(bad, tspec, "nodeClassRef", ref);
	em_push(bad, reqs, requirement(bad, "node.kubernetes.io/instance-type", types));
	em_push(bad, cap, em_str(p->sum.pricing == GS_PRICING_SPOT ? "spot" : "on-demand"));
	em_push(bad, reqs, requirement(bad, "karpenter.sh/capacity-type", cap));
	em_put(bad, tspec, "requirements", reqs);
	em_put(bad, taint, "key", em_str("nvidia.com/gpu"));
	em_put(bad, taint, "value", em_str("true"));
	em_put(bad, taint, "effect", em_str("NoSchedule"));
	em_push(bad, taints, taint);
	em_put(bad, tspec, "taints", taints);
	em_put(bad, tmpl, "spec", tspec);
	em_put(bad, spec, "template", tmpl);
	snprintf(gpus, sizeof gpus, "%ld", total);
	em_put(bad, limits, "nvidia.com/gpu", em_str(gpus));
	em_put(bad, spec, "limits", limits);
	/* MIG geometry changes need a drained node; let empty nodes go. */
	em_put(bad, dis, "consolidationPolicy", em_str("WhenEmpty"));
	em_put(bad, dis, "consolidateAfter", em_str("10m"));
	em_put(bad, spec, "disruption", dis);
	em_put(bad, np, "spec", spec);
	return np;
}

static gs_node *nodeclass(int *bad)
{
	gs_node *nc = em_map(), *meta = em_map(), *spec = em_map(), *ami = em_seq(),
	        *alias = em_map(), *sub = em_seq(), *sg = em_seq();
	gs_node *t1 = em_map(), *tags1 = em_map(), *t2 = em_map(), *tags2 = em_map();
	em_put(bad, nc, "apiVersion", em_str("karpenter.k8s.aws/v1"));
	em_put(bad, nc, "kind", em_str("EC2NodeClass"));
	em_put(bad, meta, "name", em_str(EM_NODECLASS));
	em_put(bad, nc, "metadata", meta);
	em_put(bad, alias, "alias", em_str("al2023@latest"));
	em_push(bad, ami, alias);
	em_put(bad, spec, "amiSelectorTerms", ami);
	em_put(bad, spec, "role", em_str("KarpenterNodeRole-REPLACE-ME"));
	em_put(bad, tags1, "karpenter.sh/discovery", em_str("REPLACE-ME"));
	em_put(bad, t1, "tags", tags1);
	em_push(bad, sub, t1);
	em_put(bad, spec, "subnetSelectorTerms", sub);
	em_put(bad, tags2, "karpenter.sh/discovery", em_str("REPLACE-ME"));
	em_put(bad, t2, "tags", tags2);
	em_push(bad, sg, t2);
	em_put(bad, spec, "securityGroupSelectorTerms", sg);
	em_put(bad, nc, "spec", spec);
	return nc;
}

/* Karpenter counts physical GPUs, not time-sliced replicas: an overlay
 * tells it what each planned instance type advertises once renamed. */
/* One overlay per pool and instance type, selecting both: two pools of
 * one instance type advertise different slot counts. */
static gs_node *overlay(int *bad, const gs_plan_node *n)
{
	gs_node *ov = em_map(), *meta = em_map(), *spec = em_map(), *reqs = em_seq(),
	        *types = em_seq(), *pools = em_seq(), *cap = em_map();
	char name[160], pool[128], count[32];
	int slots = n->gpus[0].replicas;
	pool_name(pool, sizeof pool, n);
	snprintf(name, sizeof name, "%s-shared", pool);
	snprintf(count, sizeof count, "%d", slots * (int)n->n_gpus);
	em_put(bad, ov, "apiVersion", em_str("karpenter.sh/v1alpha1"));
	em_put(bad, ov, "kind", em_str("NodeOverlay"));
	em_put(bad, meta, "name", em_str(name));
	em_put(bad, ov, "metadata", meta);
	em_push(bad, pools, em_str(pool));
	em_push(bad, reqs, requirement(bad, "karpenter.sh/nodepool", pools));
	em_push(bad, types, em_str(n->instance->type));
	em_push(bad, reqs, requirement(bad, "node.kubernetes.io/instance-type", types));
	em_put(bad, spec, "requirements", reqs);
	em_put(bad, cap, "nvidia.com/gpu.shared", em_str(count));
	em_put(bad, spec, "capacity", cap);
	em_put(bad, ov, "spec", spec);
	return ov;
}

int emit_karpenter(const gs_plan *p, const gs_emit_opts *o, ebuf *b)
{
	int bad = 0;
	eb_header(b, p, o, "Karpenter NodePools, one per kind of node in the plan (AWS nodes only).",
	          "kubectl apply -f karpenter.yaml (set the EC2NodeClass role and discovery tags first)");
	for (size_t i = 0; i < p->n_nodes; i++) {
		int seen = 0;
		if (strcmp(p->nodes[i].instance->cloud, "aws") != 0)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(p->nodes[j].instance->cloud, "aws") == 0 &&
			       same_pool(&p->nodes[j], &p->nodes[i]);
		if (!seen)
			eb_doc(b, nodepool(&bad, p, i));
	}
	eb_doc(b, nodeclass(&bad));
	if (!o->rename_shared)
		return bad ? -1 : 0;
	eb_puts(b, "# NodeOverlay is alpha: Karpenter >= v1.7 with --feature-gates NodeOverlay=true.\n");
	for (size_t i = 0; i < p->n_nodes; i++) {
		const gs_plan_node *n = &p->nodes[i];
		int seen = 0;
		if (strcmp(n->instance->cloud, "aws") != 0 ||
		    (n->gpus[0].strategy != GS_STRATEGY_TIME_SLICING &&
		     n->gpus[0].strategy != GS_STRATEGY_MPS))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = p->nodes[j].instance == n->instance && same_pool(&p->nodes[j], n);
		if (!seen)
			eb_doc(b, overlay(&bad, n));
	}
	return bad ? -1 : 0;
}
