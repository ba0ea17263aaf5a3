/*
 * kit.c - what the lint checkers share: adding a finding at its place in
 * the file, and reading values out of the parsed tree the way the tools
 * that read these configs do.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint/findings.h"
#include "lint/kit.h"

/* ---- findings ------------------------------------------------------------- */

lint_where gs_lint_where(const lint_ctx *c, const gs_node *at)
{
	lint_where w = { c->file, 0, 0 };

	if (c->pinned) {
		w.line = c->pin_line;
		w.col = c->pin_col;
	} else if (at && at->line) {
		w.line = at->line + c->line_base;
		w.col = at->col + c->col_base;
	} else {
		w.line = c->line_base + 1;
		w.col = c->col_base + 1;
	}
	return w;
}

static void add(lint_ctx *c, int rule, lint_where at, const char *fmt, va_list ap)
{
	const gs_lint_rule *r = gs_lint_rule_at((size_t)rule);
	gs_finding f = { 0 };
	char buf[1024];

	vsnprintf(buf, sizeof buf, fmt, ap);
	f.file = at.file;
	f.line = at.line;
	f.col = at.col;
	f.id = r->id;
	f.severity = r->severity;
	f.message = buf;
	if (gs_lint_record(c->lint, &f) < 0)
		c->nomem = 1;
}

void gs_lint_add(lint_ctx *c, int rule, const gs_node *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(c, rule, gs_lint_where(c, at), fmt, ap);
	va_end(ap);
}

void gs_lint_add_at(lint_ctx *c, int rule, lint_where at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(c, rule, at, fmt, ap);
	va_end(ap);
}

void gs_lint_noted(lint_ctx *c, int rc)
{
	if (rc < 0)
		c->nomem = 1;
}

/* ---- reading values ------------------------------------------------------- */

gs_node *gs_lint_find(const gs_node *map, const char *name, gs_node **key)
{
	if (map && map->kind == GS_NODE_MAP)
		for (size_t i = 0; i < map->n; i++)
			if (strcmp(map->keys[i]->text, name) == 0) {
				if (key)
					*key = map->keys[i];
				return map->items[i];
			}
	return NULL;
}

gs_node *gs_lint_find_ci(const gs_node *map, const char *name, gs_node **key)
{
	gs_node *v = gs_lint_find(map, name, key);
	if (v || !map || map->kind != GS_NODE_MAP)
		return v;
	for (size_t i = 0; i < map->n; i++)
		if (gs_strcaseeq(map->keys[i]->text, name)) {
			if (key)
				*key = map->keys[i];
			return map->items[i];
		}
	return NULL;
}

int gs_lint_int(const gs_node *n, long long *out)
{
	const char *s;
	char *end;
	long long v;

	if (!n || n->kind != GS_NODE_STRING || n->quoted)
		return 0;
	s = n->text;
	if (*s == '+' || *s == '-')
		s++;
	if (!*s || strspn(s, "0123456789") != strlen(s))
		return 0;
	v = strtoll(n->text, &end, 10);
	*out = v;
	return 1;
}

int gs_lint_bool(const gs_node *n, int *out)
{
	/* YAML 1.1 as go-yaml v2 reads it (sigs.k8s.io/yaml). */
	static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES",
		                               "on", "On", "ON", "y", "Y" };
	static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO",
		                              "off", "Off", "OFF", "n", "N" };
	if (!n || n->kind != GS_NODE_STRING || n->quoted)
		return 0;
	for (size_t i = 0; i < GS_ARRAY_LEN(yes); i++) {
		if (strcmp(n->text, yes[i]) == 0)
			return *out = 1, 1;
		if (strcmp(n->text, no[i]) == 0)
			return *out = 0, 1;
	}
	return 0;
}

int gs_lint_is_str(const gs_node *n)
{
	return n && n->kind == GS_NODE_STRING;
}

int gs_lint_is_map(const gs_node *n)
{
	return n && n->kind == GS_NODE_MAP;
}

int gs_lint_streq(const gs_node *n, const char *s)
{
	return gs_lint_is_str(n) && strcmp(n->text, s) == 0;
}

const gs_node *gs_lint_at_or(const gs_node *n, const gs_node *fallback)
{
	return n && n->line ? n : fallback;
}

const char *gs_lint_kind_name(const gs_node *n)
{
	if (!n || n->kind == GS_NODE_NULL)
		return "empty";
	if (n->kind == GS_NODE_MAP)
		return "a mapping";
	if (n->kind == GS_NODE_SEQ)
		return "a list";
	return "a scalar";
}

const char *gs_lint_quote(const gs_node *n, char *buf, size_t size)
{
	size_t o = 0, max = size > 44 ? 40 : size - 4; /* size is at least 8 */
	const char *s;

	if (!n || n->kind == GS_NODE_NULL)
		return "";
	if (n->kind == GS_NODE_MAP || n->kind == GS_NODE_SEQ)
		return gs_lint_kind_name(n);
	for (s = n->text; *s && o < max; s++)
		buf[o++] = (*s == '\n' || *s == '\t') ? ' ' : *s;
	if (*s)
		memcpy(buf + o, "...", 4);
	else
		buf[o] = '\0';
	return buf;
}
