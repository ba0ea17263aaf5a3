/*
 * dra_check.c - the facts of a DRA stack that several kinds ask (whether
 * the stack is DRA, a workload's namespace, a shared MIG instance), and
 * what a DRA stack cannot run, refused before anything is
 * emitted: a Kubernetes version out of range, a resource.k8s.io version
 * that Kubernetes version does not serve, and a shared GPU or MIG
 * instance whose pods are in several namespaces (a claim serves the pods
 * of its own namespace only).
 */
#include <string.h>

#include "emit/emit.h"

/* Claims with via: dra, or with --dra: then DRA is the cluster's stack. */
int gs_emit_wants_dra(const gs_plan *p, const gs_emit_opts *o)
{
	/* DRA capacity and MPS fractions exist only through DRA claims. */
	return o->dra || gs_scenario_via(gs_plan_scenario(p)) == GS_VIA_DRA ||
	       gs_emit_has_backend(p, GS_BACKEND_DRA) || gs_emit_has_backend(p, GS_BACKEND_MPS);
}

const char *gs_emit_namespace_of(const gs_plan *p, const gs_workload *w)
{
	return w->object.namespace_ ? w->object.namespace_
	                            : gs_scenario_namespace(gs_plan_scenario(p));
}

int gs_emit_mig_shared(const gs_plan_mig *mi)
{
	return mi->n_assignments > 1 || mi->strategy == GS_STRATEGY_TIME_SLICING;
}

gs_dra_api gs_emit_dra_api(const gs_emit_opts *o)
{
	if (o->dra_api != GS_DRA_AUTO)
		return o->dra_api;
	return o->kube_minor >= 34 ? GS_DRA_V1 : o->kube_minor == 33 ? GS_DRA_V1BETA2
	                                                              : GS_DRA_V1BETA1;
}

/* The first Kubernetes minor that serves v (v1beta1: 1.32, off by
 * default; v1beta2: 1.33; v1: 1.34, the first on by default). */
static int first_minor(gs_dra_api v)
{
	return v == GS_DRA_V1 ? 34 : v == GS_DRA_V1BETA2 ? 33 : 32;
}

static const char *api_name(gs_dra_api v)
{
	return v == GS_DRA_V1BETA1 ? "v1beta1" : v == GS_DRA_V1BETA2 ? "v1beta2" : "v1";
}

/* The one namespace of a shared device's pods, or NULL when they are in
 * several. */
static const char *one_namespace(const gs_plan *p, const gs_assignment *a, size_t n)
{
	const char *ns = n ? gs_emit_namespace_of(p, a[0].workload) : "";
	for (size_t k = 1; k < n; k++)
		if (strcmp(gs_emit_namespace_of(p, a[k].workload), ns) != 0)
			return NULL;
	return ns;
}

static int mixed(const gs_plan *p, const gs_assignment *a, size_t n, size_t node, size_t gpu,
                 gs_error *err)
{
	if (one_namespace(p, a, n))
		return 0;
	return gs_fail(err, GS_EINVAL,
	               "node %zu GPU %zu is shared by pods of the namespaces of %s and %s, but a "
	               "DRA claim serves only its own namespace: plan with `via: dra`, which "
	               "keeps namespaces apart", node + 1, gpu, a[0].workload->name,
	               a[n - 1].workload->name);
}

/* Whether GPU g of node i, or one of its shared MIG instances, has pods
 * of several namespaces. */
static int shared_gpu_mixed(const gs_plan *p, const gs_plan_gpu *pg, size_t i, size_t g,
                            gs_error *err)
{
	const gs_plan_mig *mi = pg->mig;
	/* Capacity claims are each pod's own, and HAMi's GPUs take none:
	 * namespaces may share them. */
	if (pg->strategy != GS_STRATEGY_DEDICATED && gs_emit_backend(pg) != GS_BACKEND_DRA &&
	    gs_emit_backend(pg) != GS_BACKEND_HAMI &&
	    mixed(p, pg->assignments, pg->n_assignments, i, g, err) < 0)
		return GS_EINVAL;
	for (size_t m = 0; m < pg->n_mig; m++)
		if (gs_emit_mig_shared(&mi[m]) &&
		    mixed(p, mi[m].assignments, mi[m].n_assignments, i, g, err) < 0)
			return GS_EINVAL;
	return 0;
}

int gs_emit_dra_check(const gs_plan *p, const gs_emit_opts *o, gs_error *err)
{
	gs_dra_api api = gs_emit_dra_api(o);
	if (o->kube_minor < GS_KUBE_MINOR_MIN || o->kube_minor > GS_KUBE_MINOR_MAX)
		return gs_fail(err, GS_EINVAL, "Kubernetes 1.%d is not supported (1.%d to 1.%d)",
		               o->kube_minor, GS_KUBE_MINOR_MIN, GS_KUBE_MINOR_MAX);
	if ((unsigned)api > GS_DRA_V1BETA1)
		return gs_fail(err, GS_EINVAL, "unknown resource.k8s.io version");
	if (!gs_emit_wants_dra(p, o))
		return 0;
	if (o->kube_minor < first_minor(api))
		return gs_fail(err, GS_EINVAL,
		               "Kubernetes 1.%d does not serve resource.k8s.io/%s (from 1.%d)",
		               o->kube_minor, api_name(api), first_minor(api));
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++) {
			const gs_plan_gpu *pg = &n->gpus[g];
			if (shared_gpu_mixed(p, pg, i, g, err) < 0)
				return GS_EINVAL;
		}
	}
	return 0;
}

