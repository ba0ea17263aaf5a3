/*
 * emit_karpenter.c - Karpenter NodePools for the plan's AWS nodes, one per
 * group of planned nodes (a pool, its instance type and its configs), an
 * EC2NodeClass to fill in, and NodeOverlays that tell Karpenter what each
 * group's nodes really advertise (karpenter_capacity.c): without them a
 * pod that asks for nvidia.com/mig-1g.10gb, nvidia.com/gpu.shared or one
 * of 4 time-slice replicas never triggers, or over-triggers, a NodePool.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"
#include "emit/karpenter.h"

#define NODECLASS "gpushare-gpu"
#define POOL_LABEL "gpushare.io/pool"

/* Karpenter provisions AWS nodes only. */
static int is_aws(const gs_plan_node *n)
{
	return strcmp(n->instance->cloud, "aws") == 0;
}

int gs_emit_wants_karpenter(const gs_plan *p, const gs_emit_opts *o)
{
	(void)o;
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		if (is_aws(gs_plan_node_at(p, i)))
			return 1;
	return 0;
}

/* The groups of the plan's AWS nodes: first node of each, its name and
 * how many nodes it has. Groups and names are found by maps: a fleet of
 * 100,000 replicas has thousands of groups among tens of thousands of
 * nodes, and searching them for each node took half a minute. */
typedef struct groups {
	size_t *first, *count;
	char (*name)[64];
	size_t n;
	gs_strmap by_key, names;
} groups;

/* One NodePool launches the nodes of one group: same pool label, instance
 * type and configs, so every node it launches is the planned node. Its
 * key: the instance, and each string marked present or absent (NULL and
 * "" are not one group). NULL when out of memory. */
static char *group_key(const gs_plan_node *n)
{
	const char *s[3] = { n->pool, n->config, n->mig_config };
	size_t size = 3 * sizeof(void *) + 8, len;
	char *key;
	for (int i = 0; i < 3; i++)
		size += (s[i] ? strlen(s[i]) : 0) + 2;
	if (!(key = malloc(size)))
		return NULL;
	len = (size_t)snprintf(key, size, "%p", (const void *)n->instance);
	for (int i = 0; i < 3; i++)
		len += (size_t)snprintf(key + len, size - len, "\x1f%s%s", s[i] ? "=" : "!",
		                        s[i] ? s[i] : "");
	return key;
}

/* "gpushare-<pool>": a DNS subdomain that is also a label value (the
 * karpenter.sh/nodepool label), so at most 63 characters; "-2", "-3"
 * keep it unique when two groups share a pool value. */
static int group_name(groups *gs, const char *pool)
{
	char *buf = gs->name[gs->n], base[64];
	size_t len;
	snprintf(base, sizeof base, "gpushare-%.54s", pool ? pool : "gpu");
	for (size_t i = 0; base[i]; i++) {
		unsigned char c = (unsigned char)base[i];
		base[i] = isalnum(c) || c == '.' ? (char)tolower(c) : '-';
	}
	len = strlen(base);
	while (len && !isalnum((unsigned char)base[len - 1]))
		base[--len] = '\0';
	snprintf(buf, 64, "%s", base);
	for (int k = 2;; k++) {
		if (gs_strmap_find(&gs->names, buf) == GS_STRMAP_NONE)
			return gs_strmap_put(&gs->names, buf, gs->n);
		char sfx[16];
		snprintf(sfx, sizeof sfx, "-%d", k % 1000000);
		snprintf(buf, 64, "%.*s%s", (int)(63 - strlen(sfx)), base, sfx);
	}
}

static int groups_of(const gs_plan *p, groups *gs)
{
	size_t nn = gs_plan_node_count(p);
	gs->n = 0;
	gs->first = calloc(nn ? nn : 1, sizeof *gs->first);
	gs->count = calloc(nn ? nn : 1, sizeof *gs->count);
	gs->name = calloc(nn ? nn : 1, sizeof *gs->name);
	if (!gs->first || !gs->count || !gs->name)
		return -1;
	for (size_t i = 0; i < nn; i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		char *key;
		size_t g;
		int rc = 0;
		if (!is_aws(n))
			continue;
		if (!(key = group_key(n)))
			return -1;
		if ((g = gs_strmap_find(&gs->by_key, key)) == GS_STRMAP_NONE) {
			g = gs->n;
			rc = gs_strmap_put(&gs->by_key, key, g) < 0 ||
			     group_name(gs, n->pool ? n->pool : n->config) < 0;
			gs->first[gs->n++] = i;
		}
		free(key);
		if (rc)
			return -1;
		gs->count[g]++;
	}
	return 0;
}

