/* cmd_plan.c - `gpushare plan FILE`: the cheapest deployable sharing plan. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { O_FORMAT, O_EMIT, O_FORCE, O_KARPENTER, O_REPORT, O_NODES, O_PODS, O_METRICS,
       O_PERCENTILE, O_TEAM_LABEL, O_RENAME, O_EXAMPLES, O_DRA, O_DRA_API, O_NAMESPACE,
       O_PROFILES, O_HELP };

#define MAX_METRICS 64

const cli_opt plan_opts[] = {
	[O_FORMAT] = CLI_OPT_FORMAT,
	[O_EMIT] = { "emit", 'e', "DIR", "write the plan's Kubernetes configuration into DIR" },
	[O_FORCE] = { "force", 'f', NULL, "with --emit, replace existing files" },
	[O_KARPENTER] = { "karpenter", 0, NULL, "with --emit, also write Karpenter NodePools" },
	[O_REPORT] = { "report", 'r', "FILE", "write the plan as one self-contained HTML page" },
	[O_NODES] = { "nodes", 0, "FILE", "plan a cluster: kubectl get nodes -o json (instead of FILE)" },
	[O_PODS] = { "pods", 0, "FILE", "with --nodes: kubectl get pods -A -o json" },
	[O_METRICS] = { "metrics", 0, "FILE", "with --nodes: dcgm-exporter scrape or range query (repeatable)" },
	[O_PERCENTILE] = { "percentile", 0, "N", "with --nodes: percentile of the metrics (default 95)" },
	[O_TEAM_LABEL] = { "team-label", 0, "KEY", "with --nodes: pod label naming the team (default: namespace)" },
	[O_RENAME] = CLI_OPT_RENAME,
	[O_EXAMPLES] = CLI_OPT_EXAMPLES,
	[O_DRA] = CLI_OPT_DRA,
	[O_DRA_API] = CLI_OPT_DRA_API,
	[O_NAMESPACE] = CLI_OPT_NAMESPACE,
	[O_PROFILES] = CLI_OPT_PROFILES,
	[O_HELP] = CLI_OPT_HELP,
	{ NULL, 0, NULL, NULL },
};

/* The HTML page, written like every other file: atomically. */
static int write_report(const gs_plan *plan, const char *title, const char *path, int force)
{
	char *html = NULL;
	gs_error err;
	int rc = EXIT_OK;
	if (gs_report_html(plan, title, &html, &err) < 0 ||
	    gs_write_file(path, html, strlen(html), !force, &err) < 0)
		rc = cli_fail(&err);
	else
		cli_info("wrote the report to %s", path);
	free(html);
	return rc;
}

/* The scenario of a cluster: what gpushare import reads, compared with
 * what the cluster costs today. */
static int import_scenario(const gs_catalog *cat, const gs_import_opts *io, gs_scenario **scn,
                           gs_error *err)
{
	gs_inventory *inv = NULL;
	int rc = gs_import_load(cat, io, &inv, err);
	if (rc == 0)
		rc = gs_import_scenario(inv, scn, err);
	if (rc == 0) {
		char name[512];
		snprintf(name, sizeof name, "the cluster in %s", io->nodes);
		rc = gs_scenario_set_file(*scn, name, err);
	}
	gs_import_free(inv);
	return rc;
}

int cmd_plan(const cli_cmd *self, int argc, char **argv)
{
	gs_import_opts io = GS_IMPORT_OPTS_INIT;
	const char *metrics[MAX_METRICS];
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_emit_opts eo = GS_EMIT_OPTS_INIT;
	const char *profiles = NULL, *emit_dir = NULL, *report = NULL;
	int force = 0, karpenter = 0;
	gs_scenario *scn = NULL;
	gs_catalog *cat = NULL;
	gs_plan *plan = NULL;
	int fmt = FMT_TEXT, opt, rc;
	gs_error err;
	cli_parser p;

	cli_parse_begin(&p, self, argc, argv);
	while ((opt = cli_next(&p)) >= 0) {
		rc = 0;
		if (opt == O_FORMAT)
			rc = cli_parse_format(self, p.arg, &fmt);
		else if (opt == O_PROFILES)
			profiles = p.arg;
		else if (opt == O_EMIT)
			emit_dir = p.arg;
		else if (opt == O_FORCE)
			force = 1;
		else if (opt == O_KARPENTER)
			karpenter = 1;
		else if (opt == O_REPORT)
			report = p.arg;
		else if (opt == O_NODES)
			io.nodes = p.arg;
		else if (opt == O_PODS)
			io.pods = p.arg;
		else if (opt == O_METRICS && io.n_metrics == MAX_METRICS)
			rc = cli_usage_error(self, "at most %d --metrics files", MAX_METRICS);
		else if (opt == O_METRICS)
			metrics[io.n_metrics++] = p.arg;
		else if (opt == O_PERCENTILE)
			rc = cli_parse_int(self, "percentile", p.arg, 1, 100, &io.percentile);
		else if (opt == O_TEAM_LABEL)
			io.team_label = p.arg;
		else
			rc = cli_emit_option(self, O_RENAME, opt, p.arg, &eo);
		if (rc)
			return rc;
	}
	if (opt == CLI_EXIT)
		return p.status;
	io.metrics = metrics;
	if (!io.nodes != !io.pods)
		return cli_usage_error(self, "--nodes and --pods go together");
	if (io.nodes && p.optind < argc)
		return cli_usage_error(self, "give a workload FILE or --nodes and --pods, not both");
	if (!io.nodes && p.optind >= argc)
		return cli_usage_error(self, "a workload file (or --nodes and --pods) is required");
	if (argc - p.optind > 1)
		return cli_usage_error(self, "unexpected argument '%s'", argv[p.optind + 1]);
	if ((rc = cli_load_catalog(profiles, &cat)) != EXIT_OK)
		return rc;
	if ((io.nodes ? import_scenario(cat, &io, &scn, &err)
	              : gs_scenario_load(cat, argv[p.optind], &scn, &err)) < 0 ||
	    gs_plan_make(scn, &po, &plan, &err) < 0) {
		rc = cli_fail(&err);
	} else {
		eo.source = io.nodes ? io.nodes : argv[p.optind];
		rc = emit_dir ? cli_emit_dir(plan, &eo, emit_dir, karpenter, force) : EXIT_OK;
		if (rc == EXIT_OK && report)
			rc = write_report(plan, eo.source, report, force);
		if (rc == EXIT_OK)
			rc = cli_plan_print(plan, scn, fmt);
	}
	gs_plan_free(plan);
	gs_scenario_free(scn);
	gs_catalog_free(cat);
	return rc;
}
