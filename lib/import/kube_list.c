/*
 * kube_list.c - reading kubectl's List of nodes or pods item by item
 * (kube_list.h), and the fields every item has.
 *
 * The source is read in chunks of 1 MiB through the scanner (kube_scan.h),
 * which finds each item of the List; the item's bytes alone go to the JSON
 * reader (or the YAML reader) and its tree to the callback, then both are
 * dropped. So memory is bounded by the largest item, not by the file: a
 * 1 GiB list of 100,000 pods streams like a small one, and a pipe from
 * kubectl is read as it is written. What is not a JSON List (`kubectl get
 * node NAME -o json` prints one object; `-o yaml` prints YAML) is read
 * whole, within the limit of a file, by the YAML reader.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "import/kube_list.h"
#include "import/kube_scan.h"

/* ---- the fields of an item ----------------------------------------------- */

const char *gs_kube_json_kind(const gs_node *n)
{
	char *end;
	if (n->kind == GS_NODE_SEQ || n->kind == GS_NODE_MAP)
		return n->kind == GS_NODE_SEQ ? "an array" : "an object";
	if (n->kind == GS_NODE_NULL)
		return "null";
	if (n->quoted || !n->text)
		return "a string";
	if (strcmp(n->text, "true") == 0 || strcmp(n->text, "false") == 0)
		return "a boolean";
	strtod(n->text, &end);
	return *n->text && !*end ? "a number" : "a string";
}

const char *gs_kube_str(const gs_node *map, const char *key)
{
	const gs_node *v = gs_node_get(map, key);
	return v && v->kind == GS_NODE_STRING ? v->text : NULL;
}

