/*
 * write.c - the scenario written back as a workload file the loader
 * accepts (gs_doc_scenario): every key of the table, in its order, by the
 * row's own writer.
 */
#include <string.h>

#include "base/buf.h"
#include "scenario/keys.h"

static gs_node *workload_list(const gs_scenario *s);

/* The keys of one level as a map, the list of workloads too unless
 * `alone`; NULL when out of memory. */
static gs_node *write_keys(const gs_key_src *from, gs_key_level level, int alone)
{
	size_t n;
	const gs_key *keys = gs_scenario_keys(&n);
	gs_node *map = gs_node_new(GS_NODE_MAP, NULL);
	int rc = map ? 0 : -1;

	for (size_t i = 0; i < n && rc == 0; i++) {
		if (keys[i].level != level)
			continue;
		if (keys[i].write)
			rc = keys[i].write(from, map, keys[i].name);
		else if (!alone) /* the list of workloads */
			rc = gs_node_put(map, keys[i].name, workload_list(from->s));
	}
	return gs_node_done(map, rc);
}

static gs_node *write_level(const gs_key_src *from, gs_key_level level)
{
	return write_keys(from, level, 0);
}

static gs_node *workload_list(const gs_scenario *s)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;

	for (size_t i = 0; i < s->n; i++) {
		gs_key_src one = { s, s->w[i] };
		rc |= gs_node_push(seq, write_level(&one, GS_KEY_WORKLOAD));
	}
	return gs_node_done(seq, rc);
}

int gs_doc_scenario(const gs_scenario *s, gs_doc **out, gs_error *err)
{
	gs_key_src from = { s, NULL };
	gs_node *root = write_level(&from, GS_KEY_FILE);

	if (!root)
		return gs_fail_nomem(err);
	return gs_doc_wrap(root, out, err);
}

/* A node as text that tells any two trees apart: each node's kind, then
 * its text's length and the text, or its count and members (a map's keys
 * before their values). Rendering JSON took twice as long. */
static void put_node(gs_buf *b, const gs_node *n)
{
	if (n->kind == GS_NODE_SEQ || n->kind == GS_NODE_MAP) {
		gs_buf_printf(b, "%d%zu:", (int)n->kind, n->n);
		for (size_t i = 0; i < n->n; i++) {
			if (n->kind == GS_NODE_MAP)
				put_node(b, n->keys[i]);
			put_node(b, n->items[i]);
		}
		return;
	}
	gs_buf_printf(b, "%d%zu:", (int)n->kind, n->text ? strlen(n->text) : 0);
	if (n->text)
		gs_buf_puts(b, n->text);
}

int gs_scenario_text(const gs_scenario *s, const wl *w, char **out)
{
	gs_key_src from = { s, w };
	gs_node *root = write_keys(&from, w ? GS_KEY_WORKLOAD : GS_KEY_FILE, 1);
	gs_buf b = GS_BUF_INIT;
	gs_error err;
	if (!root)
		return -1;
	put_node(&b, root);
	gs_node_free(root);
	return gs_buf_detach(&b, out, &err) < 0 ? -1 : 0;
}
