/*
 * lint_cross.c - the rules across files: what the device-plugin configs
 * advertise against what the pods request, and the config keys against
 * the labels and defaults that select them. The facts come from every
 * file linted into one gs_lint (facts.h); the rules run once, at the end
 * (gs_lint_finish).
 *
 * Sources: shared/reference/k8s-formats.md section 1 (renameByDefault
 * advertises <name>.shared; the label selects a config by key, an unknown
 * key is an error; MPS refuses requests above 1) and section 6 (GPU
 * Operator: devicePlugin.config.default, no fallback); NVIDIA
 * k8s-device-plugin issues #321 (renamed resource, pods still ask
 * nvidia.com/gpu), #929 (MPS: "maximum request size for shared resources
 * is 1") and #990 (a ConfigMap whose only key nothing selects: capacity
 * stays 1).
 */
#include <stdio.h>
#include <string.h>

#include "lint/kit.h"

/* ---- noting device-plugin configs ------------------------------------------ */

static void note_block(lint_ctx *c, const gs_node *block, int mps)
{
	const gs_node *res = gs_lint_find_ci(block, "resources", NULL);
	int rename = 0, fail = 0;

	if (!res || res->kind != GS_NODE_SEQ)
		return;
	gs_lint_bool(gs_lint_find_ci(block, "renameByDefault", NULL), &rename);
	gs_lint_bool(gs_lint_find_ci(block, "failRequestsGreaterThanOne", NULL),
	             &fail);
	for (size_t i = 0; i < res->n; i++) {
		const gs_node *name =
		    gs_lint_find_ci(res->items[i], "name", NULL);
		if (gs_lint_is_str(name) && name->text[0])
			gs_lint_noted(c, gs_facts_shared(
			                     c->facts, name->text, rename, mps,
			                     fail, gs_lint_where(c, name)));
	}
}

void gs_lint_note_dp(lint_ctx *c, const gs_node *root)
{
	const gs_node *sharing = gs_lint_find_ci(root, "sharing", NULL);
	const gs_node *mps = gs_lint_find_ci(sharing, "mps", NULL);

	if (gs_facts_conf(c->facts, c->cfg_key, c->cfg_holder, c->cfg_chart,
	                  c->cfg_at) < 0) {
		c->nomem = 1;
		return;
	}
	/* With both, MPS wins (dp-both-strategies says so). */
	if (gs_lint_is_map(mps))
		note_block(c, mps, 1);
	else
		note_block(c, gs_lint_find_ci(sharing, "timeSlicing", NULL), 0);
}

/* ---- which configs a pod may run on ---------------------------------------- */

/* Whether every pool p selects has a known config, and whether one of
 * them is `key`: -1 when some pool's config is unknown. */
static int pool_selects(const lint_facts *f, const lint_pod *p, const char *key)
{
	int hit = 0;
	for (size_t i = 0; i < p->n_pools; i++) {
		int known = 0;
		for (size_t j = 0; j < f->n_pools; j++) {
			if (strcmp(f->pools[j].pool, p->pools[i]) != 0)
				continue;
			known = 1;
			hit |= strcmp(f->pools[j].config, key) == 0;
		}
		if (!known)
			return -1;
	}
	return hit;
}

static int selected(const lint_facts *f, const lint_pod *p, const lint_dpconf *conf)
{
	if (!conf->key)
		return 1;
	/* gpushare's patches select pools, whose labels name their configs. */
	if (!p->selects)
		return p->n_pools ? pool_selects(f, p, conf->key) != 0 : 1;
	for (size_t i = 0; i < p->n_sel; i++)
		if (strcmp(p->sel[i], conf->key) == 0)
			return 1;
	return 0;
}

/* The entry of conf that shares resource `name` (as named in the config),
 * or that advertises `adv`; NULL when none. */
static const lint_shared *sharing(const lint_facts *f, const lint_dpconf *conf,
                                  const char *name, const char *adv)
{
	for (size_t i = conf->first; i < conf->first + conf->n; i++) {
		const lint_shared *s = &f->shared[i];
		if ((name && strcmp(s->name, name) == 0) ||
		    (adv && strcmp(s->advertised, adv) == 0))
			return s;
	}
	return NULL;
}

/* "config 'ts-4' (cm.yaml:12)" */
static const char *conf_name(const lint_dpconf *conf, char *buf, size_t size)
{
	if (conf->key)
		snprintf(buf, size, "config '%s' (%s:%lu)", conf->key,
		         conf->at.file, conf->at.line);
	else
		snprintf(buf, size, "the config in %s", conf->at.file);
	return buf;
}

