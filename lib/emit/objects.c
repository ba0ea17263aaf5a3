/*
 * objects.c - the objects that carry a plan's workloads (objects.h): one
 * pass over the plan finds every replica's spot, grouped by workload, so
 * deciding stays linear in replicas; then each workload's replicas are
 * grouped by what they request (and, pinned, by pool).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"
#include "emit/objects.h"
#include "scenario/manifests.h"

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

/* Every replica's spot, grouped by workload in the plan's order. */
typedef struct spots {
	spot *v;
	size_t
	    *first; /* workload i's spots: v[first[i]] up to v[first[i + 1]] */
	wref *refs;
	size_t n_wls;
	int dra;    /* gs_emit_wants_dra, a scan of the nodes: asked once */
} spots;

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const wref *)a)->w,
	          y = (uintptr_t)((const wref *)b)->w;
	return (x > y) - (x < y);
}

static size_t index_of(const spots *sp, const gs_workload *w)
{
	wref key = { w, 0 };
	const wref *hit =
	    bsearch(&key, sp->refs, sp->n_wls, sizeof *sp->refs, by_address);
	return hit ? hit->i : SIZE_MAX;
}

/* Counts (fill 0) or places (fill 1) one replica at its spot. */
static void visit(spots *sp, const gs_assignment *a, spot at, int fill)
{
	size_t wi = index_of(sp, a->workload);
	if (wi == SIZE_MAX)
		return;
	if (fill)
		sp->v[sp->first[wi]++] = at;
	else
		sp->first[wi + 1]++;
}

/* A replica of several GPUs is listed on each of them, in a row: one
 * pod, at its first GPU. */
static int continued(const gs_plan_node *nd, size_t g, const gs_assignment *a)
{
	const gs_plan_gpu *prev = g ? &nd->gpus[g - 1] : NULL;
	if (!prev || a->workload->gpus_per_replica <= 1)
		return 0;
	for (size_t k = 0; k < prev->n_assignments; k++)
		if (prev->assignments[k].workload == a->workload &&
		    prev->assignments[k].replica == a->replica)
			return 1;
	return 0;
}

static void each_assignment(const gs_plan *p, spots *sp, int fill)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, i);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *pg = &nd->gpus[g];
			for (size_t k = 0; k < pg->n_assignments; k++)
				if (!continued(nd, g, &pg->assignments[k]))
					visit(sp, &pg->assignments[k],
					      (spot){ i, g, -1 }, fill);
			for (size_t m = 0; m < pg->n_mig; m++)
				for (size_t k = 0; k < pg->mig[m].n_assignments;
				     k++)
					visit(sp, &pg->mig[m].assignments[k],
					      (spot){ i, g, (long)m }, fill);
		}
	}
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
	each_assignment(p, sp, 0);
	for (size_t i = 0; i < n; i++)
		sp->first[i + 1] += sp->first[i];
	if (!(sp->v = calloc(sp->first[n] ? sp->first[n] : 1, sizeof *sp->v)))
		return -1;
	each_assignment(p, sp, 1);
	/* Filling advanced each first[i] to where workload i + 1 begins. */
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

/* ---- grouping ------------------------------------------------------------ */

static int same_request(const place *a, const place *b)
{
	return strcmp(a->resource, b->resource) == 0 &&
	       strcmp(a->claim, b->claim) == 0 &&
	       strcmp(a->request, b->request) == 0 &&
	       a->template_ == b->template_ && a->count == b->count &&
	       a->backend == b->backend && a->frac_mib == b->frac_mib &&
	       a->frac_cores == b->frac_cores;
}

const char *gs_emit_api_version(gs_object_kind k)
{
	return k == GS_OBJECT_POD                             ? "v1"
	       : k == GS_OBJECT_JOB || k == GS_OBJECT_CRONJOB ? "batch/v1"
	                                                      : "apps/v1";
}

/* What one workload's objects are built from. */
typedef struct wctx {
	const gs_plan *p;
	const gs_emit_opts *o;
	const gs_workload *w;
	const char *name, *ns, *container;
	int pinned;
} wctx;

static gs_eobject *new_object(gs_eobjects *out, size_t *cap, const wctx *c,
                              const place *pl)
{
	gs_eobject *e;
	if (gs_grow(&out->v, cap, out->n + 1, sizeof *out->v) < 0)
		return NULL;
	e = &out->v[out->n++];
	memset(e, 0, sizeof *e);
	e->w = c->w;
	e->kind = c->w->object.kind;
	e->name = e->real_name = c->name;
	e->namespace_ = c->ns;
	e->file_ns = gs_scenario_namespace(gs_plan_scenario(c->p));
	e->container = c->container;
	e->where = *pl;
	return e;
}

