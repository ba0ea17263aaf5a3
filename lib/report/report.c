/*
 * report.c - a plan as one self-contained HTML page: the summary, the
 * workloads and, through svg.c, pictures of the team costs and of every
 * GPU's partitions. The page fetches nothing and runs no script: CSS and
 * SVG are inline. Every user string goes through gs_html_esc, every
 * amount through gs_micros_format, and nothing depends on the clock, so
 * the same plan gives the same bytes.
 */
#include <string.h>

#include "plan/strategy.h"
#include "report/html.h"
#include "report/page.h"
#include "report/svg.h"

/* ---- the page ------------------------------------------------------------ */

/* Neutral greys, one accent per strategy (--c the line, --t its tint),
 * the system's own fonts. */
static const char css[] =
	":root{--fg:#1f2933;--muted:#5f6b7a;--line:#d9dee4;--panel:#f5f7f9;"
	"color-scheme:light}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:#fff;color:var(--fg);font:16px/1.5 system-ui,"
	"-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,\"Noto Sans\","
	"sans-serif}\n"
	"main{max-width:75rem;margin:0 auto;padding:1.5rem 1rem 3rem}\n"
	"h1{font-size:1.6rem;line-height:1.25;margin:0 0 .25rem;overflow-wrap:anywhere}\n"
	"h2{font-size:1.2rem;margin:2.25rem 0 .75rem;padding-bottom:.3rem;"
	"border-bottom:1px solid var(--line)}\n"
	"h3{font-size:1rem;margin:0}\n"
	".sub,.note,.meta,.who,footer{color:var(--muted)}\n"
	".sub{margin:0}\n"
	".cards{display:grid;grid-template-columns:repeat(3,1fr);gap:.75rem;"
	"margin:1.25rem 0 .5rem}\n"
	".card{background:var(--panel);border:1px solid var(--line);border-radius:.5rem;"
	"padding:.75rem 1rem}\n"
	".card p{margin:0}\n"
	".card .k{font-size:.85rem;color:var(--muted)}\n"
	".card .v{font-size:1.6rem;font-weight:600;font-variant-numeric:tabular-nums}\n"
	".card .was{font-size:.85rem;color:var(--muted);font-variant-numeric:tabular-nums}\n"
	".card.good{border-color:#8fb8a3;background:#eef7f2}\n"
	".warn{border:1px solid #d69e2e;background:#fffaf0;border-radius:.5rem;"
	"padding:.6rem 1rem}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;width:100%;font-size:.95rem}\n"
	"th,td{padding:.45rem .6rem;border-bottom:1px solid var(--line);text-align:left;"
	"vertical-align:top}\n"
	"thead th{font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;"
	"color:var(--muted);border-bottom:2px solid var(--line)}\n"
	".n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"td.why{color:var(--muted);font-size:.9rem;min-width:18rem}\n"
	"ul.notes{margin:.3rem 0 0;padding-left:1.1rem}\n"
	"td.nowrap,tbody th{white-space:nowrap}\n"
	".legend{display:flex;flex-wrap:wrap;gap:.4rem 1.25rem;list-style:none;"
	"padding:0;margin:.25rem 0 1rem;font-size:.9rem}\n"
	".sw{display:inline-block;width:.9rem;height:.9rem;border:2px solid var(--c);"
	"background:var(--t);border-radius:.2rem;vertical-align:-.12rem;margin-right:.4rem}\n"
	".sw.idle{border:2px dashed #aab2bd;background:#fff}\n"
	".nodes{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem}\n"
	".node{min-width:0;border:1px solid var(--line);border-radius:.5rem;padding:1rem}\n"
	".meta{font-size:.9rem;margin:.1rem 0 0;overflow-wrap:anywhere}\n"
	"figure{margin:1rem 0 0}\n"
	"figcaption{font-size:.9rem;margin-bottom:.3rem}\n"
	".who{font-size:.85rem;margin:.3rem 0 0;overflow-wrap:anywhere}\n"
	"svg{display:block;width:100%;height:auto}\n"
	/* Never so narrow that the text in the pictures gets too small:
	 * scroll sideways instead. */
	".scroll svg.gpu{min-width:50rem}\n"
	"svg.teams{max-width:30rem}\n"
	"svg text{font-size:13px;fill:var(--fg)}\n"
	"svg .b{font-weight:600}\n"
	"svg .dim{fill:var(--muted);font-size:12px}\n"
	"svg .seg{fill:var(--t);stroke:var(--c);stroke-width:1.5}\n"
	"svg .idle{fill:#fff;stroke:#aab2bd;stroke-dasharray:4 3}\n"
	"svg .slot{fill:var(--panel);stroke:var(--line)}\n"
	"svg .bar{fill:#4d6278}\n"
	".s-ded{--c:#2b6cb0;--t:#dce8f5}\n"
	".s-ts{--c:#b7791f;--t:#fbebcf}\n"
	".s-mps{--c:#2f855a;--t:#d6efe1}\n"
	".s-mig{--c:#805ad5;--t:#e9e1f8}\n"
	".s-frac{--c:#c53030;--t:#fadcdc}\n"
	".unused{--c:#b3bac4;--t:#eceef1}\n"
	/* The chargeback's pictures (cost_report.c): a colour per team, idle
	 * grey. */
	"svg .hold{fill:var(--t);stroke:var(--c);stroke-width:1.5}\n"
	"svg .free{fill:#e4e7eb;stroke:#b3bac4}\n"
	".sw.free{--c:#b3bac4;--t:#e4e7eb}\n"
	".t0{--c:#2b6cb0;--t:#dce8f5}.t1{--c:#b7791f;--t:#fbebcf}"
	".t2{--c:#2f855a;--t:#d6efe1}.t3{--c:#805ad5;--t:#e9e1f8}"
	".t4{--c:#c53030;--t:#fbdede}.t5{--c:#2c7a7b;--t:#d5f0ef}"
	".t6{--c:#b83280;--t:#f8ddec}.t7{--c:#975a16;--t:#f3e3cf}\n"
	"footer{margin-top:3rem;font-size:.85rem;border-top:1px solid var(--line);"
	"padding-top:.75rem}\n"
	"@media (max-width:40rem){main{padding:1rem .75rem 2rem}h1{font-size:1.3rem}"
	".cards{grid-template-columns:repeat(2,1fr)}.card{padding:.6rem .75rem}"
	".card .v{font-size:1.3rem}"
	/* On a phone each workload is a block: its name, a line of facts,
	 * then why. */
	".wl thead{position:absolute;width:1px;height:1px;overflow:hidden;"
	"clip:rect(0 0 0 0)}"
	".wl,.wl tbody,.wl tr,.wl th,.wl td{display:block}"
	".wl tr{padding:.6rem 0;border-bottom:1px solid var(--line)}"
	".wl th,.wl td{border:0;padding:.1rem 0;text-align:left}"
	".wl td.fact{display:inline-block;margin-right:1rem}"
	".wl td[data-k]::before{content:attr(data-k) \" \";color:var(--muted)}"
	"td.why{min-width:0}}\n"
	"@media (max-width:22rem){.cards{grid-template-columns:1fr}}\n";

