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
#include <math.h>
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
	/* Each order as a list of the items not yet decided by the search
	 * (links by item, n the head): the search takes an item out as it
	 * decides it and puts it back on return, so the relaxations walk only
	 * what is left. */
	int *next[ORDERS], *prev[ORDERS];
	int *dfs;            /* the search's order: must items first */
	int *cur, *x;
	double best;
	long nodes;
	int stopped;
	int last_cut;        /* the relaxation that cut the last node cut */
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

/* Whether x comes before y: must items first, then the larger key, then
 * the lower index (a total order: no two items tie). */
static int before(const ranked *x, const ranked *y)
{
	if (x->must != y->must)
		return x->must > y->must;
	if (x->key != y->key)
		return x->key > y->key;
	return x->i < y->i;
}

/* v[0..n) in that order, through tmp[0..n): insertion within runs of 8,
 * then merges. qsort's calls through a comparator were a sixth of a
 * 1,000-replica plan in one tenant (seven orders per knapsack, thousands
 * of knapsacks); the order is total, so any correct sort gives qsort's. */
static void sort_ranked(ranked *v, ranked *tmp, int n)
{
	enum { RUN = 8 };
	for (int lo = 0; lo < n; lo += RUN) {
		int hi = lo + RUN < n ? lo + RUN : n;
		for (int i = lo + 1; i < hi; i++) {
			ranked x = v[i];
			int j = i;
			for (; j > lo && before(&x, &v[j - 1]); j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	}
	for (int w = RUN; w < n; w *= 2) {
		for (int lo = 0; lo < n; lo += 2 * w) {
			int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			int a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = before(&v[b], &v[a]) ? v[b++] : v[a++];
			while (a < mid)
				tmp[k++] = v[a++];
			while (b < hi)
				tmp[k++] = v[b++];
		}
		memcpy(v, tmp, (size_t)n * sizeof *v);
	}
}

/* The items in order `by` (by their sum's ratio, must first, for the
 * search: dfs), through tmp[0..2n). */
static void rank(const gs_kp *k, int by, int dfs, ranked *tmp, int *out)
{
	for (int i = 0; i < k->n; i++) {
		const gs_kp_item *it = &k->it[i];
		tmp[i].must = dfs && k->need_must ? it->must : 0;
		tmp[i].key = by == BY_VALUE ? it->value : it->value / weight(k, it, by);
		tmp[i].i = i;
	}
	sort_ranked(tmp, tmp + k->n, k->n);
	for (int i = 0; i < k->n; i++)
		out[i] = tmp[i].i;
}

/* The fractional knapsack of order `by` over the items left,
 * within what is left of the capacities: an item that no longer fits
 * alone is left out, since no filling below can take it. Its terms are
 * positive (cg.c prices only items of positive value), so once val plus
 * the sum passes `top` no term to come brings it back: the sum so far is
 * returned, and val plus it is still above `top`. */
static double frac(const kp_ctx *c, int by, int64_t mem, int64_t comp, int cnt, double val,
                   double top)
{
	const gs_kp *k = c->k;
	double room, sum = 0;
	int left = k->max_items - cnt;
	double l = (double)by / LAMBDAS;
	room = l * (double)(k->cap_mem - mem) / (double)k->cap_mem +
	       (1 - l) * (double)(k->cap_comp - comp) / (double)k->cap_comp;
	for (int i = c->next[by][k->n]; i != k->n && left > 0; i = c->next[by][i]) {
		const gs_kp_item *it = &k->it[i];
		double w, q;
		if (it->mem > k->cap_mem - mem || it->comp > k->cap_comp - comp)
			continue;
		q = it->ub < left ? it->ub : left;
		if (by == BY_VALUE) {
			sum += q * it->value;
			left -= (int)q;
		} else {
			w = weight(k, it, by);
			if (q * w >= room)
				return sum + it->value * room / w;
			sum += q * it->value;
			room -= q * w;
		}
		if (val + sum > top)
			return sum;
	}
	return sum;
}

/* The least of the relaxations at the root, each an upper bound of every
 * filling's value. */
static double bound(const kp_ctx *c)
{
	double b = frac(c, 0, 0, 0, 0, 0, HUGE_VAL);
	for (int by = 1; by < ORDERS; by++) {
		double v = frac(c, by, 0, 0, 0, 0, HUGE_VAL);
		b = v < b ? v : b;
	}
	return b;
}

/* Whether some relaxation shows that nothing below the node beats the
 * best found. Rounding adds val to each one as it added val to their
 * least, so the answer is the same as comparing the least; those that
 * cannot show it stop summing early. The relaxation that cut last is
 * asked first: neighbouring nodes are most often cut by the same one. */
static int cut(kp_ctx *c, int64_t mem, int64_t comp, int cnt, double val)
{
	double top = c->best * (1 + 1e-12);
	for (int t = 0; t < ORDERS; t++) {
		int by = (c->last_cut + t) % ORDERS;
		if (val + frac(c, by, mem, comp, cnt, val, top) <= top) {
			c->last_cut = by;
			return 1;
		}
	}
	return 0;
}

/* Item i out of every order's list, and back in: put undoes take when
 * the calls nest, as the search's do. */
static void take(kp_ctx *c, int i)
{
	for (int by = 0; by < ORDERS; by++) {
		c->next[by][c->prev[by][i]] = c->next[by][i];
		c->prev[by][c->next[by][i]] = c->prev[by][i];
	}
}

static void put(kp_ctx *c, int i)
{
	for (int by = 0; by < ORDERS; by++) {
		c->next[by][c->prev[by][i]] = i;
		c->prev[by][c->next[by][i]] = i;
	}
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
	if (cut(c, mem, comp, cnt, val))
		return;
	it = &k->it[i];
	q = it->ub < k->max_items - cnt ? it->ub : k->max_items - cnt;
	if (it->mem > 0 && (k->cap_mem - mem) / it->mem < q)
		q = (int)((k->cap_mem - mem) / it->mem);
	if (it->comp > 0 && (k->cap_comp - comp) / it->comp < q)
		q = (int)((k->cap_comp - comp) / it->comp);
	take(c, i);
	for (; q >= 0 && !c->stopped; q--) {
		c->cur[i] = q;
		dfs(c, d + 1, mem + q * it->mem, comp + q * it->comp, cnt + q, val + q * it->value,
		    must || (q > 0 && it->must));
	}
	put(c, i);
	c->cur[i] = 0;
}

/* Where the search stopped early: the knapsack with each weight rounded
 * down to a grid of DP_MEM x DP_COMP cells of the capacities, solved
 * exactly by dynamic programming. Every filling still fits the grid, so
 * its optimum is an upper bound (counts and must items are left out,
 * which only raises it). -1 when out of memory. */
#define DP_MEM 200
#define DP_COMP 100

/* One part of qa > 0 memory cells: each row takes the row qa below, not
 * yet updated for it (the rows go down), so a row's cells are
 * independent of each other and need no branch. A third of a
 * 1,000-replica plan in one tenant, robust, went to this loop; without
 * the branch it takes 3.35 s, not 3.88. */
static void add_rows(double *dp, int qa, int qb, double v)
{
	for (int a = DP_MEM; a >= qa; a--) {
		double *restrict to = dp + (size_t)a * (DP_COMP + 1);
		const double *restrict from = dp + (size_t)(a - qa) * (DP_COMP + 1);
		for (int b = qb; b <= DP_COMP; b++) {
			double with = from[b - qb] + v;
			to[b] = with > to[b] ? with : to[b];
		}
	}
}

/* One part of no memory cell: each row reads itself qb cells back, so
 * its cells go down. */
static void add_in_rows(double *dp, int qb, double v)
{
	for (int a = DP_MEM; a >= 0; a--) {
		double *row = dp + (size_t)a * (DP_COMP + 1);
		for (int b = DP_COMP; b >= qb; b--) {
			double with = row[b - qb] + v;
			if (with > row[b])
				row[b] = with;
		}
	}
}

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
			if (qa > 0)
				add_rows(dp, qa, qb, v);
			else
				add_in_rows(dp, qb, v);
		}
	}
	top = dp[DP_MEM * (DP_COMP + 1) + DP_COMP];
	free(dp);
	return top;
}

