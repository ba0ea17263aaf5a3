/*
 * plan_keys.c - GPUs of one node key share nodes, one device-plugin
 * sharing configuration per node. What a packing costs bought that way,
 * buying it, and the one change to a packing that the price decides.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/host.h"
#include "plan/memo.h"
#include "plan/planner.h"
#include "plan/radix.h"
#include "plan/robust.h"

/* The key of a GPU: its strategy (MPS with its client count), and MIG
 * GPUs that time-slice an instance apart from the others, since they get
 * nodes of their own (pack_mig.c, mig_strict). The device plugin hands any
 * slot of a node to any pod that asks for the resource, so under it a
 * node whose slots are shared holds one tenant: the tenant is part of the
 * key. Keys sort in the order nodes are bought. */
#define KEY_MPS 100
#define KEY_FRAC 200   /* + the backend: fractions of one backend share nodes */
#define KEY_MIG_TS 5
#define KEY_WIDE 10
#define KEY_TENANT 1000

/* Replicas of several GPUs (span N) share the dedicated nodes under the
 * device plugin: on one node its GPUs are interchangeable, so any order of
 * arrival fits as long as what the node's pool admits does. Where pods of
 * different sizes share a pool of several nodes, smaller ones landing first
 * could leave every node with fewer than N GPUs free while as many are free
 * in all: a node that mixes spans is a pool of its own (plan_pools.c), and
 * under robust placement holds the worst case of its workloads
 * (robust_span.c, checked as nodes are bought). DRA's templates do not pin
 * a pod to its node, so there they keep nodes of their own, one span each,
 * and so they do under robust where that plan costs less (wide_apart). */
static int wide_apart(const gs_planner *pl, const gs_pgpu *g)
{
	return gs_pgpu_span(g) > 1 &&
	       (pl->via_dra || (pl->wide_apart && pl->placement == GS_PLACEMENT_ROBUST));
}

static long node_key(const gs_planner *pl, const gs_pgpu *g)
{
	gs_strategy st = g->strategy;
	int mig_ts = st == GS_STRATEGY_MIG && g->mig_ts;
	long base = st == GS_STRATEGY_MPS ? KEY_MPS + g->k : mig_ts ? KEY_MIG_TS : (long)st;
	int shared = st == GS_STRATEGY_TIME_SLICING || st == GS_STRATEGY_MPS || mig_ts;
	if (wide_apart(pl, g))
		return KEY_WIDE + gs_pgpu_span(g);
	/* A fraction's pod may land on any GPU of its node with room for its
	 * cap: its node holds one tenant, under either path. */
	if (st == GS_STRATEGY_FRACTION)
		return KEY_FRAC + gs_pgpu_backend(pl, g) + KEY_TENANT * (1L + g->g[0].tenant);
	if (!shared || pl->via_dra)
		return base;
	return base + KEY_TENANT * (1L + g->g[0].tenant);
}

_Static_assert(KEY_WIDE + 64 < KEY_MPS, "spans above 64 GPUs would meet the MPS keys");
_Static_assert(KEY_MPS + 64 < KEY_FRAC && KEY_FRAC + 8 < KEY_TENANT, "keys overlap");
_Static_assert(GS_STRATEGY_FRACTION < KEY_MIG_TS, "strategies meet the MIG keys");

static gs_strategy key_strategy(long key)
{
	long base = key % KEY_TENANT;
	if (base >= KEY_FRAC)
		return GS_STRATEGY_FRACTION;
	if (base >= KEY_MPS)
		return GS_STRATEGY_MPS;
	if (base > KEY_WIDE)
		return GS_STRATEGY_DEDICATED;
	return base == KEY_MIG_TS ? GS_STRATEGY_MIG : (gs_strategy)base;
}

