/*
 * plan.c - the planner: choose a GPU model per workload, pack, buy
 * instances, and keep the cheapest result (ties: fewer GPUs, then fewer
 * instances). Every step iterates in a fixed order, so the same input
 * always gives the same plan.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "plan/strategy.h"

typedef struct gs_total {
	gs_micros cost;
	long gpus, instances;
} gs_total;

static int total_less(gs_total a, gs_total b)
{
	if (a.cost != b.cost)
		return a.cost < b.cost;
	if (a.gpus != b.gpus)
		return a.gpus < b.gpus;
	return a.instances < b.instances;
}

typedef struct tkey {
	const char *tenant;
	size_t wi;
} tkey;

static int by_tenant(const void *a, const void *b)
{
	const tkey *x = a, *y = b;
	int c = strcmp(x->tenant, y->tenant);
	return c ? c : (x->wi > y->wi) - (x->wi < y->wi);
}

/* Tenant ids: the index of the first workload of each tenant, found by
 * sorting rather than by comparing every pair. */
static int tenant_ids(const gs_scenario *s, int *ids)
{
	tkey *k = malloc((s->n ? s->n : 1) * sizeof *k);
	if (!k)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		k[i].tenant = s->w[i]->tenant;
		k[i].wi = i;
	}
	qsort(k, s->n, sizeof *k, by_tenant);
	for (size_t i = 0, first = 0; i < s->n; i++) {
		if (i && strcmp(k[i].tenant, k[i - 1].tenant) != 0)
			first = i;
		ids[k[i].wi] = (int)k[first].wi;
	}
	free(k);
	return 0;
}

static int pack_cost(const gs_planner *pl, const gs_pack *pk, gs_micros *cost);

static int planner_init(gs_planner *pl, const gs_scenario *s, gs_shop *shops)
{
	int n = 0, *tids;
	memset(pl, 0, sizeof *pl);
	pl->s = s;
	pl->cat = s->cat;
	pl->target = s->target_ppm;
	pl->via_dra = s->via == GS_VIA_DRA;
	pl->cost = pack_cost;
	pl->shops = shops;
	for (size_t i = 0; i < s->n; i++)
		n += s->w[i]->pub.replicas;
	if (!(pl->reps = calloc((size_t)(n ? n : 1), sizeof *pl->reps)) ||
	    !(tids = malloc((s->n ? s->n : 1) * sizeof *tids)) || tenant_ids(s, tids) < 0)
		return -1;
	pl->ntenants = (int)s->n;
	for (size_t i = 0; i < s->n; i++) {
		int tid = tids[i], nots = gs_strategy_ts_rule(&s->w[i]->pub) != NULL;
		for (int r = 0; r < s->w[i]->pub.replicas; r++) {
			gs_replica *p = &pl->reps[pl->nreps++];
			p->w = &s->w[i]->pub;
			p->wi = (int)i;
			p->replica = r;
			p->tenant = tid;
			p->no_ts = nots;
		}
	}
	free(tids);
	for (size_t g = 0; g < gs_catalog_gpu_count(s->cat) && pl->nmodels < 64; g++) {
		gs_shop *sh = &shops[pl->nmodels];
		gs_shop_init(sh, s, gs_catalog_gpu(s->cat, g));
		if (sh->n == 0)
			continue;
		pl->models[pl->nmodels] = gs_catalog_gpu(s->cat, g);
		pl->gpu_price[pl->nmodels] = -1;
		for (int i = 0; i < sh->n; i++) {
			gs_micros per = gs_div_ceil(sh->price[i], sh->insts[i]->gpu_count);
			if (pl->gpu_price[pl->nmodels] < 0 || per < pl->gpu_price[pl->nmodels])
				pl->gpu_price[pl->nmodels] = per;
		}
		pl->nmodels++;
	}
	return 0;
}

/* ---- evaluation ----------------------------------------------------------- */

