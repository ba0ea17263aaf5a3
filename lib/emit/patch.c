/*
 * patch.c - one object of the plan as YAML trees (patch.h). The pod part
 * is the same for a patch, a copy and an example: its pods request the
 * planned resource (or DRA claim) on their container, select the pools the
 * plan put them in, keep apart where spread says so, and tolerate the GPU
 * taint.
 */
#include <stdio.h>
#include <string.h>

#include "emit/emit.h"
#include "emit/patch.h"
#include "scenario/manifests.h"

/* The manifest's pod spec, or NULL without manifests. */
static const gs_node *real_pod_spec(const gs_eobject *e, const gs_emit_opts *o)
{
	const gs_manifest *m;
	const gs_node *spec = NULL;
	gs_error err;
	if (!o->manifests ||
	    gs_manifests_find_ref(o->manifests, e->w, e->file_ns, &m, &err) <
	        0 ||
	    gs_manifest_pod_spec(o->manifests, m, &spec, &err) < 0)
		return NULL;
	return spec;
}

/* The manifest's own GPU node selection (nvidia.com/gpu.product, the
 * device-plugin config...) would fight the plan's pools: null deletes it. */
static void drop_gpu_selectors(int *bad, gs_node *sel, const gs_node *real)
{
	const gs_node *have = real ? gs_node_get(real, "nodeSelector") : NULL;
	for (size_t i = 0; have && have->kind == GS_NODE_MAP && i < have->n;
	     i++)
		if (strncmp(have->keys[i]->text, "nvidia.com/", 11) == 0)
			gs_emit_put(bad, sel, have->keys[i]->text,
			            gs_node_new(GS_NODE_NULL, NULL));
}

/* The index of the manifest's pod claim "gpu" if it sets field, else -1. */
static long real_claim_at(const gs_node *spec, const char *field)
{
	const gs_node *rcs = spec ? gs_node_get(spec, "resourceClaims") : NULL;
	for (size_t i = 0; rcs && rcs->kind == GS_NODE_SEQ && i < rcs->n; i++) {
		const gs_node *name = gs_node_get(rcs->items[i], "name");
		if (name && name->text && strcmp(name->text, "gpu") == 0)
			return gs_node_get(rcs->items[i], field) ? (long)i : -1;
	}
	return -1;
}

static int real_claim_field(const gs_node *spec, const char *field)
{
	return real_claim_at(spec, field) >= 0;
}

int gs_emit_claim_conflict(const gs_eobject *e, const gs_emit_opts *o,
                           char *path, size_t n)
{
	const char *field = e->where.template_ ? "resourceClaimName"
	                                       : "resourceClaimTemplateName";
	long at;
	if (!e->where.claim[0] ||
	    (at = real_claim_at(real_pod_spec(e, o), field)) < 0)
		return 0;
	snprintf(path, n, "/spec/%s%sresourceClaims/%ld/%s",
	         e->kind == GS_OBJECT_CRONJOB ? "jobTemplate/spec/" : "",
	         e->kind == GS_OBJECT_POD ? "" : "template/spec/", at, field);
	return 1;
}

static gs_node *pool_selection(int *bad, const gs_eobject *e, gs_node *spec,
                               const gs_node *real)
{
	gs_node *aff = gs_emit_map(), *sel = gs_emit_map();
	if (e->n_pools == 1)
		gs_emit_put(bad, sel, GS_EMIT_POOL_LABEL,
		            gs_node_str(e->pools[0]));
	drop_gpu_selectors(bad, sel, real);
	if (sel && sel->n)
		gs_emit_put(bad, spec, "nodeSelector", sel);
	else
		gs_node_free(sel);
	if (e->n_pools > 1) {
		gs_node *na = gs_emit_map(), *req = gs_emit_map(),
		        *terms = gs_emit_seq(), *term = gs_emit_map(),
		        *exprs = gs_emit_seq(), *ex = gs_emit_map(),
		        *vals = gs_emit_seq();
		for (size_t i = 0; i < e->n_pools; i++)
			gs_emit_push(bad, vals, gs_node_str(e->pools[i]));
		gs_emit_put(bad, ex, "key", gs_node_str(GS_EMIT_POOL_LABEL));
		gs_emit_put(bad, ex, "operator", gs_node_str("In"));
		gs_emit_put(bad, ex, "values", vals);
		gs_emit_push(bad, exprs, ex);
		gs_emit_put(bad, term, "matchExpressions", exprs);
		gs_emit_push(bad, terms, term);
		gs_emit_put(bad, req, "nodeSelectorTerms", terms);
		gs_emit_put(bad, na,
		            "requiredDuringSchedulingIgnoredDuringExecution",
		            req);
		gs_emit_put(bad, aff, "nodeAffinity", na);
	}
	return aff;
}

