/*
 * scenario.c - the scenario object: its workloads, the index that finds
 * them by name, adding and removing workloads, and what the scenario may
 * buy. Keys and their values are in keys.c; files are read by load.c.
 */
#include <fnmatch.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "scenario/values.h"

/* ---- lifecycle ----------------------------------------------------------- */

void gs_wl_free(wl *w)
{
	if (!w)
		return;
	free(w->name);
	free(w->tenant);
	free(w->team);
	free(w->obj_name);
	free(w->obj_namespace);
	free(w->obj_container);
	free(w->gpus);
	free(w);
}

void gs_scenario_free(gs_scenario *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		gs_wl_free(s->w[i]);
	for (size_t i = 0; i < s->n_globs; i++)
		free(s->globs[i]);
	free(s->globs);
	free(s->gpus);
	free(s->w);
	free(s->index);
	free(s->cloud);
	free(s->file);
	free(s->namespace_);
	free(s);
}

int gs_scenario_new(const gs_catalog *cat, gs_scenario **out, gs_error *err)
{
	gs_scenario *s = calloc(1, sizeof *s);
	if (!s || !(s->cloud = gs_strdup("aws"))) {
		free(s);
		return gs_fail_nomem(err);
	}
	s->cat = cat;
	s->pricing = GS_PRICING_ON_DEMAND;
	s->via = GS_VIA_DEVICE_PLUGIN;
	s->target_ppm = GS_TARGET_DEFAULT_PPM;
	s->headroom_ppm = GS_DEFAULT_MEMORY_HEADROOM_PPM;
	s->cluster_cost = -1;
	*out = s;
	return 0;
}

/* Stamps so far, in every scenario of the process. */
static _Atomic uint64_t stamps;

static uint64_t new_stamp(void)
{
	return atomic_fetch_add(&stamps, 1) + 1;
}

wl *gs_wl_new(const char *name)
{
	wl *w = calloc(1, sizeof *w);
	if (!w || gs_str_assign(&w->name, name) || gs_str_assign(&w->tenant, "default") ||
	    gs_str_assign(&w->team, "default")) {
		gs_wl_free(w);
		return NULL;
	}
	w->pub.replicas = 1;
	w->pub.gpus_per_replica = 1;
	w->pub.memory_headroom_ppm = -1;
	for (size_t s = 0; s < GS_ARRAY_LEN(w->pub.retention_ppm); s++)
		w->pub.retention_ppm[s] = -1;
	w->pub.bound = gs_kind_bound(w->pub.kind);
	w->stamp = new_stamp();
	return w;
}

gs_bound gs_kind_bound(gs_kind k)
{
	return k == GS_KIND_INFERENCE ? GS_BOUND_MEMORY_BANDWIDTH : GS_BOUND_COMPUTE;
}

/* Records point at their owned strings; refresh after any change. */
void gs_wl_sync(wl *w)
{
	w->stamp = new_stamp();
	w->pub.name = w->name;
	w->pub.tenant = w->tenant;
	w->pub.team = w->team;
	w->pub.gpus = w->gpus;
	w->pub.object.name = w->obj_name;
	w->pub.object.namespace_ = w->obj_namespace;
	w->pub.object.container = w->obj_container;
	if (!w->has_bound)
		w->pub.bound = gs_kind_bound(w->pub.kind);
}

static wl *wl_clone(const wl *src)
{
	wl *w = gs_wl_new(src->name);
	if (!w)
		return NULL;
	w->pub = src->pub;
	w->has_memory = src->has_memory;
	w->has_compute = src->has_compute;
	w->has_bound = src->has_bound;
	w->has_arch = src->has_arch;
	w->retention_scalar = src->retention_scalar;
	if (gs_str_assign(&w->tenant, src->tenant) || gs_str_assign(&w->team, src->team) ||
	    gs_str_assign(&w->obj_name, src->obj_name) ||
	    gs_str_assign(&w->obj_namespace, src->obj_namespace) ||
	    gs_str_assign(&w->obj_container, src->obj_container) ||
	    (src->pub.n_gpus &&
	     !(w->gpus = malloc(src->pub.n_gpus * sizeof *w->gpus)))) {
		gs_wl_free(w);
		return NULL;
	}
	if (src->pub.n_gpus)
		memcpy(w->gpus, src->gpus, src->pub.n_gpus * sizeof *w->gpus);
	gs_wl_sync(w);
	w->stamp = src->stamp; /* the same keys */
	return w;
}

