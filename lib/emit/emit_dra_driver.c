/*
 * emit_dra_driver.c - Helm values of NVIDIA's DRA driver for GPUs, for a
 * plan whose stack is DRA: the GPU kubelet plugin on, with the feature
 * gates its claims' sharing configs need (shared/reference/k8s-formats.md
 * §3.3: TimeSlicingSettings and MPSSupport are alpha and off by default;
 * the driver refuses a config whose gate is off), and nothing that needs
 * more than a fresh cluster has.
 */
#include "emit/emit.h"

/* Which sharing strategies the plan's claims configure. */
static void strategies(const gs_plan *p, int *ts, int *mps)
{
	*ts = *mps = 0;
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++) {
			const gs_plan_gpu *pg = &n->gpus[g];
			if (!pg->n_mig && pg->n_assignments) {
				*ts |= pg->strategy == GS_STRATEGY_TIME_SLICING;
				*mps |= pg->strategy == GS_STRATEGY_MPS ||
				        gs_emit_backend(pg) == GS_BACKEND_MPS;
			}
			for (size_t m = 0; m < pg->n_mig; m++)
				*ts |= pg->mig[m].n_assignments && gs_emit_mig_shared(&pg->mig[m]);
		}
	}
}

static gs_node *enabled(int *bad, int on)
{
	gs_node *m = gs_emit_map();
	gs_emit_put(bad, m, "enabled", gs_node_bool(on));
	return m;
}

static gs_node *expr(int *bad, const char *key, const char *op, const char *value)
{
	gs_node *e = gs_emit_map(), *vals = gs_emit_seq();
	gs_emit_put(bad, e, "key", gs_node_str(key));
	gs_emit_put(bad, e, "operator", gs_node_str(op));
	gs_emit_push(bad, vals, gs_node_str(value));
	gs_emit_put(bad, e, "values", vals);
	return e;
}

/* The GPU kubelet plugin on GPU nodes (the label the GPU Operator's
 * feature discovery sets) but never on HAMi's nodes, whose GPUs HAMi's
 * device plugin serves: the chart's own terms are replaced, as Helm
 * replaces lists. */
static gs_node *kubelet_plugin(int *bad)
{
	gs_node *kp = gs_emit_map(), *aff = gs_emit_map(), *na = gs_emit_map(),
	        *req = gs_emit_map(), *terms = gs_emit_seq(), *term = gs_emit_map(),
	        *exprs = gs_emit_seq();
	gs_emit_push(bad, exprs, expr(bad, "nvidia.com/gpu.present", "In", "true"));
	gs_emit_push(bad, exprs, expr(bad, GS_EMIT_FRACTION_LABEL, "NotIn",
	                              gs_backend_name(GS_BACKEND_HAMI)));
	gs_emit_put(bad, term, "matchExpressions", exprs);
	gs_emit_push(bad, terms, term);
	gs_emit_put(bad, req, "nodeSelectorTerms", terms);
	gs_emit_put(bad, na, "requiredDuringSchedulingIgnoredDuringExecution", req);
	gs_emit_put(bad, aff, "nodeAffinity", na);
	gs_emit_put(bad, kp, "affinity", aff);
	return kp;
}

int gs_emit_dra_driver(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	gs_node *v = gs_emit_map(), *res = gs_emit_map(), *gates = gs_emit_map();
	int bad = 0, ts, mps;

	strategies(p, &ts, &mps);
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_DRA_DRIVER),
	               "helm repo add nvidia https://helm.ngc.nvidia.com/nvidia && helm repo "
	               "update &&\n#   helm upgrade --install nvidia-dra-driver-gpu "
	               "nvidia/nvidia-dra-driver-gpu\n#   -n nvidia-dra-driver-gpu "
	               "--create-namespace -f dra-driver-values.yaml");
	gs_buf_puts(b, "# Install the GPU Operator first with gpu-operator-values.yaml: it turns "
	               "its device\n# plugin off, as the GPU kubelet plugin must not run beside "
	               "it (one stack per\n# cluster). nvidiaDriverRoot is where the operator's "
	               "driver container puts the\n# driver; use / for a driver installed on the "
	               "host.\n");
	if (mps)
		gs_buf_puts(b, "# Not with the DynamicMIG feature gate: it excludes "
		               "MPSSupport.\n");
	gs_emit_put(&bad, v, "nvidiaDriverRoot", gs_node_str("/run/nvidia/driver"));
	/* The chart asks for this to confirm the classic plugin is gone. */
	gs_emit_put(&bad, v, "gpuResourcesEnabledOverride", gs_node_bool(1));
	gs_emit_put(&bad, res, "gpus", enabled(&bad, 1));
	/* ComputeDomains (multi-node NVLink) are not planned, and their
	 * conversion webhook would need cert-manager. */
	gs_emit_put(&bad, res, "computeDomains", enabled(&bad, 0));
	gs_emit_put(&bad, v, "resources", res);
	gs_emit_put(&bad, v, "webhook", enabled(&bad, 0));
	if (gs_emit_has_backend(p, GS_BACKEND_HAMI)) {
		gs_buf_puts(b, "# The plan's HAMi nodes (gpushare.io/fraction=hami) keep HAMi's "
		               "device plugin: the\n# GPU kubelet plugin runs on every other GPU "
		               "node.\n");
		gs_emit_put(&bad, v, "kubeletPlugin", kubelet_plugin(&bad));
	}
	if (ts)
		gs_emit_put(&bad, gates, "TimeSlicingSettings", gs_node_bool(1));
	if (mps)
		gs_emit_put(&bad, gates, "MPSSupport", gs_node_bool(1));
	/* memory: a claim that asks no memory takes the whole GPU, one that
	 * asks some takes that much (consumable_shares.go). */
	if (gs_emit_has_backend(p, GS_BACKEND_DRA)) {
		gs_emit_put(&bad, gates, "ConsumableShares", gs_node_bool(1));
		gs_emit_put(&bad, v, "consumableShares", gs_node_str("memory"));
	}
	gs_emit_put(&bad, v, "featureGates", gates);
	gs_emit_doc(b, v);
	return bad ? -1 : 0;
}