void gs_report_page_head(gs_buf *b, const char *title, const char *what)
{
	gs_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	               "<meta name=\"generator\" content=\"gpushare " GS_VERSION "\">\n<title>");
	gs_html_esc(b, title);
	gs_buf_printf(b, " \xE2\x80\x94 %s</title>\n<style>\n", what);
	gs_buf_puts(b, css);
	gs_buf_puts(b, "</style>\n</head>\n<body>\n<main>\n");
}

void gs_report_page_foot(gs_buf *b)
{
	gs_buf_puts(b, "<footer>Made by gpushare " GS_VERSION
	               ". This page is self-contained: it loads nothing and runs no "
	               "script.</footer>\n</main>\n</body>\n</html>\n");
}

static void card(gs_buf *b, const char *cls, const char *key)
{
	gs_buf_printf(b, "<div class=\"card%s%s\"><p class=\"k\">%s</p><p class=\"v\">",
	              cls ? " " : "", cls ? cls : "", key);
}

static void card_money(gs_buf *b, const char *key, gs_micros after, gs_micros before)
{
	card(b, NULL, key);
	gs_html_money(b, after);
	gs_buf_puts(b, "</p><p class=\"was\">before ");
	gs_html_money(b, before);
	gs_buf_puts(b, "</p></div>\n");
}

