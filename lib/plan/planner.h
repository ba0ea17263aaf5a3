/*
 * planner.h - the planner's steps, shared by its files: planner.c (what
 * to plan), plan_keys.c (what a packing costs bought), plan_choose.c (a
 * model per workload), plan_build.c (the plans with and without sharing)
 * and plan.c (gs_plan_make).
 *
 * Only those files include it.
 */
#ifndef GS_PLAN_PLANNER_H
#define GS_PLAN_PLANNER_H

#include "plan/nodes.h"
#include "plan/pack.h"
#include "plan/shop.h"

/* ---- what to plan (planner.c) -------------------------------------------- */

/* Every replica of s, and the models s can buy in `cloud` (NULL: the
 * scenario's) with a shop for each in shops[0..GS_MAX_MODELS), which the
 * planner then owns. */
int gs_planner_init(gs_planner *pl, const gs_scenario *s, const char *cloud,
                    gs_shop *shops);
void gs_planner_release(gs_planner *pl);
/* The most the planner's memo holds for nreps replicas (memo.h). */
size_t gs_planner_memo_bytes(long nreps);
/* The cheapest price per GPU of model m's instances with at least n GPUs,
 * which a replica of n GPUs may take (n <= 1: gpu_price[m]); -1 when none
 * has that many. */
gs_micros gs_span_price(const gs_planner *pl, int m, int n);

/* ---- what every plan costs at least (bound.c) ---------------------------- */

struct gs_choice;
/* The volume bound over c's candidate models; -1 when a replica has
 * none. */
gs_micros gs_volume_bound(const gs_planner *pl, const struct gs_choice *c);
/* gs_volume_bound, and in model[w] (one per workload with candidates) the
 * candidate its best weights price least: the bound's own placement. */
gs_micros gs_volume_bound_hint(const gs_planner *pl, const struct gs_choice *c, int *model);
/* gs_volume_bound_hint in two steps, so that the hint's start may be
 * built before the bound is summed, or without it (pl->summary_only):
 * gs_volume_hint fills model and returns 0, or -1 when a replica has no
 * candidate or memory ran out; *out (NULL when out of memory) is for
 * gs_volume_hint_bound, which returns gs_volume_bound_hint's bound (with
 * summary_only, the looser shares' alone), then for gs_volume_hint_free. The
 * bound reads pl and c as the hint did. */
typedef struct gs_vhint gs_vhint;
int gs_volume_hint(const gs_planner *pl, const struct gs_choice *c, int *model, gs_vhint **out);
gs_micros gs_volume_hint_bound(gs_vhint *h, const gs_planner *pl, const struct gs_choice *c);
void gs_volume_hint_free(gs_vhint *h);

/* ---- what a packing costs (plan_keys.c) ---------------------------------- */

/* A bought packing: compared by cost, then GPUs, then instances. */
typedef struct gs_total {
	gs_micros cost;
	long gpus, instances;
} gs_total;

int gs_total_less(gs_total a, gs_total b);
/* What buying pk from sh costs, one sharing configuration per node. */
int gs_price_pack(const gs_planner *pl, gs_shop *sh, const gs_pack *pk, gs_total *t);
/* gs_price_pack's cost with the model's own shop: the planner's cost. */
int gs_pack_cost(const gs_planner *pl, const gs_pack *pk, gs_micros *cost);
/* A fault-isolated replica that no smaller profile holds takes the whole
 * GPU: dedicated, or as a MIG instance (gs_mig_candidate_for), the same
 * GPU, which may go on a node of MIG GPUs where a dedicated GPU needs a
 * node of its own kind. The packer gives it the GPU dedicated, the
 * optimiser either way. Without `promote`, pk's whole instances go
 * dedicated unless that prices higher (nothing to reconfigure, and an
 * A100's 7g.40gb has 98 of its 108 SMs); with it, pk's dedicated ones go
 * MIG where pk has MIG GPUs and that prices lower. 1 when pk changed, 0
 * when not, -1 when out of memory. */
int gs_settle_whole(const gs_planner *pl, gs_shop *sh, gs_pack *pk, int promote);
/* Settles pk's whole instances (gs_settle_whole), then moves lone
 * replicas onto time-slicing nodes where that is cheaper. */
int gs_merge_dedicated(const gs_planner *pl, gs_shop *sh, gs_pack *pk);
/* Buys nodes for every kind of GPU in pk, appending them to ns. */
int gs_buy_pack(const gs_planner *pl, gs_shop *sh, const gs_pack *pk, gs_nodeset *ns);

/* ---- a model per workload (plan_choose.c) -------------------------------- */

