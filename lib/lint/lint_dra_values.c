/*
 * lint_dra_values.c - Helm values of NVIDIA's DRA driver for GPUs (the
 * nvidia-dra-driver-gpu chart; what `plan --emit` writes as
 * dra-driver-values.yaml). Only what is cheap and certain: the switches
 * the chart tests are booleans, the chart's guard that the GPU kubelet
 * plugin needs gpuResourcesEnabledOverride, feature gates misspelt or not
 * booleans, and gates that exclude each other. The gates it turns on are
 * noted, so that a claim's sharing strategy whose gate they enable is not
 * reported (dra-feature-gate, see lint.c's gs_lint_finish).
 *
 * Source: shared/reference/k8s-formats.md section 3.3 (the gates, their
 * Helm value featureGates: {Name: true}, DynamicMIG excluding MPSSupport,
 * PassthroughSupport and NVMLDeviceHealthCheck; the chart's validation.yaml
 * fails with resources.gpus.enabled, the default, unless
 * gpuResourcesEnabledOverride is true).
 */
#include <stdio.h>
#include <string.h>

#include "lint/kit.h"

/* The gates of the driver (pkg/featuregates/featuregates.go) and the two
 * that Kubernetes' feature-gate library adds. A name outside this list may
 * be a newer gate, so only a near miss of one of these is reported. */
static const char *const gates[] = {
	"TimeSlicingSettings", "MPSSupport", "DynamicMIG", "PassthroughSupport",
	"ConsumableShares", "DRAListTypeAttributes", "IMEXDaemonsWithDNSNames",
	"ComputeDomainCliques", "CrashOnNVLinkFabricErrors", "NVMLDeviceHealthCheck",
	"DeviceMetadata", "FabricManagerPartitioning", "HostManagedIMEXDaemon",
	"AllAlpha", "AllBeta",
};
/* Gates DynamicMIG cannot be on with. */
static const char *const not_with_dynamic_mig[] = { "MPSSupport", "PassthroughSupport",
	                                            "NVMLDeviceHealthCheck" };

static int known_gate(const char *name)
{
	for (size_t i = 0; i < GS_ARRAY_LEN(gates); i++)
		if (strcmp(gates[i], name) == 0)
			return 1;
	return 0;
}

/* A value the chart's templates test with `if`: a string "false" is true
 * there, so anything but a boolean is a mistake. Returns the boolean, or
 * def when absent or not one. */
static int switch_value(lint_ctx *c, const gs_node *v, const char *path, int def)
{
	int b;
	char q[64];

	if (!v || v->kind == GS_NODE_NULL)
		return def;
	if (gs_lint_bool(v, &b))
		return b;
	gs_lint_add(c, R_DRA_VALUES_TYPE, v,
	            "%s is %s%s%s, but the chart tests it as a boolean (a string like "
	            "\"false\" counts as true); write true or false", path,
	            gs_lint_is_str(v) ? "'" : "",
	            gs_lint_is_str(v) ? gs_lint_quote(v, q, sizeof q) : gs_lint_kind_name(v),
	            gs_lint_is_str(v) ? "'" : "");
	return def;
}

static int gate_on(const gs_node *fg, const char *name)
{
	int b = 0;
	return gs_lint_bool(gs_lint_find(fg, name, NULL), &b) && b;
}

