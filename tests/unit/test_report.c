/*
 * test_report.c - the HTML report: the escaper against hostile strings,
 * the number formats, and the page of two shipped examples: self-contained,
 * the text output's figures, one rect per MIG instance drawn to scale,
 * every team in the chart, an escaped title, and the same bytes twice.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "report/html.h"
#include "report/svg.h"

/* ---- escaping and numbers ------------------------------------------------ */

/* gs_html_esc(s) (or gs_html_esc_max(s, max) when max > 0) must give want. */
static void expect_esc(const char *s, size_t max, const char *want)
{
	gs_buf b = GS_BUF_INIT;
	char *out = NULL;
	gs_error err;

	if (max)
		gs_html_esc_max(&b, s, max);
	else
		gs_html_esc(&b, s);
	assert_gs_ok(gs_buf_detach(&b, &out, &err), &err);
	assert_string_equal(out, want);
	free(out);
}

static void test_escape(void **state)
{
	(void)state;
	expect_esc("plain-name_1.2", 0, "plain-name_1.2");
	expect_esc("<script>alert('x')</script>", 0,
	           "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	expect_esc("a\"b'c&d", 0, "a&quot;b&#39;c&amp;d");
	expect_esc("]]><![CDATA[", 0, "]]&gt;&lt;![CDATA[");
	expect_esc("\" onmouseover=\"x", 0, "&quot; onmouseover=&quot;x");
	expect_esc("&amp;", 0, "&amp;amp;");
	expect_esc("<!-- -->", 0, "&lt;!-- --&gt;");
	/* Tab and newline stay; other controls, DEL and C1 do not. */
	expect_esc("a\tb\nc", 0, "a\tb\nc");
	expect_esc("\x01x\x1b[0m\x7f", 0, "\xEF\xBF\xBDx\xEF\xBF\xBD[0m\xEF\xBF\xBD");
	expect_esc("\xC2\x85", 0, "\xEF\xBF\xBD");
	/* Well-formed UTF-8 passes; anything else becomes U+FFFD. */
	expect_esc("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", 0,
	           "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
	expect_esc("\xFF<", 0, "\xEF\xBF\xBD&lt;");
	expect_esc("\xC3", 0, "\xEF\xBF\xBD");                 /* truncated */
	expect_esc("\xC0\xBC", 0, "\xEF\xBF\xBD\xEF\xBF\xBD"); /* overlong '<' */
	expect_esc("\xED\xA0\x80", 0, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* surrogate */
	expect_esc(NULL, 0, "");
	expect_esc("", 0, "");
}

static void test_escape_max(void **state)
{
	(void)state;
	expect_esc("short", 5, "short");
	expect_esc("longer", 5, "long\xE2\x80\xA6");
	/* Entities count as one character and are never cut. */
	expect_esc("<<<<", 3, "&lt;&lt;\xE2\x80\xA6");
	/* Nor are multi-byte characters. */
	expect_esc("\xC3\xA9\xC3\xA9\xC3\xA9", 2, "\xC3\xA9\xE2\x80\xA6");
	expect_esc("\xC3\xA9\xC3\xA9", 2, "\xC3\xA9\xC3\xA9");
	assert_int_equal(gs_html_chars("\xC3\xA9-\xFF"), 3);
	assert_int_equal(gs_html_chars(NULL), 0);
}

static void expect_money(gs_micros m, const char *want)
{
	gs_buf b = GS_BUF_INIT;
	char *out = NULL;
	gs_error err;

	gs_html_money(&b, m);
	assert_gs_ok(gs_buf_detach(&b, &out, &err), &err);
	assert_string_equal(out, want);
	free(out);
}

static void test_numbers(void **state)
{
	gs_buf b = GS_BUF_INIT;
	char *out = NULL;
	gs_error err;
	(void)state;

	expect_money(0, "$0.00");
	expect_money(18370000, "$18.37");
	expect_money(4995, "$0.00");
	expect_money(5000, "$0.01");
	expect_money(13407864600, "$13,407.86");
	expect_money(1234567890123, "$1,234,567.89");
	expect_money(-500000, "-$0.50");
	expect_money(-1000000000, "-$1,000.00");
	gs_html_permille(&b, 443);
	gs_buf_puts(&b, " ");
	gs_html_permille(&b, -5);
	gs_buf_puts(&b, " ");
	gs_html_ppm(&b, 125000);
	assert_gs_ok(gs_buf_detach(&b, &out, &err), &err);
	assert_string_equal(out, "44.3% -0.5% 13%");
	free(out);
}

/* ---- pages of the examples ----------------------------------------------- */

static gs_catalog *cat;

static int group_setup(void **state)
{
	gs_error err;
	(void)state;
	assert_gs_ok(gs_catalog_load(TEST_PROFILES, &cat, &err), &err);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	gs_catalog_free(cat);
	return 0;
}

typedef struct page {
	gs_scenario *scn;
	gs_plan *plan;
	char *html;
} page;

static void page_make(page *pg, const char *file, const char *title)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_error err;

	memset(pg, 0, sizeof *pg);
	assert_gs_ok(gs_scenario_load(cat, file, &pg->scn, &err), &err);
	assert_gs_ok(gs_plan_make(pg->scn, &po, &pg->plan, &err), &err);
	assert_gs_ok(gs_report_html(pg->plan, title, &pg->html, &err), &err);
	assert_non_null(pg->html);
}

static void page_free(page *pg)
{
	free(pg->html);
	gs_plan_free(pg->plan);
	gs_scenario_free(pg->scn);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle))
		n++;
	return n;
}

