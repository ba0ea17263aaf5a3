/*
 * yaml_read.c - the one place that parses YAML: libyaml events become a
 * gs_node tree with 1-based positions. libyaml's conventions (1/0 returns,
 * 0-based marks) stay in this file.
 */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "doc/doc.h"

typedef struct reader {
	yaml_parser_t parser;
	const char *buf;           /* for positions of encoding errors */
	size_t len;
	const char *name;
	gs_error *err;
	size_t nodes;
	int depth;
	/* The children of the maps and sequences being read, innermost last
	 * (a map's as key, value, key, ...): each gets arrays of its exact
	 * size when it ends, where growing them by doubling took two mallocs
	 * and two reallocs for a workload's seven keys. */
	gs_node **kids;
	size_t nkids, capkids;
} reader;

static int parser_error(reader *r)
{
	yaml_parser_t *p = &r->parser;
	const char *what = p->problem ? p->problem : "invalid YAML";

	if (p->error == YAML_MEMORY_ERROR)
		return gs_fail_nomem(r->err);
	/* Encoding errors come as a byte offset, not a mark. */
	if (p->error == YAML_READER_ERROR) {
		unsigned long line = 1, col = 1;
		for (size_t i = 0; i < p->problem_offset && i < r->len; i++) {
			if (r->buf[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)r->buf[i] & 0xC0) != 0x80) {
				col++;
			}
		}
		return gs_fail_at(r->err, GS_ESYNTAX, r->name, line, col,
		                  "%s (the file must be UTF-8)", what);
	}
	/* libyaml reports an unclosed quote at the end of the file; the
	 * place to fix is where the quote opened. */
	if (p->context && strstr(p->context, "quoted scalar") && p->problem &&
	    strstr(p->problem, "end of stream"))
		return gs_fail_at(r->err, GS_ESYNTAX, r->name, p->context_mark.line + 1,
		                  p->context_mark.column + 1,
		                  "unterminated quoted string (the file ends before its "
		                  "closing quote)");
	if (p->context)
		return gs_fail_at(r->err, GS_ESYNTAX, r->name,
		                  p->problem_mark.line + 1,
		                  p->problem_mark.column + 1, "%s %s", what,
		                  p->context);
	return gs_fail_at(r->err, GS_ESYNTAX, r->name, p->problem_mark.line + 1,
	                  p->problem_mark.column + 1, "%s", what);
}

static int next(reader *r, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&r->parser, ev))
		return parser_error(r);
	return 0;
}

static gs_node *at(gs_node *n, const yaml_event_t *ev)
{
	if (n) {
		n->line = ev->start_mark.line + 1;
		n->col = ev->start_mark.column + 1;
	}
	return n;
}

static int parse_node(reader *r, yaml_event_t *ev, gs_node **out);

static int fail_ev(reader *r, const yaml_event_t *ev, int code, const char *msg)
{
	return gs_fail_at(r->err, code, r->name, ev->start_mark.line + 1,
	                  ev->start_mark.column + 1, "%s", msg);
}

/* YAML's plain spellings of null. By length first: this runs on each of
 * the millions of scalars of a large file, most of them not null. */
static int is_null(const char *text, size_t len)
{
	if (len == 0)
		return 1;
	if (len == 1)
		return text[0] == '~';
	return len == 4 && (strcmp(text, "null") == 0 || strcmp(text, "Null") == 0 ||
	                    strcmp(text, "NULL") == 0);
}

static int parse_scalar(reader *r, yaml_event_t *ev, gs_node **out)
{
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	gs_node *n;

	if (strlen(text) != len)
		return fail_ev(r, ev, GS_ESYNTAX, "NUL byte in a value");
	n = at(gs_node_new(GS_NODE_STRING, text), ev);
	if (!n)
		return gs_fail_nomem(r->err);
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
	/* Plain null spellings are kept as nulls so loaders can tell
	 * `spot: null` from `spot: "null"`. */
	if (!n->quoted && is_null(text, len))
		n->kind = GS_NODE_NULL;
	*out = n;
	return 0;
}

static int push_kid(reader *r, gs_node *n)
{
	if (gs_grow(&r->kids, &r->capkids, r->nkids + 1, sizeof *r->kids) < 0) {
		gs_node_free(n);
		return gs_fail_nomem(r->err);
	}
	r->kids[r->nkids++] = n;
	return 0;
}

/* Drops the children above `from` (a failed map or sequence's). */
static void drop_kids(reader *r, size_t from)
{
	while (r->nkids > from)
		gs_node_free(r->kids[--r->nkids]);
}

/* Hands the children above `from` to n: a map's alternate keys and values
 * (step 2), a sequence's items (step 1). */
static int adopt_kids(reader *r, gs_node *n, size_t from, size_t step)
{
	size_t count = (r->nkids - from) / step;
	if (count) {
		if ((step == 2 && !(n->keys = malloc(count * sizeof *n->keys))) ||
		    !(n->items = malloc(count * sizeof *n->items))) {
			drop_kids(r, from);
			return gs_fail_nomem(r->err);
		}
		for (size_t i = 0; i < count; i++) {
			if (step == 2)
				n->keys[i] = r->kids[from + 2 * i];
			n->items[i] = r->kids[from + step * i + step - 1];
		}
	}
	n->n = n->cap = count;
	r->nkids = from;
	return 0;
}

