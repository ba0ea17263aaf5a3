/*
 * robust.h - the worst case of a shared GPU under placement: robust. Pods
 * of one object share one template, so the scheduler may put any of a
 * workload's replicas on any node its selectors allow, and the device
 * plugin may hand a time-slice or MPS slot of any GPU of the node to any
 * of them. A shared GPU with k slots among workloads W must therefore hold
 * the k replicas of W that need the most memory, and, apart, the k that
 * need the most compute, each workload counted at most min(replicas, k)
 * times (once when spread keeps its replicas on distinct nodes).
 *
 * Under placement: pinned each placement has an object of its own, so a
 * node holds exactly its planned replicas: the worst case of a GPU is then
 * the node's replicas that may reach it (robust.c).
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_ROBUST_H
#define GS_PLAN_ROBUST_H

#include "plan/pack.h"

/* The worst summed memory (bytes) and compute (ppm of g) that k slots of
 * one GPU of model g may hold when the replicas reps[0..n) and extra (-1:
 * none) say which workloads may land there. */
typedef struct gs_worst {
	int64_t mem, comp;
} gs_worst;

gs_worst gs_robust_worst(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                         int extra, int k);

/* Whether, under placement: robust, a replica of w (comp ppm of the GPU)
 * can share no GPU, or no MIG instance: w has two replicas or more and no
 * spread, so any two slots of one it shares may hold two of them, and two
 * of them need more than mem_cap bytes (the GPU's or the profile's memory:
 * time-slicing offers no more, and MPS splits it) or compute over comp_cap
 * (targetUtilization, of the instance's SMs for an instance). 0 under
 * pinned, and where fractions or DRA, whose rules are their own, may share
 * the GPU. The bounds (bound.c, cg.c) give such a replica the whole GPU
 * or instance. */
int gs_robust_alone(const gs_planner *pl, const gs_workload *w, int64_t comp, int64_t mem_cap,
                    int64_t comp_cap);

/* Under robust placement (whose worst case fractions and DRA replace
 * with rules of their own, as for gs_robust_alone), the most replicas a
 * group holding one of w's (comp ppm of its GPU) may have, where w's own
 * replicas force it: k slots hold min(replicas, k) of them, so up to
 * `replicas` slots must fit k of w in offer bytes and cap ppm, and more
 * slots all of them, which cannot be when the replicas exceed either
 * limit. 0: no such limit (spread counts w once; offer INT64_MAX: the
 * way caps memory per client). The bounds (bound.c, cg.c) count it: a
 * group of k replicas gives each 1/k of its GPU, at least 1/most. */
int64_t gs_robust_slots(const gs_planner *pl, const gs_workload *w, int64_t comp,
                        int64_t offer, int64_t cap);

/* Whether k copies of the largest of reps[0..n) and extra, by memory and
 * apart by compute, fit offer and the target: then so does any worst case,
 * found without sorting (the packer asks this in its innermost loop). */
int gs_robust_surely_fits(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                          int extra, int k, int64_t offer);

/* The worst case `worst` in place of the planned sums `planned`, counted
 * in pl->robust_bound when it refuses what they would not (memory over
 * offer, or compute over the target). */
/* Would a GPU of model g shared as DRA capacity fractions by reps[0..n)
 * (and r, when not -1) stay within the target whatever claims of their
 * workloads its scheduler seats on it, memory permitting? */
int gs_robust_dra_ok(const gs_planner *pl, const gs_gpu *g, const int *reps, int n, int r);
gs_worst gs_robust_bind(const gs_planner *pl, gs_worst planned, gs_worst worst,
                        int64_t offer);

/* May GPU pg join the GPUs on[0..n) of a node shared as st with k slots
 * per GPU (time-slicing: its largest group's)? Every GPU of it, pg's too
 * (even one replica alone), then offers k slots to the replicas of all. */
int gs_robust_node_ok(const gs_planner *pl, const gs_pgpu *const *on, int n,
                      const gs_pgpu *pg, gs_strategy st, int k);
/* Would gpus[0..n) pass gs_robust_node_ok all on one node (without
 * counting a refusal)? The worst case of a set holds that of each of its
 * subsets, so then every node that buying fills with some of them does. */
int gs_robust_node_holds(const gs_planner *pl, const gs_pgpu *const *gpus, int n,
                         gs_strategy st, int k);

/* Under the device plugin (pinned placement too) a pod takes any MIG
 * instance of its profile on its node: may MIG GPU pg join on[0..n) when a
 * spread: gpu workload of either asks a profile that some GPU of them has
 * twice, or (pinned copies) asks several that some GPU has two of? */
int gs_robust_mig_node_ok(const gs_planner *pl, const gs_pgpu *const *on, int n,
                          const gs_pgpu *pg);
/* Time-slicing inside MIG under the device plugin: every instance of a
 * profile on a node advertises the largest replica count any of them
 * holds (plan_records.c's mig_slots_for), and the plugin seats any pod of
 * the profile in any of those slots. Whether the instances gs[0..n), all
 * of profile prof of model g (one node's, or one GPU's with one joining),
 * hold the worst case of all their replicas at that count: gen.py's seed
 * 2173 put one replica of 36.5 GiB alone in a 3g.40gb beside a 3g.40gb
 * time-sliced three ways, and two of it could land there. */
int gs_robust_mig_ts_holds(const gs_planner *pl, const gs_gpu *g, const gs_mig_profile *prof,
                           const gs_group *const *gs, int n);
/* The same rule by masks of profile indices, for nodes kept as they grow
 * (nodeset.c): in *twice the profiles GPU g holds two instances of or
 * more, in *asked those a spread: gpu replica on g asks; a node breaks the
 * rule when its GPUs' twice and asked masks meet. -1 when a profile's
 * index does not fit the mask, and under pinned placement where a spread:
 * gpu replica is on g (then ask gs_robust_mig_node_ok). */
int gs_robust_mig_masks(const gs_planner *pl, const gs_pgpu *g, uint64_t *twice,
                        uint64_t *asked);

/* Under placement: robust (not DRA), may dedicated GPU pg (NULL: none)
 * join on[0..n) on a node of `gpus` GPUs? Where the node's workloads mix
 * spans, the replicas they may land there (each workload's span times
 * min(its replicas, what the node holds of them; 1 with spread: node))
 * must fit its GPUs together. */
int gs_robust_span_ok(const gs_planner *pl, const gs_pgpu *const *on, int n,
                      const gs_pgpu *pg, int gpus);

#endif
