/*
 * emit_workloads.c - what each workload's Deployment must request and
 * where it must land, as strategic-merge patches or complete example
 * Deployments: the extended resource of the device plugin (renamed to
 * .shared or not), or the DRA claim of its GPU (emit_dra.c names them),
 * and the node label of its node's config. Replicas placed on several
 * kinds of node become several Deployments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"
#include "emit/emit.h"
#include "emit/place.h"

static int same_place(const place *a, const place *b)
{
	return strcmp(a->resource, b->resource) == 0 && strcmp(a->config, b->config) == 0 &&
	       strcmp(a->claim, b->claim) == 0 && strcmp(a->request, b->request) == 0;
}

/* The replicas of one workload that land in one place. */
typedef struct pgroup {
	place where;
	int replicas;
} pgroup;

/* Where one replica is: its node, GPU and MIG instance (-1: none). */
typedef struct spot {
	size_t node, gpu;
	long mig;
} spot;

/* A workload and its index in the plan, sorted by address to find one. */
typedef struct wref {
	const gs_workload *w;
	size_t i;
} wref;

/* Every replica's spot, grouped by workload (in the plan's workload order)
 * and in plan order within one: built in one pass over the plan, so that
 * emitting stays linear in replicas, not workloads x replicas. */
typedef struct spots {
	spot *v;
	size_t *first;   /* workload i's spots: v[first[i]] up to v[first[i + 1]] */
	wref *refs;
	size_t n_wls;
} spots;

/* The distinct places of one workload's replicas, in plan order. */
typedef struct places {
	const gs_plan *p;
	const gs_emit_opts *o;
	pgroup *v;    /* grown as needed, kept for the next workload */
	size_t cap;
	int n;
} places;

/* Counts one more replica at pl, in a new group when no earlier replica
 * went there. */
static int add_place(places *ps, const place *pl)
{
	int j;
	for (j = 0; j < ps->n && !same_place(&ps->v[j].where, pl); j++)
		;
	if (j == ps->n) {
		if (gs_grow(&ps->v, &ps->cap, (size_t)ps->n + 1, sizeof *ps->v) < 0)
			return -1;
		ps->v[j].where = *pl;
		ps->v[j].replicas = 0;
		ps->n++;
	}
	ps->v[j].replicas++;
	return 0;
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const wref *)a)->w, y = (uintptr_t)((const wref *)b)->w;
	return x < y ? -1 : x > y;
}

/* The plan's index of workload w, or SIZE_MAX. */
static size_t index_of(const spots *sp, const gs_workload *w)
{
	wref key = { w, 0 };
	const wref *hit = bsearch(&key, sp->refs, sp->n_wls, sizeof *sp->refs, by_address);
	return hit ? hit->i : SIZE_MAX;
}

/* Calls fn for every assignment of the plan, in plan order. */
typedef void (*spot_fn)(spots *sp, const gs_assignment *a, spot at);

static void each_assignment(const gs_plan *p, spots *sp, spot_fn fn)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, i);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *pg = &nd->gpus[g];
			for (size_t k = 0; k < pg->n_assignments; k++)
				fn(sp, &pg->assignments[k], (spot){ i, g, -1 });
			for (size_t m = 0; m < pg->n_mig; m++)
				for (size_t k = 0; k < pg->mig[m].n_assignments; k++)
					fn(sp, &pg->mig[m].assignments[k], (spot){ i, g, (long)m });
		}
	}
}

static void count_spot(spots *sp, const gs_assignment *a, spot at)
{
	size_t wi = index_of(sp, a->workload);
	(void)at;
	if (wi != SIZE_MAX)
		sp->first[wi + 1]++;
}

/* Fills with first[] as cursors; spots_index turns them back. */
static void put_spot(spots *sp, const gs_assignment *a, spot at)
{
	size_t wi = index_of(sp, a->workload);
	if (wi != SIZE_MAX)
		sp->v[sp->first[wi]++] = at;
}

static int spots_index(const gs_plan *p, spots *sp)
{
	size_t n = gs_plan_workload_count(p);
	sp->n_wls = n;
	sp->refs = calloc(n ? n : 1, sizeof *sp->refs);
	sp->first = calloc(n + 1, sizeof *sp->first);
	if (!sp->refs || !sp->first)
		return -1;
	for (size_t i = 0; i < n; i++)
		sp->refs[i] = (wref){ gs_plan_workload_at(p, i)->workload, i };
	qsort(sp->refs, n, sizeof *sp->refs, by_address);
	each_assignment(p, sp, count_spot);
	for (size_t i = 0; i < n; i++)
		sp->first[i + 1] += sp->first[i];
	if (!(sp->v = calloc(sp->first[n] ? sp->first[n] : 1, sizeof *sp->v)))
		return -1;
	each_assignment(p, sp, put_spot);
	/* put_spot advanced each first[i] to where workload i + 1 begins. */
	memmove(sp->first + 1, sp->first, n * sizeof *sp->first);
	sp->first[0] = 0;
	return 0;
}

