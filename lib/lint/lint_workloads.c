/*
 * lint_workloads.c - the objects that meet the configs in the field:
 * workloads (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob,
 * Pod, and the strategic-merge patches of their pod templates that
 * `gpushare plan --emit` writes), Nodes, NodePools and labels.sh scripts.
 * Nothing here is wrong on its own: this checker notes what each pod
 * requests and which device-plugin config it may run on, and which config
 * each node is labelled with, for the cross-file rules (lint_cross.c).
 *
 * Source: shared/reference/k8s-formats.md section 1 (the
 * nvidia.com/device-plugin.config label selects a config by key).
 */
#include <stdio.h>
#include <string.h>

#include "lint/kit.h"

#define DP_LABEL "nvidia.com/device-plugin.config"
/* The pools gpushare's patches select nodes by; the labels that set a
 * pool also set its config (labels.sh, Nodes, NodePools). */
#define POOL_LABEL "gpushare.io/pool"

/* The pod spec of a workload of the given kind (NULL kind: a patch). */
static const gs_node *pod_spec(const gs_node *obj, const char *kind)
{
	const gs_node *spec = gs_lint_find(obj, "spec", NULL);

	if (kind && strcmp(kind, "Pod") == 0)
		return spec;
	if (!kind || strcmp(kind, "CronJob") == 0) {
		const gs_node *jt = gs_lint_find(spec, "jobTemplate", NULL);
		if (jt || kind)
			spec = gs_lint_find(jt, "spec", NULL);
	}
	return gs_lint_find(gs_lint_find(spec, "template", NULL), "spec", NULL);
}

const gs_node *gs_lint_pod_spec(const gs_node *obj, const char *kind)
{
	return pod_spec(obj, kind);
}

/* A whole-number quantity ("2" or 2); -1 otherwise ("500m", "1Ki"). */
static long long quantity(const gs_node *v)
{
	long long q = 0;
	const char *s;

	if (!gs_lint_is_str(v) || !*(s = v->text) ||
	    strspn(s, "0123456789") != strlen(s) || strlen(s) > 15)
		return -1;
	for (; *s; s++)
		q = q * 10 + (*s - '0');
	return q;
}

static void note_map(lint_ctx *c, const gs_node *map, const gs_node *skip_in)
{
	if (!gs_lint_is_map(map))
		return;
	for (size_t i = 0; i < map->n; i++) {
		const char *k = map->keys[i]->text;
		if (strncmp(k, "nvidia.com/", 11) != 0 ||
		    gs_lint_find(skip_in, k, NULL))
			continue;
		gs_lint_noted(
		    c, gs_facts_request(c->facts, k, quantity(map->items[i]),
		                        gs_lint_where(c, map->keys[i])));
	}
}

static void note_containers(lint_ctx *c, const gs_node *list)
{
	if (!list || list->kind != GS_NODE_SEQ)
		return;
	for (size_t i = 0; i < list->n; i++) {
		const gs_node *res =
		    gs_lint_find(list->items[i], "resources", NULL);
		const gs_node *lim = gs_lint_find(res, "limits", NULL);
		note_map(c, lim, NULL);
		note_map(c, gs_lint_find(res, "requests", NULL), lim);
	}
}

/* The In values of a required node affinity on the label key, when every
 * term has one (terms are ORed: one term without it lets the pod run
 * anywhere): as configs (DP_LABEL) or as pools. */