static void check_gates(lint_ctx *c, const gs_node *fg)
{
	char path[96];

	if (!fg || fg->kind == GS_NODE_NULL)
		return;
	if (!gs_lint_is_map(fg)) {
		gs_lint_add(c, R_DRA_VALUES_GATE, fg,
		            "featureGates must be a mapping like {TimeSlicingSettings: true}, "
		            "not %s", gs_lint_kind_name(fg));
		return;
	}
	for (size_t i = 0; i < fg->n; i++) {
		const gs_node *key = fg->keys[i], *v = fg->items[i];
		const char *near;
		int b;

		if (!known_gate(key->text) &&
		    (near = gs_suggest(key->text, gates, GS_ARRAY_LEN(gates)))) {
			gs_lint_add(c, R_DRA_VALUES_GATE, key,
			            "feature gate '%s' is not known to the DRA driver, which "
			            "refuses to start (\"unrecognized feature gate\"); write '%s'",
			            key->text, near);
			continue;
		}
		if (!gs_lint_bool(v, &b)) {
			snprintf(path, sizeof path, "featureGates.%s", key->text);
			gs_lint_add(c, R_DRA_VALUES_GATE, gs_lint_at_or(v, key),
			            "%s must be true or false: the driver refuses any other "
			            "value", path);
			continue;
		}
		if (b)
			gs_lint_noted(c, gs_facts_gate(c->facts, key->text, gs_lint_where(c, key)));
	}
	if (!gate_on(fg, "DynamicMIG"))
		return;
	for (size_t i = 0; i < GS_ARRAY_LEN(not_with_dynamic_mig); i++) {
		gs_node *key = NULL;
		if (gate_on(fg, not_with_dynamic_mig[i]) &&
		    gs_lint_find(fg, not_with_dynamic_mig[i], &key))
			gs_lint_add(c, R_DRA_VALUES_GATE, key,
			            "feature gate %s cannot be on with DynamicMIG: the driver "
			            "refuses to start; turn one of them off", key->text);
	}
}

void gs_lint_dra_values(lint_ctx *c, const gs_node *root)
{
	const gs_node *res = gs_lint_find(root, "resources", NULL);
	const gs_node *gpus = gs_lint_find(res, "gpus", NULL);
	const gs_node *cd = gs_lint_find(res, "computeDomains", NULL);
	const gs_node *wh = gs_lint_find(root, "webhook", NULL);
	gs_node *okey = NULL;
	const gs_node *over = gs_lint_find(root, "gpuResourcesEnabledOverride", &okey);
	int gpus_on, override;

	c->configs++;
	c->facts->dra_values++;
	gpus_on = switch_value(c, gs_lint_find(gpus, "enabled", NULL),
	                       "resources.gpus.enabled", 1);
	switch_value(c, gs_lint_find(cd, "enabled", NULL), "resources.computeDomains.enabled",
	             1);
	switch_value(c, gs_lint_find(wh, "enabled", NULL), "webhook.enabled", 0);
	override = switch_value(c, over, "gpuResourcesEnabledOverride", 0);
	if (gpus_on && !override)
		gs_lint_add(c, R_DRA_VALUES_OVERRIDE,
		            okey ? okey : gs_lint_at_or(gs_lint_find(gpus, "enabled", NULL), NULL),
		            "resources.gpus.enabled is %s, but gpuResourcesEnabledOverride is "
		            "not true, so the chart refuses to install (the GPU kubelet plugin "
		            "must not run beside the device plugin); turn the device plugin off "
		            "and write 'gpuResourcesEnabledOverride: true'",
		            gs_lint_find(gpus, "enabled", NULL) ? "true" : "true by default");
	check_gates(c, gs_lint_find(root, "featureGates", NULL));
}

/* A tree is DRA driver values when it has the chart's own keys and none
 * of a device-plugin config's. */
int gs_lint_is_dra_values(const gs_node *root)
{
	const gs_node *res = gs_lint_find(root, "resources", NULL);
	const gs_node *gpus = gs_lint_find(res, "gpus", NULL);

	if (gs_lint_find_ci(root, "sharing", NULL) || gs_lint_find_ci(root, "flags", NULL) ||
	    gs_lint_find(root, "version", NULL))
		return 0;
	return gs_lint_find(root, "gpuResourcesEnabledOverride", NULL) ||
	       gs_lint_find(root, "featureGates", NULL) ||
	       gs_lint_is_map(gs_lint_find(res, "computeDomains", NULL)) ||
	       (gs_lint_is_map(gpus) && gs_lint_find(gpus, "enabled", NULL));
}