/* Dollars as the text output prints them: "$1,234.56". */
static void dollars(gs_micros m, char *buf, size_t size)
{
	char plain[32], grouped[48];
	size_t len, o = 0;

	assert_true(m >= 0);
	gs_micros_format(m, 2, plain, sizeof plain);
	len = strcspn(plain, ".");
	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			grouped[o++] = ',';
		grouped[o++] = plain[i];
	}
	snprintf(grouped + o, sizeof grouped - o, "%s", plain + len);
	snprintf(buf, size, "$%s", grouped);
}

static void assert_contains(const char *html, const char *what)
{
	if (!strstr(html, what))
		fail_msg("the page lacks '%s'", what);
}

static void check_self_contained(const char *html)
{
	static const char *const banned[] = { "http://", "https://", "<script", "src=",
		                                  "@import", "url(", "<link", "<img" };
	assert_true(strncmp(html, "<!DOCTYPE html>\n", 16) == 0);
	assert_contains(html, "<html lang=\"en\">");
	assert_contains(html, "<meta charset=\"utf-8\">");
	assert_contains(html, "<meta name=\"viewport\" content=\"width=device-width, "
	                      "initial-scale=1\">");
	for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++)
		if (strstr(html, banned[i]))
			fail_msg("the page contains '%s'", banned[i]);
	assert_int_equal(count(html, "<svg "), count(html, "</svg>"));
	assert_int_equal(count(html, "<svg "), count(html, "<title id="));
}

static void check_summary(const gs_plan *p, const char *html)
{
	const gs_plan_summary *s = gs_plan_summary_get(p);
	char buf[64];
	int a = s->savings_permille < 0 ? -s->savings_permille : s->savings_permille;

	dollars(s->after_per_hour, buf, sizeof buf);
	assert_contains(html, buf);
	dollars(s->before_per_hour, buf, sizeof buf);
	assert_contains(html, buf);
	dollars(s->savings_per_hour, buf, sizeof buf);
	assert_contains(html, buf);
	dollars(s->after_per_hour * s->hours_per_month, buf, sizeof buf);
	assert_contains(html, buf);
	dollars(s->before_per_hour * s->hours_per_month, buf, sizeof buf);
	assert_contains(html, buf);
	snprintf(buf, sizeof buf, ">%s%d.%d%%<", s->savings_permille < 0 ? "-" : "", a / 10,
	         a % 10);
	assert_contains(html, buf);
	snprintf(buf, sizeof buf, ">%d</p><p class=\"was\">before %d<", s->gpus_after,
	         s->gpus_before);
	assert_contains(html, buf);
	snprintf(buf, sizeof buf, ">%d</p><p class=\"was\">before %d<", s->instances_after,
	         s->instances_before);
	assert_contains(html, buf);
}

