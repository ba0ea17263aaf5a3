/*
 * cg_price.c - the pricing problem of column generation (cg.h): a
 * two-dimensional bounded knapsack (memory and compute of one GPU), with
 * a cap on the copies and, for MPS fillings, at least one item of a kind.
 *
 * Depth-first branch and bound, the largest count of an item first. A
 * node is cut when no filling below it can beat the best found, by the
 * least of four relaxations of what is left: the fractional knapsack of
 * memory alone, of compute alone, of their sum, and the most valuable
 * items that the count allows. Each is an upper bound by itself, so the
 * least is one, and so is the root's when the budget stops the search.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/cg.h"

/* The relaxations: memory weighted by l / LAMBDAS and compute by the
 * rest, for l = 0 .. LAMBDAS (the surrogate knapsack of that weight), and
 * the most valuable copies the count allows. The search's order is the
 * middle one's. */
#define LAMBDAS 4
enum { BY_VALUE = LAMBDAS + 1, ORDERS, BY_SUM = LAMBDAS / 2 };

typedef struct kp_ctx {
	const gs_kp *k;
	int *order[ORDERS];  /* item indices, best ratio (or value) first */
	int *pos;            /* per item: its depth in the search */
	int *dfs;            /* the search's order: must items first */
	int *cur, *x;
	double best;
	long nodes;
	int stopped;
} kp_ctx;

static double weight(const gs_kp *k, const gs_kp_item *it, int by)
{
	double m = (double)it->mem / (double)k->cap_mem;
	double c = (double)it->comp / (double)k->cap_comp;
	double l = (double)by / LAMBDAS;
	double w = l * m + (1 - l) * c;
	return w > 1e-12 ? w : 1e-12;
}

/* An item in one of the orders: must items first where asked, then the
 * best key; ties by index, so the order is the same on every run. */
typedef struct ranked {
	int must;
	double key;
	int i;
} ranked;

static int by_rank(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->must != y->must)
		return y->must - x->must;
	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return x->i - y->i;
}

/* The items in order `by` (by their sum's ratio, must first, for the
 * search: dfs). */
static void rank(const gs_kp *k, int by, int dfs, ranked *tmp, int *out)
{
	for (int i = 0; i < k->n; i++) {
		const gs_kp_item *it = &k->it[i];
		tmp[i].must = dfs && k->need_must ? it->must : 0;
		tmp[i].key = by == BY_VALUE ? it->value : it->value / weight(k, it, by);
		tmp[i].i = i;
	}
	qsort(tmp, (size_t)k->n, sizeof *tmp, by_rank);
	for (int i = 0; i < k->n; i++)
		out[i] = tmp[i].i;
}

/* The fractional knapsack of order `by` over the items at depth >= d,
 * within what is left of the capacities: an item that no longer fits
 * alone is left out, since no filling below can take it. */
static double frac(const kp_ctx *c, int by, int d, int64_t mem, int64_t comp, int cnt)
{
	const gs_kp *k = c->k;
	double room, sum = 0;
	int left = k->max_items - cnt;
	double l = (double)by / LAMBDAS;
	room = l * (double)(k->cap_mem - mem) / (double)k->cap_mem +
	       (1 - l) * (double)(k->cap_comp - comp) / (double)k->cap_comp;
	for (int j = 0; j < k->n && left > 0; j++) {
		int i = c->order[by][j];
		const gs_kp_item *it = &k->it[i];
		double w, q;
		if (c->pos[i] < d || it->mem > k->cap_mem - mem || it->comp > k->cap_comp - comp)
			continue;
		q = it->ub < left ? it->ub : left;
		if (by == BY_VALUE) {
			sum += q * it->value;
			left -= (int)q;
			continue;
		}
		w = weight(k, it, by);
		if (q * w >= room)
			return sum + it->value * room / w;
		sum += q * it->value;
		room -= q * w;
	}
	return sum;
}

static double bound(const kp_ctx *c, int d, int64_t mem, int64_t comp, int cnt)
{
	double b = frac(c, 0, d, mem, comp, cnt);
	for (int by = 1; by < ORDERS; by++) {
		double v = frac(c, by, d, mem, comp, cnt);
		b = v < b ? v : b;
	}
	return b;
}

