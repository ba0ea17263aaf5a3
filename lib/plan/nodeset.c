/*
 * nodeset.c - the nodes being bought: adding a node of an instance type,
 * putting a packed GPU on it (with the host CPU and RAM its replicas
 * request, and the workloads whose spread: node it then carries), the
 * shop's best buy as empty nodes, and dropping nodes left empty. Both ways
 * of buying (plan_nodes.c, nodes_host.c) build on these.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/host.h"
#include "plan/nodes.h"
#include "plan/robust.h"

void gs_nodeset_release(gs_nodeset *ns)
{
	for (int i = 0; i < ns->n; i++)
		free(ns->v[i].spread_wl);
	for (int i = 0; i < ns->nblocks; i++)
		free(ns->blocks[i]);
	free(ns->blocks);
	free(ns->v);
	free(ns->notes);
	memset(ns, 0, sizeof *ns);
}

/* The GPU arrays come from blocks of 256 bytes, then twice as large
 * each, up to BLOCK: a calloc and a free per node, most nodes of one
 * GPU, were a tenth of buying at 10^5 replicas; and the sets that price
 * a packing (plan_keys.c) buy a few nodes at a time. */
#define BLOCK 65536

/* Room for n GPUs of a node, zeroed; NULL when out of memory. */
static const gs_pgpu **gpus_room(gs_nodeset *ns, int n)
{
	size_t size = (size_t)(n ? n : 1) * sizeof(const gs_pgpu *);
	void *p;
	if (size > ns->left) {
		size_t block = (size_t)256 << (ns->nblocks < 8 ? ns->nblocks : 8);
		size_t bytes = size > block ? size : block;
		if (gs_grow(&ns->blocks, &ns->capblocks, (size_t)ns->nblocks + 1,
		            sizeof *ns->blocks) < 0 ||
		    !(p = malloc(bytes)))
			return NULL;
		ns->blocks[ns->nblocks++] = p;
		ns->room = p;
		ns->left = bytes;
	}
	p = ns->room;
	ns->room += size;
	ns->left -= size;
	memset(p, 0, size);
	return p;
}

gs_bnode *gs_bnode_new(gs_nodeset *ns, const gs_instance *in, gs_micros price,
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
	if (!(b->gpus = gpus_room(ns, in->gpu_count)))
		return NULL;
	b->inst = in;
	b->price = price;
	b->strategy = st;
	b->k = k;
	ns->n++;
	return b;
}

/* Must the workload's replicas on GPUs g keep to distinct nodes? spread:
 * gpu too on fractions, and on time-sliced and MPS GPUs under the device
 * plugin, pinned
 * placement as well as robust: the device plugin, not the plan, picks
 * which GPU's slot serves a pod, so only one replica per node keeps them
 * on distinct GPUs (a DRA claim names its GPU). (Whole GPUs are distinct
 * by themselves; a MIG node's instances are not yet held to it.) */
static int spreads_nodes(const gs_planner *pl, gs_spread spread, const gs_pgpu *g)
{
	/* A fraction's scheduler (HAMi's, or DRA's capacity) picks the GPU of
	 * the node too, under either path. */
	return spread == GS_SPREAD_NODE ||
	       (spread == GS_SPREAD_GPU && g->strategy == GS_STRATEGY_FRACTION) ||
	       (spread == GS_SPREAD_GPU && !pl->via_dra &&
	        (g->strategy == GS_STRATEGY_TIME_SLICING || g->strategy == GS_STRATEGY_MPS));
}

/* Only spread: node binds a whole or MIG GPU's replicas (spreads_nodes):
 * without it in the fleet, there is nothing to read of them, scattered as
 * they are (the nodes' buying asks this of every GPU it places). */
static int pgpu_spreads(const gs_planner *pl, const gs_pgpu *g)
{
	if (!pl->spread_node && g->strategy != GS_STRATEGY_FRACTION &&
	    g->strategy != GS_STRATEGY_TIME_SLICING && g->strategy != GS_STRATEGY_MPS)
		return 0;
	for (int i = 0; i < g->ng; i++)
		for (int r = 0; r < g->g[i].n; r++)
			if (spreads_nodes(pl, pl->reps[g->g[i].reps[r]].spread, g))
				return 1;
	return 0;
}