static void note_affinity(lint_ctx *c, const gs_node *spec, const char *key)
{
	const gs_node *na = gs_lint_find(gs_lint_find(spec, "affinity", NULL),
	                                 "nodeAffinity", NULL);
	const gs_node *req = gs_lint_find(
	    na, "requiredDuringSchedulingIgnoredDuringExecution", NULL);
	const gs_node *terms = gs_lint_find(req, "nodeSelectorTerms", NULL),
	              *in[16];
	size_t n = 0;

	if (!terms || terms->kind != GS_NODE_SEQ || !terms->n)
		return;
	for (size_t t = 0; t < terms->n; t++) {
		const gs_node *ex =
		    gs_lint_find(terms->items[t], "matchExpressions", NULL);
		const gs_node *found = NULL;
		for (size_t i = 0; ex && ex->kind == GS_NODE_SEQ && i < ex->n;
		     i++)
			if (gs_lint_streq(
			        gs_lint_find(ex->items[i], "key", NULL),
			        key) &&
			    gs_lint_streq(
			        gs_lint_find(ex->items[i], "operator", NULL),
			        "In"))
				found =
				    gs_lint_find(ex->items[i], "values", NULL);
		if (!found || found->kind != GS_NODE_SEQ ||
		    n == GS_ARRAY_LEN(in))
			return;
		in[n++] = found;
	}
	for (size_t t = 0; t < n; t++)
		for (size_t i = 0; i < in[t]->n; i++)
			if (gs_lint_is_str(in[t]->items[i]))
				gs_lint_noted(
				    c, strcmp(key, DP_LABEL) == 0
				           ? gs_facts_select(c->facts, in[t]->items[i]->text)
				           : gs_facts_select_pool(c->facts,
				                                  in[t]->items[i]->text));
}

static void note_pod(lint_ctx *c, const gs_node *obj, const char *kind)
{
	const gs_node *spec = pod_spec(obj, kind), *sel, *name;
	char what[160];

	if (!gs_lint_is_map(spec))
		return;
	name = gs_lint_find(gs_lint_find(obj, "metadata", NULL), "name", NULL);
	if (kind && gs_lint_is_str(name))
		snprintf(what, sizeof what, "%s '%s'", kind, name->text);
	else if (kind)
		snprintf(what, sizeof what, "a %s", kind);
	else
		snprintf(what, sizeof what, "the patched pod template");
	if (gs_facts_pod(c->facts, what) < 0) {
		c->nomem = 1;
		return;
	}
	sel = gs_lint_find(gs_lint_find(spec, "nodeSelector", NULL), DP_LABEL,
	                   NULL);
	if (gs_lint_is_str(sel)) {
		gs_lint_noted(c, gs_facts_select(c->facts, sel->text));
		gs_lint_noted(c, gs_facts_label(c->facts, sel->text, USE_POD,
		                                gs_lint_where(c, sel)));
	} else {
		note_affinity(c, spec, DP_LABEL);
	}
	sel = gs_lint_find(gs_lint_find(spec, "nodeSelector", NULL), POOL_LABEL, NULL);
	if (gs_lint_is_str(sel))
		gs_lint_noted(c, gs_facts_select_pool(c->facts, sel->text));
	else
		note_affinity(c, spec, POOL_LABEL);
	note_containers(c, gs_lint_find(spec, "initContainers", NULL));
	note_containers(c, gs_lint_find(spec, "containers", NULL));
}

int gs_lint_is_workload(const char *kind)
{
	static const char *const kinds[] = { "Deployment", "StatefulSet",
		                             "DaemonSet",  "ReplicaSet",
		                             "Job",        "CronJob",
		                             "Pod" };
	for (size_t i = 0; kind && i < GS_ARRAY_LEN(kinds); i++)
		if (strcmp(kind, kinds[i]) == 0)
			return 1;
	return 0;
}

int gs_lint_is_patch(const gs_node *root)
{
	return gs_lint_is_map(pod_spec(root, NULL));
}

void gs_lint_workload(lint_ctx *c, const gs_node *obj, const char *kind)
{
	c->configs++;
	note_pod(c, obj, kind);
}

/* A label map's device-plugin config, and its pool's. */
static void note_labels(lint_ctx *c, const gs_node *labels, lint_use use)
{
	const gs_node *v = gs_lint_find(labels, DP_LABEL, NULL);
	const gs_node *pool = gs_lint_find(labels, POOL_LABEL, NULL);
	if (gs_lint_is_str(v))
		gs_lint_noted(c, gs_facts_label(c->facts, v->text, use,
		                                gs_lint_where(c, v)));
	if (gs_lint_is_str(v) && gs_lint_is_str(pool))
		gs_lint_noted(c, gs_facts_pool(c->facts, pool->text, v->text));
}