typedef struct gs_choice {
	int *model;      /* per workload: index into pl->models */
	int **cands;     /* per workload: candidate model indices */
	int *ncand;
	gs_total *per_model;
	int *first_rep;  /* per workload: its first replica */
} gs_choice;

/* GPUs of one key share nodes: one device-plugin config per node. MIG
 * GPUs that time-slice an instance get nodes of their own (see pack.c,
 * mig_strict). The device plugin hands any slot of a node to any pod
 * that asks for the resource, so under it a node whose slots are shared
 * holds one tenant: the tenant is part of the key. */
#define KEY_MIG_TS 4
#define KEY_TENANT 1000
static long kind_key(const gs_planner *pl, const gs_pgpu *g)
{
	long base = g->kind == GS_STRATEGY_MPS ? 100 + g->k
	            : g->kind == GS_STRATEGY_MIG && g->mig_ts ? KEY_MIG_TS : (long)g->kind;
	int shared = g->kind == GS_STRATEGY_TIME_SLICING || g->kind == GS_STRATEGY_MPS || (g->kind == GS_STRATEGY_MIG && g->mig_ts);
	if (!shared || pl->via_dra)
		return base;
	return base + KEY_TENANT * (1L + g->g[0].tenant);
}

static gs_strategy key_kind(long key)
{
	long base = key % KEY_TENANT;
	return base >= 100 ? GS_STRATEGY_MPS : base == KEY_MIG_TS ? GS_STRATEGY_MIG : (gs_strategy)base;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The pack's distinct keys in increasing order; returns how many. */
static long pack_keys(const gs_planner *pl, const gs_pack *pk, long **out)
{
	long *k = malloc((size_t)(pk->n ? pk->n : 1) * sizeof *k), n = 0;
	if (!k)
		return -1;
	for (int i = 0; i < pk->n; i++)
		k[i] = kind_key(pl, &pk->gpus[i]);
	qsort(k, (size_t)pk->n, sizeof *k, cmp_long);
	for (int i = 0; i < pk->n; i++)
		if (i == 0 || k[i] != k[n - 1])
			k[n++] = k[i];
	*out = k;
	return n;
}

/* A lone replica that may be time-sliced can sit on a time-slicing node
 * instead of a dedicated one; worth it when it saves buying a second
 * kind of node (three replicas on 8-GPU instances: one node, not two). */
static int merge_dedicated(const gs_planner *pl, gs_shop *sh, gs_pack *pk);

/* What buying this packing costs, one sharing configuration per node. */
static int price_pack(const gs_planner *pl, gs_shop *sh, const gs_pack *pk, gs_total *t)
{
	long *keys = malloc((size_t)(pk->n ? pk->n : 1) * sizeof *keys);
	int rc = keys ? 0 : -1;
	memset(t, 0, sizeof *t);
	for (int i = 0; keys && i < pk->n; i++)
		keys[i] = kind_key(pl, &pk->gpus[i]);
	if (keys)
		qsort(keys, (size_t)pk->n, sizeof *keys, cmp_long);
	for (int i = 0, j; rc == 0 && i < pk->n; i = j) {
		gs_buy b;
		for (j = i; j < pk->n && keys[j] == keys[i]; j++)
			;
		if (gs_shop_best(sh, j - i, &b) < 0 || b.cost < 0) {
			rc = -1;
			break;
		}
		t->cost += b.cost;
		t->gpus += b.gpus;
		t->instances += b.instances;
	}
	free(keys);
	return rc;
}

static int pack_cost(const gs_planner *pl, const gs_pack *pk, gs_micros *cost)
{
	gs_shop *shops = pl->shops;
	gs_total t;
	if (!pk->n) {
		*cost = 0;
		return 0;
	}
	for (int m = 0; m < pl->nmodels; m++)
		if (pl->models[m] == pk->gpus[0].model) {
			if (price_pack(pl, &shops[m], pk, &t) < 0)
				return -1;
			*cost = t.cost;
			return 0;
		}
	return -1;
}

static int reps_of_model(const gs_planner *pl, const gs_choice *c, int m, int **out, int *n)
{
	int *v = malloc((size_t)(pl->nreps ? pl->nreps : 1) * sizeof *v), k = 0;
	if (!v)
		return -1;
	for (int r = 0; r < pl->nreps; r++)
		if (c->model[pl->reps[r].wi] == m)
			v[k++] = r;
	*out = v;
	*n = k;
	return 0;
}

static int eval_model(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m, gs_total *t)
{
	int *reps, n, rc;
	gs_pack pk;
	if (reps_of_model(pl, c, m, &reps, &n) < 0)
		return -1;
	memset(t, 0, sizeof *t);
	if (n == 0) {
		free(reps);
		return 0;
	}
	rc = gs_pack_model(pl, pl->models[m], reps, n, &pk);
	free(reps);
	if (rc < 0)
		return -1;
	if ((rc = merge_dedicated(pl, &shops[m], &pk)) == 0)
		rc = price_pack(pl, &shops[m], &pk, t);
	gs_pack_free(&pk);
	return rc;
}

static gs_total sum_totals(const gs_planner *pl, const gs_choice *c)
{
	gs_total t = { 0, 0, 0 };
	for (int m = 0; m < pl->nmodels; m++) {
		t.cost += c->per_model[m].cost;
		t.gpus += c->per_model[m].gpus;
		t.instances += c->per_model[m].instances;
	}
	return t;
}

/* The fraction of a GPU of model m a workload needs at least, in ppm. */
static int64_t need_ppm(const gs_planner *pl, const gs_workload *w, int m)
{
	const gs_gpu *g = pl->models[m];
	int64_t mem = w->memory_bytes * GS_PPM / (g->memory_mib << 20);
	int64_t cmp = gs_workload_compute_on(w, g) * GS_PPM / pl->target;
	int64_t need = mem > cmp ? mem : cmp;
	if (w->isolation_fault)
		need = g->mig_slots ? (need > GS_PPM / 7 ? need : GS_PPM / 7) : GS_PPM;
	return need > GS_PPM ? GS_PPM : need;
}

static int choice_init(const gs_planner *pl, gs_choice *c)
{
	const gs_scenario *s = pl->s;
	memset(c, 0, sizeof *c);
	if (!(c->model = calloc(s->n, sizeof *c->model)) ||
	    !(c->cands = calloc(s->n, sizeof *c->cands)) ||
	    !(c->ncand = calloc(s->n, sizeof *c->ncand)) ||
	    !(c->per_model = calloc(64, sizeof *c->per_model)))
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const gs_workload *w = &s->w[i]->pub;
		const gs_gpu *allowed[64];
		size_t na = gs_workload_models(s, w, allowed, 64);
		int best = -1;
		__extension__ __int128 bestv = 0;
		if (!(c->cands[i] = calloc(64, sizeof **c->cands)))
			return -1;
		for (int m = 0; m < pl->nmodels; m++) {
			int ok = 0;
			for (size_t a = 0; a < na; a++)
				ok |= allowed[a] == pl->models[m];
			if (!ok || w->memory_bytes > (pl->models[m]->memory_mib << 20) ||
			    gs_workload_compute_on(w, pl->models[m]) > GS_PPM)
				continue;
			c->cands[i][c->ncand[i]++] = m;
			{
				__extension__ __int128 v = (__int128)pl->gpu_price[m] * need_ppm(pl, w, m);
				if (best < 0 || v < bestv) {
					best = m;
					bestv = v;
				}
			}
		}
		if (best < 0)
			return -2;
		c->model[i] = best;
	}
	return 0;
}