/* At most one pod of the workload per node: required, so that no
 * placement the scheduler may choose puts two together. */
static gs_node *anti_affinity(int *bad, const gs_eobject *e)
{
	gs_node *pa = gs_emit_map(), *req = gs_emit_seq(),
	        *term = gs_emit_map(), *sel = gs_emit_map(),
	        *ml = gs_emit_map();
	gs_emit_put(bad, ml, GS_EMIT_WORKLOAD_LABEL, gs_node_str(e->w->name));
	gs_emit_put(bad, sel, "matchLabels", ml);
	gs_emit_put(bad, term, "labelSelector", sel);
	gs_emit_put(bad, term, "topologyKey",
	            gs_node_str("kubernetes.io/hostname"));
	gs_emit_push(bad, req, term);
	gs_emit_put(bad, pa, "requiredDuringSchedulingIgnoredDuringExecution",
	            req);
	return pa;
}

static gs_node *tolerations(int *bad)
{
	gs_node *tols = gs_emit_seq(), *tol = gs_emit_map();
	gs_emit_put(bad, tol, "key", gs_node_str("nvidia.com/gpu"));
	gs_emit_put(bad, tol, "operator", gs_node_str("Exists"));
	gs_emit_put(bad, tol, "effect", gs_node_str("NoSchedule"));
	gs_emit_push(bad, tols, tol);
	return tols;
}

/* The manifest's container being patched, or NULL without manifests. */
static const gs_node *real_container(const gs_eobject *e, const gs_emit_opts *o)
{
	const gs_manifest *m;
	const gs_node *c = NULL;
	const char *name;
	gs_error err;
	if (!o->manifests || !e->container ||
	    gs_manifests_find_ref(o->manifests, e->w, e->file_ns, &m, &err) <
	        0 ||
	    gs_manifest_container(o->manifests, m, e->container, &c, &name,
	                          &err) < 0)
		return NULL;
	return c;
}

/* Whether the pod asks for resource k itself: the planned resource, or
 * a HAMi fraction's memory cap and SM %. */
static int asked(const char *k, const place *pl)
{
	return strcmp(k, pl->resource) == 0 ||
	       (pl->backend == GS_BACKEND_HAMI &&
	        (strcmp(k, GS_EMIT_HAMI_MEM) == 0 || strcmp(k, GS_EMIT_HAMI_CORES) == 0));
}

/* In section (limits, requests) of the real container: every other GPU
 * resource set to null, which a strategic merge deletes, so the pod asks
 * for the planned resource alone. Without a manifest, nvidia.com/gpu (what
 * an unplanned GPU pod asks) in limits. */
static void drop_others(int *bad, gs_node *map, const gs_node *real,
                        const char *section, const place *pl)
{
	const char *keep = pl->resource;
	const gs_node *have =
	    real ? gs_node_get(gs_node_get(real, "resources"), section) : NULL;
	if (!real) {
		if (strcmp(section, "limits") == 0 && *keep &&
		    strcmp(keep, "nvidia.com/gpu") != 0)
			gs_emit_put(bad, map, "nvidia.com/gpu",
			            gs_node_new(GS_NODE_NULL, NULL));
		return;
	}
	for (size_t i = 0; have && have->kind == GS_NODE_MAP && i < have->n;
	     i++) {
		const char *k = have->keys[i]->text;
		if (strncmp(k, "nvidia.com/", 11) == 0 && !asked(k, pl))
			gs_emit_put(bad, map, k,
			            gs_node_new(GS_NODE_NULL, NULL));
	}
}

/* A HAMi fraction's cap and SM % beside its nvidia.com/gpu (as limits:
 * the API server copies them to requests). */
static void put_hami(int *bad, gs_node *m, const place *pl)
{
	if (pl->backend != GS_BACKEND_HAMI)
		return;
	gs_emit_put(bad, m, GS_EMIT_HAMI_MEM, gs_node_int(pl->frac_mib));
	gs_emit_put(bad, m, GS_EMIT_HAMI_CORES, gs_node_int(pl->frac_cores));
}

/* Puts section (limits, requests) into res: the planned resource, if
 * any, and null for the GPU resources it replaces. */
