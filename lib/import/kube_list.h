/*
 * kube_list.h - reading what `kubectl get KIND -o json` (or -o yaml)
 * prints (internal): a List item by item, and the fields of an item.
 *
 * The reader hands each item to a callback as the document tree of that
 * item alone, borrowed for the call, and keeps nothing of it afterwards.
 * A JSON List is streamed from its source (kube_scan.h), so a List of any
 * size is read in memory bounded by its largest item (GS_KUBE_ITEM_MAX).
 */
#ifndef GS_KUBE_LIST_H
#define GS_KUBE_LIST_H

#include "doc/doc.h"

/* Called once per item, in order; i counts from 0. `file` is the name
 * errors give (the source's name). A negative return stops the reading
 * and is returned by it (the callback fills err itself). */
typedef int (*gs_kube_item_fn)(const char *file, const gs_node *item, size_t i,
                               void *ud);

typedef struct gs_kube_list {
	const gs_source *src;
	const char *kind;  /* of each item, e.g. "Node" */
	const char *cmd;   /* what prints the list, named in errors */
} gs_kube_list;

/* Reads a List's items, or the one object `kubectl get KIND NAME -o json`
 * prints (as item 0). Errors at a place inside an item, the callback's
 * too, are moved to that place in the file; a callback that fails without
 * a place (on the JSON reader's tree) is called again on the item as the
 * YAML reader reads it, to find one, so it must check an item before it
 * adds it. A file that ends inside the List is an error ("the file ends
 * inside items[N] (truncated?)") after the callback has had the complete
 * items: the caller drops what they added. */
int gs_kube_list_read(const gs_kube_list *list, gs_kube_item_fn each, void *ud,
                      gs_error *err);

/* Item i's metadata and metadata.name; it must be an object of `kind`
 * (or say no kind). */
int gs_kube_item_meta(const char *file, const gs_node *it, size_t i,
                      const char *kind, const gs_node **meta,
                      const char **name, gs_error *err);

/* What a value is, in JSON's words, for errors: "an object", "null"... */
const char *gs_kube_json_kind(const gs_node *n);

/* The string at map[key], or NULL (map may be NULL). */
const char *gs_kube_str(const gs_node *map, const char *key);

/* A whole non-negative number written in digits only ("12"). Returns 0,
 * or -1 for anything else or more than fits. */
int gs_kube_digits(const char *text, int64_t *out);

/* The same as a JSON number or a string ("1"), as quantities and labels
 * are written; v may be NULL. */
int gs_kube_whole(const gs_node *v, int64_t *out);

#endif
