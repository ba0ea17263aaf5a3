/*
 * cost_report.c - a chargeback as one self-contained page, in the frame
 * of the plan's (page.h): the totals, the cost per team (and per row when
 * rows are by workload or namespace), and a picture of each node: its
 * GPUs as bars split by the pods that hold them, a colour per team, idle
 * grey.
 *
 * Device plugins do not say which of a node's GPUs a pod holds, so the
 * picture lays the holders end to end over the node's GPUs, the largest
 * first: whole GPUs fill whole bars, shares fill the bars after them.
 * Coordinates are integers in a fixed viewBox, and nothing depends on the
 * clock: the same chargeback gives the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/page.h"
#include "report/svg.h"

#define M INT64_C(1000000)      /* a GPU, in millionths */
#define TEAM_COLOURS 8
#define LABEL_X 64              /* GPU labels left of the bars */
#define BAR_X 72
#define BAR_W (GS_SVG_VIEW_W - BAR_X - 2)
#define ROW_H 34
#define BAR_H 26
#define CHAR_W10 78             /* 13px text, tenths of a unit (svg.c) */

/* Exact dollars: "$0.06575", "$11.6038" (at least cents). */
static void price(gs_buf *b, gs_micros m)
{
	char plain[32];
	size_t n;
	gs_micros_format(m, 6, plain, sizeof plain);
	n = strlen(plain);
	while (n > 3 && plain[n - 1] == '0' && plain[n - 3] != '.')
		plain[--n] = '\0';
	gs_buf_printf(b, "$%s", plain);
}

/* GPUs from millionths: "0.125", "1", "0.133333". */
static void gpus(gs_buf *b, int64_t v)
{
	char plain[32];
	size_t n;
	gs_micros_format(v, 6, plain, sizeof plain);
	n = strlen(plain);
	while (n > 0 && plain[n - 1] == '0')
		plain[--n] = '\0';
	if (n > 0 && plain[n - 1] == '.')
		plain[--n] = '\0';
	gs_buf_puts(b, plain);
}

/* The colour class of a team: its place among the chargeback's teams. */
static int team_colour(const gs_chargeback *c, const char *team)
{
	for (size_t i = 0; team && i < gs_chargeback_team_count(c); i++)
		if (strcmp(gs_chargeback_team_at(c, i)->team, team) == 0)
			return (int)(i % TEAM_COLOURS);
	return 0;
}

/* ---- the summary --------------------------------------------------------- */

static const char *mig_rule(gs_cost_mig m)
{
	return m == GS_COST_MIG_MEMORY    ? "its memory slices over the GPU's"
	       : m == GS_COST_MIG_COMPUTE ? "its compute slices over the GPU's"
	                                  : "the larger of its memory and its compute slices "
	                                    "over the GPU's";
}

static void card(gs_buf *b, const char *key, gs_micros per_hour, int hours, const char *was)
{
	gs_buf_printf(b, "<div class=\"card\"><p class=\"k\">%s</p><p class=\"v\">", key);
	price(b, per_hour);
	gs_buf_puts(b, "</p><p class=\"was\">");
	gs_html_money(b, per_hour * hours);
	gs_buf_printf(b, " a month%s</p></div>\n", was);
}

static void rules(gs_buf *b, const gs_chargeback_summary *s)
{
	gs_buf_puts(b, "<p class=\"note\">Each node's price is split over the pods that hold its "
	               "GPUs: a dedicated GPU is its pod's, a time-sliced or MPS replica is its "
	               "share of the GPU");
	if (s->opts.basis == GS_COST_USAGE)
		gs_buf_puts(b, " (by measured activity where the pod has samples of its own)");
	gs_buf_puts(b, ", a MIG slice is ");
	gs_buf_puts(b, mig_rule(s->opts.mig_share));
	gs_buf_printf(b, ", a DRA claim its devices. The GPUs carry %d%% of a node's price",
	              s->opts.gpu_weight_pct);
	if (s->opts.gpu_weight_pct < 100)
		gs_buf_puts(b, "; the rest goes to the node's pods by what they hold there");
	gs_buf_puts(b, ". Idle is what nobody holds");
	if (s->spread_per_hour)
		gs_buf_puts(b, ", spread here over the rows by their cost");
	gs_buf_puts(b, ". The rows and idle add up to the nodes' prices exactly.</p>\n");
}

