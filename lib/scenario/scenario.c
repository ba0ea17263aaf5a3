/*
 * scenario.c - workload files: a strict loader, and the setters the REPL
 * shares with it, so a value typed at the prompt is checked exactly as the
 * same value in a file.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

static const char *const kind_names[] = { "inference", "batch", "training",
	                                      "notebook", "ci" };
static const char *const spread_names[] = { "none", "gpu", "node" };

const char *gs_kind_name(gs_kind k) { return kind_names[k]; }
const char *gs_spread_name(gs_spread sp) { return spread_names[sp]; }

/* ---- lifecycle ----------------------------------------------------------- */

static void wl_free(wl *w)
{
	if (!w)
		return;
	free(w->name);
	free(w->tenant);
	free(w->team);
	free(w->gpus);
	free(w);
}

void gs_scenario_free(gs_scenario *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		wl_free(s->w[i]);
	for (size_t i = 0; i < s->n_globs; i++)
		free(s->globs[i]);
	free(s->globs);
	free(s->gpus);
	free(s->w);
	free(s->index);
	free(s->cloud);
	free(s->file);
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
	s->target_ppm = 900000;
	s->cluster_cost = -1;
	*out = s;
	return 0;
}

static int set_str(char **dst, const char *v)
{
	char *p = gs_strdup(v);
	if (!p)
		return -1;
	free(*dst);
	*dst = p;
	return 0;
}

static wl *wl_new(const char *name)
{
	wl *w = calloc(1, sizeof *w);
	if (!w || set_str(&w->name, name) || set_str(&w->tenant, "default") ||
	    set_str(&w->team, "default")) {
		wl_free(w);
		return NULL;
	}
	w->pub.replicas = 1;
	return w;
}

/* Records point at their owned strings; refresh after any change. */
static void wl_sync(wl *w)
{
	w->pub.name = w->name;
	w->pub.tenant = w->tenant;
	w->pub.team = w->team;
	w->pub.gpus = w->gpus;
}

static wl *wl_clone(const wl *src)
{
	wl *w = wl_new(src->name);
	if (!w)
		return NULL;
	w->pub = src->pub;
	w->has_memory = src->has_memory;
	w->has_compute = src->has_compute;
	if (set_str(&w->tenant, src->tenant) || set_str(&w->team, src->team) ||
	    (src->pub.n_gpus &&
	     !(w->gpus = malloc(src->pub.n_gpus * sizeof *w->gpus)))) {
		wl_free(w);
		return NULL;
	}
	if (src->pub.n_gpus)
		memcpy(w->gpus, src->gpus, src->pub.n_gpus * sizeof *w->gpus);
	wl_sync(w);
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
	s->cluster_cost = src->cluster_cost;
	s->cluster_gpus = src->cluster_gpus;
	s->cluster_nodes = src->cluster_nodes;
	if (set_str(&s->cloud, src->cloud) ||
	    (src->file && set_str(&s->file, src->file)))
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
const gs_workload *gs_scenario_workload(const gs_scenario *s, size_t i)
{
	return i < s->n ? &s->w[i]->pub : NULL;
}
const gs_catalog *gs_scenario_catalog(const gs_scenario *s) { return s->cat; }
const char *gs_scenario_file(const gs_scenario *s) { return s->file; }
gs_via gs_scenario_via(const gs_scenario *s) { return s->via; }

/* Names are looked up on every add and set: an index keeps building a
 * scenario of many thousand workloads linear. */
static size_t name_hash(const char *s)
{
	size_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static void index_drop(gs_scenario *s)
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

static wl *find(const gs_scenario *s, const char *name)
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
	wl *w = find(s, name);
	return w ? &w->pub : NULL;
}

/* ---- value parsers shared by files and `set` -------------------------------- */

static int pick(gs_ctx *c, const gs_node *v, const char *key,
                const char *const *names, size_t n, int *out)
{
	const char *near;
	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'%s' must be a string", key);
	for (size_t i = 0; i < n; i++)
		if (strcmp(v->text, names[i]) == 0)
			return *out = (int)i, 0;
	near = gs_suggest(v->text, names, n);
	if (near)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "invalid %s '%s' (did you mean '%s'?)", key,
		                    v->text, near);
	{
		char list[256];
		size_t o = 0;
		list[0] = '\0';
		for (size_t i = 0; i < n && o < sizeof list; i++)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
			                      i ? (i + 1 == n ? " or " : ", ") : "", names[i]);
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "invalid %s '%s' (expected %s)", key, v->text, list);
	}
}

