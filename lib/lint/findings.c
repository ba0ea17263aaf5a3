/*
 * findings.c - the result of gs_lint: its findings, kept in the order they
 * were found and sorted by position per file, and the file names they
 * point to.
 */
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "lint/findings.h"

typedef struct lint_item {
	gs_finding f;
	size_t seq;
	size_t file_ix;  /* for gs_lint_sort_files */
	int cross;       /* from a cross-file rule */
} lint_item;

struct gs_lint {
	gs_lint_opts opts;
	lint_item *items;
	size_t n, cap;
	char **files;
	size_t n_files, cap_files;
	lint_facts facts;
};

int gs_lint_new(const gs_lint_opts *opts, gs_lint **out, gs_error *err)
{
	gs_lint *l;
	gs_lint_opts none = GS_LINT_OPTS_INIT;
	int rc;

	if (opts && (rc = gs_check_version(opts->version, GS_LINT_OPTS_VERSION,
	                                   "gs_lint_opts", err)) < 0)
		return rc;
	if (!(l = calloc(1, sizeof *l)))
		return gs_fail_nomem(err);
	l->opts = opts ? *opts : none;
	*out = l;
	return 0;
}

void gs_lint_free(gs_lint *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free((char *)l->items[i].f.message);
	for (size_t i = 0; i < l->n_files; i++)
		free(l->files[i]);
	free(l->items);
	free(l->files);
	gs_facts_free(&l->facts);
	free(l);
}

size_t gs_lint_count(const gs_lint *l)
{
	return l->n;
}

const gs_finding *gs_lint_at(const gs_lint *l, size_t i)
{
	return i < l->n ? &l->items[i].f : NULL;
}

size_t gs_lint_error_count(const gs_lint *l)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->items[i].f.severity == GS_SEVERITY_ERROR;
	return n;
}

const gs_lint_opts *gs_lint_options(const gs_lint *l)
{
	return &l->opts;
}

int gs_lint_record(gs_lint *l, const gs_finding *f)
{
	lint_item *it;

	if (gs_grow(&l->items, &l->cap, l->n + 1, sizeof *l->items) < 0)
		return -1;
	it = &l->items[l->n];
	memset(it, 0, sizeof *it);
	it->f = *f;
	if (!(it->f.message = gs_strdup(f->message)))
		return -1;
	it->seq = l->n++;
	return 0;
}

const char *gs_lint_keep_name(gs_lint *l, const char *name)
{
	char *copy;
	if (gs_grow(&l->files, &l->cap_files, l->n_files + 1, sizeof *l->files) < 0 ||
	    !(copy = gs_strdup(name)))
		return NULL;
	l->files[l->n_files++] = copy;
	return copy;
}

void gs_lint_truncate(gs_lint *l, size_t first)
{
	for (size_t i = first; i < l->n; i++)
		free((char *)l->items[i].f.message);
	if (first < l->n)
		l->n = first;
}

static int by_position(const void *a, const void *b)
{
	const lint_item *x = a, *y = b;
	if (x->f.line != y->f.line)
		return x->f.line < y->f.line ? -1 : 1;
	if (x->f.col != y->f.col)
		return x->f.col < y->f.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void gs_lint_sort(gs_lint *l, size_t first)
{
	if (l->n > first)
		qsort(l->items + first, l->n - first, sizeof *l->items, by_position);
}

lint_facts *gs_lint_facts(gs_lint *l)
{
	return &l->facts;
}

void gs_lint_mark_cross(gs_lint *l, size_t first)
{
	for (size_t i = first; i < l->n; i++)
		l->items[i].cross = 1;
}

void gs_lint_drop_cross(gs_lint *l)
{
	size_t o = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (l->items[i].cross)
			free((char *)l->items[i].f.message);
		else
			l->items[o++] = l->items[i];
	}
	l->n = o;
}

void gs_lint_drop_at(gs_lint *l, const char *id, lint_where at)
{
	size_t o = 0;

	for (size_t i = 0; i < l->n; i++) {
		const gs_finding *f = &l->items[i].f;
		if (f->file == at.file && f->line == at.line && f->col == at.col &&
		    strcmp(f->id, id) == 0)
			free((char *)f->message);
		else
			l->items[o++] = l->items[i];
	}
	l->n = o;
}

static int by_file(const void *a, const void *b)
{
	const lint_item *x = a, *y = b;
	if (x->file_ix != y->file_ix)
		return x->file_ix < y->file_ix ? -1 : 1;
	return by_position(a, b);
}

void gs_lint_sort_files(gs_lint *l, size_t first)
{
	for (size_t i = first; i < l->n; i++) {
		size_t ix = 0;
		while (ix < l->n_files && l->files[ix] != l->items[i].f.file)
			ix++;
		l->items[i].file_ix = ix;
	}
	if (l->n > first)
		qsort(l->items + first, l->n - first, sizeof *l->items, by_file);
}

int gs_doc_lint(const gs_lint *l, gs_doc **out, gs_error *err)
{
	gs_node *list = gs_node_new(GS_NODE_SEQ, NULL);

	if (!list)
		return gs_fail_nomem(err);
	for (size_t i = 0; i < l->n; i++) {
		const gs_finding *f = &l->items[i].f;
		gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
		int rc = 0;
		if (!m) {
			gs_node_free(list);
			return gs_fail_nomem(err);
		}
		rc |= gs_node_put(m, "file", gs_node_str(f->file));
		rc |= gs_node_put(m, "line", gs_node_int((int64_t)f->line));
		rc |= gs_node_put(m, "col", gs_node_int((int64_t)f->col));
		rc |= gs_node_put(m, "severity", gs_node_str(gs_severity_name(f->severity)));
		rc |= gs_node_put(m, "id", gs_node_str(f->id));
		rc |= gs_node_put(m, "message", gs_node_str(f->message));
		if (gs_node_push(list, m) < 0 || rc < 0) {
			gs_node_free(list);
			return gs_fail_nomem(err);
		}
	}
	return gs_doc_wrap(list, out, err);
}