static void put_section(int *bad, gs_node *res, const gs_node *real,
                        const char *section, const place *pl)
{
	gs_node *m = gs_emit_map();
	int limits = strcmp(section, "limits") == 0;
	if (*pl->resource && limits)
		gs_emit_put(bad, m, pl->resource, gs_node_int(pl->count));
	if (limits)
		put_hami(bad, m, pl);
	else if (pl->backend == GS_BACKEND_HAMI && *pl->resource) {
		/* Requests the manifest has must equal the limits. */
		gs_emit_put(bad, m, pl->resource, gs_node_int(pl->count));
		put_hami(bad, m, pl);
	}
	drop_others(bad, m, real, section, pl);
	if (m && m->n)
		gs_emit_put(bad, res, section, m);
	else
		gs_node_free(m);
}

/* The container's resources: the planned extended resource, or the DRA
 * claim (and then no device-plugin resource at all). */
static gs_node *container_resources(int *bad, const gs_eobject *e,
                                    const gs_node *real, int complete)
{
	gs_node *res = gs_emit_map();
	if (e->where.claim[0]) {
		gs_node *claims = gs_emit_seq(), *cl = gs_emit_map();
		gs_emit_put(bad, cl, "name", gs_node_str("gpu"));
		gs_emit_put(bad, cl, "request", gs_node_str(e->where.request));
		gs_emit_push(bad, claims, cl);
		gs_emit_put(bad, res, "claims", claims);
	}
	/* A complete object has nothing to delete. */
	if (complete) {
		if (*e->where.resource) {
			gs_node *lim = gs_emit_map();
			gs_emit_put(bad, lim, e->where.resource,
			            gs_node_int(e->where.count));
			put_hami(bad, lim, &e->where);
			gs_emit_put(bad, res, "limits", lim);
		}
		return res;
	}
	put_section(bad, res, real, "limits", &e->where);
	if (real && gs_node_get(gs_node_get(real, "resources"), "requests"))
		put_section(bad, res, real, "requests", &e->where);
	return res;
}

static gs_node *pod_spec(int *bad, const gs_eobject *e, const gs_emit_opts *o)
{
	gs_node *spec = gs_emit_map(), *aff, *ctrs = gs_emit_seq(),
	        *c = gs_emit_map();
	const gs_node *real = real_container(e, o);
	aff = pool_selection(bad, e, spec, real_pod_spec(e, o));
	if (e->spread_nodes)
		gs_emit_put(bad, aff, "podAntiAffinity", anti_affinity(bad, e));
	if (aff && aff->n)
		gs_emit_put(bad, spec, "affinity", aff);
	else
		gs_node_free(aff);
	/* HAMi's scheduler accounts gpumem and gpucores, which no node
	 * advertises: the default scheduler could not place the pod. */
	if (e->where.backend == GS_BACKEND_HAMI)
		gs_emit_put(bad, spec, "schedulerName", gs_node_str(GS_EMIT_HAMI_SCHEDULER));
	gs_emit_put(bad, spec, "tolerations", tolerations(bad));
	if (e->where.claim[0]) {
		gs_node *rcs = gs_emit_seq(), *rc = gs_emit_map();
		gs_emit_put(bad, rc, "name", gs_node_str("gpu"));
		gs_emit_put(bad, rc,
		            e->where.template_ ? "resourceClaimTemplateName"
		                               : "resourceClaimName",
		            gs_node_str(e->where.claim));
		/* A claim of that name in the manifest may use the other
		 * field; a claim has exactly one. (Only then: kustomize keeps
		 * a null it has nothing to delete with.) */
		if (real_claim_field(real_pod_spec(e, o),
		                     e->where.template_
		                         ? "resourceClaimName"
		                         : "resourceClaimTemplateName"))
			gs_emit_put(bad, rc,
			            e->where.template_
			                ? "resourceClaimName"
			                : "resourceClaimTemplateName",
			            gs_node_new(GS_NODE_NULL, NULL));
		gs_emit_push(bad, rcs, rc);
		gs_emit_put(bad, spec, "resourceClaims", rcs);
	}
	gs_emit_put(bad, c, "name",
	            gs_node_str(e->container ? e->container : e->w->name));
	if (o->example_deployments)
		gs_emit_put(
		    bad, c, "image",
		    gs_node_str("registry.example.com/replace-me:latest"));
	gs_emit_put(bad, c, "resources",
	            container_resources(bad, e, real, o->example_deployments));
	gs_emit_place_env(bad, &e->where, e->w,
	                  c); /* MPS client limits under DRA */
	gs_emit_push(bad, ctrs, c);
	gs_emit_put(bad, spec, "containers", ctrs);
	return spec;
}