static int find_gpu(gs_ctx *c, const gs_catalog *cat, const gs_node *v,
                    const gs_gpu **out)
{
	const char *near;
	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "a GPU model must be a string");
	if ((*out = gs_gpu_find(cat, v->text)))
		return 0;
	near = gs_gpu_suggest(cat, v->text);
	if (near)
		return gs_fail_node(c->err, GS_ENOTFOUND, c->file, v,
		                    "unknown GPU '%s' (did you mean '%s'?)", v->text, near);
	return gs_fail_node(c->err, GS_ENOTFOUND, c->file, v,
	                    "unknown GPU '%s' (see 'gpushare gpus')", v->text);
}

static int gpu_list(gs_ctx *c, const gs_catalog *cat, const gs_node *v,
                    const gs_gpu ***out, size_t *n)
{
	const gs_gpu **list;
	int rc;
	if ((rc = gs_need_kind(c, v, GS_NODE_SEQ, "'gpus'")) < 0)
		return rc;
	if (!(list = calloc(v->n ? v->n : 1, sizeof *list)))
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < v->n; i++)
		if ((rc = find_gpu(c, cat, v->items[i], &list[i])) < 0) {
			free(list);
			return rc;
		}
	free(*out);
	*out = list;
	*n = v->n;
	return 0;
}

static int is_dns_label(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 63 || !isalnum((unsigned char)s[0]) ||
	    !isalnum((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) ||
		      s[i] == '-'))
			return 0;
	return 1;
}

static int set_current(gs_ctx *c, const gs_catalog *cat, const gs_node *v,
                       gs_workload *pw)
{
	static const char *const keys[] = { "instance", "count" };
	const char *type = NULL;
	int64_t count = 1;
	int rc;
	if ((rc = gs_need_kind(c, v, GS_NODE_MAP, "'current'")) < 0 ||
	    (rc = gs_check_keys(c, v, keys, 2)) < 0 ||
	    (rc = gs_get_str(c, v, "instance", 1, &type)) < 0 ||
	    (rc = gs_get_int(c, v, "count", 0, 1, 100000, &count)) < 0)
		return rc;
	if (!(pw->current = gs_instance_find(cat, type))) {
		const char *near = gs_instance_suggest(cat, type);
		return gs_fail_node(c->err, GS_ENOTFOUND, c->file,
		                    gs_node_get(v, "instance"),
		                    "unknown instance type '%s'%s%s%s", type,
		                    near ? " (did you mean '" : "", near ? near : "",
		                    near ? "'?)" : "");
	}
	pw->current_count = (int)count;
	return 0;
}

static const char *const wl_keys[] = {
	"name", "kind", "replicas", "gpuMemory", "compute", "measuredOn",
	"latency", "isolation", "tenant", "team", "gpus", "spread", "current",
};

static int label_value(gs_ctx *c, const gs_node *v, const char *key, char **dst)
{
	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'%s' must be a string", key);
	if (!is_dns_label(v->text))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "%s '%s' must be a DNS-1123 label: 1 to 63 lower-case letters, digits "
		                    "and '-', starting and ending with a letter or digit",
		                    key, v->text);
	return set_str(dst, v->text) ? gs_fail_nomem(c->err) : 0;
}

