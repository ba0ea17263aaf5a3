/*
 * emit.h - what the emitters of Kubernetes configuration share. Each kind
 * is a row of registry.c (its names, its render function, when a plan
 * wants it) and a file that renders it; emit.c holds what they have in
 * common. Emitters read the plan through the public records only.
 */
#ifndef GS_EMIT_H
#define GS_EMIT_H

#include "base/buf.h"
#include "doc/doc.h"

/* ---- the registry (registry.c) ------------------------------------------- */

/* The kind's line of help, which also opens the header of its file. */
const char *gs_emit_help(gs_emit_kind k);
/* Whether the kind's file holds Kubernetes objects that kubectl applies
 * (not Helm values or a script). */
int gs_emit_applies(gs_emit_kind k);

/* ---- text (emit.c) ------------------------------------------------------- */

/* Appends doc as one YAML document starting with "---", and frees it. */
void gs_emit_doc(gs_buf *b, gs_node *doc);
/* The comment every file starts with: what it is, what produced it and
 * how to apply it. Only our own text and sanitized names go into
 * comments. */
void gs_emit_header(gs_buf *b, const gs_plan *p, const gs_emit_opts *o, const char *what,
                    const char *apply);

/* ---- builders (emit.c) --------------------------------------------------- */

/* NULL-safe, so trees are built first and checked once: put and push
 * record a failure in *bad instead of returning it. Scalars are
 * gs_node_str and gs_node_int. */
gs_node *gs_emit_map(void);
gs_node *gs_emit_seq(void);
void gs_emit_put(int *bad, gs_node *map, const char *key, gs_node *v);
void gs_emit_push(int *bad, gs_node *seq, gs_node *v);

/* ---- facts of a plan ----------------------------------------------------- */

/* "nvidia.com/mig-1g.5gb" (a '+' in a profile name becomes '.') */
void gs_emit_mig_resource(const gs_mig_profile *prof, int shared, char *buf, size_t n);
/* The plan's nodes of each distinct config (mig: mig-parted config), in
 * order of first appearance: index i of the first node per config
 * (returns their count). */
size_t gs_emit_distinct_configs(const gs_plan *p, size_t *first, int mig);

/* What a plan wants (the registry's predicates, also asked by other
 * kinds): MIG GPUs (emit_nvidia.c), DRA claims (emit_dra.c), AWS nodes
 * for Karpenter (emit_karpenter.c). */
int gs_emit_wants_mig(const gs_plan *p, const gs_emit_opts *o);
int gs_emit_wants_dra(const gs_plan *p, const gs_emit_opts *o);
/* The device plugin's ConfigMap: only when the stack is not DRA. */
int gs_emit_wants_device_plugin(const gs_plan *p, const gs_emit_opts *o);
int gs_emit_wants_karpenter(const gs_plan *p, const gs_emit_opts *o);

/* ---- DRA (emit_dra.c) ---------------------------------------------------- */

/* The resource.k8s.io version emitted: o->dra_api, or with GS_DRA_AUTO
 * the newest that Kubernetes 1.<kube_minor> serves. */
gs_dra_api gs_emit_dra_api(const gs_emit_opts *o);
/* Refuses what a DRA stack cannot run: a Kubernetes version out of range,
 * an API the version does not serve, a shared GPU or MIG instance whose
 * pods are in several namespaces (a claim serves its own namespace). */
int gs_emit_dra_check(const gs_plan *p, const gs_emit_opts *o, gs_error *err);
/* The namespace of a workload's object. */
const char *gs_emit_namespace_of(const gs_plan *p, const gs_workload *w);

/* DRA claim names, which pods refer to: one ResourceClaim per shared GPU
 * ("gpushare-n1-gpu0") and per shared MIG instance ("gpushare-n3-gpu1-mig2"),
 * in the namespace of its pods; a ResourceClaimTemplate per workload and
 * MIG profile for MIG instances of its own ("gpushare-chat-mig-1g.10gb"),
 * and one per namespace for whole GPUs of their own (GS_EMIT_DRA_TEMPLATE). */
void gs_emit_claim_name(char *buf, size_t n, size_t node, size_t gpu);
void gs_emit_mig_claim_name(char *buf, size_t n, size_t node, size_t gpu, size_t mig);
void gs_emit_mig_template_name(char *buf, size_t n, const gs_workload *w,
                               const gs_mig_profile *prof);
/* Whether a MIG instance is shared by several pods (one claim by name)
 * rather than one pod's (a template). */
