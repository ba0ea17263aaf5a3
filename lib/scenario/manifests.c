/*
 * manifests.c - the workloads' real Kubernetes objects (--manifests): a
 * YAML stream or JSON document read whole, each object checked to be one
 * (apiVersion, kind, metadata.name) and kept with its place; lookups by
 * kind, namespace and name; the pod template and containers an emitter
 * patches. See manifests.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/manifests.h"

struct gs_manifests {
	char *file;
	gs_node **docs;     /* the parsed documents, which own every tree */
	size_t n_docs;
	gs_manifest *objs;
	size_t n, cap;
};

const char *gs_manifests_file(const gs_manifests *m) { return m->file; }
size_t gs_manifests_count(const gs_manifests *m) { return m->n; }
const gs_manifest *gs_manifests_at(const gs_manifests *m, size_t i) { return &m->objs[i]; }

void gs_manifests_free(gs_manifests *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_docs; i++)
		gs_node_free(m->docs[i]);
	free(m->docs);
	free(m->objs);
	free(m->file);
	free(m);
}

/* ---- loading -------------------------------------------------------------- */

static const char *str_at(const gs_node *map, const char *key)
{
	const gs_node *v = gs_node_get(map, key);
	return v && v->kind == GS_NODE_STRING ? v->text : NULL;
}

static const char *node_what(const gs_node *n)
{
	switch (n->kind) {
	case GS_NODE_SEQ:
		return "a list";
	case GS_NODE_MAP:
		return "a mapping";
	case GS_NODE_NULL:
		return "null";
	default:
		return "a value";
	}
}

static const char *ns_text(const char *ns) { return ns ? ns : "(none)"; }

/* Two objects that name the same kind, namespace and name. */
static int check_unique(const gs_manifests *m, const gs_manifest *o, gs_error *err)
{
	for (size_t i = 0; i < m->n; i++) {
		const gs_manifest *p = &m->objs[i];
		if (strcmp(p->kind, o->kind) == 0 && strcmp(p->name, o->name) == 0 &&
		    ((!p->namespace_ && !o->namespace_) ||
		     (p->namespace_ && o->namespace_ && strcmp(p->namespace_, o->namespace_) == 0)))
			return gs_fail_node(err, GS_ESCHEMA, m->file, o->tree,
			                    "a second %s '%s' in namespace %s (the first is at "
			                    "line %lu)", o->kind, o->name, ns_text(o->namespace_),
			                    p->tree->line);
	}
	return 0;
}

static int add_object(gs_manifests *m, const gs_node *t, gs_error *err);

/* A List's items, each an object (not a List again). */
static int add_list(gs_manifests *m, const gs_node *t, gs_error *err)
{
	const gs_node *items = gs_node_get(t, "items");
	int rc = 0;

	if (!items || items->kind != GS_NODE_SEQ)
		return gs_fail_node(err, GS_ESCHEMA, m->file, items ? items : t,
		                    "a List needs 'items', a list of objects");
	for (size_t i = 0; i < items->n && rc == 0; i++) {
		const char *k = str_at(items->items[i], "kind");
		if (k && strcmp(k, "List") == 0)
			return gs_fail_node(err, GS_ESCHEMA, m->file, items->items[i],
			                    "a List inside a List");
		rc = add_object(m, items->items[i], err);
	}
	return rc;
}

static int add_object(gs_manifests *m, const gs_node *t, gs_error *err)
{
	const gs_node *meta, *nsn;
	gs_manifest o = { 0 };
	int rc;

	if (t->kind != GS_NODE_MAP)
		return gs_fail_node(err, GS_ESCHEMA, m->file, t,
		                    "expected a Kubernetes object (a mapping with apiVersion, "
		                    "kind and metadata), not %s", node_what(t));
	if (!(o.kind = str_at(t, "kind")) || !*o.kind)
		return gs_fail_node(err, GS_ESCHEMA, m->file, t,
		                    "not a Kubernetes object: no 'kind'");
	if (strcmp(o.kind, "List") == 0)
		return add_list(m, t, err);
	if (!str_at(t, "apiVersion"))
		return gs_fail_node(err, GS_ESCHEMA, m->file, t,
		                    "the %.40s has no 'apiVersion'", o.kind);
	meta = gs_node_get(t, "metadata");
	if (!meta || meta->kind != GS_NODE_MAP || !(o.name = str_at(meta, "name")) || !*o.name)
		return gs_fail_node(err, GS_ESCHEMA, m->file, meta ? meta : t,
		                    "the %.40s has no metadata.name (an object made with "
		                    "generateName cannot be patched)", o.kind);
	nsn = gs_node_get(meta, "namespace");
	if (nsn && nsn->kind != GS_NODE_NULL && (nsn->kind != GS_NODE_STRING ||
	                                         !gs_is_dns_label(nsn->text)))
		return gs_fail_node(err, GS_ESCHEMA, m->file, nsn,
		                    "metadata.namespace must be a DNS-1123 label: "
		                    GS_DNS_LABEL_RULE);
	o.namespace_ = nsn && nsn->kind == GS_NODE_STRING ? nsn->text : NULL;
	o.tree = t;
	for (int k = 0; k <= GS_OBJECT_POD; k++)
		if (strcmp(o.kind, gs_object_kind_name((gs_object_kind)k)) == 0) {
			o.workload = 1;
			o.object = (gs_object_kind)k;
		}
	if (m->n >= GS_MANIFESTS_MAX)
		return gs_fail_node(err, GS_ELIMIT, m->file, t, "more than %d objects in one file",
		                    GS_MANIFESTS_MAX);
	if ((rc = check_unique(m, &o, err)) < 0)
		return rc;
	if (gs_grow(&m->objs, &m->cap, m->n + 1, sizeof *m->objs) < 0)
		return gs_fail_nomem(err);
	m->objs[m->n++] = o;
	return 0;
}

