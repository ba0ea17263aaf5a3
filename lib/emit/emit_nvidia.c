/*
 * emit_nvidia.c - NVIDIA's configuration: the device-plugin ConfigMap
 * (one key per node configuration), GPU Operator Helm values, the
 * mig-parted ConfigMap, and the node labels that select them. The rules
 * followed are NVIDIA's parsers' (shared/reference/k8s-formats.md §1, §2,
 * §6): replicas >= 2, exactly one sharing block, never MPS on MIG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"

/* The ConfigMaps the Helm values point at. */
#define DP_CONFIGMAP "gpushare-device-plugin-config"
#define MIG_CONFIGMAP "gpushare-mig-config"
/* The node labels that select them. */
#define DP_LABEL "nvidia.com/device-plugin.config"
#define MIG_LABEL "nvidia.com/mig.config"

/* A mig-parted config, and MIG in the Helm values, only for MIG GPUs. */
int gs_emit_wants_mig(const gs_plan *p, const gs_emit_opts *o)
{
	(void)o;
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		if (gs_plan_node_at(p, i)->mig_config)
			return 1;
	return 0;
}

/* One stack per cluster: the device plugin's config only without DRA. */
int gs_emit_wants_device_plugin(const gs_plan *p, const gs_emit_opts *o)
{
	return !gs_emit_wants_dra(p, o);
}

/* ---- device-plugin config ------------------------------------------------ */

static gs_node *resource(int *bad, const char *name, int replicas)
{
	gs_node *r = gs_emit_map();
	gs_emit_put(bad, r, "name", gs_node_str(name));
	gs_emit_put(bad, r, "replicas", gs_node_int(replicas));
	return r;
}

/* The resources a MIG node time-slices: one per profile with slots > 1. */
static gs_node *mig_resources(int *bad, const gs_plan_node *n)
{
	gs_node *seq = gs_emit_seq();
	char names[32][64];
	size_t nn = 0;
	for (size_t g = 0; g < n->n_gpus; g++)
		for (size_t m = 0; m < n->gpus[g].n_mig; m++) {
			const gs_plan_mig *mi = &n->gpus[g].mig[m];
			char res[64];
			int seen = 0;
			if (mi->replicas < 2)
				continue;
			gs_emit_mig_resource(mi->profile, 0, res, sizeof res);
			for (size_t k = 0; k < nn && !seen; k++)
				seen = strcmp(names[k], res) == 0;
			if (seen || nn == 32)
				continue;
			snprintf(names[nn++], sizeof names[0], "%s", res);
			gs_emit_push(bad, seq, resource(bad, res, mi->replicas));
		}
	if (seq && seq->n == 0) {
		gs_node_free(seq);
		return NULL;
	}
	return seq;
}

/* A complete device-plugin config for a node, as the tree of its YAML. */
static gs_node *node_config(int *bad, const gs_plan_node *n, const gs_emit_opts *o)
{
	gs_node *cfg = gs_emit_map(), *flags = gs_emit_map(), *res = NULL, *block, *sharing;
	const gs_plan_gpu *g = n ? &n->gpus[0] : NULL;
	int mig = g && g->strategy == GS_STRATEGY_MIG;

	gs_emit_put(bad, cfg, "version", gs_node_str("v1"));
	gs_emit_put(bad, flags, "migStrategy", gs_node_str(mig ? "mixed" : "none"));
	gs_emit_put(bad, cfg, "flags", flags);
	if (mig)
		res = mig_resources(bad, n);
	else if (g && (g->strategy == GS_STRATEGY_TIME_SLICING || g->strategy == GS_STRATEGY_MPS)) {
		res = gs_emit_seq();
		gs_emit_push(bad, res, resource(bad, "nvidia.com/gpu", g->replicas));
	}
	if (!res)
		return cfg; /* unshared: no sharing block at all */
	block = gs_emit_map();
	sharing = gs_emit_map();
	if (o->rename_shared)
		gs_emit_put(bad, block, "renameByDefault", gs_node_bool(1));
	/* A pod asking for two replicas would get no more compute. */
	gs_emit_put(bad, block, "failRequestsGreaterThanOne", gs_node_bool(1));
	gs_emit_put(bad, block, "resources", res);
	gs_emit_put(bad, sharing, g->strategy == GS_STRATEGY_MPS ? "mps" : "timeSlicing", block);
	gs_emit_put(bad, cfg, "sharing", sharing);
	return cfg;
}

