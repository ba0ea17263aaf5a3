/*
 * json.c - the one place that touches cJSON. Trees are written as JSON
 * with two-space indentation and one member per line; cJSON escapes every
 * string, so no user text can break the document. Numbers are written
 * with the exact text the tree holds.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct out {
	char *buf;
	size_t len, cap;
	int failed;
} out;

static void put(out *o, const char *s, size_t n)
{
	if (o->failed || gs_grow(&o->buf, &o->cap, o->len + n + 1, 1) < 0) {
		o->failed = 1;
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

static void indent(out *o, int depth)
{
	for (int i = 0; i < depth; i++)
		put(o, "  ", 2);
}

static void string(out *o, const char *s)
{
	cJSON *j = cJSON_CreateString(s);
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;
	if (!text)
		o->failed = 1;
	else
		puts_(o, text);
	cJSON_free(text);
	cJSON_Delete(j);
}

static void value(out *o, const gs_node *n, int depth)
{
	int map = n->kind == GS_NODE_MAP;

	switch (n->kind) {
	case GS_NODE_NULL: puts_(o, "null"); return;
	case GS_NODE_BOOL:
	case GS_NODE_NUMBER: puts_(o, n->text); return;
	case GS_NODE_STRING: string(o, n->text); return;
	default: break;
	}
	if (n->n == 0) {
		puts_(o, map ? "{}" : "[]");
		return;
	}
	puts_(o, map ? "{\n" : "[\n");
	for (size_t i = 0; i < n->n; i++) {
		indent(o, depth + 1);
		if (map) {
			string(o, n->keys[i]->text);
			puts_(o, ": ");
		}
		value(o, n->items[i], depth + 1);
		puts_(o, i + 1 < n->n ? ",\n" : "\n");
	}
	indent(o, depth);
	puts_(o, map ? "}" : "]");
}

int gs_json_render(const gs_node *root, char **res, gs_error *err)
{
	out o = { NULL, 0, 0, 0 };
	value(&o, root, 0);
	puts_(&o, "\n");
	if (o.failed) {
		free(o.buf);
		return gs_fail_nomem(err);
	}
	*res = o.buf;
	return 0;
}
