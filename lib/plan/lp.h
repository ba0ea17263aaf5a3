/*
 * lp.h - a linear program grown by columns and solved again after each
 * batch (lp.c, the one file that sees COIN-OR CLP): column generation's
 * restricted master (cg.c). Rows are fixed when it is made; columns are
 * non-negative and unbounded above.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_LP_H
#define GS_PLAN_LP_H

typedef struct gs_lp gs_lp;

/* A minimisation with nrows rows lo[i] <= row i <= hi[i] (+-1e30: none)
 * and no columns yet; NULL when out of memory. */
gs_lp *gs_lp_new(int nrows, const double *lo, const double *hi);
void gs_lp_free(gs_lp *lp);

/* Adds one column costing `cost`, with vals[k] in rows[k]: its index, or
 * -1 when out of memory. Columns wait in a batch until the next solve. */
int gs_lp_col(gs_lp *lp, double cost, const int *rows, const double *vals, int n);
int gs_lp_cols(const gs_lp *lp);

/* Solves from the last basis within `iterations` simplex pivots (the
 * deterministic budget). 0 with the optimum in *obj; 1 when stopped by
 * the budget or not optimal (the duals are then still a vector to
 * check, never a proof); -1 when out of memory. */
int gs_lp_solve(gs_lp *lp, int iterations, double *obj);

/* The row duals of the last solve (nrows values, borrowed until the next
 * solve or free); signs as for a minimisation: >= 0 on >= rows. */
const double *gs_lp_duals(gs_lp *lp);
/* The column values of the last solve (borrowed likewise). */
const double *gs_lp_x(gs_lp *lp);

#endif
