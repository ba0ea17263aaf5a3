/*
 * keys_object.c - the rows of keys.c that name the Kubernetes objects:
 * a workload's `object` ({kind, name, namespace, container}), and the
 * file's `namespace` and `placement`. Each sub-key of `object` is
 * optional, and a null one is its default again: `set` writes one
 * sub-key at a time (object.kind=Job) and keeps the others.
 */
#include <string.h>

#include "scenario/keys.h"
#include "scenario/values.h"

static const char *const object_subkeys[] = { "kind", "name", "namespace", "container" };
static const char *const placements[] = { "robust", "pinned" }; /* as gs_placement */

/* A name that must pass test, or null for the default. */
static int read_object_name(gs_ctx *c, const gs_node *v, const char *what,
                            int (*test)(const char *), const char *rule, char **dst)
{
	if (v->kind == GS_NODE_NULL) {
		gs_str_assign(dst, NULL); /* freeing never fails */
		return 0;
	}
	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'object.%s' must be a string", what);
	if (!test(v->text))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "object %s '%s' must be a DNS-1123 %s: %s", what, v->text,
		                    test == gs_is_dns_label ? "label" : "subdomain", rule);
	return gs_str_assign(dst, v->text) ? gs_fail_nomem(c->err) : 0;
}

static int read_object_kind(gs_ctx *c, const gs_node *v, gs_object_kind *out)
{
	const char *names[GS_OBJECT_POD + 1];
	int i, rc;

	if (v->kind == GS_NODE_NULL)
		return *out = GS_OBJECT_DEPLOYMENT, 0;
	for (int k = 0; k <= GS_OBJECT_POD; k++)
		names[k] = gs_object_kind_name((gs_object_kind)k);
	if ((rc = gs_read_choice(c, v, "object kind", names, GS_ARRAY_LEN(names), &i)) == 0)
		*out = (gs_object_kind)i;
	return rc;
}

/* {kind, name, namespace, container}: the sub-keys given, each checked
 * before any is kept, so a bad one changes nothing. null: all defaults. */
int gs_key_read_object(const gs_key_dst *d, const gs_node *v)
{
	gs_ctx *c = d->c;
	wl *w = d->w, tmp = { 0 };
	const gs_node *x;
	int rc = 0;

	if (v->kind == GS_NODE_NULL) {
		w->pub.object.kind = GS_OBJECT_DEPLOYMENT;
		gs_str_assign(&w->obj_name, NULL);
		gs_str_assign(&w->obj_namespace, NULL);
		gs_str_assign(&w->obj_container, NULL);
		return 0;
	}
	if ((rc = gs_need_kind(c, v, GS_NODE_MAP, "'object'")) < 0 ||
	    (rc = gs_check_keys(c, v, object_subkeys, GS_ARRAY_LEN(object_subkeys))) < 0)
		return rc;
	tmp.pub.object.kind = w->pub.object.kind;
	if (((x = gs_node_get(v, "kind")) && (rc = read_object_kind(c, x, &tmp.pub.object.kind))) ||
	    ((x = gs_node_get(v, "name")) &&
	     (rc = read_object_name(c, x, "name", gs_is_dns_subdomain, GS_DNS_SUBDOMAIN_RULE,
	                            &tmp.obj_name))) ||
	    ((x = gs_node_get(v, "namespace")) &&
	     (rc = read_object_name(c, x, "namespace", gs_is_dns_label, GS_DNS_LABEL_RULE,
	                            &tmp.obj_namespace))) ||
	    ((x = gs_node_get(v, "container")) &&
	     (rc = read_object_name(c, x, "container", gs_is_dns_label, GS_DNS_LABEL_RULE,
	                            &tmp.obj_container))))
		goto out;
	w->pub.object.kind = tmp.pub.object.kind;
	if (gs_node_get(v, "name") &&
	    gs_str_assign(&w->obj_name, tmp.obj_name))
		rc = gs_fail_nomem(c->err);
	if (gs_node_get(v, "namespace") &&
	    gs_str_assign(&w->obj_namespace, tmp.obj_namespace))
		rc = gs_fail_nomem(c->err);
	if (gs_node_get(v, "container") &&
	    gs_str_assign(&w->obj_container, tmp.obj_container))
		rc = gs_fail_nomem(c->err);
out:
	gs_str_assign(&tmp.obj_name, NULL);
	gs_str_assign(&tmp.obj_namespace, NULL);
	gs_str_assign(&tmp.obj_container, NULL);
	return rc;
}

/* Only what differs from the defaults, and nothing when all do not. */
int gs_key_write_object(const gs_key_src *s, gs_node *map, const char *key)
{
	const wl *w = s->w;
	gs_node *o;
	int rc = 0;

	if (w->pub.object.kind == GS_OBJECT_DEPLOYMENT && !w->obj_name && !w->obj_namespace &&
	    !w->obj_container)
		return 0;
	o = gs_node_new(GS_NODE_MAP, NULL);
	rc |= gs_node_put(o, "kind", gs_node_str(gs_object_kind_name(w->pub.object.kind)));
	if (w->obj_name)
		rc |= gs_node_put(o, "name", gs_node_str(w->obj_name));
	if (w->obj_namespace)
		rc |= gs_node_put(o, "namespace", gs_node_str(w->obj_namespace));
	if (w->obj_container)
		rc |= gs_node_put(o, "container", gs_node_str(w->obj_container));
	return gs_node_put(map, key, gs_node_done(o, rc));
}

int gs_key_read_namespace(const gs_key_dst *d, const gs_node *v)
{
	return gs_read_label(d->c, v, "namespace", &d->s->namespace_);
}

int gs_key_write_namespace(const gs_key_src *s, gs_node *map, const char *key)
{
	return s->s->namespace_ ? gs_node_put(map, key, gs_node_str(s->s->namespace_)) : 0;
}

int gs_key_read_placement(const gs_key_dst *d, const gs_node *v)
{
	int i, rc = gs_read_choice(d->c, v, "placement", placements, GS_ARRAY_LEN(placements),
	                           &i);
	if (rc == 0)
		d->s->placement = (gs_placement)i;
	return rc;
}

/* Written when pinned: robust is the default. */
int gs_key_write_placement(const gs_key_src *s, gs_node *map, const char *key)
{
	return s->s->placement != GS_PLACEMENT_ROBUST
	           ? gs_node_put(map, key, gs_node_str(placements[s->s->placement]))
	           : 0;
}
