/*
 * emit_karpenter.c - Karpenter NodePools for the plan's AWS nodes, one per
 * kind of node (its device-plugin and mig-parted configs), an
 * EC2NodeClass to fill in, and with renamed resources NodeOverlays that
 * tell Karpenter how many shared GPUs each node advertises.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "emit/emit.h"

#define NODECLASS "gpushare-gpu"

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

/* Whether a node's GPUs advertise replicas (time-slicing or MPS). */
static int time_shared(const gs_plan_node *n)
{
	return n->gpus[0].strategy == GS_STRATEGY_TIME_SLICING ||
	       n->gpus[0].strategy == GS_STRATEGY_MPS;
}

/* ---- NodePools ----------------------------------------------------------- */

/* Pools are per (config, mig_config): the second geometry of a MIG node
 * type ("gpushare-p4d.24xlarge-2") must not share the first's name. */
static void pool_name(char *buf, size_t n, const gs_plan_node *nd)
{
	const char *dash = nd->mig_config ? strrchr(nd->mig_config, '-') : NULL;
	int numbered = dash && dash[1] >= '0' && dash[1] <= '9' &&
	               strspn(dash + 1, "0123456789") == strlen(dash + 1);
	snprintf(buf, n, "gpushare-%s%s", nd->config, numbered ? dash : "");
	/* NodePool names are DNS subdomains: lower case, no '_'. */
	for (size_t i = 0; buf[i]; i++)
		buf[i] = buf[i] == '_' ? '-' : (char)tolower((unsigned char)buf[i]);
}

static int same_pool(const gs_plan_node *a, const gs_plan_node *b)
{
	return strcmp(a->config, b->config) == 0 &&
	       (a->mig_config == b->mig_config ||
	        (a->mig_config && b->mig_config && strcmp(a->mig_config, b->mig_config) == 0));
}

static gs_node *requirement(int *bad, const char *key, gs_node *values)
{
	gs_node *r = gs_emit_map();
	gs_emit_put(bad, r, "key", gs_node_str(key));
	gs_emit_put(bad, r, "operator", gs_node_str("In"));
	gs_emit_put(bad, r, "values", values);
	return r;
}

/* The instance types of the pool that starts at node `first`, and the
 * GPUs its nodes hold. */
static gs_node *pool_types(int *bad, const gs_plan *p, size_t first, long *gpus)
{
	const gs_plan_node *f = gs_plan_node_at(p, first);
	gs_node *types = gs_emit_seq();

	*gpus = 0;
	for (size_t i = first; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		int seen = 0;
		if (!same_pool(n, f) || !is_aws(n))
			continue;
		*gpus += (long)n->n_gpus;
		for (size_t j = first; j < i && !seen; j++)
			seen = same_pool(gs_plan_node_at(p, j), f) &&
			       gs_plan_node_at(p, j)->instance == n->instance;
		if (!seen)
			gs_emit_push(bad, types, gs_node_str(n->instance->type));
	}
	return types;
}

/* What every node of the pool is: its config labels, its instance types
 * and capacity type, and the GPU taint. */
static gs_node *node_template(int *bad, const gs_plan *p, const gs_plan_node *f,
                              gs_node *types)
{
	gs_node *tmpl = gs_emit_map(), *tmeta = gs_emit_map(), *labels = gs_emit_map(),
	        *tspec = gs_emit_map(), *ref = gs_emit_map(), *reqs = gs_emit_seq(),
	        *cap = gs_emit_seq(), *taints = gs_emit_seq(), *taint = gs_emit_map();
	gs_pricing pricing = gs_plan_summary_get(p)->pricing;

	gs_emit_put(bad, labels, "nvidia.com/device-plugin.config", gs_node_str(f->config));
	if (f->mig_config)
		gs_emit_put(bad, labels, "nvidia.com/mig.config", gs_node_str(f->mig_config));
	gs_emit_put(bad, tmeta, "labels", labels);
	gs_emit_put(bad, tmpl, "metadata", tmeta);
	gs_emit_put(bad, ref, "group", gs_node_str("karpenter.k8s.aws"));
	gs_emit_put(bad, ref, "kind", gs_node_str("EC2NodeClass"));
	gs_emit_put(bad, ref, "name", gs_node_str(NODECLASS));
	gs_emit_put(bad, tspec, "nodeClassRef", ref);
	gs_emit_push(bad, reqs, requirement(bad, "node.kubernetes.io/instance-type", types));
	gs_emit_push(bad, cap, gs_node_str(pricing == GS_PRICING_SPOT ? "spot" : "on-demand"));
	gs_emit_push(bad, reqs, requirement(bad, "karpenter.sh/capacity-type", cap));
	gs_emit_put(bad, tspec, "requirements", reqs);
	gs_emit_put(bad, taint, "key", gs_node_str("nvidia.com/gpu"));
	gs_emit_put(bad, taint, "value", gs_node_str("true"));
	gs_emit_put(bad, taint, "effect", gs_node_str("NoSchedule"));
	gs_emit_push(bad, taints, taint);
	gs_emit_put(bad, tspec, "taints", taints);
	gs_emit_put(bad, tmpl, "spec", tspec);
	return tmpl;
}