/* Applies one key of a workload; the one parser for files and `set`. */
static int wl_apply(gs_ctx *c, const gs_catalog *cat, wl *w, const char *key,
                    const gs_node *v)
{
	gs_workload *pw = &w->pub;
	int64_t x;
	int i, rc = 0;

	if (strcmp(key, "name") == 0)
		rc = label_value(c, v, "name", &w->name);
	else if (strcmp(key, "kind") == 0) {
		if ((rc = pick(c, v, "kind", kind_names, 5, &i)) == 0)
			pw->kind = (gs_kind)i;
	} else if (strcmp(key, "replicas") == 0) {
		if ((rc = gs_scalar_int(c, v, 1, 100000, &x)) == 0)
			pw->replicas = (int)x;
		else if (v->kind == GS_NODE_STRING && strcmp(v->text, "0") == 0)
			rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
			                  "replicas must be at least 1 (remove the workload instead)");
		else if (c->err) {
			gs_error tmp = *c->err;
			gs_fail_node(c->err, rc, c->file, v, "'replicas': %s", tmp.msg);
		}
	} else if (strcmp(key, "gpuMemory") == 0) {
		if ((rc = gs_scalar_bytes(c, v, &x)) == 0 && x == 0)
			rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
			                  "gpuMemory must be more than 0");
		if (rc == 0) {
			pw->memory_bytes = x;
			w->has_memory = 1;
		}
	} else if (strcmp(key, "compute") == 0) {
		if ((rc = gs_scalar_share(c, v, &x)) == 0 && x > GS_PPM && !strchr(v->text, '%'))
			rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
			                  "compute '%s' is a fraction of a GPU, so %s means more than 100%%; "
			                  "write '%s%%'", v->text, v->text, v->text);
		else if (rc == 0 && (x <= 0 || x > GS_PPM))
			rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
			                  "compute must be more than 0 and at most 100%%, not '%s'",
			                  v->text);
		if (rc == 0) {
			pw->compute_ppm = x;
			w->has_compute = 1;
		}
	} else if (strcmp(key, "measuredOn") == 0)
		rc = find_gpu(c, cat, v, &pw->measured_on);
	else if (strcmp(key, "latency") == 0) {
		static const char *const n[] = { "tolerant", "critical" };
		if ((rc = pick(c, v, "latency", n, 2, &i)) == 0)
			pw->latency_critical = i;
	} else if (strcmp(key, "isolation") == 0) {
		static const char *const n[] = { "none", "fault" };
		if ((rc = pick(c, v, "isolation", n, 2, &i)) == 0)
			pw->isolation_fault = i;
	} else if (strcmp(key, "tenant") == 0)
		rc = label_value(c, v, "tenant", &w->tenant);
	else if (strcmp(key, "team") == 0)
		rc = label_value(c, v, "team", &w->team);
	else if (strcmp(key, "gpus") == 0)
		rc = gpu_list(c, cat, v, &w->gpus, &pw->n_gpus);
	else if (strcmp(key, "spread") == 0) {
		if ((rc = pick(c, v, "spread", spread_names, 3, &i)) == 0)
			pw->spread = (gs_spread)i;
	} else if (strcmp(key, "current") == 0)
		rc = set_current(c, cat, v, pw);
	else {
		const char *near = gs_suggest(key, wl_keys, GS_ARRAY_LEN(wl_keys));
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                  near ? "unknown key '%s' (did you mean '%s'?)"
		                       : "unknown key '%s'%s",
		                  key, near ? near : "");
	}
	wl_sync(w);
	return rc;
}

/* ---- scenario keys ------------------------------------------------------ */

static const char *const top_keys[] = {
	"version", "cloud", "pricing", "via", "targetUtilization", "instances",
	"gpus", "workloads",
};