static void card_count(gs_buf *b, const char *key, int after, int before)
{
	card(b, NULL, key);
	gs_buf_printf(b, "%d</p><p class=\"was\">before %d</p></div>\n", after, before);
}

/* A saving against a baseline: "saves $X an hour (Y%) against it". */
static void saves(gs_buf *b, gs_micros saved, int permille)
{
	gs_buf_puts(b, " This plan saves ");
	gs_html_money(b, saved);
	gs_buf_puts(b, " an hour (");
	gs_html_permille(b, permille);
	gs_buf_puts(b, ") against it.");
}

/* What before is, and the other figures a saving is stated against; the
 * rule that limited sharing, when one did. */
/* The plan's proof: what no plan can cost less than, and the gap. */
static void bound(gs_buf *b, const gs_plan_summary *s)
{
	int gap = gs_plan_gap_permille(s);
	if (gap < 0)
		return;
	gs_buf_puts(b, "<p class=\"note\">Best possible: ");
	if (strcmp(s->lower_bound_by, "optimum") == 0) {
		gs_buf_puts(b, "no plan under these rules costs less than this one (proven by "
		               "the optimiser's integer program).</p>\n");
		return;
	}
	gs_buf_puts(b, "no plan under these rules costs less than ");
	gs_html_money(b, s->lower_bound_per_hour);
	gs_buf_puts(b, strcmp(s->lower_bound_by, "program") == 0
	                   ? " an hour (the optimiser's integer program), so this plan is "
	                   : strcmp(s->lower_bound_by, "relaxation") == 0
	                   ? " an hour (the packing's linear relaxation), so this plan is "
	                   : " an hour (the memory and compute every GPU offers), so this plan "
	                     "is ");
	gs_buf_puts(b, "at most ");
	gs_html_permille(b, gap);
	gs_buf_puts(b, " above the best possible.</p>\n");
}

static void baselines(gs_buf *b, const gs_plan_summary *s)
{
	gs_buf_puts(b, "<p class=\"note\">");
	if (s->before_is_cluster) {
		gs_buf_puts(b, "Before: the cluster as it runs today. After: this plan. The "
		               "cheapest plan found with a whole GPU per replica costs ");
		gs_html_money(b, s->dedicated_per_hour);
		gs_buf_puts(b, " an hour.");
		saves(b, s->savings_vs_dedicated_per_hour, s->savings_vs_dedicated_permille);
	} else {
		gs_buf_puts(b, "Before: the cheapest plan found with a whole GPU per replica, "
		               "bought from the same instances. After: this plan.");
	}
	if (s->current_per_hour >= 0 && !s->before_is_cluster) {
		gs_buf_puts(b, " What the workloads that name their <code>current</code> "
		               "instances cost today: ");
		gs_html_money(b, s->current_per_hour);
		gs_buf_puts(b, " an hour.");
		saves(b, s->current_savings_per_hour, s->current_savings_permille);
	}
	gs_buf_puts(b, " Capacity that no replica holds: ");
	gs_html_money(b, s->idle_per_hour);
	gs_buf_puts(b, " an hour.</p>\n");
	if (s->sharing_limit) {
		gs_buf_puts(b, "<p class=\"note\">Limit: ");
		gs_html_esc(b, s->sharing_limit);
		gs_buf_puts(b, "</p>\n");
	}
	bound(b, s);
}

