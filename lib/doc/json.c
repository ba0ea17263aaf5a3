/*
 * json.c - the one place that touches cJSON. Trees are written as JSON
 * with two-space indentation and one member per line; cJSON escapes every
 * string, so no user text can break the document. Numbers are written
 * with the exact text the tree holds.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "doc/doc.h"

static void indent(gs_buf *b, int depth)
{
	for (int i = 0; i < depth; i++)
		gs_buf_puts(b, "  ");
}

static void string(gs_buf *b, const char *s)
{
	cJSON *j = cJSON_CreateString(s);
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;
	if (!text)
		b->failed = 1;
	else
		gs_buf_puts(b, text);
	cJSON_free(text);
	cJSON_Delete(j);
}

static void value(gs_buf *b, const gs_node *n, int depth)
{
	int map = n->kind == GS_NODE_MAP;

	switch (n->kind) {
	case GS_NODE_NULL: gs_buf_puts(b, "null"); return;
	case GS_NODE_BOOL:
	case GS_NODE_NUMBER: gs_buf_puts(b, n->text); return;
	case GS_NODE_STRING: string(b, n->text); return;
	default: break;
	}
	if (n->n == 0) {
		gs_buf_puts(b, map ? "{}" : "[]");
		return;
	}
	gs_buf_puts(b, map ? "{\n" : "[\n");
	for (size_t i = 0; i < n->n; i++) {
		indent(b, depth + 1);
		if (map) {
			string(b, n->keys[i]->text);
			gs_buf_puts(b, ": ");
		}
		value(b, n->items[i], depth + 1);
		gs_buf_puts(b, i + 1 < n->n ? ",\n" : "\n");
	}
	indent(b, depth);
	gs_buf_puts(b, map ? "}" : "]");
}

int gs_json_render(const gs_node *root, char **res, gs_error *err)
{
	gs_buf b = GS_BUF_INIT;
	value(&b, root, 0);
	gs_buf_puts(&b, "\n");
	return gs_buf_detach(&b, res, err);
}

/* ---- reading --------------------------------------------------------------- */

static gs_node *from_cjson(const cJSON *j, int depth, size_t *count)
{
	gs_node *n = NULL;
	char num[64];

	if (depth > GS_READ_MAX_DEPTH || ++*count > GS_READ_MAX_NODES)
		return NULL;
	if (cJSON_IsNull(j))
		return gs_node_new(GS_NODE_NULL, "null");
	if (cJSON_IsBool(j))
		return gs_node_bool(cJSON_IsTrue(j));
	if (cJSON_IsNumber(j)) {
		/* Integers keep their digits; others go through %.17g. */
		double d = j->valuedouble;
		if (d >= -9007199254740992.0 && d <= 9007199254740992.0 && d == (double)(int64_t)d)
			snprintf(num, sizeof num, "%lld", (long long)d);
		else
			snprintf(num, sizeof num, "%.17g", d);
		return gs_node_new(GS_NODE_NUMBER, num);
	}
	if (cJSON_IsString(j))
		return gs_node_new(GS_NODE_STRING, j->valuestring);
	if (!cJSON_IsArray(j) && !cJSON_IsObject(j))
		return NULL;
	if (!(n = gs_node_new(cJSON_IsArray(j) ? GS_NODE_SEQ : GS_NODE_MAP, NULL)))
		return NULL;
	for (const cJSON *c = j->child; c; c = c->next) {
		gs_node *v = from_cjson(c, depth + 1, count);
		int rc = n->kind == GS_NODE_SEQ ? gs_node_push(n, v)
		                                : gs_node_put(n, c->string ? c->string : "", v);
		if (rc < 0) {
			gs_node_free(n);
			return NULL;
		}
	}
	return n;
}

/* Where cJSON stopped, as a 1-based line and column. */
static void position(const char *buf, const char *at, unsigned long *line,
                     unsigned long *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = buf; p < at && *p; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int gs_json_read_buffer(const char *name, const char *buf, size_t len,
                        gs_node **out, gs_error *err)
{
	const char *end = NULL;
	size_t count = 0;
	cJSON *j;
	gs_node *n;

	if (len > GS_READ_MAX_BYTES)
		return gs_fail_at(err, GS_ELIMIT, name, 0, 0,
		                  "file is larger than the %u MiB limit", GS_READ_MAX_BYTES >> 20);
	if (memchr(buf, '\0', len))
		return gs_fail_at(err, GS_ESYNTAX, name, 0, 0, "NUL byte in the file");
	/* Parse the given bytes, then allow only white space after them: the
	 * buffer's length excludes its NUL, so cJSON's own NUL check cannot
	 * be used. */
	j = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	while (j && end && end < buf + len && (*end == ' ' || *end == '\t' || *end == '\n' ||
	                                       *end == '\r'))
		end++;
	if (j && end && end < buf + len) {
		cJSON_Delete(j);
		j = NULL;
	}
	if (!j) {
		unsigned long line, col;
		position(buf, end ? end : buf + len, &line, &col);
		return gs_fail_at(err, GS_ESYNTAX, name, line, col,
		                  end && end < buf + len ? "invalid JSON" : "JSON ends too early");
	}
	n = from_cjson(j, 0, &count);
	cJSON_Delete(j);
	if (!n)
		return count > GS_READ_MAX_NODES
		           ? gs_fail_at(err, GS_ELIMIT, name, 0, 0, "too many values in one file")
		           : gs_fail_at(err, GS_ELIMIT, name, 0, 0,
		                        "nesting is deeper than 64 levels or out of memory");
	*out = n;
	return 0;
}

int gs_json_read_file(const char *path, gs_node **out, gs_error *err)
{
	char *buf;
	size_t len;
	int rc = gs_file_read(path, &buf, &len, err);
	if (rc < 0)
		return rc;
	rc = gs_json_read_buffer(strcmp(path, "-") == 0 ? "<stdin>" : path, buf, len, out, err);
	free(buf);
	return rc;
}
