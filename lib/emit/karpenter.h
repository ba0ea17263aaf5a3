/*
 * karpenter.h - what a planned node advertises to the scheduler, as
 * Karpenter must be told with a NodeOverlay (karpenter_capacity.c), for
 * emit_karpenter.c and its unit test.
 */
#ifndef GS_EMIT_KARPENTER_H
#define GS_EMIT_KARPENTER_H

#include "emit/emit.h"

#define GS_KP_MAX_RES 48

/* One extended resource and how many the node advertises. */
typedef struct gs_kp_res {
	char name[80];
	long count;
} gs_kp_res;

/* The extended resources a node's device plugin advertises once its
 * configs are applied: nvidia.com/gpu (whole GPUs, or time-slice/MPS
 * replicas without --rename-shared), nvidia.com/gpu.shared, and per MIG
 * profile nvidia.com/mig-<profile>[.shared]; on a HAMi GPU its slots, and
 * the nvidia.com/gpumem and nvidia.com/gpucores HAMi pods ask beside.
 * nvidia.com/gpu always comes
 * first, 0 when every GPU is MIG-enabled or renamed. Returns the count of
 * entries, or -1 if more than GS_KP_MAX_RES. */
int gs_kp_capacity(const gs_plan_node *n, const gs_emit_opts *o, gs_kp_res *out);

/* Whether Karpenter's own view of the instance type (nvidia.com/gpu: its
 * GPU count, nothing else) differs from that, so it needs an overlay. */
int gs_kp_needs_overlay(const gs_plan_node *n, const gs_kp_res *r, int nr);

#endif
