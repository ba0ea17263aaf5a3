/*
 * yaml_emit.c - the one place that writes YAML: every value goes through
 * libyaml's emitter, so no user string can break the document's structure.
 * Trees are walked into its events, and the streaming writer (wr.h) hands
 * it the same events as they come: libyaml's emitter streams already.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/buf.h"
#include "doc/doc.h"
#include "doc/wr.h"

/* libyaml's output handler: appends to a gs_buf, and tells libyaml to
 * stop once the buffer has failed. */
static int write_handler(void *data, unsigned char *chunk, size_t size)
{
	gs_buf *b = data;
	gs_buf_add(b, chunk, size);
	return !b->failed;
}

/* Whether s[0..n) is the lower-case word w but for the case of its ASCII
 * letters: YAML's words are ASCII whatever the locale. */
static int word_is(const char *s, size_t n, const char *w)
{
	size_t i;
	for (i = 0; i < n && w[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != (unsigned char)w[i])
			return 0;
	}
	return i == n && !w[i];
}

/* A string that a YAML 1.1 or 1.2 reader would resolve to something else
 * (a number, a boolean, null) must be quoted to stay a string. Every
 * scalar of every YAML document asks, so the words are compared only
 * where the length allows: asked of each word in full, this was 6 % of a
 * 100,000-replica plan written as YAML. */
int gs_yaml_retyped(const char *s)
{
	static const char *const words[] = {
		"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
		"<<", "=", /* YAML 1.1's merge key and value key */
	};
	size_t n = strlen(s), np;
	const char *p = s;

	if (!n)
		return 1;
	for (size_t i = 0; n <= 5 && i < GS_ARRAY_LEN(words); i++)
		if (word_is(s, n, words[i]))
			return 1;
	if (*p == '+' || *p == '-')
		p++;
	if (*p == '.')
		p++;
	np = n - (size_t)(p - s);
	/* Anything starting like a number (digits, .5, 0x1f, 1e3, .inf). */
	return (*p >= '0' && *p <= '9') || word_is(p, np, "inf") || word_is(p, np, "nan") ||
	       word_is(s, n, ".nan");
}

/* One scalar, in the style both the tree and the streaming writer use. */
static int emit_text(yaml_emitter_t *em, gs_node_kind kind, const char *text)
{
	yaml_event_t ev;
	int is_str = kind == GS_NODE_STRING;
	yaml_scalar_style_t style = YAML_ANY_SCALAR_STYLE;

	if (kind == GS_NODE_NULL)
		text = "null";
	if (is_str && gs_yaml_retyped(text))
		style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	/* A config embedded in a ConfigMap reads best as a literal block;
	 * libyaml falls back to quoting when the text cannot be one. */
	else if (is_str && strchr(text, '\n'))
		style = YAML_LITERAL_SCALAR_STYLE;
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
	                                  (yaml_char_t *)(uintptr_t)text,
	                                  (int)strlen(text), 1, 1, style))
		return -1;
	return yaml_emitter_emit(em, &ev) ? 0 : -1;
}

static int emit_scalar(yaml_emitter_t *em, const gs_node *n)
{
	return emit_text(em, n->kind, n->text ? n->text : "");
}

static int emit_node(yaml_emitter_t *em, const gs_node *n)
{
	yaml_event_t ev;

	if (n->kind != GS_NODE_SEQ && n->kind != GS_NODE_MAP)
		return emit_scalar(em, n);
	if (n->kind == GS_NODE_SEQ) {
		if (!yaml_sequence_start_event_initialize(
		        &ev, NULL, NULL, 1,
		        n->n ? YAML_BLOCK_SEQUENCE_STYLE : YAML_FLOW_SEQUENCE_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -1;
		for (size_t i = 0; i < n->n; i++)
			if (emit_node(em, n->items[i]) < 0)
				return -1;
		if (!yaml_sequence_end_event_initialize(&ev) ||
		    !yaml_emitter_emit(em, &ev))
			return -1;
		return 0;
	}
	if (!yaml_mapping_start_event_initialize(
	        &ev, NULL, NULL, 1,
	        n->n ? YAML_BLOCK_MAPPING_STYLE : YAML_FLOW_MAPPING_STYLE) ||
	    !yaml_emitter_emit(em, &ev))
		return -1;
	for (size_t i = 0; i < n->n; i++)
		if (emit_scalar(em, n->keys[i]) < 0 || emit_node(em, n->items[i]) < 0)
			return -1;
	if (!yaml_mapping_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev))
		return -1;
	return 0;
}

/* The one layout of every YAML gpushare writes. */
static int setup(yaml_emitter_t *em, yaml_write_handler_t *handler, void *data)
{
	if (!yaml_emitter_initialize(em))
		return 0;
	yaml_emitter_set_output(em, handler, data);
	yaml_emitter_set_unicode(em, 1);
	yaml_emitter_set_width(em, -1);
	yaml_emitter_set_indent(em, 2);
	return 1;
}

/* Documents are separated by "---" when there is more than one. */
static int emit_documents(yaml_emitter_t *em, const gs_node *const *docs, size_t n)
{
	yaml_event_t ev;

	if (!yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) ||
	    !yaml_emitter_emit(em, &ev))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, n == 1) ||
		    !yaml_emitter_emit(em, &ev))
			return -1;
		if (emit_node(em, docs[i]) < 0)
			return -1;
		if (!yaml_document_end_event_initialize(&ev, 1) ||
		    !yaml_emitter_emit(em, &ev))
			return -1;
	}
	if (!yaml_stream_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev))
		return -1;
	return yaml_emitter_flush(em) ? 0 : -1;
}

