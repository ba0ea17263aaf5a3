/*
 * lint_karpenter.c - Karpenter NodePools, and the kinds and API versions
 * Karpenter removed.
 *
 * Source: shared/reference/k8s-formats.md section 5 (Karpenter v1 CRDs and
 * their CEL rules).
 */
#include <stdio.h>
#include <string.h>

#include "lint/kit.h"

/* ---- Karpenter ------------------------------------------------------------ */

static const char *const aws_labels[] = {
	"instance-encryption-in-transit-supported", "instance-category", "instance-hypervisor",
	"instance-family", "instance-generation", "instance-local-nvme", "instance-size",
	"instance-cpu", "instance-cpu-manufacturer", "instance-cpu-sustained-clock-speed-mhz",
	"instance-memory", "instance-ebs-bandwidth", "instance-network-bandwidth",
	"instance-gpu-name", "instance-gpu-manufacturer", "instance-gpu-count",
	"instance-gpu-memory", "instance-accelerator-name", "instance-accelerator-manufacturer",
	"instance-accelerator-count", "instance-capability-flex",
};

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Why Karpenter refuses a label key (its NodePool CRD's CEL rules), or NULL. */
static const char *restricted(const char *key)
{
	const char *slash = strchr(key, '/');
	size_t dlen = slash ? (size_t)(slash - key) : 0;

	if (strcmp(key, "kubernetes.io/hostname") == 0 || strcmp(key, "karpenter.sh/nodepool") == 0)
		return "is set by Kubernetes or Karpenter itself";
	if (ends_with(key, dlen, "karpenter.sh") && strcmp(key, "karpenter.sh/capacity-type") != 0)
		return "is in the karpenter.sh domain, which Karpenter reserves";
	if (ends_with(key, dlen, "karpenter.k8s.aws")) {
		for (size_t i = 0; i < GS_ARRAY_LEN(aws_labels); i++)
			if (strcmp(slash + 1, aws_labels[i]) == 0 && dlen == 17)
				return NULL;
		return "is in the karpenter.k8s.aws domain, which Karpenter reserves";
	}
	return NULL;
}

static void check_nodeclassref(lint_ctx *c, const gs_node *tspec, const gs_node *tkey)
{
	static const struct { const char *key, *write; } want[] = {
		{ "group", "group: karpenter.k8s.aws" }, { "kind", "kind: EC2NodeClass" },
		{ "name", "name: <the EC2NodeClass's name>" },
	};
	gs_node *rk;
	const gs_node *ref = gs_lint_find(tspec, "nodeClassRef", &rk);

	if (!gs_lint_is_map(ref)) {
		gs_lint_add(c, R_KARPENTER_NODECLASSREF, ref ? rk : tkey,
		            "NodePool needs spec.template.spec.nodeClassRef; write 'nodeClassRef: "
		            "{group: karpenter.k8s.aws, kind: EC2NodeClass, name: NAME}'");
		return;
	}
	for (size_t i = 0; i < GS_ARRAY_LEN(want); i++) {
		const gs_node *v = gs_lint_find(ref, want[i].key, NULL);
		if (gs_lint_is_str(v) && v->text[0])
			continue;
		if (i == 0 && gs_lint_find(ref, "apiVersion", NULL))
			gs_lint_add(c, R_KARPENTER_NODECLASSREF, rk,
			            "nodeClassRef.apiVersion is the v1beta1 form; karpenter.sh/v1 "
			            "needs 'group: karpenter.k8s.aws' instead");
		else
			gs_lint_add(c, R_KARPENTER_NODECLASSREF, gs_lint_at_or(v, rk),
			            "nodeClassRef has no %s; write '%s'", want[i].key,
			            want[i].write);
	}
}

static void check_requirement(lint_ctx *c, const gs_node *r)
{
	const gs_node *key = gs_lint_find(r, "key", NULL), *op = gs_lint_find(r, "operator", NULL);
	const gs_node *vals = gs_lint_find(r, "values", NULL);
	size_t n = vals && vals->kind == GS_NODE_SEQ ? vals->n : 0;
	const char *why;
	long long x;

	if (gs_lint_is_str(key) && (why = restricted(key->text)))
		gs_lint_add(c, R_KARPENTER_RESTRICTED_LABEL, key,
		            "requirement key '%s' %s, so the NodePool is rejected; use a "
		            "well-known label such as karpenter.k8s.aws/instance-gpu-name",
		            key->text, why);
	if (gs_lint_streq(op, "In") && n == 0)
		gs_lint_add(c, R_KARPENTER_REQUIREMENT, op,
		            "operator In needs values; write 'values: [...]', or operator Exists");
	if ((gs_lint_streq(op, "Gt") || gs_lint_streq(op, "Lt") || gs_lint_streq(op, "Gte") ||
	     gs_lint_streq(op, "Lte")) &&
	    !(n == 1 && gs_lint_is_str(vals->items[0]) &&
	      gs_lint_int(&(gs_node){ .kind = GS_NODE_STRING, .text = vals->items[0]->text }, &x) &&
	      x >= 0))
		gs_lint_add(c, R_KARPENTER_REQUIREMENT, op,
		            "operator %s needs exactly one value, a whole number; write 'values: "
		            "[\"8\"]'", op->text);
}

static void check_nodepool(lint_ctx *c, const gs_node *obj)
{
	gs_node *tk = NULL, *sk = NULL;
	const gs_node *spec = gs_lint_find(obj, "spec", &sk);
	const gs_node *tmpl = gs_lint_find(spec, "template", &tk);
	const gs_node *labels = gs_lint_find(gs_lint_find(tmpl, "metadata", NULL), "labels", NULL);
	gs_node *tsk = NULL;
	const gs_node *tspec = gs_lint_find(tmpl, "spec", &tsk);
	const gs_node *reqs = gs_lint_find(tspec, "requirements", NULL);
	const char *why;

	if (gs_lint_is_map(labels))
		for (size_t i = 0; i < labels->n; i++)
			if ((why = restricted(labels->keys[i]->text)))
				gs_lint_add(c, R_KARPENTER_RESTRICTED_LABEL, labels->keys[i],
				            "label '%s' %s, so the NodePool is rejected; use your "
				            "own domain, e.g. example.com/%s",
				            labels->keys[i]->text, why,
				            strchr(labels->keys[i]->text, '/') + 1);
	if (gs_lint_is_map(tspec))
		check_nodeclassref(c, tspec, tsk);
	else if (sk)
		check_nodeclassref(c, NULL, tk ? tk : sk);
	if (reqs && reqs->kind == GS_NODE_SEQ)
		for (size_t i = 0; i < reqs->n; i++)
			if (gs_lint_is_map(reqs->items[i]))
				check_requirement(c, reqs->items[i]);
}

static void check_karpenter(lint_ctx *c, const gs_node *obj, const gs_node *av,
                            const gs_node *kind)
{
	const char *a = gs_lint_is_str(av) ? av->text : "";

	c->configs++;
	if (gs_lint_streq(kind, "Provisioner") || gs_lint_streq(kind, "AWSNodeTemplate")) {
		gs_lint_add(c, R_KARPENTER_OLD_API, kind,
		            "%s (%s) was removed in Karpenter v0.33; write a karpenter.sh/v1 "
		            "NodePool and a karpenter.k8s.aws/v1 EC2NodeClass", kind->text,
		            gs_lint_streq(kind, "Provisioner") ? "karpenter.sh/v1alpha5"
		                                               : "karpenter.k8s.aws/v1alpha1");
		return;
	}
	if (strcmp(a, "karpenter.sh/v1alpha5") == 0 ||
	    strcmp(a, "karpenter.k8s.aws/v1alpha1") == 0) {
		gs_lint_add(c, R_KARPENTER_OLD_API, av,
		            "%s was removed in Karpenter v0.33; write a karpenter.sh/v1 NodePool "
		            "and a karpenter.k8s.aws/v1 EC2NodeClass", a);
		return;
	}
	if (strcmp(a, "karpenter.sh/v1beta1") == 0 ||
	    strcmp(a, "karpenter.k8s.aws/v1beta1") == 0) {
		int sh = strncmp(a, "karpenter.sh/", 13) == 0;
		gs_lint_add(c, R_KARPENTER_OLD_API, av,
		            "%s was removed in Karpenter v1.1; write 'apiVersion: %s' (%s)", a,
		            sh ? "karpenter.sh/v1" : "karpenter.k8s.aws/v1",
		            sh ? "NodePool, NodeClaim" : "EC2NodeClass");
		return;
	}
	if (gs_lint_streq(kind, "NodePool") && strcmp(a, "karpenter.sh/v1") == 0)
		check_nodepool(c, obj);
}

void gs_lint_karpenter(lint_ctx *c, const gs_node *obj)
{
	check_karpenter(c, obj, gs_lint_find(obj, "apiVersion", NULL),
	                gs_lint_find(obj, "kind", NULL));
}
