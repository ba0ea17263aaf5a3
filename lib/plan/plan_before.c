/*
 * plan_before.c - the plan every saving is measured against: the cheapest
 * plan found in which every replica holds a whole GPU, bought from the same
 * shops by the same rules as the shared plan, so that whatever limits what
 * the plan may buy (the instance allow-list, the cloud) limits it too.
 *
 * A model is chosen for each replica by what the whole purchase costs, not
 * by the price per GPU: one replica costs less alone on a dearer model sold
 * one GPU at a time than on a cheaper one sold eight at a time. Without
 * sharing, a choice costs only what buying its count of GPUs of each model
 * costs (the shop's best buy), so the search works on counts: replicas with
 * the same candidate models form a class, and a local search moves k of a
 * class's replicas from one model to another while the total gets cheaper,
 * from two starts (the shared plan's choice and the cheapest GPU of each
 * workload); the cheaper result is bought.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"
#include "scenario/scenario.h"

/* Replicas whose workloads have the same candidate models, and the same
 * GPUs per replica. */
typedef struct wclass {
	unsigned long long cands; /* bit m: model m holds them */
	int n;                    /* replicas */
	int cnt[GS_MAX_MODELS];   /* how many are on each model */
	int span;                 /* GPUs per replica */
} wclass;

typedef struct search {
	const gs_planner *pl;
	gs_shop *shops;
	wclass *cl;
	int ncl;
	int *cls;                 /* per workload: its class */
	int (*best)[GS_MAX_MODELS]; /* per class: its counts in the best result */
	int cnt[GS_MAX_MODELS];   /* GPUs bought per model */
	gs_total per[GS_MAX_MODELS];
	long budget;              /* evaluations left */
} search;

static unsigned long long cand_bits(const gs_choice *c, int wi)
{
	unsigned long long bits = 0;
	for (int k = 0; k < c->ncand[wi]; k++)
		bits |= 1ULL << c->cands[wi][k];
	return bits;
}

/* A new class at the end of se->cl, with room for its best counts. */
static int add_class(search *se, unsigned long long bits, int span, size_t *cap)
{
	if ((size_t)se->ncl == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		wclass *cl = realloc(se->cl, ncap * sizeof *cl);
		int(*best)[GS_MAX_MODELS];
		if (!cl)
			return -1;
		se->cl = cl;
		if (!(best = realloc(se->best, ncap * sizeof *best)))
			return -1;
		se->best = best;
		*cap = ncap;
	}
	memset(&se->cl[se->ncl], 0, sizeof *se->cl);
	se->cl[se->ncl].span = span;
	se->cl[se->ncl++].cands = bits;
	return 0;
}

/* Workloads' replicas grouped by their candidate models: few classes,
 * however many workloads. */
static int classes(search *se, const gs_choice *c)
{
	const gs_planner *pl = se->pl;
	size_t nw = pl->s->n, cap = 0;
	if (!(se->cls = calloc(nw ? nw : 1, sizeof *se->cls)))
		return -1;
	for (size_t w = 0; w < nw; w++) {
		unsigned long long bits = cand_bits(c, (int)w);
		int span = pl->s->w[w]->pub.gpus_per_replica, k;
		for (k = 0; k < se->ncl && (se->cl[k].cands != bits || se->cl[k].span != span); k++)
			;
		if (k == se->ncl && add_class(se, bits, span, &cap) < 0)
			return -1;
		se->cls[w] = k;
		se->cl[k].n += pl->s->w[w]->pub.replicas;
	}
	return 0;
}

static int best_buy(search *se, int m, int n, gs_total *t)
{
	gs_buy b;
	if (gs_shop_best(&se->shops[m], n, &b) < 0)
		return -1;
	t->cost = b.cost;
	t->gpus = b.gpus;
	t->instances = b.instances;
	return 0;
}

static gs_total total(const search *se)
{
	gs_total t = { 0, 0, 0 };
	for (int m = 0; m < se->pl->nmodels; m++) {
		t.cost += se->per[m].cost;
		t.gpus += se->per[m].gpus;
		t.instances += se->per[m].instances;
	}
	return t;
}

