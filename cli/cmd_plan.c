/* cmd_plan.c - `gpushare plan FILE`: the cheapest deployable sharing plan. */
#include <stdarg.h>
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

static void pct(char *buf, size_t n, int permille)
{
	int a = permille < 0 ? -permille : permille;
	snprintf(buf, n, "%s%d.%d%%", permille < 0 ? "-" : "", a / 10, a % 10);
}

static void print_summary(const gs_plan_summary *s, const char *file, size_t nw)
{
	char a[32], b[32], c[32], d[32];
	int h = s->hours_per_month;

	printf("Plan for %s:\n%zu workload%s, %d replica%s, %s prices\n\n", file, nw,
	       nw == 1 ? "" : "s", s->replicas, s->replicas == 1 ? "" : "s",
	       gs_pricing_name(s->pricing));
	printf("%-14s %14s %14s %14s\n", "", "before", "after", "saved");
	pct(d, sizeof d, s->savings_permille);
	printf("%-14s %14s %14s %14s  %s\n", "per hour",
	       cli_money(s->before_per_hour, a, sizeof a), cli_money(s->after_per_hour, b, sizeof b),
	       cli_money(s->savings_per_hour, c, sizeof c), d);
	printf("%-14s %14s %14s %14s\n", "per month",
	       cli_money(s->before_per_hour * h, a, sizeof a),
	       cli_money(s->after_per_hour * h, b, sizeof b),
	       cli_money(s->savings_per_hour * h, c, sizeof c));
	printf("%-14s %14d %14d\n", "GPUs", s->gpus_before, s->gpus_after);
	printf("%-14s %14d %14d\n", "instances", s->instances_before, s->instances_after);
	pct(a, sizeof a, s->util_before_permille);
	pct(b, sizeof b, s->util_after_permille);
	printf("%-14s %14s %14s\n", "utilization", a, b);
	if (s->current_per_hour >= 0)
		printf("%-14s %14s (what they run on today)\n", "current",
		       cli_money(s->current_per_hour, d, sizeof d));
}

static void print_workloads(const gs_plan *p)
{
	printf("\n%-24s %-13s %4s %10s\n", "WORKLOAD", "STRATEGY", "REPL", "COST/H");
	for (size_t i = 0; i < gs_plan_workload_count(p); i++) {
		const gs_plan_workload *w = gs_plan_workload_at(p, i);
		char c[32];
		printf("%-24s %-13s %4d %10s\n", w->workload->name, gs_strategy_name(w->strategy),
		       w->workload->replicas, cli_money(w->cost_per_hour, c, sizeof c));
		cli_print_wrapped(w->why, 4);
	}
}

/* Appends to a line that is wrapped when printed. */
static void put(char *buf, size_t size, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int k;
	if (*o >= size)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *o, size - *o, fmt, ap);
	va_end(ap);
	if (k > 0)
		*o += (size_t)k;
}

static void put_assignments(char *buf, size_t size, size_t *o, const gs_assignment *a,
                            size_t n)
{
	for (size_t i = 0; i < n; i++) {
		put(buf, size, o, "%s%s/%d %lld%%", i ? ", " : "", a[i].workload->name, a[i].replica,
		    (long long)((a[i].compute_ppm + 5000) / 10000));
		if (a[i].thread_percent)
			put(buf, size, o, " (%d%% threads, %lld MiB)", a[i].thread_percent,
			    (long long)a[i].memory_limit_mib);
	}
}

static void print_gpu(const gs_plan_gpu *g)
{
	char line[8192];
	size_t o = 0;
	put(line, sizeof line, &o, "gpu %d %s %s", g->index, g->model->name,
	    gs_strategy_name(g->strategy));
	if (g->strategy == GS_STRATEGY_TIME_SLICING || g->strategy == GS_STRATEGY_MPS)
		put(line, sizeof line, &o, " x%d", g->replicas);
	if (!g->n_assignments && !g->n_mig) {
		printf("    %s: unused\n", line);
		return;
	}
	put(line, sizeof line, &o, ":");
	if (g->n_assignments) {
		put(line, sizeof line, &o, " ");
		put_assignments(line, sizeof line, &o, g->assignments, g->n_assignments);
	}
	cli_print_wrapped(line, 4);
	for (size_t m = 0; m < g->n_mig; m++) {
		const gs_plan_mig *mi = &g->mig[m];
		o = 0;
		put(line, sizeof line, &o, "%s@%d", mi->profile->name, mi->start);
		if (mi->strategy != GS_STRATEGY_DEDICATED)
			put(line, sizeof line, &o, " %s x%d", gs_strategy_name(mi->strategy), mi->replicas);
		put(line, sizeof line, &o, ": ");
		put_assignments(line, sizeof line, &o, mi->assignments, mi->n_assignments);
		cli_print_wrapped(line, 6);
	}
}

static void print_nodes(const gs_plan *p)
{
	printf("\nNODES\n");
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		char c[32];
		printf("  %zu %s (%s) %s/h, config %s\n", i + 1, n->instance->type,
		       n->instance->cloud, cli_money(n->price_per_hour, c, sizeof c), n->config);
		for (size_t g = 0; g < n->n_gpus; g++)
			print_gpu(&n->gpus[g]);
	}
}

static void print_rest(const gs_plan *p)
{
	printf("\n%-24s %10s\n", "TEAM", "COST/H");
	for (size_t i = 0; i < gs_plan_team_count(p); i++) {
		const gs_plan_team *t = gs_plan_team_at(p, i);
		char c[32];
		printf("%-24s %10s\n", t->team, cli_money(t->cost_per_hour, c, sizeof c));
	}
	if (gs_plan_warning_count(p))
		printf("\nWARNINGS\n");
	for (size_t i = 0; i < gs_plan_warning_count(p); i++)
		cli_print_hanging("  - ", gs_plan_warning_at(p, i), 4);
}

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

int cli_plan_print(const gs_plan *plan, const gs_scenario *scn, int fmt)
{
	gs_error err;
	gs_doc *doc;
	if (fmt != FMT_TEXT)
		return gs_doc_plan(plan, &doc, &err) < 0 ? cli_fail(&err) : cli_print_doc(doc, fmt);
	print_summary(gs_plan_summary_get(plan),
	              gs_scenario_file(scn) ? gs_scenario_file(scn) : "the current scenario",
	              gs_scenario_workload_count(scn));
	print_workloads(plan);
	print_nodes(plan);
	print_rest(plan);
	return EXIT_OK;
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
