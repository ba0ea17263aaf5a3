/*
 * load.c - workload files: a strict reader of the file and its workloads
 * (the keys themselves are read by the table in keys.c), and the checks a
 * scenario must pass before it is planned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/offer.h"
#include "scenario/keys.h"

/* Fails on a key of map that the table does not have at this level. */
static int check_keys(gs_ctx *c, const gs_node *map, gs_key_level level)
{
	const char *names[GS_KEYS_MAX];
	size_t n = gs_scenario_key_names(level, names, GS_ARRAY_LEN(names));
	return gs_check_keys(c, map, names, n);
}

/* Each key's row in rows (map->n of them), found once for both the check
 * and the reading: a file of 10^6 replicas has 1.6 million keys. An
 * unknown key fails as check_keys says. */
static int rows_of(gs_ctx *c, const gs_node *map, const gs_key **rows)
{
	for (size_t i = 0; i < map->n; i++)
		if (!(rows[i] = gs_scenario_key(GS_KEY_WORKLOAD, map->keys[i]->text)))
			return check_keys(c, map, GS_KEY_WORKLOAD);
	return 0;
}

static int load_workload(gs_ctx *c, gs_scenario *s, const gs_node *map)
{
	const gs_key *rows[GS_KEYS_MAX];
	gs_node *name;
	wl *w;
	int rc;
	/* The reader refuses duplicate keys, so a map of known keys has at
	 * most one of each; past rows' size they are looked up one by one. */
	int found = map->n <= GS_KEYS_MAX;

	if ((rc = gs_need_kind(c, map, GS_NODE_MAP, "a workload")) < 0 ||
	    (rc = found ? rows_of(c, map, rows) : check_keys(c, map, GS_KEY_WORKLOAD)) < 0 ||
	    (rc = gs_require(c, map, "name", "a workload", &name)) < 0)
		return rc;
	if (name->kind == GS_NODE_STRING && gs_scenario_wl(s, name->text))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, name,
		                    "duplicate workload name '%s'", name->text);
	if (!(w = gs_wl_new("")))
		return gs_fail_nomem(c->err);
	w->pub.line = map->line;
	w->pub.col = map->col;
	w->pub.arch = s->arch;  /* the file's keys were read first */
	for (size_t i = 0; i < map->n && rc == 0; i++)
		if (map->items[i]->kind != GS_NODE_NULL)
			rc = found ? gs_scenario_read_row(c, s, w, rows[i], map->items[i])
			           : gs_scenario_read_key(c, s, w, map->keys[i]->text,
			                                  map->items[i]);
	if (rc == 0 && !w->has_memory)
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, map,
		                  "workload '%s' needs 'gpuMemory' (peak device memory of "
		                  "one replica)", w->name);
	if (rc == 0 && !w->has_compute)
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, map,
		                  "workload '%s' needs 'compute' (peak share of one GPU, "
		                  "e.g. 40%%)", w->name);
	if (rc == 0 && gs_scenario_push(s, w) < 0)
		rc = gs_fail_nomem(c->err);
	if (rc < 0)
		gs_wl_free(w);
	return rc;
}