typedef struct gs_choice {
	int *model;      /* per workload: index into pl->models */
	int **cands;     /* per workload: candidate model indices */
	int *ncand;
	gs_total *per_model;
	int failed;      /* after -2 from gs_choice_init: the workload */
	gs_micros share; /* the replicas' cheapest instance shares, summed */
	int borrowed;    /* cands and ncand belong to the choice it came from */
} gs_choice;

/* Candidates and a first model per workload: the cheapest share of a
 * GPU. -2 when a workload fits no model. */
int gs_choice_init(const gs_planner *pl, gs_choice *c);
void gs_choice_release(const gs_planner *pl, gs_choice *c);
/* Whether model m is one of workload w's candidates in c. */
int gs_choice_allows(const gs_choice *c, int w, int m);
/* A copy of from's models and totals in to, borrowing its candidates:
 * from must outlive to. -1 when out of memory. */
int gs_choice_fork(const gs_planner *pl, const gs_choice *from, gs_choice *to);
/* The same with candidates of its own: to outlives from. */
int gs_choice_copy(const gs_planner *pl, const gs_choice *from, gs_choice *to);
/* Whether a and b choose alike: models, candidates and totals. */
int gs_choice_same(const gs_planner *pl, const gs_choice *a, const gs_choice *b);
/* Makes c hold the models and totals of `from` (a fork of c), leaving
 * from with c's. */
void gs_choice_take(gs_choice *c, gs_choice *from);
/* Prices every model's packing, then moves workloads between models while
 * the whole plan gets cheaper. */
int gs_choose_models(const gs_planner *pl, gs_shop *shops, gs_choice *c);
/* gs_choose_models for a plan's first choice: where the fleet is too large
 * for the search to try every move but has 10,000 replicas at most (times
 * the effort), each tenant is searched alone first (its moves re-pack
 * only its replicas), within a budget of packing work. */
int gs_choose_models_first(const gs_planner *pl, gs_shop *shops, gs_choice *c);
/* How many evaluations the local search of gs_choose_models may make. */
long gs_choose_budget(const gs_planner *pl);
/* Whether that budget is large enough for the extra searches: again under
 * MIG or MPS alone, and from the other starts (a few thousand replicas at
 * most). */
int gs_choose_thorough(const gs_planner *pl);
/* What model m's workloads cost, packed and bought: the local search's
 * measure, for the reasons' alternatives (decide_cost.c). */
int gs_choice_eval(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                   gs_total *t);
/* Model m's packing, merged as bought, when the local search kept it for
 * the choice c holds (under the planner's rules now): 1 and the packing
 * in out, 0 when none was kept (then pack it), -1 when out of memory. */
int gs_choice_kept(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                   gs_pack *out);
/* With a gs_plan_cache (pl->evals), keeps pk, model m's packing of c
 * merged as bought, for gs_choice_kept in later plans; `counted`: the
 * worst cases packing it counted. Without, nothing. */
void gs_choice_keep(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                    const gs_pack *pk, long counted);
/* Whether the planner's no_mig or no_mps could change model m's packing of
 * c from the one it has without them: MIG only on a model with MIG, MPS
 * only where some replica must not be time-sliced or fractions are MPS.
 * The memo's keys (plan_choose.c) tell packings apart by the same rule. */
int gs_choice_rules_matter(const gs_planner *pl, const gs_choice *c, int m);
/* The replicas of the workloads on model m, in a new array (only those of
 * the tenant searched, when one is: pl->only_tenant). */
int gs_reps_of_model(const gs_planner *pl, const gs_choice *c, int m, int **out, int *n);
/* The workloads the model search looks at, in index order: all of them
 * (*wls NULL: 0 .. count), or pl->only_tenant's (*wls, planner-owned).
 * Returns the count (planner.c). */
int gs_searched_workloads(const gs_planner *pl, const int **wls);

/* ---- the plans (plan_build.c) -------------------------------------------- */

/* Packs and bought nodes: the nodes point into the packs' GPUs. */
typedef struct gs_built {
	gs_pack *packs;
	int npacks;
	gs_nodeset ns;
	gs_micros cost;
	int64_t comp;    /* planned compute, ppm of a GPU, for utilization */
	/* Where the device plugin made this plan hold MIG or MPS, not both:
	 * the one it left out, and what the plan with it cost (plan_build.c);
	 * DEDICATED: none. The plan's reasons quote the plan that stands,
	 * not the last one built. */
	gs_strategy left_out;
	gs_micros left_out_cost;
} gs_built;

