/*
 * cg.h - the column-generation bound (cg.c) and its pricing problem
 * (cg_price.c): the linear relaxation of the packing as a set cover whose
 * columns are ways to fill one GPU, solved by adding the columns the
 * duals price below cost, for fleets too large for the optimiser's
 * program (opt.h), where the volume bound (bound.c) is loose.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_CG_H
#define GS_PLAN_CG_H

#include <stdint.h>

#include "plan/planner.h"

/* ---- the pricing problem (cg_price.c) ------------------------------------ */

/* An item of a two-dimensional bounded knapsack: up to ub copies, each
 * worth value and weighing mem and comp; `must`: one of the items of
 * which the knapsack must hold at least one (when need_must). */
typedef struct gs_kp_item {
	double value;
	int64_t mem, comp;
	int ub;
	int must;
} gs_kp_item;

typedef struct gs_kp {
	const gs_kp_item *it;
	int n;
	int64_t cap_mem, cap_comp;
	int max_items;   /* the most copies in all */
	int need_must;
	long budget;     /* search nodes: the deterministic limit */
	double floor;    /* only fillings worth more are sought */
	int bound;       /* an upper bound is wanted: where the search stops
	                  * early, a grid's exact one (else the root's) */
} gs_kp;

/* The most valuable filling found worth more than k->floor, its counts in
 * x[0..n) (all 0 when none) and its value in *best (else k->floor), and
 * in *ub a value that neither k->floor nor any filling exceeds (*best
 * itself when the search finished within its budget), and in *nodes the
 * nodes searched. 0, or -1 when out of memory. */
int gs_kp_solve(const gs_kp *k, int *x, double *best, double *ub, long *nodes);

/* ---- the bound (cg.c) ---------------------------------------------------- */

/* The most replicas the bound is computed for, times the effort (the
 * time limit over its default): each round prices every tenant's
 * knapsack on every model, which grows faster than the fleet. */
#define GS_CG_MAX_REPLICAS 2000

/* Whether pl's fleet is small enough for the bound at the effort the time
 * limit asks. */
int gs_cg_affords(const gs_planner *pl);

/* A lower bound of every plan of pl under c's candidate models, pinned
 * rules relaxed, and under robust placement its rules that some replicas
 * have a GPU alone (gs_robust_alone) and that some cap the replicas of
 * any GPU they share (gs_robust_slots) kept: the dual of the restricted
 * master made feasible for every column by scaling each tenant's part, so
 * the bound is valid at every round whether or not the generation
 * converged; where no plan may hold MIG and MPS together (bound.h,
 * gs_bound_splits), the lesser of the relaxations without each. effort
 * multiplies the rounds and search budgets. -1 when not computed (a
 * replica with no candidate, or out of memory). */
gs_micros gs_cg_bound(const gs_planner *pl, const gs_choice *c, int effort);

/* ---- the columns, for a plan (opt.h, gs_opt_priced) ---------------------- */

/* A whole-GPU column the generation priced: one tenant's replicas on one
 * GPU of a model, `count` of workload w (a scenario index) per item. */
typedef struct gs_cg_item {
	int w, count;
} gs_cg_item;

typedef struct gs_cg_col {
	int model, tenant;
	int first, n;       /* items[first, first + n) */
	double near;        /* its reduced cost at the last duals over its
	                     * price (0 for columns not priced) */
} gs_cg_col;

/* The columns kept; gs_cg_cols_release frees what a bound put here. */
typedef struct gs_cg_cols {
	gs_cg_col *v;
	int n;
	size_t cap;
	gs_cg_item *items;
	int nitems;
	size_t capitems;
	/* The relaxation's last duals of the workloads' rows, ndual sets of
	 * nw (one per relaxation where split; by scenario index, 0 for a
	 * workload with no row), for gs_opt_cheapest (opt.h); NULL in the
	 * copies gs_cg_cols_within makes. */
	double *dual;
	int ndual, nw;
} gs_cg_cols;

void gs_cg_cols_release(gs_cg_cols *k);

/* A new column of k (model, tenant, near) of n items: where the caller
 * writes them, or NULL when out of memory (k as it was, but larger). */
gs_cg_item *gs_cg_cols_add(gs_cg_cols *k, int model, int tenant, double near, int n);

/* k's columns within `near` of cost into *out (zeroed first; released
 * with gs_cg_cols_release). 0, or -1 when out of memory. */
int gs_cg_cols_within(const gs_cg_cols *k, double near, gs_cg_cols *out);

/* A whole-GPU column is kept where its reduced cost at the last duals is
 * within this part of its price: the columns an integer plan of the
 * master would use. On fleet.py's mixed 1,000 replicas, pinned, 697 of
 * 5,240 columns, whose integer program came within 1.6 % of the bound. */
#define GS_CG_NEAR 0.001
/* ... and within this part on fleets the optimiser's program takes whole
 * (GS_OPT_MAX_REPLICAS, opt.h), whose program over the columns has cuts
 * and nodes enough for more of them: the plan then also tries those
 * (plan.c, priced). quality.py's heterogeneous fleets of 80 replicas,
 * seeds 100, 114 and 130 (pinned), too many groups for the full program,
 * planned 1.9, 2.1 and 1.2 % above their optimum from the columns within
 * a thousandth, and 0.2 %, 0 and 0 from those within 3 %: 105 to 150
 * columns. Alone, the wider program's node limit left fleet.py's mixed
 * 200 replicas (seed 2) and heterogeneous 400 (seeds 1, 2) 0.07 to
 * 0.46 % dearer than the narrower one's. */
#define GS_CG_NEAR_SMALL 0.03

/* gs_cg_bound, which also puts in *keep (zeroed first) the whole-GPU
 * columns within GS_CG_NEAR (GS_CG_NEAR_SMALL) of cost (of both
 * relaxations, where split). */
gs_micros gs_cg_bound_cols(const gs_planner *pl, const gs_choice *c, int effort,
                           gs_cg_cols *keep);

#endif
