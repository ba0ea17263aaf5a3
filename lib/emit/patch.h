/*
 * patch.h - one object of the plan (objects.h) as Kubernetes YAML trees:
 * the strategic-merge patch that makes its pods request what the plan
 * gives them and land in its pools, a complete copy of its manifest for a
 * second placement, and an example Deployment when there is no manifest.
 */
#ifndef GS_EMIT_PATCH_H
#define GS_EMIT_PATCH_H

#include "emit/objects.h"

/* The label every planned pod carries: the workload it belongs to, which
 * spread's anti-affinity selects (and a checker maps pods by). */
#define GS_EMIT_WORKLOAD_LABEL "gpushare.io/workload"
#define GS_EMIT_POOL_LABEL     "gpushare.io/pool"
#define GS_EMIT_COPY_LABEL     "gpushare.io/copy"

/* The patch of e; NULL (and *bad) when out of memory. */
gs_node *gs_emit_patch(int *bad, const gs_eobject *e, const gs_emit_opts *o);
/* e (a copy) as a complete object: its real object's manifest, renamed,
 * with the copy label in its selector and template; the patch then
 * applies to it as to the real one. */
gs_node *gs_emit_copy(int *bad, const gs_eobject *e, const gs_emit_opts *o,
                      const char *default_ns);
/* Drops from obj what the cluster, not its author, wrote (status, uid,
 * resourceVersion, ...), as a manifest read from a live cluster has. */
void gs_emit_strip_live(gs_node *obj);
/* A complete example Deployment for e: the patch with a placeholder image
 * and the labels and selector a Deployment needs. */
gs_node *gs_emit_example(int *bad, const gs_eobject *e, const gs_emit_opts *o);

/* Whether e's manifest names its pod claim "gpu" by the field the plan
 * does not use: kustomize keeps the null a strategic merge deletes it
 * with, so the set also removes it by this JSON pointer. */
int gs_emit_claim_conflict(const gs_eobject *e, const gs_emit_opts *o, char *path,
                           size_t n);
/* The file of e's patch in an emitted set:
 * "patch-deployment-ml-chat.yaml", as kinds, namespaces and names are DNS
 * labels or subdomains. */
void gs_emit_patch_file(const gs_eobject *e, char *buf, size_t n);
/* Two comment lines before e's patch: what it is and how to apply it
 * alone (emit_workloads.c). */
void gs_emit_object_comment(gs_buf *b, const gs_eobject *e);

/* The rollout strategy patches set: one pod at a time, without a surge
 * pod, as the plan holds no spare slot. */
#define GS_EMIT_ROLLOUT_NOTE                                                   \
	"rollouts replace one pod at a time (maxSurge 0, "                     \
	"maxUnavailable 1): the plan holds no spare slot for a surge pod"

#endif