static int set_globs(gs_ctx *c, gs_scenario *s, const gs_node *v)
{
	char **g;
	int rc;
	if ((rc = gs_need_kind(c, v, GS_NODE_SEQ, "'instances'")) < 0)
		return rc;
	if (!(g = calloc(v->n ? v->n : 1, sizeof *g)))
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < v->n; i++) {
		if (v->items[i]->kind != GS_NODE_STRING) {
			rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v->items[i],
			                  "an instance pattern must be a string");
			break;
		}
		if (!(g[i] = gs_strdup(v->items[i]->text))) {
			rc = gs_fail_nomem(c->err);
			break;
		}
	}
	if (rc < 0) {
		for (size_t i = 0; i < v->n; i++)
			free(g[i]);
		free(g);
		return rc;
	}
	for (size_t i = 0; i < s->n_globs; i++)
		free(s->globs[i]);
	free(s->globs);
	s->globs = g;
	s->n_globs = v->n;
	return 0;
}

static int sc_apply(gs_ctx *c, gs_scenario *s, const char *key, const gs_node *v)
{
	static const char *const clouds[] = { "aws", "azure", "gcp", "all" };
	static const char *const pricings[] = { "on-demand", "spot" };
	static const char *const vias[] = { "device-plugin", "dra" };
	int64_t x;
	int i, rc;

	if (strcmp(key, "version") == 0) {
		if ((rc = gs_scalar_int(c, v, 1, 1, &x)) < 0)
			return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
			                    v->kind == GS_NODE_STRING && !v->quoted
			                        ? "unsupported version '%s' (this gpushare reads version 1)"
			                        : "version must be the number 1%s",
			                    v->kind == GS_NODE_STRING && !v->quoted ? v->text : "");
		return 0;
	}
	if (strcmp(key, "cloud") == 0) {
		if ((rc = pick(c, v, "cloud", clouds, 4, &i)) < 0)
			return rc;
		return set_str(&s->cloud, clouds[i]) ? gs_fail_nomem(c->err) : 0;
	}
	if (strcmp(key, "pricing") == 0) {
		if ((rc = pick(c, v, "pricing", pricings, 2, &i)) == 0)
			s->pricing = (gs_pricing)i;
		return rc;
	}
	if (strcmp(key, "via") == 0) {
		if ((rc = pick(c, v, "via", vias, 2, &i)) == 0)
			s->via = (gs_via)i;
		return rc;
	}
	if (strcmp(key, "targetUtilization") == 0) {
		if ((rc = gs_scalar_share(c, v, &x)) < 0)
			return rc;
		if (x < 100000 || x > GS_PPM)
			return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
			                    "targetUtilization must be from 10%% to 100%%, not '%s'",
			                    v->text);
		s->target_ppm = x;
		return 0;
	}
	if (strcmp(key, "instances") == 0) {
		s->globs_line = v->line;
		s->globs_col = v->col;
		return set_globs(c, s, v);
	}
	if (strcmp(key, "gpus") == 0)
		return gpu_list(c, s->cat, v, &s->gpus, &s->n_gpus);
	{
		const char *near = gs_suggest(key, top_keys, GS_ARRAY_LEN(top_keys));
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    near ? "unknown key '%s' (did you mean '%s'?)"
		                         : "unknown key '%s'%s",
		                    key, near ? near : "");
	}
}

static int add_wl(gs_scenario *s, wl *w)
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
		index_drop(s);
	}
	return 0;
}

static int load_workload(gs_ctx *c, gs_scenario *s, const gs_node *map)
{
	gs_node *name;
	wl *w;
	int rc;

	if ((rc = gs_need_kind(c, map, GS_NODE_MAP, "a workload")) < 0 ||
	    (rc = gs_check_keys(c, map, wl_keys, GS_ARRAY_LEN(wl_keys))) < 0 ||
	    (rc = gs_require(c, map, "name", "a workload", &name)) < 0)
		return rc;
	if (name->kind == GS_NODE_STRING && find(s, name->text))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, name,
		                    "duplicate workload name '%s'", name->text);
	if (!(w = wl_new("")))
		return gs_fail_nomem(c->err);
	w->pub.line = map->line;
	w->pub.col = map->col;
	for (size_t i = 0; i < map->n && rc == 0; i++)
		if (map->items[i]->kind != GS_NODE_NULL)
			rc = wl_apply(c, s->cat, w, map->keys[i]->text, map->items[i]);
	if (rc == 0 && !w->has_memory)
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, map,
		                  "workload '%s' needs 'gpuMemory' (peak device memory of one replica)",
		                  w->name);
	if (rc == 0 && !w->has_compute)
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, map,
		                  "workload '%s' needs 'compute' (peak share of one GPU, e.g. 40%%)",
		                  w->name);
	if (rc == 0 && add_wl(s, w) < 0)
		rc = gs_fail_nomem(c->err);
	if (rc < 0)
		wl_free(w);
	return rc;
}