static gs_node *pod_labels(int *bad, const gs_eobject *e)
{
	gs_node *l = gs_emit_map();
	gs_emit_put(bad, l, GS_EMIT_WORKLOAD_LABEL, gs_node_str(e->w->name));
	if (e->where.backend != GS_BACKEND_NONE)
		gs_emit_put(bad, l, GS_EMIT_FRACTION_LABEL,
		            gs_node_str(gs_backend_name(e->where.backend)));
	if (e->copy) {
		char n[16];
		snprintf(n, sizeof n, "%d", e->copy + 1);
		gs_emit_put(bad, l, GS_EMIT_COPY_LABEL, gs_node_str(n));
	}
	return l;
}

static gs_node *pod_template(int *bad, const gs_eobject *e,
                             const gs_emit_opts *o)
{
	gs_node *t = gs_emit_map(), *meta = gs_emit_map();
	gs_emit_put(bad, meta, "labels", pod_labels(bad, e));
	gs_emit_put(bad, t, "metadata", meta);
	gs_emit_put(bad, t, "spec", pod_spec(bad, e, o));
	return t;
}

/* Whether the manifest's Deployment rolls out by Recreate. */
static int recreates(const gs_eobject *e, const gs_emit_opts *o)
{
	const gs_manifest *m;
	const gs_node *type;
	gs_error err;
	if (!o->manifests ||
	    gs_manifests_find_ref(o->manifests, e->w, e->file_ns, &m, &err) < 0)
		return 0;
	type = gs_node_get(gs_node_get(gs_node_get(m->tree, "spec"), "strategy"), "type");
	return type && type->text && strcmp(type->text, "Recreate") == 0;
}

static gs_node *rollout(int *bad)
{
	gs_node *s = gs_emit_map(), *ru = gs_emit_map();
	gs_emit_put(bad, s, "type", gs_node_str("RollingUpdate"));
	gs_emit_put(bad, ru, "maxSurge", gs_node_int(0));
	gs_emit_put(bad, ru, "maxUnavailable", gs_node_int(1));
	gs_emit_put(bad, s, "rollingUpdate", ru);
	return s;
}

static gs_node *head(int *bad, const gs_eobject *e)
{
	gs_node *d = gs_emit_map(), *meta = gs_emit_map();
	gs_emit_put(bad, d, "apiVersion",
	            gs_node_str(gs_emit_api_version(e->kind)));
	gs_emit_put(bad, d, "kind", gs_node_str(gs_object_kind_name(e->kind)));
	gs_emit_put(bad, meta, "name", gs_node_str(e->name));
	gs_emit_put(bad, meta, "namespace", gs_node_str(e->namespace_));
	gs_emit_put(bad, d, "metadata", meta);
	return d;
}

/* The object's spec: replicas where the kind has them, the rollout, and
 * the pod template at the kind's path. */
static gs_node *object_spec(int *bad, const gs_eobject *e,
                            const gs_emit_opts *o)
{
	gs_node *spec = gs_emit_map();
	switch (e->kind) {
	case GS_OBJECT_DEPLOYMENT:
		gs_emit_put(bad, spec, "replicas", gs_node_int(e->replicas));
		/* Recreate needs no spare slot: the manifest's choice stands. */
		if (!recreates(e, o))
			gs_emit_put(bad, spec, "strategy", rollout(bad));
		break;
	case GS_OBJECT_STATEFULSET:
		gs_emit_put(bad, spec, "replicas", gs_node_int(e->replicas));
		break;
	case GS_OBJECT_JOB:
		gs_emit_put(bad, spec, "parallelism", gs_node_int(e->replicas));
		break;
	case GS_OBJECT_CRONJOB: {
		gs_node *jt = gs_emit_map(), *js = gs_emit_map();
		gs_emit_put(bad, js, "parallelism", gs_node_int(e->replicas));
		gs_emit_put(bad, js, "template", pod_template(bad, e, o));
		gs_emit_put(bad, jt, "spec", js);
		gs_emit_put(bad, spec, "jobTemplate", jt);
		return spec;
	}
	case GS_OBJECT_POD: break;
	}
	gs_emit_put(bad, spec, "template", pod_template(bad, e, o));
	return spec;
}

gs_node *gs_emit_patch(int *bad, const gs_eobject *e, const gs_emit_opts *o)
{
	gs_node *d = head(bad, e);
	if (e->kind == GS_OBJECT_POD) {
		gs_node *t = pod_template(bad, e, o),
		        *meta = gs_node_get(d, "metadata");
		/* A Pod is its own template: its labels and spec at the top. */
		if (t && meta) {
			gs_emit_put(bad, meta, "labels",
			            gs_node_clone(gs_node_get(
			                gs_node_get(t, "metadata"), "labels")));
			gs_emit_put(bad, d, "spec",
			            gs_node_clone(gs_node_get(t, "spec")));
		}
		gs_node_free(t);
		return d;
	}
	gs_emit_put(bad, d, "spec", object_spec(bad, e, o));
	return d;
}