static void summary(gs_buf *b, const gs_chargeback *c, const char *title)
{
	const gs_chargeback_summary *s = gs_chargeback_summary_get(c);
	gs_buf was = GS_BUF_INIT;

	gs_buf_puts(b, "<header>\n<h1>Chargeback for ");
	gs_html_esc(b, title);
	gs_buf_printf(b, "</h1>\n<p class=\"sub\">%d GPU node%s, %d GPUs, %d pod%s in %d "
	                 "workload%s of %d team%s, %d hours a month</p>\n</header>\n",
	              s->nodes, s->nodes == 1 ? "" : "s", s->gpus, s->pods, s->pods == 1 ? "" : "s",
	              s->workloads, s->workloads == 1 ? "" : "s", s->teams,
	              s->teams == 1 ? "" : "s", s->hours_per_month);
	gs_buf_puts(b, "<section aria-labelledby=\"h-summary\">\n<h2 id=\"h-summary\">Who pays"
	               "</h2>\n<div class=\"cards\">\n");
	card(b, "Nodes per hour", s->total_per_hour, s->hours_per_month, "");
	gs_buf_puts(&was, ", ");
	gpus(&was, s->held_share);
	gs_buf_puts(&was, " GPUs");
	card(b, "Held per hour", s->held_per_hour, s->hours_per_month, gs_buf_str(&was));
	card(b, "Idle per hour", s->idle_per_hour + s->spread_per_hour, s->hours_per_month,
	     s->spread_per_hour ? ", spread" : "");
	b->failed |= was.failed;
	gs_buf_release(&was);
	gs_buf_puts(b, "</div>\n");
	rules(b, s);
	if (s->nodes_unpriced)
		gs_buf_printf(b, "<p class=\"note\">%d node%s without a known price %s left out of "
		                 "every total.</p>\n", s->nodes_unpriced,
		              s->nodes_unpriced == 1 ? "" : "s",
		              s->nodes_unpriced == 1 ? "is" : "are");
	gs_buf_puts(b, "</section>\n");
}

/* ---- the tables ---------------------------------------------------------- */

static void swatch(gs_buf *b, const char *cls)
{
	gs_buf_printf(b, "<span class=\"sw %s\" aria-hidden=\"true\"></span>", cls);
}

static void money_cells(gs_buf *b, gs_micros held, gs_micros idle, gs_micros cost, int spread,
                        int hours)
{
	gs_buf_puts(b, "<td class=\"n\">");
	price(b, held);
	if (spread) {
		gs_buf_puts(b, "</td><td class=\"n\">");
		price(b, idle);
	}
	gs_buf_puts(b, "</td><td class=\"n\">");
	price(b, cost);
	gs_buf_puts(b, "</td><td class=\"n\">");
	gs_html_money(b, cost * hours);
	gs_buf_puts(b, "</td></tr>\n");
}

/* A row's name: its team with the team's colour, else its names. */
static void row_name(gs_buf *b, const gs_chargeback *c, const gs_cost_row *r, gs_cost_by by)
{
	char cls[8];
	gs_buf_puts(b, "<tr><th scope=\"row\">");
	if (by == GS_COST_BY_TEAM) {
		snprintf(cls, sizeof cls, "t%d", team_colour(c, r->team));
		swatch(b, cls);
		gs_html_esc(b, r->team);
	} else {
		gs_html_esc(b, r->namespace_ ? r->namespace_ : "-");
		if (by == GS_COST_BY_WORKLOAD) {
			gs_buf_puts(b, "/");
			gs_html_esc(b, r->workload);
		}
	}
	gs_buf_puts(b, "</th>");
	if (by != GS_COST_BY_TEAM) {
		gs_buf_puts(b, "<td>");
		gs_html_esc(b, r->team ? r->team : "-");
		gs_buf_puts(b, "</td>");
	}
}