/* ---- what pods request ----------------------------------------------------- */

static int ends_shared(const char *r)
{
	size_t n = strlen(r);
	return n > 7 && strcmp(r + n - 7, ".shared") == 0;
}

/* A pod asks for R that every config it may run on renames (#321). */
static void renamed(lint_ctx *c, const lint_facts *f, const lint_request *r)
{
	const lint_pod *p = &f->pods[r->pod];
	const lint_shared *by = NULL;
	const lint_dpconf *conf = NULL;
	char name[256];

	for (size_t i = 0; i < f->n_confs; i++) {
		const lint_shared *s;
		if (!selected(f, p, &f->confs[i]))
			continue;
		s = sharing(f, &f->confs[i], r->resource, NULL);
		if (!s || strcmp(s->advertised, r->resource) == 0)
			return; /* this config advertises it */
		if (!by) {
			by = s;
			conf = &f->confs[i];
		}
	}
	if (!by)
		return;
	gs_lint_add_at(c, R_RENAMED_NOT_REQUESTED, r->at,
	               "%s requests %s, but %s advertises it as %s "
	               "(renameByDefault: true), so "
	               "no node it may run on offers %s and the pod stays "
	               "Pending; request %s, "
	               "or remove renameByDefault",
	               p->what, r->resource, conf_name(conf, name, sizeof name),
	               by->advertised, r->resource, by->advertised);
}

/* A pod asks for <name>.shared that no config it may run on advertises. */
static void unrenamed(lint_ctx *c, const lint_facts *f, const lint_request *r)
{
	const lint_pod *p = &f->pods[r->pod];
	size_t confs = 0;

	for (size_t i = 0; i < f->n_confs; i++) {
		if (!selected(f, p, &f->confs[i]))
			continue;
		confs++;
		if (sharing(f, &f->confs[i], NULL, r->resource))
			return;
	}
	if (!confs)
		return;
	gs_lint_add_at(c, R_SHARED_NOT_RENAMED, r->at,
	               "%s requests %s, but no device-plugin config it may run "
	               "on renames its "
	               "resource (renameByDefault: true), so no node offers %s "
	               "and the pod "
	               "stays Pending; write 'renameByDefault: true' in the "
	               "config, or request "
	               "%.*s",
	               p->what, r->resource, r->resource,
	               (int)(strlen(r->resource) - 7), r->resource);
}

/* A pod asks for more than 1 of a shared resource (#929). */
static void above_one(lint_ctx *c, const lint_facts *f, const lint_request *r)
{
	const lint_pod *p = &f->pods[r->pod];
	const lint_shared *ts = NULL;
	const lint_dpconf *ts_conf = NULL;
	char name[256];

	for (size_t i = 0; i < f->n_confs; i++) {
		const lint_shared *s;
		if (!selected(f, p, &f->confs[i]) ||
		    !(s = sharing(f, &f->confs[i], NULL, r->resource)))
			continue;
		if (s->fail_gt1) {
			gs_lint_add_at(
			    c, R_REQUEST_ABOVE_ONE, r->at,
			    "%s asks for %lld %s, but %s shares it with %s, "
			    "and the device "
			    "plugin refuses more than 1 (\"maximum request "
			    "size for shared "
			    "resources is 1\"): the pod fails with "
			    "UnexpectedAdmissionError; "
			    "ask for 1, or run it on a config that does not "
			    "share",
			    p->what, r->qty, r->resource,
			    conf_name(&f->confs[i], name, sizeof name),
			    s->mps ? "MPS"
			           : "time-slicing and "
			             "failRequestsGreaterThanOne");
			return;
		}
		if (!ts) {
			ts = s;
			ts_conf = &f->confs[i];
		}
	}
	if (ts)
		gs_lint_add_at(c, R_SHARED_REQUEST, r->at,
		               "%s asks for %lld %s, which %s time-slices: the "
		               "replicas may all be "
		               "one GPU, so it gets no more compute than with "
		               "1; ask for 1, or run it "
		               "on a config that does not share",
		               p->what, r->qty, r->resource,
		               conf_name(ts_conf, name, sizeof name));
}

/* ---- which configs are selected ------------------------------------------- */

/* The keys of the configs, for messages: "any, ts-4". */
static const char *key_list(const lint_facts *f, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < f->n_confs && o < size - 1; i++) {
		if (!f->confs[i].key)
			continue;
		o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? ", " : "",
		                      f->confs[i].key);
	}
	if (o >= size - 1)
		memcpy(buf + size - 4, "...", 4);
	return buf;
}