int gs_scenario_clone(const gs_scenario *src, gs_scenario **out, gs_error *err)
{
	gs_scenario *s;
	int rc = gs_scenario_new(src->cat, &s, err);
	if (rc < 0)
		return rc;
	s->pricing = src->pricing;
	s->via = src->via;
	s->target_ppm = src->target_ppm;
	s->headroom_ppm = src->headroom_ppm;
	s->has_headroom = src->has_headroom;
	s->arch = src->arch;
	s->placement = src->placement;
	memcpy(s->fractions, src->fractions, sizeof s->fractions);
	s->n_fractions = src->n_fractions;
	s->cluster_cost = src->cluster_cost;
	s->cluster_gpus = src->cluster_gpus;
	s->cluster_nodes = src->cluster_nodes;
	s->cluster_unpriced = src->cluster_unpriced;
	if (gs_str_assign(&s->cloud, src->cloud) ||
	    gs_str_assign(&s->namespace_, src->namespace_) ||
	    (src->file && gs_str_assign(&s->file, src->file)))
		goto nomem;
	if (src->n_gpus) {
		if (!(s->gpus = malloc(src->n_gpus * sizeof *s->gpus)))
			goto nomem;
		memcpy(s->gpus, src->gpus, src->n_gpus * sizeof *s->gpus);
		s->n_gpus = src->n_gpus;
	}
	if (src->n_globs && !(s->globs = calloc(src->n_globs, sizeof *s->globs)))
		goto nomem;
	for (; s->n_globs < src->n_globs; s->n_globs++)
		if (!(s->globs[s->n_globs] = gs_strdup(src->globs[s->n_globs])))
			goto nomem;
	if (src->n && !(s->w = calloc(src->n, sizeof *s->w)))
		goto nomem;
	s->cap = src->n;
	for (; s->n < src->n; s->n++)
		if (!(s->w[s->n] = wl_clone(src->w[s->n])))
			goto nomem;
	*out = s;
	return 0;
nomem:
	gs_scenario_free(s);
	return gs_fail_nomem(err);
}

/* ---- accessors ------------------------------------------------------------ */

size_t gs_scenario_workload_count(const gs_scenario *s) { return s->n; }
const gs_workload *gs_scenario_workload_at(const gs_scenario *s, size_t i)
{
	return i < s->n ? &s->w[i]->pub : NULL;
}
const gs_catalog *gs_scenario_catalog(const gs_scenario *s) { return s->cat; }
const char *gs_scenario_file(const gs_scenario *s) { return s->file; }
gs_via gs_scenario_via(const gs_scenario *s) { return s->via; }
const char *gs_scenario_namespace(const gs_scenario *s)
{
	return s->namespace_ ? s->namespace_ : "default";
}
gs_placement gs_scenario_placement(const gs_scenario *s) { return s->placement; }

size_t gs_scenario_fractions(const gs_scenario *s, gs_backend *out, size_t cap)
{
	for (size_t i = 0; i < (size_t)s->n_fractions && i < cap; i++)
		out[i] = s->fractions[i];
	return (size_t)s->n_fractions;
}
int64_t gs_scenario_memory_headroom(const gs_scenario *s) { return s->headroom_ppm; }
int64_t gs_workload_memory_headroom(const gs_scenario *s, const gs_workload *w)
{
	return w->memory_headroom_ppm >= 0 ? w->memory_headroom_ppm : s->headroom_ppm;
}

/* Names are looked up on every add and set: an index keeps building a
 * scenario of many thousand workloads linear. */