static int load_buffer(gs_manifests *m, const char *buf, size_t len, gs_error *err)
{
	int rc = gs_yaml_read_stream(m->file, buf, len, &m->docs, &m->n_docs, err);

	for (size_t i = 0; rc == 0 && i < m->n_docs; i++)
		rc = add_object(m, m->docs[i], err);
	if (rc == 0 && m->n == 0)
		rc = gs_fail_at(err, GS_ESCHEMA, m->file, 0, 0,
		                "no Kubernetes objects in the file (expected the workloads' "
		                "manifests, as YAML documents or JSON)");
	return rc;
}

int gs_manifests_load_buffer(const char *name, const char *buf, size_t len,
                             gs_manifests **out, gs_error *err)
{
	gs_manifests *m = calloc(1, sizeof *m);
	int rc;

	*out = NULL;
	if (!m || !(m->file = gs_strdup(name))) {
		free(m);
		return gs_fail_nomem(err);
	}
	if ((rc = load_buffer(m, buf, len, err)) < 0) {
		gs_manifests_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int gs_manifests_load(const char *path, gs_manifests **out, gs_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	/* The library never reads standard input: the CLI does. */
	if (strcmp(path, "-") == 0)
		return gs_fail(err, GS_EINVAL, "manifests: give a file, not '-'");
	if ((rc = gs_file_read(path, &buf, &len, err)) == 0)
		rc = gs_manifests_load_buffer(path, buf, len, out, err);
	free(buf);
	return rc;
}

/* ---- lookups --------------------------------------------------------------- */

/* What the file holds of a kind, for "not found": "a, b/c" (at most a few). */
static void held(const gs_manifests *m, gs_object_kind kind, char *buf, size_t size)
{
	size_t o = 0, shown = 0, all = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->n; i++) {
		const gs_manifest *p = &m->objs[i];
		if (!p->workload || p->object != kind)
			continue;
		if (shown < 4 && o < size) {
			const char *ns = p->namespace_ ? p->namespace_ : "";
			int k = snprintf(buf + o, size - o, "%s%s%s%s", shown ? ", " : "", ns,
			                 *ns ? "/" : "", p->name);
			o += k > 0 ? (size_t)k : 0;
			shown++;
		}
		all++;
	}
	if (all > shown && o < size)
		snprintf(buf + o, size - o, " and %zu more", all - shown);
}

int gs_manifests_find(const gs_manifests *m, gs_object_kind kind, const char *ns,
                      const char *name, const char *default_ns, const gs_manifest **out,
                      gs_error *err)
{
	const gs_manifest *hit = NULL;
	char list[512];

	if (!ns)
		ns = default_ns;
	for (size_t i = 0; i < m->n; i++) {
		const gs_manifest *p = &m->objs[i];
		const char *pns = p->namespace_ ? p->namespace_ : default_ns;
		if (!p->workload || p->object != kind || strcmp(p->name, name) != 0 ||
		    strcmp(pns, ns) != 0)
			continue;
		if (hit)
			return gs_fail_node(err, GS_ESCHEMA, m->file, p->tree,
			                    "a second %s '%s' in namespace %s (the first, at line "
			                    "%lu, gives no namespace, so it is in %s too)",
			                    p->kind, name, ns, hit->tree->line, ns);
		hit = p;
	}
	if (hit) {
		*out = hit;
		return 0;
	}
	held(m, kind, list, sizeof list);
	return gs_fail_at(err, GS_ENOTFOUND, m->file, 0, 0, "no %s '%s' in namespace %s among "
	                  "the manifests (%s%s)", gs_object_kind_name(kind), name, ns,
	                  *list ? "it has " : "it has no ", *list ? list : "object of that kind");
}

int gs_manifests_find_ref(const gs_manifests *m, const gs_workload *w,
                          const char *default_ns, const gs_manifest **out, gs_error *err)
{
	const gs_object_ref *r = &w->object;
	return gs_manifests_find(m, r->kind, r->namespace_, r->name ? r->name : w->name,
	                         default_ns, out, err);
}

/* Follows keys from o's tree; fails at the last node reached. */
static int walk(const gs_manifests *m, const gs_manifest *o, const char *const *path,
                size_t n, const char *shown, const gs_node **out, gs_error *err)
{
	const gs_node *at = o->tree, *next;

	for (size_t i = 0; i < n; i++, at = next)
		if (!(next = gs_node_get(at, path[i])) || next->kind != GS_NODE_MAP)
			return gs_fail_node(err, GS_ESCHEMA, m->file, next ? next : at,
			                    "the %s '%s' has no pod template (%s)%s", o->kind,
			                    o->name, shown, next ? ": not a mapping" : "");
	*out = at;
	return 0;
}

int gs_manifest_pod_spec(const gs_manifests *m, const gs_manifest *o, const gs_node **out,
                         gs_error *err)
{
	static const char *const tmpl[] = { "spec", "template", "spec" };
	static const char *const cron[] = { "spec", "jobTemplate", "spec", "template", "spec" };

	if (!o->workload)
		return gs_fail_node(err, GS_EINVAL, m->file, o->tree, "a %s has no pods",
		                    o->kind);
	switch (o->object) {
	case GS_OBJECT_CRONJOB:
		return walk(m, o, cron, 5, "spec.jobTemplate.spec.template.spec", out, err);
	case GS_OBJECT_POD:
		return walk(m, o, tmpl, 1, "spec", out, err);
	default:
		return walk(m, o, tmpl, 3, "spec.template.spec", out, err);
	}
}

int gs_manifest_containers(const gs_manifests *m, const gs_manifest *o,
                           const gs_node **list, const char **names, size_t cap, size_t *n,
                           gs_error *err)
{
	const gs_node *spec, *cs;
	int rc;

	if ((rc = gs_manifest_pod_spec(m, o, &spec, err)) < 0)
		return rc;
	cs = gs_node_get(spec, "containers");
	if (!cs || cs->kind != GS_NODE_SEQ || cs->n == 0)
		return gs_fail_node(err, GS_ESCHEMA, m->file, cs ? cs : spec,
		                    "the %s '%s' has no containers", o->kind, o->name);
	for (size_t i = 0; i < cs->n; i++) {
		const char *name = str_at(cs->items[i], "name");
		if (!name)
			return gs_fail_node(err, GS_ESCHEMA, m->file, cs->items[i],
			                    "a container of the %s '%s' has no name", o->kind,
			                    o->name);
		if (names && i < cap)
			names[i] = name;
	}
	*list = cs;
	*n = cs->n;
	return 0;
}

/* "a, b, c" */
static void join(const gs_node *cs, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < cs->n && o < size; i++) {
		int k = snprintf(buf + o, size - o, "%s%s", i ? ", " : "",
		                 str_at(cs->items[i], "name"));
		o += k > 0 ? (size_t)k : 0;
	}
}