/* Each MIG instance, in plan order, is one rect with data-mig=PROFILE
 * whose x and width put it over its memory slots (inset by 2 each side). */
static size_t check_mig(const gs_plan *p, const char *html)
{
	const char *at = html;
	size_t n = 0;

	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *node = gs_plan_node_at(p, i);
		for (size_t g = 0; g < node->n_gpus; g++) {
			int slots = node->gpus[g].model->mig_slots;
			for (size_t m = 0; m < node->gpus[g].n_mig; m++) {
				const gs_plan_mig *mi = &node->gpus[g].mig[m];
				int end = mi->start + mi->profile->memory_slices;
				int x0 = GS_SVG_GPU_X + mi->start * GS_SVG_GPU_W / slots;
				int x1 = GS_SVG_GPU_X + end * GS_SVG_GPU_W / slots;
				char want[128];

				snprintf(want, sizeof want,
				         "data-mig=\"%s\" x=\"%d\" y=\"2\" width=\"%d\"",
				         mi->profile->name, x0 + 2, x1 - x0 - 4);
				at = strstr(at, want);
				if (!at)
					fail_msg("no rect '%s' (node %zu gpu %zu)", want, i + 1, g);
				at++;
				n++;
			}
		}
	}
	assert_int_equal(count(html, "data-mig=\""), n);
	return n;
}

static void check_names(const gs_plan *p, const char *html)
{
	const char *chart = strstr(html, "<svg class=\"teams\"");
	const char *end = chart ? strstr(chart, "</svg>") : NULL;
	char want[128];

	assert_non_null(end);
	assert_int_equal(gs_plan_team_count(p) > 0, 1);
	for (size_t i = 0; i < gs_plan_team_count(p); i++) {
		const char *hit;
		snprintf(want, sizeof want, ">%s</text>", gs_plan_team_at(p, i)->team);
		hit = strstr(chart, want);
		if (!hit || hit > end)
			fail_msg("team '%s' is not in the chart", gs_plan_team_at(p, i)->team);
	}
	for (size_t i = 0; i < gs_plan_workload_count(p); i++) {
		snprintf(want, sizeof want, "<th scope=\"row\">%s</th>",
		         gs_plan_workload_at(p, i)->workload->name);
		assert_contains(html, want);
	}
}

static size_t check_example(const char *file)
{
	page a, b;
	size_t n_mig;

	page_make(&a, file, file);
	check_self_contained(a.html);
	check_summary(a.plan, a.html);
	n_mig = check_mig(a.plan, a.html);
	check_names(a.plan, a.html);
	/* The same plan gives the same bytes, and so does a fresh plan. */
	page_make(&b, file, file);
	assert_string_equal(a.html, b.html);
	free(b.html);
	assert_gs_ok(gs_report_html(a.plan, file, &b.html, NULL), NULL);
	assert_string_equal(a.html, b.html);
	page_free(&b);
	page_free(&a);
	return n_mig;
}

static void test_multi_tenant_mig(void **state)
{
	(void)state;
	assert_true(check_example("../examples/multi-tenant-mig.yaml") > 0);
}

static void test_mixed_fleet(void **state)
{
	(void)state;
	check_example("../examples/mixed-fleet.yaml");
}

/* Memory against what a shared GPU offers, in its caption, and the plan's
 * conversion notes in the workload table. */