static gs_node *configmap(int *bad, const char *name, const gs_emit_opts *o, gs_node *data)
{
	gs_node *cm = gs_emit_map(), *meta = gs_emit_map();
	gs_emit_put(bad, cm, "apiVersion", gs_node_str("v1"));
	gs_emit_put(bad, cm, "kind", gs_node_str("ConfigMap"));
	gs_emit_put(bad, meta, "name", gs_node_str(name));
	gs_emit_put(bad, meta, "namespace", gs_node_str(o->namespace_));
	gs_emit_put(bad, cm, "metadata", meta);
	gs_emit_put(bad, cm, "data", data);
	return cm;
}

/* A tree rendered to YAML text, for a ConfigMap value. */
static gs_node *as_text(int *bad, gs_node *tree)
{
	char *text = NULL;
	gs_node *n;
	if (!tree || gs_yaml_render(tree, &text, NULL) < 0) {
		*bad = 1;
		gs_node_free(tree);
		return NULL;
	}
	gs_node_free(tree);
	n = gs_node_str(text);
	free(text);
	return n;
}

int gs_emit_device_plugin(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	size_t *first = calloc(gs_plan_node_count(p) + 1, sizeof *first), n;
	gs_node *data = gs_emit_map();
	int bad = 0;

	if (!first) {
		gs_node_free(data);
		return -1;
	}
	n = gs_emit_distinct_configs(p, first, 0);
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_DEVICE_PLUGIN),
	               "kubectl apply -f device-plugin-config.yaml; then label each node "
	               "(labels.sh)");
	gs_buf_puts(b, "# Unlabelled nodes get the key 'none' (no sharing).\n");
	gs_emit_put(&bad, data, "none", as_text(&bad, node_config(&bad, NULL, o)));
	for (size_t i = 0; i < n; i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, first[i]);
		gs_emit_put(&bad, data, nd->config, as_text(&bad, node_config(&bad, nd, o)));
	}
	free(first);
	gs_emit_doc(b, configmap(&bad, DP_CONFIGMAP, o, data));
	return bad ? -1 : 0;
}

/* ---- GPU Operator values ------------------------------------------------- */

/* Under DRA the operator keeps the driver, toolkit, GFD and MIG manager but
 * not its device plugin: NVIDIA's DRA driver refuses to run beside it. */
static void device_plugin_values(int *bad, const gs_plan *p, const gs_emit_opts *o,
                                 gs_buf *b, gs_node *v)
{
	gs_node *dp = gs_emit_map(), *cfg;
	if (gs_emit_wants_dra(p, o)) {
		gs_buf_puts(b, "# The stack is DRA: the device plugin is off, and the DRA driver "
		               "(dra-driver-values.yaml)\n# gives pods their GPUs.\n");
		gs_emit_put(bad, dp, "enabled", gs_node_bool(0));
		gs_emit_put(bad, v, "devicePlugin", dp);
		return;
	}
	cfg = gs_emit_map();
	gs_emit_put(bad, cfg, "name", gs_node_str(DP_CONFIGMAP));
	gs_emit_put(bad, cfg, "default", gs_node_str("none"));
	gs_emit_put(bad, dp, "config", cfg);
	gs_emit_put(bad, v, "devicePlugin", dp);
}

int gs_emit_operator_values(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	gs_node *v = gs_emit_map();
	int bad = 0;
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_OPERATOR_VALUES),
	               "helm upgrade --install gpu-operator nvidia/gpu-operator -n gpu-operator "
	               "-f gpu-operator-values.yaml");
	device_plugin_values(&bad, p, o, b, v);
	if (gs_emit_wants_mig(p, o)) {
		gs_node *mig = gs_emit_map(), *mm = gs_emit_map(), *mc = gs_emit_map();
		/* The operator's mig.strategy overrides the file's migStrategy. */
		gs_buf_puts(b, "# mig.strategy overrides flags.migStrategy in the device-plugin "
		               "configs.\n");
		gs_emit_put(&bad, mig, "strategy", gs_node_str("mixed"));
		gs_emit_put(&bad, v, "mig", mig);
		gs_emit_put(&bad, mc, "name", gs_node_str(MIG_CONFIGMAP));
		gs_emit_put(&bad, mc, "default", gs_node_str("all-disabled"));
		gs_emit_put(&bad, mm, "config", mc);
		gs_emit_put(&bad, v, "migManager", mm);
	}
	gs_emit_doc(b, v);
	return bad ? -1 : 0;
}

/* ---- mig-parted ---------------------------------------------------------- */

