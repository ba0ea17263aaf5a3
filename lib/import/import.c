/*
 * import.c - a cluster as gpushare sees it: GPU nodes from kubectl's node
 * list (nodes.c), workloads from its pod list (pods.c), and their DCGM
 * samples reduced to a percentile per workload and per GPU (measure.c).
 * Nothing is guessed: an unknown GPU product is an error, a missing price
 * or metric is reported as missing. This file only runs the readers in
 * order; the inventory they fill, and the helpers they share, are
 * inventory.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

/* After the last sample: names, then what the samples say, then totals. */
static int finish(gs_inventory *inv)
{
	int rc = gs_import_name_workloads(inv);
	inv->sum.cloud = NULL;
	for (size_t i = 0; i < inv->n_nodes; i++) {
		const gs_instance *in = inv->nodes[i].pub.instance;
		gs_import_measure_node(inv, &inv->nodes[i]);
		if (in && (!inv->sum.cloud || strcmp(inv->sum.cloud, in->cloud) == 0))
			inv->sum.cloud = in->cloud;
		else if (in)
			inv->sum.cloud = "all";
	}
	if (!inv->sum.cloud)
		inv->sum.cloud = "all";
	for (size_t i = 0; i < inv->n_wls && rc == 0; i++)
		rc = gs_import_measure_workload(inv, &inv->wls[i]);
	inv->sum.nodes = (int)inv->n_nodes;
	inv->sum.pods = (int)inv->n_pods;
	inv->sum.workloads = (int)inv->n_wls;
	inv->sum.percentile = inv->percentile;
	inv->sum.hours_per_month = GS_HOURS_PER_MONTH;
	return rc;
}

/* One import, its readers in order: the pods are placed on the nodes read
 * before them, and the samples attributed to both. */
static int import_once(const gs_catalog *cat, const gs_import_opts *opts,
                       int yaml_only, gs_inventory **out, gs_error *err)
{
	gs_inventory *inv;
	int rc;

	if (!opts->nodes || !opts->pods)
		return gs_fail(err, GS_EINVAL, "both a node list and a pod list are needed");
	if (opts->percentile < 1 || opts->percentile > 100)
		return gs_fail(err, GS_EINVAL, "the percentile must be from 1 to 100, not %d",
		               opts->percentile);
	if (!(inv = calloc(1, sizeof *inv)))
		return gs_fail_nomem(err);
	inv->cat = cat;
	inv->err = err;
	inv->yaml_only = yaml_only;
	inv->team_label = opts->team_label;
	inv->percentile = opts->percentile;
	rc = gs_import_read_nodes(inv, opts->nodes);
	if (rc == 0)
		rc = gs_import_read_pods(inv, opts->pods);
	for (size_t i = 0; rc == 0 && i < opts->n_metrics; i++)
		rc = gs_import_read_metrics(inv, opts->metrics[i]);
	if (rc == 0)
		rc = finish(inv);
	inv->err = NULL;
	inv->team_label = NULL;
	if (rc < 0) {
		gs_import_free(inv);
		return rc;
	}
	*out = inv;
	return 0;
}

/* cJSON keeps no positions, so an import that fails without one is run
 * again with the YAML reader alone, which locates the same error. Only
 * failures pay for the second pass. */
int gs_import_load(const gs_catalog *cat, const gs_import_opts *opts,
                   gs_inventory **out, gs_error *err)
{
	gs_error first, second;
	int rc = gs_check_version(opts->version, GS_IMPORT_OPTS_VERSION, "gs_import_opts", err);
	if (rc < 0)
		return rc;
	rc = import_once(cat, opts, 0, out, &first);
	if (rc == 0)
		return 0;
	if (!first.line && first.file[0]) {
		int rc2 = import_once(cat, opts, 1, out, &second);
		if (rc2 == 0)
			return 0; /* the readers disagree; the YAML reader's answer stands */
		if (second.line)
			first = second;
	}
	if (err)
		*err = first;
	return rc;
}
