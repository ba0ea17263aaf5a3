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

/* ---- device-plugin config ------------------------------------------------------ */

static gs_node *resource(int *bad, const char *name, int replicas)
{
	gs_node *r = em_map();
	em_put(bad, r, "name", em_str(name));
	em_put(bad, r, "replicas", em_int(replicas));
	return r;
}

/* The resources a MIG node time-slices: one per profile with slots > 1. */
static gs_node *mig_resources(int *bad, const gs_plan_node *n)
{
	gs_node *seq = em_seq();
	char names[32][64];
	size_t nn = 0;
	for (size_t g = 0; g < n->n_gpus; g++)
		for (size_t m = 0; m < n->gpus[g].n_mig; m++) {
			const gs_plan_mig *mi = &n->gpus[g].mig[m];
			char res[64];
			int seen = 0;
			if (mi->replicas < 2)
				continue;
			em_mig_resource(mi->profile, 0, res, sizeof res);
			for (size_t k = 0; k < nn && !seen; k++)
				seen = strcmp(names[k], res) == 0;
			if (seen || nn == 32)
				continue;
			snprintf(names[nn++], sizeof names[0], "%s", res);
			em_push(bad, seq, resource(bad, res, mi->replicas));
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
	gs_node *cfg = em_map(), *flags = em_map(), *res = NULL, *block, *sharing;
	const gs_plan_gpu *g = n ? &n->gpus[0] : NULL;
	int mig = g && g->strategy == GS_STRATEGY_MIG;

	em_put(bad, cfg, "version", em_str("v1"));
	em_put(bad, flags, "migStrategy", em_str(mig ? "mixed" : "none"));
	em_put(bad, cfg, "flags", flags);
	if (mig)
		res = mig_resources(bad, n);
	else if (g && (g->strategy == GS_STRATEGY_TIME_SLICING || g->strategy == GS_STRATEGY_MPS)) {
		res = em_seq();
		em_push(bad, res, resource(bad, "nvidia.com/gpu", g->replicas));
	}
	if (!res)
		return cfg; /* unshared: no sharing block at all */
	block = em_map();
	sharing = em_map();
	if (o->rename_shared)
		em_put(bad, block, "renameByDefault", gs_node_bool(1));
	/* A pod asking for two replicas would get no more compute. */
	em_put(bad, block, "failRequestsGreaterThanOne", gs_node_bool(1));
	em_put(bad, block, "resources", res);
	em_put(bad, sharing, g->strategy == GS_STRATEGY_MPS ? "mps" : "timeSlicing", block);
	em_put(bad, cfg, "sharing", sharing);
	return cfg;
}

static gs_node *configmap(int *bad, const char *name, const gs_emit_opts *o, gs_node *data)
{
	gs_node *cm = em_map(), *meta = em_map();
	em_put(bad, cm, "apiVersion", em_str("v1"));
	em_put(bad, cm, "kind", em_str("ConfigMap"));
	em_put(bad, meta, "name", em_str(name));
	em_put(bad, meta, "namespace", em_str(o->namespace_));
	em_put(bad, cm, "metadata", meta);
	em_put(bad, cm, "data", data);
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
	n = em_str(text);
	free(text);
	return n;
}

int emit_device_plugin(const gs_plan *p, const gs_emit_opts *o, ebuf *b)
{
	size_t *first = calloc(p->n_nodes + 1, sizeof *first), n;
	gs_node *data = em_map();
	int bad = 0;

	if (!first) {
		gs_node_free(data);
		return -1;
	}
	n = em_distinct_configs(p, first, 0);
	eb_header(b, p, o, "NVIDIA device-plugin configs: one key per kind of node in the plan.",
	          "kubectl apply -f device-plugin-config.yaml; then label each node (labels.sh)");
	eb_puts(b, "# Unlabelled nodes get the key 'none' (no sharing).\n");
	em_put(&bad, data, "none", as_text(&bad, node_config(&bad, NULL, o)));
	for (size_t i = 0; i < n; i++)
		em_put(&bad, data, p->nodes[first[i]].config,
		       as_text(&bad, node_config(&bad, &p->nodes[first[i]], o)));
	free(first);
	eb_doc(b, configmap(&bad, EM_DP_CONFIGMAP, o, data));
	return bad ? -1 : 0;
}

/* ---- GPU Operator values ----------------------------------------------------------- */

int emit_operator_values(const gs_plan *p, const gs_emit_opts *o, ebuf *b)
{
	gs_node *v = em_map(), *dp = em_map(), *cfg = em_map();
	int bad = 0;
	eb_header(b, p, o, "GPU Operator Helm values that point at the generated configs.",
	          "helm upgrade --install gpu-operator nvidia/gpu-operator -n gpu-operator "
	          "-f gpu-operator-values.yaml");
	em_put(&bad, cfg, "name", em_str(EM_DP_CONFIGMAP));
	em_put(&bad, cfg, "default", em_str("none"));
	em_put(&bad, dp, "config", cfg);
	em_put(&bad, v, "devicePlugin", dp);
	if (em_has_mig(p)) {
		gs_node *mig = em_map(), *mm = em_map(), *mc = em_map();
		/* The operator's mig.strategy overrides the file's migStrategy. */
		eb_puts(b, "# mig.strategy overrides flags.migStrategy in the device-plugin configs.\n");
		em_put(&bad, mig, "strategy", em_str("mixed"));
		em_put(&bad, v, "mig", mig);
		em_put(&bad, mc, "name", em_str(EM_MIG_CONFIGMAP));
		em_put(&bad, mc, "default", em_str("all-disabled"));
		em_put(&bad, mm, "config", mc);
		em_put(&bad, v, "migManager", mm);
	}
	eb_doc(b, v);
	return bad ? -1 : 0;
}

/* ---- mig-parted ----------------------------------------------------------------- */

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
	gs_node *m = em_map();
	/* Profiles are counted in the GPU's canonical order, big first. */
	for (size_t k = 0; k < g->model->n_mig_profiles; k++) {
		const gs_mig_profile *prof = &g->model->mig_profiles[k];
		int64_t count = 0;
		for (size_t i = 0; i < g->n_mig; i++)
			count += g->mig[i].profile == prof;
		if (count)
			em_put(bad, m, prof->name, em_int(count));
	}
	return m;
}

