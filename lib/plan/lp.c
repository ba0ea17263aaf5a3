/*
 * lp.c - the seam to COIN-OR CLP (EPL-2.0, Debian's coinor-libclp-dev,
 * which coinor-libcbc-dev brings): column generation's master problem
 * (lp.h). CLP keeps the basis between solves, so a batch of new columns
 * costs a few primal pivots, not a solve from scratch. Its logging is off.
 */
#include <float.h>
#include <stdlib.h>

#include <Clp_C_Interface.h>

#include "base/base.h"
#include "plan/coin.h"
#include "plan/lp.h"

/* CLP's infinity (its C header leaves it to C++). */
#define INF DBL_MAX

struct gs_lp {
	Clp_Simplex *clp;
	int nrows, ncols, solved;
	/* The batch of columns not yet handed to CLP, column-major. */
	double *cost;
	int *start, *index;
	double *value;
	size_t capcost, capstart, capindex, capvalue;
	int nbatch;
	size_t nentries;
};

gs_lp *gs_lp_new(int nrows, const double *lo, const double *hi)
{
	gs_lp *lp = calloc(1, sizeof *lp);
	double *l = malloc(((size_t)nrows + 1) * sizeof *l);
	double *h = malloc(((size_t)nrows + 1) * sizeof *h);
	CoinBigIndex *starts = calloc((size_t)nrows + 1, sizeof *starts);
	if (!lp || !l || !h || !starts || !(lp->clp = Clp_newModel())) {
		free(lp);
		free(l);
		free(h);
		free(starts);
		return NULL;
	}
	for (int i = 0; i < nrows; i++) {
		l[i] = lo[i] <= -1e30 ? -INF : lo[i];
		h[i] = hi[i] >= 1e30 ? INF : hi[i];
	}
	Clp_setLogLevel(lp->clp, 0);
	/* The rows start empty: every entry comes with a column. */
	Clp_addRows(lp->clp, nrows, l, h, starts, NULL, NULL);
	free(l);
	free(h);
	free(starts);
	lp->nrows = nrows;
	return lp;
}

void gs_lp_free(gs_lp *lp)
{
	if (!lp)
		return;
	if (lp->clp)
		Clp_deleteModel(lp->clp);
	free(lp->cost);
	free(lp->start);
	free(lp->index);
	free(lp->value);
	free(lp);
}

int gs_lp_col(gs_lp *lp, double cost, const int *rows, const double *vals, int n)
{
	size_t b = (size_t)lp->nbatch;
	if (gs_grow(&lp->cost, &lp->capcost, b + 1, sizeof *lp->cost) < 0 ||
	    gs_grow(&lp->start, &lp->capstart, b + 2, sizeof *lp->start) < 0 ||
	    gs_grow(&lp->index, &lp->capindex, lp->nentries + (size_t)n + 1,
	            sizeof *lp->index) < 0 ||
	    gs_grow(&lp->value, &lp->capvalue, lp->nentries + (size_t)n + 1,
	            sizeof *lp->value) < 0)
		return -1;
	lp->cost[b] = cost;
	lp->start[b] = (int)lp->nentries;
	for (int k = 0; k < n; k++) {
		lp->index[lp->nentries] = rows[k];
		lp->value[lp->nentries++] = vals[k];
	}
	lp->start[b + 1] = (int)lp->nentries;
	lp->nbatch++;
	return lp->ncols + lp->nbatch - 1;
}

int gs_lp_cols(const gs_lp *lp) { return lp->ncols + lp->nbatch; }

/* Hands the batch to CLP. */
static int flush(gs_lp *lp)
{
	int n = lp->nbatch;
	double *lo, *hi;
	CoinBigIndex *start;
	if (n == 0)
		return 0;
	lo = calloc((size_t)n, sizeof *lo);
	hi = malloc((size_t)n * sizeof *hi);
	start = malloc(((size_t)n + 1) * sizeof *start);
	if (!lo || !hi || !start) {
		free(lo);
		free(hi);
		free(start);
		return -1;
	}
	for (int j = 0; j < n; j++)
		hi[j] = INF;
	for (int j = 0; j <= n; j++)
		start[j] = (CoinBigIndex)lp->start[j];
	Clp_addColumns(lp->clp, n, lo, hi, lp->cost, start, lp->index, lp->value);
	free(lo);
	free(hi);
	free(start);
	lp->ncols += n;
	lp->nbatch = 0;
	lp->nentries = 0;
	return 0;
}

int gs_lp_solve(gs_lp *lp, int iterations, double *obj)
{
	if (flush(lp) < 0)
		return -1;
	Clp_setMaximumIterations(lp->clp, iterations);
	/* New columns leave the last basis primal feasible: primal simplex
	 * goes on from it. The first solve has no basis to go on from. */
	gs_coin_lock();
	if (lp->solved)
		Clp_primal(lp->clp, 0);
	else
		Clp_dual(lp->clp, 0);
	gs_coin_unlock();
	lp->solved = 1;
	*obj = Clp_objectiveValue(lp->clp);
	return Clp_status(lp->clp) == 0 ? 0 : 1;
}

const double *gs_lp_duals(gs_lp *lp) { return Clp_dualRowSolution(lp->clp); }
const double *gs_lp_x(gs_lp *lp) { return Clp_primalColumnSolution(lp->clp); }
