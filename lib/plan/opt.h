/*
 * opt.h - the optimiser: the packing as one integer program, solved
 * exactly where it is small (opt.c directs; opt_cols.c states the columns,
 * opt_model.c the rows and the solve, opt_realize.c turns a solution into
 * packings the planner buys).
 *
 * The program is a set cover: a column per way to fill one GPU (a maximal
 * group of one tenant's replicas on a whole GPU of a model, a replica
 * alone, or a maximal MIG geometry whose instances hold replicas of a
 * profile that holds them, upsizing allowed), rows that cover every
 * workload's replicas, and, per model, instances of each type whose GPUs
 * cover the GPUs used, at their prices. Workloads may split across models.
 * Node rules (one sharing configuration per node, host CPU and RAM) are
 * left to buying, so the program's optimum is a lower bound of every plan
 * its columns can express.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_OPT_H
#define GS_PLAN_OPT_H

#include "plan/cg.h"
#include "plan/milp.h"
#include "plan/planner.h"

/* The most replicas, and columns, the optimiser takes on. */
#define GS_OPT_MAX_REPLICAS 400
#define GS_OPT_MAX_COLUMNS 10000
/* Branch-and-bound nodes per solve: the deterministic budget. */
#define GS_OPT_NODES 300
/* ... and where the columns are more than GS_OPT_BIG, whose every node
 * and cut pass costs a large LP: no cuts, few nodes; the answer then
 * rests on the LP bound and CBC's heuristics. */
#define GS_OPT_BIG 5000
#define GS_OPT_NODES_BIG 50
/* ... and over the relaxation's columns (gs_opt_priced), no cuts: on
 * fleet.py's mixed 1,000 replicas 10 nodes found $617.05/h in 1.5 s, and
 * 30 nodes with cuts $611.15/h in 18 s. */
#define GS_OPT_NODES_PRICED 10
/* Steps of the search for the groups of one tenant on one model. */
#define GS_OPT_MAX_VISITS 2000000L

/* What the optimiser found. */
typedef struct gs_opt_result {
	int tried;       /* a program was solved */
	int improved;    /* its plan replaced the heuristic's */
	int exact;       /* the program relaxes the rules: bound is a lower
	                  * bound of every plan (not when it was too large) */
	int proven;      /* solved to optimality */
	gs_micros bound; /* -1: none */
} gs_opt_result;

/* For a small plan: solves the program and, when its plan bought costs
 * less than *after, replaces *after (and moves each workload's model in c
 * to where most of its replicas went). Under placement: robust the
 * columns hold each GPU's worst case (the packer's rule), and a plan that
 * splits a workload's requests is not taken. seconds bounds the solver's
 * wall time. 0, or -1 when out of memory. */
int gs_opt_improve(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                   double seconds, gs_opt_result *res);

/* For a plan the optimiser cannot solve whole (more than
 * GS_OPT_MAX_REPLICAS, or too many groups to list): the program over the
 * linear relaxation's columns (k, cg.h), cut to the packer's rule, beside
 * every replica alone and every MIG column, solved within the node limits
 * and seconds; its plan replaces *after, and c's models, when it costs
 * less. The program is restricted, so it proves no bound: res->bound is
 * -1. 0, or -1 when out of memory. */
int gs_opt_priced(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                  const gs_cg_cols *k, double seconds, gs_opt_result *res);

/* ---- the program's parts (opt_cols.c, opt_model.c, opt_realize.c) ------- */

enum { GS_OPT_WHOLE, GS_OPT_GEOMETRY };

/* One column that fills a GPU of a model: a group of replicas counted per
 * workload (items[first..first+n)), or a MIG geometry (profile counts in
 * items, `w` being the profile's index in the GPU's table). */
typedef struct gs_opt_item {
	int w, count;
} gs_opt_item;

typedef struct gs_opt_col {
	int kind, model, tenant;
	int first, n;
	int col;       /* in the program */
	int key;       /* its node key in gs_opt's keys */
} gs_opt_col;

/* GPUs of a model bought on nodes of one configuration (plan_keys.c): the
 * strategy, MPS's client count, the tenant of shared nodes (-1: any), and
 * the row that covers them. */