void gs_pgpu_facts_of(const gs_planner *pl, const gs_pgpu *g, gs_pgpu_facts *f)
{
	f->spreads = pgpu_spreads(pl, g);
	f->mig_slow = gs_robust_mig_masks(pl, g, &f->mig_twice, &f->mig_asked) < 0;
}

/* gs_robust_mig_node_ok by the node's masks, which its GPUs' each give:
 * a profile some GPU holds twice that a spread: gpu replica asks. */
static int mig_node_ok(const gs_planner *pl, const gs_bnode *b, const gs_pgpu *g,
                       const gs_pgpu_facts *f)
{
	if (pl->via_dra || g->strategy != GS_STRATEGY_MIG)
		return 1;
	if (f->mig_slow || b->mig_slow || (b->n && b->gpus[0]->model != g->model))
		return gs_robust_mig_node_ok(pl, (const gs_pgpu *const *)b->gpus, b->n, g);
	return !((b->mig_twice | f->mig_twice) & (b->mig_asked | f->mig_asked));
}

int gs_bnode_clash(const gs_planner *pl, const gs_bnode *b, const gs_pgpu *g,
                   const gs_pgpu_facts *f)
{
	for (int i = 0; f->spreads && i < g->ng; i++)
		for (int r = 0; r < g->g[i].n; r++) {
			const gs_replica *p = &pl->reps[g->g[i].reps[r]];
			if (!spreads_nodes(pl, p->spread, g))
				continue;
			for (int j = 0; j < b->nsw; j++)
				if (b->spread_wl[j] == p->wi)
					return 1;
		}
	return !gs_robust_node_ok(pl, (const gs_pgpu *const *)b->gpus, b->n, g, b->strategy,
	                          b->k) ||
	       !mig_node_ok(pl, b, g, f) ||
	       !gs_robust_span_ok(pl, (const gs_pgpu *const *)b->gpus, b->n, g,
	                          b->inst->gpu_count);
}

/* Whether node b may be split (gs_nodeset_split) and the best buy of its
 * GPU count costs less than it: 1, 0, or -1 when out of memory. A
 * p5.48xlarge (eight H100s, $55.04/h) holding the four GPUs that spread:
 * node left on it, where four p5.4xlarge ($6.88/h each) hold them and no
 * one smaller type does. */
static int splits(gs_shop *sh, const gs_bnode *b)
{
	gs_buy best;
	if (b->n == b->inst->gpu_count || b->cpu || b->mem)
		return 0;
	for (int i = 0; i < b->n; i++)
		if (gs_pgpu_span(b->gpus[i]) > 1)
			return 0;
	if (gs_shop_best(sh, b->n, &best) < 0)
		return -1;
	return best.cost >= 0 && best.cost < b->price;
}

/* Moves node j's GPUs onto the shop's best buy of their count, appended
 * to out; node j is left empty. */
static int split_node(const gs_planner *pl, gs_shop *sh, gs_nodeset *out, int j)
{
	int n = out->v[j].n, cur = out->n;
	gs_strategy st = out->v[j].strategy;
	int k = out->v[j].k;
	const gs_pgpu **gpus = malloc((size_t)n * sizeof *gpus);
	if (!gpus)
		return -1;
	memcpy(gpus, out->v[j].gpus, (size_t)n * sizeof *gpus);
	out->v[j].n = 0;
	if (gs_nodeset_buy_best(sh, n, st, k, out) < 0) {
		free(gpus);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		gs_pgpu_facts f;
		while (out->v[cur].n == out->v[cur].inst->gpu_count)
			cur++;
		gs_pgpu_facts_of(pl, gpus[i], &f);
		if (gs_bnode_take(pl, &out->v[cur], gpus[i], &f) < 0) {
			free(gpus);
			return -1;
		}
	}
	free(gpus);
	return 0;
}

