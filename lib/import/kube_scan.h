/*
 * kube_scan.h - where the items of kubectl's JSON List are, in a stream
 * of bytes fed chunk by chunk (internal).
 *
 * `kubectl get pods -A -o json` prints {"apiVersion": "v1", "items": [...],
 * "kind": "List", "metadata": {...}}: one object, as large as the cluster.
 * The scanner is a state machine that knows strings, escapes and nesting
 * (with a stack of brackets, not recursion), finds each element of the
 * top-level "items" array and copies only that element's bytes, so memory
 * is bounded by the largest item, not by the file. It does not parse the
 * items (the readers of doc.h do); it checks the List around them. Lines
 * and columns (in characters, as the YAML reader counts them) are kept
 * across chunks, so errors point into the file.
 */
#ifndef GS_KUBE_SCAN_H
#define GS_KUBE_SCAN_H

#include "doc/doc.h"

/* One item's limit. Real objects are far smaller (a pod prints as 8-10
 * KB, a node with many images as 50-100 KB), and the readers turn an
 * item into a tree several times its size. */
#define GS_KUBE_ITEM_MAX (16u << 20)

/* Brackets open in one value: the readers' GS_READ_MAX_DEPTH levels under
 * the value itself. */
#define GS_KUBE_SCAN_DEPTH (GS_READ_MAX_DEPTH + 1)

/* What gs_kube_scan_feed and gs_kube_scan_end answer, besides errors. */
enum {
	GS_KUBE_SCAN_MORE = 0,  /* all bytes used: feed the next chunk */
	GS_KUBE_SCAN_ITEM = 1,  /* an item is complete (item, item_len) */
	GS_KUBE_SCAN_WHOLE = 2  /* not a JSON List with "items": read it whole */
};

typedef struct gs_kube_scan {
	const char *file;            /* named in errors */
	int state;
	/* The value being read: an item, or another member of the List. */
	int in_str, esc, scalar;
	size_t depth;
	char stack[GS_KUBE_SCAN_DEPTH];
	char key[6];                 /* a member's key, its first bytes */
	size_t key_len;
	int key_esc, key_items;
	unsigned long key_line, key_col;
	int items_open;              /* the '[' of "items" was read */
	size_t n_items;              /* items complete */
	unsigned long line, col;     /* of the next byte */
	/* The bytes of the item being read, and where it begins. */
	char *item;
	size_t item_len, item_cap;
	unsigned long item_line, item_col;
} gs_kube_scan;

void gs_kube_scan_init(gs_kube_scan *s, const char *file);
void gs_kube_scan_free(gs_kube_scan *s);

/* Reads b[0..n) up to the next event; *used says how many bytes it took.
 * Returns MORE (took all), ITEM (item n_items - 1 is complete: take its
 * bytes, then set item_len to 0 and feed the rest), WHOLE (before the
 * items began, the bytes are not a JSON List's: read the file whole with
 * a reader that reports what is wrong), or a negative GS_E* code with err
 * filled: malformed JSON around or between the items, an item over
 * GS_KUBE_ITEM_MAX, nesting too deep, a NUL byte. */
int gs_kube_scan_feed(gs_kube_scan *s, const char *b, size_t n, size_t *used,
                      gs_error *err);

/* At the end of the input: 0 when the List was complete, WHOLE when no
 * items were read (a single object, or not a List), or GS_ESYNTAX for a
 * file that ends inside the List: "the file ends inside items[N]
 * (truncated?)" and the like, at the end. */
int gs_kube_scan_end(gs_kube_scan *s, gs_error *err);

#endif