int gs_yaml_render(const gs_node *root, char **out, gs_error *err)
{
	return gs_yaml_render_stream(&root, 1, out, err);
}

int gs_yaml_render_stream(const gs_node *const *docs, size_t n, char **out,
                          gs_error *err)
{
	yaml_emitter_t em;
	gs_buf b = GS_BUF_INIT;
	int rc;

	if (!setup(&em, write_handler, &b))
		return gs_fail_nomem(err);
	rc = emit_documents(&em, docs, n);
	if (rc < 0 && !b.failed && em.error != YAML_MEMORY_ERROR)
		rc = gs_fail(err, GS_EINVAL, "cannot write YAML: %s",
		             em.problem ? em.problem : "emitter error");
	else if (rc < 0)
		rc = gs_fail_nomem(err);
	yaml_emitter_delete(&em);
	if (rc < 0) {
		gs_buf_release(&b);
		return rc;
	}
	return gs_buf_detach(&b, out, err);
}

/* ---- the streaming writer's backend ------------------------------------- */

/* A begun map or sequence waits for the next event: only then is it known
 * to be empty, which the tree path writes in flow style ("{}", "[]"). */
typedef struct yaml_wr {
	yaml_emitter_t em;
	int pending; /* -1: nothing waits; else 1 for a map, 0 for a sequence */
} yaml_wr;

static int stream_handler(void *data, unsigned char *chunk, size_t size)
{
	gs_wr *w = data;
	gs_wr_out(w, (const char *)chunk, size);
	return !w->rc;
}

/* libyaml failed: out of memory, the output stopped, or its own refusal. */
static void yaml_failed(gs_wr *w)
{
	yaml_wr *y = w->be;
	char why[160];
	if (w->rc)
		return;
	if (y->em.error == YAML_MEMORY_ERROR) {
		gs_wr_fail(w, GS_ENOMEM, NULL);
		return;
	}
	/* As gs_yaml_render says it. */
	snprintf(why, sizeof why, "cannot write YAML: %s",
	         y->em.problem ? y->em.problem : "emitter error");
	gs_wr_fail(w, GS_EINVAL, why);
}

static void emitted(gs_wr *w, int ok)
{
	if (!ok)
		yaml_failed(w);
}

static void start_pending(gs_wr *w, int empty)
{
	yaml_wr *y = w->be;
	yaml_event_t ev;
	int ok;

	if (y->pending < 0 || w->rc)
		return;
	if (y->pending)
		ok = yaml_mapping_start_event_initialize(
			&ev, NULL, NULL, 1,
			empty ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	else
		ok = yaml_sequence_start_event_initialize(
			&ev, NULL, NULL, 1,
			empty ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	y->pending = -1;
	emitted(w, ok && yaml_emitter_emit(&y->em, &ev));
}

static void yaml_open(gs_wr *w, int map)
{
	start_pending(w, 0);
	((yaml_wr *)w->be)->pending = map;
}

static void yaml_close(gs_wr *w, int map, size_t n)
{
	yaml_wr *y = w->be;
	yaml_event_t ev;
	int ok;

	start_pending(w, n == 0);
	if (w->rc)
		return;
	ok = map ? yaml_mapping_end_event_initialize(&ev)
	         : yaml_sequence_end_event_initialize(&ev);
	emitted(w, ok && yaml_emitter_emit(&y->em, &ev));
}

static void yaml_scalar(gs_wr *w, gs_node_kind kind, const char *text)
{
	start_pending(w, 0);
	if (!w->rc)
		emitted(w, emit_text(&((yaml_wr *)w->be)->em, kind, text) == 0);
}

static void yaml_key(gs_wr *w, const char *key)
{
	yaml_scalar(w, GS_NODE_STRING, key);
}

static void yaml_finish(gs_wr *w)
{
	yaml_wr *y = w->be;
	yaml_event_t ev;
	emitted(w, yaml_document_end_event_initialize(&ev, 1) &&
	               yaml_emitter_emit(&y->em, &ev) &&
	               yaml_stream_end_event_initialize(&ev) &&
	               yaml_emitter_emit(&y->em, &ev) && yaml_emitter_flush(&y->em));
}

static void yaml_free(gs_wr *w)
{
	yaml_wr *y = w->be;
	if (!y)
		return;
	yaml_emitter_delete(&y->em);
	free(y);
}

int gs_wr_yaml_start(gs_wr *w)
{
	yaml_wr *y = calloc(1, sizeof *y);
	yaml_event_t ev;

	if (!y)
		return -1;
	if (!setup(&y->em, stream_handler, w)) {
		free(y);
		return -1;
	}
	y->pending = -1;
	w->be = y;
	/* One document, its start implicit: as gs_yaml_render writes one. */
	emitted(w, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
	               yaml_emitter_emit(&y->em, &ev) &&
	               yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
	               yaml_emitter_emit(&y->em, &ev));
	return 0;
}

const gs_wr_ops gs_wr_yaml_ops = {
	yaml_open, yaml_close, yaml_key, yaml_scalar, yaml_finish, yaml_free,
};
