/*
 * lint_values.c - the containers of configs: ConfigMaps, whose data values
 * hold configs, and GPU Operator or device-plugin Helm values, which embed
 * them and name a default. The configs themselves go back to the
 * dispatcher through the context's `embedded` callback (see kit.h).
 *
 * Source: shared/reference/k8s-formats.md section 6 (GPU Operator values).
 */
#include <stdio.h>
#include <string.h>

#include "lint/kit.h"

/* ---- ConfigMaps and Helm values ------------------------------------------- */

static void embedded_map(lint_ctx *c, const gs_node *map, const char *path)
{
	char what[160];

	if (!gs_lint_is_map(map))
		return;
	for (size_t i = 0; i < map->n; i++) {
		snprintf(what, sizeof what, "%s key '%s'", path, map->keys[i]->text);
		c->embedded(c, map->keys[i], map->items[i], what);
	}
}

/* A `default` that must name a key of `data`. */
static void check_default(lint_ctx *c, const gs_node *def, const gs_node *data,
                          const char *path, const char *data_path)
{
	char names[256];
	size_t o = 0;

	if (!gs_lint_is_str(def) || !def->text[0] || !gs_lint_is_map(data) ||
	    gs_lint_find(data, def->text, NULL))
		return;
	names[0] = '\0';
	for (size_t i = 0; i < data->n && o < sizeof names - 1; i++)
		o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "",
		                      data->keys[i]->text);
	gs_lint_add(c, R_VALUES_DEFAULT, def,
	            "%s '%s' names no config of %s; write one of: %s", path, def->text, data_path,
	            names);
}

void gs_lint_helm_values(lint_ctx *c, const gs_node *root)
{
	const gs_node *dp = gs_lint_find(gs_lint_find(root, "devicePlugin", NULL), "config", NULL);
	const gs_node *mm = gs_lint_find(gs_lint_find(root, "migManager", NULL), "config", NULL);
	const gs_node *chart = gs_lint_find(root, "config", NULL), *def;

	if (gs_lint_is_map(dp)) {
		embedded_map(c, gs_lint_find(dp, "data", NULL), "devicePlugin.config.data");
		check_default(c, gs_lint_find(dp, "default", NULL), gs_lint_find(dp, "data", NULL),
		              "devicePlugin.config.default", "devicePlugin.config.data");
	}
	if (gs_lint_is_map(mm)) {
		embedded_map(c, gs_lint_find(mm, "data", NULL), "migManager.config.data");
		def = gs_lint_find(mm, "default", NULL);
		if (gs_lint_is_str(def) && def->text[0] && strcmp(def->text, "all-disabled") != 0)
			gs_lint_add(c, R_VALUES_DEFAULT, def,
			            "migManager.config.default is '%s', but the GPU Operator "
			            "accepts only all-disabled or empty; select configs with the "
			            "nvidia.com/mig.config node label", def->text);
	}
	if (gs_lint_is_map(chart) && gs_lint_find(chart, "map", NULL)) {
		embedded_map(c, gs_lint_find(chart, "map", NULL), "config.map");
		check_default(c, gs_lint_find(chart, "default", NULL),
		              gs_lint_find(chart, "map", NULL), "config.default", "config.map");
	}
}

void gs_lint_configmap(lint_ctx *c, const gs_node *obj)
{
	embedded_map(c, gs_lint_find(obj, "data", NULL), "data");
}