static void table(gs_buf *b, const gs_chargeback *c, gs_cost_by by, const char *id,
                  const char *heading)
{
	const gs_chargeback_summary *s = gs_chargeback_summary_get(c);
	int spread = s->spread_per_hour != 0, hours = s->hours_per_month;
	size_t n = by == GS_COST_BY_TEAM ? gs_chargeback_team_count(c)
	                                 : gs_chargeback_row_count(c);

	gs_buf_printf(b, "<section aria-labelledby=\"%s\">\n<h2 id=\"%s\">%s</h2>\n"
	                 "<div class=\"scroll\">\n<table>\n<thead><tr><th scope=\"col\">%s</th>",
	              id, id, heading, by == GS_COST_BY_TEAM ? "Team" : by == GS_COST_BY_WORKLOAD
	                                                                      ? "Workload"
	                                                                      : "Namespace");
	if (by != GS_COST_BY_TEAM)
		gs_buf_puts(b, "<th scope=\"col\">Team</th>");
	gs_buf_printf(b, "<th scope=\"col\" class=\"n\">Pods</th><th scope=\"col\" class=\"n\">"
	                 "GPUs</th><th scope=\"col\" class=\"n\">Held per hour</th>%s"
	                 "<th scope=\"col\" class=\"n\">Cost per hour</th><th scope=\"col\" "
	                 "class=\"n\">Per month</th></tr></thead>\n<tbody>\n",
	              spread ? "<th scope=\"col\" class=\"n\">Idle share</th>" : "");
	for (size_t i = 0; i < n; i++) {
		const gs_cost_row *r = by == GS_COST_BY_TEAM ? gs_chargeback_team_at(c, i)
		                                             : gs_chargeback_row_at(c, i);
		row_name(b, c, r, by);
		gs_buf_printf(b, "<td class=\"n\">%d</td><td class=\"n\">", r->pods);
		gpus(b, r->gpu_share);
		gs_buf_puts(b, "</td>");
		money_cells(b, r->held_per_hour, r->idle_per_hour, r->cost_per_hour, spread, hours);
	}
	gs_buf_printf(b, "<tr><th scope=\"row\">");
	swatch(b, "free");
	gs_buf_printf(b, "idle</th>%s<td class=\"n\"></td><td class=\"n\">",
	              by != GS_COST_BY_TEAM ? "<td></td>" : "");
	gpus(b, s->idle_share);
	gs_buf_puts(b, "</td>");
	money_cells(b, 0, 0, s->idle_per_hour, spread, hours);
	gs_buf_printf(b, "<tr><th scope=\"row\">total</th>%s<td class=\"n\">%d</td>"
	                 "<td class=\"n\">",
	              by != GS_COST_BY_TEAM ? "<td></td>" : "", s->pods);
	gpus(b, s->held_share + s->idle_share);
	gs_buf_puts(b, "</td>");
	money_cells(b, s->held_per_hour, s->spread_per_hour, s->total_per_hour, spread, hours);
	gs_buf_puts(b, "</tbody>\n</table>\n</div>\n</section>\n");
}

/* ---- the nodes ----------------------------------------------------------- */

/* Text centred in a box, cut to fit; nothing when not three characters do. */
static void box_label(gs_buf *b, int x, int w, int y, const char *text)
{
	int room = (w - 8) * 10 / CHAR_W10;
	if (room < 3 || !text || !*text)
		return;
	gs_buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x + w / 2, y + 18);
	gs_html_esc_max(b, text, (size_t)room);
	gs_buf_puts(b, "</text>\n");
}

/* Empties a scratch buffer, keeping its memory. */
static void reset(gs_buf *t)
{
	t->len = 0;
	if (t->data)
		t->data[0] = '\0';
}

static int bar_x(int64_t at) { return BAR_X + (int)(at * BAR_W / M); }

/* [from, to) of the node's GPUs laid end to end, a piece per GPU bar. */
static void segment(gs_buf *b, int64_t from, int64_t to, const char *cls, const char *title,
                    const char *text)
{
	while (from < to) {
		int64_t g = from / M, end = (g + 1) * M < to ? (g + 1) * M : to;
		int x = bar_x(from - g * M), w = bar_x(end - g * M) - x, y = (int)g * ROW_H + 2;
		gs_buf_printf(b, "<g><title>%s</title>\n<rect class=\"%s\" x=\"%d\" y=\"%d\" "
		                 "width=\"%d\" height=\"%d\" rx=\"3\"/>\n",
		              title, cls, x, y, w > 1 ? w - 1 : 1, BAR_H);
		box_label(b, x, w, y, text);
		gs_buf_puts(b, "</g>\n");
		from = end;
	}
}

