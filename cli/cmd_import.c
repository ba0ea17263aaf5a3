/* cmd_import.c - `gpushare import`: workloads and GPU utilization from a
 * running cluster (kubectl inventories and DCGM metrics). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct import_args {
	cli_cluster cl;       /* first: the option callbacks find it there */
	const char *output;
	const char *profiles;
	int force, report, fmt;
} import_args;

/* --format is for the report, so it asks for one. */
static int report_format(const cli_cmd *self, void *args, const char *text)
{
	import_args *a = args;
	a->report = 1;
	return cli_parse_format(self, text, &a->fmt);
}

const cli_opt import_opts[] = {
	CLI_OPTS_CLUSTER(import_args, cl),
	{ "output", 'o', "FILE", "write the workload file to FILE, not to stdout",
	  CLI_STR(import_args, output) },
	{ "force", 'f', NULL, "with --output, replace an existing file",
	  CLI_FLAG(import_args, force) },
	{ "report", 'r', NULL, "print the utilization report",
	  CLI_FLAG(import_args, report) },
	{ "format", 0, "FMT", "report format: text, json or yaml (implies --report)",
	  CLI_CALL(report_format) },
	{ CLI_ROW_PROFILES, CLI_STR(import_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

/* "91.6%" from ppm, rounded to a tenth. */
static char *pct(int64_t ppm, char *buf, size_t size)
{
	int64_t t = (ppm + 500) / 1000;
	snprintf(buf, size, "%lld.%lld%%", (long long)(t / 10), (long long)(t % 10));
	return buf;
}

/* "12.5%" from ppm, as the workload file writes it (up to 4 decimals). */
static char *share(int64_t ppm, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%lld.%04lld", (long long)(ppm / 10000),
	                 (long long)(ppm % 10000));
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	snprintf(buf + n, size - (size_t)n, "%%");
	return buf;
}

/* "0.38" GPUs from ppm of a GPU, rounded to hundredths. */
static char *gpus(int64_t ppm, char *buf, size_t size)
{
	int64_t h = (ppm + 5000) / 10000;
	snprintf(buf, size, "%lld.%02lld", (long long)(h / 100), (long long)(h % 100));
	return buf;
}

static void print_gpu(const gs_import_gpu *p)
{
	char a[32];
	if (!p->measured) {
		printf("    gpu %d: no metrics\n", p->index);
		return;
	}
	printf("    gpu %d: %s active (%s)", p->index, pct(p->compute_ppm, a, sizeof a), p->metric);
	if (p->memory_mib >= 0)
		printf(", %lld MiB used", (long long)p->memory_mib);
	printf("\n");
	if (p->division && strcmp(p->division, "even") == 0)
		printf("      its activity divided evenly among its %d pods, by the replicas each "
		       "holds\n", p->holders);
	else if (p->division && strcmp(p->division, "per-pod") == 0)
		printf("      its activity read per pod: each of its %d pods by its own series\n",
		       p->holders);
	else if (p->division && strcmp(p->division, "sole") == 0)
		printf("      its one pod's activity, though its series name no pod\n");
}

static void print_node(const gs_import_node *n)
{
	char price[32], idle[32], req[32];
	int total = n->idle_unrequested + n->idle_low;

	printf("  %s: %s, %d x %s", n->name,
	       n->instance_type ? n->instance_type : "no instance type", n->gpu_count,
	       n->gpu->name);
	if (strcmp(n->sharing, "time-slicing") == 0 || strcmp(n->sharing, "mps") == 0)
		printf(" (%s x%d)", n->sharing, n->replicas);
	else if (strcmp(n->sharing, "none") != 0)
		printf(" (%s)", n->sharing);
	if (n->price_per_hour < 0)
		printf(", price unknown\n");
	else
		printf(", %s/h\n", cli_price(n->price_per_hour, price, sizeof price));
	printf("    %d pod%s request %s GPUs; idle %d (%d unrequested, %d under 5%%), %s/month\n",
	       n->pods, n->pods == 1 ? "" : "s", gpus(n->requested_ppm, req, sizeof req), total,
	       n->idle_unrequested, n->idle_low, cli_money(n->idle_per_month, idle, sizeof idle));
	for (size_t g = 0; g < n->n_gpus; g++)
		print_gpu(&n->gpus[g]);
}

static void print_workload(const gs_import_workload *w)
{
	char a[32], b[32], c[32];
	printf("  %s (%s %s/%s, team %s)\n", w->name, w->owner_kind, w->namespace_, w->owner,
	       w->team);
	if (w->flags & GS_IMPORT_UNSCHEDULED) {
		printf("    %d pod%s, none on a known GPU node: left out of the workload file\n",
		       w->pods, w->pods == 1 ? "" : "s");
		return;
	}
	printf("    %d pod%s on %d node%s (%s, %s), %d replica%s, request %s GPUs\n", w->pods,
	       w->pods == 1 ? "" : "s", w->nodes, w->nodes == 1 ? "" : "s",
	       w->instance ? w->instance->type : "instance unknown", w->gpu->name, w->replicas,
	       w->replicas == 1 ? "" : "s", gpus(w->requested_ppm, a, sizeof a));
	if (w->metric)
		printf("    compute %s of a GPU (%s)", pct(w->compute_ppm, b, sizeof b), w->metric);
	else
		printf("    compute: no metrics, keeps %s", pct(w->compute_ppm, b, sizeof b));
	if (w->memory_measured)
		printf(", memory %lld MiB\n", (long long)w->memory_mib);
	else
		printf(", memory: no metrics, keeps %lld MiB\n", (long long)w->memory_mib);
	printf("    writes gpuMemory %lldMiB, compute %s\n", (long long)w->gpu_memory_mib,
	       share(w->file_compute_ppm, b, sizeof b));
	if (w->current_ppm < GS_PPM)
		printf("    holds %s of %s today (%s/h)\n", share(w->current_ppm, a, sizeof a),
		       w->nodes == 1 ? "its node" : "its nodes",
		       w->current_per_hour < 0 ? "price unknown"
		                               : cli_price(w->current_per_hour, c, sizeof c));
	if (w->flags & GS_IMPORT_PARTIAL)
		printf("    no metrics for %d of %d pods\n", w->pods - w->pods_measured, w->pods);
	if (w->flags & GS_IMPORT_MIXED_MODELS)
		printf("    its pods run on several GPU models\n");
	if (w->flags & GS_IMPORT_MULTI_GPU)
		printf("    its pods request %d GPUs each: one replica per pod, "
		       "gpusPerReplica %d\n", w->gpus_per_replica, w->gpus_per_replica);
}

static void print_report(const gs_inventory *inv)
{
	const gs_import_summary *s = gs_import_summary_get(inv);
	char h[32], m[32], idle[32];

	printf("Cluster: %d GPU node%s (%s), %d GPUs, %d pod%s in %d workload%s\n", s->nodes,
	       s->nodes == 1 ? "" : "s", s->cloud, s->gpus, s->pods, s->pods == 1 ? "" : "s",
	       s->workloads, s->workloads == 1 ? "" : "s");
	printf("Cost:    %s/h, %s/month on demand\n", cli_money(s->cost_per_hour, h, sizeof h),
	       cli_money(s->cost_per_hour * s->hours_per_month, m, sizeof m));
	printf("Idle:    %d of %d GPUs, %s/month\n", s->idle_gpus, s->gpus,
	       cli_money(s->idle_per_month, idle, sizeof idle));
	printf("Metrics: p%d of %zu DCGM samples, %zu matching no pod or GPU", s->percentile,
	       s->samples, s->unmatched);
	if (s->bad_samples)
		printf(", %zu bad line%s skipped", s->bad_samples, s->bad_samples == 1 ? "" : "s");
	printf("\n");
	if (s->nodes_left_out)
		printf("Left out: %d GPU node%s of an unknown GPU, with their pods\n",
		       s->nodes_left_out, s->nodes_left_out == 1 ? "" : "s");
	printf("\nNODES\n");
	for (size_t i = 0; i < gs_import_node_count(inv); i++)
		print_node(gs_import_node_at(inv, i));
	printf("\nWORKLOADS\n");
	for (size_t i = 0; i < gs_import_workload_count(inv); i++)
		print_workload(gs_import_workload_at(inv, i));
	if (gs_import_warning_count(inv))
		printf("\nWARNINGS\n");
	for (size_t i = 0; i < gs_import_warning_count(inv); i++)
		printf("  - %s\n", gs_import_warning_at(inv, i));
}

/* Returns -1 to go on, else the exit status (after --help or an error). */
static int parse(const cli_cmd *self, int argc, char **argv, import_args *a)
{
	int rc = cli_cluster_parse(self, argc, argv, a);

	if (rc >= 0)
		return rc;
	if (a->force && !a->output)
		return cli_usage_error(self, "--force needs --output");
	return -1;
}

/* The workload file goes to --output, else to stdout unless the report
 * does; the report goes to stdout. */
static int run(const import_args *a, const gs_inventory *inv)
{
	gs_error err;
	gs_doc *doc;
	char *text;

	if (a->output) {
		int n = 0;
		if (gs_import_write(inv, a->output, !a->force, &err) < 0)
			return cli_fail(&err);
		for (size_t i = 0; i < gs_import_workload_count(inv); i++)
			n += !(gs_import_workload_at(inv, i)->flags & GS_IMPORT_UNSCHEDULED);
		fprintf(stderr, "gpushare: wrote %d workload%s to %s\n", n, n == 1 ? "" : "s",
		        a->output);
	}
	if (!a->report && !a->output) {
		if (gs_import_render(inv, &text, &err) < 0)
			return cli_fail(&err);
		fputs(text, stdout);
		free(text);
	}
	if (!a->report) {
		for (size_t i = 0; i < gs_import_warning_count(inv); i++)
			cli_warning("%s", gs_import_warning_at(inv, i));
		return EXIT_OK;
	}
	if (a->fmt == FMT_TEXT) {
		print_report(inv);
		return EXIT_OK;
	}
	if (gs_doc_import_report(inv, &doc, &err) < 0)
		return cli_fail(&err);
	return cli_print_doc(doc, a->fmt);
}

int cmd_import(const cli_cmd *self, int argc, char **argv)
{
	import_args a = { .fmt = FMT_TEXT };
	gs_catalog *cat = NULL;
	gs_inventory *inv = NULL;
	int rc;

	if ((rc = cli_cluster_init(&a.cl, argc)) != EXIT_OK)
		return rc;
	if ((rc = parse(self, argc, argv, &a)) < 0 &&
	    (rc = cli_load_catalog(a.profiles, &cat)) == EXIT_OK &&
	    (rc = cli_cluster_load(&a.cl, cat, &inv)) == EXIT_OK)
		rc = run(&a, inv);
	gs_import_free(inv);
	gs_catalog_free(cat);
	cli_cluster_free(&a.cl);
	return rc;
}
