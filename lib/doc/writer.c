/*
 * writer.c - the streaming document writer: checks that the calls
 * describe one well-formed document, keeps one level of state per open
 * map or sequence, and hands every event to the format's backend. Output
 * goes through one fixed chunk, so writing a document of any size takes
 * the same memory (wr_out.c).
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "doc/wr.h"

static int make(const gs_wr_ops *ops, gs_write_fn write, void *ctx, gs_wr **out,
                gs_error *err)
{
	gs_wr *w = calloc(1, sizeof *w);
	int rc = 0;
	if (!w)
		return gs_fail_nomem(err);
	w->ops = ops;
	w->write = write;
	w->ctx = ctx;
	if (ops == &gs_wr_yaml_ops)
		rc = gs_wr_yaml_start(w);
	else if (ops == &gs_wr_tree_ops)
		rc = gs_wr_tree_start(w);
	if (rc < 0) {
		free(w);
		return gs_fail_nomem(err);
	}
	*out = w;
	return 0;
}

int gs_wr_new(gs_format fmt, gs_write_fn write, void *ctx, gs_wr **out, gs_error *err)
{
	if (!write || !out)
		return gs_fail(err, GS_EINVAL, "no output to write the document to");
	return make(fmt == GS_FORMAT_JSON ? &gs_wr_json_ops : &gs_wr_yaml_ops, write, ctx,
	            out, err);
}

int gs_wr_new_tree(gs_wr **out, gs_error *err)
{
	return make(&gs_wr_tree_ops, NULL, NULL, out, err);
}

/* Whether a value (or, with key, a key) may come now. */
static int may(gs_wr *w, int key)
{
	const gs_wr_level *top = w->depth ? &w->lv[w->depth - 1] : NULL;
	int ok = top ? (top->map ? key != top->keyed : !key) : !key && !w->done;
	if (!ok)
		gs_wr_fail(w, GS_EINVAL, "a document described out of order");
	return ok && !w->rc;
}

/* A value is complete: it counts in its parent, or ends the document. */
static void wrote(gs_wr *w)
{
	if (!w->depth) {
		w->done = 1;
		return;
	}
	w->lv[w->depth - 1].keyed = 0;
	w->lv[w->depth - 1].n++;
}

static void begin(gs_wr *w, int map)
{
	if (!may(w, 0))
		return;
	if (w->depth == GS_WR_MAX_DEPTH) {
		gs_wr_fail(w, GS_ELIMIT, "a document nested too deeply");
		return;
	}
	w->ops->open(w, map);
	w->lv[w->depth++] = (gs_wr_level){ (unsigned char)map, 0, 0 };
}

void gs_wr_map(gs_wr *w) { begin(w, 1); }
void gs_wr_seq(gs_wr *w) { begin(w, 0); }

void gs_wr_end(gs_wr *w)
{
	gs_wr_level top;
	if (w->rc)
		return;
	if (!w->depth || w->lv[w->depth - 1].keyed) {
		gs_wr_fail(w, GS_EINVAL, "a document described out of order");
		return;
	}
	top = w->lv[--w->depth];
	w->ops->close(w, top.map, top.n);
	wrote(w);
}

void gs_wr_key(gs_wr *w, const char *key)
{
	if (!may(w, 1))
		return;
	w->ops->key(w, key);
	w->lv[w->depth - 1].keyed = 1;
}

static void scalar(gs_wr *w, gs_node_kind kind, const char *text)
{
	if (!may(w, 0))
		return;
	w->ops->scalar(w, kind, text);
	wrote(w);
}

void gs_wr_str(gs_wr *w, const char *s)
{
	scalar(w, s ? GS_NODE_STRING : GS_NODE_NULL, s ? s : "null");
}

void gs_wr_null(gs_wr *w) { scalar(w, GS_NODE_NULL, "null"); }
void gs_wr_bool(gs_wr *w, int v) { scalar(w, GS_NODE_BOOL, v ? "true" : "false"); }

void gs_wr_int(gs_wr *w, int64_t v)
{
	char buf[GS_NUMBER_TEXT];
	gs_number_int(v, buf);
	scalar(w, GS_NODE_NUMBER, buf);
}

void gs_wr_money(gs_wr *w, gs_micros m, int decimals)
{
	char buf[GS_NUMBER_TEXT];
	gs_number_money(m, decimals, buf);
	scalar(w, GS_NODE_NUMBER, buf);
}

void gs_wr_fixed(gs_wr *w, int64_t v, int scale, int decimals)
{
	char buf[GS_NUMBER_TEXT];
	gs_number_fixed(v, scale, decimals, buf);
	scalar(w, GS_NODE_NUMBER, buf);
}

/* Ends the document and reports the first failure; w stays to be freed. */
static int end(gs_wr *w, gs_error *err)
{
	if (!w->rc && (w->depth || !w->done))
		gs_wr_fail(w, GS_EINVAL, "an unfinished document");
	if (!w->rc)
		w->ops->finish(w);
	gs_wr_flush(w);
	if (w->rc == GS_ENOMEM && !w->why[0])
		return gs_fail_nomem(err);
	return w->rc ? gs_fail(err, w->rc, "%s", w->why) : 0;
}

static void release(gs_wr *w)
{
	if (w->ops->free)
		w->ops->free(w);
	free(w);
}

int gs_wr_finish(gs_wr *w, gs_error *err)
{
	int rc = end(w, err);
	release(w);
	return rc;
}

int gs_wr_finish_tree(gs_wr *w, gs_node **root, gs_error *err)
{
	int rc = end(w, err);
	if (rc == 0)
		*root = gs_wr_tree_take(w);
	release(w);
	return rc;
}

int gs_wr_to_buf(void *ctx, const char *data, size_t len)
{
	gs_buf *b = ctx;
	gs_buf_add(b, data, len);
	return b->failed ? GS_ENOMEM : 0;
}