static int load_root(gs_ctx *c, gs_scenario *s, const gs_node *root)
{
	gs_node *seq;
	int rc;

	if (root->kind == GS_NODE_NULL)
		return gs_fail_at(c->err, GS_ESCHEMA, c->file, 1, 1,
		                  "the file is empty (expected 'version: 1' and 'workloads:')");
	if ((rc = gs_need_kind(c, root, GS_NODE_MAP, "a workload file")) < 0 ||
	    (rc = gs_check_keys(c, root, top_keys, GS_ARRAY_LEN(top_keys))) < 0)
		return rc;
	for (size_t i = 0; i < root->n; i++) {
		const char *k = root->keys[i]->text;
		if (strcmp(k, "workloads") == 0 || root->items[i]->kind == GS_NODE_NULL)
			continue;
		if ((rc = sc_apply(c, s, k, root->items[i])) < 0)
			return rc;
	}
	if ((rc = gs_require(c, root, "workloads", "a workload file", &seq)) < 0 ||
	    (rc = gs_need_kind(c, seq, GS_NODE_SEQ, "'workloads'")) < 0)
		return rc;
	if (seq->n == 0)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, seq,
		                    "'workloads' is empty: nothing to plan");
	for (size_t i = 0; i < seq->n; i++)
		if ((rc = load_workload(c, s, seq->items[i])) < 0)
			return rc;
	return 0;
}

/* Reports a workload's error at its definition in the file. */
static int fail_wl(const gs_scenario *s, const gs_workload *w, gs_error *err,
                   int code, const char *msg)
{
	return gs_fail_at(err, code, s->file, w->line, w->col, "%s", msg);
}

/* An allow-list that rules out every instance is the list's fault, not
 * the first workload's. */
static int check_catalog_left(const gs_scenario *s, gs_error *err)
{
	for (size_t i = 0; i < gs_catalog_instance_count(s->cat); i++)
		if (gs_scenario_instance_ok(s, gs_catalog_instance(s->cat, i)))
			return 0;
	return gs_fail_at(err, GS_ENOFIT, s->file, s->globs_line, s->globs_col,
	                  "no instance type%s%s with %s %s price matches %s",
	                  strcmp(s->cloud, "all") ? " on " : "", strcmp(s->cloud, "all") ? s->cloud : "",
	                  s->pricing == GS_PRICING_SPOT ? "a" : "an", gs_pricing_name(s->pricing),
	                  s->n_globs && s->n_gpus ? "'instances' and 'gpus'"
	                  : s->n_globs ? "'instances'" : s->n_gpus ? "'gpus'" : "the cloud");
}