static int by_share(const void *a, const void *b)
{
	const gs_cost_holder *x = *(const gs_cost_holder *const *)a;
	const gs_cost_holder *y = *(const gs_cost_holder *const *)b;
	int d;
	if (x->gpu_share != y->gpu_share)
		return x->gpu_share < y->gpu_share ? 1 : -1;
	d = strcmp(x->namespace_, y->namespace_);
	return d ? d : strcmp(x->pod, y->pod);
}

/* "ns/pod, team T: 0.125 GPUs, $0.06575 an hour" (escaped) */
static void holder_text(gs_buf *t, const gs_cost_holder *h)
{
	gs_html_esc(t, h->namespace_);
	gs_buf_puts(t, "/");
	gs_html_esc(t, h->pod);
	gs_buf_puts(t, ", team ");
	gs_html_esc(t, h->team);
	gs_buf_puts(t, ": ");
	gpus(t, h->gpu_share);
	gs_buf_puts(t, " GPUs, ");
	price(t, h->cost_per_hour);
	gs_buf_puts(t, " an hour");
	if (h->by_usage)
		gs_buf_puts(t, " (by usage)");
}

static void node_svg(gs_buf *b, const gs_chargeback *c, const gs_cost_node *n, size_t ni,
                     const gs_cost_holder **v)
{
	int64_t at = 0, all = (int64_t)n->gpu_count * M;
	gs_buf t = GS_BUF_INIT;

	gs_buf_printf(b, "<svg class=\"gpu\" viewBox=\"0 0 %d %d\" role=\"img\" "
	                 "aria-labelledby=\"node-%zu-t\">\n<title id=\"node-%zu-t\">",
	              GS_SVG_VIEW_W, n->gpu_count * ROW_H + 2, ni + 1, ni + 1);
	gs_html_esc(b, n->name);
	gs_buf_puts(b, ": its GPUs and the pods that hold them</title>\n");
	for (int g = 0; g < n->gpu_count; g++)
		gs_buf_printf(b, "<text class=\"dim\" x=\"%d\" y=\"%d\" text-anchor=\"end\">GPU %d"
		                 "</text>\n", LABEL_X, g * ROW_H + 20, g);
	for (size_t i = 0; i < n->n_holders && at < all; i++) {
		char cls[16];
		int64_t end = at + v[i]->gpu_share < all ? at + v[i]->gpu_share : all;
		reset(&t);
		holder_text(&t, v[i]);
		snprintf(cls, sizeof cls, "hold t%d", team_colour(c, v[i]->team));
		segment(b, at, end, cls, gs_buf_str(&t), v[i]->workload);
		at = end;
	}
	if (at < all) {
		reset(&t);
		gs_buf_puts(&t, "idle: ");
		gpus(&t, all - at);
		gs_buf_puts(&t, " GPUs nobody holds");
		segment(b, at, all, "free", gs_buf_str(&t), "idle");
	}
	gs_buf_puts(b, "</svg>\n");
	b->failed |= t.failed;
	gs_buf_release(&t);
}

static void node_meta(gs_buf *b, const gs_cost_node *n)
{
	gs_buf_puts(b, "<p class=\"meta\">");
	gs_html_esc(b, n->instance_type ? n->instance_type : "no instance type");
	gs_buf_printf(b, " \xC2\xB7 %d \xC3\x97 ", n->gpu_count);
	gs_html_esc(b, n->gpu->name);
	if (strcmp(n->sharing, "none") != 0) {
		gs_buf_puts(b, " \xC2\xB7 ");
		gs_html_esc(b, n->sharing);
		if (strcmp(n->sharing, "time-slicing") == 0 || strcmp(n->sharing, "mps") == 0)
			gs_buf_printf(b, " \xC3\x97%d", n->replicas);
	}
	gs_buf_puts(b, " \xC2\xB7 ");
	if (n->price_per_hour < 0) {
		gs_buf_puts(b, "price unknown: not charged</p>\n");
		return;
	}
	price(b, n->price_per_hour);
	gs_buf_puts(b, " an hour: held ");
	price(b, n->held_per_hour);
	gs_buf_puts(b, ", idle ");
	price(b, n->idle_per_hour);
	gs_buf_puts(b, "</p>\n");
}

