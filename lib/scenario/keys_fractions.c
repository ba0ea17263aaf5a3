/*
 * keys_fractions.c - the workload file's `fractions`: which backends the
 * cluster has to give a replica a hard cap of its own on a shared GPU
 * (HAMi, DRA consumable capacity, MPS with per-client limits), in the
 * order the file prefers them. None unless written, so that files which
 * do not name one plan as they always did.
 */
#include <string.h>

#include "scenario/keys.h"
#include "scenario/values.h"

/* As gs_backend, after GS_BACKEND_NONE. */
static const char *const names[] = { "hami", "dra", "mps" };

static int has(const gs_backend *b, int n, gs_backend x)
{
	for (int i = 0; i < n; i++)
		if (b[i] == x)
			return 1;
	return 0;
}

static int read_one(gs_ctx *c, const gs_node *v, gs_backend *b, int n, gs_backend *out)
{
	int i, rc = gs_read_choice(c, v, "fraction backend", names, GS_ARRAY_LEN(names), &i);
	if (rc < 0)
		return rc;
	*out = (gs_backend)(i + 1);
	if (has(b, n, *out))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "fraction backend '%s' is named twice", v->text);
	/* One DRA driver serves the cluster, and it refuses MPS once its
	 * ConsumableShares gate is on. */
	if ((*out == GS_BACKEND_DRA && has(b, n, GS_BACKEND_MPS)) ||
	    (*out == GS_BACKEND_MPS && has(b, n, GS_BACKEND_DRA)))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "fractions 'dra' and 'mps' exclude each other: the DRA "
		                    "driver refuses MPS when ConsumableShares is on");
	return 0;
}

int gs_key_read_fractions(const gs_key_dst *d, const gs_node *v)
{
	gs_backend b[GS_FRACTIONS_MAX];
	int n = 0, rc;

	if ((rc = gs_need_kind(d->c, v, GS_NODE_SEQ, "'fractions'")) < 0)
		return rc;
	for (size_t i = 0; i < v->n; i++) {
		if (n == GS_FRACTIONS_MAX)
			return gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, v->items[i],
			                    "at most %d fraction backends", GS_FRACTIONS_MAX);
		if ((rc = read_one(d->c, v->items[i], b, n, &b[n])) < 0)
			return rc;
		n++;
	}
	memcpy(d->s->fractions, b, sizeof b);
	d->s->n_fractions = n;
	return 0;
}

int gs_key_write_fractions(const gs_key_src *s, gs_node *map, const char *key)
{
	gs_node *seq;
	int rc = 0;

	if (!s->s->n_fractions)
		return 0;
	seq = gs_node_new(GS_NODE_SEQ, NULL);
	for (int i = 0; i < s->s->n_fractions; i++)
		rc |= gs_node_push(seq, gs_node_str(names[s->s->fractions[i] - 1]));
	return rc | gs_node_put(map, key, seq);
}
