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
	int rc = gs_import_warn_duplicates(inv);
	if (rc == 0)
		rc = gs_import_name_workloads(inv);
	if (rc == 0)
		rc = gs_import_share(inv);
	if (rc < 0)
		return rc;
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

/* Where a builder is: the kind it reads next, or done. */
enum { PH_NODES, PH_PODS, PH_METRICS, PH_ENDED, PH_BROKEN };

int gs_import_begin(const gs_catalog *cat, const gs_import_opts *opts,
                    gs_inventory **out, gs_error *err)
{
	gs_inventory *inv;
	int rc = gs_check_version(opts->version, GS_IMPORT_OPTS_VERSION, "gs_import_opts", err);

	if (rc < 0)
		return rc;
	if (opts->percentile < 1 || opts->percentile > 100)
		return gs_fail(err, GS_EINVAL, "the percentile must be from 1 to 100, not %d",
		               opts->percentile);
	if (!(inv = calloc(1, sizeof *inv)))
		return gs_fail_nomem(err);
	inv->cat = cat;
	inv->team_label = opts->team_label;
	inv->percentile = opts->percentile;
	inv->strict = opts->strict;
	*out = inv;
	return 0;
}

static const char *const kind_names[] = { "node list", "pod list", "metrics",
	                                       "resource claim list" };

/* Node lists come first, then pod lists (their pods are placed on the
 * nodes), then metrics (attributed to both); claims (which name pods)
 * after the pod lists, before or after metrics. */
static int in_order(gs_inventory *inv, gs_import_input what, gs_error *err)
{
	if (inv->phase == PH_BROKEN)
		return gs_fail(err, GS_EINVAL, "the import failed before: free it");
	if (inv->phase == PH_ENDED)
		return gs_fail(err, GS_EINVAL, "the import has ended");
	if ((int)what < inv->phase)
		return gs_fail(err, GS_EINVAL, "a %s is read before any %s",
		               kind_names[what], kind_names[inv->phase]);
	if (what == GS_INPUT_METRICS && inv->phase == PH_NODES)
		return gs_fail(err, GS_EINVAL, "metrics are read after the pod lists");
	if (what == GS_INPUT_CLAIMS && inv->phase == PH_NODES)
		return gs_fail(err, GS_EINVAL, "resource claims are read after the pod lists");
	return 0;
}

int gs_import_read(gs_inventory *inv, gs_import_input what, const gs_source *src,
                   gs_error *err)
{
	int rc;
	if ((unsigned)what > GS_INPUT_CLAIMS)
		return gs_fail(err, GS_EINVAL, "unknown import input %d", (int)what);
	if ((rc = in_order(inv, what, err)) < 0)
		return rc;
	if (what != GS_INPUT_CLAIMS) /* claims go beside metrics, in either order */
		inv->phase = (int)what;
	inv->err = err;
	rc = what == GS_INPUT_NODES     ? gs_import_read_nodes(inv, src)
	     : what == GS_INPUT_PODS    ? gs_import_read_pods(inv, src)
	     : what == GS_INPUT_CLAIMS  ? gs_import_read_claims(inv, src)
	                                : gs_import_read_metrics(inv, src);
	inv->err = NULL;
	if (rc < 0)
		inv->phase = PH_BROKEN;
	return rc;
}

int gs_import_end(gs_inventory *inv, gs_error *err)
{
	int rc = inv->phase == PH_BROKEN || inv->phase == PH_ENDED
	                 ? gs_fail(err, GS_EINVAL, "the import has ended or failed")
	         : inv->phase == PH_NODES ? gs_fail(err, GS_EINVAL, "a node list and a pod "
	                                                            "list are needed")
	                                  : 0;
	if (rc < 0)
		return rc;
	inv->err = err;
	rc = finish(inv);
	inv->err = NULL;
	inv->team_label = NULL;
	inv->phase = rc < 0 ? PH_BROKEN : PH_ENDED;
	return rc;
}

/* A path as a source: "-" is the caller's stdin. */
static int read_path(gs_inventory *inv, gs_import_input what, const char *path,
                     gs_error *err)
{
	gs_source src;
	int rc = strcmp(path, "-") == 0 ? gs_source_open_fd(&src, 0, "<stdin>", err)
	                                : gs_source_open_file(&src, path, err);
	if (rc == 0)
		rc = gs_import_read(inv, what, &src, err);
	gs_source_close(&src);
	return rc;
}

/* The files opts names through the builder, in order. Errors carry their
 * place in the file: the list reader locates those inside an item itself
 * (kube_list.h), so a pipe or stdin is read once, like a file. */
int gs_import_load(const gs_catalog *cat, const gs_import_opts *opts,
                   gs_inventory **out, gs_error *err)
{
	gs_inventory *inv = NULL;
	int rc = gs_check_version(opts->version, GS_IMPORT_OPTS_VERSION, "gs_import_opts", err);

	if (rc < 0)
		return rc;
	if (!opts->nodes || !opts->pods)
		return gs_fail(err, GS_EINVAL, "both a node list and a pod list are needed");
	if ((rc = gs_import_begin(cat, opts, &inv, err)) < 0)
		return rc;
	rc = read_path(inv, GS_INPUT_NODES, opts->nodes, err);
	if (rc == 0)
		rc = read_path(inv, GS_INPUT_PODS, opts->pods, err);
	for (size_t i = 0; rc == 0 && i < opts->n_metrics; i++)
		rc = read_path(inv, GS_INPUT_METRICS, opts->metrics[i], err);
	if (rc == 0)
		rc = gs_import_end(inv, err);
	if (rc < 0) {
		gs_import_free(inv);
		return rc;
	}
	*out = inv;
	return 0;
}