static size_t name_hash(const char *s)
{
	size_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

void gs_scenario_unindex(gs_scenario *s)
{
	free(s->index);
	s->index = NULL;
	s->index_cap = 0;
}

static int index_build(gs_scenario *s)
{
	size_t cap = 64;
	while (cap < s->n * 2 + 2)
		cap *= 2;
	free(s->index);
	if (!(s->index = calloc(cap, sizeof *s->index))) {
		s->index_cap = 0;
		return -1;
	}
	s->index_cap = cap;
	for (size_t i = 0; i < s->n; i++) {
		size_t h = name_hash(s->w[i]->name) & (cap - 1);
		while (s->index[h])
			h = (h + 1) & (cap - 1);
		s->index[h] = i + 1;
	}
	return 0;
}

wl *gs_scenario_wl(const gs_scenario *s, const char *name)
{
	if (s->index_cap == 0 || s->n * 2 + 2 > s->index_cap)
		index_build((gs_scenario *)s);
	if (s->index_cap == 0) { /* out of memory: still correct, only slower */
		for (size_t i = 0; i < s->n; i++)
			if (strcmp(s->w[i]->name, name) == 0)
				return s->w[i];
		return NULL;
	}
	for (size_t h = name_hash(name) & (s->index_cap - 1); s->index[h];
	     h = (h + 1) & (s->index_cap - 1))
		if (strcmp(s->w[s->index[h] - 1]->name, name) == 0)
			return s->w[s->index[h] - 1];
	return NULL;
}

const gs_workload *gs_scenario_find(const gs_scenario *s, const char *name)
{
	wl *w = gs_scenario_wl(s, name);
	return w ? &w->pub : NULL;
}

int gs_scenario_push(gs_scenario *s, wl *w)
{
	if (gs_grow(&s->w, &s->cap, s->n + 1, sizeof *s->w) < 0)
		return -1;
	s->w[s->n++] = w;
	if (s->index_cap && s->n * 2 + 2 <= s->index_cap) {
		size_t h = name_hash(w->name) & (s->index_cap - 1);
		while (s->index[h])
			h = (h + 1) & (s->index_cap - 1);
		s->index[h] = s->n;
	} else {
		gs_scenario_unindex(s);
	}
	return 0;
}

/* ---- edits ---------------------------------------------------------------- */

/* The REPL's `set` is in set.c: it goes through the key table. */

int gs_scenario_add(gs_scenario *s, const char *name, gs_error *err)
{
	gs_ctx c = { NULL, err };
	gs_node *v;
	wl *w;
	int rc;

	if (gs_scenario_wl(s, name))
		return gs_fail(err, GS_ESCHEMA, "a workload named '%s' exists already", name);
	if (!(w = gs_wl_new("")) || !(v = gs_node_new(GS_NODE_STRING, name))) {
		gs_wl_free(w);
		return gs_fail_nomem(err);
	}
	rc = gs_read_label(&c, v, "name", &w->name);
	w->pub.arch = s->arch;
	gs_wl_sync(w);
	gs_node_free(v);
	if (rc == 0 && gs_scenario_push(s, w) < 0)
		rc = gs_fail_nomem(err);
	if (rc < 0)
		gs_wl_free(w);
	return rc;
}

int gs_scenario_remove(gs_scenario *s, const char *name, gs_error *err)
{
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->w[i]->name, name) != 0)
			continue;
		gs_wl_free(s->w[i]);
		memmove(&s->w[i], &s->w[i + 1], (s->n - i - 1) * sizeof *s->w);
		s->n--;
		gs_scenario_unindex(s);
		return 0;
	}
	return gs_fail(err, GS_ENOTFOUND, "no workload named '%s'", name);
}

int gs_scenario_set_file(gs_scenario *s, const char *name, gs_error *err)
{
	return gs_str_assign(&s->file, name) ? gs_fail_nomem(err) : 0;
}

void gs_scenario_set_cluster_cost(gs_scenario *s, gs_micros per_hour)
{
	gs_scenario_set_cluster(s, per_hour, 0, 0);
}

void gs_scenario_set_cluster(gs_scenario *s, gs_micros per_hour, int gpus, int nodes)
{
	s->cluster_cost = per_hour;
	s->cluster_gpus = gpus;
	s->cluster_nodes = nodes;
	s->cluster_unpriced = 0;
}

