/* cmd_cost.c - `gpushare cost`: who pays for which GPU of a cluster, per
 * workload, namespace or team, and the idle capacity nobody holds, adding
 * up to the nodes' prices. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct cost_args {
	cli_cluster cl;       /* first: the option callbacks find it there */
	const char *report, *profiles;
	int by, basis, mig, weight, spread, fmt, force;
} cost_args;

static const char *const cost_bys[] = { "workload", "namespace", "team", NULL };
static const char *const cost_bases[] = { "allocation", "usage", NULL };
static const char *const cost_migs[] = { "max", "memory", "compute", NULL };
enum { COST_CSV = FMT_YAML + 1 };
static const char *const cost_formats[] = { "text", "json", "yaml", "csv", NULL };
_Static_assert(GS_COST_BY_TEAM == 2 && GS_COST_USAGE == 1 && GS_COST_MIG_COMPUTE == 2,
               "the choices are in enum order");

const cli_opt cost_opts[] = {
	CLI_OPTS_CLUSTER(cost_args, cl),
	CLI_OPT_CLAIMS,
	{ "by", 0, "KEY", "a row per workload (default), namespace or team",
	  CLI_ENUM(cost_args, by, cost_bys) },
	{ "basis", 0, "B", "allocation (default), or usage: shared GPUs by measured activity",
	  CLI_ENUM(cost_args, basis, cost_bases) },
	{ "mig-share", 0, "RULE", "a MIG slice's share of its GPU: max (default), memory, compute",
	  CLI_ENUM(cost_args, mig, cost_migs) },
	{ "gpu-weight", 0, "PCT", "the GPUs' part of a node's price, 0 to 100 (default 100)",
	  CLI_INT(cost_args, weight, 0, 100) },
	{ "spread-idle", 0, NULL, "spread idle over the rows by their cost",
	  CLI_FLAG(cost_args, spread) },
	{ "format", 0, "FMT", "output format: text, json, yaml or csv",
	  CLI_ENUM(cost_args, fmt, cost_formats) },
	{ "report", 'r', "FILE", "also write the chargeback as one self-contained HTML page",
	  CLI_STR(cost_args, report) },
	{ "force", 'f', NULL, "with --report, replace an existing file",
	  CLI_FLAG(cost_args, force) },
	{ CLI_ROW_PROFILES, CLI_STR(cost_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

/* ---- text ---------------------------------------------------------------- */

/* Dollars or GPUs with six decimals, exact: "0.065750". */
static char *six(int64_t v, char *buf, size_t size)
{
	return gs_micros_format(v, 6, buf, size);
}

/* The name columns of the rows: how many, their titles and widths. */
typedef struct cols {
	int n;
	const char *title[3];
	int width[3];
} cols;

static const char *name_at(const gs_cost_row *r, gs_cost_by by, int k)
{
	const char *v = by == GS_COST_BY_TEAM ? r->team
	                : k == 0              ? r->namespace_
	                : k == 1              ? r->team
	                                      : r->workload;
	return v ? v : "-";
}

static void name_cols(const gs_chargeback *cb, gs_cost_by by, cols *c)
{
	static const char *const titles[] = { "NAMESPACE", "TEAM", "WORKLOAD" };
	c->n = by == GS_COST_BY_WORKLOAD ? 3 : by == GS_COST_BY_NAMESPACE ? 2 : 1;
	for (int k = 0; k < c->n; k++) {
		c->title[k] = by == GS_COST_BY_TEAM ? "TEAM" : titles[k];
		c->width[k] = (int)strlen(c->title[k]);
		if (k == 0 && c->width[k] < 7)
			c->width[k] = 7; /* "(total)" */
		for (size_t i = 0; i < gs_chargeback_row_count(cb); i++) {
			int w = (int)strlen(name_at(gs_chargeback_row_at(cb, i), by, k));
			c->width[k] = w > c->width[k] ? w : c->width[k];
		}
	}
}

/* Text from the cluster, escaped, then padded to width. */
static void padded(const char *s, int width)
{
	cli_put_safe(stdout, s);
	for (int k = (int)strlen(s); k < width; k++)
		putchar(' ');
}

static void names(const cols *c, const char *const *v)
{
	for (int k = 0; k < c->n; k++) {
		fputs(k ? "  " : "", stdout);
		padded(v[k], c->width[k]);
	}
}

/* One line: names, pods, nodes, GPUs, then the money columns. */
static void line(const cols *c, const char *const *v, const char *pods, const char *nodes,
                 const char *gpus, const char *held, const char *idle, const char *cost,
                 int spread)
{
	names(c, v);
	printf("  %5s  %5s  %11s", pods, nodes, gpus);
	if (spread)
		printf("  %12s  %12s", held, idle);
	printf("  %12s\n", cost);
}

static void print_row(const cols *c, const gs_cost_row *r, gs_cost_by by, int spread)
{
	const char *v[3];
	char pods[16], nodes[16], g[32], h[32], i[32], m[32];
	for (int k = 0; k < c->n; k++)
		v[k] = name_at(r, by, k);
	snprintf(pods, sizeof pods, "%d", r->pods);
	snprintf(nodes, sizeof nodes, "%zu", r->n_nodes);
	line(c, v, pods, nodes, six(r->gpu_share, g, sizeof g), six(r->held_per_hour, h, sizeof h),
	     six(r->idle_per_hour, i, sizeof i), six(r->cost_per_hour, m, sizeof m), spread);
}

/* The idle and total lines: the priced nodes' GPUs, held and not. */
static void print_totals(const cols *c, const gs_chargeback *cb, int spread)
{
	const gs_chargeback_summary *s = gs_chargeback_summary_get(cb);
	const char *v[3] = { "(idle)", "", "" };
	char nodes[16], all[16], pods[16], g[32], t[32], m[32], z[32], sp[32];
	int idle_nodes = 0;

	for (size_t i = 0; i < gs_chargeback_node_count(cb); i++) {
		const gs_cost_node *n = gs_chargeback_node_at(cb, i);
		idle_nodes += n->price_per_hour >= 0 && n->idle_per_hour > 0;
	}
	snprintf(nodes, sizeof nodes, "%d", idle_nodes);
	snprintf(all, sizeof all, "%d", s->nodes - s->nodes_unpriced);
	snprintf(pods, sizeof pods, "%d", s->pods);
	six(0, z, sizeof z);
	line(c, v, "", nodes, six(s->idle_share, g, sizeof g), z, z,
	     six(s->idle_per_hour, m, sizeof m), spread);
	v[0] = "(total)";
	line(c, v, pods, all, six(s->held_share + s->idle_share, g, sizeof g),
	     six(s->held_per_hour, t, sizeof t), six(s->spread_per_hour, sp, sizeof sp),
	     six(s->total_per_hour, m, sizeof m), spread);
}

static void print_table(const gs_chargeback *cb, gs_cost_by by, int spread)
{
	cols c;
	const char *v[3];
	name_cols(cb, by, &c);
	for (int k = 0; k < c.n; k++)
		v[k] = c.title[k];
	line(&c, v, "PODS", "NODES", "GPUS", "HELD $/H", "IDLE $/H", "$/HOUR", spread);
	for (size_t i = 0; i < gs_chargeback_row_count(cb); i++)
		print_row(&c, gs_chargeback_row_at(cb, i), by, spread);
	print_totals(&c, cb, spread);
}

static void print_holder(const gs_cost_holder *h)
{
	char g[32], m[32];
	printf("    ");
	cli_put_safe(stdout, h->namespace_);
	putchar('/');
	cli_put_safe(stdout, h->pod);
	printf("  %s GPUs  $%s%s\n", six(h->gpu_share, g, sizeof g),
	       six(h->cost_per_hour, m, sizeof m),
	       h->by_usage ? "  (by usage)" : h->dra ? "  (DRA claim)" : "");
}

static void print_node(const gs_cost_node *n)
{
	char p[32], g[32], h[32], i[32];
	printf("  ");
	cli_put_safe(stdout, n->name);
	printf(": ");
	cli_put_safe(stdout, n->instance_type ? n->instance_type : "no instance type");
	printf(", %d x %s", n->gpu_count, n->gpu->name);
	if (strcmp(n->sharing, "time-slicing") == 0 || strcmp(n->sharing, "mps") == 0)
		printf(" (%s x%d)", n->sharing, n->replicas);
	else if (strcmp(n->sharing, "none") != 0)
		printf(" (%s)", n->sharing);
	if (n->price_per_hour < 0)
		printf(", price unknown: not charged\n");
	else
		printf(", $%s/h\n", six(n->price_per_hour, p, sizeof p));
	printf("    held %s GPUs $%s, idle $%s\n", six(n->held_share, g, sizeof g),
	       six(n->held_per_hour, h, sizeof h), six(n->idle_per_hour, i, sizeof i));
	for (size_t k = 0; k < n->n_holders; k++)
		print_holder(&n->holders[k]);
}

static const char *mig_rule(gs_cost_mig m)
{
	return m == GS_COST_MIG_MEMORY    ? "their memory slices"
	       : m == GS_COST_MIG_COMPUTE ? "their compute slices"
	                                  : "the larger of memory and compute";
}

static void print_text(const gs_chargeback *cb, const char *name)
{
	const gs_chargeback_summary *s = gs_chargeback_summary_get(cb);
	char m[32], i[32], sp[32];

	printf("Chargeback of ");
	cli_put_safe(stdout, name);
	printf(": %d GPU node%s, %d GPUs, %d pod%s in %d workload%s\n",
	       s->nodes, s->nodes == 1 ? "" : "s", s->gpus, s->pods, s->pods == 1 ? "" : "s",
	       s->workloads, s->workloads == 1 ? "" : "s");
	printf("Basis:   %s; MIG slices by %s\n",
	       s->opts.basis == GS_COST_USAGE ? "usage (shared GPUs by measured activity)"
	                                      : "allocation",
	       mig_rule(s->opts.mig_share));
	printf("Price:   GPUs carry %d%% of a node's price", s->opts.gpu_weight_pct);
	if (s->opts.gpu_weight_pct < 100)
		printf(", the rest goes to its pods by their GPUs");
	printf("\n");
	printf("\n");
	print_table(cb, s->opts.by, s->opts.spread_idle);
	printf("\nPer month (%d hours): %s, of which %s idle", s->hours_per_month,
	       cli_money(s->total_per_hour * s->hours_per_month, m, sizeof m),
	       cli_money(s->idle_per_hour * s->hours_per_month, i, sizeof i));
	if (s->spread_per_hour)
		printf(" (%s spread over the rows by their cost)",
		       cli_money(s->spread_per_hour * s->hours_per_month, sp, sizeof sp));
	printf(".\n\nNODES\n");
	for (size_t k = 0; k < gs_chargeback_node_count(cb); k++)
		print_node(gs_chargeback_node_at(cb, k));
}

/* ---- the command --------------------------------------------------------- */

static int write_report(const gs_chargeback *cb, const char *title, const char *path,
                        int force)
{
	char *html = NULL;
	gs_error err;
	if (gs_report_cost_html(cb, title, &html, &err) < 0)
		return cli_fail(&err);
	return cli_write_page(path, html, force);
}

static int output(const cost_args *a, const gs_chargeback *cb)
{
	gs_error err;
	gs_doc *doc;
	char *csv;
	int rc = EXIT_OK;

	for (size_t i = 0; i < gs_chargeback_warning_count(cb); i++)
		cli_warning("%s", gs_chargeback_warning_at(cb, i));
	if (a->report && (rc = write_report(cb, cli_cluster_name(&a->cl), a->report, a->force)))
		return rc;
	if (a->fmt == FMT_TEXT) {
		print_text(cb, cli_cluster_name(&a->cl));
		return EXIT_OK;
	}
	if (a->fmt == COST_CSV) {
		if (gs_chargeback_csv(cb, &csv, &err) < 0)
			return cli_fail(&err);
		fputs(csv, stdout);
		free(csv);
		return EXIT_OK;
	}
	if (gs_doc_chargeback(cb, &doc, &err) < 0)
		return cli_fail(&err);
	return cli_print_doc(doc, a->fmt);
}

static int parse(const cli_cmd *self, int argc, char **argv, cost_args *a)
{
	int rc = cli_cluster_parse(self, argc, argv, a);

	if (rc >= 0)
		return rc;
	if (a->force && !a->report)
		return cli_usage_error(self, "--force needs --report");
	return -1;
}

int cmd_cost(const cli_cmd *self, int argc, char **argv)
{
	cost_args a = { .fmt = FMT_TEXT, .weight = 100 };
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	gs_catalog *cat = NULL;
	gs_inventory *inv = NULL;
	gs_chargeback *cb = NULL;
	gs_error err;
	int rc;

	if ((rc = cli_cluster_init(&a.cl, argc)) != EXIT_OK)
		return rc;
	a.cl.live_claims = 1; /* who holds a GPU through DRA is part of the bill */
	if ((rc = parse(self, argc, argv, &a)) < 0 &&
	    (rc = cli_load_catalog(a.profiles, &cat)) == EXIT_OK &&
	    (rc = cli_cluster_load(&a.cl, cat, &inv)) == EXIT_OK) {
		o.by = (gs_cost_by)a.by;
		o.basis = (gs_cost_basis)a.basis;
		o.mig_share = (gs_cost_mig)a.mig;
		o.gpu_weight_pct = a.weight;
		o.spread_idle = a.spread;
		rc = gs_chargeback_make(inv, &o, &cb, &err) < 0 ? cli_fail(&err) : output(&a, cb);
	}
	gs_chargeback_free(cb);
	gs_import_free(inv);
	gs_catalog_free(cat);
	cli_cluster_free(&a.cl);
	return rc;
}