/* Order `by` as a list of all n items, head n. */
static void link(kp_ctx *c, int by, int n)
{
	int last = n;
	for (int j = 0; j < n; j++) {
		int i = c->order[by][j];
		c->next[by][last] = i;
		c->prev[by][i] = last;
		last = i;
	}
	c->next[by][last] = n;
	c->prev[by][n] = last;
}

static void ctx_free(kp_ctx *c)
{
	for (int by = 0; by < ORDERS; by++) {
		free(c->order[by]);
		free(c->next[by]);
		free(c->prev[by]);
	}
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
		if (!(c->order[by] = malloc(n * sizeof(int))) ||
		    !(c->next[by] = malloc((n + 1) * sizeof(int))) ||
		    !(c->prev[by] = malloc((n + 1) * sizeof(int))))
			return -1;
	c->dfs = malloc(n * sizeof *c->dfs);
	c->cur = calloc(n, sizeof *c->cur);
	if (!c->dfs || !c->cur)
		return -1;
	if (!(tmp = malloc(2 * n * sizeof *tmp)))
		return -1;
	for (int by = 0; by < ORDERS; by++)
		rank(k, by, 0, tmp, c->order[by]);
	rank(k, BY_SUM, 1, tmp, c->dfs);
	free(tmp);
	for (int by = 0; by < ORDERS; by++)
		link(c, by, k->n);
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
	root = bound(&c);
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