int gs_kube_digits(const char *t, int64_t *out)
{
	int64_t x = 0;
	if (!*t)
		return -1;
	for (; *t; t++) {
		if (*t < '0' || *t > '9' || x > (INT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (*t - '0');
	}
	*out = x;
	return 0;
}

int gs_kube_whole(const gs_node *v, int64_t *out)
{
	if (!v || (v->kind != GS_NODE_STRING && v->kind != GS_NODE_NUMBER))
		return -1;
	return gs_kube_digits(v->text, out);
}

int gs_kube_item_meta(const char *file, const gs_node *it, size_t i,
                      const char *kind, const gs_node **meta,
                      const char **name, gs_error *err)
{
	const char *k = gs_kube_str(it, "kind");
	if (it->kind != GS_NODE_MAP)
		return gs_fail_node(err, GS_ESCHEMA, file, it,
		                    "items[%zu] is %s, not a %s", i,
		                    gs_kube_json_kind(it), kind);
	if (k && strcmp(k, kind) != 0)
		return gs_fail_node(err, GS_ESCHEMA, file, gs_node_get(it, "kind"),
		                    "items[%zu] is a %.40s, not a %s", i, k, kind);
	*meta = gs_node_get(it, "metadata");
	if (!(*name = gs_kube_str(*meta, "name")))
		return gs_fail_node(err, GS_ESCHEMA, file, it,
		                    "items[%zu]: a %s needs metadata.name", i, kind);
	return 0;
}

/* ---- the whole file as one tree ------------------------------------------ */

/* A List's items, or the one object `kubectl get KIND NAME -o json` prints,
 * from a tree of the whole file. */
static int whole_list(const gs_kube_list *l, const char *file, const char *buf,
                      size_t len, gs_kube_item_fn each, void *ud, gs_error *err)
{
	gs_node *root = NULL;
	const gs_node *items;
	const char *k;
	int rc;

	if ((rc = gs_yaml_read_buffer(file, buf, len, &root, err)) < 0)
		return rc;
	if (root->kind == GS_NODE_NULL && !root->line)
		rc = gs_fail_at(err, GS_ESCHEMA, file, 0, 0,
		                "the file is empty (expected the output of '%s')",
		                l->cmd);
	else if (root->kind != GS_NODE_MAP)
		rc = gs_fail_node(err, GS_ESCHEMA, file, root,
		                  "expected the JSON object that '%s' prints, not %s",
		                  l->cmd, gs_kube_json_kind(root));
	else if ((k = gs_kube_str(root, "kind")) && strcmp(k, l->kind) == 0)
		rc = each(file, root, 0, ud);
	else if (!(items = gs_node_get(root, "items")) || items->kind != GS_NODE_SEQ)
		rc = gs_fail_node(err, GS_ESCHEMA, file, items ? items : root,
		                  "expected a List with 'items', the output of '%s'",
		                  l->cmd);
	else
		for (size_t i = 0; rc == 0 && i < items->n; i++)
			rc = each(file, items->items[i], i, ud);
	gs_node_free(root);
	return rc;
}

/* ---- item by item -------------------------------------------------------- */

/* What the source is read in. */
#define CHUNK (1u << 20)

/* Errors inside an item are relative to it: move them to the file. */
static void shift_error(gs_error *err, const char *file, const gs_kube_scan *s)
{
	if (!err || !err->line || strcmp(err->file, file) != 0)
		return;
	if (err->line == 1)
		err->col += s->item_col - 1;
	err->line += s->item_line - 1;
}

/* One item: by the JSON reader, about three times faster, unless it has
 * refused an item of this file that the YAML reader (JSON is YAML's flow
 * style) read; then by the YAML reader, which also words the errors.
 * *by_json says which reader made the tree. */
static int read_item(const char *file, const char *text, size_t len, int *no_json,
                     int *by_json, gs_node **out, gs_error *err)
{
	int rc;
	*by_json = !*no_json && gs_json_read_buffer(file, text, len, out, err) == 0;
	if (*by_json)
		return 0;
	if ((rc = gs_yaml_read_buffer(file, text, len, out, err)) == 0)
		*no_json = 1;
	return rc;
}

/* The JSON reader keeps no positions, so an error the callback gave
 * without one is looked for again: the same item's bytes by the YAML
 * reader, whose tree has them, and the callback once more. Callbacks
 * check an item before they add it, so a second call fails the same way;
 * when it does not, or has no position either, the first error stands. */
static void locate(const gs_kube_list *l, const gs_kube_scan *s, gs_kube_item_fn each,
                   void *ud, gs_error *err)
{
	gs_error first = *err;
	gs_node *item = NULL;
	int rc = gs_yaml_read_buffer(l->src->name, s->item, s->item_len, &item, err);
	if (rc == 0)
		rc = each(l->src->name, item, s->n_items - 1, ud);
	gs_node_free(item);
	if (rc == 0 || !err->line)
		*err = first;
}

static int one_item(const gs_kube_list *l, gs_kube_scan *s, int *no_json,
                    gs_kube_item_fn each, void *ud, gs_error *err)
{
	const char *file = l->src->name;
	gs_node *item = NULL;
	int by_json, rc = read_item(file, s->item, s->item_len, no_json, &by_json, &item, err);

	if (rc == 0)
		rc = each(file, item, s->n_items - 1, ud);
	gs_node_free(item);
	if (rc < 0 && by_json && err && !err->line && strcmp(err->file, file) == 0)
		locate(l, s, each, ud, err);
	if (rc < 0)
		shift_error(err, file, s);
	return rc;
}

/* What is not a JSON List (YAML, one object, an error) is read whole, up
 * to the limit of a file: the bytes read so far (top), then the rest. */
static int read_whole(const gs_kube_list *l, gs_buf *top, char *chunk, gs_kube_item_fn each,
                      void *ud, gs_error *err)
{
	const gs_source *src = l->src;
	long got;

	do {
		if (top->len > GS_READ_MAX_BYTES)
			return gs_fail_at(err, GS_ELIMIT, src->name, 0, 0,
			                  "file is larger than the %u MiB limit (only a JSON "
			                  "List, as '%s' prints it, is read item by item)",
			                  GS_READ_MAX_BYTES >> 20, l->cmd);
		if ((got = src->read(src->ud, chunk, CHUNK, err)) < 0)
			return (int)got;
		gs_buf_add(top, chunk, (size_t)got);
	} while (got > 0);
	if (top->failed)
		return gs_fail_nomem(err);
	return whole_list(l, src->name, top->data ? top->data : "", top->len, each, ud, err);
}

/* The chunks of the source through the scanner; each item to the reader
 * and the callback as soon as it is complete. Until the items begin, the
 * bytes are kept (top), in case the file must be read whole. */
static int stream(const gs_kube_list *l, gs_kube_scan *s, char *chunk, gs_kube_item_fn each,
                  void *ud, gs_error *err)
{
	const gs_source *src = l->src;
	gs_buf top = GS_BUF_INIT;
	int rc = 0, no_json = 0;

	for (;;) {
		size_t off = 0, used;
		long got = src->read(src->ud, chunk, CHUNK, err);
		if (got <= 0) {
			rc = got < 0 ? (int)got : gs_kube_scan_end(s, err);
			break;
		}
		if (!s->items_open)
			gs_buf_add(&top, chunk, (size_t)got);
		if (top.len > GS_READ_MAX_BYTES) {
			rc = GS_KUBE_SCAN_WHOLE; /* which says it is too large */
			break;
		}
		while (off < (size_t)got) {
			rc = gs_kube_scan_feed(s, chunk + off, (size_t)got - off, &used, err);
			off += used;
			if (rc != GS_KUBE_SCAN_ITEM)
				break;
			rc = one_item(l, s, &no_json, each, ud, err);
			s->item_len = 0;
			if (rc < 0)
				break;
		}
		if (rc != 0)
			break;
		if (s->items_open)
			gs_buf_release(&top);
	}
	if (rc == GS_KUBE_SCAN_WHOLE)
		rc = read_whole(l, &top, chunk, each, ud, err);
	gs_buf_release(&top);
	return rc;
}

int gs_kube_list_read(const gs_kube_list *list, gs_kube_item_fn each, void *ud,
                      gs_error *err)
{
	gs_kube_scan s;
	char *chunk = malloc(CHUNK);
	int rc;

	if (!chunk)
		return gs_fail_nomem(err);
	gs_kube_scan_init(&s, list->src->name);
	rc = stream(list, &s, chunk, each, ud, err);
	gs_kube_scan_free(&s);
	free(chunk);
	return rc;
}