static int key_is_duplicate(const reader *r, size_t from, const gs_node *key)
{
	/* First bytes first: a workload's seven keys are 21 comparisons. */
	for (size_t i = from; i < r->nkids; i += 2)
		if (r->kids[i]->text[0] == key->text[0] &&
		    strcmp(r->kids[i]->text, key->text) == 0)
			return 1;
	return 0;
}

/* One entry of a map onto the children: 0, 1 at the map's end, or an
 * error. */
static int map_entry(reader *r, size_t from)
{
	yaml_event_t ev;
	gs_node *key = NULL, *val = NULL;
	int rc;

	if ((rc = next(r, &ev)) < 0)
		return rc;
	if (ev.type == YAML_MAPPING_END_EVENT) {
		yaml_event_delete(&ev);
		return 1;
	}
	if (ev.type != YAML_SCALAR_EVENT) {
		rc = ev.type == YAML_ALIAS_EVENT
		         ? fail_ev(r, &ev, GS_ESYNTAX, "aliases are not supported")
		         : fail_ev(r, &ev, GS_ESYNTAX, "a key must be a plain string");
		yaml_event_delete(&ev);
		return rc;
	}
	rc = parse_node(r, &ev, &key);
	yaml_event_delete(&ev);
	if (rc < 0)
		return rc;
	if (key->kind == GS_NODE_NULL)
		key->kind = GS_NODE_STRING;
	if (key_is_duplicate(r, from, key)) {
		rc = gs_fail_node(r->err, GS_ESCHEMA, r->name, key, "duplicate key '%s'",
		                  key->text);
		gs_node_free(key);
		return rc;
	}
	if ((rc = push_kid(r, key)) < 0 || (rc = next(r, &ev)) < 0)
		return rc;
	rc = parse_node(r, &ev, &val);
	yaml_event_delete(&ev);
	return rc < 0 ? rc : push_kid(r, val);
}

/* One item of a sequence, the same way. */
static int seq_item(reader *r)
{
	yaml_event_t ev;
	gs_node *item = NULL;
	int rc;

	if ((rc = next(r, &ev)) < 0)
		return rc;
	if (ev.type == YAML_SEQUENCE_END_EVENT) {
		yaml_event_delete(&ev);
		return 1;
	}
	rc = parse_node(r, &ev, &item);
	yaml_event_delete(&ev);
	return rc < 0 ? rc : push_kid(r, item);
}

static int parse_children(reader *r, gs_node *n)
{
	size_t from = r->nkids;
	int map = n->kind == GS_NODE_MAP, rc;
	while ((rc = map ? map_entry(r, from) : seq_item(r)) == 0)
		;
	if (rc < 0) {
		drop_kids(r, from);
		return rc;
	}
	return adopt_kids(r, n, from, map ? 2 : 1);
}

static int parse_node(reader *r, yaml_event_t *ev, gs_node **out)
{
	gs_node *n;
	int rc;

	if (++r->nodes > GS_READ_MAX_NODES)
		return fail_ev(r, ev, GS_ELIMIT, "too many values in one file");
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		/* Aliases are how "billion laughs" files explode; no profile or
		 * workload needs them. */
		return fail_ev(r, ev, GS_ESYNTAX, "aliases are not supported");
	case YAML_SCALAR_EVENT:
		if (ev->data.scalar.anchor)
			return fail_ev(r, ev, GS_ESYNTAX, "anchors are not supported");
		return parse_scalar(r, ev, out);
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		break;
	default:
		return fail_ev(r, ev, GS_ESYNTAX, "unexpected YAML event");
	}
	if ((ev->type == YAML_MAPPING_START_EVENT && ev->data.mapping_start.anchor) ||
	    (ev->type == YAML_SEQUENCE_START_EVENT && ev->data.sequence_start.anchor))
		return fail_ev(r, ev, GS_ESYNTAX, "anchors are not supported");
	if (++r->depth > GS_READ_MAX_DEPTH)
		return fail_ev(r, ev, GS_ELIMIT, "nesting is deeper than 64 levels");
	n = at(gs_node_new(ev->type == YAML_MAPPING_START_EVENT ? GS_NODE_MAP
	                                                         : GS_NODE_SEQ,
	                   NULL),
	       ev);
	if (!n)
		return gs_fail_nomem(r->err);
	rc = parse_children(r, n);
	r->depth--;
	if (rc < 0) {
		gs_node_free(n);
		return rc;
	}
	*out = n;
	return 0;
}

/* Reads events up to and including `type`, failing on anything else. */
static int expect(reader *r, yaml_event_type_t type, yaml_event_t *ev)
{
	int rc = next(r, ev);
	if (rc < 0)
		return rc;
	if (ev->type != type) {
		rc = fail_ev(r, ev, GS_ESYNTAX,
		             type == YAML_STREAM_END_EVENT
		                 ? "more than one YAML document"
		                 : "unexpected YAML event");
		yaml_event_delete(ev);
		return rc;
	}
	return 0;
}