static int add_pool(gs_eobject *e, const char *pool)
{
	const char **v;
	for (size_t i = 0; i < e->n_pools; i++)
		if (e->pools[i] == pool || strcmp(e->pools[i], pool) == 0)
			return 0;
	if (!(v = realloc(e->pools, (e->n_pools + 1) * sizeof *v)))
		return -1;
	e->pools = v;
	e->pools[e->n_pools++] = pool;
	return 0;
}

/* The object of this workload's replicas that request pl (and, pinned,
 * select pool), from first on; NULL if none yet. */
static gs_eobject *find_group(gs_eobjects *out, size_t first, const place *pl,
                              const char *pool, int pinned)
{
	for (size_t i = first; i < out->n; i++)
		if (same_request(&out->v[i].where, pl) &&
		    (!pinned || strcmp(out->v[i].pools[0], pool) == 0))
			return &out->v[i];
	return NULL;
}

/* Spread keeps replicas on distinct nodes; spread: gpu too on time-sliced
 * and MPS GPUs, where the device plugin picks the GPU (robust.h), and on
 * fractions whose backend could put two of them on one GPU. */
static int spreads(const wctx *c, const gs_plan_gpu *g)
{
	if (c->w->spread == GS_SPREAD_GPU && g->strategy == GS_STRATEGY_FRACTION)
		return gs_emit_fraction_pairs(c->p, g, c->w);
	return c->w->spread == GS_SPREAD_NODE ||
	       (c->w->spread == GS_SPREAD_GPU && !c->pinned &&
	        (g->strategy == GS_STRATEGY_TIME_SLICING ||
	         g->strategy == GS_STRATEGY_MPS));
}

static int group(const wctx *c, const spots *sp, size_t wi, gs_eobjects *out,
                 size_t *cap)
{
	size_t first = out->n;
	for (size_t k = sp->first[wi]; k < sp->first[wi + 1]; k++) {
		const spot *s = &sp->v[k];
		const gs_plan_node *nd = gs_plan_node_at(c->p, s->node);
		gs_eobject *e;
		place pl;
		gs_emit_place_of(c->p, c->o, sp->dra, s->node, s->gpu, s->mig, &pl);
		if (s->mig < 0)
			gs_emit_place_fraction(&nd->gpus[s->gpu], c->w, &pl);
		if (!(e = find_group(out, first, &pl, nd->pool, c->pinned)) &&
		    !(e = new_object(out, cap, c, &pl)))
			return -1;
		if (add_pool(e, nd->pool) < 0)
			return -1;
		e->replicas++;
		e->spread_nodes |= spreads(c, &nd->gpus[s->gpu]);
	}
	return 0;
}

/* ---- names and checks ---------------------------------------------------- */

static int fail_workload(const gs_plan *p, const gs_workload *w, gs_error *err,
                         const char *why)
{
	return gs_fail_at(err, GS_ESCHEMA,
	                  gs_scenario_file(gs_plan_scenario(p)), w->line,
	                  w->col, "workload '%s': %s", w->name, why);
}

/* The container to patch: the workload's `object.container`, else the
 * only container of its manifest. */
static int container_of(wctx *c, gs_error *err)
{
	const gs_manifest *m;
	const gs_node *node;
	int rc;
	c->container = c->w->object.container;
	if (c->container || c->o->example_deployments)
		return 0;
	if (!c->o->manifests)
		return fail_workload(
		    c->p, c->w, err,
		    "a patch must name the container it changes: set its "
		    "object.container, or give its manifest with --manifests");
	rc = gs_manifests_find_ref(
	    c->o->manifests, c->w,
	    gs_scenario_namespace(gs_plan_scenario(c->p)), &m, err);
	if (rc == 0)
		rc = gs_manifest_container(c->o->manifests, m, NULL, &node,
		                           &c->container, err);
	return rc;
}

/* Keeps a copy of name among the names the set owns. */
static int own_name(gs_eobjects *out, const char *name)
{
	char *copy = gs_strdup(name), **v;
	if (!copy || !(v = realloc(out->owned, (out->n_owned + 1) * sizeof *v))) {
		free(copy);
		return -1;
	}
	out->owned = v;
	out->owned[out->n_owned++] = copy;
	return 0;
}

/* Copies are complete objects: they need the manifest, and a name no
 * other object of the plan has ("chat-2", "chat-3", ...). */