static int load_root(gs_ctx *c, gs_scenario *s, const gs_node *root)
{
	gs_node *seq;
	int rc;

	if (root->kind == GS_NODE_NULL)
		return gs_fail_at(c->err, GS_ESCHEMA, c->file, 1, 1, "the file is empty "
		                  "(expected 'version: 1' and 'workloads:')");
	if ((rc = gs_need_kind(c, root, GS_NODE_MAP, "a workload file")) < 0 ||
	    (rc = check_keys(c, root, GS_KEY_FILE)) < 0)
		return rc;
	/* The file's keys first (the workloads need its allow-lists)... */
	for (size_t i = 0; i < root->n; i++)
		if (root->items[i]->kind != GS_NODE_NULL &&
		    (rc = gs_scenario_read_key(c, s, NULL, root->keys[i]->text,
		                               root->items[i])) < 0)
			return rc;
	/* ...then the workloads, which the table leaves to us. */
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

/* ---- checks before planning --------------------------------------------- */

/* Reports a workload's error at its definition in the file. */
static int fail_wl(const gs_scenario *s, const gs_workload *w, gs_error *err,
                   int code, const char *msg)
{
	return gs_fail_at(err, code, s->file, w->line, w->col, "%s", msg);
}

/* What an allow-list that rules out everything is called in a message. */
static const char *allow_lists(const gs_scenario *s)
{
	if (s->n_globs && s->n_gpus)
		return "'instances' and 'gpus'";
	if (s->n_globs)
		return "'instances'";
	return s->n_gpus ? "'gpus'" : "the cloud";
}

/* An allow-list that rules out every instance is the list's fault, not
 * the first workload's. */
static int check_catalog_left(const gs_scenario *s, gs_error *err)
{
	int all = strcmp(s->cloud, "all") == 0;

	for (size_t i = 0; i < gs_catalog_instance_count(s->cat); i++)
		if (gs_scenario_instance_ok(s, gs_catalog_instance_at(s->cat, i)))
			return 0;
	return gs_fail_at(err, GS_ENOFIT, s->file, s->globs_line, s->globs_col,
	                  "no instance type%s%s with %s %s price matches %s",
	                  all ? "" : " on ", all ? "" : s->cloud,
	                  s->pricing == GS_PRICING_SPOT ? "a" : "an",
	                  gs_pricing_name(s->pricing), allow_lists(s));
}

/* "22.00 GiB, more than the 21.95 GiB an L4 leaves usable": when memory
 * alone rules out every allowed model, the message says so with the
 * largest usable memory among them. */
static void no_fit_message(char *msg, size_t size, const gs_workload *w,
                           const gs_gpu *const *models, size_t n)
{
	const gs_gpu *big = models[0];
	int64_t need; /* hundredths of a GiB, up: shown above the usable, down */
	for (size_t m = 1; m < n; m++)
		if (models[m]->usable_memory_mib > big->usable_memory_mib)
			big = models[m];
	if (w->memory_bytes <= gs_usable_bytes(big)) {
		snprintf(msg, size, "workload '%s' needs more than one whole GPU of every "
		         "allowed model (to split it over several, set gpusPerReplica and "
		         "give gpuMemory and compute per GPU)", w->name);
		return;
	}
	need = gs_div_ceil(w->memory_bytes * 100, INT64_C(1) << 30);
	snprintf(msg, size, "workload '%s' needs %lld.%02lld GiB of GPU memory, more than "
	         "the %lld.%02lld GiB that %s, the largest allowed model, leaves usable "
	         "(to split it over several GPUs, set gpusPerReplica and give gpuMemory "
	         "per GPU)", w->name,
	         (long long)(need / 100), (long long)(need % 100),
	         (long long)(big->usable_memory_mib * 100 / 1024 / 100),
	         (long long)(big->usable_memory_mib * 100 / 1024 % 100), big->name);
}

/* The instance with the most GPUs that w may run on: buyable, of a model
 * among models[0..n) (those it fits), and of its arch; NULL if none. */
static const gs_instance *widest(const gs_scenario *s, const gs_workload *w,
                                 const gs_gpu *const *models, size_t n)
{
	const gs_instance *best = NULL;
	for (size_t i = 0; i < gs_catalog_instance_count(s->cat); i++) {
		const gs_instance *in = gs_catalog_instance_at(s->cat, i);
		int ok = 0;
		for (size_t m = 0; m < n; m++)
			ok |= in->gpu == models[m];
		if (!ok || (w->arch != GS_ARCH_ANY && in->arch != w->arch) ||
		    !gs_scenario_instance_ok(s, in))
			continue;
		if (!best || in->gpu_count > best->gpu_count)
			best = in;
	}
	return best;
}

/* A replica of gpusPerReplica N holds N GPUs of one node: some instance it
 * may run on must have them. */
static int check_wide(const gs_scenario *s, const gs_workload *w, const gs_gpu **models,
                      size_t n, gs_error *err)
{
	char msg[GS_ERROR_MSG_MAX];
	const gs_instance *big;
	size_t fit = 0;
	if (w->gpus_per_replica <= 1)
		return 0;
	for (size_t m = 0; m < n; m++)
		if (w->memory_bytes <= gs_usable_bytes(models[m]) &&
		    gs_workload_compute_on(w, models[m]) <= GS_PPM)
			models[fit++] = models[m];
	/* No instance of its arch at all: the planner says why (host.c). */
	big = widest(s, w, models, fit);
	if (!big || big->gpu_count >= w->gpus_per_replica)
		return 0;
	snprintf(msg, sizeof msg, "workload '%s' needs %d GPUs per replica on one node, more "
	         "than any instance it may run on has (the most: %d, %s)", w->name,
	         w->gpus_per_replica, big->gpu_count, big->type);
	return fail_wl(s, w, err, GS_ENOFIT, msg);
}

/* A workload must be complete, buyable, and fit one GPU of some model
 * (of those sold, nsold). */
static int check_workload(const gs_scenario *s, const wl *x, const gs_gpu *const *sold,
                          size_t nsold, gs_error *err)
{
	const gs_gpu *models[64];
	char msg[GS_ERROR_MSG_MAX];
	const gs_workload *w = &x->pub;
	size_t n = gs_workload_models_of(w, sold, nsold, models, 64), fits = 0;

	if (!x->has_memory || !x->has_compute) {
		snprintf(msg, sizeof msg, "workload '%s' needs %s", w->name,
		         x->has_memory ? "'compute'" : "'gpuMemory'");
		return fail_wl(s, w, err, GS_ESCHEMA, msg);
	}
	if (n == 0) {
		snprintf(msg, sizeof msg, "workload '%s': no instance in the catalog "
		         "matches its cloud and allow-lists", w->name);
		return fail_wl(s, w, err, GS_ENOFIT, msg);
	}
	for (size_t m = 0; m < n; m++)
		fits += w->memory_bytes <= gs_usable_bytes(models[m]) &&
		        gs_workload_compute_on(w, models[m]) <= GS_PPM;
	if (!fits) {
		no_fit_message(msg, sizeof msg, w, models, n);
		return fail_wl(s, w, err, GS_ENOFIT, msg);
	}
	return check_wide(s, w, models, n, err);
}

int gs_scenario_validate(const gs_scenario *s, gs_error *err)
{
	const gs_gpu **sold;
	size_t nsold;
	int rc;

	if (s->n == 0)
		return gs_fail_at(err, GS_ESCHEMA, s->file, 0, 0,
		                  "no workloads to plan");
	if ((rc = check_catalog_left(s, err)) < 0)
		return rc;
	/* The models sold, once rather than once a workload: at 10^5
	 * replicas (22,000 workloads) a validation took 11 ms, now 1 ms, and
	 * a plan validates twice (on load and in gs_plan_make). */
	if (gs_scenario_models_sold(s, s->cloud, &sold, &nsold) < 0)
		return gs_fail_nomem(err);
	rc = 0;
	for (size_t i = 0; rc == 0 && i < s->n; i++)
		rc = check_workload(s, s->w[i], sold, nsold, err);
	free(sold);
	return rc;
}

/* ---- entry points ------------------------------------------------------- */

static int load_tree(const gs_catalog *cat, const char *name, gs_node *root,
                     gs_scenario **out, gs_error *err)
{
	gs_scenario *s = NULL;
	gs_ctx c = { name, err };
	int rc;

	if ((rc = gs_scenario_new(cat, &s, err)) == 0 &&
	    (rc = gs_scenario_set_file(s, c.file, err)) == 0 &&
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
