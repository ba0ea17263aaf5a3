/*
 * emit_set.c - the files of `plan --emit DIR` (gpushare.h: gs_emit_set):
 * each wanted kind's file, the workloads' patches one file per object so
 * that each applies alone, the complete copies and manifests they patch,
 * and a kustomization.yaml that applies all Kubernetes objects and patches
 * at once. Everything is rendered before anything is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "emit/patch.h"
#include "scenario/manifests.h"

#define KUSTOMIZATION "kustomization.yaml"
#define COPIES        "copies.yaml"
#define MANIFESTS     "manifests.yaml"
#define PATCHES       "patch-*.yaml"

struct gs_emit_set {
	char **names, **texts;
	size_t n, cap;
};

/* Adds name (copied) with text (taken; NULL: left out). */
static int add(gs_emit_set *s, const char *name, char *text)
{
	char *copy = gs_strdup(name);
	if (!copy ||
	    (s->n == s->cap &&
	     (gs_grow(&s->names, &s->cap, s->n + 1, sizeof *s->names) < 0 ||
	      !(s->texts = realloc(s->texts, s->cap * sizeof *s->texts))))) {
		free(copy);
		free(text);
		return -1;
	}
	s->names[s->n] = copy;
	s->texts[s->n++] = text;
	return 0;
}

static int add_patches(gs_emit_set *s, const gs_plan *p, const gs_emit_opts *o,
                       const gs_eobjects *objs, gs_buf *copies)
{
	const char *ns = gs_scenario_namespace(gs_plan_scenario(p));
	int bad = 0;
	for (size_t i = 0; i < objs->n && !bad; i++) {
		const gs_eobject *e = &objs->v[i];
		gs_buf b = GS_BUF_INIT;
		char name[320], *text = NULL;
		if (e->copy)
			gs_emit_doc(copies, gs_emit_copy(&bad, e, o, ns));
		gs_emit_header(
		    &b, p, o,
		    "A strategic-merge patch: what this object's pods must "
		    "request and where they must land.",
		    "kubectl apply -k . (kustomization.yaml), or alone:");
		gs_emit_object_comment(&b, e);
		gs_emit_doc(&b, gs_emit_patch(&bad, e, o));
		gs_emit_patch_file(e, name, sizeof name);
		if (gs_buf_detach(&b, &text, NULL) < 0 ||
		    add(s, name, text) < 0)
			bad = 1;
	}
	return bad ? -1 : 0;
}

/* The manifests as kubectl applies them. A workload object without a
 * namespace gets the one gpushare took it to be in (the file's), which
 * the patches target: kustomize matches a target's namespace exactly. */
static int manifests_text(const gs_emit_opts *o, const char *ns, gs_buf *b)
{
	int bad = 0;
	gs_buf_puts(b, "# The workloads' manifests (--manifests), which the "
	               "patches change.\n");
	for (size_t i = 0; i < gs_manifests_count(o->manifests) && !bad; i++) {
		const gs_manifest *m = gs_manifests_at(o->manifests, i);
		gs_node *obj = gs_manifest_copy(m),
		        *meta = gs_node_get(obj, "metadata");
		gs_emit_strip_live(obj);
		if (!obj)
			bad = 1;
		else if (m->workload && !m->namespace_ && meta)
			gs_emit_put(&bad, meta, "namespace", gs_node_str(ns));
		gs_emit_doc(b, obj);
	}
	return bad || b->failed ? -1 : 0;
}

static gs_node *target(int *bad, const gs_eobject *e)
{
	gs_node *t = gs_emit_map();
	const char *api = gs_emit_api_version(e->kind),
	           *slash = strchr(api, '/');
	if (slash) {
		char group[16];
		snprintf(group, sizeof group, "%.*s", (int)(slash - api), api);
		gs_emit_put(bad, t, "group", gs_node_str(group));
	}
	gs_emit_put(bad, t, "version", gs_node_str(slash ? slash + 1 : api));
	gs_emit_put(bad, t, "kind", gs_node_str(gs_object_kind_name(e->kind)));
	gs_emit_put(bad, t, "name", gs_node_str(e->name));
	gs_emit_put(bad, t, "namespace", gs_node_str(e->namespace_));
	return t;
}

/* Whether kustomization.yaml lists the set's file i as a resource. */
static int is_resource(const gs_emit_set *s, size_t i, const gs_emit_opts *o)
{
	if (!s->texts[i] || strncmp(s->names[i], "patch-", 6) == 0)
		return 0;
	for (int k = 0; k < GS_EMIT_KIND_COUNT; k++)
		if (strcmp(s->names[i], gs_emit_file_name((gs_emit_kind)k)) ==
		    0)
			return gs_emit_applies((gs_emit_kind)k) ||
			       (k == GS_EMIT_WORKLOADS &&
			        o->example_deployments);
	return 1; /* the copies and manifests */
}

