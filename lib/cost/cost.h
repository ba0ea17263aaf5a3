/*
 * cost.h - chargeback's internals (lib/cost), shared by its files:
 *
 *   chargeback.c  gs_chargeback_make: pods, nodes, money; accessors; free
 *   weights.c     what each pod holds of one node, in weight units
 *   rows.c        idle spread over the workloads; rows by workload,
 *                 namespace or team
 *   cost_doc.c    the JSON/YAML document and the CSV
 *   common.c      shares as millionths of a GPU; warnings
 *
 * It reads the inventory only through the public accessors and
 * import/holders.h: the raw facts of who holds what, never the workload
 * figures import derives for planning.
 */
#ifndef GS_COST_H
#define GS_COST_H

#include "base/base.h"
#include "import/holders.h"


/* One GPU in weight units: divisible by 1 to 8, 10, 12, 14 and 15, so the
 * shares of replicas and of MIG slices are exact. */
#define GS_COST_UNIT INT64_C(840000000)

/* common.c: a GPU share in weight units as millionths of a GPU, rounded. */
int64_t gs_cost_millionths(int64_t weight);

/* A pod's part of one node while it is computed. */
typedef struct cholder {
	size_t pod;
	const gs_hold_pod *p;
	int64_t weight;     /* GPU units held */
	int by_usage;
	int dra;
} cholder;

/* A workload while it is computed. */
typedef struct cwl {
	const char *ns, *kind, *owner, *team;
	int pods, pods_by_usage;
	int64_t weight;
	gs_micros held, idle;
	size_t *nodes;      /* node numbers, unsorted, without repeats */
	size_t n_nodes, cap_nodes;
} cwl;

struct gs_chargeback {
	const gs_inventory *inv;
	gs_chargeback_summary sum;
	gs_error *err;
	gs_hold_pod *pods;              /* every pod of holders.h */
	size_t *pod_wl;                 /* each pod's workload */
	cwl *wls;
	size_t n_wls, cap_wls;
	gs_cost_node *nodes;
	size_t n_nodes;
	gs_cost_holder *holders;        /* the nodes' holders, node after node */
	size_t n_holders, cap_holders;
	gs_cost_row *rows;
	size_t n_rows;
	const char **row_nodes;         /* the rows' node names, row after row */
	gs_cost_row *teams;             /* the rows by team, whatever rows are by */
	size_t n_teams;
	const char **team_nodes;
	char **warnings;
	size_t n_warnings, cap_warnings;
};

/* common.c: adds a warning; fails only when out of memory. */
int gs_cost_warn(gs_chargeback *c, const char *fmt, ...) GS_PRINTF(2, 3);

/* weights.c: the pods that hold something of node ni (the holds numbered
 * in holds[0..n)) with their weights, scaled to fit the node; *out (the
 * caller frees it) gets *n_out of them, in pod order. */
int gs_cost_weigh(gs_chargeback *c, size_t ni, const size_t *holds, size_t n,
                  cholder **out, size_t *n_out);


/* rows.c: spreads idle (with spread_idle), then makes the rows and the
 * team rows. */
int gs_cost_rows(gs_chargeback *c);

#endif
