/*
 * milp.h - a mixed-integer linear program and its solver (milp.c, the one
 * file that sees COIN-OR CBC). The optimiser (opt*.c) and the MIG repair
 * (mig_repack.c) state their models here; nothing else in the library
 * knows which solver answers them.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_MILP_H
#define GS_PLAN_MILP_H

typedef struct gs_milp gs_milp;

/* A new empty minimisation; NULL when out of memory. */
gs_milp *gs_milp_new(void);
void gs_milp_free(gs_milp *m);

/* A column 0 <= x <= ub (ub < 0: unbounded) costing `cost` per unit,
 * integral or not: its index, or -1 when out of memory. */
int gs_milp_col(gs_milp *m, double cost, double ub, int integer);
/* A row lo <= sum vals[i] * x[cols[i]] <= hi (use -1e30 / 1e30 for
 * none): 0, or -1 when out of memory. */
int gs_milp_row(gs_milp *m, const int *cols, const double *vals, int n, double lo,
                double hi);
int gs_milp_cols(const gs_milp *m);
/* The search ends once its best solution is within `gap` of its bound:
 * where the objective counts whole units plus less than half a unit of
 * tie-breaks, a gap of a half proves the count. */
void gs_milp_set_gap(gs_milp *m, double gap);
/* Solved in a child process (milp.c), so that a crash of the solver is
 * a solve that found nothing: for models of small fleets, where forking
 * costs milliseconds (base/apart.h). */
void gs_milp_set_apart(gs_milp *m, int apart);

typedef enum gs_milp_status {
	GS_MILP_OPTIMAL,    /* proven optimal */
	GS_MILP_FEASIBLE,   /* a solution, stopped by a limit before the proof */
	GS_MILP_NONE,       /* no solution found (infeasible, or the limit hit) */
} gs_milp_status;

/* What a solve found. x (one value per column) belongs to m and lives
 * until m is freed or solved again; NULL with GS_MILP_NONE. bound is a
 * proven lower bound of the optimum (the relaxation's where the search
 * stopped early). */
typedef struct gs_milp_result {
	gs_milp_status status;
	double obj, bound;
	const double *x;
} gs_milp_result;

/* Solves within `nodes` branch-and-bound nodes (deterministic: the same
 * model always gives the same answer) and `seconds` of wall time (a
 * safety net: when it stops the search, the answer may vary with the
 * machine), generating cuts or not. 0, or -1 when out of memory or the
 * solver failed. */
int gs_milp_solve(gs_milp *m, int nodes, int cuts, double seconds, gs_milp_result *res);

/* The rows so far. */
int gs_milp_rows(const gs_milp *m);

#endif
