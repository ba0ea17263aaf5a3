/*
 * wr.h - inside the streaming writer (writer.c): its state and what a
 * format backend (writer_json.c, yaml_emit.c, writer_tree.c) implements.
 * Only lib/doc includes this.
 */
#ifndef GS_DOC_WR_H
#define GS_DOC_WR_H

#include <string.h>

#include "doc/doc.h"

/* The backend's hooks. writer.c calls each before it updates its levels,
 * so w->depth is the depth of the parent of the value being begun (open,
 * scalar) and of the container being ended (close, after its pop). */
typedef struct gs_wr_ops {
	void (*open)(gs_wr *w, int map);
	void (*close)(gs_wr *w, int map, size_t n); /* n: the entries it held */
	void (*key)(gs_wr *w, const char *key);
	void (*scalar)(gs_wr *w, gs_node_kind kind, const char *text);
	void (*finish)(gs_wr *w); /* the document is complete */
	void (*free)(gs_wr *w);   /* also after a failure */
} gs_wr_ops;

typedef struct gs_wr_level {
	unsigned char map;   /* a map, not a sequence */
	unsigned char keyed; /* a map whose key awaits its value */
	size_t n;            /* finished entries */
} gs_wr_level;

#define GS_WR_CHUNK 65536

struct gs_wr {
	const gs_wr_ops *ops;
	int rc;              /* the first failure (a GS_E* code), or 0 */
	char why[160];       /* its message, when not out of memory */
	int done;            /* the root value is written */
	size_t depth;        /* open maps and sequences */
	gs_wr_level lv[GS_WR_MAX_DEPTH];
	void *be;            /* the backend's own state */
	gs_write_fn write;
	void *ctx;
	size_t used;
	char out[GS_WR_CHUNK];
};

/* wr_out.c. Records the first failure (why: its message, copied; NULL
 * when out of memory). */
void gs_wr_fail(gs_wr *w, int rc, const char *why);
/* Appends bytes to the output, handing full chunks to write. */
void gs_wr_out_slow(gs_wr *w, const char *data, size_t n);
/* The same; most appends are a few bytes that fit the chunk, so they are
 * inlined. (Bytes after a failure land in the chunk and are never
 * written.) */
static inline void gs_wr_out(gs_wr *w, const char *data, size_t n)
{
	if (n < GS_WR_CHUNK - w->used) {
		memcpy(w->out + w->used, data, n);
		w->used += n;
	} else {
		gs_wr_out_slow(w, data, n);
	}
}
void gs_wr_puts(gs_wr *w, const char *s);
/* Hands what the chunk holds to write. */
void gs_wr_flush(gs_wr *w);

extern const gs_wr_ops gs_wr_json_ops, gs_wr_yaml_ops, gs_wr_tree_ops;
/* The backends that need state set w->be up here (yaml_emit.c, writer_tree.c). */
int gs_wr_yaml_start(gs_wr *w);
int gs_wr_tree_start(gs_wr *w);
/* writer_tree.c: hands over the tree of a finished writer. */
gs_node *gs_wr_tree_take(gs_wr *w);

#endif