static void groups_release(groups *gs)
{
	free(gs->first);
	free(gs->count);
	free(gs->name);
	gs_strmap_release(&gs->by_key);
	gs_strmap_release(&gs->names);
}

/* ---- NodePools ----------------------------------------------------------- */

static gs_node *requirement(int *bad, const char *key, const char *value)
{
	gs_node *r = gs_emit_map(), *values = gs_emit_seq();
	gs_emit_put(bad, r, "key", gs_node_str(key));
	gs_emit_put(bad, r, "operator", gs_node_str("In"));
	gs_emit_push(bad, values, gs_node_str(value));
	gs_emit_put(bad, r, "values", values);
	return r;
}

/* The labels that make a launched node the planned one: its pool (which
 * its pods select), its device-plugin and mig-parted configs, as
 * labels.sh sets them on existing nodes. */
static gs_node *template_labels(int *bad, const gs_plan_node *f)
{
	gs_node *labels = gs_emit_map();
	gs_emit_put(bad, labels, "nvidia.com/device-plugin.config", gs_node_str(f->config));
	if (f->mig_config)
		gs_emit_put(bad, labels, "nvidia.com/mig.config", gs_node_str(f->mig_config));
	if (f->pool)
		gs_emit_put(bad, labels, POOL_LABEL, gs_node_str(f->pool));
	/* A fraction node's backend; a HAMi node runs HAMi's device plugin,
	 * not the GPU Operator's (labels.sh sets the same). */
	if (gs_emit_node_backend(f) != GS_BACKEND_NONE)
		gs_emit_put(bad, labels, GS_EMIT_FRACTION_LABEL,
		            gs_node_str(gs_backend_name(gs_emit_node_backend(f))));
	if (gs_emit_node_backend(f) == GS_BACKEND_HAMI) {
		gs_emit_put(bad, labels, "gpu", gs_node_str("on"));
		gs_emit_put(bad, labels, "nvidia.com/gpu.deploy.device-plugin",
		            gs_node_str("false"));
	}
	return labels;
}

/* Every node of the group: its labels, its one instance type and capacity
 * type, and the GPU taint. */
static gs_node *node_template(int *bad, const gs_plan *p, const gs_plan_node *f)
{
	gs_node *tmpl = gs_emit_map(), *tmeta = gs_emit_map(), *tspec = gs_emit_map(),
	        *ref = gs_emit_map(), *reqs = gs_emit_seq(), *taints = gs_emit_seq(),
	        *taint = gs_emit_map();
	gs_pricing pricing = gs_plan_summary_get(p)->pricing;

	gs_emit_put(bad, tmeta, "labels", template_labels(bad, f));
	gs_emit_put(bad, tmpl, "metadata", tmeta);
	gs_emit_put(bad, ref, "group", gs_node_str("karpenter.k8s.aws"));
	gs_emit_put(bad, ref, "kind", gs_node_str("EC2NodeClass"));
	gs_emit_put(bad, ref, "name", gs_node_str(NODECLASS));
	gs_emit_put(bad, tspec, "nodeClassRef", ref);
	gs_emit_push(bad, reqs, requirement(bad, "node.kubernetes.io/instance-type",
	                                    f->instance->type));
	gs_emit_push(bad, reqs, requirement(bad, "karpenter.sh/capacity-type",
	                                    pricing == GS_PRICING_SPOT ? "spot" : "on-demand"));
	gs_emit_put(bad, tspec, "requirements", reqs);
	gs_emit_put(bad, taint, "key", gs_node_str("nvidia.com/gpu"));
	gs_emit_put(bad, taint, "value", gs_node_str("true"));
	gs_emit_put(bad, taint, "effect", gs_node_str("NoSchedule"));
	gs_emit_push(bad, taints, taint);
	gs_emit_put(bad, tspec, "taints", taints);
	gs_emit_put(bad, tmpl, "spec", tspec);
	return tmpl;
}

static gs_node *quantity(long v)
{
	char s[32];
	snprintf(s, sizeof s, "%ld", v);
	return gs_node_str(s);
}

/* The planned nodes and no more, in the units their nodes advertise:
 * Karpenter checks a limit against the capacity NodeOverlays give, so a
 * limit of 1 nvidia.com/gpu would forbid a node overlaid with 4 replicas. */