static int same_geometry(const gs_plan_gpu *a, const gs_plan_gpu *b)
{
	if (a->n_mig != b->n_mig)
		return 0;
	for (size_t i = 0; i < a->n_mig; i++) {
		size_t ca = 0, cb = 0;
		for (size_t j = 0; j < a->n_mig; j++) {
			ca += a->mig[j].profile == a->mig[i].profile;
			cb += b->mig[j].profile == a->mig[i].profile;
		}
		if (ca != cb)
			return 0;
	}
	return 1;
}

static gs_node *mig_devices(int *bad, const gs_plan_gpu *g)
{
	gs_node *m = gs_emit_map();
	/* Profiles are counted in the GPU's canonical order, big first. */
	for (size_t k = 0; k < g->model->n_mig_profiles; k++) {
		const gs_mig_profile *prof = &g->model->mig_profiles[k];
		int64_t count = 0;
		for (size_t i = 0; i < g->n_mig; i++)
			count += g->mig[i].profile == prof;
		if (count)
			gs_emit_put(bad, m, prof->name, gs_node_int(count));
	}
	return m;
}

/* One mig-parted entry per group of GPUs with the same geometry; unused
 * GPUs of a MIG node stay MIG-disabled. */
static gs_node *node_geometry(int *bad, const gs_plan_node *n)
{
	gs_node *list = gs_emit_seq();
	char *done = calloc(n->n_gpus + 1, 1);
	if (!done) {
		*bad = 1;
		return list;
	}
	for (size_t g = 0; g < n->n_gpus; g++) {
		gs_node *item, *devs;
		int used = n->gpus[g].n_mig > 0;
		if (done[g])
			continue;
		item = gs_emit_map();
		devs = gs_emit_seq();
		for (size_t h = g; h < n->n_gpus; h++) {
			int hused = n->gpus[h].n_mig > 0;
			if (done[h] || hused != used ||
			    (used && !same_geometry(&n->gpus[g], &n->gpus[h])))
				continue;
			done[h] = 1;
			gs_emit_push(bad, devs, gs_node_int((int64_t)h));
		}
		gs_emit_put(bad, item, "devices", devs);
		gs_emit_put(bad, item, "mig-enabled", gs_node_bool(used));
		if (used)
			gs_emit_put(bad, item, "mig-devices", mig_devices(bad, &n->gpus[g]));
		gs_emit_push(bad, list, item);
	}
	free(done);
	return list;
}

int gs_emit_mig_parted(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	size_t *first = calloc(gs_plan_node_count(p) + 1, sizeof *first), n;
	gs_node *cfg = gs_emit_map(), *configs = gs_emit_map(), *off = gs_emit_seq(),
	        *item = gs_emit_map(), *data = gs_emit_map();
	int bad = 0;

	if (!first) {
		gs_node_free(cfg);
		gs_node_free(configs);
		gs_node_free(off);
		gs_node_free(item);
		gs_node_free(data);
		return -1;
	}
	n = gs_emit_distinct_configs(p, first, 1);
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_MIG_PARTED),
	               "kubectl apply -f mig-config.yaml; label each MIG node with "
	               "nvidia.com/mig.config (labels.sh); drain the node first");
	gs_emit_put(&bad, item, "devices", gs_node_str("all"));
	gs_emit_put(&bad, item, "mig-enabled", gs_node_bool(0));
	gs_emit_push(&bad, off, item);
	gs_emit_put(&bad, configs, "all-disabled", off);
	for (size_t i = 0; i < n; i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, first[i]);
		gs_emit_put(&bad, configs, nd->mig_config, node_geometry(&bad, nd));
	}
	free(first);
	gs_emit_put(&bad, cfg, "version", gs_node_str("v1"));
	gs_emit_put(&bad, cfg, "mig-configs", configs);
	gs_emit_put(&bad, data, "config.yaml", as_text(&bad, cfg));
	gs_emit_doc(b, configmap(&bad, MIG_CONFIGMAP, o, data));
	return bad ? -1 : 0;
}

/* ---- node labels --------------------------------------------------------- */

/* The script's checks, run before any label changes: a node's instance
 * type and GPU product as the plan has them. gpu-feature-discovery writes
 * the product as the driver names the model, "-SHARED" added when the GPU
 * is time-sliced and "-MIG-<profile>" under the single MIG strategy; both
 * are cut before the name is compared with the model's names. */