/* Every workload's replicas on model[w]. */
static int start(search *se, const int *model)
{
	memset(se->cnt, 0, sizeof se->cnt);
	for (int k = 0; k < se->ncl; k++)
		memset(se->cl[k].cnt, 0, sizeof se->cl[k].cnt);
	for (size_t w = 0; w < se->pl->s->n; w++) {
		const gs_workload *pw = &se->pl->s->w[w]->pub;
		se->cl[se->cls[w]].cnt[model[w]] += pw->replicas;
		se->cnt[model[w]] += pw->replicas * pw->gpus_per_replica;
	}
	for (int m = 0; m < se->pl->nmodels; m++)
		if (best_buy(se, m, se->cnt[m], &se->per[m]) < 0)
			return -1;
	return 0;
}

/* Replicas on `from` that may move to `to`. Replicas of several GPUs stay
 * where their start put them: GPU counts do not price them (a count may
 * buy nodes too small for one), and the bought plan does. */
static int movable(const search *se, int from, int to)
{
	int n = 0;
	unsigned long long both = (1ULL << from) | (1ULL << to);
	for (int k = 0; k < se->ncl; k++)
		if ((se->cl[k].cands & both) == both && se->cl[k].span <= 1)
			n += se->cl[k].cnt[from];
	return n;
}

static void move(search *se, int from, int to, int n)
{
	unsigned long long both = (1ULL << from) | (1ULL << to);
	for (int k = 0; k < se->ncl && n > 0; k++) {
		wclass *c = &se->cl[k];
		int x = c->cnt[from] < n ? c->cnt[from] : n;
		if ((c->cands & both) != both || x == 0 || c->span > 1)
			continue;
		c->cnt[from] -= x;
		c->cnt[to] += x;
		n -= x;
	}
}

/* The k that most lowers the total when k replicas move from `from` to
 * `to`: every k up to one large instance's worth of GPUs, and all of them.
 * Moves them and returns 1 when some k lowers it. */
static int try_pair(search *se, int from, int to)
{
	int most = movable(se, from, to), best_k = 0;
	gs_total base = total(se), best = base, tf, tt, bf = { 0, 0, 0 }, bt = bf;
	for (int k = 1; k <= most && se->budget > 0; k = k < 64 ? k + 1 : most) {
		gs_total t = base;
		se->budget--;
		if (best_buy(se, from, se->cnt[from] - k, &tf) < 0 ||
		    best_buy(se, to, se->cnt[to] + k, &tt) < 0)
			return -1;
		t.cost += tf.cost + tt.cost - se->per[from].cost - se->per[to].cost;
		t.gpus += tf.gpus + tt.gpus - se->per[from].gpus - se->per[to].gpus;
		t.instances += tf.instances + tt.instances - se->per[from].instances -
		               se->per[to].instances;
		if (gs_total_less(t, best)) {
			best = t;
			best_k = k;
			bf = tf;
			bt = tt;
		}
		if (k == most)
			break;
	}
	if (!best_k)
		return 0;
	move(se, from, to, best_k);
	se->cnt[from] -= best_k;
	se->cnt[to] += best_k;
	se->per[from] = bf;
	se->per[to] = bt;
	return 1;
}

static int improve(search *se)
{
	int nm = se->pl->nmodels, improved = 1;
	while (improved && se->budget > 0) {
		improved = 0;
		for (int a = 0; a < nm; a++)
			for (int b = 0; b < nm && se->cnt[a]; b++) {
				int rc = a == b ? 0 : try_pair(se, a, b);
				if (rc < 0)
					return -1;
				improved |= rc;
			}
	}
	return 0;
}

/* Replica r alone on new dedicated GPUs of the model, span of them. */
static int add_dedicated(gs_pack *pk, const gs_gpu *model, int r, int span)
{
	gs_group alone = { 0 };
	gs_pgpu *g = gs_pack_add_gpu(pk, model, GS_STRATEGY_DEDICATED);
	alone.reps = &r;
	alone.n = alone.cap = 1;
	if (!g)
		return -1;
	g->span = span;
	return gs_pgpu_add_group(g, &alone);
}

/* Buys the search's counts: each class's replicas, in replica order, fill
 * its models in model order. */