static void legend(gs_buf *b, const gs_chargeback *c)
{
	gs_buf_puts(b, "<ul class=\"legend\" aria-label=\"Teams\">\n");
	for (size_t i = 0; i < gs_chargeback_team_count(c); i++) {
		char cls[8];
		snprintf(cls, sizeof cls, "t%d", (int)(i % TEAM_COLOURS));
		gs_buf_puts(b, "<li>");
		swatch(b, cls);
		gs_html_esc(b, gs_chargeback_team_at(c, i)->team);
		gs_buf_puts(b, "</li>\n");
	}
	gs_buf_puts(b, "<li>");
	swatch(b, "free");
	gs_buf_puts(b, "idle</li>\n</ul>\n");
}

static int nodes(gs_buf *b, const gs_chargeback *c)
{
	gs_buf_puts(b, "<section aria-labelledby=\"h-nodes\">\n<h2 id=\"h-nodes\">Who holds which "
	               "GPU</h2>\n<p class=\"note\">Device plugins do not say which GPU of a node "
	               "a pod holds: the holders are laid end to end, the largest first.</p>\n");
	legend(b, c);
	gs_buf_puts(b, "<div class=\"nodes\">\n");
	for (size_t i = 0; i < gs_chargeback_node_count(c); i++) {
		const gs_cost_node *n = gs_chargeback_node_at(c, i);
		const gs_cost_holder **v = malloc((n->n_holders ? n->n_holders : 1) * sizeof *v);
		if (!v)
			return -1;
		for (size_t k = 0; k < n->n_holders; k++)
			v[k] = &n->holders[k];
		qsort(v, n->n_holders, sizeof *v, by_share);
		gs_buf_puts(b, "<article class=\"node\">\n<h3>");
		gs_html_esc(b, n->name);
		gs_buf_puts(b, "</h3>\n");
		node_meta(b, n);
		gs_buf_puts(b, "<div class=\"scroll\">\n");
		node_svg(b, c, n, i, v);
		gs_buf_puts(b, "</div>\n");
		for (size_t k = 0; k < n->n_holders; k++) {
			gs_buf_puts(b, "<p class=\"who\">");
			holder_text(b, v[k]);
			gs_buf_puts(b, "</p>\n");
		}
		gs_buf_puts(b, "</article>\n");
		free(v);
	}
	gs_buf_puts(b, "</div>\n</section>\n");
	return 0;
}

static void warnings(gs_buf *b, const gs_chargeback *c)
{
	if (!gs_chargeback_warning_count(c))
		return;
	gs_buf_puts(b, "<section aria-labelledby=\"h-warnings\">\n"
	               "<h2 id=\"h-warnings\">Warnings</h2>\n<ul>\n");
	for (size_t i = 0; i < gs_chargeback_warning_count(c); i++) {
		gs_buf_puts(b, "<li>");
		gs_html_esc(b, gs_chargeback_warning_at(c, i));
		gs_buf_puts(b, "</li>\n");
	}
	gs_buf_puts(b, "</ul>\n</section>\n");
}

int gs_report_cost_html(const gs_chargeback *c, const char *title, char **out, gs_error *err)
{
	gs_cost_by by;
	gs_buf b = GS_BUF_INIT;

	if (!c || !out)
		return gs_fail(err, GS_EINVAL, "a chargeback and an output are required");
	*out = NULL;
	if (!title)
		title = "the cluster";
	by = gs_chargeback_summary_get(c)->opts.by;
	gs_report_page_head(&b, title, "gpushare cost");
	summary(&b, c, title);
	table(&b, c, GS_COST_BY_TEAM, "h-teams", "Cost per team");
	if (by != GS_COST_BY_TEAM)
		table(&b, c, by, "h-rows", by == GS_COST_BY_WORKLOAD ? "Cost per workload"
		                                                     : "Cost per namespace");
	if (nodes(&b, c) < 0)
		b.failed = 1;
	warnings(&b, c);
	gs_report_page_foot(&b);
	return gs_buf_detach(&b, out, err);
}
