/*
 * kube_list.c - reading kubectl's List of nodes or pods item by item
 * (kube_list.h), and the fields every item has.
 *
 * The tree of 50,000 pods has millions of nodes; parsing one item at a
 * time keeps memory small and is 2-3 times faster. A scanner only finds
 * where the items of a JSON List are (it knows strings and nesting, with a
 * counter, not recursion); the JSON or YAML reader parses each item.
 * Anything the scanner does not expect sends the file to whole_list, whose
 * reader then reports the error.
 */
#include <stdlib.h>
#include <string.h>

#include "import/kube_list.h"

#define NONE ((size_t)-1)

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

/* ---- the scanner --------------------------------------------------------- */

typedef struct span {
	size_t start, end;
} span;

static size_t skip_ws(const char *b, size_t n, size_t i)
{
	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
		i++;
	return i;
}

/* b[i] is '"': the index after the closing quote, or NONE. */
static size_t skip_string(const char *b, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (b[i] == '\\')
			i++;
		else if (b[i] == '"')
			return i + 1;
	}
	return NONE;
}

/* The index after the value at b[i], or NONE. */
static size_t skip_value(const char *b, size_t n, size_t i)
{
	size_t depth = 0;
	if (i >= n)
		return NONE;
	if (b[i] == '"')
		return skip_string(b, n, i);
	if (b[i] != '{' && b[i] != '[') {
		size_t start = i;
		while (i < n && !strchr(" \t\r\n,]}", b[i]))
			i++;
		return i > start ? i : NONE;
	}
	for (; i < n; i++) {
		if (b[i] == '"') {
			if ((i = skip_string(b, n, i)) == NONE)
				return NONE;
			i--; /* the closing quote */
		} else if (b[i] == '{' || b[i] == '[')
			depth++;
		else if ((b[i] == '}' || b[i] == ']') && --depth == 0)
			return i + 1;
	}
	return NONE;
}

/* The elements of the array that starts at b[i] ('['), appended to out;
 * the index after its ']', or NONE. */
static size_t split_array(const char *b, size_t n, size_t i, span **out,
                          size_t *count, size_t *cap)
{
	size_t k;
	for (i = skip_ws(b, n, i + 1); i < n && b[i] != ']'; i = skip_ws(b, n, i + 1)) {
		if ((k = skip_value(b, n, i)) == NONE ||
		    gs_grow(out, cap, *count + 1, sizeof **out) < 0)
			return NONE;
		(*out)[(*count)++] = (span){ i, k };
		if ((i = skip_ws(b, n, k)) >= n || (b[i] != ',' && b[i] != ']'))
			return NONE;
		if (b[i] == ']')
			break;
	}
	return i < n ? i + 1 : NONE;
}

/* The items of the List at the top of b: 0, or -1 to read it whole. */
static int split_items(const char *b, size_t n, span **out, size_t *count,
                       size_t *cap)
{
	size_t i = skip_ws(b, n, 0), k, found = 0;
	if (i >= n || b[i] != '{')
		return -1;
	for (i = skip_ws(b, n, i + 1); i < n && b[i] == '"'; i = skip_ws(b, n, i + 1)) {
		int items;
		if ((k = skip_string(b, n, i)) == NONE)
			return -1;
		items = k - i == 7 && memcmp(b + i, "\"items\"", 7) == 0;
		if ((i = skip_ws(b, n, k)) >= n || b[i] != ':')
			return -1;
		i = skip_ws(b, n, i + 1);
		if (items && found)
			return -1; /* twice: the reader refuses duplicate keys */
		if (items && i < n && b[i] == '[') {
			found = 1;
			if ((i = split_array(b, n, i, out, count, cap)) == NONE)
				return -1;
		} else if ((i = skip_value(b, n, i)) == NONE) {
			return -1;
		}
		if ((i = skip_ws(b, n, i)) >= n || (b[i] != ',' && b[i] != '}'))
			return -1;
		if (b[i] == '}')
			break;
	}
	return found && i < n && b[i] == '}' && skip_ws(b, n, i + 1) == n ? 0 : -1;
}

/* ---- item by item -------------------------------------------------------- */

/* Errors inside an item are relative to it: move them to the file. */
static void shift_error(gs_error *err, const char *file, const char *b, size_t at)
{
	unsigned long line = 1, col = 1;
	if (!err || !err->line || strcmp(err->file, file) != 0)
		return;
	for (size_t i = 0; i < at; i++, col++)
		if (b[i] == '\n') {
			line++;
			col = 0;
		}
	if (err->line == 1)
		err->col += col - 1;
	err->line += line - 1;
}

/* One item: by the JSON reader, about three times faster, unless it has
 * refused an item of this file that the YAML reader (JSON is YAML's flow
 * style) read; then by the YAML reader, which also words the errors. */
static int read_item(const char *file, const char *text, size_t len, int *no_json,
                     gs_node **out, gs_error *err)
{
	int rc;
	if (!*no_json && gs_json_read_buffer(file, text, len, out, err) == 0)
		return 0;
	if ((rc = gs_yaml_read_buffer(file, text, len, out, err)) == 0)
		*no_json = 1;
	return rc;
}

/* Files are split into items; each is read by the fastest reader that
 * takes it (read_item), and `kubectl -o yaml` works as well. */
int gs_kube_list_read(const gs_kube_list *list, gs_kube_item_fn each, void *ud,
                      gs_error *err)
{
	const char *file = list->src->name;
	span *items = NULL;
	size_t n_items = 0, cap = 0, len;
	char *buf;
	int rc = gs_source_read_all(list->src, &buf, &len, err), no_json = list->yaml_only;

	if (rc < 0)
		return rc;
	if (memchr(buf, '\0', len) || split_items(buf, len, &items, &n_items, &cap) < 0) {
		rc = whole_list(list, file, buf, len, each, ud, err);
	} else {
		for (size_t i = 0; rc == 0 && i < n_items; i++) {
			gs_node *item = NULL;
			const span *sp = &items[i];
			rc = read_item(file, buf + sp->start, sp->end - sp->start,
			               &no_json, &item, err);
			if (rc == 0)
				rc = each(file, item, i, ud);
			gs_node_free(item);
			if (rc < 0)
				shift_error(err, file, buf, sp->start);
		}
	}
	free(items);
	free(buf);
	return rc;
}
