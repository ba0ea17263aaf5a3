/*
 * check.h - the lint checkers, one per format, as the dispatcher (lint.c)
 * calls them. Each checker includes kit.h only.
 */
#ifndef GS_LINT_CHECK_H
#define GS_LINT_CHECK_H

#include "lint/kit.h"

/* lint_dp.c: an NVIDIA device-plugin config. */
void gs_lint_device_plugin(lint_ctx *c, const gs_node *root);
/* lint_mig.c: a mig-parted config. */
void gs_lint_mig_parted(lint_ctx *c, const gs_node *root);
/* lint_dra.c: a resource.k8s.io object (its apiVersion and kind are
 * strings). */
void gs_lint_dra(lint_ctx *c, const gs_node *obj);
/* lint_karpenter.c: a Karpenter object, or one of its removed kinds. */
void gs_lint_karpenter(lint_ctx *c, const gs_node *obj);
/* lint_dra_values.c: Helm values of NVIDIA's DRA driver for GPUs. */
int gs_lint_is_dra_values(const gs_node *root);
void gs_lint_dra_values(lint_ctx *c, const gs_node *root);
/* lint_values.c: a ConfigMap, and GPU Operator or device-plugin Helm
 * values; the configs they hold go back to the dispatcher. */
void gs_lint_configmap(lint_ctx *c, const gs_node *obj);
void gs_lint_helm_values(lint_ctx *c, const gs_node *root);
/* lint_workloads.c: objects with pod templates (and the patches of their
 * templates), Nodes, NodePool labels and labels.sh scripts; they only note
 * facts for the cross-file rules. */
int gs_lint_is_workload(const char *kind);
int gs_lint_is_patch(const gs_node *root);
void gs_lint_workload(lint_ctx *c, const gs_node *obj, const char *kind);
void gs_lint_node(lint_ctx *c, const gs_node *obj);
void gs_lint_nodepool_labels(lint_ctx *c, const gs_node *obj);
void gs_lint_script(lint_ctx *c, const char *buf, size_t len);
/* lint_hami.c: HAMi's scheduler device config (device-config.yaml), the
 * device plugin's nodeconfig (config.json) and the chart's Helm values;
 * lint_hami_pod.c: the nvidia.com/gpumem, gpumem-percentage and gpucores
 * a workload's containers ask HAMi for. */
int gs_lint_is_hami(const gs_node *root);
void gs_lint_hami(lint_ctx *c, const gs_node *root);
void gs_lint_hami_pod(lint_ctx *c, const gs_node *obj, const char *kind);
/* lint_cross.c: notes what a device-plugin config shares (with the
 * context's cfg_key, cfg_holder), and the rules across files. */
void gs_lint_note_dp(lint_ctx *c, const gs_node *root);
void gs_lint_cross(lint_ctx *c, const lint_facts *f);

#endif