static void summary(gs_buf *b, const gs_plan *p, const char *title)
{
	const gs_plan_summary *s = gs_plan_summary_get(p);
	gs_micros h = s->hours_per_month;
	size_t nw = gs_plan_workload_count(p);

	gs_buf_puts(b, "<header>\n<h1>Sharing plan for ");
	gs_html_esc(b, title);
	gs_buf_printf(b, "</h1>\n<p class=\"sub\">%zu workload%s, %d replica%s, %s prices, "
	                 "%d hours a month</p>\n</header>\n",
	              nw, nw == 1 ? "" : "s", s->replicas, s->replicas == 1 ? "" : "s",
	              gs_pricing_name(s->pricing), s->hours_per_month);
	gs_buf_puts(b, "<section aria-labelledby=\"h-summary\">\n"
	               "<h2 id=\"h-summary\">Before and after</h2>\n");
	if (s->costs_more) {
		gs_buf_puts(b, "<p class=\"warn\" role=\"alert\"><strong>Costs more.</strong> ");
		gs_html_esc(b, s->costs_more);
		gs_buf_puts(b, "</p>\n");
	}
	gs_buf_puts(b, "<div class=\"cards\">\n");
	card(b, s->savings_per_hour > 0 ? "good" : NULL, "Saved");
	gs_html_permille(b, s->savings_permille);
	gs_buf_puts(b, "</p><p class=\"was\">");
	gs_html_money(b, s->savings_per_hour);
	gs_buf_puts(b, " an hour, ");
	gs_html_money(b, s->savings_per_hour * h);
	gs_buf_puts(b, " a month</p></div>\n");
	card_money(b, "Cost per hour", s->after_per_hour, s->before_per_hour);
	card_money(b, "Cost per month", s->after_per_hour * h, s->before_per_hour * h);
	card_count(b, "GPUs", s->gpus_after, s->gpus_before);
	card_count(b, "Instances", s->instances_after, s->instances_before);
	card(b, NULL, "Planned utilization");
	gs_html_permille(b, s->util_after_permille);
	gs_buf_puts(b, "</p><p class=\"was\">before ");
	gs_html_permille(b, s->util_before_permille);
	gs_buf_puts(b, "</p></div>\n</div>\n");
	baselines(b, s);
	gs_buf_puts(b, "</section>\n");
}

static void teams(gs_buf *b, const gs_plan *p)
{
	gs_buf_puts(b, "<section aria-labelledby=\"h-teams\">\n"
	               "<h2 id=\"h-teams\">Cost per team</h2>\n<div class=\"scroll\">\n");
	gs_svg_teams(b, p);
	gs_buf_puts(b, "</div>\n<p class=\"note\">Each team pays for the capacity its "
	               "replicas hold: the larger of their share of a GPU's memory and of its "
	               "compute, a MIG instance, or whole GPUs when fault-isolated or held by "
	               "a replica of several. Idle "
	               "(dashed) is what no replica holds, carried by the teams on each node in "
	               "proportion to what they hold there. Costs and idle add up to the "
	               "plan's cost.</p>\n</section>\n");
}

/* "MPS", "time-slicing": a strategy as the page names it. */
static const char *label(gs_strategy s) { return gs_strategy_info_get(s)->label; }

/* A strategy's colour swatch and its name. */
static void swatch(gs_buf *b, gs_strategy s)
{
	gs_buf_printf(b, "<span class=\"sw %s\" aria-hidden=\"true\"></span>%s",
	              gs_strategy_info_get(s)->css, label(s));
}

static void strategy_cell(gs_buf *b, gs_strategy s)
{
	gs_buf_puts(b, "<td class=\"nowrap fact\">");
	swatch(b, s);
	gs_buf_puts(b, "</td>");
}


/* A share in percent, to one decimal where it has one: "44.5", "76". */
static void share(gs_buf *b, int64_t ppm)
{
	int64_t pm = (ppm + 500) / 1000;
	if (pm % 10)
		gs_buf_printf(b, "%lld.%lld", (long long)(pm / 10), (long long)(pm % 10));
	else
		gs_buf_printf(b, "%lld", (long long)(pm / 10));
}