static const char labels_check[] =
	"fail() {\n"
	"\techo \"labels.sh: $*; no node was labelled\" >&2\n"
	"\texit 1\n"
	"}\n"
	"\n"
	"# check N NODE TYPE PRODUCT...: NODE_N is of instance type TYPE (\"-\": a type\n"
	"# no label can name, not checked), with one of the PRODUCT names as its\n"
	"# nvidia.com/gpu.product label.\n"
	"check() {\n"
	"\tn=$1 node=$2 type=$3\n"
	"\tshift 3\n"
	"\thave=$(kubectl get node \"$node\" -o "
	"jsonpath='{.metadata.labels.node\\.kubernetes\\.io/instance-type}') ||\n"
	"\t\tfail \"NODE_$n: cannot read node '$node'\"\n"
	"\tif [ \"$type\" != - ]; then\n"
	"\t\t[ -n \"$have\" ] || fail \"NODE_$n: node '$node' has no "
	"node.kubernetes.io/instance-type label (on hardware of your own, label it $type)\"\n"
	"\t\t[ \"$have\" = \"$type\" ] || fail \"NODE_$n: node '$node' is a $have, not a "
	"$type as planned\"\n"
	"\tfi\n"
	"\tproduct=$(kubectl get node \"$node\" -o "
	"jsonpath='{.metadata.labels.nvidia\\.com/gpu\\.product}') ||\n"
	"\t\tfail \"NODE_$n: cannot read node '$node'\"\n"
	"\t[ -n \"$product\" ] || fail \"NODE_$n: node '$node' has no nvidia.com/gpu.product "
	"label (install the GPU Operator first: its gpu-feature-discovery sets it)\"\n"
	"\tbase=${product%-SHARED}\n"
	"\tbase=${base%%-MIG-*}\n"
	"\tfor p in \"$@\"; do\n"
	"\t\t[ \"$base\" = \"$p\" ] && return 0\n"
	"\tdone\n"
	"\tfail \"NODE_$n: node '$node' has GPU $product, not the planned $1\"\n"
	"}\n";

#define PRODUCTS_MAX 16

/* The model's names as gpu.product label values, each once: canonical
 * first ("A100-SXM4-40GB"), then its aliases ("NVIDIA-A100-SXM4-40GB"). */
static void put_products(gs_buf *b, const gs_gpu *g)
{
	char seen[PRODUCTS_MAX][64], v[64];
	size_t n = 0;

	for (size_t i = 0; i <= g->n_aliases && n < PRODUCTS_MAX; i++) {
		size_t k;
		gs_label_value(i ? g->aliases[i - 1] : g->name, v);
		for (k = 0; k < n && strcmp(seen[k], v) != 0; k++)
			;
		if (k < n)
			continue;
		memcpy(seen[n++], v, sizeof v);
		gs_buf_printf(b, " '%s'", v);
	}
}

/* The node's instance type as its node.kubernetes.io/instance-type label
 * says it, or "-" for a type of your own that no label value can name. */
static const char *type_label(const gs_plan_node *pn, char *out)
{
	gs_label_value(pn->instance->type, out);
	return strcmp(out, pn->instance->type) == 0 ? out : "-";
}

/* Fails, naming what NODE_i should be, when it is unset or empty. */
static void put_set_check(gs_buf *b, size_t i, const gs_plan_node *pn)
{
	char buf[64];
	const char *type = type_label(pn, buf);

	gs_buf_printf(b, "[ -n \"${NODE_%zu:-}\" ] || fail \"NODE_%zu is not set: the name of ",
	              i, i);
	if (strcmp(type, "-") == 0)
		gs_buf_printf(b, "the node playing plan node %zu\"\n", i);
	else
		gs_buf_printf(b, "a node of type %s (kubectl get nodes -l "
		                 "node.kubernetes.io/instance-type=%s)\"\n", type, type);
}

/* A fraction node says its backend; a HAMi node runs HAMi's device
 * plugin (its chart's nvidiaNodeSelector) and not the GPU Operator's,
 * which would advertise the same nvidia.com/gpu. */
static void put_fraction_labels(gs_buf *b, const gs_plan_node *pn)
{
	gs_backend be = gs_emit_node_backend(pn);
	if (be == GS_BACKEND_NONE)
		return;
	gs_buf_printf(b, " '%s=%s'", GS_EMIT_FRACTION_LABEL, gs_backend_name(be));
	if (be == GS_BACKEND_HAMI)
		gs_buf_puts(b, " 'gpu=on' 'nvidia.com/gpu.deploy.device-plugin=false'");
}

/* HAMi's per-node config, where the plan's HAMi models need scalings of
 * their own: one entry per HAMi node, named as the node is (only labels.sh
 * knows the names), in the ConfigMap hami-values.yaml points at. */
