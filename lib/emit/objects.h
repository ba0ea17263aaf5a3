/*
 * objects.h - the Kubernetes objects that carry the plan's workloads:
 * which objects, how many replicas each, what their pods request and
 * which node pools they select. emit_workloads.c and emit_set.c render
 * them; objects.c decides them.
 *
 * A workload is one object (gs_workload.object) whose pods all share one
 * template: under placement robust its pods request one thing and select
 * every pool it is planned on, and the plan holds any placement that
 * allows (robust.h). Replicas that must request different things (a MIG
 * profile here, a shared GPU there), and every placement under pinned,
 * become complete copies of the real object, which need its manifest
 * (--manifests): no object is invented without one.
 */
#ifndef GS_EMIT_OBJECTS_H
#define GS_EMIT_OBJECTS_H

#include "emit/place.h"

typedef struct gs_eobject {
	const gs_workload *w;
	gs_object_kind kind;
	const char *name;      /* the object's (a copy's: its own) */
	const char *real_name; /* the workload's object's */
	const char *namespace_;
	const char *file_ns;   /* the workload file's namespace (manifests
	                          * without one are in it) */
	const char *container; /* NULL only with example Deployments */
	int copy;              /* 0: the real object; 1, 2, ...: a copy */
	int replicas;
	place where;        /* what its pods request */
	const char **pools; /* the pools its pods select, in plan order */
	size_t n_pools;
	int spread_nodes; /* at most one pod per node */
} gs_eobject;

typedef struct gs_eobjects {
	gs_eobject *v;
	size_t n;
	char **owned; /* names made for copies, freed with the set */
	size_t n_owned;
} gs_eobjects;

/* Decides the objects of a plan; errors say which workload lacks what
 * (its container, its manifest). */
int gs_emit_objects(const gs_plan *p, const gs_emit_opts *o, gs_eobjects *out,
                    gs_error *err);
void gs_emit_objects_release(gs_eobjects *objs);

/* "apps/v1", "batch/v1", "v1" */
const char *gs_emit_api_version(gs_object_kind k);

#endif