/* Dollars per unit of work, to four decimals. */
static void unit_money(gs_buf *b, gs_micros m)
{
	char d[32];
	gs_buf_printf(b, "$%s", gs_micros_format(m, 4, d, sizeof d));
}

/* What sharing keeps of its throughput, and what a unit of its work costs
 * with a whole GPU per replica and here: items of its notes' list. */
static void retention(gs_buf *b, const gs_plan_retention *r)
{
	if (r->shared) {
		gs_buf_puts(b, "<li class=\"keeps\">keeps ");
		share(b, r->low_ppm);
		if (r->high_ppm != r->low_ppm) {
			gs_buf_puts(b, "&ndash;");
			share(b, r->high_ppm);
		}
		gs_buf_puts(b, "% of its throughput (");
		gs_html_esc(b, r->source);
		gs_buf_puts(b, ")</li>");
	}
	if (r->unit != GS_WORK_NONE) {
		gs_buf_printf(b, "<li class=\"per-unit\">per %s: ", gs_work_per_name(r->unit));
		unit_money(b, r->before);
		gs_buf_puts(b, " with a whole GPU per replica, ");
		unit_money(b, r->after_high);
		if (r->after_low != r->after_high) {
			gs_buf_puts(b, "&ndash;");
			unit_money(b, r->after_low);
		}
		gs_buf_puts(b, " here");
		if (r->shared && !r->pays) {
			gs_buf_puts(b, "; <strong>sharing stops paying</strong>: keeping ");
			share(b, r->low_ppm);
			gs_buf_puts(b, "%, a unit of its work costs more than on a whole GPU");
		}
		gs_buf_puts(b, "</li>");
	}
}

/* The plan's notes on workload i (its compute converted between models),
 * then what sharing costs it in throughput: one list. */
static void notes(gs_buf *b, const gs_plan *p, size_t i)
{
	const gs_plan_workload *w = gs_plan_workload_at(p, i);
	gs_plan_retention r;
	int more = gs_plan_retention_at(p, i, &r, NULL) == 0 &&
	           (r.shared || r.unit != GS_WORK_NONE);
	if (!w->n_notes && !more)
		return;
	gs_buf_puts(b, "<ul class=\"notes\">");
	for (size_t k = 0; k < w->n_notes; k++) {
		gs_buf_puts(b, "<li>");
		gs_html_esc(b, w->notes[k]);
		gs_buf_puts(b, "</li>");
	}
	if (more)
		retention(b, &r);
	gs_buf_puts(b, "</ul>");
}

static void workloads(gs_buf *b, const gs_plan *p)
{
	gs_buf_puts(b, "<section aria-labelledby=\"h-workloads\">\n"
	               "<h2 id=\"h-workloads\">Workloads</h2>\n<div class=\"scroll\">\n"
	               "<table class=\"wl\">\n"
	               "<thead><tr><th scope=\"col\">Workload</th><th scope=\"col\">Team</th>"
	               "<th scope=\"col\">Strategy</th><th scope=\"col\" class=\"n\">Replicas</th>"
	               "<th scope=\"col\" class=\"n\">Cost per hour</th>"
	               "<th scope=\"col\">Why</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < gs_plan_workload_count(p); i++) {
		const gs_plan_workload *w = gs_plan_workload_at(p, i);
		gs_buf_puts(b, "<tr><th scope=\"row\">");
		gs_html_esc(b, w->workload->name);
		gs_buf_puts(b, "</th><td class=\"fact\" data-k=\"team\">");
		gs_html_esc(b, w->workload->team);
		gs_buf_puts(b, "</td>");
		strategy_cell(b, w->strategy);
		gs_buf_printf(b, "<td class=\"n fact\" data-k=\"replicas\">%d</td>"
		                 "<td class=\"n fact\" data-k=\"per hour\">",
		              w->workload->replicas);
		gs_html_money(b, w->cost_per_hour);
		gs_buf_puts(b, "</td><td class=\"why\">");
		gs_html_esc(b, w->why);
		notes(b, p, i);
		gs_buf_puts(b, "</td></tr>\n");
	}
	gs_buf_puts(b, "</tbody>\n</table>\n</div>\n</section>\n");
}

