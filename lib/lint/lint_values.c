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

/* Notes a default (and, with chart, the chart's fallbacks: a key named
 * default, or the only key) for the cross-file rules. */
static void note_default(lint_ctx *c, const gs_node *def, const gs_node *data, int chart)
{
	lint_use use = chart ? USE_CHART : USE_DEFAULT;

	if (gs_lint_is_map(data))
		use = USE_DEFAULT_INLINE; /* checked against data by values-default */
	if (gs_lint_is_str(def) && def->text[0]) {
		gs_lint_noted(c, gs_facts_label(c->facts, def->text, use, gs_lint_where(c, def)));
		return;
	}
	if (!chart || !gs_lint_is_map(data))
		return;
	if (gs_lint_find(data, "default", NULL))
		gs_lint_noted(c, gs_facts_label(c->facts, "default", USE_DEFAULT_INLINE,
		                                gs_lint_where(c, data)));
	else if (data->n == 1)
		gs_lint_noted(c, gs_facts_label(c->facts, data->keys[0]->text, USE_DEFAULT_INLINE,
		                                gs_lint_where(c, data)));
}

/* GPU Operator devicePlugin.config: its configs, default and ConfigMap. */
static void operator_dp(lint_ctx *c, const gs_node *dp)
{
	const gs_node *data = gs_lint_find(dp, "data", NULL);
	const gs_node *name = gs_lint_find(dp, "name", NULL);
	lint_ctx sub = *c;

	c->facts->operator_values = 1;
	if (gs_lint_is_str(name) && name->text[0]) {
		sub.cfg_holder = name->text;
		if (!gs_lint_is_map(data))
			gs_lint_noted(c, gs_facts_cmref(c->facts, name->text,
			                                gs_lint_where(c, name)));
	}
	embedded_map(&sub, data, "devicePlugin.config.data");
	c->configs = sub.configs;
	c->nomem |= sub.nomem;
	check_default(c, gs_lint_find(dp, "default", NULL), data, "devicePlugin.config.default",
	              "devicePlugin.config.data");
	note_default(c, gs_lint_find(dp, "default", NULL), data, 0);
}

/* The standalone chart's config.map and config.default. */
static void chart_map(lint_ctx *c, const gs_node *chart)
{
	const gs_node *map = gs_lint_find(chart, "map", NULL);
	const gs_node *def = gs_lint_find(chart, "default", NULL);
	lint_ctx sub = *c;

	sub.cfg_chart = 1;
	embedded_map(&sub, map, "config.map");
	c->configs = sub.configs;
	c->nomem |= sub.nomem;
	check_default(c, def, map, "config.default", "config.map");
	note_default(c, def, map, 1);
}

void gs_lint_helm_values(lint_ctx *c, const gs_node *root)
{
	const gs_node *dp = gs_lint_find(gs_lint_find(root, "devicePlugin", NULL), "config", NULL);
	const gs_node *mm = gs_lint_find(gs_lint_find(root, "migManager", NULL), "config", NULL);
	const gs_node *chart = gs_lint_find(root, "config", NULL), *def;

	if (gs_lint_is_map(dp))
		operator_dp(c, dp);
	if (gs_lint_is_map(mm)) {
		embedded_map(c, gs_lint_find(mm, "data", NULL), "migManager.config.data");
		def = gs_lint_find(mm, "default", NULL);
		if (gs_lint_is_str(def) && def->text[0] && strcmp(def->text, "all-disabled") != 0)
			gs_lint_add(c, R_VALUES_DEFAULT, def,
			            "migManager.config.default is '%s', but the GPU Operator "
			            "accepts only all-disabled or empty; select configs with the "
			            "nvidia.com/mig.config node label", def->text);
	}
	if (gs_lint_is_map(chart) && gs_lint_find(chart, "map", NULL))
		chart_map(c, chart);
}

void gs_lint_configmap(lint_ctx *c, const gs_node *obj)
{
	const gs_node *name = gs_lint_find(gs_lint_find(obj, "metadata", NULL), "name", NULL);
	lint_ctx sub = *c;

	sub.cfg_holder = gs_lint_is_str(name) ? name->text : NULL;
	embedded_map(&sub, gs_lint_find(obj, "data", NULL), "data");
	c->configs = sub.configs;
	c->nomem |= sub.nomem;
}