static void choice_free(const gs_planner *pl, gs_choice *c)
{
	for (size_t i = 0; c->cands && i < pl->s->n; i++)
		free(c->cands[i]);
	free(c->cands);
	free(c->model);
	free(c->ncand);
	free(c->per_model);
}

/* Moves one workload to another model if the whole plan gets cheaper. */
static int try_move(const gs_planner *pl, gs_shop *shops, gs_choice *c, size_t w, int to,
                    int *improved)
{
	int from = c->model[w];
	gs_total before = sum_totals(pl, c), tf, tt, after;
	c->model[w] = to;
	if (eval_model(pl, shops, c, from, &tf) < 0 || eval_model(pl, shops, c, to, &tt) < 0)
		return -1;
	after = before;
	after.cost += tf.cost + tt.cost - c->per_model[from].cost - c->per_model[to].cost;
	after.gpus += tf.gpus + tt.gpus - c->per_model[from].gpus - c->per_model[to].gpus;
	after.instances += tf.instances + tt.instances - c->per_model[from].instances -
	                   c->per_model[to].instances;
	if (total_less(after, before)) {
		c->per_model[from] = tf;
		c->per_model[to] = tt;
		*improved = 1;
	} else {
		c->model[w] = from;
	}
	return 0;
}

static int can_use(const gs_choice *c, size_t w, int m)
{
	for (int k = 0; k < c->ncand[w]; k++)
		if (c->cands[w][k] == m)
			return 1;
	return 0;
}