static int has_key(const lint_facts *f, const char *key)
{
	for (size_t i = 0; i < f->n_confs; i++)
		if (f->confs[i].key && strcmp(f->confs[i].key, key) == 0)
			return 1;
	return 0;
}

static const char *const use_names[] = {
	[USE_NODE] = "node label nvidia.com/device-plugin.config=%s",
	[USE_SCRIPT] =
	    "labels.sh sets nvidia.com/device-plugin.config=%s, which",
	[USE_POD] = "the pod selector nvidia.com/device-plugin.config=%s",
	[USE_NODEPOOL] = "NodePool label nvidia.com/device-plugin.config=%s",
	[USE_DEFAULT] = "devicePlugin.config.default '%s'",
	[USE_DEFAULT_INLINE] = "devicePlugin.config.default '%s'",
	[USE_CHART] = "config.default '%s'",
};

/* A label or default that names no config: the device plugin on such a
 * node fails ("specified config ... does not exist"). */
static void missing(lint_ctx *c, const lint_facts *f)
{
	char keys[200], what[160];

	if (!*key_list(f, keys, sizeof keys))
		return; /* no keyed config given: nothing to compare with */
	for (size_t i = 0; i < f->n_labels; i++) {
		const lint_label *l = &f->labels[i];
		if (l->use == USE_DEFAULT_INLINE || has_key(f, l->value))
			continue;
		snprintf(what, sizeof what, use_names[l->use], l->value);
		gs_lint_add_at(c, R_CONFIG_MISSING, l->at,
		               "%s names no device-plugin config given (they "
		               "are: %s); the device "
		               "plugin fails on a node selecting it "
		               "(\"specified config does not "
		               "exist\"), so GPU pods there stay Pending; "
		               "write one of those keys",
		               what, key_list(f, keys, sizeof keys));
	}
}

/* A sharing config that nothing selects (#990). Only when the linter sees
 * how nodes select configs: node objects, labels or Helm values. */
static void unused(lint_ctx *c, const lint_facts *f)
{
	if (!f->n_labels && !f->operator_values)
		return;
	for (size_t i = 0; i < f->n_confs; i++) {
		const lint_dpconf *conf = &f->confs[i];
		int used = 0;
		if (!conf->key || !conf->n)
			continue;
		for (size_t j = 0; j < f->n_labels && !used; j++)
			used = strcmp(f->labels[j].value, conf->key) == 0;
		if (!used)
			gs_lint_add_at(
			    c, R_CONFIG_UNUSED, conf->at,
			    "config '%s' shares GPUs, but no node label, "
			    "labels.sh, pod "
			    "selector, NodePool or devicePlugin.config.default "
			    "given selects "
			    "it, so no node shares them; label the nodes "
			    "nvidia.com/device-plugin.config=%s, or make it "
			    "the default",
			    conf->key, conf->key);
	}
}

/* GPU Operator values that name a ConfigMap none of those given. */
static void cm_name(lint_ctx *c, const lint_facts *f)
{
	char names[200];
	size_t o = 0;

	names[0] = '\0';
	for (size_t i = 0; i < f->n_confs && o < sizeof names - 1; i++) {
		const char *h = f->confs[i].holder;
		if (!h || (i && f->confs[i - 1].holder &&
		           strcmp(f->confs[i - 1].holder, h) == 0))
			continue;
		o += (size_t)snprintf(names + o, sizeof names - o, "%s%s",
		                      o ? ", " : "", h);
	}
	if (!o)
		return;
	for (size_t i = 0; i < f->n_cmrefs; i++) {
		int found = 0;
		for (size_t j = 0; j < f->n_confs && !found; j++)
			found =
			    f->confs[j].holder &&
			    strcmp(f->confs[j].holder, f->cmrefs[i].name) == 0;
		if (!found)
			gs_lint_add_at(c, R_CONFIGMAP_NAME, f->cmrefs[i].at,
			               "devicePlugin.config.name '%s' names "
			               "none of the ConfigMaps given "
			               "that hold device-plugin configs (%s), "
			               "so the device plugin never "
			               "reads them; write the ConfigMap's name",
			               f->cmrefs[i].name, names);
	}
}

void gs_lint_cross(lint_ctx *c, const lint_facts *f)
{
	for (size_t i = 0; i < f->n_reqs; i++) {
		const lint_request *r = &f->reqs[i];
		if (ends_shared(r->resource))
			unrenamed(c, f, r);
		else
			renamed(c, f, r);
		if (r->qty > 1)
			above_one(c, f, r);
	}
	missing(c, f);
	unused(c, f);
	cm_name(c, f);
}