int gs_nodeset_split(const gs_planner *pl, gs_shop *sh, gs_nodeset *out, int j)
{
	int rc = splits(sh, &out->v[j]);
	return rc <= 0 ? rc : split_node(pl, sh, out, j);
}

int gs_bnode_take(const gs_planner *pl, gs_bnode *b, const gs_pgpu *g,
                  const gs_pgpu_facts *f)
{
	gs_host h = gs_host_of_pgpu(pl, g);
	if (f->mig_slow || (b->n && b->gpus[0]->model != g->model))
		b->mig_slow = 1;
	b->mig_twice |= f->mig_twice;
	b->mig_asked |= f->mig_asked;
	for (int i = 0; f->spreads && i < g->ng; i++)
		for (int r = 0; r < g->g[i].n; r++) {
			const gs_replica *p = &pl->reps[g->g[i].reps[r]];
			int *v;
			if (!spreads_nodes(pl, p->spread, g))
				continue;
			if (!(v = realloc(b->spread_wl, (size_t)(b->nsw + 1) * sizeof *v)))
				return -1;
			b->spread_wl = v;
			b->spread_wl[b->nsw++] = p->wi;
		}
	/* A replica of several GPUs takes as many of the node's, in a row. */
	for (int s = 0; s < gs_pgpu_span(g); s++)
		b->gpus[b->n++] = g;
	b->cpu += h.cpu;
	b->mem += h.mem;
	return 0;
}

int gs_nodeset_buy_best(gs_shop *sh, int n, gs_strategy st, int k, gs_nodeset *out)
{
	int counts[GS_SHOP_MAX];
	if (gs_shop_counts(sh, n, counts) < 0)
		return -1;
	/* Big instances first: fewer, fuller nodes. */
	for (int pass = 64; pass >= 1; pass--)
		for (int i = 0; i < sh->n; i++)
			for (int c = 0; sh->insts[i]->gpu_count == pass && c < counts[i]; c++)
				if (!gs_bnode_new(out, sh->insts[i], sh->price[i], st, k))
					return -1;
	return 0;
}

void gs_nodeset_drop_empty(gs_nodeset *out, int first)
{
	/* In one pass, the kept in order: a plan's split nodes leave empty
	 * ones all through its hundreds of thousands. */
	int k = first;
	for (int j = first; j < out->n; j++) {
		if (!out->v[j].n) {
			free(out->v[j].spread_wl);
			continue;
		}
		if (k != j)
			out->v[k] = out->v[j];
		k++;
	}
	out->n = k;
}

/* Host requests open nodes one by one; and the count's purchase fills
 * nodes in turn, but spread keeps some GPUs apart: four GPUs of a spread:
 * gpu workload on azure's A100 bought one Standard_NC96ads_A100_v4 (4
 * GPUs, the price of four Standard_NC24ads_A100_v4s) and a node each for
 * the three that could not join it, leaving 3 GPUs of the first idle. A
 * node keeps its GPUs and their neighbours, so the rules still hold. */
int gs_nodeset_downsize(const gs_planner *pl, const gs_shop *sh, gs_nodeset *out, int first)
{
	for (int j = first; j < out->n; j++) {
		gs_bnode *b = &out->v[j];
		gs_host used = { b->cpu, b->mem };
		int best = -1;
		for (int t = 0; t < sh->n; t++) {
			gs_host room = { sh->cpu[t], sh->mem[t] };
			if (sh->insts[t]->gpu_count >= b->n && gs_host_fits(used, room) &&
			    sh->price[t] < (best < 0 ? b->price : sh->price[best]) &&
			    gs_robust_span_ok(pl, (const gs_pgpu *const *)b->gpus, b->n, NULL,
			                      sh->insts[t]->gpu_count))
				best = t;
		}
		if (best < 0)
			continue;
		if (sh->insts[best]->gpu_count > b->inst->gpu_count) {
			const gs_pgpu **v = gpus_room(out, sh->insts[best]->gpu_count);
			if (!v)
				return -1;
			memcpy(v, b->gpus, (size_t)b->n * sizeof *v);
			b->gpus = v;
		}
		b->inst = sh->insts[best];
		b->price = sh->price[best];
	}
	return 0;
}