/* Moves every workload of model `from` that may run on `to` there at once:
 * single moves cannot find that two workloads are cheaper together. */
static int try_merge(const gs_planner *pl, gs_shop *shops, gs_choice *c, int from, int to,
                     int *improved)
{
	int *saved = malloc(pl->s->n * sizeof *saved), moved = 0, rc = 0;
	gs_total before = sum_totals(pl, c), tf, tt, after;
	if (!saved)
		return -1;
	memcpy(saved, c->model, pl->s->n * sizeof *saved);
	for (size_t w = 0; w < pl->s->n; w++)
		if (c->model[w] == from && can_use(c, w, to)) {
			c->model[w] = to;
			moved = 1;
		}
	if (moved && (eval_model(pl, shops, c, from, &tf) < 0 ||
	              eval_model(pl, shops, c, to, &tt) < 0))
		rc = -1;
	if (rc == 0 && moved) {
		after = before;
		after.cost += tf.cost + tt.cost - c->per_model[from].cost - c->per_model[to].cost;
		after.gpus += tf.gpus + tt.gpus - c->per_model[from].gpus - c->per_model[to].gpus;
		after.instances += tf.instances + tt.instances -
		                   c->per_model[from].instances - c->per_model[to].instances;
		if (total_less(after, before)) {
			c->per_model[from] = tf;
			c->per_model[to] = tt;
			*improved = 1;
			free(saved);
			return 0;
		}
	}
	memcpy(c->model, saved, pl->s->n * sizeof *saved);
	free(saved);
	return rc;
}

/* Local search over model choices, within a budget of re-packings that
 * shrinks as fleets grow so that 100,000 replicas still plan in a second. */
static int improve(const gs_planner *pl, gs_shop *shops, gs_choice *c)
{
	/* Each evaluation re-packs one or two models: O(replicas). Small
	 * fleets get a larger share (measured: 2% cheaper at 1,000 replicas);
	 * large ones stay fast enough to re-plan at every REPL edit. */
	long budget = pl->nreps ? (pl->nreps <= 2000 ? 1000000L : 300000L) / pl->nreps : 0;
	if (budget > 1000)
		budget = 1000;
	for (int pass = 0; pass < 4 && budget > 0; pass++) {
		int improved = 0;
		for (int a = 0; a < pl->nmodels && budget > 0; a++)
			for (int b = 0; b < pl->nmodels && budget > 0; b++) {
				if (a == b || !c->per_model[a].gpus)
					continue;
				if (try_merge(pl, shops, c, a, b, &improved) < 0)
					return -1;
				budget -= 2;
			}
		for (size_t w = 0; w < pl->s->n && budget > 0; w++)
			for (int k = 0; k < c->ncand[w] && budget > 0; k++) {
				if (c->cands[w][k] == c->model[w])
					continue;
				if (try_move(pl, shops, c, w, c->cands[w][k], &improved) < 0)
					return -1;
				budget -= 2;
			}
		if (!improved)
			break;
	}
	return 0;
}

