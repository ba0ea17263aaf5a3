/*
 * retention.c - what a replica keeps of its dedicated-GPU throughput under
 * each strategy: the rows of DIR/retention.yaml (profiles/retention.yaml
 * says where each figure comes from). Optional per directory, so that an
 * overlay of prices need not repeat it; a later directory's row replaces
 * an earlier one's, so that a site can put its own measurements in.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/catalog.h"

/* The file's names, indexed as gs_strategy and gs_backend. Not the plan's
 * strategy table: the catalog sits below the planner. */
static const char *const strategies[] = { "dedicated", "time-slicing", "mps", "mig",
	                                      "fraction" };
static const char *const backends[] = { "none", "hami", "dra", "mps" };

_Static_assert(GS_ARRAY_LEN(strategies) == GS_STRATEGY_FRACTION + 1, "one per strategy");
_Static_assert(GS_ARRAY_LEN(backends) == GS_BACKEND_MPS + 1, "one per backend");

/* A copy of s in the catalog's strings (freed with it); NULL when out of
 * memory. Here rather than catalog.c's, which calls this file. */
static const char *keep(gs_catalog *cat, const char *s)
{
	char *p;
	if (gs_grow(&cat->strings, &cat->cap_strings, cat->n_strings + 1,
	            sizeof *cat->strings) < 0 || !(p = gs_strdup(s)))
		return NULL;
	cat->strings[cat->n_strings++] = p;
	return p;
}

/* A name of the list, or a located error that lists them. */
static int pick(gs_ctx *c, const gs_node *row, const char *key, const char *const *names,
                size_t from, size_t n, int *out)
{
	const gs_node *v = gs_node_get(row, key);
	const char *near;

	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v, "'%s' must be a string", key);
	for (size_t i = from; i < n; i++)
		if (strcmp(v->text, names[i]) == 0) {
			*out = (int)i;
			return 0;
		}
	near = gs_suggest(v->text, names + from, n - from);
	return gs_fail_node(c->err, GS_ESCHEMA, c->file, v, "unknown %s '%s'%s%s%s", key,
	                    v->text, near ? " (did you mean '" : "", near ? near : "",
	                    near ? "'?)" : "");
}

/* Which (strategy, backend) a row is for: a backend with fraction only. */
static int row_key(gs_ctx *c, const gs_node *row, int *s, int *b)
{
	const gs_node *bv = gs_node_get(row, "backend");
	gs_node *v;
	int rc;

	*b = GS_BACKEND_NONE;
	if ((rc = gs_require(c, row, "strategy", "a retention row", &v)) < 0 ||
	    (rc = pick(c, row, "strategy", strategies, 0, GS_ARRAY_LEN(strategies), s)) < 0)
		return rc;
	if (*s == GS_STRATEGY_FRACTION && !bv)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, row,
		                    "a fraction row needs a 'backend' (hami, dra or mps)");
	if (*s != GS_STRATEGY_FRACTION && bv)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, bv,
		                    "'backend' belongs to fraction rows only, not %s",
		                    strategies[*s]);
	if (bv)
		return pick(c, row, "backend", backends, 1, GS_ARRAY_LEN(backends), b);
	return 0;
}

/* low and high: shares of the dedicated throughput, 0 < low <= high <= 100%. */
static int row_range(gs_ctx *c, const gs_node *row, gs_retention *r)
{
	gs_node *lo, *hi;
	int rc;

	if ((rc = gs_require(c, row, "low", "a retention row", &lo)) < 0 ||
	    (rc = gs_scalar_share(c, lo, &r->low_ppm)) < 0 ||
	    (rc = gs_require(c, row, "high", "a retention row", &hi)) < 0 ||
	    (rc = gs_scalar_share(c, hi, &r->high_ppm)) < 0)
		return rc;
	if (r->low_ppm <= 0 || r->low_ppm > GS_PPM)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, lo,
		                    "low must be more than 0%% and at most 100%%, not '%s'",
		                    lo->text);
	if (r->high_ppm < r->low_ppm || r->high_ppm > GS_PPM)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, hi,
		                    "high must be from low (%s) to 100%%, not '%s'", lo->text,
		                    hi->text);
	return 0;
}

