/*
 * doc.h - the document tree every reader fills and every writer renders.
 *
 * YAML and JSON input are parsed into this tree (with source positions), so
 * the loaders never see libyaml or cJSON; JSON and YAML output are rendered
 * from it, so both formats carry exactly the same content. A document too
 * large to hold (a plan of 10^6 replicas) is written through the streaming
 * writer below instead, to the same bytes.
 */
#ifndef GS_DOC_H
#define GS_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

typedef enum gs_node_kind {
	GS_NODE_NULL,
	GS_NODE_BOOL,
	GS_NODE_NUMBER, /* text holds the number exactly as it is written */
	GS_NODE_STRING,
	GS_NODE_SEQ,
	GS_NODE_MAP
} gs_node_kind;

typedef struct gs_node gs_node;
struct gs_node {
	gs_node_kind kind;
	char *text;          /* scalars: their text ("true", "12.24", "a"),
	                      * in the node's block: never freed or replaced
	                      * alone */
	int quoted;          /* input scalar was quoted: never a number */
	unsigned long line;  /* 1-based position in the source, 0 if none */
	unsigned long col;
	gs_node **keys;      /* maps: string nodes, parallel to items */
	gs_node **items;     /* maps: values; sequences: elements */
	size_t n, cap;
};

struct gs_doc {
	gs_node *root;
};

/* Constructors return NULL when out of memory. */
gs_node *gs_node_new(gs_node_kind kind, const char *text);
gs_node *gs_node_str(const char *s);       /* NULL s gives a null node */
gs_node *gs_node_int(int64_t v);
gs_node *gs_node_bool(int v);
/* Exact dollars with at least `decimals` decimals: 12.24, 21.957642. */
gs_node *gs_node_money(gs_micros m, int decimals);
gs_node *gs_node_fixed(int64_t v, int scale, int decimals); /* v/scale */
void gs_node_free(gs_node *n);

/* Append to a map or sequence; they take ownership of val (freeing it on
 * failure) and return 0 or -1 when val is NULL or memory runs out, so calls
 * can be or-ed together and checked once. */
int gs_node_put(gs_node *map, const char *key, gs_node *val);
int gs_node_push(gs_node *seq, gs_node *val);
/* For readers: append with a key node that carries its position. */
int gs_node_put_node(gs_node *map, gs_node *key, gs_node *val);

/* The end of a builder whose puts and pushes were or-ed into rc: n, or
 * NULL (n freed) when any of them failed. */
gs_node *gs_node_done(gs_node *n, int rc);

/* A deep copy of n (positions and all); NULL when out of memory. */
gs_node *gs_node_clone(const gs_node *n);

/* Lookup in a map by key; NULL when absent or not a map. */
gs_node *gs_node_get(const gs_node *map, const char *key);

/* Wraps root (taking ownership) in a gs_doc, or frees root on failure. */
int gs_doc_wrap(gs_node *root, gs_doc **out, gs_error *err);

/* ---- the seams -------------------------------------------------------- */

/* Read limits, shared by the YAML and JSON readers (and GS_READ_MAX_BYTES). */
#define GS_READ_MAX_DEPTH 64
#define GS_READ_MAX_NODES 4000000

/* yaml_read.c: parses one YAML document from a file (path "-" is stdin) or
 * from a buffer named `name` in messages. Refuses anchors and aliases,
 * duplicate keys, non-scalar keys, more than one document, NUL bytes and
 * input over the limits. An empty document gives a GS_NODE_NULL root. */
int gs_yaml_read_file(const char *path, gs_node **out, gs_error *err);
int gs_yaml_read_buffer(const char *name, const char *buf, size_t len,
                        gs_node **out, gs_error *err);

/* yaml_read.c: parses a stream of YAML documents ("---" between them) from
 * a buffer, with the refusals above but for more than one document. *docs
 * (the caller frees each and the array) gets the n documents that are not
 * empty, in order; positions are the stream's. */