/* MPS clients per GPU on the key's nodes; 0 for the other strategies. */
static int key_clients(long key)
{
	long base = key % KEY_TENANT;
	return base >= KEY_MPS && base < KEY_FRAC ? (int)(base - KEY_MPS) : 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* Sorts k[0..n) (keys are never negative) a byte at a time, through tmp,
 * up to the largest key's top byte: every price of every packing tried
 * sorts its GPUs' keys, and equal keys are alike, so any sort gives these
 * bytes; qsort where a key is negative. */
static void sort_keys(long *k, long *tmp, int n)
{
	long most = 0;
	for (int i = 0; i < n; i++) {
		if (k[i] < 0) {
			qsort(k, (size_t)n, sizeof *k, cmp_long);
			return;
		}
		most |= k[i];
	}
	for (int shift = 0; shift < 64 && (most >> shift) != 0; shift += 8) {
		int count[257] = { 0 };
		for (int i = 0; i < n; i++)
			count[((k[i] >> shift) & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (int i = 0; i < n; i++)
			tmp[count[(k[i] >> shift) & 0xff]++] = k[i];
		memcpy(k, tmp, (size_t)n * sizeof *k);
	}
}

/* The keys of pk's GPUs in increasing order, in a new array. */
static long *sorted_keys(const gs_planner *pl, const gs_pack *pk)
{
	size_t n = (size_t)(pk->n ? pk->n : 1);
	long *k = malloc(2 * n * sizeof *k);
	if (!k)
		return NULL;
	for (int i = 0; i < pk->n; i++)
		k[i] = node_key(pl, &pk->gpus[i]);
	sort_keys(k, k + n, pk->n);
	return k;
}

int gs_total_less(gs_total a, gs_total b)
{
	if (a.cost != b.cost)
		return a.cost < b.cost;
	if (a.gpus != b.gpus)
		return a.gpus < b.gpus;
	return a.instances < b.instances;
}

/* Where replicas request host CPU or RAM, or hold several GPUs of one
 * node, GPU counts do not price a packing: it is bought as it would be,
 * and what that costs counts. */
static int host_needs(const gs_planner *pl, const gs_pack *pk)
{
	for (int i = 0; (pl->host_needs || pl->wide) && i < pk->n; i++)
		if (gs_pgpu_span(&pk->gpus[i]) > 1 ||
		    (pl->host_needs && !gs_host_none(gs_host_of_pgpu(pl, &pk->gpus[i]))))
			return 1;
	return 0;
}

/* No node holds some GPU's host requests: a price no plan will choose. */
#define UNBUYABLE (INT64_MAX / 64)

/* Adds the nodes that buying (returning rc) put in ns to t, and
 * releases them; where no node holds some GPU (-2), a price no plan will
 * choose. */
static int add_nodes(gs_nodeset *ns, int rc, gs_total *t)
{
	for (int i = 0; rc == 0 && i < ns->n; i++) {
		t->cost += ns->v[i].price;
		t->gpus += ns->v[i].inst->gpu_count;
		t->instances++;
	}
	gs_nodeset_release(ns);
	if (rc == -2) {
		t->cost += UNBUYABLE;
		rc = 0;
	}
	return rc;
}

static int price_bought(const gs_planner *pl, gs_shop *sh, const gs_pack *pk, gs_total *t)
{
	gs_nodeset ns;
	memset(&ns, 0, sizeof ns);
	memset(t, 0, sizeof *t);
	return add_nodes(&ns, gs_buy_pack(pl, sh, pk, &ns), t);
}

/* Must some replica of GPU g keep off nodes that hold others of its
 * workload (nodeset.c, spreads_nodes and gs_robust_mig_node_ok)? spread:
 * node always; spread: gpu wherever its GPUs are not whole. */
static int spreads(const gs_planner *pl, const gs_pgpu *g)
{
	for (int i = 0; i < g->ng; i++)
		for (int r = 0; r < g->g[i].n; r++) {
			gs_spread sp = pl->reps[g->g[i].reps[r]].spread;
			if (sp == GS_SPREAD_NODE ||
			    (sp == GS_SPREAD_GPU && g->strategy != GS_STRATEGY_DEDICATED))
				return 1;
		}
	return 0;
}

/* Could buying keep some of on[0..n), the GPUs of node key `key`, off a
 * node that their count would fill? Spread may; so may a shared node's
 * worst case (gs_robust_node_ok) unless all of them on one node keep it,
 * and then so does every node of some of them; and a fraction's node
 * check. Dedicated and MIG GPUs without spread go on any node. */
static int may_clash(const gs_planner *pl, const gs_pgpu **on, int n, long key)
{
	gs_strategy st = key_strategy(key);
	for (int i = 0; i < n; i++)
		if (spreads(pl, on[i]))
			return 1;
	if (st == GS_STRATEGY_FRACTION)
		return 1;
	return (st == GS_STRATEGY_TIME_SLICING || st == GS_STRATEGY_MPS) &&
	       !gs_robust_node_holds(pl, on, n, st, key_clients(key));
}

/* Adds what on[0..n) of node key `key` cost bought as buying does. */
static int add_bought(const gs_planner *pl, gs_shop *sh, const gs_pgpu **on, int n, long key,
                      gs_total *t)
{
	gs_nodeset ns;
	memset(&ns, 0, sizeof ns);
	return add_nodes(&ns, gs_nodes_buy(pl, sh, on, n, key_strategy(key), key_clients(key), &ns),
	                 t);
}

/* The memo's key of buying on[0..n) of node key `key` (its tag apart
 * from plan_choose.c's): what buying reads of the planner and of each
 * GPU. NULL when there is no memo. */
#define MEMO_BOUGHT 8
#define BOUGHT_HEAD 8

static int64_t *bought_key(const gs_planner *pl, const gs_shop *sh, const gs_pgpu **on, int n,
                           long key, int *nkey)
{
	size_t words = BOUGHT_HEAD;
	int64_t *k;
	int at = 0;
	if (!pl->memo || pl->probe)
		return NULL;
	for (int i = 0; i < n; i++) {
		words += 5;
		for (int j = 0; j < on[i]->ng; j++)
			words += 3 + (size_t)on[i]->g[j].n;
	}
	if (words > INT32_MAX || !(k = malloc(words * sizeof *k)))
		return NULL;
	k[at++] = MEMO_BOUGHT;
	k[at++] = gs_shop_key(sh);
	k[at++] = key;
	k[at++] = n;
	k[at++] = pl->target;
	k[at++] = pl->placement;
	k[at++] = pl->via_dra;
	k[at++] = pl->robust_bound != NULL;
	for (int i = 0; i < n; i++) {
		const gs_pgpu *g = on[i];
		k[at++] = g->strategy;
		k[at++] = g->k;
		k[at++] = g->span;
		k[at++] = g->ng;
		k[at++] = g->ng ? g->g[0].tenant : -1;
		for (int j = 0; j < g->ng; j++) {
			k[at++] = (int64_t)(intptr_t)g->g[j].prof;
			k[at++] = g->g[j].start;
			k[at++] = g->g[j].n;
			for (int r = 0; r < g->g[j].n; r++)
				k[at++] = g->g[j].reps[r];
		}
	}
	*nkey = at;
	return k;
}

/* add_bought, or its result from the memo: the search prices the same
 * tenant's GPUs again at every move of another tenant's workloads. */
static int add_bought_memo(const gs_planner *pl, gs_shop *sh, const gs_pgpu **on, int n,
                           long key, gs_total *t)
{
	long before = pl->robust_bound ? *pl->robust_bound : 0, counted;
	int nkey = 0, nval, rc;
	int64_t *k = bought_key(pl, sh, on, n, key, &nkey);
	const int64_t *got = k ? gs_memo_get(pl->memo, k, nkey, &nval, &counted) : NULL;
	gs_total one = { 0, 0, 0 };
	if (got) {
		one.cost = got[0];
		one.gpus = (long)got[1];
		one.instances = (long)got[2];
		if (pl->robust_bound)
			*pl->robust_bound += counted;
	} else if ((rc = add_bought(pl, sh, on, n, key, &one)) < 0) {
		free(k);
		return rc;
	} else if (k) {
		int64_t val[3] = { one.cost, one.gpus, one.instances };
		gs_memo_put(pl->memo, k, nkey, val, 3,
		            pl->robust_bound ? *pl->robust_bound - before : 0);
	}
	free(k);
	t->cost += one.cost;
	t->gpus += one.gpus;
	t->instances += one.instances;
	return 0;
}

static int gpus_by_key(const gs_planner *pl, const gs_pack *pk, const gs_pgpu ***out,
                       long **keys);

/* Adds the best buy of a count of GPUs. */
static void add_buy(gs_total *t, gs_buy b)
{
	t->cost += b.cost;
	t->gpus += b.gpus;
	t->instances += b.instances;
}

/* pk's price, each node key's GPUs counted (the best buy of that many),
 * unless that buy fills nodes of several GPUs that buying may not fill:
 * then those GPUs are bought (v and keys: pk's GPUs by key, found the
 * first time they are needed). */
static int price_keys(const gs_planner *pl, gs_shop *sh, const gs_pack *pk, const long *sorted,
                      gs_total *t)
{
	const gs_pgpu **v = NULL;
	long *keys = NULL;
	int rc = 0;
	for (int i = 0, j; rc == 0 && i < pk->n; i = j) {
		gs_buy b;
		for (j = i; j < pk->n && sorted[j] == sorted[i]; j++)
			;
		if (gs_shop_best(sh, j - i, &b) < 0 || b.cost < 0) {
			rc = -1;
			break;
		}
		if (b.instances == b.gpus) {
			add_buy(t, b);
			continue;
		}
		/* Sorted alike: group [i, j) is v[i..j), in the packing's order. */
		if (!v && (rc = gpus_by_key(pl, pk, &v, &keys)) < 0)
			break;
		if (may_clash(pl, v + i, j - i, sorted[i]))
			rc = add_bought_memo(pl, sh, v + i, j - i, sorted[i], t);
		else
			add_buy(t, b);
	}
	free(v);
	free(keys);
	return rc;
}

int gs_price_pack(const gs_planner *pl, gs_shop *sh, const gs_pack *pk, gs_total *t)
{
	long *keys;
	int rc;
	if (host_needs(pl, pk))
		return price_bought(pl, sh, pk, t);
	keys = sorted_keys(pl, pk);
	memset(t, 0, sizeof *t);
	rc = keys ? price_keys(pl, sh, pk, keys, t) : -1;
	free(keys);
	return rc;
}

/* The planner's model that a packing of replicas belongs to: its GPU,
 * and the arch its replicas ask for; -1 for an empty packing. */
static int model_of(const gs_planner *pl, const gs_pack *pk)
{
	gs_arch want = GS_ARCH_ANY;
	/* The arch its replicas ask for, when one does: a pack holds the
	 * replicas of one model, all compatible with its arch. */
	for (int i = 0; i < pk->n && want == GS_ARCH_ANY; i++)
		for (int j = 0; j < pk->gpus[i].ng && want == GS_ARCH_ANY; j++)
			for (int k = 0; k < pk->gpus[i].g[j].n && want == GS_ARCH_ANY; k++)
				want = pl->reps[pk->gpus[i].g[j].reps[k]].w->arch;
	for (int m = 0; pk->n && m < pl->nmodels; m++)
		if (pl->models[m] == pk->gpus[0].model &&
		    (want == GS_ARCH_ANY || want == pl->model_arch[m]))
			return m;
	return -1;
}

int gs_pack_cost(const gs_planner *pl, const gs_pack *pk, gs_micros *cost)
{
	gs_total t;
	int m;
	if (!pk->n) {
		*cost = 0;
		return 0;
	}
	m = model_of(pl, pk);
	if (m < 0 || gs_price_pack(pl, &pl->shops[m], pk, &t) < 0)
		return -1;
	*cost = t.cost;
	return 0;
}

/* A lone replica that may be time-sliced can sit on a time-slicing node
 * instead of a dedicated one; worth it when it saves buying a second
 * kind of node (three replicas on 8-GPU instances: one node, not two). */
static int to_time_slicing(const gs_planner *pl, gs_pack *pk)
{
	int moved = 0;
	for (int i = 0; i < pk->n; i++) {
		gs_pgpu *g = &pk->gpus[i];
		const gs_replica *r = g->ng == 1 && g->g[0].n == 1 ? &pl->reps[g->g[0].reps[0]]
		                                                   : NULL;
		if (g->strategy != GS_STRATEGY_DEDICATED || !r || r->w->isolation_fault ||
		    r->no_ts || gs_pgpu_span(g) > 1)
			continue;
		/* Robust: the node's slots would take two of its own at once. */
		if (pl->placement == GS_PLACEMENT_ROBUST && r->w->replicas > 1 &&
		    r->w->spread == GS_SPREAD_NONE)
			continue;
		g->strategy = GS_STRATEGY_TIME_SLICING;
		g->k = 1;
		moved++;
	}
	return moved;
}

/* Is g a whole GPU's MIG instance: a fault-isolated replica alone on it
 * (gs_mig_candidate_for)? */
static int whole_instance(const gs_pgpu *g)
{
	return g->strategy == GS_STRATEGY_MIG && g->ng == 1 && g->g[0].prof &&
	       g->g[0].prof->compute_slices >= g->model->mig_compute_slices;
}

/* The whole GPU's profile that the fault-isolated replica alone on
 * dedicated GPU g may take instead, as gs_mig_rule allows MIG; NULL when
 * none. */
static const gs_mig_profile *whole_for(const gs_planner *pl, const gs_pgpu *g)
{
	const gs_group *gr = &g->g[0];
	const gs_replica *r;
	if (g->strategy != GS_STRATEGY_DEDICATED || g->ng != 1 || gr->n != 1 ||
	    gs_pgpu_span(g) > 1 || pl->no_mig || !g->model->mig_slots)
		return NULL;
	r = &pl->reps[gr->reps[0]];
	if (!r->w->isolation_fault || r->no_mig)
		return NULL;
	for (size_t i = 0; i < g->model->n_mig_profiles; i++) {
		const gs_mig_profile *p = &g->model->mig_profiles[i];
		if (gs_mig_candidate_for(g->model, p, 1) && !gs_mig_candidate(g->model, p) &&
		    gs_mig_holds(pl, g->model, gr, p, NULL) == GS_RULE_OK)
			return p;
	}
	return NULL;
}

/* Flips each GPU i with prof[i] between a dedicated GPU and the whole
 * GPU's instance of prof[i]. */
static void flip(gs_pack *pk, const gs_mig_profile **prof)
{
	for (int i = 0; i < pk->n; i++) {
		gs_pgpu *g = &pk->gpus[i];
		if (!prof[i])
			continue;
		if (g->strategy == GS_STRATEGY_MIG) {
			g->strategy = GS_STRATEGY_DEDICATED;
			g->g[0].prof = NULL;
			continue;
		}
		g->strategy = GS_STRATEGY_MIG;
		g->g[0].prof = prof[i];
		g->g[0].start = 0;
		g->g[0].strict = 1;
	}
}

/* The whole GPU's profile that g flips to (promote) or from (not): NULL
 * where it does not flip. */
static const gs_mig_profile *flips(const gs_planner *pl, const gs_pgpu *g, int promote)
{
	if (promote)
		return whole_for(pl, g);
	return whole_instance(g) ? g->g[0].prof : NULL;
}

int gs_settle_whole(const gs_planner *pl, gs_shop *sh, gs_pack *pk, int promote)
{
	const gs_mig_profile **prof;
	gs_total was, now;
	int n = 0, mig = 0, rc = 0;
	/* A whole-GPU instance pays only beside other MIG GPUs. */
	for (int i = 0; promote && i < pk->n; i++)
		mig += pk->gpus[i].strategy == GS_STRATEGY_MIG;
	if (promote && !mig)
		return 0;
	for (int i = 0; i < pk->n; i++)
		n += flips(pl, &pk->gpus[i], promote) != NULL;
	if (!n)
		return 0;
	if (!(prof = calloc((size_t)pk->n, sizeof *prof)))
		return -1;
	for (int i = 0; i < pk->n; i++)
		prof[i] = flips(pl, &pk->gpus[i], promote);
	if (gs_price_pack(pl, sh, pk, &was) == 0) {
		flip(pk, prof);
		/* Dedicated where it ties; MIG only where it saves. */
		if (gs_price_pack(pl, sh, pk, &now) < 0 ||
		    (promote ? !gs_total_less(now, was) : gs_total_less(was, now)))
			flip(pk, prof);
		else
			rc = 1;
	}
	free(prof);
	return rc;
}

int gs_merge_dedicated(const gs_planner *pl, gs_shop *sh, gs_pack *pk)
{
	gs_total before, after;
	int ts = 0;
	if (gs_settle_whole(pl, sh, pk, 0) < 0)
		return -1;
	for (int i = 0; i < pk->n; i++)
		ts += pk->gpus[i].strategy == GS_STRATEGY_TIME_SLICING;
	if (!ts || gs_price_pack(pl, sh, pk, &before) < 0)
		return 0;
	if (!to_time_slicing(pl, pk) ||
	    (gs_price_pack(pl, sh, pk, &after) == 0 && gs_total_less(after, before)))
		return 0;
	/* Not cheaper: back to dedicated (shared groups have k > 1). */
	for (int i = 0; i < pk->n; i++)
		if (pk->gpus[i].strategy == GS_STRATEGY_TIME_SLICING && pk->gpus[i].k == 1) {
			pk->gpus[i].strategy = GS_STRATEGY_DEDICATED;
			pk->gpus[i].k = 0;
		}
	return 0;
}

/* By key, then place in the packing, keys compared signed: the order
 * where some key is negative and the radix sort's would not do. */
static int by_key_then_place(const void *a, const void *b)
{
	const gs_keyed *x = a, *y = b;
	if (x->key != y->key)
		return (int64_t)x->key < (int64_t)y->key ? -1 : 1;
	return (x->val > y->val) - (x->val < y->val);
}

/* Sorts v[0..n) by key, keeping the packing's order among equal keys. */
static void sort_keyed(gs_keyed *v, gs_keyed *tmp, int n)
{
	for (int i = 0; i < n; i++)
		if ((int64_t)v[i].key < 0) {
			qsort(v, (size_t)n, sizeof *v, by_key_then_place);
			return;
		}
	gs_radix_sort(v, tmp, (size_t)n);
}

/* pk's GPUs grouped by key in key order, each group in the packing's
 * order, in a new array; keys[i] the key of out[i]. One pass, where
 * collecting each key's GPUs apart read the whole packing once per key. */
static int gpus_by_key(const gs_planner *pl, const gs_pack *pk, const gs_pgpu ***out,
                       long **keys)
{
	size_t n = (size_t)(pk->n ? pk->n : 1);
	gs_keyed *k = malloc(2 * n * sizeof *k);
	const gs_pgpu **v = malloc(n * sizeof *v);
	long *kv = malloc(n * sizeof *kv);
	if (!k || !v || !kv) {
		free(k);
		free(v);
		free(kv);
		return -1;
	}
	for (int i = 0; i < pk->n; i++) {
		k[i].key = (uint64_t)node_key(pl, &pk->gpus[i]);
		k[i].val = (size_t)i;
	}
	sort_keyed(k, k + n, pk->n);
	for (int i = 0; i < pk->n; i++) {
		v[i] = &pk->gpus[k[i].val];
		kv[i] = (long)k[i].key;
	}
	free(k);
	*out = v;
	*keys = kv;
	return 0;
}

int gs_buy_pack(const gs_planner *pl, gs_shop *sh, const gs_pack *pk, gs_nodeset *ns)
{
	const gs_pgpu **v = NULL;
	long *keys = NULL;
	int rc = gpus_by_key(pl, pk, &v, &keys);
	/* Each distinct key once, in key order. */
	for (int i = 0, j; rc == 0 && i < pk->n; i = j) {
		for (j = i; j < pk->n && keys[j] == keys[i]; j++)
			;
		rc = gs_nodes_buy(pl, sh, v + i, j - i, key_strategy(keys[i]),
		                  key_clients(keys[i]), ns);
	}
	free(v);
	free(keys);
	return rc;
}