static gs_node *limits(int *bad, const gs_plan_node *f, const gs_emit_opts *o, size_t k,
                       int dra)
{
	gs_node *lim = gs_emit_map();
	gs_kp_res r[GS_KP_MAX_RES];
	int nr = dra ? 0 : gs_kp_capacity(f, o, r);
	if (nr < 0)
		*bad = 1;
	if (dra)
		gs_emit_put(bad, lim, "nvidia.com/gpu", quantity((long)(f->n_gpus * k)));
	for (int i = 0; i < nr; i++)
		if (r[i].count > 0)
			gs_emit_put(bad, lim, r[i].name, quantity(r[i].count * (long)k));
	return lim;
}

static gs_node *nodepool(int *bad, const gs_plan *p, const gs_emit_opts *o,
                         const groups *gs, size_t g, int dra)
{
	const gs_plan_node *f = gs_plan_node_at(p, gs->first[g]);
	gs_node *np = gs_emit_map(), *meta = gs_emit_map(), *spec = gs_emit_map(),
	        *dis = gs_emit_map();

	gs_emit_put(bad, np, "apiVersion", gs_node_str("karpenter.sh/v1"));
	gs_emit_put(bad, np, "kind", gs_node_str("NodePool"));
	gs_emit_put(bad, meta, "name", gs_node_str(gs->name[g]));
	gs_emit_put(bad, np, "metadata", meta);
	gs_emit_put(bad, spec, "template", node_template(bad, p, f));
	gs_emit_put(bad, spec, "limits",
	            limits(bad, f, o, gs->count[g], dra));
	/* MIG geometry changes need a drained node; let empty nodes go. */
	gs_emit_put(bad, dis, "consolidationPolicy", gs_node_str("WhenEmpty"));
	gs_emit_put(bad, dis, "consolidateAfter", gs_node_str("10m"));
	gs_emit_put(bad, spec, "disruption", dis);
	gs_emit_put(bad, np, "spec", spec);
	return np;
}

/* [{tags: {karpenter.sh/discovery: REPLACE-ME}}]: subnets and security
 * groups are found by the cluster's discovery tag. */
static gs_node *discovery_terms(int *bad)
{
	gs_node *terms = gs_emit_seq(), *term = gs_emit_map(), *tags = gs_emit_map();
	gs_emit_put(bad, tags, "karpenter.sh/discovery", gs_node_str("REPLACE-ME"));
	gs_emit_put(bad, term, "tags", tags);
	gs_emit_push(bad, terms, term);
	return terms;
}

static gs_node *nodeclass(int *bad)
{
	gs_node *nc = gs_emit_map(), *meta = gs_emit_map(), *spec = gs_emit_map(),
	        *ami = gs_emit_seq(), *alias = gs_emit_map();
	gs_emit_put(bad, nc, "apiVersion", gs_node_str("karpenter.k8s.aws/v1"));
	gs_emit_put(bad, nc, "kind", gs_node_str("EC2NodeClass"));
	gs_emit_put(bad, meta, "name", gs_node_str(NODECLASS));
	gs_emit_put(bad, nc, "metadata", meta);
	gs_emit_put(bad, alias, "alias", gs_node_str("al2023@latest"));
	gs_emit_push(bad, ami, alias);
	gs_emit_put(bad, spec, "amiSelectorTerms", ami);
	gs_emit_put(bad, spec, "role", gs_node_str("KarpenterNodeRole-REPLACE-ME"));
	gs_emit_put(bad, spec, "subnetSelectorTerms", discovery_terms(bad));
	gs_emit_put(bad, spec, "securityGroupSelectorTerms", discovery_terms(bad));
	gs_emit_put(bad, nc, "spec", spec);
	return nc;
}

/* ---- NodeOverlays -------------------------------------------------------- */

/* What the group's nodes advertise, for the one NodePool and instance
 * type of the group: no other overlay selects that pair, so none
 * conflicts, and two groups of one instance type (two MIG geometries)
 * each get their own capacity. nvidia.com/gpu is always stated, 0 where
 * the GPUs are MIG-enabled or renamed, so pods asking for whole GPUs do
 * not land there. */