static int has_fractions(const gs_plan *p)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		for (size_t g = 0; g < n->n_gpus; g++)
			if (n->gpus[g].strategy == GS_STRATEGY_FRACTION)
				return 1;
	}
	return 0;
}

/* The strategies' colours; fractions only where the plan has them. */
static void legend(gs_buf *b, const gs_plan *p)
{
	static const gs_strategy all[] = { GS_STRATEGY_DEDICATED, GS_STRATEGY_TIME_SLICING,
		                               GS_STRATEGY_MPS, GS_STRATEGY_MIG,
		                               GS_STRATEGY_FRACTION };
	size_t n = GS_ARRAY_LEN(all) - !has_fractions(p);
	gs_buf_puts(b, "<ul class=\"legend\" aria-label=\"Legend\">\n");
	for (size_t i = 0; i < n; i++) {
		gs_buf_puts(b, "<li>");
		swatch(b, all[i]);
		gs_buf_puts(b, "</li>\n");
	}
	gs_buf_puts(b, "<li><span class=\"sw unused\" aria-hidden=\"true\"></span>unused GPU</li>\n"
	               "<li><span class=\"sw idle\" aria-hidden=\"true\"></span>free share or "
	               "slot</li>\n</ul>\n");
}

/* "globex-search/0 13%, ..." as the text output lists them. */
static void who(gs_buf *b, const gs_assignment *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		gs_buf_puts(b, i ? ", " : "");
		gs_html_esc(b, a[i].workload->name);
		gs_buf_printf(b, "/%d ", a[i].replica);
		gs_html_ppm(b, a[i].compute_ppm);
		if (a[i].thread_percent)
			gs_buf_printf(b, " (%d%% threads, %lld MiB)", a[i].thread_percent,
			              (long long)a[i].memory_limit_mib);
	}
}

/* Bytes as GiB with two decimals, rounded to nearest. */
static void gib(gs_buf *b, int64_t bytes)
{
	int64_t h = (bytes * 100 + (INT64_C(1) << 29)) >> 30;
	gs_buf_printf(b, "%lld.%02lld", (long long)(h / 100), (long long)(h % 100));
}

/* Where several replicas share a GPU or instance: the memory they plan to
 * hold of what it offers, and the headroom time-slicing keeps free. */
static void memory(gs_buf *b, size_t n, int64_t mem, int64_t offer, int64_t room)
{
	if (n < 2)
		return;
	gs_buf_puts(b, ", memory ");
	gib(b, mem);
	gs_buf_puts(b, " of ");
	gib(b, offer);
	gs_buf_puts(b, " GiB");
	if (room)
		gs_buf_printf(b, " (%lld%% headroom kept free)",
		              (long long)((room + 5000) / 10000));
}

static void gpu_caption(gs_buf *b, const gs_plan_gpu *g)
{
	gs_buf_printf(b, "<figcaption><strong>GPU %d</strong> \xC2\xB7 ", g->index);
	gs_html_esc(b, g->model->name);
	gs_buf_puts(b, " \xC2\xB7 ");
	if (gs_svg_gpu_unused(g))
		gs_buf_puts(b, "unused");
	else
		gs_buf_puts(b, label(g->strategy));
	if (g->strategy == GS_STRATEGY_FRACTION)
		gs_buf_printf(b, " (%s)", gs_backend_name(g->backend));
	if (g->strategy == GS_STRATEGY_TIME_SLICING || g->strategy == GS_STRATEGY_MPS)
		gs_buf_printf(b, ", %d replicas", g->replicas);
	memory(b, g->n_assignments, g->memory_bytes, g->memory_offer_bytes,
	       g->memory_headroom_ppm);
	if (g->strategy == GS_STRATEGY_MIG && g->model->mig_slots > 0)
		gs_buf_printf(b, ", %d memory slots", g->model->mig_slots);
	gs_buf_puts(b, "</figcaption>\n");
}

