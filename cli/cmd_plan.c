/* cmd_plan.c - `gpushare plan FILE`: the cheapest deployable sharing plan. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct plan_args {
	cli_cluster cl;      /* first: with --nodes, a cluster instead of FILE */
	gs_emit_opts eo;     /* with --emit */
	const char *emit_dir, *report, *profiles;
	int fmt, force, karpenter;
	const char *placement;
	int time_limit;      /* seconds; 0: the library's default */
	int threads;         /* 0: the library's default */
} plan_args;

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
	CLI_OPTS_CLUSTER(plan_args, cl),
	{ CLI_ROW_PLACEMENT, CLI_STR(plan_args, placement) },
	{ "time-limit", 0, "SECONDS", "stop the optimiser after SECONDS (default 60), keeping "
	  "its best plan", CLI_INT(plan_args, time_limit, 1, 3600) },
	{ "threads", 0, "N", "plan on at most N threads (default 2; the plan is the same)",
	  CLI_INT(plan_args, threads, 1, 1024) },
	CLI_OPTS_EMIT(plan_args, eo),
	{ CLI_ROW_PROFILES, CLI_STR(plan_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static int write_report(const gs_plan *plan, const char *title, const char *path, int force)
{
	char *html = NULL;
	gs_error err;
	if (gs_report_html(plan, title, &html, &err) < 0)
		return cli_fail(&err);
	return cli_write_page(path, html, force);
}

/* The scenario of a cluster: what gpushare import reads, compared with
 * what the cluster costs today. */
static int import_scenario(const gs_catalog *cat, const cli_cluster *cl, gs_scenario **scn)
{
	gs_inventory *inv = NULL;
	gs_error err;
	int rc = cli_cluster_load(cl, cat, &inv);
	/* What the import had to assume is part of the plan's input. */
	for (size_t i = 0; rc == EXIT_OK && i < gs_import_warning_count(inv); i++)
		cli_warning("%s", gs_import_warning_at(inv, i));
	if (rc == EXIT_OK) {
		char name[512];
		snprintf(name, sizeof name, "the cluster in %s", cli_cluster_name(cl));
		if (gs_import_scenario(inv, scn, &err) < 0 ||
		    gs_scenario_set_file(*scn, name, &err) < 0)
			rc = cli_fail(&err);
	}
	gs_import_free(inv);
	return rc;
}

/* A workload FILE, or --nodes and --pods; returns 0 or EXIT_USAGE. */
static int check_input(const cli_cmd *self, const plan_args *a, int argc, char **argv,
                       int first)
{
	if (!a->cl.n_nodes != !a->cl.n_pods)
		return cli_usage_error(self, "--nodes and --pods go together");
	if (cli_cluster_given(&a->cl) && cli_cluster_check(self, &a->cl) >= 0)
		return EXIT_USAGE;
	if (cli_cluster_given(&a->cl) && first < argc)
		return cli_usage_error(self, "give a workload FILE or a cluster (--nodes and "
		                             "--pods, or --context), not both");
	if (!cli_cluster_given(&a->cl) && first >= argc)
		return cli_usage_error(self, "a workload file (or --nodes and --pods, or "
		                             "--context) is required");
	if (argc - first > 1)
		return cli_usage_error(self, "unexpected argument '%s'", argv[first + 1]);
	return 0;
}

/* Writes what --emit and --report ask for, then prints the plan. A
 * document alone is written while the planner's second thread finishes
 * the figures it ends with (gs_plan_opts.finish_later); the rest reads
 * them first. */
static int output(gs_plan *plan, const gs_scenario *scn, const plan_args *a)
{
	int rc = EXIT_OK;
	gs_error err;
	if ((a->emit_dir || a->report || a->fmt == FMT_TEXT) && gs_plan_finish(plan, &err) < 0)
		return cli_fail(&err);
	if (a->emit_dir)
		rc = cli_emit_dir(plan, &a->eo, a->emit_dir, a->karpenter, a->force);
	if (rc == EXIT_OK && a->report)
		rc = write_report(plan, a->eo.source, a->report, a->force);
	if (rc == EXIT_OK)
		rc = cli_plan_print(plan, scn, a->fmt);
	return rc;
}

static int run(const cli_cmd *self, int argc, char **argv, plan_args *a);

int cmd_plan(const cli_cmd *self, int argc, char **argv)
{
	plan_args a = { .eo = GS_EMIT_OPTS_INIT, .fmt = FMT_TEXT };
	int rc = cli_cluster_init(&a.cl, argc);
	if (rc == 0)
		rc = run(self, argc, argv, &a);
	cli_cluster_free(&a.cl);
	return rc;
}

static int run(const cli_cmd *self, int argc, char **argv, plan_args *ap)
{
	plan_args a = *ap;
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_scenario *scn = NULL;
	gs_catalog *cat = NULL;
	gs_plan *plan = NULL;
	int first, rc;
	gs_error err;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	if ((rc = check_input(self, &a, argc, argv, first)) != 0)
		return rc;
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	po.time_limit_ms = (unsigned)a.time_limit * 1000u;
	po.threads = (unsigned)a.threads;
	po.finish_later = 1;
	if (cli_cluster_given(&a.cl) && (rc = import_scenario(cat, &a.cl, &scn)) != EXIT_OK) {
		gs_catalog_free(cat);
		return rc;
	}
	if ((!scn && gs_scenario_load(cat, argv[first], &scn, &err) < 0) ||
	    cli_set_placement(scn, a.placement, &err) < 0 ||
	    gs_plan_make(scn, &po, &plan, &err) < 0) {
		rc = cli_fail(&err);
	} else {
		a.eo.source = cli_cluster_given(&a.cl) ? cli_cluster_name(&a.cl) : argv[first];
		rc = output(plan, scn, &a);
	}
	gs_plan_free(plan);
	gs_scenario_free(scn);
	gs_catalog_free(cat);
	return rc;
}