static void test_memory_and_notes(void **state)
{
	page pg;
	(void)state;
	page_make(&pg, "fixtures/unit/memory.yaml", "memory");
	assert_contains(pg.html, "time-slicing, 2 replicas, memory 18.00 of 19.76 GiB (10% "
	                         "headroom kept free)</figcaption>");
	assert_contains(pg.html, "<ul class=\"notes\"><li>measured on A10G; on L4 its 30% "
	                         "becomes 60%: memory-bandwidth-bound, 600 -&gt; 300 GB/s"
	                         "</li></ul></td></tr>");
	/* The two time-sliced notebooks' lists hold only what they keep. */
	assert_int_equal(count(pg.html, "<ul class=\"notes\">"), 3);
	assert_int_equal(count(pg.html, "<ul class=\"notes\"><li class=\"keeps\">keeps "
	                                "44.5&ndash;76% of its throughput (NVIDIA: Dynamo "
	                                "study, MIG vs time-slicing)</li></ul>"), 2);
	/* A replica alone shows no memory line. */
	assert_int_equal(count(pg.html, ", memory "), 1);
	page_free(&pg);
}

/* What sharing keeps of each workload's throughput, and the price of a
 * unit of its work (figures checked by hand in the CLI case
 * plan_retention_throughput). */
static void test_retention(void **state)
{
	page pg;
	(void)state;
	page_make(&pg, "cli/fixtures/retention/throughput.yaml", "retention");
	assert_contains(pg.html, "<li class=\"per-unit\">per 1M tokens: $0.7083 with a whole "
	                         "GPU per replica, $0.2067&ndash;$0.3530 here</li></ul>");
	assert_contains(pg.html, "<li class=\"keeps\">keeps 80% of its throughput (your "
	                         "measurement)</li><li class=\"per-unit\">per 1k requests: "
	                         "$0.0283 with a whole GPU per replica, $0.0071 here</li>");
	assert_contains(pg.html, "per 1M tokens: $1.7000 with a whole GPU per replica, "
	                         "$2.1250 here; <strong>sharing stops paying</strong>: keeping "
	                         "20%, a unit of its work costs more than on a whole GPU</li>");
	assert_int_equal(count(pg.html, "<li class=\"keeps\">"), 4);
	assert_int_equal(count(pg.html, "<li class=\"per-unit\">"), 3);
	page_free(&pg);
}

/* Fraction GPUs: their colour, backend and shares; the legend names
 * fractions only where the plan has them. */
static void test_fractions(void **state)
{
	page pg, none;
	(void)state;
	page_make(&pg, "cli/fixtures/fractions/uneven.yaml", "fractions");
	page_make(&none, "cli/fixtures/fractions/uneven-none.yaml", "none");
	assert_contains(pg.html, "<span class=\"sw s-frac\" aria-hidden=\"true\"></span>"
	                         "fraction</li>");
	assert_contains(pg.html, "L4 \xC2\xB7 fraction (hami), memory 21.00 of 21.95 GiB");
	assert_int_equal(count(pg.html, "class=\"seg s-frac\""), 4);
	assert_int_equal(count(none.html, "s-frac\""), 0);
	assert_int_equal(count(none.html, "class=\"seg s-ts\""), 2);
	page_free(&pg);
	page_free(&none);
}

static void test_hostile_title(void **state)
{
	page pg;
	(void)state;

	page_make(&pg, "../examples/mixed-fleet.yaml", "<b>\"x\"&'y'</b>]]><script>");
	assert_contains(pg.html, "<title>&lt;b&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/b&gt;"
	                         "]]&gt;&lt;script&gt; ");
	assert_contains(pg.html, "<h1>Sharing plan for &lt;b&gt;&quot;x&quot;&amp;&#39;y&#39;"
	                         "&lt;/b&gt;]]&gt;&lt;script&gt;</h1>");
	assert_null(strstr(pg.html, "<b>"));
	assert_null(strstr(pg.html, "\"x\""));
	assert_null(strstr(pg.html, "<script"));
	page_free(&pg);
}

