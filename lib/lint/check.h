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
/* lint_values.c: a ConfigMap, and GPU Operator or device-plugin Helm
 * values; the configs they hold go back to the dispatcher. */
void gs_lint_configmap(lint_ctx *c, const gs_node *obj);
void gs_lint_helm_values(lint_ctx *c, const gs_node *root);

#endif