/* ---- building the result ---------------------------------------------------- */

static int collect_kind(const gs_planner *pl, const gs_pack *pk, long key, const gs_pgpu ***out,
                        int *n)
{
	const gs_pgpu **v = malloc((size_t)(pk->n ? pk->n : 1) * sizeof *v);
	int k = 0;
	if (!v)
		return -1;
	for (int i = 0; i < pk->n; i++)
		if (kind_key(pl, &pk->gpus[i]) == key)
			v[k++] = &pk->gpus[i];
	*out = v;
	*n = k;
	return 0;
}

/* Buys nodes for every kind of GPU in the packing, in key order. */
static int buy_pack(const gs_planner *pl, gs_shop *sh, const gs_pack *pk, gs_nodeset *ns)
{
	long *keys, nk = pack_keys(pl, pk, &keys);
	int rc = nk < 0 ? -1 : 0;
	for (long i = 0; rc == 0 && i < nk; i++) {
		const gs_pgpu **v;
		int n;
		long base = keys[i] % KEY_TENANT;
		if ((rc = collect_kind(pl, pk, keys[i], &v, &n)) < 0)
			break;
		rc = gs_nodes_buy(pl, sh, v, n, key_kind(keys[i]), base >= 100 ? (int)(base - 100) : 0, ns);
		free(v);
	}
	if (nk >= 0)
		free(keys);
	return rc;
}

static void count_nodes(const gs_nodeset *ns, gs_micros *cost, int *gpus, int *insts)
{
	for (int i = 0; i < ns->n; i++) {
		*cost += ns->v[i].price;
		*gpus += ns->v[i].inst->gpu_count;
		(*insts)++;
	}
}

static int merge_dedicated(const gs_planner *pl, gs_shop *sh, gs_pack *pk)
{
	gs_total before, after;
	int ts = 0, moved = 0;
	for (int i = 0; i < pk->n; i++)
		ts += pk->gpus[i].kind == GS_STRATEGY_TIME_SLICING;
	if (!ts || price_pack(pl, sh, pk, &before) < 0)
		return 0;
	for (int i = 0; i < pk->n; i++) {
		gs_pgpu *g = &pk->gpus[i];
		const gs_replica *r = g->ng == 1 && g->g[0].n == 1 ? &pl->reps[g->g[0].reps[0]] : NULL;
		if (g->kind != GS_STRATEGY_DEDICATED || !r || r->w->isolation_fault || r->no_ts)
			continue;
		g->kind = GS_STRATEGY_TIME_SLICING;
		g->k = 1;
		moved++;
	}
	if (!moved || (price_pack(pl, sh, pk, &after) == 0 && total_less(after, before)))
		return 0;
	for (int i = 0; i < pk->n; i++)
		if (pk->gpus[i].kind == GS_STRATEGY_TIME_SLICING && pk->gpus[i].k == 1) {
			pk->gpus[i].kind = GS_STRATEGY_DEDICATED;
			pk->gpus[i].k = 0;
		}
	return 0;
}

/* Packs and bought nodes: the nodes point into the packs' GPUs. */
typedef struct gs_built {
	gs_pack *packs;
	int npacks;
	gs_nodeset ns;
	gs_micros cost;
	int64_t comp;    /* planned compute, ppm of a GPU, for utilization */
} gs_built;

static void built_free(gs_built *b)
{
	gs_nodeset_free(&b->ns);
	for (int m = 0; b->packs && m < b->npacks; m++)
		gs_pack_free(&b->packs[m]);
	free(b->packs);
	memset(b, 0, sizeof *b);
}

static int built_init(const gs_planner *pl, gs_built *b)
{
	memset(b, 0, sizeof *b);
	b->npacks = pl->nmodels;
	return (b->packs = calloc((size_t)(pl->nmodels ? pl->nmodels : 1), sizeof *b->packs))
	           ? 0 : -1;
}

