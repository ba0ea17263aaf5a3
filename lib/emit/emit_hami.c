/*
 * emit_hami.c - Helm values of HAMi (Project-HAMi/HAMi, chart hami) for a
 * plan's HAMi fractions. Each such pod asks nvidia.com/gpu 1 with its
 * memory cap (nvidia.com/gpumem, MiB) and SM % (nvidia.com/gpucores) and
 * names hami-scheduler (patch.c); HAMi's scheduler puts it on any GPU of
 * its node with enough unclaimed memory, cores and slots, and HAMi-core
 * holds it to both in the container. The values make that accounting the
 * plan's:
 *   - deviceMemoryScaling below 1, so a GPU's accounted memory is its
 *     usable memory (less the driver's reserve), the planner's budget;
 *   - deviceSplitCount at least the most replicas planned on one GPU;
 *   - binpack within a node and across nodes, as the plan packs;
 *   - the admission webhook only for the plan's HAMi pods (label
 *     gpushare.io/fraction=hami): other GPU pods keep their scheduler;
 *   - the device plugin on the nodes labels.sh labels gpu=on (where it
 *     also turns the GPU Operator's device plugin off).
 */
#include <stdio.h>

#include "emit/emit.h"

static gs_node *scaling_number(int64_t ppm)
{
	char buf[32];
	int len;
	if (ppm == 1000000)
		return gs_node_new(GS_NODE_NUMBER, "1");
	len = snprintf(buf, sizeof buf, "%lld.%06lld", (long long)(ppm / 1000000),
	               (long long)(ppm % 1000000));
	while (len > 2 && buf[len - 1] == '0')
		buf[--len] = '\0';
	return gs_node_new(GS_NODE_NUMBER, buf);
}

static gs_node *scheduler(int *bad)
{
	gs_node *s = gs_emit_map(), *pol = gs_emit_map(), *wh = gs_emit_map(),
	        *sel = gs_emit_map(), *exprs = gs_emit_seq(), *ex = gs_emit_map(),
	        *vals = gs_emit_seq();
	gs_emit_put(bad, pol, "nodeSchedulerPolicy", gs_node_str("binpack"));
	gs_emit_put(bad, pol, "gpuSchedulerPolicy", gs_node_str("binpack"));
	gs_emit_put(bad, s, "defaultSchedulerPolicy", pol);
	gs_emit_push(bad, vals, gs_node_str(gs_backend_name(GS_BACKEND_HAMI)));
	gs_emit_put(bad, ex, "key", gs_node_str(GS_EMIT_FRACTION_LABEL));
	gs_emit_put(bad, ex, "operator", gs_node_str("In"));
	gs_emit_put(bad, ex, "values", vals);
	gs_emit_push(bad, exprs, ex);
	gs_emit_put(bad, sel, "matchExpressions", exprs);
	gs_emit_put(bad, wh, "objectSelector", sel);
	gs_emit_put(bad, s, "admissionWebhook", wh);
	return s;
}

static gs_node *device_plugin(int *bad, const gs_plan *p, int64_t scaling)
{
	gs_node *d = gs_emit_map(), *ns = gs_emit_map();
	gs_emit_put(bad, d, "deviceSplitCount", gs_node_int(gs_emit_hami_split(p)));
	gs_emit_put(bad, d, "deviceMemoryScaling", scaling_number(scaling));
	gs_emit_put(bad, d, "deviceCoreScaling", gs_node_int(1));
	gs_emit_put(bad, ns, "gpu", gs_node_str("on"));
	gs_emit_put(bad, d, "nvidiaNodeSelector", ns);
	if (gs_emit_hami_per_node(p)) {
		gs_node *nc = gs_emit_map();
		gs_emit_put(bad, nc, "externalConfigName", gs_node_str(GS_EMIT_HAMI_NODES));
		gs_emit_put(bad, d, "nodeConfiguration", nc);
	}
	return d;
}

/* One comment line per HAMi GPU model: what HAMi accounts for it (each
 * model's own scaling where labels.sh writes them per node). */
static void budgets(gs_buf *b, const gs_plan *p, int64_t scaling)
{
	const gs_gpu *seen[16];
	size_t n = 0;
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, i);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_gpu *m = nd->gpus[g].model;
			size_t k;
			if (gs_emit_backend(&nd->gpus[g]) != GS_BACKEND_HAMI)
				continue;
			for (k = 0; k < n && seen[k] != m; k++)
				;
			if (k < n || n == 16)
				continue;
			seen[n++] = m;
			if (gs_emit_hami_per_node(p))
				scaling = gs_emit_hami_model_scaling_ppm(m);
			gs_buf_printf(b, "#   %s: %lld MiB reported, %lld MiB accounted "
			                 "(%lld MiB usable)\n", m->name, (long long)m->memory_mib,
			              (long long)gs_emit_hami_budget_mib(m, scaling),
			              (long long)m->usable_memory_mib);
		}
	}
}

int gs_emit_hami(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	gs_node *v = gs_emit_map();
	int64_t scaling = gs_emit_hami_scaling_ppm(p);
	int bad = 0;
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_HAMI),
	               "helm repo add hami-charts https://project-hami.github.io/HAMi/ &&\n"
	               "#   helm upgrade --install hami hami-charts/hami -n kube-system "
	               "-f hami-values.yaml");
	gs_buf_puts(b, "# Then label the HAMi nodes (labels.sh): gpu=on runs HAMi's device "
	               "plugin there, and\n# nvidia.com/gpu.deploy.device-plugin=false keeps "
	               "the GPU Operator's off them.\n# Each HAMi pod names hami-scheduler and "
	               "carries gpushare.io/fraction=hami, which\n# the webhook selects. "
	               "deviceMemoryScaling makes HAMi account usable memory:\n");
	budgets(b, p, scaling);
	if (gs_emit_hami_per_node(p))
		gs_buf_printf(b, "# The models differ: labels.sh writes each HAMi node's own "
		                 "scaling into the\n# ConfigMap %s (%s), which "
		                 "nodeConfiguration names.\n", GS_EMIT_HAMI_NODES,
		              GS_EMIT_HAMI_NAMESPACE);
	gs_emit_put(&bad, v, "scheduler", scheduler(&bad));
	gs_emit_put(&bad, v, "devicePlugin", device_plugin(&bad, p, scaling));
	gs_emit_doc(b, v);
	return bad ? -1 : 0;
}