int gs_manifest_container(const gs_manifests *m, const gs_manifest *o, const char *want,
                          const gs_node **container, const char **name, gs_error *err)
{
	const gs_node *cs;
	size_t n;
	char list[512];
	int rc;

	if ((rc = gs_manifest_containers(m, o, &cs, NULL, 0, &n, err)) < 0)
		return rc;
	for (size_t i = 0; i < n; i++)
		if (want ? strcmp(str_at(cs->items[i], "name"), want) == 0 : n == 1) {
			*container = cs->items[i];
			*name = str_at(cs->items[i], "name");
			return 0;
		}
	join(cs, list, sizeof list);
	if (want)
		return gs_fail_node(err, GS_ENOTFOUND, m->file, cs,
		                    "the %s '%s' has no container '%s' (it has %s)", o->kind,
		                    o->name, want, list);
	return gs_fail_node(err, GS_ESCHEMA, m->file, cs,
	                    "the %s '%s' has %zu containers (%s): say which uses the GPU "
	                    "with the workload's object.container", o->kind, o->name, n, list);
}

/* ---- copies ---------------------------------------------------------------- */

/* The tree keeps a plain `3` as a string, which the writer would quote;
 * marked as a number it is written plain again, as it was read. */
static void keep_plain(gs_node *n)
{
	if (n->kind == GS_NODE_STRING && !n->quoted && n->text && gs_yaml_retyped(n->text))
		n->kind = GS_NODE_NUMBER;
	for (size_t i = 0; i < n->n; i++)
		keep_plain(n->items[i]);
}

gs_node *gs_manifest_copy(const gs_manifest *o)
{
	gs_node *c = gs_node_clone(o->tree);
	if (c)
		keep_plain(c);
	return c;
}