int gs_emit_mig_shared(const gs_plan_mig *mi);
#define GS_EMIT_DRA_TEMPLATE "gpushare-gpu"
/* The template of whole GPUs for pods of `count` GPUs each:
 * GS_EMIT_DRA_TEMPLATE for one, "gpushare-gpu-x3" for three. */
void gs_emit_dra_template_name(char *buf, size_t n, int count);

/* ---- fractions (backend.c, fraction.c) ----------------------------------- */

/* HAMi's names (Project-HAMi/HAMi charts/hami/values.yaml): its scheduler,
 * the memory cap (MiB) and SM % a container asks for beside nvidia.com/gpu,
 * and the node label its device plugin's DaemonSet selects. */
#define GS_EMIT_HAMI_SCHEDULER "hami-scheduler"
#define GS_EMIT_HAMI_MEM       "nvidia.com/gpumem"
#define GS_EMIT_HAMI_CORES     "nvidia.com/gpucores"
#define GS_EMIT_HAMI_SPLIT     10 /* deviceSplitCount's default */
/* The label of a fraction GPU's pods and nodes: its backend's name. */
#define GS_EMIT_FRACTION_LABEL "gpushare.io/fraction"

/* g's backend when it is a fraction of a whole GPU, else NONE. */
gs_backend gs_emit_backend(const gs_plan_gpu *g);
/* Whether the plan has fraction GPUs of backend b holding replicas. */
int gs_emit_has_backend(const gs_plan *p, gs_backend b);
/* The backend of a node's fraction GPUs (a node has one), else NONE. */
gs_backend gs_emit_node_backend(const gs_plan_node *n);
int gs_emit_wants_hami(const gs_plan *p, const gs_emit_opts *o);
/* The sum of g's replicas' memory caps in MiB. */
int64_t gs_emit_gpu_caps_mib(const gs_plan_gpu *g);
/* HAMi's deviceMemoryScaling in ppm for model m: the least s with
 * floor(reported x s) = usable memory, so that HAMi never hands out the
 * memory the driver keeps; the values' global one, the least of the
 * plan's HAMi models'; whether the models differ, so that each HAMi node
 * gets its own in HAMi's per-node config (labels.sh writes it, named by
 * GS_EMIT_HAMI_NODES); and the MiB HAMi accounts for a GPU of model m. */
int64_t gs_emit_hami_model_scaling_ppm(const gs_gpu *m);
int64_t gs_emit_hami_scaling_ppm(const gs_plan *p);
int gs_emit_hami_per_node(const gs_plan *p);
int64_t gs_emit_hami_budget_mib(const gs_gpu *m, int64_t scaling_ppm);
#define GS_EMIT_HAMI_NODES     "gpushare-hami-nodes"
#define GS_EMIT_HAMI_NAMESPACE "kube-system"
/* What a DRA capacity claim asks for a cap of mib on a GPU of model m:
 * mib x reported / usable memory, rounded up. The scheduler counts a
 * device's reported memory, so claims that fit it never hold more than
 * its usable memory's worth of caps. */
int64_t gs_emit_capacity_mib(const gs_gpu *m, int64_t mib);
/* Whether g's backend may put two replicas of w on one GPU of g's model
 * (HAMi: two caps within what it accounts, two SM % within 100; DRA: two
 * requests within the device's capacity). spread: gpu then needs the
 * pods on distinct nodes; otherwise the backend keeps them apart. */
int gs_emit_fraction_pairs(const gs_plan *p, const gs_plan_gpu *g, const gs_workload *w);
/* deviceSplitCount: its default, or the most replicas of one HAMi GPU. */
int gs_emit_hami_split(const gs_plan *p);
/* Refuses fractions no cluster can run as planned (fraction.c). */
int gs_emit_fraction_check(const gs_plan *p, const gs_emit_opts *o, gs_error *err);
/* The ResourceClaimTemplate of a workload's DRA capacity fractions
 * ("gpushare-chat-18432mi"): its pods' claims request that memory. */
void gs_emit_capacity_template_name(char *buf, size_t n, const gs_workload *w, int64_t mib);

/* ---- the kinds, one render function each --------------------------------- */

int gs_emit_device_plugin(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
int gs_emit_operator_values(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
int gs_emit_mig_parted(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
int gs_emit_labels(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
int gs_emit_workloads(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
/* What the workloads' objects need that the plan and options lack (a
 * container's name, a manifest), as an error naming the workload. */
int gs_emit_workloads_check(const gs_plan *p, const gs_emit_opts *o, gs_error *err);
int gs_emit_dra(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
int gs_emit_karpenter(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
int gs_emit_dra_driver(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
int gs_emit_hami(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);

#endif