void gs_lint_node(lint_ctx *c, const gs_node *obj)
{
	c->configs++;
	c->facts->nodes++;
	note_labels(
	    c,
	    gs_lint_find(gs_lint_find(obj, "metadata", NULL), "labels", NULL),
	    USE_NODE);
}

void gs_lint_nodepool_labels(lint_ctx *c, const gs_node *obj)
{
	const gs_node *t =
	    gs_lint_find(gs_lint_find(obj, "spec", NULL), "template", NULL);
	note_labels(
	    c, gs_lint_find(gs_lint_find(t, "metadata", NULL), "labels", NULL),
	    USE_NODEPOOL);
}

/* ---- labels.sh ------------------------------------------------------------- */

/* The value a line [p, eol) gives label key ("KEY=VALUE"): a label value's
 * characters, at most size - 1; 0 when the line sets none. */
static size_t line_value(const char *p, const char *eol, const char *key, char *out,
                         size_t size)
{
	size_t k = strlen(key), n = 0;
	for (; p + k < eol; p++) {
		if (memcmp(p, key, k) != 0 || p[k] != '=')
			continue;
		p += k + 1;
		while (p + n < eol && n < size - 1 &&
		       (strchr("-_.", p[n]) || (p[n] >= '0' && p[n] <= '9') ||
		        ((p[n] | 0x20) >= 'a' && (p[n] | 0x20) <= 'z')))
			n++;
		memcpy(out, p, n);
		out[n] = '\0';
		return n;
	}
	return 0;
}

/* Counts the lines that label nodes ("kubectl label node ..."): a labels
 * script is one even when it sets only gpushare.io/pool or
 * nvidia.com/mig.config labels (as under DRA), not a file lint knows
 * nothing of. A line that sets both a pool and a config says the pool's
 * config. */
static void count_label_lines(lint_ctx *c, const char *buf, size_t len)
{
	static const char cmd[] = "kubectl label node";
	const char *end = buf + len;

	for (const char *p = buf; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		char pool[64], conf[64];
		if (!eol)
			eol = end;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(eol - p) >= sizeof cmd - 1 && memcmp(p, cmd, sizeof cmd - 1) == 0)
			c->configs++;
		/* A last line of blanks without a newline ends at the buffer's end. */
		if (p < eol && *p != '#' && line_value(p, eol, POOL_LABEL, pool, sizeof pool) &&
		    line_value(p, eol, DP_LABEL, conf, sizeof conf))
			gs_lint_noted(c, gs_facts_pool(c->facts, pool, conf));
		p = eol + 1;
	}
}

/* A shell script: every nvidia.com/device-plugin.config=VALUE it sets. */
void gs_lint_script(lint_ctx *c, const char *buf, size_t len)
{
	static const char mark[] = DP_LABEL "=";
	unsigned long line = 1;
	const char *bol = buf, *end = buf + len;

	count_label_lines(c, buf, len);
	for (const char *p = buf; p < end; p++) {
		size_t n = 0;
		char value[64];

		if (*p == '\n') {
			line++;
			bol = p + 1;
			continue;
		}
		if ((size_t)(end - p) < sizeof mark - 1 ||
		    memcmp(p, mark, sizeof mark - 1) != 0)
			continue;
		p += sizeof mark - 1;
		while (p + n < end && n < sizeof value - 1 &&
		       (strchr("-_.", p[n]) || (p[n] >= '0' && p[n] <= '9') ||
		        ((p[n] | 0x20) >= 'a' && (p[n] | 0x20) <= 'z')))
			n++;
		if (n) {
			lint_where at = { c->file, line,
				          (unsigned long)(p - bol) + 1 };
			memcpy(value, p, n);
			value[n] = '\0';
			c->configs++;
			gs_lint_noted(
			    c, gs_facts_label(c->facts, value, USE_SCRIPT, at));
		}
		p += n;
		p--; /* the loop steps past the value; a newline is counted */
	}
}