int gs_scenario_validate(const gs_scenario *s, gs_error *err)
{
	const gs_gpu *models[64];
	char msg[GS_ERROR_MSG_MAX];
	int rc;

	if (s->n == 0)
		return gs_fail_at(err, GS_ESCHEMA, s->file, 0, 0,
		                  "no workloads to plan");
	if ((rc = check_catalog_left(s, err)) < 0)
		return rc;
	for (size_t i = 0; i < s->n; i++) {
		const gs_workload *w = &s->w[i]->pub;
		size_t n = gs_workload_models(s, w, models, 64), fits = 0;
		if (!s->w[i]->has_memory || !s->w[i]->has_compute) {
			snprintf(msg, sizeof msg, "workload '%s' needs %s", w->name,
			         s->w[i]->has_memory ? "'compute'" : "'gpuMemory'");
			return fail_wl(s, w, err, GS_ESCHEMA, msg);
		}
		if (n == 0) {
			snprintf(msg, sizeof msg,
			         "workload '%s': no instance in the catalog matches its cloud and allow-lists",
			         w->name);
			return fail_wl(s, w, err, GS_ENOFIT, msg);
		}
		for (size_t m = 0; m < n; m++)
			fits += w->memory_bytes <= (models[m]->memory_mib << 20) &&
			        gs_workload_compute_on(w, models[m]) <= GS_PPM;
		if (!fits) {
			snprintf(msg, sizeof msg,
			         "workload '%s' needs more than one whole GPU of every allowed model "
			         "(multi-GPU workloads are not supported yet)",
			         w->name);
			return fail_wl(s, w, err, GS_ENOFIT, msg);
		}
	}
	return 0;
}

static int load_tree(const gs_catalog *cat, const char *name, gs_node *root,
                     gs_scenario **out, gs_error *err)
{
	gs_scenario *s = NULL;
	gs_ctx c = { name, err };
	int rc;

	if ((rc = gs_scenario_new(cat, &s, err)) == 0 &&
	    (rc = set_str(&s->file, c.file) ? gs_fail_nomem(err) : 0) == 0 &&
	    (rc = load_root(&c, s, root)) == 0)
		rc = gs_scenario_validate(s, err);
	gs_node_free(root);
	if (rc < 0) {
		gs_scenario_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int gs_scenario_load(const gs_catalog *cat, const char *path, gs_scenario **out,
                     gs_error *err)
{
	gs_node *root = NULL;
	int rc = gs_yaml_read_file(path, &root, err);
	if (rc < 0)
		return rc;
	return load_tree(cat, strcmp(path, "-") == 0 ? "<stdin>" : path, root, out, err);
}

int gs_scenario_load_buffer(const gs_catalog *cat, const char *name, const char *buf,
                            size_t len, gs_scenario **out, gs_error *err)
{
	gs_node *root = NULL;
	int rc = gs_yaml_read_buffer(name, buf, len, &root, err);
	if (rc < 0)
		return rc;
	return load_tree(cat, name, root, out, err);
}

/* ---- edits ------------------------------------------------------------------ */

/* A typed value becomes the node a file would have given: "a,b" is a list
 * for list keys, "TYPE[:COUNT]" a map for `current`. */
static gs_node *value_node(const char *key, const char *value)
{
	gs_node *n;
	if (strcmp(key, "gpus") == 0 || strcmp(key, "instances") == 0) {
		char *copy = gs_strdup(value), *save = NULL;
		n = gs_node_new(GS_NODE_SEQ, NULL);
		for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && n;
		     t = strtok_r(NULL, ",", &save))
			if (gs_node_push(n, gs_node_new(GS_NODE_STRING, t)) < 0)
				n = NULL;
		free(copy);
		return n;
	}
	if (strcmp(key, "current") == 0) {
		const char *colon = strchr(value, ':');
		char *type = colon ? gs_strndup(value, (size_t)(colon - value)) : gs_strdup(value);
		n = gs_node_new(GS_NODE_MAP, NULL);
		if (!type || gs_node_put(n, "instance", gs_node_new(GS_NODE_STRING, type)) < 0 ||
		    (colon && gs_node_put(n, "count", gs_node_new(GS_NODE_STRING, colon + 1)) < 0)) {
			gs_node_free(n);
			n = NULL;
		}
		free(type);
		return n;
	}
	return gs_node_new(GS_NODE_STRING, value);
}

int gs_scenario_set(gs_scenario *s, const char *workload, const char *key,
                    const char *value, gs_error *err)
{
	gs_ctx c = { NULL, err };
	gs_node *v = value_node(key, value);
	wl *w = NULL;
	int rc;

	if (!v)
		return gs_fail_nomem(err);
	if (workload && !(w = find(s, workload)))
		rc = gs_fail(err, GS_ENOTFOUND, "no workload named '%s'", workload);
	else if (workload && strcmp(key, "name") == 0 && find(s, value))
		rc = gs_fail(err, GS_ESCHEMA, "a workload named '%s' exists already", value);
	else if (w) {
		rc = wl_apply(&c, s->cat, w, key, v);
		if (strcmp(key, "name") == 0)
			index_drop(s);
	}
	else if (strcmp(key, "workloads") == 0 || strcmp(key, "version") == 0)
		rc = gs_fail(err, GS_EINVAL, "'%s' cannot be set", key);
	else
		rc = sc_apply(&c, s, key, v);
	gs_node_free(v);
	return rc;
}

int gs_scenario_add(gs_scenario *s, const char *name, gs_error *err)
{
	gs_ctx c = { NULL, err };
	gs_node *v;
	wl *w;
	int rc;

	if (find(s, name))
		return gs_fail(err, GS_ESCHEMA, "a workload named '%s' exists already", name);
	if (!(w = wl_new("")) || !(v = gs_node_new(GS_NODE_STRING, name))) {
		wl_free(w);
		return gs_fail_nomem(err);
	}
	rc = wl_apply(&c, s->cat, w, "name", v);
	gs_node_free(v);
	if (rc == 0 && add_wl(s, w) < 0)
		rc = gs_fail_nomem(err);
	if (rc < 0)
		wl_free(w);
	return rc;
}

int gs_scenario_remove(gs_scenario *s, const char *name, gs_error *err)
{
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->w[i]->name, name) != 0)
			continue;
		wl_free(s->w[i]);
		memmove(&s->w[i], &s->w[i + 1], (s->n - i - 1) * sizeof *s->w);
		s->n--;
		index_drop(s);
		return 0;
	}
	return gs_fail(err, GS_ENOTFOUND, "no workload named '%s'", name);
}