static void spots_release(spots *sp)
{
	free(sp->v);
	free(sp->first);
	free(sp->refs);
}

/* Fills ps with the places of the replicas of the plan's workload wi. */
static int places_of(places *ps, const spots *sp, size_t wi)
{
	ps->n = 0;
	for (size_t k = sp->first[wi]; k < sp->first[wi + 1]; k++) {
		place pl;
		gs_emit_place_of(ps->p, ps->o, sp->v[k].node, sp->v[k].gpu, sp->v[k].mig, &pl);
		if (add_place(ps, &pl) < 0)
			return -1;
	}
	return 0;
}

/* spread: node as the scheduler enforces it: at most one replica of the
 * Deployment per node. (spread: gpu has no Kubernetes form; the plan's
 * placement holds it only while nothing else is scheduled there.) */
static gs_node *spread_nodes(int *bad, const char *app)
{
	gs_node *seq = gs_emit_seq(), *c = gs_emit_map(), *sel = gs_emit_map(), *ml = gs_emit_map();
	gs_emit_put(bad, c, "maxSkew", gs_node_int(1));
	gs_emit_put(bad, c, "topologyKey", gs_node_str("kubernetes.io/hostname"));
	gs_emit_put(bad, c, "whenUnsatisfiable", gs_node_str("DoNotSchedule"));
	gs_emit_put(bad, ml, "app", gs_node_str(app));
	gs_emit_put(bad, sel, "matchLabels", ml);
	gs_emit_put(bad, c, "labelSelector", sel);
	gs_emit_push(bad, seq, c);
	return seq;
}

static gs_node *pod_spec(int *bad, const gs_workload *w, const char *app, const place *pl,
                         int full)
{
	const char *container = w->name;
	gs_node *spec = gs_emit_map(), *sel = gs_emit_map(), *tols = gs_emit_seq(),
	        *tol = gs_emit_map();
	gs_node *ctrs = gs_emit_seq(), *c = gs_emit_map(), *res = gs_emit_map();
	gs_emit_put(bad, sel, "nvidia.com/device-plugin.config", gs_node_str(pl->config));
	gs_emit_put(bad, spec, "nodeSelector", sel);
	if (w->spread == GS_SPREAD_NODE)
		gs_emit_put(bad, spec, "topologySpreadConstraints", spread_nodes(bad, app));
	gs_emit_put(bad, tol, "key", gs_node_str("nvidia.com/gpu"));
	gs_emit_put(bad, tol, "operator", gs_node_str("Exists"));
	gs_emit_put(bad, tol, "effect", gs_node_str("NoSchedule"));
	gs_emit_push(bad, tols, tol);
	gs_emit_put(bad, spec, "tolerations", tols);
	if (pl->claim[0]) {
		gs_node *rcs = gs_emit_seq(), *rc = gs_emit_map(), *claims = gs_emit_seq(),
		        *cl = gs_emit_map();
		gs_emit_put(bad, rc, "name", gs_node_str("gpu"));
		gs_emit_put(bad, rc,
		            pl->template_ ? "resourceClaimTemplateName" : "resourceClaimName",
		            gs_node_str(pl->claim));
		gs_emit_push(bad, rcs, rc);
		gs_emit_put(bad, spec, "resourceClaims", rcs);
		gs_emit_put(bad, cl, "name", gs_node_str("gpu"));
		gs_emit_put(bad, cl, "request", gs_node_str(pl->request));
		gs_emit_push(bad, claims, cl);
		gs_emit_put(bad, res, "claims", claims);
	} else {
		gs_node *lim = gs_emit_map();
		gs_emit_put(bad, lim, pl->resource, gs_node_int(1));
		gs_emit_put(bad, res, "limits", lim);
	}
	gs_emit_put(bad, c, "name", gs_node_str(container));
	if (full)
		gs_emit_put(bad, c, "image", gs_node_str("registry.example.com/replace-me:latest"));
	gs_emit_put(bad, c, "resources", res);
	gs_emit_place_env(bad, pl, w, c); /* MPS client limits under DRA */
	gs_emit_push(bad, ctrs, c);
	gs_emit_put(bad, spec, "containers", ctrs);
	return spec;
}

