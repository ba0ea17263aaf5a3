/*
 * emit_workloads.c - the workloads' objects as one stream: for each object
 * of the plan (objects.h) its strategic-merge patch, preceded by the
 * complete copy it patches where a placement needs a copy; or complete
 * example Deployments. `plan --emit` writes the same documents one file
 * per object (emit_set.c).
 */
#include <stdio.h>
#include <string.h>

#include "emit/emit.h"
#include "emit/patch.h"

/* "deployment" for `kubectl patch deployment NAME`. */
static void lower_kind(gs_object_kind k, char *buf, size_t n)
{
	size_t i;
	const char *name = gs_object_kind_name(k);
	for (i = 0; name[i] && i + 1 < n; i++)
		buf[i] = (char)(name[i] >= 'A' && name[i] <= 'Z'
		                    ? name[i] - 'A' + 'a'
		                    : name[i]);
	buf[i] = '\0';
}

void gs_emit_patch_file(const gs_eobject *e, char *buf, size_t n)
{
	char kind[16];
	lower_kind(e->kind, kind, sizeof kind);
	snprintf(buf, n, "patch-%s-%s-%s.yaml", kind, e->namespace_, e->name);
}

void gs_emit_object_comment(gs_buf *b, const gs_eobject *e)
{
	char kind[16], file[320];
	lower_kind(e->kind, kind, sizeof kind);
	gs_emit_patch_file(e, file, sizeof file);
	gs_buf_printf(b, "# %s %s/%s: %d replica%s",
	              gs_object_kind_name(e->kind), e->namespace_, e->name,
	              e->replicas, e->replicas == 1 ? "" : "s");
	if (e->copy)
		gs_buf_printf(b, ", a copy of %s for its placement %d",
		              e->real_name, e->copy + 1);
	gs_buf_printf(b,
	              "\n# kubectl patch %s %s -n %s --type strategic "
	              "--patch-file %s\n",
	              kind, e->name, e->namespace_, file);
	/* The API server refuses such changes to a running object. */
	if (e->kind == GS_OBJECT_JOB || e->kind == GS_OBJECT_POD)
		gs_buf_printf(
		    b,
		    "# (a %s's pod template cannot change once it runs: patch "
		    "its manifest, delete it and create it again)\n",
		    gs_object_kind_name(e->kind));
}

int gs_emit_workloads_check(const gs_plan *p, const gs_emit_opts *o,
                            gs_error *err)
{
	gs_eobjects objs;
	int rc = gs_emit_objects(p, o, &objs, err);
	if (rc == 0)
		gs_emit_objects_release(&objs);
	return rc;
}

int gs_emit_workloads(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	gs_eobjects objs;
	gs_error err;
	int bad = 0;
	const char *ns = gs_scenario_namespace(gs_plan_scenario(p));

	if (gs_emit_objects(p, o, &objs, &err) < 0)
		return -1;
	gs_emit_header(
	    b, p, o,
	    o->example_deployments ? "Example Deployments that request what "
	                             "the plan gives each workload."
	                           : gs_emit_help(GS_EMIT_WORKLOADS),
	    o->example_deployments
	        ? "kubectl apply -f workloads.yaml (replace the images first)"
	        : "kubectl apply -k DIR (plan --emit DIR), or kubectl patch, "
	          "one "
	          "document per object");
	if (!o->example_deployments)
		gs_buf_printf(b, "# Deployments: %s.\n", GS_EMIT_ROLLOUT_NOTE);
	for (size_t i = 0; i < objs.n && !bad; i++) {
		const gs_eobject *e = &objs.v[i];
		if (o->example_deployments) {
			gs_emit_doc(b, gs_emit_example(&bad, e, o));
			continue;
		}
		if (e->copy) {
			gs_buf_printf(b,
			              "# %s %s/%s: a complete copy of %s, for "
			              "its placement %d\n",
			              gs_object_kind_name(e->kind),
			              e->namespace_, e->name, e->real_name,
			              e->copy + 1);
			gs_emit_doc(b, gs_emit_copy(&bad, e, o, ns));
		}
		gs_emit_object_comment(b, e);
		gs_emit_doc(b, gs_emit_patch(&bad, e, o));
	}
	gs_emit_objects_release(&objs);
	return bad ? -1 : 0;
}