static int build(search *se, gs_built *b)
{
	const gs_planner *pl = se->pl;
	int left[GS_MAX_MODELS];
	if (gs_built_init(pl, b) < 0)
		return -1;
	for (int k = 0; k < se->ncl; k++) {
		int m = 0;
		memcpy(left, se->cl[k].cnt, sizeof left);
		for (int r = 0; r < pl->nreps; r++) {
			if (se->cls[pl->reps[r].wi] != k)
				continue;
			while (m < pl->nmodels && left[m] == 0)
				m++;
			left[m]--;
			b->comp += gs_workload_compute_on(pl->reps[r].w, pl->models[m]) *
			           se->cl[k].span;
			if (add_dedicated(&b->packs[m], pl->models[m], r, se->cl[k].span) < 0)
				return -1;
		}
	}
	return gs_built_buy(pl, se->shops, b);
}

/* The cheapest GPU of each workload: the start the old baseline was. */
static void cheapest_gpus(const gs_planner *pl, const gs_choice *c, int *model)
{
	for (size_t w = 0; w < pl->s->n; w++) {
		int best = c->cands[w][0], span = pl->s->w[w]->pub.gpus_per_replica;
		for (int k = 1; k < c->ncand[w]; k++)
			if (gs_span_price(pl, c->cands[w][k], span) < gs_span_price(pl, best, span))
				best = c->cands[w][k];
		model[w] = best;
	}
}

/* Searches from each start and buys the counts that cost least (the
 * search's totals are what the shops charge; only spread: node, which
 * the buying adds nodes for, is not in them). */
static int run(search *se, const gs_choice *c, gs_built *out)
{
	size_t nw = se->pl->s->n ? se->pl->s->n : 1;
	int *model = malloc(nw * sizeof *model);
	int rc = model ? 0 : -1;
	gs_total t, bt = { 0, 0, 0 };
	for (int s = 0; s < 2 && rc == 0; s++) {
		if (s == 0)
			memcpy(model, c->model, se->pl->s->n * sizeof *model);
		else
			cheapest_gpus(se->pl, c, model);
		if ((rc = start(se, model)) < 0 || (rc = improve(se)) < 0)
			break;
		t = total(se);
		if (s == 0 || gs_total_less(t, bt)) {
			bt = t;
			/* The classes' counts are the result: keep them by model. */
			for (int k = 0; k < se->ncl; k++)
				memcpy(se->best[k], se->cl[k].cnt, sizeof se->cl[k].cnt);
		}
	}
	for (int k = 0; rc == 0 && k < se->ncl; k++)
		memcpy(se->cl[k].cnt, se->best[k], sizeof se->cl[k].cnt);
	if (rc == 0)
		rc = build(se, out);
	free(model);
	return rc;
}

int gs_build_before(const gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b)
{
	search se;
	int rc;
	memset(&se, 0, sizeof se);
	memset(b, 0, sizeof *b);
	se.pl = pl;
	se.shops = shops;
	/* Each evaluation is two memoised look-ups: a fleet of any size
	 * searches in well under the time its packing takes. */
	se.budget = 200000;
	rc = classes(&se, c);
	if (rc == 0)
		rc = run(&se, c, b);
	free(se.cl);
	free(se.cls);
	free(se.best);
	return rc;
}

int gs_built_shares_nothing(const gs_built *b)
{
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++) {
			const gs_pgpu *g = &b->packs[m].gpus[i];
			if (g->ng > 1 || (g->ng == 1 && g->g[0].n > 1))
				return 0;
		}
	return 1;
}

void gs_whole_gpu_costs(const gs_planner *pl, const gs_built *b, gs_micros *ded_cost)
{
	for (int i = 0; i < b->ns.n; i++) {
		const gs_bnode *nd = &b->ns.v[i];
		gs_micros per_gpu = nd->price / nd->inst->gpu_count;
		for (int g = 0; g < nd->n; g++)
			for (int j = 0; j < nd->gpus[g]->ng; j++)
				for (int r = 0; r < nd->gpus[g]->g[j].n; r++)
					ded_cost[pl->reps[nd->gpus[g]->g[j].reps[r]].wi] += per_gpu;
	}
}