static gs_node *overlay(int *bad, const gs_plan_node *f, const char *pool,
                        const gs_kp_res *r, int nr)
{
	gs_node *ov = gs_emit_map(), *meta = gs_emit_map(), *spec = gs_emit_map(),
	        *reqs = gs_emit_seq(), *cap = gs_emit_map();
	char name[96];
	snprintf(name, sizeof name, "%s-capacity", pool);
	gs_emit_put(bad, ov, "apiVersion", gs_node_str("karpenter.sh/v1alpha1"));
	gs_emit_put(bad, ov, "kind", gs_node_str("NodeOverlay"));
	gs_emit_put(bad, meta, "name", gs_node_str(name));
	gs_emit_put(bad, ov, "metadata", meta);
	gs_emit_push(bad, reqs, requirement(bad, "karpenter.sh/nodepool", pool));
	gs_emit_push(bad, reqs, requirement(bad, "node.kubernetes.io/instance-type",
	                                    f->instance->type));
	gs_emit_put(bad, spec, "requirements", reqs);
	for (int i = 0; i < nr; i++)
		gs_emit_put(bad, cap, r[i].name, quantity(r[i].count));
	gs_emit_put(bad, spec, "capacity", cap);
	gs_emit_put(bad, ov, "spec", spec);
	return ov;
}

/* Whether group g needs an overlay; r, *nr: its capacity. */
static int wants_overlay(const gs_plan *p, const gs_emit_opts *o, const groups *gs,
                         size_t g, gs_kp_res *r, int *nr)
{
	const gs_plan_node *f = gs_plan_node_at(p, gs->first[g]);
	*nr = gs_kp_capacity(f, o, r);
	return *nr < 0 || gs_kp_needs_overlay(f, r, *nr);
}

static void overlay_note(gs_buf *b)
{
	gs_buf_puts(b, "# NodeOverlays (karpenter.sh/v1alpha1) are alpha, in Karpenter >= v1.7, "
	               "behind the\n# NodeOverlay feature gate: helm upgrade karpenter ... --set "
	               "settings.featureGates.nodeOverlay=true\n# (or --feature-gates "
	               "NodeOverlay=true). Without it they are ignored without an error,\n"
	               "# and pods that request MIG instances or shared GPUs launch no node "
	               "or too many.\n");
}

static void dra_note(gs_buf *b)
{
	gs_buf_puts(b, "# DRA: Karpenter does not simulate ResourceClaims; it provisions pods "
	               "that use them\n# only when started with --ignore-dra-requests "
	               "(IGNORE_DRA_REQUESTS=true), by these labels.\n");
}

/* Whether group g's nodes take DRA claims: a DRA stack's (dra:
 * gs_emit_wants_dra, a scan of the nodes, asked once), but for HAMi's
 * nodes, whose device plugin stays. */
static int group_dra(const gs_plan *p, int dra, const groups *gs, size_t g)
{
	return dra && gs_emit_node_backend(gs_plan_node_at(p, gs->first[g])) != GS_BACKEND_HAMI;
}

static int render(const gs_plan *p, const gs_emit_opts *o, const groups *gs, gs_buf *b)
{
	int bad = 0, dra = gs_emit_wants_dra(p, o), any = 0;
	gs_kp_res r[GS_KP_MAX_RES];
	int nr;

	for (size_t g = 0; g < gs->n; g++)
		any |= !group_dra(p, dra, gs, g) && wants_overlay(p, o, gs, g, r, &nr);
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_KARPENTER),
	               "kubectl apply -f karpenter.yaml (set the EC2NodeClass role and discovery "
	               "tags first)");
	if (any)
		overlay_note(b);
	if (dra)
		dra_note(b);
	for (size_t g = 0; g < gs->n; g++)
		gs_emit_doc(b, nodepool(&bad, p, o, gs, g, group_dra(p, dra, gs, g)));
	gs_emit_doc(b, nodeclass(&bad));
	for (size_t g = 0; g < gs->n; g++) {
		if (group_dra(p, dra, gs, g) || !wants_overlay(p, o, gs, g, r, &nr))
			continue;
		if (nr < 0)
			return -1;
		gs_emit_doc(b, overlay(&bad, gs_plan_node_at(p, gs->first[g]), gs->name[g], r, nr));
	}
	return bad ? -1 : 0;
}

int gs_emit_karpenter(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	groups gs = { NULL, NULL, NULL, 0, GS_STRMAP_INIT, GS_STRMAP_INIT };
	int rc = groups_of(p, &gs) < 0 ? -1 : render(p, o, &gs, b);
	groups_release(&gs);
	return rc;
}
