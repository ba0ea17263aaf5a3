/*
 * plan_internal.h - the gs_plan object: its fields, the memory it owns,
 * and the builders that fill its public records.
 *
 * lib/plan/ includes it, and so do the emitters while they still read the
 * fields (and the scenario behind p->s, hence scenario.h) directly; new
 * code outside lib/plan/ uses the accessors of gpushare.h instead.
 */
#ifndef GS_PLAN_INTERNAL_H
#define GS_PLAN_INTERNAL_H

#include "base/base.h"
#include "scenario/scenario.h"

struct gs_plan {
	const gs_scenario *s;
	gs_plan_summary sum;
	gs_plan_node *nodes;
	size_t n_nodes;
	gs_plan_workload *wls;
	size_t n_wls;
	gs_plan_team *teams;
	size_t n_teams;
	char **warnings;
	size_t n_warnings, cap_warnings;
	void **blocks;         /* everything the records point to */
	size_t n_blocks, cap_blocks;
	char *chunk;           /* the last block's room not yet given out */
	size_t chunk_left;
	gs_micros *rep_cost;   /* per replica, for workload costs */
	gs_micros current_after; /* after cost of workloads with `current` */
	gs_micros *rep_idle;   /* per replica, its part of its node's idle */
	struct gs_decision *decisions; /* per workload: what decided (decide.c) */
	size_t n_decisions;
	gs_plan_cloud *clouds; /* with cloud: all, every cloud compared */
	size_t n_clouds;
	int texts_due;         /* the why-texts and notes wait (gs_plan_texts) */
	int texts_now;         /* gs_plan_how's */
	/* The plan still in the making while the second thread works out
	 * the pinned cost and the sharing limit (gs_plan_how.finish_later),
	 * else NULL; late_rc: how that ended (0, or -1 out of memory). */
	struct gs_making *late;
	int late_rc;
};

/* ---- a plan in one cloud (plan.c) ---------------------------------------- */

/* Sets p's lower bound (-1: none) and how it is known. */
void gs_plan_bound_set(gs_plan *p, gs_micros bound);

/* A plan in the making (plan.c); only plan.c sees inside. */
typedef struct gs_making gs_making;
/* Waits for the second thread's figures of a plan made with finish_later
 * and sets them (the summary's sharing_limit, placement and
 * pinned_per_hour), once: 0 then, at once, or -1 when out of memory. Not
 * while another thread reads p. */
int gs_plan_finish_late(gs_plan *p);

/* How a plan is searched: quick skips the local search over GPU models
 * (a first estimate, to rank clouds); seconds: the time limit; solo: on
 * the calling thread alone (gs_plan_opts.threads 1). */
typedef struct gs_plan_how {
	int quick;
	double seconds;
	int solo;
	gs_plan_cache *cache;   /* what earlier plans found; NULL: none */
	/* The plan is the one kept and wants its texts: they are written
	 * while the second thread works (plan_side.c), not after it. */
	int texts_now;
	/* The summary's totals alone (gs_plan_opts.summary_only). */
	int summary_only;
	/* gs_plan_opts.finish_later: the plan may be returned before the
	 * second thread's figures are in. */
	int finish_later;
} gs_plan_how;

/* The cache's memos (plan_cache.c): of groups' results and of the model
 * search's evaluations, each on the calling thread (second = 0) and on
 * the second thread (1: fork.h). */
struct gs_memo *gs_plan_cache_groups(gs_plan_cache *c, int second);
struct gs_memo *gs_plan_cache_evals(gs_plan_cache *c, int second);
/* Its memos of the packings the model search kept, likewise. */
struct gs_memo *gs_plan_cache_packs(gs_plan_cache *c, int second);
/* Its groups' evaluations (group_evals.h), which no new plan ages. */
struct gs_group_evals *gs_plan_cache_group_evals(gs_plan_cache *c);
/* A new generation of each of c's memos (memo.h), at the start of a plan
 * (of every cloud it plans): the cache keeps what the last plan used.
 * -1 when out of memory. */
int gs_plan_cache_age(gs_plan_cache *c);
/* The id of `text` in c: equal texts, equal ids, from one plan to the
 * next; ids are never given twice. -1 when out of memory. */
int gs_plan_cache_id(gs_plan_cache *c, const char *text, int64_t *id);
/* The id of the text of a workload of that stamp (scenario.h), when the
 * last plan named it: 1, else 0. gs_plan_cache_stamp keeps it. */