static int load_row(gs_catalog *cat, gs_ctx *c, const gs_node *row, unsigned char seen[][4])
{
	static const char *const keys[] = { "strategy", "backend", "low", "high", "source",
		                                "url" };
	const char *src = NULL, *url = NULL;
	gs_retention r;
	int s, b, rc;

	if ((rc = gs_need_kind(c, row, GS_NODE_MAP, "a retention row")) < 0 ||
	    (rc = gs_check_keys(c, row, keys, GS_ARRAY_LEN(keys))) < 0 ||
	    (rc = row_key(c, row, &s, &b)) < 0 || (rc = row_range(c, row, &r)) < 0 ||
	    (rc = gs_get_str(c, row, "source", 1, &src)) < 0 ||
	    (rc = gs_get_str(c, row, "url", 0, &url)) < 0)
		return rc;
	if (seen[s][b])
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, row,
		                    "a second row for %s%s%s in this file", strategies[s],
		                    b ? " with backend " : "", b ? backends[b] : "");
	seen[s][b] = 1;
	r.url = NULL;
	if (!(r.source = keep(cat, src)) ||
	    (url && !(r.url = keep(cat, url))))
		return gs_fail_nomem(c->err);
	cat->retention[s][b] = r;
	cat->has_retention[s][b] = 1;
	return 0;
}

static int load_file(gs_catalog *cat, gs_ctx *c, const gs_node *root)
{
	static const char *const keys[] = { "version", "retention" };
	unsigned char seen[GS_STRATEGY_FRACTION + 1][GS_BACKEND_MPS + 1];
	int64_t version = 0;
	gs_node *seq;
	int rc;

	_Static_assert(GS_BACKEND_MPS + 1 == 4, "load_row's seen[][4]");
	memset(seen, 0, sizeof seen);
	if ((rc = gs_need_kind(c, root, GS_NODE_MAP, "a retention file")) < 0 ||
	    (rc = gs_check_keys(c, root, keys, GS_ARRAY_LEN(keys))) < 0 ||
	    (rc = gs_get_int(c, root, "version", 1, 1, 1, &version)) < 0 ||
	    (rc = gs_require(c, root, "retention", "a retention file", &seq)) < 0 ||
	    (rc = gs_need_kind(c, seq, GS_NODE_SEQ, "'retention'")) < 0)
		return rc;
	for (size_t i = 0; i < seq->n; i++)
		if ((rc = load_row(cat, c, seq->items[i], seen)) < 0)
			return rc;
	return 0;
}

int gs_retention_add_buffer(gs_catalog *cat, const char *name, const char *buf, size_t len,
                            gs_error *err)
{
	gs_node *root = NULL;
	gs_ctx c = { name, err };
	int rc = gs_yaml_read_buffer(name, buf, len, &root, err);
	if (rc == 0)
		rc = load_file(cat, &c, root);
	gs_node_free(root);
	return rc;
}

int gs_retention_load_dir(gs_catalog *cat, const char *dir, gs_error *err)
{
	char *path = malloc(strlen(dir) + sizeof "/retention.yaml");
	gs_node *root = NULL;
	struct stat st;
	int rc = 0;

	if (!path)
		return gs_fail_nomem(err);
	strcpy(path, dir);
	strcat(path, "/retention.yaml");
	if (stat(path, &st) == 0) {
		gs_ctx c = { path, err };
		if ((rc = gs_yaml_read_file(path, &root, err)) == 0)
			rc = load_file(cat, &c, root);
		gs_node_free(root);
	}
	free(path);
	return rc;
}

int gs_retention_of(const gs_catalog *cat, gs_strategy s, gs_backend b, gs_retention *out)
{
	if ((unsigned)s > GS_STRATEGY_FRACTION || (unsigned)b > GS_BACKEND_MPS)
		return GS_EINVAL;
	if (s != GS_STRATEGY_FRACTION)
		b = GS_BACKEND_NONE;
	if (!cat->has_retention[s][b])
		return GS_ENOTFOUND;
	*out = cat->retention[s][b];
	return 0;
}