static int parse_stream(reader *r, gs_node **out)
{
	yaml_event_t ev;
	gs_node *root = NULL;
	int rc;

	if ((rc = expect(r, YAML_STREAM_START_EVENT, &ev)) < 0)
		return rc;
	yaml_event_delete(&ev);
	if ((rc = next(r, &ev)) < 0)
		return rc;
	if (ev.type == YAML_STREAM_END_EVENT) {
		yaml_event_delete(&ev);
		*out = gs_node_new(GS_NODE_NULL, "");
		return *out ? 0 : gs_fail_nomem(r->err);
	}
	yaml_event_delete(&ev); /* document start */
	if ((rc = next(r, &ev)) < 0)
		return rc;
	rc = parse_node(r, &ev, &root);
	yaml_event_delete(&ev);
	if (rc < 0)
		return rc;
	if ((rc = expect(r, YAML_DOCUMENT_END_EVENT, &ev)) < 0)
		goto fail;
	yaml_event_delete(&ev);
	if ((rc = expect(r, YAML_STREAM_END_EVENT, &ev)) < 0)
		goto fail;
	yaml_event_delete(&ev);
	*out = root;
	return 0;
fail:
	gs_node_free(root);
	return rc;
}

/* The checks libyaml does not make, and a parser on buf. */
static int reader_open(reader *r, const char *name, const char *buf, size_t len,
                       gs_error *err)
{
	if (len > GS_READ_MAX_BYTES)
		return gs_fail_at(err, GS_ELIMIT, name, 0, 0,
		                  "file is larger than the %u MiB limit",
		                  GS_READ_MAX_BYTES >> 20);
	if (memchr(buf, '\0', len)) {
		size_t off = (size_t)((const char *)memchr(buf, '\0', len) - buf);
		unsigned long line = 1, col = 1;
		for (size_t i = 0; i < off; i++, col++)
			if (buf[i] == '\n') {
				line++;
				col = 0;
			}
		return gs_fail_at(err, GS_ESYNTAX, name, line, col,
		                  "NUL byte in the file");
	}
	memset(r, 0, sizeof *r);
	r->name = name;
	r->err = err;
	r->buf = buf;
	r->len = len;
	if (!yaml_parser_initialize(&r->parser))
		return gs_fail_nomem(err);
	yaml_parser_set_input_string(&r->parser, (const unsigned char *)buf, len);
	return 0;
}

int gs_yaml_read_buffer(const char *name, const char *buf, size_t len,
                        gs_node **out, gs_error *err)
{
	reader r;
	int rc;

	if ((rc = reader_open(&r, name, buf, len, err)) < 0)
		return rc;
	rc = parse_stream(&r, out);
	yaml_parser_delete(&r.parser);
	free(r.kids);
	return rc;
}

static void free_docs(gs_node **docs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		gs_node_free(docs[i]);
	free(docs);
}

/* Every document up to the end of the stream; empty ones are left out. */
static int parse_documents(reader *r, gs_node ***docs, size_t *n)
{
	yaml_event_t ev;
	size_t cap = 0;
	int rc;

	if ((rc = expect(r, YAML_STREAM_START_EVENT, &ev)) < 0)
		return rc;
	yaml_event_delete(&ev);
	for (;;) {
		gs_node *root = NULL;
		if ((rc = next(r, &ev)) < 0)
			return rc;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		yaml_event_delete(&ev); /* document start */
		if ((rc = next(r, &ev)) < 0)
			return rc;
		rc = parse_node(r, &ev, &root);
		yaml_event_delete(&ev);
		if (rc < 0)
			return rc;
		if ((rc = expect(r, YAML_DOCUMENT_END_EVENT, &ev)) < 0) {
			gs_node_free(root);
			return rc;
		}
		yaml_event_delete(&ev);
		if (root->kind == GS_NODE_NULL) {
			gs_node_free(root);
			continue;
		}
		if (gs_grow(docs, &cap, *n + 1, sizeof **docs) < 0) {
			gs_node_free(root);
			return gs_fail_nomem(r->err);
		}
		(*docs)[(*n)++] = root;
	}
}

int gs_yaml_read_stream(const char *name, const char *buf, size_t len, gs_node ***docs,
                        size_t *n, gs_error *err)
{
	reader r;
	int rc;

	*docs = NULL;
	*n = 0;
	if ((rc = reader_open(&r, name, buf, len, err)) < 0)
		return rc;
	rc = parse_documents(&r, docs, n);
	yaml_parser_delete(&r.parser);
	free(r.kids);
	if (rc < 0) {
		free_docs(*docs, *n);
		*docs = NULL;
		*n = 0;
	}
	return rc;
}

int gs_yaml_read_file(const char *path, gs_node **out, gs_error *err)
{
	char *buf;
	size_t len;
	int rc = gs_file_read(path, &buf, &len, err);
	if (rc < 0)
		return rc;
	rc = gs_yaml_read_buffer(strcmp(path, "-") == 0 ? "<stdin>" : path, buf,
	                         len, out, err);
	free(buf);
	return rc;
}