static int name_copies(const wctx *c, gs_eobjects *out, size_t first,
                       gs_strmap *taken, gs_error *err)
{
	int next = 1;
	const char *why =
	    c->pinned ? "placement: pinned gives each placement a copy of "
	                "the object"
	    : out->v[first].where.claim[0]
	        ? "its replicas share different GPUs, each through its own "
	          "DRA claim, so they need copies of the object"
	        : "its replicas request different resources, so they need "
	          "copies of the object";
	char msg[256];
	if (out->n - first > 1 && !c->o->manifests &&
	    !c->o->example_deployments) {
		snprintf(msg, sizeof msg,
		         "%s: give its manifest with --manifests", why);
		return fail_workload(c->p, c->w, err, msg);
	}
	for (size_t i = first + 1; i < out->n; i++) {
		char buf[64], suffix[16];
		do {
			snprintf(suffix, sizeof suffix, "-%d", ++next);
			snprintf(buf, sizeof buf, "%.*s%s",
			         (int)(63 - strlen(suffix)), c->name, suffix);
		} while (gs_strmap_find(taken, buf) != GS_STRMAP_NONE);
		if (gs_strmap_put(taken, buf, 0) < 0 || own_name(out, buf) < 0)
			return gs_fail_nomem(err);
		out->v[i].name = out->owned[out->n_owned - 1];
		out->v[i].copy = (int)(i - first);
	}
	return 0;
}

static int one_workload(const gs_plan *p, const gs_emit_opts *o,
                        const spots *sp, size_t wi, gs_eobjects *out,
                        size_t *cap, gs_strmap *taken, gs_error *err)
{
	const gs_scenario *s = gs_plan_scenario(p);
	/* The file's placement: under DRA the plan is pinned by its claims,
	 * but templates still let a workload's pods take any pool of its. */
	wctx c = { p,
		   o,
		   gs_plan_workload_at(p, wi)->workload,
		   NULL,
		   NULL,
		   NULL,
		   gs_scenario_placement(s) == GS_PLACEMENT_PINNED };
	size_t first = out->n;
	int rc;
	c.name = c.w->object.name ? c.w->object.name : c.w->name;
	c.ns = c.w->object.namespace_ ? c.w->object.namespace_
	                              : gs_scenario_namespace(s);
	if (c.w->object.kind == GS_OBJECT_POD && c.w->replicas > 1)
		return fail_workload(
		    p, c.w, err,
		    "a Pod is one replica: name the Deployment, "
		    "StatefulSet or Job that makes them in its object.kind");
	if ((rc = container_of(&c, err)) < 0)
		return rc;
	if (group(&c, sp, wi, out, cap) < 0)
		return gs_fail_nomem(err);
	return name_copies(&c, out, first, taken, err);
}

/* Every real object's name is taken before copies are named; two
 * workloads may not name one object, whose pods would then be both. */
static int take_names(const gs_plan *p, gs_strmap *taken, gs_error *err)
{
	const char *file_ns = gs_scenario_namespace(gs_plan_scenario(p));
	gs_strmap objects = GS_STRMAP_INIT;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < gs_plan_workload_count(p); i++) {
		const gs_workload *w = gs_plan_workload_at(p, i)->workload;
		const char *name = w->object.name ? w->object.name : w->name;
		char key[400];
		size_t had;
		snprintf(key, sizeof key, "%d/%s/%s", (int)w->object.kind,
		         w->object.namespace_ ? w->object.namespace_ : file_ns,
		         name);
		if ((had = gs_strmap_find(&objects, key)) != GS_STRMAP_NONE) {
			char why[400];
			snprintf(why, sizeof why,
			         "it names the object of workload '%s' (%s "
			         "%s/%s); one object's pods are one workload",
			         gs_plan_workload_at(p, had)->workload->name,
			         gs_object_kind_name(w->object.kind),
			         w->object.namespace_ ? w->object.namespace_
			                              : file_ns,
			         name);
			rc = fail_workload(p, w, err, why);
			break;
		}
		if (gs_strmap_put(&objects, key, i) < 0 ||
		    (gs_strmap_find(taken, name) == GS_STRMAP_NONE &&
		     gs_strmap_put(taken, name, i) < 0))
			rc = gs_fail_nomem(err);
	}
	gs_strmap_release(&objects);
	return rc;
}

int gs_emit_objects(const gs_plan *p, const gs_emit_opts *o, gs_eobjects *out,
                    gs_error *err)
{
	spots sp = { NULL, NULL, NULL, 0, 0 };
	gs_strmap taken = GS_STRMAP_INIT;
	size_t cap = 0;
	int rc = 0;
	memset(out, 0, sizeof *out);
	sp.dra = gs_emit_wants_dra(p, o);
	if (spots_index(p, &sp) < 0)
		rc = gs_fail_nomem(err);
	else
		rc = take_names(p, &taken, err);
	for (size_t i = 0; rc == 0 && i < gs_plan_workload_count(p); i++)
		rc = one_workload(p, o, &sp, i, out, &cap, &taken, err);
	spots_release(&sp);
	gs_strmap_release(&taken);
	if (rc < 0)
		gs_emit_objects_release(out);
	return rc;
}

void gs_emit_objects_release(gs_eobjects *objs)
{
	for (size_t i = 0; i < objs->n; i++)
		free(objs->v[i].pools);
	for (size_t i = 0; i < objs->n_owned; i++)
		free(objs->owned[i]);
	free(objs->v);
	free(objs->owned);
	memset(objs, 0, sizeof *objs);
}
