/*
 * plan_nodes.c - from packed GPUs to nodes: buy the cheapest instances for
 * the GPUs of one node key (one device-plugin sharing configuration per
 * node), then place the GPUs on them, keeping the replicas of a workload
 * with spread: node on distinct nodes.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/nodes.h"

void gs_nodeset_release(gs_nodeset *ns)
{
	for (int i = 0; i < ns->n; i++) {
		free(ns->v[i].gpus);
		free(ns->v[i].spread_wl);
	}
	free(ns->v);
	memset(ns, 0, sizeof *ns);
}

static gs_bnode *node_new(gs_nodeset *ns, const gs_instance *in, gs_micros price,
                          gs_strategy st, int k)
{
	gs_bnode *b;
	if (ns->n == ns->cap) {
		int ncap = ns->cap ? ns->cap * 2 : 8;
		gs_bnode *v = realloc(ns->v, (size_t)ncap * sizeof *v);
		if (!v)
			return NULL;
		ns->v = v;
		ns->cap = ncap;
	}
	b = &ns->v[ns->n];
	memset(b, 0, sizeof *b);
	if (!(b->gpus = calloc((size_t)in->gpu_count, sizeof *b->gpus)))
		return NULL;
	b->inst = in;
	b->price = price;
	b->strategy = st;
	b->k = k;
	ns->n++;
	return b;
}

static int spread_clash(const gs_planner *pl, const gs_bnode *b, const gs_pgpu *g)
{
	for (int i = 0; i < g->ng; i++)
		for (int r = 0; r < g->g[i].n; r++) {
			const gs_replica *p = &pl->reps[g->g[i].reps[r]];
			if (p->w->spread != GS_SPREAD_NODE)
				continue;
			for (int j = 0; j < b->nsw; j++)
				if (b->spread_wl[j] == p->wi)
					return 1;
		}
	return 0;
}

static int node_take(const gs_planner *pl, gs_bnode *b, const gs_pgpu *g)
{
	for (int i = 0; i < g->ng; i++)
		for (int r = 0; r < g->g[i].n; r++) {
			const gs_replica *p = &pl->reps[g->g[i].reps[r]];
			int *v;
			if (p->w->spread != GS_SPREAD_NODE)
				continue;
			if (!(v = realloc(b->spread_wl, (size_t)(b->nsw + 1) * sizeof *v)))
				return -1;
			b->spread_wl = v;
			b->spread_wl[b->nsw++] = p->wi;
		}
	b->gpus[b->n++] = g;
	return 0;
}

/* The instance with the lowest price, for nodes that spread forces. */
static int cheapest_node(const gs_shop *sh)
{
	int best = 0;
	for (int i = 1; i < sh->n; i++)
		if (sh->price[i] < sh->price[best])
			best = i;
	return best;
}

/* The shop's best buy of n GPUs, big instances first: fewer, fuller
 * nodes. */
static int buy_nodes(gs_shop *sh, int n, gs_strategy st, int k, gs_nodeset *out)
{
	int counts[GS_SHOP_MAX];
	if (gs_shop_counts(sh, n, counts) < 0)
		return -1;
	for (int pass = 64; pass >= 1; pass--)
		for (int i = 0; i < sh->n; i++)
			for (int c = 0; sh->insts[i]->gpu_count == pass && c < counts[i]; c++)
				if (!node_new(out, sh->insts[i], sh->price[i], st, k))
					return -1;
	return 0;
}

/* GPU g on the first node from `from` with room and no spread clash, else
 * on a new node of the cheapest instance. */
static int place(const gs_planner *pl, gs_shop *sh, const gs_pgpu *g, gs_strategy st,
                 int k, int from, gs_nodeset *out)
{
	gs_bnode *b;
	int c;
	for (int j = from; j < out->n; j++) {
		b = &out->v[j];
		if (b->n == b->inst->gpu_count || spread_clash(pl, b, g))
			continue;
		return node_take(pl, b, g);
	}
	c = cheapest_node(sh);
	b = node_new(out, sh->insts[c], sh->price[c], st, k);
	return b ? node_take(pl, b, g) : -1;
}

/* Spread may leave bought nodes empty; they are not needed. */
static void drop_empty(gs_nodeset *out, int first)
{
	for (int j = first; j < out->n;) {
		if (out->v[j].n) {
			j++;
			continue;
		}
		free(out->v[j].gpus);
		free(out->v[j].spread_wl);
		memmove(&out->v[j], &out->v[j + 1], (size_t)(out->n - j - 1) * sizeof *out->v);
		out->n--;
	}
}

int gs_nodes_buy(const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus, int n,
                 gs_strategy st, int k, gs_nodeset *out)
{
	int first = out->n, cur;

	if (n == 0)
		return 0;
	if (buy_nodes(sh, n, st, k, out) < 0)
		return -1;
	cur = first;
	for (int i = 0; i < n; i++) {
		if (place(pl, sh, gpus[i], st, k, cur, out) < 0)
			return -1;
		/* Without spread conflicts the fill is sequential. */
		while (cur < out->n && out->v[cur].n == out->v[cur].inst->gpu_count)
			cur++;
	}
	drop_empty(out, first);
	return 0;
}
