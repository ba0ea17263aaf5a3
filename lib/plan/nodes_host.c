/*
 * nodes_host.c - buying nodes for GPUs whose replicas request host CPU or
 * RAM: no node may hold more than it leaves its pods (host.c); and for
 * replicas of several GPUs (a span of N), which need N free GPUs of one
 * node.
 *
 * It starts from what the GPU count alone would buy (where no entry is
 * wide), places the widest entries first and among them those that ask most of their host, each on
 * the first node with enough free slots and room; an entry no node has
 * room for opens a node of the instance type with the lowest price per GPU
 * it can hold of what is left (a bigger one, or one more). Nodes then move
 * to the cheapest instance that still holds them, and what the host
 * requests added to the bill is noted for the plan to say.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/host.h"
#include "plan/nodes.h"
#include "plan/robust.h"

/* How many open nodes a GPU looks at: enough on sorted input, few enough
 * to stay linear. */
#define HOST_WINDOW 64

__extension__ typedef __int128 wide;

typedef struct hbuy {
	const gs_planner *pl;
	gs_shop *sh;
	const gs_pgpu **gpus;
	gs_host *need;      /* per GPU */
	int *order;         /* GPUs, largest need first */
	int n;
} hbuy;

/* qsort has no user data in C11; a thread's own, as plans are bought on
 * two at once (fork.h). */
static _Thread_local const int64_t *sort_w;
static _Thread_local const gs_pgpu *const *sort_g;

static int by_weight_desc(const void *x, const void *y)
{
	int i = *(const int *)x, j = *(const int *)y;
	int si = gs_pgpu_span(sort_g[i]), sj = gs_pgpu_span(sort_g[j]);
	if (si != sj)
		return sj - si;
	if (sort_w[i] != sort_w[j])
		return sort_w[i] < sort_w[j] ? 1 : -1;
	return i - j;
}

/* Orders the GPUs widest first, then by their need against the shop's
 * largest node, in ppm: the larger of the CPU and the RAM part. */
static void sort_by_need(hbuy *hb, int64_t *w)
{
	int64_t cpu = 1, mem = 1;
	for (int t = 0; t < hb->sh->n; t++) {
		cpu = hb->sh->cpu[t] > cpu ? hb->sh->cpu[t] : cpu;
		mem = hb->sh->mem[t] > mem ? hb->sh->mem[t] : mem;
	}
	for (int i = 0; i < hb->n; i++) {
		wide a = (wide)hb->need[i].cpu * 1000000 / cpu;
		wide b = (wide)hb->need[i].mem * 1000000 / mem;
		w[i] = (int64_t)(a > b ? a : b);
	}
	sort_w = w;
	sort_g = hb->gpus;
	qsort(hb->order, (size_t)hb->n, sizeof *hb->order, by_weight_desc);
}

static int hbuy_init(hbuy *hb, const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus,
                     int n)
{
	int64_t *w;
	memset(hb, 0, sizeof *hb);
	hb->pl = pl;
	hb->sh = sh;
	hb->gpus = gpus;
	hb->n = n;
	hb->need = malloc((size_t)n * sizeof *hb->need);
	hb->order = malloc((size_t)n * sizeof *hb->order);
	w = malloc((size_t)n * sizeof *w);
	if (!hb->need || !hb->order || !w) {
		free(w);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		hb->need[i] = gs_host_of_pgpu(pl, gpus[i]);
		hb->order[i] = i;
	}
	sort_by_need(hb, w);
	free(w);
	return 0;
}

static void hbuy_release(hbuy *hb)
{
	free(hb->need);
	free(hb->order);
}

static int has_room(const gs_bnode *b, gs_host need, int span)
{
	gs_host room = gs_host_allocatable(b->inst);
	need.cpu += b->cpu;
	need.mem += b->mem;
	return b->n + span <= b->inst->gpu_count && gs_host_fits(need, room);
}

/* How many GPUs of the entries order[pos..] one node of type t holds,
 * first fit; 0 when it cannot hold the first. */
static int holds(const hbuy *hb, int t, int pos)
{
	const gs_shop *sh = hb->sh;
	gs_host room = { sh->cpu[t], sh->mem[t] }, used = { 0, 0 };
	int slots = sh->insts[t]->gpu_count, held = 0;
	for (int q = pos; q < hb->n && held < slots && q < pos + 4 * slots; q++) {
		gs_host x = hb->need[hb->order[q]];
		gs_host sum = { used.cpu + x.cpu, used.mem + x.mem };
		int span = gs_pgpu_span(hb->gpus[hb->order[q]]);
		if (held + span <= slots && gs_host_fits(sum, room)) {
			used = sum;
			held += span;
		} else if (q == pos) {
			return 0;
		}
	}
	return held;
}