int gs_yaml_read_stream(const char *name, const char *buf, size_t len, gs_node ***docs,
                        size_t *n, gs_error *err);

/* yaml_emit.c: whether a YAML reader would resolve the plain scalar s to
 * something other than a string (a number, a boolean, null), so that the
 * writer quotes such a string. */
int gs_yaml_retyped(const char *s);
/* yaml_emit.c: renders a tree as a YAML document, or several as a stream
 * of documents each starting with "---". */
int gs_yaml_render(const gs_node *root, char **out, gs_error *err);
int gs_yaml_render_stream(const gs_node *const *docs, size_t n, char **out,
                          gs_error *err);

/* json.c: renders a tree as pretty-printed JSON (with a final newline). */
int gs_json_render(const gs_node *root, char **out, gs_error *err);

/* json.c: parses one JSON document (path "-" is stdin). cJSON keeps no
 * positions, so only syntax errors carry a line and column. */
int gs_json_read_file(const char *path, gs_node **out, gs_error *err);
int gs_json_read_buffer(const char *name, const char *buf, size_t len,
                        gs_node **out, gs_error *err);

/* Fills err with at's position in file (see gs_fail_at). */
int gs_fail_node(gs_error *err, int code, const char *file,
                 const gs_node *at, const char *fmt, ...) GS_PRINTF(5, 6);

/* ---- streaming ------------------------------------------------------- */

/* number.c: the text of a decimal value, as the tree and the streaming
 * writer both write it. GS_NUMBER_TEXT bytes are always enough. */
#define GS_NUMBER_TEXT 48
void gs_number_int(int64_t v, char *buf);
/* v/scale rounded half away from zero to `decimals` places. */
void gs_number_fixed(int64_t v, int scale, int decimals, char *buf);
/* Exact dollars with every digit the catalog has, at least `decimals`. */
void gs_number_money(gs_micros m, int decimals, char *buf);

/* writer.c: a document written as it is described, in JSON or YAML
 * bytes identical to what gs_json_render and gs_yaml_render give for the
 * same tree, without building one; or, for callers that need it, built
 * as a tree. The state is O(depth) and fixed in size; errors are sticky
 * (later calls do nothing) and reported once by the finish call, so a
 * describer writes freely and checks once. */
typedef struct gs_wr gs_wr;
#define GS_WR_MAX_DEPTH 32

int gs_wr_new(gs_format fmt, gs_write_fn write, void *ctx, gs_wr **out, gs_error *err);
int gs_wr_new_tree(gs_wr **out, gs_error *err);
void gs_wr_map(gs_wr *w);               /* begin a map */
void gs_wr_seq(gs_wr *w);               /* begin a sequence */
void gs_wr_end(gs_wr *w);               /* end the innermost map or sequence */
void gs_wr_key(gs_wr *w, const char *key); /* in a map, before each value */
void gs_wr_str(gs_wr *w, const char *s);   /* NULL s writes null */
void gs_wr_int(gs_wr *w, int64_t v);
void gs_wr_bool(gs_wr *w, int v);
void gs_wr_null(gs_wr *w);
void gs_wr_money(gs_wr *w, gs_micros m, int decimals); /* as gs_node_money */
void gs_wr_fixed(gs_wr *w, int64_t v, int scale, int decimals); /* as gs_node_fixed */
/* A failure of the describer's own (a GS_E* code; GS_ENOMEM: out of
 * memory): nothing more is written, and the finish call reports it. */
void gs_wr_abort(gs_wr *w, int code);
/* Ends the document (flushing the last bytes to write) and frees w; a
 * misused writer (an unfinished document, a value without its key) fails
 * with GS_EINVAL. */
int gs_wr_finish(gs_wr *w, gs_error *err);
/* The same for a tree writer: *root gets the tree (the caller frees it). */
int gs_wr_finish_tree(gs_wr *w, gs_node **root, gs_error *err);
/* A gs_write_fn that appends to the gs_buf ctx. */
int gs_wr_to_buf(void *ctx, const char *data, size_t len);

#endif