/* The shared plan: each model's workloads packed, then bought. */
int gs_build_after(gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b);
/* gs_build_after for a choice the model search made: where the plan
 * holds both MIG and MPS and gs_choose_thorough, the search runs again
 * under each rule alone (from c), and c becomes the cheaper one's choice. */
int gs_build_chosen(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *b);
/* Whether every workload's replicas in b keep to one model and request
 * one thing (a whole GPU, or one MIG profile), as one template must under
 * placement: robust: 1, 0, or -1 when out of memory. */
int gs_built_one_request(const gs_planner *pl, const gs_built *b);
/* The third start (plan_cheap.c), begun from the first choice c where
 * it may run on a second thread beside the first choice's search and
 * build (NULL when not: it is then made by gs_build_cheapest); -1 when
 * out of memory. */
typedef struct gs_third gs_third;
int gs_third_begin(gs_planner *pl, const gs_choice *c, gs_third **t);
/* Waits for t and frees it, unused (on an error path). */
void gs_third_drop(gs_third *t, const gs_planner *pl);
/* The plan with each workload on its candidate model of the cheapest
 * price per GPU (a careful script's choice), and the one with each where
 * the volume bound places it (t: as begun, or NULL), each in place of
 * *after and c's models when it costs less: never worse than
 * first-fit-decreasing. Frees t. *repaired: whether after is repaired
 * already (gs_refill), as it may be when t ran on the other thread.
 * *early: the second thread's work begun while the first waits for t
 * (gs_side_early; NULL when not), for gs_side_begin. */
typedef struct gs_side gs_side;
int gs_build_cheapest(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                      gs_third *t, int *repaired, gs_side **early);
/* c's models in model[0..workloads), with the workloads whose replicas
 * each hold a whole GPU in b moved to the MIG model that saves most in
 * all, each where an instance that holds a replica costs less than that
 * GPU (plan_gather.c): 1, 0 when no workload moves (model is then c's),
 * or -1 when out of memory. */
int gs_gather_mig(const gs_planner *pl, const gs_choice *c, const gs_built *b, int *model);
/* Under pinned placement, empties whole GPUs into the room others of their
 * tenant have, on any of a workload's candidate models in c, and keeps b
 * so refilled (bought again) when it costs less (refill.c); -1 when out
 * of memory. */
int gs_refill(const gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b);
/* The MIG GPUs of b whose instances each hold one replica, laid out
 * again per model by a program over the model's maximal geometries (a
 * larger profile allowed; under robust placement one profile per
 * workload), b kept so when it costs less bought (mig_repack.c); the
 * first step of gs_refill. -1 when out of memory. */
int gs_mig_repack(const gs_planner *pl, gs_shop *shops, gs_built *b);
/* An empty plan with a packing per model; buying its packings. */
int gs_built_init(const gs_planner *pl, gs_built *b);
int gs_built_buy(const gs_planner *pl, gs_shop *shops, gs_built *b);
/* The plan's last step: fault-isolated replicas on dedicated GPUs take
 * the whole GPU as a MIG instance where that makes their model's GPUs
 * price lower (gs_settle_whole), and b is bought again. Only at the end:
 * in the search's evaluations the same moves left fleets 1 % dearer
 * (fixtures/unit/mixed-500.yaml $335.49/h -> $339.43/h). */
int gs_built_promote(const gs_planner *pl, gs_shop *shops, gs_built *b);
/* Splits b's partly empty nodes where smaller ones cost less
 * (gs_nodeset_split), after buying: buying by count fills the nodes of
 * its best buy in turn, and where spread kept GPUs off one, downsizing
 * finds no single type smaller. Only at the end: in the search's prices
 * it moved fleet.py's mixed 1,000 in azure, robust, 0.2 % up. */
int gs_built_split(const gs_planner *pl, gs_shop *shops, gs_built *b);
void gs_built_release(gs_built *b);

/* ---- the plan before sharing (plan_before.c) ----------------------------- */

/* The cheapest plan found in which every replica holds a whole GPU,
 * bought like the shared plan; c gives each workload's candidate models,
 * and its choice is one start of the search. */
int gs_build_before(const gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b);
/* Whether no GPU of b holds more than one replica. */
int gs_built_shares_nothing(const gs_built *b);
/* Adds to ded_cost[i] what workload i's GPUs in b cost whole: each GPU
 * its node's price over the node's GPUs. */
void gs_whole_gpu_costs(const gs_planner *pl, const gs_built *b, gs_micros *ded_cost);

/* ---- what limited sharing (plan_limit.c) --------------------------------- */