/* The pictures of GPUs no shipped example plans: built by hand. */
static char *draw(const gs_plan_gpu *g)
{
	gs_buf b = GS_BUF_INIT;
	char *out = NULL;
	gs_error err;

	gs_svg_gpu(&b, g, 0);
	assert_gs_ok(gs_buf_detach(&b, &out, &err), &err);
	assert_null(strstr(out, "width=\"-"));
	assert_null(strstr(out, "width=\"0\""));
	return out;
}

static void test_gpu_pictures(void **state)
{
	const gs_gpu *a100 = gs_gpu_find(cat, "A100-SXM4-40GB");
	gs_workload w = { 0 };
	gs_assignment as[3];
	gs_plan_mig mig = { 0 };
	gs_plan_gpu g = { 0 };
	char *svg;
	(void)state;

	assert_non_null(a100);
	w.name = "<w&1>";
	for (int i = 0; i < 3; i++)
		as[i] = (gs_assignment){ &w, i, 500000, 0, 0 };
	g.model = a100;

	/* Unused: one grey box. */
	svg = draw(&g);
	assert_non_null(strstr(svg, "<rect class=\"seg unused\""));
	assert_non_null(strstr(svg, "GPU 0, A100-SXM4-40GB: unused</title>"));
	free(svg);

	/* Oversubscribed shares scale to the total; no free part. */
	g.strategy = GS_STRATEGY_TIME_SLICING;
	g.replicas = 3;
	g.assignments = as;
	g.n_assignments = 3;
	as[2].compute_ppm = 0; /* a share too small to see still shows */
	svg = draw(&g);
	assert_int_equal(count(svg, "<rect class=\"seg s-ts\""), 3);
	assert_non_null(strstr(svg, "&lt;w&amp;1&gt;/0"));
	assert_null(strstr(svg, "<w&"));
	assert_null(strstr(svg, "class=\"idle\""));
	as[2].compute_ppm = 500000;
	free(svg);
	svg = draw(&g);
	assert_non_null(strstr(svg, ">150% of compute<"));
	free(svg);

	/* A time-sliced MIG instance: one rect, its sharing in the label. */
	mig.profile = gs_mig_profile_find(a100, "3g.20gb");
	assert_non_null(mig.profile);
	mig.start = 4;
	mig.strategy = GS_STRATEGY_TIME_SLICING;
	mig.replicas = 2;
	mig.assignments = as;
	mig.n_assignments = 2;
	g.strategy = GS_STRATEGY_MIG;
	g.assignments = NULL;
	g.n_assignments = 0;
	g.mig = &mig;
	g.n_mig = 1;
	svg = draw(&g);
	assert_int_equal(count(svg, "data-mig=\"3g.20gb\""), 1);
	assert_int_equal(count(svg, "<rect class=\"slot\""), a100->mig_slots);
	assert_non_null(strstr(svg, ">3g.20gb \xC2\xB7 time-slicing \xC3\x97" "2<"));
	assert_non_null(strstr(svg, "1 instance over 8 memory slots"));
	free(svg);
}

static void test_arguments(void **state)
{
	page pg;
	char *out = (char *)"unchanged";
	gs_error err;
	(void)state;

	assert_int_equal(gs_report_html(NULL, "t", &out, &err), GS_EINVAL);
	assert_int_equal(err.code, GS_EINVAL);
	page_make(&pg, "../examples/workloads.yaml", NULL);
	assert_contains(pg.html, "<h1>Sharing plan for the current scenario</h1>");
	assert_int_equal(gs_report_html(pg.plan, "t", NULL, &err), GS_EINVAL);
	page_free(&pg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escape_max),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_multi_tenant_mig),
		cmocka_unit_test(test_mixed_fleet),
		cmocka_unit_test(test_memory_and_notes),
		cmocka_unit_test(test_retention),
		cmocka_unit_test(test_fractions),
		cmocka_unit_test(test_hostile_title),
		cmocka_unit_test(test_gpu_pictures),
		cmocka_unit_test(test_arguments),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