static int buy_all(const gs_planner *pl, gs_shop *shops, gs_built *b)
{
	for (int m = 0; m < pl->nmodels; m++)
		if (b->packs[m].n && buy_pack(pl, &shops[m], &b->packs[m], &b->ns) < 0)
			return -1;
	for (int i = 0; i < b->ns.n; i++)
		b->cost += b->ns.v[i].price;
	return 0;
}

/* The shared plan: pack each model's workloads, then buy. */
static int build_after(const gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b)
{
	if (built_init(pl, b) < 0)
		return -1;
	for (int m = 0; m < pl->nmodels; m++) {
		int *reps, n, rc;
		if (reps_of_model(pl, c, m, &reps, &n) < 0)
			return -1;
		rc = n ? gs_pack_model(pl, pl->models[m], reps, n, &b->packs[m]) : 0;
		free(reps);
		if (rc < 0 || merge_dedicated(pl, &shops[m], &b->packs[m]) < 0)
			return -1;
	}
	return buy_all(pl, shops, b);
}

static int add_dedicated(gs_pack *pk, const gs_gpu *model, int r)
{
	gs_pgpu *g;
	if (pk->n == pk->cap) {
		int ncap = pk->cap ? pk->cap * 2 : 8;
		gs_pgpu *v = realloc(pk->gpus, (size_t)ncap * sizeof *v);
		if (!v)
			return -1;
		pk->gpus = v;
		pk->cap = ncap;
	}
	g = &pk->gpus[pk->n++];
	memset(g, 0, sizeof *g);
	g->model = model;
	g->kind = GS_STRATEGY_DEDICATED;
	if (!(g->g = calloc(1, sizeof *g->g)) || !(g->g[0].reps = malloc(sizeof(int))))
		return -1;
	g->g[0].reps[0] = r;
	g->g[0].n = g->g[0].cap = 1;
	g->ng = g->capg = 1;
	return 0;
}

static int has_kind(const gs_built *b, gs_strategy k)
{
	for (int i = 0; i < b->ns.n; i++)
		if (b->ns.v[i].kind == k)
			return 1;
	return 0;
}

/* The GPU Operator sets mig.strategy for the whole cluster, and the
 * device plugin refuses MPS under the 'mixed' strategy MIG nodes need: a
 * device-plugin plan holds MIG or MPS, not both. When the shared plan
 * has both, it is rebuilt without each and the cheaper one is kept. */
static int one_of_mig_mps(gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *after)
{
	gs_built b[2];
	int best;
	if (pl->via_dra || !has_kind(after, GS_STRATEGY_MIG) || !has_kind(after, GS_STRATEGY_MPS))
		return 0;
	memset(b, 0, sizeof b);
	for (int i = 0; i < 2; i++) {
		pl->no_mps = i == 0;
		pl->no_mig = i == 1;
		if (build_after(pl, shops, c, &b[i]) < 0) {
			built_free(&b[0]);
			built_free(&b[1]);
			return -1;
		}
	}
	pl->no_mps = pl->no_mig = 0;
	best = b[1].cost < b[0].cost;
	built_free(after);
	*after = b[best];
	built_free(&b[!best]);
	return 0;
}

/* The before plan: every replica alone on the cheapest GPU it fits. */
static int build_before(const gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b,
                        gs_micros *ded_cost)
{
	if (built_init(pl, b) < 0)
		return -1;
	for (int r = 0; r < pl->nreps; r++) {
		int wi = pl->reps[r].wi, best = -1;
		for (int k = 0; k < c->ncand[wi]; k++) {
			int cm = c->cands[wi][k];
			if (best < 0 || pl->gpu_price[cm] < pl->gpu_price[best])
				best = cm;
		}
		ded_cost[wi] += pl->gpu_price[best];
		b->comp += gs_workload_compute_on(pl->reps[r].w, pl->models[best]);
		if (add_dedicated(&b->packs[best], pl->models[best], r) < 0)
			return -1;
	}
	return buy_all(pl, shops, b);
}