/* The instance type with the lowest price per GPU it holds of what is
 * left from order[pos] on; ties: the lower price. -1 when none holds the
 * GPU at order[pos]. */
static int pick(const hbuy *hb, int pos)
{
	const gs_shop *sh = hb->sh;
	int best = -1, best_held = 0;
	for (int t = 0; t < sh->n; t++) {
		int held = holds(hb, t, pos);
		wide a, b;
		if (!held)
			continue;
		a = (wide)sh->price[t] * best_held;
		b = (wide)(best < 0 ? 0 : sh->price[best]) * held;
		if (best < 0 || a < b || (a == b && sh->price[t] < sh->price[best])) {
			best = t;
			best_held = held;
		}
	}
	return best;
}

static int place(const hbuy *hb, int pos, gs_strategy st, int k, int first, int *cur,
                 gs_nodeset *out)
{
	int i = hb->order[pos], t;
	const gs_pgpu *g = hb->gpus[i];
	gs_bnode *b;
	gs_pgpu_facts f;
	gs_pgpu_facts_of(hb->pl, g, &f);
	while (*cur < out->n && out->v[*cur].n == out->v[*cur].inst->gpu_count)
		(*cur)++;
	for (int j = *cur > first ? *cur : first, seen = 0; j < out->n && seen < HOST_WINDOW;
	     j++, seen++) {
		b = &out->v[j];
		if (has_room(b, hb->need[i], gs_pgpu_span(g)) &&
		    !gs_bnode_clash(hb->pl, b, g, &f))
			return gs_bnode_take(hb->pl, b, g, &f);
	}
	if ((t = pick(hb, pos)) < 0)
		return -2;
	b = gs_bnode_new(out, hb->sh->insts[t], hb->sh->price[t], st, k);
	return b ? gs_bnode_take(hb->pl, b, g, &f) : -1;
}

/* The instance type the count alone buys most of. */
static const gs_instance *count_choice(gs_shop *sh, int n)
{
	int counts[GS_SHOP_MAX], best = -1;
	if (gs_shop_counts(sh, n, counts) < 0)
		return NULL;
	for (int i = 0; i < sh->n; i++)
		if (counts[i] && (best < 0 || counts[i] > counts[best]))
			best = i;
	return best < 0 ? NULL : sh->insts[best];
}

/* Notes what the host requests added to what the count alone buys. */
static int note(gs_shop *sh, const hbuy *hb, gs_nodeset *out, int first)
{
	gs_buy by_count;
	gs_micros bought = 0;
	gs_host_note *nt;
	for (int j = first; j < out->n; j++)
		bought += out->v[j].price;
	if (gs_shop_best(sh, hb->n, &by_count) < 0)
		return -1;
	if (bought <= by_count.cost)
		return 0;
	if (out->nnotes == out->capnotes) {
		int ncap = out->capnotes ? out->capnotes * 2 : 4;
		gs_host_note *v = realloc(out->notes, (size_t)ncap * sizeof *v);
		if (!v)
			return -1;
		out->notes = v;
		out->capnotes = ncap;
	}
	nt = &out->notes[out->nnotes++];
	nt->model = hb->gpus[0]->model;
	nt->gpus = hb->n;
	nt->by_count = by_count.cost;
	nt->bought = bought;
	nt->small = count_choice(sh, hb->n);
	nt->moved = 0;
	for (int j = first; j < out->n; j++)
		nt->moved += out->v[j].inst != nt->small ? out->v[j].n : 0;
	return 0;
}

int gs_nodes_buy_host(const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus, int n,
                      gs_strategy st, int k, gs_nodeset *out)
{
	int first = out->n, cur = first, rc, total = 0;
	hbuy hb;

	for (int i = 0; i < n; i++)
		total += gs_pgpu_span(gpus[i]);
	/* The count's best buy would put GPUs of several-GPU replicas on
	 * nodes too small for them: with those, every node is opened here,
	 * and the others first fill what the wide ones leave free. */
	if (hbuy_init(&hb, pl, sh, gpus, n) < 0 ||
	    (total == n && gs_nodeset_buy_best(sh, n, st, k, out) < 0)) {
		hbuy_release(&hb);
		return -1;
	}
	rc = 0;
	for (int pos = 0; pos < n && rc == 0; pos++)
		rc = place(&hb, pos, st, k, first, &cur, out);
	if (rc == 0) {
		gs_nodeset_drop_empty(out, first);
		rc = gs_nodeset_downsize(pl, sh, out, first);
	}
	/* Replicas of several GPUs are no count's to buy: only host requests
	 * are noted against it. */
	if (rc == 0 && total == n)
		rc = note(sh, &hb, out, first);
	hbuy_release(&hb);
	return rc;
}