int gs_scenario_set_file(gs_scenario *s, const char *name, gs_error *err)
{
	return set_str(&s->file, name) ? gs_fail_nomem(err) : 0;
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
}

/* ---- what may be bought ------------------------------------------------------ */

gs_micros gs_instance_price(const gs_scenario *s, const gs_instance *in)
{
	return s->pricing == GS_PRICING_SPOT ? in->spot : in->on_demand;
}

int gs_scenario_instance_ok(const gs_scenario *s, const gs_instance *in)
{
	int ok = s->n_globs == 0;
	if (strcmp(s->cloud, "all") != 0 && strcmp(s->cloud, in->cloud) != 0)
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

size_t gs_workload_models(const gs_scenario *s, const gs_workload *w,
                          const gs_gpu **out, size_t cap)
{
	size_t n = 0, ng = gs_catalog_gpu_count(s->cat);
	for (size_t g = 0; g < ng && n < cap; g++) {
		const gs_gpu *gpu = gs_catalog_gpu(s->cat, g);
		int allowed = w->n_gpus == 0, sold = 0;
		for (size_t i = 0; i < w->n_gpus; i++)
			allowed |= w->gpus[i] == gpu;
		for (size_t i = 0; allowed && !sold && i < gs_catalog_instance_count(s->cat); i++) {
			const gs_instance *in = gs_catalog_instance(s->cat, i);
			sold = in->gpu == gpu && gs_scenario_instance_ok(s, in);
		}
		if (allowed && sold)
			out[n++] = gpu;
	}
	return n;
}

int64_t gs_workload_compute_on(const gs_workload *w, const gs_gpu *g)
{
	if (!w->measured_on || w->measured_on == g)
		return w->compute_ppm;
	/* Relative throughput converts a share between models. */
	return gs_div_ceil(w->compute_ppm * w->measured_on->fp16_mtflops,
	                   g->fp16_mtflops);
}