static void gpu_figure(gs_buf *b, const gs_plan_gpu *g, size_t node)
{
	gs_buf_puts(b, "<figure>\n");
	gpu_caption(b, g);
	gs_buf_puts(b, "<div class=\"scroll\">\n");
	gs_svg_gpu(b, g, node);
	gs_buf_puts(b, "</div>\n");
	if (g->n_assignments) {
		gs_buf_puts(b, "<p class=\"who\">");
		who(b, g->assignments, g->n_assignments);
		gs_buf_puts(b, "</p>\n");
	}
	for (size_t m = 0; m < g->n_mig; m++) {
		const gs_plan_mig *mi = &g->mig[m];
		gs_buf_puts(b, "<p class=\"who\">");
		gs_html_esc(b, mi->profile->name);
		gs_buf_printf(b, " at slot %d", mi->start);
		if (mi->strategy != GS_STRATEGY_DEDICATED)
			gs_buf_printf(b, ", %s \xC3\x97%d", label(mi->strategy), mi->replicas);
		memory(b, mi->n_assignments, mi->memory_bytes, mi->memory_offer_bytes,
		       mi->memory_headroom_ppm);
		gs_buf_puts(b, ": ");
		who(b, mi->assignments, mi->n_assignments);
		gs_buf_puts(b, "</p>\n");
	}
	gs_buf_puts(b, "</figure>\n");
}

static void nodes(gs_buf *b, const gs_plan *p)
{
	gs_buf_puts(b, "<section aria-labelledby=\"h-nodes\">\n"
	               "<h2 id=\"h-nodes\">GPUs per node</h2>\n");
	legend(b, p);
	gs_buf_puts(b, "<div class=\"nodes\">\n");
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		gs_buf_printf(b, "<article class=\"node\">\n<h3>Node %zu \xC2\xB7 ", i + 1);
		gs_html_esc(b, n->instance->type);
		gs_buf_puts(b, "</h3>\n<p class=\"meta\">");
		gs_html_esc(b, n->instance->cloud);
		gs_buf_puts(b, " \xC2\xB7 ");
		gs_html_money(b, n->price_per_hour);
		gs_buf_puts(b, " an hour \xC2\xB7 device-plugin config ");
		gs_html_esc(b, n->config);
		if (n->mig_config) {
			gs_buf_puts(b, " \xC2\xB7 mig-parted config ");
			gs_html_esc(b, n->mig_config);
		}
		gs_buf_puts(b, "</p>\n");
		for (size_t g = 0; g < n->n_gpus; g++)
			gpu_figure(b, &n->gpus[g], i);
		gs_buf_puts(b, "</article>\n");
	}
	gs_buf_puts(b, "</div>\n</section>\n");
}

static void warnings(gs_buf *b, const gs_plan *p)
{
	if (!gs_plan_warning_count(p))
		return;
	gs_buf_puts(b, "<section aria-labelledby=\"h-warnings\">\n"
	               "<h2 id=\"h-warnings\">Warnings</h2>\n<ul>\n");
	for (size_t i = 0; i < gs_plan_warning_count(p); i++) {
		gs_buf_puts(b, "<li>");
		gs_html_esc(b, gs_plan_warning_at(p, i));
		gs_buf_puts(b, "</li>\n");
	}
	gs_buf_puts(b, "</ul>\n</section>\n");
}

int gs_report_html(const gs_plan *p, const char *title, char **out, gs_error *err)
{
	gs_buf b = GS_BUF_INIT;

	if (!p || !out)
		return gs_fail(err, GS_EINVAL, "a plan and an output are required");
	*out = NULL;
	if (!title)
		title = "the current scenario";
	gs_report_page_head(&b, title, "gpushare plan");
	summary(&b, p, title);
	teams(&b, p);
	workloads(&b, p);
	nodes(&b, p);
	warnings(&b, p);
	gs_report_page_foot(&b);
	return gs_buf_detach(&b, out, err);
}