static gs_node *nodepool(int *bad, const gs_plan *p, size_t first)
{
	const gs_plan_node *f = gs_plan_node_at(p, first);
	gs_node *np = gs_emit_map(), *meta = gs_emit_map(), *spec = gs_emit_map(),
	        *limits = gs_emit_map(), *dis = gs_emit_map(), *types;
	char name[96], gpus[32];
	long total;

	types = pool_types(bad, p, first, &total);
	pool_name(name, sizeof name, f);
	gs_emit_put(bad, np, "apiVersion", gs_node_str("karpenter.sh/v1"));
	gs_emit_put(bad, np, "kind", gs_node_str("NodePool"));
	gs_emit_put(bad, meta, "name", gs_node_str(name));
	gs_emit_put(bad, np, "metadata", meta);
	gs_emit_put(bad, spec, "template", node_template(bad, p, f, types));
	snprintf(gpus, sizeof gpus, "%ld", total);
	gs_emit_put(bad, limits, "nvidia.com/gpu", gs_node_str(gpus));
	gs_emit_put(bad, spec, "limits", limits);
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

/* Karpenter counts physical GPUs, not time-sliced replicas: an overlay
 * tells it what each planned instance type advertises once renamed. One
 * overlay per pool and instance type, selecting both: two pools of one
 * instance type advertise different slot counts. */
static gs_node *overlay(int *bad, const gs_plan_node *n)
{
	gs_node *ov = gs_emit_map(), *meta = gs_emit_map(), *spec = gs_emit_map(),
	        *reqs = gs_emit_seq(), *types = gs_emit_seq(), *pools = gs_emit_seq(),
	        *cap = gs_emit_map();
	char name[160], pool[128], count[32];
	int slots = n->gpus[0].replicas;
	pool_name(pool, sizeof pool, n);
	snprintf(name, sizeof name, "%s-shared", pool);
	snprintf(count, sizeof count, "%d", slots * (int)n->n_gpus);
	gs_emit_put(bad, ov, "apiVersion", gs_node_str("karpenter.sh/v1alpha1"));
	gs_emit_put(bad, ov, "kind", gs_node_str("NodeOverlay"));
	gs_emit_put(bad, meta, "name", gs_node_str(name));
	gs_emit_put(bad, ov, "metadata", meta);
	gs_emit_push(bad, pools, gs_node_str(pool));
	gs_emit_push(bad, reqs, requirement(bad, "karpenter.sh/nodepool", pools));
	gs_emit_push(bad, types, gs_node_str(n->instance->type));
	gs_emit_push(bad, reqs, requirement(bad, "node.kubernetes.io/instance-type", types));
	gs_emit_put(bad, spec, "requirements", reqs);
	gs_emit_put(bad, cap, "nvidia.com/gpu.shared", gs_node_str(count));
	gs_emit_put(bad, spec, "capacity", cap);
	gs_emit_put(bad, ov, "spec", spec);
	return ov;
}

/* Whether node i is the first of its pool among the AWS nodes. */
static int first_of_pool(const gs_plan *p, size_t i)
{
	const gs_plan_node *n = gs_plan_node_at(p, i);
	for (size_t j = 0; j < i; j++)
		if (is_aws(gs_plan_node_at(p, j)) && same_pool(gs_plan_node_at(p, j), n))
			return 0;
	return 1;
}

/* Whether node i is the first of its pool with its instance type. */
static int first_of_type(const gs_plan *p, size_t i)
{
	const gs_plan_node *n = gs_plan_node_at(p, i);
	for (size_t j = 0; j < i; j++)
		if (gs_plan_node_at(p, j)->instance == n->instance &&
		    same_pool(gs_plan_node_at(p, j), n))
			return 0;
	return 1;
}

int gs_emit_karpenter(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	int bad = 0;
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_KARPENTER),
	               "kubectl apply -f karpenter.yaml (set the EC2NodeClass role and discovery "
	               "tags first)");
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		if (is_aws(gs_plan_node_at(p, i)) && first_of_pool(p, i))
			gs_emit_doc(b, nodepool(&bad, p, i));
	gs_emit_doc(b, nodeclass(&bad));
	if (!o->rename_shared)
		return bad ? -1 : 0;
	gs_buf_puts(b, "# NodeOverlay is alpha: Karpenter >= v1.7 with --feature-gates "
	               "NodeOverlay=true.\n");
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		if (is_aws(n) && time_shared(n) && first_of_type(p, i))
			gs_emit_doc(b, overlay(&bad, n));
	}
	return bad ? -1 : 0;
}