static void dfs(kp_ctx *c, int d, int64_t mem, int64_t comp, int cnt, double val, int must)
{
	const gs_kp *k = c->k;
	const gs_kp_item *it;
	int i, q;
	if (c->stopped || ++c->nodes > k->budget) {
		c->stopped = 1;
		return;
	}
	if (val > c->best && (must || !k->need_must)) {
		c->best = val;
		memcpy(c->x, c->cur, (size_t)k->n * sizeof *c->x);
	}
	if (d == k->n || cnt == k->max_items)
		return;
	i = c->dfs[d];
	/* With the must items first, none left means none to come. */
	if (k->need_must && !must && !k->it[i].must)
		return;
	if (val + bound(c, d, mem, comp, cnt) <= c->best * (1 + 1e-12))
		return;
	it = &k->it[i];
	q = it->ub < k->max_items - cnt ? it->ub : k->max_items - cnt;
	if (it->mem > 0 && (k->cap_mem - mem) / it->mem < q)
		q = (int)((k->cap_mem - mem) / it->mem);
	if (it->comp > 0 && (k->cap_comp - comp) / it->comp < q)
		q = (int)((k->cap_comp - comp) / it->comp);
	for (; q >= 0 && !c->stopped; q--) {
		c->cur[i] = q;
		dfs(c, d + 1, mem + q * it->mem, comp + q * it->comp, cnt + q, val + q * it->value,
		    must || (q > 0 && it->must));
	}
	c->cur[i] = 0;
}

/* Where the search stopped early: the knapsack with each weight rounded
 * down to a grid of DP_MEM x DP_COMP cells of the capacities, solved
 * exactly by dynamic programming. Every filling still fits the grid, so
 * its optimum is an upper bound (counts and must items are left out,
 * which only raises it). -1 when out of memory. */
#define DP_MEM 200
#define DP_COMP 100

static double grid_bound(const gs_kp *k)
{
	double *dp = calloc((size_t)(DP_MEM + 1) * (DP_COMP + 1), sizeof *dp);
	double top;
	if (!dp)
		return -1;
	for (int i = 0; i < k->n; i++) {
		const gs_kp_item *it = &k->it[i];
		int wa = (int)(it->mem * DP_MEM / k->cap_mem);
		int wb = (int)(it->comp * DP_COMP / k->cap_comp);
		/* ub copies as parts of 1, 2, 4, ... copies: any count is a sum
		 * of distinct parts. */
		for (int left = it->ub, part = 1; left > 0; left -= part, part *= 2) {
			int q = part < left ? part : left;
			double v = q * it->value;
			int qa = q * wa, qb = q * wb;
			if (qa > DP_MEM || qb > DP_COMP)
				break;
			for (int a = DP_MEM; a >= qa; a--)
				for (int b = DP_COMP; b >= qb; b--) {
					double *cell = &dp[a * (DP_COMP + 1) + b];
					double with = dp[(a - qa) * (DP_COMP + 1) + (b - qb)] + v;
					if (with > *cell)
						*cell = with;
				}
		}
	}
	top = dp[DP_MEM * (DP_COMP + 1) + DP_COMP];
	free(dp);
	return top;
}

static void ctx_free(kp_ctx *c)
{
	for (int by = 0; by < ORDERS; by++)
		free(c->order[by]);
	free(c->pos);
	free(c->dfs);
	free(c->cur);
}

static int ctx_init(kp_ctx *c, const gs_kp *k, int *x)
{
	size_t n = (size_t)(k->n ? k->n : 1);
	ranked *tmp;
	memset(c, 0, sizeof *c);
	c->k = k;
	c->x = x;
	for (int by = 0; by < ORDERS; by++)
		if (!(c->order[by] = malloc(n * sizeof(int))))
			return -1;
	c->pos = malloc(n * sizeof *c->pos);
	c->dfs = malloc(n * sizeof *c->dfs);
	c->cur = calloc(n, sizeof *c->cur);
	if (!c->pos || !c->dfs || !c->cur)
		return -1;
	if (!(tmp = malloc(n * sizeof *tmp)))
		return -1;
	for (int by = 0; by < ORDERS; by++)
		rank(k, by, 0, tmp, c->order[by]);
	rank(k, BY_SUM, 1, tmp, c->dfs);
	free(tmp);
	for (int d = 0; d < k->n; d++)
		c->pos[c->dfs[d]] = d;
	return 0;
}

int gs_kp_solve(const gs_kp *k, int *x, double *best, double *ub, long *nodes)
{
	kp_ctx c;
	double root;
	if (k->n > 0)
		memset(x, 0, (size_t)k->n * sizeof *x);
	*best = *ub = k->floor;
	*nodes = 0;
	if (k->n == 0 || k->max_items <= 0)
		return 0;
	if (ctx_init(&c, k, x) < 0) {
		ctx_free(&c);
		return -1;
	}
	root = bound(&c, 0, 0, 0, 0);
	c.best = k->floor;
	if (root > k->floor)
		dfs(&c, 0, 0, 0, 0, 0, 0);
	*best = c.best;
	*nodes = c.nodes;
	*ub = c.best;
	if (c.stopped && !k->bound) {
		*ub = root > c.best ? root : c.best;
	} else if (c.stopped) {
		double grid = grid_bound(k);
		if (grid < 0) {
			ctx_free(&c);
			return -1;
		}
		*ub = grid < root ? grid : root;
		if (*ub < c.best)
			*ub = c.best;
	}
	ctx_free(&c);
	return 0;
}