/* One mig-parted entry per group of GPUs with the same geometry; unused
 * GPUs of a MIG node stay MIG-disabled. */
static gs_node *node_geometry(int *bad, const gs_plan_node *n)
{
	gs_node *list = em_seq();
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
		item = em_map();
		devs = em_seq();
		for (size_t h = g; h < n->n_gpus; h++) {
			int hused = n->gpus[h].n_mig > 0;
			if (done[h] || hused != used || (used && !same_geometry(&n->gpus[g], &n->gpus[h])))
				continue;
			done[h] = 1;
			em_push(bad, devs, em_int((int64_t)h));
		}
		em_put(bad, item, "devices", devs);
		em_put(bad, item, "mig-enabled", gs_node_bool(used));
		if (used)
			em_put(bad, item, "mig-devices", mig_devices(bad, &n->gpus[g]));
		em_push(bad, list, item);
	}
	free(done);
	return list;
}

int emit_mig_parted(const gs_plan *p, const gs_emit_opts *o, ebuf *b)
{
	size_t *first = calloc(p->n_nodes + 1, sizeof *first), n;
	gs_node *cfg = em_map(), *configs = em_map(), *off = em_seq(), *item = em_map(),
	        *data = em_map();
	int bad = 0;

	if (!first) {
		gs_node_free(cfg);
		gs_node_free(configs);
		gs_node_free(off);
		gs_node_free(item);
		gs_node_free(data);
		return -1;
	}
	n = em_distinct_configs(p, first, 1);
	eb_header(b, p, o, "mig-parted configs: one per MIG geometry in the plan.",
	          "kubectl apply -f mig-config.yaml; label each MIG node with "
	          "nvidia.com/mig.config (labels.sh); drain the node first");
	em_put(&bad, item, "devices", em_str("all"));
	em_put(&bad, item, "mig-enabled", gs_node_bool(0));
	em_push(&bad, off, item);
	em_put(&bad, configs, "all-disabled", off);
	for (size_t i = 0; i < n; i++)
		em_put(&bad, configs, p->nodes[first[i]].mig_config,
		       node_geometry(&bad, &p->nodes[first[i]]));
	free(first);
	em_put(&bad, cfg, "version", em_str("v1"));
	em_put(&bad, cfg, "mig-configs", configs);
	em_put(&bad, data, "config.yaml", as_text(&bad, cfg));
	eb_doc(b, configmap(&bad, EM_MIG_CONFIGMAP, o, data));
	return bad ? -1 : 0;
}

/* ---- node labels ------------------------------------------------------------------- */

int emit_labels(const gs_plan *p, const gs_emit_opts *o, ebuf *b)
{
	eb_puts(b, "#!/bin/sh\n");
	eb_header(b, p, o, "Node labels that select each node's device-plugin config and MIG geometry.",
	          "NODE_1=<name> NODE_2=<name> ... sh labels.sh");
	eb_puts(b, "# Set NODE_<n> to the name of the node playing plan node <n>; the selector in\n"
	           "# each comment lists the candidates.\n"
	           "set -eu\n");
	for (size_t i = 0; i < p->n_nodes; i++) {
		const gs_plan_node *n = &p->nodes[i];
		char type[64];
		/* Only label values reach the script: no user text is executed. */
		gs_label_value(n->instance->type, type);
		eb_printf(b, "\n# node %zu: %s; kubectl get nodes -l 'node.kubernetes.io/instance-type=%s'\n",
		          i + 1, type, type);
		eb_printf(b, "kubectl label node \"${NODE_%zu:?set NODE_%zu to the name of a node of type %s}\" "
		             "'nvidia.com/device-plugin.config=%s' --overwrite\n",
		          i + 1, i + 1, type, n->config);
		if (n->mig_config)
			eb_printf(b, "kubectl label node \"$NODE_%zu\" 'nvidia.com/mig.config=%s' --overwrite\n",
			          i + 1, n->mig_config);
	}
	return 0;
}