static gs_node *deployment(int *bad, const char *name, const gs_workload *w,
                           const pgroup *g)
{
	gs_node *d = gs_emit_map(), *meta = gs_emit_map(), *labels = gs_emit_map(),
	        *spec = gs_emit_map();
	gs_node *sel = gs_emit_map(), *ml = gs_emit_map(), *tmpl = gs_emit_map(),
	        *tmeta = gs_emit_map(), *tl = gs_emit_map();
	gs_emit_put(bad, d, "apiVersion", gs_node_str("apps/v1"));
	gs_emit_put(bad, d, "kind", gs_node_str("Deployment"));
	gs_emit_put(bad, labels, "app", gs_node_str(name));
	gs_emit_put(bad, meta, "name", gs_node_str(name));
	gs_emit_put(bad, meta, "labels", labels);
	gs_emit_put(bad, d, "metadata", meta);
	gs_emit_put(bad, spec, "replicas", gs_node_int(g->replicas));
	gs_emit_put(bad, ml, "app", gs_node_str(name));
	gs_emit_put(bad, sel, "matchLabels", ml);
	gs_emit_put(bad, spec, "selector", sel);
	gs_emit_put(bad, tl, "app", gs_node_str(name));
	gs_emit_put(bad, tmeta, "labels", tl);
	gs_emit_put(bad, tmpl, "metadata", tmeta);
	gs_emit_put(bad, tmpl, "spec", pod_spec(bad, w, name, &g->where, 1));
	gs_emit_put(bad, spec, "template", tmpl);
	gs_emit_put(bad, d, "spec", spec);
	return d;
}

static gs_node *patch(int *bad, const gs_workload *w, const char *name, const pgroup *g)
{
	gs_node *d = gs_emit_map(), *spec = gs_emit_map(), *tmpl = gs_emit_map();
	gs_emit_put(bad, spec, "replicas", gs_node_int(g->replicas));
	gs_emit_put(bad, tmpl, "spec", pod_spec(bad, w, name, &g->where, 0));
	gs_emit_put(bad, spec, "template", tmpl);
	gs_emit_put(bad, d, "spec", spec);
	return d;
}

/* Every name taken: the workloads' and the Deployments' given so far. */
typedef gs_strmap names;

static int names_init(names *used, const gs_plan *p)
{
	for (size_t i = 0; i < gs_plan_workload_count(p); i++) {
		const char *name = gs_plan_workload_at(p, i)->workload->name;
		if (gs_strmap_find(used, name) == GS_STRMAP_NONE &&
		    gs_strmap_put(used, name, i) < 0)
			return -1;
	}
	return 0;
}

/* "chat-api", or "chat-api-2" for a second placement: a DNS label that
 * no workload and no earlier part has (the number grows until free). */
static int part_name(char *buf, const char *name, int k, int *next, names *used)
{
	char suffix[16];
	if (k == 0) {
		snprintf(buf, 64, "%s", name);
		return 0;
	}
	do {
		snprintf(suffix, sizeof suffix, "-%d", ++*next);
		snprintf(buf, 64, "%.*s%s", (int)(63 - strlen(suffix)), name, suffix);
	} while (gs_strmap_find(used, buf) != GS_STRMAP_NONE);
	return gs_strmap_put(used, buf, 0);
}

/* One workload: a Deployment (or a patch) per place its replicas land. */
static int workload(gs_buf *b, const gs_emit_opts *o, places *ps, const spots *sp,
                    names *used, size_t wi)
{
	const gs_workload *w = gs_plan_workload_at(ps->p, wi)->workload;
	int bad = 0, next = 1;

	if (places_of(ps, sp, wi) < 0)
		return -1;
	for (int k = 0; k < ps->n && !bad; k++) {
		const pgroup *g = &ps->v[k];
		char name[64];
		if (part_name(name, w->name, k, &next, used) < 0)
			return -1;
		if (o->example_deployments) {
			gs_emit_doc(b, deployment(&bad, name, w, g));
			continue;
		}
		gs_buf_printf(b, "# Deployment %s%s: %d replica%s\n", name,
		              k ? " (new: a copy of the first, for replicas placed elsewhere)" : "",
		              g->replicas, g->replicas == 1 ? "" : "s");
		gs_emit_doc(b, patch(&bad, w, name, g));
	}
	return bad ? -1 : 0;
}

int gs_emit_workloads(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	places ps = { p, o, NULL, 0, 0 };
	spots sp = { NULL, NULL, NULL, 0 };
	names used = GS_STRMAP_INIT;
	int bad = spots_index(p, &sp) < 0 || names_init(&used, p) < 0;

	gs_emit_header(b, p, o,
	               o->example_deployments
	                   ? "Example Deployments that request what the plan gives each workload."
	                   : gs_emit_help(GS_EMIT_WORKLOADS),
	               o->example_deployments
	                   ? "kubectl apply -f workloads.yaml (replace the images first)"
	                   : "kubectl patch deployment NAME --type strategic --patch-file PATCH, "
	                     "one document per Deployment; containers are matched by name");
	for (size_t i = 0; i < gs_plan_workload_count(p) && !bad; i++)
		bad = workload(b, o, &ps, &sp, &used, i) < 0;
	spots_release(&sp);
	free(ps.v);
	gs_strmap_release(&used);
	return bad ? -1 : 0;
}
