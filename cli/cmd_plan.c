/* cmd_plan.c - `gpushare plan FILE`: the cheapest deployable sharing plan. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_METRICS 64

typedef struct plan_args {
	gs_import_opts io;   /* with --nodes */
	const char *metrics[MAX_METRICS];
	gs_emit_opts eo;     /* with --emit */
	const char *emit_dir, *report, *profiles;
	int fmt, force, karpenter;
	const char *placement;
} plan_args;

static int add_metrics(const cli_cmd *self, void *args, const char *file)
{
	plan_args *a = args;
	if (a->io.n_metrics == MAX_METRICS)
		return cli_usage_error(self, "at most %d --metrics files", MAX_METRICS);
	a->metrics[a->io.n_metrics++] = file;
	return 0;
}

/* The seven emitting options stay together and in this order: the REPL
 * tells them apart by their distance from --rename-shared
 * (cli_emit_option). */
const cli_opt plan_opts[] = {
	{ CLI_ROW_FORMAT, CLI_ENUM(plan_args, fmt, cli_formats) },
	{ "emit", 'e', "DIR", "write the plan's Kubernetes configuration into DIR",
	  CLI_STR(plan_args, emit_dir) },
	{ "force", 'f', NULL, "with --emit, replace existing files",
	  CLI_FLAG(plan_args, force) },
	{ "karpenter", 0, NULL, "with --emit, also write Karpenter NodePools",
	  CLI_FLAG(plan_args, karpenter) },
	{ "report", 'r', "FILE", "write the plan as one self-contained HTML page",
	  CLI_STR(plan_args, report) },
	{ "nodes", 0, "FILE", "plan a cluster: kubectl get nodes -o json (instead of FILE)",
	  CLI_STR(plan_args, io.nodes) },
	{ "pods", 0, "FILE", "with --nodes: kubectl get pods -A -o json",
	  CLI_STR(plan_args, io.pods) },
	{ "metrics", 0, "FILE",
	  "with --nodes: dcgm-exporter scrape or range query (repeatable)",
	  CLI_CALL(add_metrics) },
	{ "percentile", 0, "N", "with --nodes: percentile of the metrics (default 95)",
	  CLI_INT(plan_args, io.percentile, 1, 100) },
	{ "team-label", 0, "KEY",
	  "with --nodes: pod label naming the team (default: namespace)",
	  CLI_STR(plan_args, io.team_label) },
	{ CLI_ROW_PLACEMENT, CLI_STR(plan_args, placement) },
	CLI_OPTS_EMIT(plan_args, eo),
	{ CLI_ROW_PROFILES, CLI_STR(plan_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
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

/* A workload FILE, or --nodes and --pods; returns 0 or EXIT_USAGE. */
static int check_input(const cli_cmd *self, const plan_args *a, int argc, char **argv,
                       int first)
{
	if (!a->io.nodes != !a->io.pods)
		return cli_usage_error(self, "--nodes and --pods go together");
	if (a->io.nodes && first < argc)
		return cli_usage_error(self,
		                       "give a workload FILE or --nodes and --pods, not both");
	if (!a->io.nodes && first >= argc)
		return cli_usage_error(self, "a workload file (or --nodes and --pods) is required");
	if (argc - first > 1)
		return cli_usage_error(self, "unexpected argument '%s'", argv[first + 1]);
	return 0;
}

/* Writes what --emit and --report ask for, then prints the plan. */
static int output(const gs_plan *plan, const gs_scenario *scn, const plan_args *a)
{
	int rc = EXIT_OK;
	if (a->emit_dir)
		rc = cli_emit_dir(plan, &a->eo, a->emit_dir, a->karpenter, a->force);
	if (rc == EXIT_OK && a->report)
		rc = write_report(plan, a->eo.source, a->report, a->force);
	if (rc == EXIT_OK)
		rc = cli_plan_print(plan, scn, a->fmt);
	return rc;
}

int cmd_plan(const cli_cmd *self, int argc, char **argv)
{
	plan_args a = { .io = GS_IMPORT_OPTS_INIT, .eo = GS_EMIT_OPTS_INIT, .fmt = FMT_TEXT };
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_scenario *scn = NULL;
	gs_catalog *cat = NULL;
	gs_plan *plan = NULL;
	int first, rc;
	gs_error err;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	a.io.metrics = a.metrics;
	if ((rc = check_input(self, &a, argc, argv, first)) != 0)
		return rc;
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	if ((a.io.nodes ? import_scenario(cat, &a.io, &scn, &err)
	                : gs_scenario_load(cat, argv[first], &scn, &err)) < 0 ||
	    cli_set_placement(scn, a.placement, &err) < 0 ||
	    gs_plan_make(scn, &po, &plan, &err) < 0) {
		rc = cli_fail(&err);
	} else {
		a.eo.source = a.io.nodes ? a.io.nodes : argv[first];
		rc = output(plan, scn, &a);
	}
	gs_plan_free(plan);
	gs_scenario_free(scn);
	gs_catalog_free(cat);
	return rc;
}