static void summarize(gs_plan *p, const gs_planner *pl)
{
	gs_plan_summary *sum = &p->sum;
	int64_t comp = 0;
	for (size_t i = 0; i < p->n_nodes; i++) {
		const gs_plan_node *nd = &p->nodes[i];
		sum->after_per_hour += nd->price_per_hour;
		sum->gpus_after += (int)nd->n_gpus;
		sum->instances_after++;
		for (size_t g = 0; g < nd->n_gpus; g++) {
			for (size_t a = 0; a < nd->gpus[g].n_assignments; a++)
				comp += nd->gpus[g].assignments[a].compute_ppm;
			for (size_t m = 0; m < nd->gpus[g].n_mig; m++)
				for (size_t a = 0; a < nd->gpus[g].mig[m].n_assignments; a++)
					comp += nd->gpus[g].mig[m].assignments[a].compute_ppm;
		}
	}
	sum->pricing = pl->s->pricing;
	sum->hours_per_month = GS_HOURS_PER_MONTH;
	sum->replicas = pl->nreps;
	sum->savings_per_hour = sum->before_per_hour - sum->after_per_hour;
	sum->savings_permille = sum->before_per_hour
	        ? (int)gs_div_round(sum->savings_per_hour * 1000, sum->before_per_hour) : 0;
	if (sum->gpus_after)
		sum->util_after_permille = (int)(comp * 1000 / ((int64_t)sum->gpus_after * GS_PPM));
	sum->current_per_hour = -1;
	if (pl->s->cluster_cost >= 0) {
		sum->current_per_hour = pl->s->cluster_cost;
		return;
	}
	for (size_t i = 0; i < pl->s->n; i++) {
		const gs_workload *w = &pl->s->w[i]->pub;
		if (!w->current)
			continue;
		if (sum->current_per_hour < 0)
			sum->current_per_hour = 0;
		/* What runs today may have no spot price: count it on demand. */
		sum->current_per_hour += (gs_instance_price(pl->s, w->current) >= 0
		                              ? gs_instance_price(pl->s, w->current)
		                              : w->current->on_demand) * w->current_count;
	}
}

static int plan_teams(gs_plan *p)
{
	if (!(p->teams = gs_plan_alloc(p, p->n_wls, sizeof *p->teams)))
		return -1;
	for (size_t i = 0; i < p->n_wls; i++) {
		const char *team = p->wls[i].workload->team;
		size_t t;
		for (t = 0; t < p->n_teams && strcmp(p->teams[t].team, team) != 0; t++)
			;
		if (t == p->n_teams) {
			/* Keep teams sorted by name. */
			while (t > 0 && strcmp(p->teams[t - 1].team, team) > 0) {
				p->teams[t] = p->teams[t - 1];
				t--;
			}
			p->teams[t].team = team;
			p->teams[t].cost_per_hour = 0;
			p->n_teams++;
		}
		for (t = 0; strcmp(p->teams[t].team, team) != 0; t++)
			;
		p->teams[t].cost_per_hour += p->wls[i].cost_per_hour;
	}
	return 0;
}

void gs_plan_free(gs_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_blocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	free(p->warnings);
	free(p->rep_cost);
	free(p);
}

