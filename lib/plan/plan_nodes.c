/*
 * plan_nodes.c - from packed GPUs to nodes: buy the cheapest instances for
 * the GPUs of one node key (one device-plugin sharing configuration per
 * node), then place the GPUs on them, keeping the replicas of a workload
 * with spread: node on distinct nodes. GPUs whose replicas request host
 * CPU or RAM are bought by nodes_host.c, which also keeps every node
 * within what it leaves its pods, and so are replicas of several GPUs.
 */
#include "plan/host.h"
#include "plan/nodes.h"

/* The instance with the lowest price, for nodes that spread forces. */
static int cheapest_node(const gs_shop *sh)
{
	int best = 0;
	for (int i = 1; i < sh->n; i++)
		if (sh->price[i] < sh->price[best])
			best = i;
	return best;
}

/* GPU g on the first node from `from` with room and no spread clash, else
 * on a new node of the cheapest instance. */
static int place(const gs_planner *pl, gs_shop *sh, const gs_pgpu *g, gs_strategy st,
                 int k, int from, gs_nodeset *out)
{
	gs_bnode *b;
	gs_pgpu_facts f;
	int c;
	gs_pgpu_facts_of(pl, g, &f);
	for (int j = from; j < out->n; j++) {
		b = &out->v[j];
		if (b->n == b->inst->gpu_count || gs_bnode_clash(pl, b, g, &f))
			continue;
		return gs_bnode_take(pl, b, g, &f);
	}
	c = cheapest_node(sh);
	b = gs_bnode_new(out, sh->insts[c], sh->price[c], st, k);
	return b ? gs_bnode_take(pl, b, g, &f) : -1;
}

/* Does a node from `first` on have a GPU slot left empty? */
static int partly_empty(const gs_nodeset *out, int first)
{
	for (int j = first; j < out->n; j++)
		if (out->v[j].n < out->v[j].inst->gpu_count)
			return 1;
	return 0;
}

/* GPUs that a count cannot buy: host requests, or replicas of several
 * GPUs, which need a node with that many free (nodes_host.c fits them). */
static int host_needs(const gs_planner *pl, const gs_pgpu **gpus, int n)
{
	for (int i = 0; (pl->host_needs || pl->wide) && i < n; i++)
		if (gs_pgpu_span(gpus[i]) > 1 || !gs_host_none(gs_host_of_pgpu(pl, gpus[i])))
			return 1;
	return 0;
}

int gs_nodes_buy(const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus, int n,
                 gs_strategy st, int k, gs_nodeset *out)
{
	int first = out->n, cur;

	if (n == 0)
		return 0;
	if (host_needs(pl, gpus, n))
		return gs_nodes_buy_host(pl, sh, gpus, n, st, k, out);
	if (gs_nodeset_buy_best(sh, n, st, k, out) < 0)
		return -1;
	cur = first;
	for (int i = 0; i < n; i++) {
		if (place(pl, sh, gpus[i], st, k, cur, out) < 0)
			return -1;
		/* Without spread conflicts the fill is sequential. */
		while (cur < out->n && out->v[cur].n == out->v[cur].inst->gpu_count)
			cur++;
	}
	/* Spread may leave bought nodes empty, or partly so; most purchases
	 * fill every node, which the best buy of their count then holds. */
	gs_nodeset_drop_empty(out, first);
	return partly_empty(out, first) ? gs_nodeset_downsize(pl, sh, out, first) : 0;
}