static void put_hami_nodes(gs_buf *b, const gs_plan *p)
{
	char s[32];
	if (!gs_emit_hami_per_node(p))
		return;
	gs_buf_printf(b, "\n# HAMi's per-node memory scaling (its models differ): the "
	                 "ConfigMap\n# %s that hami-values.yaml names.\nhami_nodes=\n"
	                 "hami_node() { # NODE SCALING\n\thami_nodes=\"${hami_nodes:+"
	                 "$hami_nodes,}{\\\"name\\\":\\\"$1\\\",\\\"devicememoryscaling\\\":$2,"
	                 "\\\"devicesplitcount\\\":%d}\"\n}\n", GS_EMIT_HAMI_NODES,
	              gs_emit_hami_split(p));
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		int64_t ppm;
		if (gs_emit_node_backend(n) != GS_BACKEND_HAMI)
			continue;
		ppm = gs_emit_hami_model_scaling_ppm(n->gpus[0].model);
		snprintf(s, sizeof s, "%lld.%06lld", (long long)(ppm / 1000000),
		         (long long)(ppm % 1000000));
		gs_buf_printf(b, "hami_node \"$NODE_%zu\" %s\n", i + 1, s);
	}
	gs_buf_printf(b, "kubectl create configmap %s -n %s \\\n\t--from-literal=config.json="
	                 "\"{\\\"nodeconfig\\\":[$hami_nodes]}\" --dry-run=client -o yaml |\n"
	                 "\tkubectl apply -f -\n", GS_EMIT_HAMI_NODES, GS_EMIT_HAMI_NAMESPACE);
}

int gs_emit_labels(const gs_plan *p, const gs_emit_opts *o, gs_buf *b)
{
	/* Under DRA no device-plugin config is selected: MIG geometry only. */
	int dra = gs_emit_wants_dra(p, o);
	size_t n = gs_plan_node_count(p);

	gs_buf_puts(b, "#!/bin/sh\n");
	gs_emit_header(b, p, o, gs_emit_help(GS_EMIT_LABELS),
	               "NODE_1=<name> NODE_2=<name> ... sh labels.sh");
	gs_buf_puts(b, "# Set NODE_<n> to the name of the node playing plan node <n>; "
	               "the selector in\n# each comment lists the candidates. Every node "
	               "is checked before any is\n# labelled: all set, all different, "
	               "instance type and GPU as planned.\nset -eu\n\n");
	gs_buf_puts(b, labels_check);
	gs_buf_puts(b, "\n# All set, and all different.\n");
	for (size_t i = 0; i < n; i++)
		put_set_check(b, i + 1, gs_plan_node_at(p, i));
	gs_buf_puts(b, "twice=$(printf '%s\\n'");
	for (size_t i = 0; i < n; i++)
		gs_buf_printf(b, " \"$NODE_%zu\"", i + 1);
	gs_buf_puts(b, " | sort | uniq -d | head -n 1)\n"
	               "[ -z \"$twice\" ] || fail \"node '$twice' is given as two NODE_<n>: "
	               "each plan node needs a node of its own\"\n");
	gs_buf_puts(b, "\n# Each as planned.\n");
	for (size_t i = 0; i < n; i++) {
		const gs_plan_node *pn = gs_plan_node_at(p, i);
		char buf[64];
		gs_buf_printf(b, "check %zu \"$NODE_%zu\" '%s'", i + 1, i + 1, type_label(pn, buf));
		put_products(b, pn->instance->gpu);
		gs_buf_putc(b, '\n');
	}
	for (size_t i = 0; i < n; i++) {
		const gs_plan_node *pn = gs_plan_node_at(p, i);
		char type[64];
		/* Only label values reach the script: no user text is executed. */
		gs_label_value(pn->instance->type, type);
		gs_buf_printf(b, "\n# node %zu: %s; kubectl get nodes -l "
		                 "'node.kubernetes.io/instance-type=%s'\n",
		              i + 1, type, type);
		/* One call per node: its labels change together. */
		gs_buf_printf(b, "kubectl label node \"$NODE_%zu\"", i + 1);
		if (!dra)
			gs_buf_printf(b, " 'nvidia.com/device-plugin.config=%s'", pn->config);
		if (pn->mig_config)
			gs_buf_printf(b, " 'nvidia.com/mig.config=%s'", pn->mig_config);
		if (pn->pool)
			gs_buf_printf(b, " 'gpushare.io/pool=%s'", pn->pool);
		put_fraction_labels(b, pn);
		gs_buf_puts(b, " --overwrite\n");
	}
	put_hami_nodes(b, p);
	return 0;
}