static int make(gs_plan *p, gs_planner *pl, gs_shop *shops, gs_error *err)
{
	gs_choice c = { NULL, NULL, NULL, NULL, NULL };
	gs_built after = { NULL, 0, { NULL, 0, 0 }, 0, 0 }, before = after;
	gs_micros *ded = calloc(pl->s->n ? pl->s->n : 1, sizeof *ded);
	int rc = ded ? choice_init(pl, &c) : -1;

	if (rc == -2) {
		rc = gs_fail(err, GS_ENOFIT, "a workload fits no purchasable GPU");
		goto done;
	}
	for (int m = 0; rc == 0 && m < pl->nmodels; m++)
		rc = eval_model(pl, shops, &c, m, &c.per_model[m]);
	if (rc == 0)
		rc = improve(pl, shops, &c);
	if (rc == 0 && !(p->rep_cost = calloc((size_t)(pl->nreps ? pl->nreps : 1),
	                                      sizeof *p->rep_cost)))
		rc = -1;
	if (rc == 0 && (build_after(pl, shops, &c, &after) < 0 ||
	                one_of_mig_mps(pl, shops, &c, &after) < 0 ||
	                build_before(pl, shops, &c, &before, ded) < 0))
		rc = -1;
	/* Sharing must never cost more than not sharing: where the heuristic
	 * lands above the dedicated plan, the dedicated plan is the answer. */
	if (rc == 0)
		rc = gs_plan_records(p, pl, after.cost <= before.cost ? &after.ns : &before.ns);
	if (rc == 0) {
		count_nodes(&before.ns, &p->sum.before_per_hour, &p->sum.gpus_before,
		            &p->sum.instances_before);
		/* A scenario imported from a cluster compares with the cluster. */
		if (pl->s->cluster_cost >= 0 && pl->s->cluster_gpus > 0) {
			p->sum.before_per_hour = pl->s->cluster_cost;
			p->sum.gpus_before = pl->s->cluster_gpus;
			p->sum.instances_before = pl->s->cluster_nodes;
		}
		if (p->sum.gpus_before)
			p->sum.util_before_permille =
			        (int)(before.comp * 1000 / ((int64_t)p->sum.gpus_before * GS_PPM));
		summarize(p, pl);
		rc = gs_plan_advice(p, pl, ded);
	}
	if (rc == 0 && after.cost > before.cost &&
	    gs_plan_warn(p, "no sharing plan found beats a whole GPU per replica here; this plan "
	                 "keeps every replica on its own GPU") < 0)
		rc = -1;
	if (rc == 0)
		rc = plan_teams(p);
	if (rc == -1)
		rc = gs_fail_nomem(err);
done:
	built_free(&after);
	built_free(&before);
	choice_free(pl, &c);
	free(ded);
	return rc;
}

int gs_plan_make(const gs_scenario *s, const gs_plan_opts *opts, gs_plan **out,
                 gs_error *err)
{
	gs_shop shops[64];
	gs_planner pl;
	gs_plan *p;
	int rc;

	(void)opts;
	if ((rc = gs_scenario_validate(s, err)) < 0)
		return rc;
	if (!(p = calloc(1, sizeof *p)))
		return gs_fail_nomem(err);
	p->s = s;
	memset(shops, 0, sizeof shops);
	if (planner_init(&pl, s, shops) < 0)
		rc = gs_fail_nomem(err);
	else
		rc = make(p, &pl, shops, err);
	for (int m = 0; m < 64; m++)
		gs_shop_free(&shops[m]);
	free(pl.reps);
	if (rc < 0) {
		gs_plan_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

const gs_plan_summary *gs_plan_summary_get(const gs_plan *p) { return &p->sum; }
const gs_scenario *gs_plan_scenario(const gs_plan *p) { return p->s; }
size_t gs_plan_node_count(const gs_plan *p) { return p->n_nodes; }
const gs_plan_node *gs_plan_node_at(const gs_plan *p, size_t i)
{
	return i < p->n_nodes ? &p->nodes[i] : NULL;
}
size_t gs_plan_workload_count(const gs_plan *p) { return p->n_wls; }
const gs_plan_workload *gs_plan_workload_at(const gs_plan *p, size_t i)
{
	return i < p->n_wls ? &p->wls[i] : NULL;
}
size_t gs_plan_team_count(const gs_plan *p) { return p->n_teams; }
const gs_plan_team *gs_plan_team_at(const gs_plan *p, size_t i)
{
	return i < p->n_teams ? &p->teams[i] : NULL;
}
size_t gs_plan_warning_count(const gs_plan *p) { return p->n_warnings; }
const char *gs_plan_warning_at(const gs_plan *p, size_t i)
{
	return i < p->n_warnings ? p->warnings[i] : NULL;
}
