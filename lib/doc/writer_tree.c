/*
 * writer_tree.c - the streaming writer's tree backend: the same
 * description of a document, built as a gs_node tree for the callers that
 * need one (gs_doc_plan's users), so that a document is described once.
 */
#include <stdlib.h>

#include "doc/wr.h"

typedef struct tree_wr {
	gs_node *root;
	gs_node *open[GS_WR_MAX_DEPTH]; /* the open maps and sequences */
	gs_node *key[GS_WR_MAX_DEPTH];  /* each map's key awaiting its value */
} tree_wr;

/* Puts a new node (NULL: out of memory) in its place; put and push free
 * it when they fail, and the tree owns it from then on. */
static int attach(gs_wr *w, gs_node *n)
{
	tree_wr *t = w->be;
	gs_node *parent;
	int rc;

	if (!w->depth) {
		t->root = n;
		rc = n ? 0 : -1;
	} else if ((parent = t->open[w->depth - 1])->kind == GS_NODE_MAP) {
		rc = gs_node_put_node(parent, t->key[w->depth - 1], n);
		t->key[w->depth - 1] = NULL;
	} else {
		rc = gs_node_push(parent, n);
	}
	if (rc < 0)
		gs_wr_fail(w, GS_ENOMEM, NULL);
	return rc;
}

static void tree_open(gs_wr *w, int map)
{
	gs_node *n = gs_node_new(map ? GS_NODE_MAP : GS_NODE_SEQ, NULL);
	if (attach(w, n) == 0)
		((tree_wr *)w->be)->open[w->depth] = n;
}

static void tree_close(gs_wr *w, int map, size_t n)
{
	(void)w;
	(void)map;
	(void)n;
}

static void tree_key(gs_wr *w, const char *key)
{
	tree_wr *t = w->be;
	if (!(t->key[w->depth - 1] = gs_node_new(GS_NODE_STRING, key)))
		gs_wr_fail(w, GS_ENOMEM, NULL);
}

static void tree_scalar(gs_wr *w, gs_node_kind kind, const char *text)
{
	attach(w, gs_node_new(kind, text));
}

static void tree_finish(gs_wr *w)
{
	(void)w;
}

static void tree_free(gs_wr *w)
{
	tree_wr *t = w->be;
	if (!t)
		return;
	for (size_t i = 0; i < GS_WR_MAX_DEPTH; i++)
		gs_node_free(t->key[i]);
	gs_node_free(t->root);
	free(t);
}

int gs_wr_tree_start(gs_wr *w)
{
	return (w->be = calloc(1, sizeof(tree_wr))) ? 0 : -1;
}

gs_node *gs_wr_tree_take(gs_wr *w)
{
	tree_wr *t = w->be;
	gs_node *root = t->root;
	t->root = NULL;
	return root;
}

const gs_wr_ops gs_wr_tree_ops = {
	tree_open, tree_close, tree_key, tree_scalar, tree_finish, tree_free,
};