int gs_plan_cache_stamped(gs_plan_cache *c, uint64_t stamp, int64_t *id);
void gs_plan_cache_stamp(gs_plan_cache *c, uint64_t stamp, int64_t id);

/* Plans s in `cloud`, a cloud of the catalog (the scenario is valid). */
int gs_plan_in(const gs_scenario *s, const char *cloud, gs_plan_how how, gs_plan **out,
               gs_error *err);
/* What the workloads' cheapest shares of an instance cost in `cloud`: a first
 * estimate, no plan; and in *bound, unless bound is NULL, the volume bound
 * of every plan there (bound.c; -1: none). -2 when some workload fits
 * nothing there, -1 when out of memory. */
int gs_plan_estimate(const gs_scenario *s, const char *cloud, gs_micros *share,
                     gs_micros *bound);

/* ---- memory the plan owns (plan_mem.c) ----------------------------------- */

/* n zeroed elements of size bytes, freed with the plan; NULL when out of
 * memory. */
void *gs_plan_alloc(gs_plan *p, size_t n, size_t size);
char *gs_plan_strdup(gs_plan *p, const char *s);
int gs_plan_warn(gs_plan *p, const char *fmt, ...) GS_PRINTF(2, 3);
/* Frees what the plan owns, and p itself (gs_plan_free, once the plan's
 * making is let go). */
void gs_plan_mem_free(gs_plan *p);

/* ---- what the summary says (dearer.c) ------------------------------------ */

/* Sets sum.costs_more when before is the cluster and the plan costs more
 * than it, with the causes the data shows; after the showback. */
int gs_plan_costs_more(gs_plan *p);
/* Warns when the workloads ask more than 100 % of the cluster's GPUs. */
int gs_plan_util_error(gs_plan *p);

/* ---- the records --------------------------------------------------------- */

struct gs_planner;
struct gs_nodeset;
struct gs_bnode;

/* The nodes, GPUs and assignments of the bought nodes, and each
 * replica's share of the cost (plan_records.c). */
int gs_plan_records(gs_plan *p, const struct gs_planner *pl,
                    const struct gs_nodeset *ns);
/* The compute the records of ns would assign, in ppm of a GPU: what a
 * plan without records (gs_plan_opts.summary_only) sums for its
 * utilization. */
int64_t gs_plan_records_compute(const struct gs_planner *pl, const struct gs_nodeset *ns);
/* Adds each replica of node b's share of the node's price, by the
 * capacity it holds, to p->rep_cost, and its part of what nobody holds to
 * p->rep_idle; the parts add up to the price exactly (showback.c). */
int gs_showback_node(gs_plan *p, const struct gs_planner *pl, const struct gs_bnode *b);
/* Splits total over weights w[0..n) exactly: parts rounded down, the
 * micro-dollars left one each to the largest remainders, ties to the
 * earlier part; equal parts when every weight is 0 (showback.c). */
int gs_split_micros(gs_micros total, const int64_t *w, int n, gs_micros *out);
/* A node's device-plugin config name: "<type>-ts4" (plan_names.c). */
const char *gs_plan_config_name(gs_plan *p, const gs_instance *in, gs_strategy st,
                                int slots);
/* Numbers the MIG nodes' configs apart once all nodes are in the plan. */
int gs_plan_name_mig_configs(gs_plan *p);
/* Each node's pool (plan_pools.c), once its configs are named. */
int gs_plan_name_pools(gs_plan *p);
/* Warns, naming them, of workloads whose pods select several pools. */
int gs_plan_pool_note(gs_plan *p);
/* Each workload's record, cost and why-text, and the plan's warnings;
 * ded_cost[i] is what workload i costs on whole GPUs (advice.c). */
int gs_plan_advice(gs_plan *p, const gs_micros *ded_cost);
/* Each workload's reason, rendered from its decision once the showback
 * has set what it pays (advice.c). */
int gs_plan_why(gs_plan *p);
/* The notes, then the reasons, of a plan whose texts are due (gs_plan_texts
 * without the error). */
int gs_plan_texts_write(gs_plan *p);
/* Each workload's notes: the compute conversions between GPU models, with
 * the ratio used (plan_notes.c). After gs_plan_advice. */
int gs_plan_notes(gs_plan *p);
/* The summary's count of workloads without host needs, and warnings for
 * them and for instances the host requests made larger (plan_host.c). */
int gs_plan_host(gs_plan *p, const struct gs_nodeset *ns);

#endif