/* ---- what may be bought ------------------------------------------------------ */

gs_micros gs_instance_price(const gs_scenario *s, const gs_instance *in)
{
	return s->pricing == GS_PRICING_SPOT ? in->spot : in->on_demand;
}

int gs_scenario_instance_ok(const gs_scenario *s, const gs_instance *in)
{
	return gs_scenario_instance_ok_in(s, s->cloud, in);
}

int gs_scenario_instance_ok_in(const gs_scenario *s, const char *cloud,
                               const gs_instance *in)
{
	int ok = s->n_globs == 0;
	if (strcmp(cloud, "all") != 0 && strcmp(cloud, in->cloud) != 0)
		return 0;
	if (gs_instance_price(s, in) < 0)
		return 0;
	for (size_t i = 0; !ok && i < s->n_globs; i++)
		ok = fnmatch(s->globs[i], in->type, 0) == 0;
	for (size_t i = 0; ok && s->n_gpus && i < s->n_gpus; i++)
		if (s->gpus[i] == in->gpu)
			return 1;
	return ok && s->n_gpus == 0;
}

static int gpu_allowed(const gs_workload *w, const gs_gpu *gpu)
{
	int allowed = w->n_gpus == 0;
	for (size_t i = 0; !allowed && i < w->n_gpus; i++)
		allowed = w->gpus[i] == gpu;
	return allowed;
}

size_t gs_workload_models_of(const gs_workload *w, const gs_gpu *const *sold, size_t nsold,
                             const gs_gpu **out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < nsold && n < cap; i++)
		if (gpu_allowed(w, sold[i]))
			out[n++] = sold[i];
	return n;
}

int gs_scenario_models_sold(const gs_scenario *s, const char *cloud, const gs_gpu ***out,
                            size_t *n)
{
	size_t ng = gs_catalog_gpu_count(s->cat);
	const gs_gpu *first = gs_catalog_gpu_at(s->cat, 0);
	unsigned char *sold = calloc(ng ? ng : 1, 1);
	const gs_gpu **v = calloc(ng ? ng : 1, sizeof *v);
	*out = NULL;
	*n = 0;
	if (!sold || !v) {
		free(sold);
		free(v);
		return -1;
	}
	for (size_t i = 0; i < gs_catalog_instance_count(s->cat); i++) {
		const gs_instance *in = gs_catalog_instance_at(s->cat, i);
		if (in->gpu && gs_scenario_instance_ok_in(s, cloud, in))
			sold[in->gpu - first] = 1;
	}
	for (size_t g = 0; g < ng; g++)
		if (sold[g])
			v[(*n)++] = gs_catalog_gpu_at(s->cat, g);
	free(sold);
	if (*n == 0) {
		free(v);
		v = NULL;
	}
	*out = v;
	return 0;
}

int gs_workload_ratio(const gs_workload *w, const gs_gpu *g, int64_t *from, int64_t *to)
{
	const gs_gpu *m = w->measured_on ? w->measured_on : g;
	if (w->bound == GS_BOUND_MEMORY_BANDWIDTH && m->memory_bandwidth_gbs &&
	    g->memory_bandwidth_gbs) {
		*from = m->memory_bandwidth_gbs;
		*to = g->memory_bandwidth_gbs;
		return 1;
	}
	*from = m->fp16_mtflops;
	*to = g->fp16_mtflops;
	return 0;
}

int64_t gs_workload_compute_on(const gs_workload *w, const gs_gpu *g)
{
	int64_t from, to;
	if (!w->measured_on || w->measured_on == g)
		return w->compute_ppm;
	/* The figure that bounds the workload converts its share: a model
	 * with twice the bandwidth decodes in half the time. */
	gs_workload_ratio(w, g, &from, &to);
	return gs_div_ceil(w->compute_ppm * from, to);
}

double gs_workload_compute_exact(const gs_workload *w, const gs_gpu *g)
{
	int64_t from, to;
	if (!w->measured_on || w->measured_on == g)
		return (double)w->compute_ppm;
	gs_workload_ratio(w, g, &from, &to);
	return (double)w->compute_ppm * (double)from / (double)to;
}