/* Whether targetUtilization kept a replica of the chosen plan off a GPU
 * it could otherwise join: the GPU (in chosen), the replica, the lowest
 * target that fits them, and (up to 5,000 replicas, where it is planned
 * again) what a plan at that target costs, never above before (the
 * baseline's cost); `at` < 0 when not planned. */
typedef struct gs_limit {
	const struct gs_pgpu *gpu; /* NULL: the target kept none off */
	int rep;
	int64_t need;
	gs_micros at;
} gs_limit;
int gs_limit_find(const gs_planner *pl, const gs_built *chosen, gs_micros before,
                  gs_limit *out);
/* Whether gs_limit_find may plan the fleet again (a model search). */
int gs_limit_replans(const gs_planner *pl);
/* Sets p's sharing_limit from l, when the plan at its target costs less
 * than the chosen one (or was not planned). */
int gs_limit_say(gs_plan *p, const gs_planner *pl, const gs_built *chosen,
                 const gs_limit *l);

/* ---- one request per workload (plan_uniform.c) --------------------------- */

/* Marks no_mig on the replicas of every workload whose replicas b gives
 * different requests (MIG profiles, or slices and whole GPUs): how many
 * it marked, or -1 when out of memory. */
int gs_plan_uniform(gs_planner *pl, const gs_built *b);
/* Warns, naming them, when workloads kept to whole GPUs for it. */
int gs_plan_uniform_note(gs_plan *p, const gs_planner *pl);

/* ---- what robust placement costs (plan_placement.c) ---------------------- */

/* Whether the plan is priced pinned: robust, and its worst case kept
 * some replicas apart (or some replica spans GPUs, robust_span.c). */
int gs_pinned_priced(const gs_planner *pl);
/* What the plan costs pinned, searched from the plan's models c; -1 when
 * it cannot be built. gs_side_end keeps it at most the plan without
 * sharing. */
gs_micros gs_pinned_cost(const gs_planner *pl, const gs_choice *c);
/* gs_pinned_cost in parts that two threads may make apart: the plan
 * searched from c, or with c NULL from the first choice, which is made
 * where gs_pinned_fresh; and the lesser of the two (fresh -1: not made). */
gs_micros gs_pinned_from(const gs_planner *pl, const gs_choice *c);
int gs_pinned_fresh(const gs_planner *pl);
gs_micros gs_pinned_least(gs_micros from, gs_micros fresh);
/* Sets p's pinned_per_hour: under robust placement, when the plan is
 * priced pinned, `pinned` (-1: out of memory); else the plan's own cost. */
int gs_plan_placement_set(gs_plan *p, const gs_planner *pl, int priced, gs_micros pinned);

/* ---- what a second thread works out meanwhile (plan_side.c) -------------- */

/* While the first thread builds the plan without sharing, writes the
 * records and computes the bound, which change nothing these read, a
 * second works out on a copy of the planner what the plan `chosen` costs
 * pinned and what kept it from sharing more. Begins that work (*t NULL:
 * gs_side_end does it here), or takes `early` (may be NULL) where it
 * began from the same choice, else drops it; -1 when out of memory. */
int gs_side_begin(const gs_planner *pl, const gs_choice *c, const gs_built *chosen,
                  gs_side *early, gs_side **t);
/* The pinned figure begun early, from c as it stands while the first
 * thread waits for the third start (plan_cheap.c), whose plan most often
 * loses and leaves c as it is: at 10^6 replicas the first thread waited
 * a second there. Only where it is sure to be asked for (priced pinned
 * already: the count of refusals only grows), the sharing limit is a
 * scan, which the first thread makes at the end, and the copy needs no
 * memo of a cache (the third start's copy holds them). *t NULL when not
 * begun; -1 when out of memory. */
int gs_side_early(const gs_planner *pl, const gs_choice *c, gs_side **t);
/* Sets p's sharing_limit and pinned_per_hour (gs_limit_say,
 * gs_plan_placement_set) from t, which must have begun with this chosen,
 * or works them out here; before: the plan without sharing's cost. Frees
 * t. */
int gs_side_end(gs_plan *p, const gs_planner *pl, const gs_choice *c,
                const gs_built *chosen, gs_micros before, gs_side *t);
/* Waits for t and frees it, unused (on an error path). */
void gs_side_drop(gs_side *t, const gs_planner *pl);

/* Under robust placement, whether replicas of several GPUs keep nodes of
 * their own span: sets pl->wide_apart where that plan costs less than
 * theirs sharing dedicated nodes (plan_keys.c). */
int gs_plan_wide_apart(gs_planner *pl);

#endif