typedef struct gs_opt_key {
	int model;
	gs_strategy strategy;
	int k, tenant;
	int row;
} gs_opt_key;

/* A workload's replicas in instances of a profile of a model (y
 * columns): alone, an instance each, or shared, each taking its part of
 * an instance's memory and compute (ppm, rounded down: a relaxation). */
typedef struct gs_opt_slot {
	int w, model, prof, col;
	int shared;
	int64_t mem, comp;
} gs_opt_slot;

typedef struct gs_opt {
	gs_planner *pl;
	const gs_choice *c;
	int nw;                /* workloads */
	int **wreps;           /* per workload: its replicas' indices */
	int *wn;
	gs_opt_col *cols;
	int ncols;
	size_t capcols;
	gs_opt_item *items;
	int nitems;
	size_t capitems;
	gs_opt_slot *slots;
	int nslots;
	size_t capslots;
	int too_big;           /* more columns than max_cols */
	int max_cols;          /* GS_OPT_MAX_COLUMNS, but for gs_opt_cheapest */
	int listing;           /* gs_opt_cheapest: a tenant's search that
	                        * stops leaves the others to list */
	int no_shared;         /* MIG instances hold one replica each: no
	                        * longer a relaxation, but every solution
	                        * seats (set before gs_opt_columns) */
	/* The relaxation's groups (gs_opt_columns_priced), else NULL. */
	const gs_cg_cols *priced;
	int *dem_row;          /* per workload: its covering row, -1: none */
	gs_opt_key *keys;      /* the node keys of the columns */
	int nkeys;
	size_t capkeys;
} gs_opt;

int gs_opt_init(gs_opt *o, gs_planner *pl, const gs_choice *c);
void gs_opt_release(gs_opt *o);
/* Every column of the program, under pl's no_mig / no_mps. */
int gs_opt_columns(gs_opt *o);
/* ... with the relaxation's groups (k) in place of every maximal one. */
int gs_opt_columns_priced(gs_opt *o, const gs_cg_cols *k);

/* The most maximal groups gs_opt_cheapest lists, the most it keeps, and
 * the fleets the plan asks it for (plan.c). Its program of 9,000 groups
 * takes a second or more: on fleet.py's time-slicing 400 replicas (seed
 * 1) 5 s, to plan what the relaxation's columns planned. */
#define GS_OPT_CHEAP_LIST 200000
#define GS_OPT_CHEAP_KEEP 9000
#define GS_OPT_CHEAP_REPLICAS 100

/* Of every maximal group on a whole GPU under pl's rules as they stand
 * (the first GS_OPT_CHEAP_LIST listed), the `most` of least reduced cost
 * at k's duals (in $/h, the least over its sets), into *out (zeroed
 * first; released with gs_cg_cols_release), `near` as cg.h's.
 * Where the full program has too many groups, these are the ones a plan
 * near the relaxation's optimum uses: at duals that bound every plan by
 * B, a plan that costs B + D has columns whose reduced costs sum to at
 * most D. 0, or -1 when out of memory. */
int gs_opt_cheapest(gs_planner *pl, const gs_choice *c, const gs_cg_cols *k, int most,
                    gs_cg_cols *out);
/* Takes the plan of solution x in place of *best when it is one and
 * costs less: 0, 1 when not taken and x shares a MIG instance (a program
 * without shared instances may seat what it could not), -1 when out of
 * memory. */
int gs_opt_take(gs_opt *o, gs_shop *shops, const double *x, gs_built *best,
                gs_opt_result *res);
/* k's index among o's keys (added when add is set and it is new); -1 when
 * absent, -2 when out of memory. */
int gs_opt_key_find(gs_opt *o, const gs_opt_key *k, int add);
/* The program of o's columns in m (rows noted in dem_row and keys). */
int gs_opt_program(gs_opt *o, gs_shop *shops, gs_milp *m);
/* ... and solved within seconds (and the node limits above). */
int gs_opt_solve(gs_opt *o, gs_shop *shops, gs_milp *m, double seconds, gs_milp_result *r);
/* Packings from a solution: b gets one per model (gs_built_init first). */
int gs_opt_realize(gs_opt *o, const double *x, gs_built *b);

#endif