static char *kustomization(const gs_plan *p, const gs_emit_opts *o,
                           const gs_emit_set *s, const gs_eobjects *objs)
{
	gs_buf b = GS_BUF_INIT;
	gs_node *k = gs_emit_map(), *res = gs_emit_seq(),
	        *patches = gs_emit_seq();
	char *text = NULL;
	int bad = 0;
	gs_emit_header(
	    &b, p, o,
	    "The plan's Kubernetes objects and the patches of the "
	    "workloads' objects, as one kustomization.",
	    "kubectl apply -k DIR (after the Helm values and labels.sh)");
	if (!o->manifests && !o->example_deployments)
		gs_buf_puts(&b, "# The patches change the objects listed under "
		                "resources: add "
		                "the workloads' own\n# manifests there (or "
		                "plan with --manifests), "
		                "or patch the live objects one by one\n# "
		                "(kubectl patch, as each "
		                "patch file says): kustomize skips a patch "
		                "whose object\n# it does "
		                "not hold.\n");
	gs_emit_put(&bad, k, "apiVersion",
	            gs_node_str("kustomize.config.k8s.io/v1beta1"));
	gs_emit_put(&bad, k, "kind", gs_node_str("Kustomization"));
	for (size_t i = 0; i < s->n; i++)
		if (is_resource(s, i, o))
			gs_emit_push(&bad, res, gs_node_str(s->names[i]));
	for (size_t i = 0, j = 0; i < s->n; i++) {
		gs_node *pt;
		char path[256], op[320];
		const gs_eobject *e;
		if (!s->texts[i] || strncmp(s->names[i], "patch-", 6) != 0)
			continue;
		e = &objs->v[j++];
		pt = gs_emit_map();
		gs_emit_put(&bad, pt, "path", gs_node_str(s->names[i]));
		gs_emit_put(&bad, pt, "target", target(&bad, e));
		gs_emit_push(&bad, patches, pt);
		if (!gs_emit_claim_conflict(e, o, path, sizeof path))
			continue;
		/* kustomize keeps the null that deletes the claim's other
		 * field: a JSON patch removes it. */
		snprintf(op, sizeof op, "- op: remove\n  path: %s\n", path);
		pt = gs_emit_map();
		gs_emit_put(&bad, pt, "patch", gs_node_str(op));
		gs_emit_put(&bad, pt, "target", target(&bad, e));
		gs_emit_push(&bad, patches, pt);
	}
	gs_emit_put(&bad, k, "resources", res);
	if (patches && patches->n)
		gs_emit_put(&bad, k, "patches", patches);
	else
		gs_node_free(patches);
	gs_emit_doc(&b, k);
	if (bad || gs_buf_detach(&b, &text, NULL) < 0) {
		gs_buf_release(&b);
		return NULL;
	}
	return text;
}

/* Every kind; the workloads' stream only as example Deployments, as
 * patches are written one file per object. */
static int add_kinds(gs_emit_set *s, const gs_plan *p, const gs_emit_opts *o,
                     int karpenter, gs_error *err)
{
	for (int k = 0; k < GS_EMIT_KIND_COUNT; k++) {
		char *text = NULL;
		int want = gs_emit_wanted(p, (gs_emit_kind)k, o) &&
		           (k != GS_EMIT_KARPENTER || karpenter) &&
		           (k != GS_EMIT_WORKLOADS || o->example_deployments);
		if (want && gs_emit(p, (gs_emit_kind)k, o, &text, err) < 0)
			return -1;
		if (add(s, gs_emit_file_name((gs_emit_kind)k), text) < 0)
			return gs_fail_nomem(err);
	}
	return 0;
}

static int make_set(gs_emit_set *s, const gs_plan *p, const gs_emit_opts *o,
                    int karpenter, gs_error *err)
{
	gs_eobjects objs;
	gs_buf copies = GS_BUF_INIT, man = GS_BUF_INIT;
	char *text = NULL;
	int rc;
	if ((rc = add_kinds(s, p, o, karpenter, err)) < 0)
		return rc;
	if ((rc = gs_emit_workloads_check(p, o, err)) < 0 ||
	    (rc = gs_emit_objects(p, o, &objs, err)) < 0)
		return rc;
	if (o->manifests &&
	    manifests_text(o, gs_scenario_namespace(gs_plan_scenario(p)),
	                   &man) == 0 &&
	    gs_buf_detach(&man, &text, NULL) == 0)
		rc = add(s, MANIFESTS, text);
	else
		rc = o->manifests ? -1 : add(s, MANIFESTS, NULL);
	if (rc == 0 && !o->example_deployments)
		rc = add_patches(s, p, o, &objs, &copies);
	text = NULL;
	if (rc == 0 &&
	    (copies.data ? gs_buf_detach(&copies, &text, NULL) : 0) == 0)
		rc = add(s, COPIES, text);
	if (rc == 0)
		rc = add(s, PATCHES, NULL);
	if (rc == 0 && !(text = kustomization(p, o, s, &objs)))
		rc = -1;
	if (rc == 0)
		rc = add(s, KUSTOMIZATION, text);
	gs_buf_release(&copies);
	gs_buf_release(&man);
	gs_emit_objects_release(&objs);
	return rc < 0 ? gs_fail_nomem(err) : 0;
}

int gs_emit_set_make(const gs_plan *p, const gs_emit_opts *o, int karpenter,
                     gs_emit_set **out, gs_error *err)
{
	gs_emit_set *s = calloc(1, sizeof *s);
	int rc;
	if (!s)
		return gs_fail_nomem(err);
	if ((rc = make_set(s, p, o, karpenter, err)) < 0) {
		gs_emit_set_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

size_t gs_emit_set_count(const gs_emit_set *s)
{
	return s->n;
}
const char *const *gs_emit_set_names(const gs_emit_set *s)
{
	return (const char *const *)s->names;
}
const char *const *gs_emit_set_texts(const gs_emit_set *s)
{
	return (const char *const *)s->texts;
}

void gs_emit_set_free(gs_emit_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->names[i]);
		free(s->texts[i]);
	}
	free(s->names);
	free(s->texts);
	free(s);
}