/* ---- complete objects ---------------------------------------------------- */

/* Sets map[key] to val, replacing what is there. */
static void set_key(int *bad, gs_node *map, const char *key, gs_node *val)
{
	for (size_t i = 0; map && map->kind == GS_NODE_MAP && i < map->n; i++)
		if (strcmp(map->keys[i]->text, key) == 0) {
			gs_node_free(map->items[i]);
			map->items[i] = val;
			if (!val)
				*bad = 1;
			return;
		}
	gs_emit_put(bad, map, key, val);
}

/* map[key], made a map when absent. */
static gs_node *sub_map(int *bad, gs_node *map, const char *key)
{
	gs_node *m = gs_node_get(map, key);
	if (m && m->kind == GS_NODE_MAP)
		return m;
	set_key(bad, map, key, gs_emit_map());
	return gs_node_get(map, key);
}

/* Removes map[key] if there. */
static void drop_key(gs_node *map, const char *key)
{
	for (size_t i = 0; map && map->kind == GS_NODE_MAP && i < map->n; i++) {
		size_t rest = map->n - i - 1;
		if (strcmp(map->keys[i]->text, key) != 0)
			continue;
		gs_node_free(map->keys[i]);
		gs_node_free(map->items[i]);
		memmove(&map->keys[i], &map->keys[i + 1],
		        rest * sizeof *map->keys);
		memmove(&map->items[i], &map->items[i + 1],
		        rest * sizeof *map->items);
		map->n--;
		return;
	}
}

void gs_emit_strip_live(gs_node *obj)
{
	gs_node *meta = gs_node_get(obj, "metadata");
	static const char *const live[] = {
		"uid",           "resourceVersion",
		"generation",    "creationTimestamp",
		"managedFields", "ownerReferences",
		"selfLink"
	};
	for (size_t k = 0; k < sizeof live / sizeof *live; k++)
		drop_key(meta, live[k]);
	drop_key(obj, "status");
}

gs_node *gs_emit_copy(int *bad, const gs_eobject *e, const gs_emit_opts *o,
                      const char *default_ns)
{
	const gs_manifest *m;
	gs_node *obj, *meta, *tmpl, *spec;
	gs_error err;
	char n[16];
	if (!o->manifests ||
	    gs_manifests_find_ref(o->manifests, e->w, default_ns, &m, &err) <
	        0 ||
	    !(obj = gs_manifest_copy(m))) {
		*bad = 1;
		return NULL;
	}
	meta = sub_map(bad, obj, "metadata");
	gs_emit_strip_live(obj);
	set_key(bad, meta, "name", gs_node_str(e->name));
	snprintf(n, sizeof n, "%d", e->copy + 1);
	spec = sub_map(bad, obj, "spec");
	if (e->kind == GS_OBJECT_CRONJOB)
		spec = sub_map(bad, sub_map(bad, spec, "jobTemplate"), "spec");
	/* A copy's pods are its own: its selector names the copy label. */
	if (e->kind == GS_OBJECT_DEPLOYMENT || e->kind == GS_OBJECT_STATEFULSET)
		set_key(
		    bad,
		    sub_map(bad, sub_map(bad, spec, "selector"), "matchLabels"),
		    GS_EMIT_COPY_LABEL, gs_node_str(n));
	tmpl = e->kind == GS_OBJECT_POD ? obj : sub_map(bad, spec, "template");
	set_key(bad, sub_map(bad, sub_map(bad, tmpl, "metadata"), "labels"),
	        GS_EMIT_COPY_LABEL, gs_node_str(n));
	return obj;
}

gs_node *gs_emit_example(int *bad, const gs_eobject *e, const gs_emit_opts *o)
{
	gs_eobject x = *e;
	gs_node *d, *spec, *sel = gs_emit_map(), *ml;
	x.kind = GS_OBJECT_DEPLOYMENT;
	d = gs_emit_patch(bad, &x, o);
	spec = gs_node_get(d, "spec");
	ml = gs_node_clone(gs_node_get(
	    gs_node_get(gs_node_get(spec, "template"), "metadata"), "labels"));
	gs_emit_put(bad, sel, "matchLabels", ml);
	if (spec)
		gs_emit_put(bad, spec, "selector", sel);
	else
		gs_node_free(sel);
	return d;
}
