/*
 * test_prom.c - the Prometheus readers (lib/prom.c): every feature of the
 * text exposition format, every error with its exact message and position,
 * the limits, the real dcgm-exporter scrapes in fixtures/import/samples/,
 * query results (JSON) and the nearest-rank percentile.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "import/prom.h"

#define SAMPLES "fixtures/import/samples/"

static gs_error clean_err(void)
{
	gs_error e;
	memset(&e, 0, sizeof e);
	return e;
}

/* Every sample as one line: NAME{a=v,b=w} VALUE[ @TIME] [line N]. */
typedef struct sink {
	char text[8192];
	size_t len;
	size_t count;
	int stop_after;   /* > 0: fail on that sample */
} sink;

static int collect(const gs_prom_sample *s, void *ud)
{
	sink *k = ud;
	char v[64];
	if (k->stop_after && (int)k->count + 1 == k->stop_after)
		return GS_EINVAL;
	k->count++;
	if (k->len >= sizeof k->text - 1)
		return 0;
	snprintf(v, sizeof v, "%.17g", s->value);
	k->len += (size_t)snprintf(k->text + k->len, sizeof k->text - k->len, "%s{", s->name);
	for (size_t i = 0; i < s->n_labels && k->len < sizeof k->text; i++)
		k->len += (size_t)snprintf(k->text + k->len, sizeof k->text - k->len, "%s%s=%s",
		                           i ? "," : "", s->labels[i].name, s->labels[i].value);
	if (k->len < sizeof k->text)
		k->len += (size_t)snprintf(k->text + k->len, sizeof k->text - k->len, "} %s", v);
	if (s->has_time && k->len < sizeof k->text)
		k->len += (size_t)snprintf(k->text + k->len, sizeof k->text - k->len, " @%lld",
		                           (long long)s->time_ms);
	if (k->len < sizeof k->text)
		k->len += (size_t)snprintf(k->text + k->len, sizeof k->text - k->len, " [%lu]\n",
		                           s->line);
	return 0;
}

static int parse(const char *text, sink *k, gs_error *err)
{
	memset(k, 0, sizeof *k);
	return gs_prom_parse_text("t.prom", text, strlen(text), collect, k, err);
}

/* ---- the format ------------------------------------------------------------------ */

static void test_syntax(void **state)
{
	static const char in[] =
	    "# A comment, then HELP and TYPE as the format defines them.\n"
	    "# HELP up Whether the target is \\\\ up \\n or not.\n"
	    "# TYPE up gauge\n"
	    "up 1\n"
	    "\n"
	    "   \t\n"
	    "#HELP http_requests_total no blank after '#'\n"
	    "# TYPE http_requests_total counter\n"
	    "http_requests_total{method=\"post\",code=\"200\"} 1027 1395066363000\n"
	    "http_requests_total{ method = \"post\" , code=\"400\" , } 3 -1395066363000\n"
	    "  escapes{path=\"C:\\\\DIR\\\\\",msg=\"say \\\"hi\\\"\\nbye\",empty=\"\"} +1.5e-3\n"
	    "nan_inf{k=\"a\"} NaN\n"
	    "nan_inf{k=\"b\"} +Inf\n"
	    "nan_inf{k=\"c\"} -Inf\n"
	    "nan_inf{k=\"d\"} inf\n"
	    "exp 1E6\n"
	    "exp .5\n"
	    "exp 7.\n"
	    "colon:name_sub:total {} 2.5e+2\t\t\n"
	    "tabbed\t{a=\"1\"}\t4\t12\n"
	    "# a trailing comment\n"
	    "# TYPE up gauge\n"
	    "crlf 9\r\n"
	    "last 0";
	gs_error err = clean_err();
	sink k;
	(void)state;

	assert_gs_ok(parse(in, &k, &err), &err);
	assert_string_equal(k.text,
	                    "up{} 1 [4]\n"
	                    "http_requests_total{method=post,code=200} 1027 @1395066363000 [9]\n"
	                    "http_requests_total{method=post,code=400} 3 @-1395066363000 [10]\n"
	                    "escapes{path=C:\\DIR\\,msg=say \"hi\"\nbye,empty=} 0.0015 [11]\n"
	                    "nan_inf{k=a} nan [12]\n"
	                    "nan_inf{k=b} inf [13]\n"
	                    "nan_inf{k=c} -inf [14]\n"
	                    "nan_inf{k=d} inf [15]\n"
	                    "exp{} 1000000 [16]\n"
	                    "exp{} 0.5 [17]\n"
	                    "exp{} 7 [18]\n"
	                    "colon:name_sub:total{} 250 [19]\n"
	                    "tabbed{a=1} 4 @12 [20]\n"
	                    "crlf{} 9 [23]\n"
	                    "last{} 0 [24]\n");
	assert_int_equal(k.count, 15);
}

static void test_values(void **state)
{
	static const struct {
		const char *text;
		double want;
	} ok[] = {
		{ "0", 0 },          { "-0.5", -0.5 },   { "+3", 3 },       { "1e3", 1000 },
		{ "1E-2", 0.01 },    { "2.5e+1", 25 },   { ".25", 0.25 },   { "4.", 4 },
		{ "0.995630", 0.99563 }, { "15152422938", 15152422938.0 },
		{ "1e-400", 0 },     /* underflows to zero, as Go's ParseFloat */
	};
	static const char *const special[] = { "NaN", "nan", "NAN", "+Inf", "-Inf", "Inf",
		                                   "inf", "+infinity", "-Infinity" };
	static const char *const bad[] = {
		"", "+", "-", ".", "e3", "1e", "1e+", "1.2.3", "0x10", "1_000", "1,5", "+NaN",
		"-nan", "infin", "Infinit", "12a", " 1", "1 ", "1e400", "-1e400",
	};
	double v;
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_LEN(ok); i++) {
		assert_int_equal(gs_prom_parse_value(ok[i].text, strlen(ok[i].text), &v), 0);
		assert_true(v == ok[i].want);
	}
	for (size_t i = 0; i < GS_ARRAY_LEN(special); i++) {
		assert_int_equal(gs_prom_parse_value(special[i], strlen(special[i]), &v), 0);
		if (special[i][0] == 'N' || special[i][0] == 'n')
			assert_true(isnan(v));
		else
			assert_true(isinf(v) && (v < 0) == (special[i][0] == '-'));
	}
	for (size_t i = 0; i < GS_ARRAY_LEN(bad); i++) {
		v = 42;
		if (gs_prom_parse_value(bad[i], strlen(bad[i]), &v) != -1)
			fail_msg("'%s' was accepted", bad[i]);
		assert_true(v == 42);
	}
	/* The length is honoured: "12" out of "123". */
	assert_int_equal(gs_prom_parse_value("123", 2, &v), 0);
	assert_true(v == 12);
}

/* Each malformed input, with the exact message and where it points. */
static void test_errors(void **state)
{
	static const struct {
		const char *in;
		const char *want;
	} cases[] = {
		{ "* Connection #0 to host 192.168.1.16 left intact\n",
		  "t.prom:1:1: error: expected a metric name, not '*'" },
		{ "ok 1\n9lives 1\n", "t.prom:2:1: error: expected a metric name, not '9'" },
		{ "a-b 1\n", "t.prom:1:2: error: invalid character '-' in metric name" },
		{ "up\n", "t.prom:1:3: error: expected a value after the metric name" },
		{ "up   \n", "t.prom:1:6: error: expected a value after the metric name" },
		{ "up{} \n", "t.prom:1:6: error: expected a value after the labels" },
		{ "up{a=\"1\"\n", "t.prom:1:9: error: unterminated label set (expected '}')" },
		{ "up{a=\"1\n", "t.prom:1:8: error: unterminated value of label 'a'" },
		{ "up{a=\"1\\", "t.prom:1:9: error: unterminated value of label 'a'" },
		{ "up{a=\"x\\t\"} 1\n",
		  "t.prom:1:8: error: invalid escape '\\t' in the value of label 'a'" },
		{ "up{1a=\"x\"} 1\n", "t.prom:1:4: error: expected a label name or '}', not '1'" },
		{ "up{a.b=\"x\"} 1\n", "t.prom:1:5: error: invalid character '.' in label name" },
		{ "up{a \"x\"} 1\n", "t.prom:1:6: error: expected '=' after label name 'a'" },
		{ "up{a=x} 1\n",
		  "t.prom:1:6: error: expected '\"' to start the value of label 'a'" },
		{ "up{a=\"x\" b=\"y\"} 1\n",
		  "t.prom:1:10: error: expected ',' or '}' after the value of label 'a'" },
		{ "up{a=\"x\",,} 1\n",
		  "t.prom:1:10: error: expected a label name or '}', not ','" },
		{ "up{a=\"x\",a=\"y\"} 1\n", "t.prom:1:10: error: duplicate label 'a'" },
		{ "up{__name__=\"x\"} 1\n",
		  "t.prom:1:4: error: label name '__name__' is reserved" },
		{ "up one\n", "t.prom:1:4: error: invalid value 'one'" },
		{ "up 0x1p-2\n", "t.prom:1:4: error: invalid value '0x1p-2'" },
		{ "up 1e999\n", "t.prom:1:4: error: invalid value '1e999'" },
		{ "up 1 12.5\n", "t.prom:1:6: error: invalid timestamp '12.5'" },
		{ "up 1 99999999999999999999\n",
		  "t.prom:1:6: error: invalid timestamp '99999999999999999999'" },
		{ "up 1 2 3\n", "t.prom:1:8: error: unexpected '3' after the timestamp" },
		{ "# HELP\n", "t.prom:1:7: error: HELP line without a metric name" },
		{ "# TYPE  \t\n", "t.prom:1:10: error: TYPE line without a metric name" },
		{ "# HELP 1up x\n", "t.prom:1:8: error: expected a metric name, not '1'" },
		{ "# TYPE up-time gauge\n",
		  "t.prom:1:10: error: invalid character '-' in metric name" },
		{ "# TYPE up\n", "t.prom:1:10: error: TYPE line for 'up' without a type" },
		{ "# TYPE up gauges\n",
		  "t.prom:1:11: error: unknown metric type 'gauges' (expected counter, gauge, "
		  "histogram, summary or untyped)" },
		{ "# TYPE up gauge x\n",
		  "t.prom:1:17: error: unexpected 'x' after the metric type" },
		{ "# HELP up a \\t b\n", "t.prom:1:13: error: invalid escape '\\t' in HELP text" },
		{ "# HELP up ends \\", "t.prom:1:16: error: '\\' at the end of a HELP line" },
		{ "# TYPE up gauge\nup 1\n# TYPE up counter\n",
		  "t.prom:3:11: error: TYPE of 'up' changes from gauge (line 1) to counter" },
		{ "up 1\n# TYPE up gauge\n",
		  "t.prom:2:1: error: TYPE line for 'up' comes after its samples (line 1)" },
		{ "# HELP up one\n# HELP up two\n",
		  "t.prom:2:1: error: HELP text of 'up' differs from the one on line 1" },
		{ "up{a=\"\x01\"} 1\n", NULL }, /* control bytes are data */
	};
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_LEN(cases); i++) {
		gs_error err = clean_err();
		sink k;
		int rc = parse(cases[i].in, &k, &err);
		if (!cases[i].want) {
			assert_gs_ok(rc, &err);
			continue;
		}
		if (rc != GS_ESYNTAX)
			fail_msg("case %zu (%s): rc %d", i, cases[i].in, rc);
		assert_gs_error(&err, cases[i].want);
	}
}

/* Samples before an error are delivered; nothing after it. */
static void test_error_stops(void **state)
{
	gs_error err = clean_err();
	sink k;
	(void)state;
	assert_int_equal(parse("a 1\nb 2\nc{ 3\nd 4\n", &k, &err), GS_ESYNTAX);
	assert_string_equal(k.text, "a{} 1 [1]\nb{} 2 [2]\n");
	assert_gs_error(&err, "t.prom:3:4: error: expected a label name or '}', not '3'");
}

static void test_repeats(void **state)
{
	gs_error err = clean_err();
	sink k;
	(void)state;
	/* Two scrapes appended to one file repeat HELP and TYPE. */
	assert_gs_ok(parse("# HELP up a\n# TYPE up gauge\nup 1\n"
	                   "# HELP up a\n# TYPE up gauge\nup 0\n", &k, &err), &err);
	assert_int_equal(k.count, 2);
	/* Histograms: the suffixed samples belong to their family. */
	assert_gs_ok(
	    parse("# TYPE rt histogram\nrt_bucket{le=\"+Inf\"} 3\nrt_sum 1.5\nrt_count 3\n", &k,
	          &err),
	    &err);
	assert_string_equal(k.text,
	                    "rt_bucket{le=+Inf} 3 [2]\nrt_sum{} 1.5 [3]\nrt_count{} 3 [4]\n");
}

static void test_limits(void **state)
{
	size_t n = GS_PROM_MAX_LINE + 1;
	char *line = malloc(n + 8);
	char big[64 * 8 + 64];
	size_t o = 0;
	gs_error err = clean_err();
	sink k;
	(void)state;

	assert_non_null(line);
	memset(line, 'a', n);
	memcpy(line + n, " 1\n", 4);
	memset(&k, 0, sizeof k);
	assert_int_equal(gs_prom_parse_text("t.prom", line, strlen(line), collect, &k, &err),
	                 GS_ELIMIT);
	assert_gs_error(&err, "t.prom:1:65537: error: line is longer than 65536 bytes");
	/* Exactly at the limit is fine (a name of 65534 bytes, " 1"). */
	memcpy(line + GS_PROM_MAX_LINE - 2, " 1\n", 4);
	assert_gs_ok(gs_prom_parse_text("t.prom", line, strlen(line), collect, &k, &err), &err);
	free(line);

	o += (size_t)snprintf(big + o, sizeof big - o, "m{");
	for (int i = 0; i <= GS_PROM_MAX_LABELS; i++)
		o += (size_t)snprintf(big + o, sizeof big - o, "l%d=\"\",", i);
	snprintf(big + o, sizeof big - o, "} 1\n");
	assert_int_equal(parse(big, &k, &err), GS_ESYNTAX);
	assert_gs_error(&err, "t.prom:1:441: error: more than 64 labels");

	assert_int_equal(gs_prom_parse_text("t.prom", "ok 1\nup{a=\"x\0\"} 1\n", 19, collect, &k,
	                                    &err),
	                 GS_ESYNTAX);
	assert_gs_error(&err, "t.prom:2:8: error: NUL byte in the line");
}

static void test_callback_stops(void **state)
{
	gs_error err = clean_err();
	sink k;
	(void)state;
	memset(&k, 0, sizeof k);
	k.stop_after = 2;
	assert_int_equal(gs_prom_parse_text("t.prom", "a 1\nb 2\nc 3\n", 12, collect, &k, &err),
	                 GS_EINVAL);
	assert_int_equal(k.count, 1);
}

/* ---- real scrapes --------------------------------------------------------------- */

static size_t count_file(const char *path, gs_error *err, int *rc)
{
	sink k;
	gs_source src;
	memset(&k, 0, sizeof k);
	memset(&src, 0, sizeof src);
	if ((*rc = gs_source_open_file(&src, path, err)) == 0)
		*rc = gs_prom_read_source(&src, collect, &k, err);
	gs_source_close(&src);
	return k.count;
}

static void test_real_scrapes(void **state)
{
	static const struct {
		const char *file;
		size_t samples;
	} ok[] = {
		{ SAMPLES "l4-aws-kops.cncf-ai-conformance.prom", 23 },
		{ SAMPLES "l40s-upcloud.cncf-ai-conformance.prom", 23 },
		{ SAMPLES "t4-ericsson-ccd-91pct-util.cncf-ai-conformance.prom", 20 },
		{ SAMPLES "a100-mig-1g.5gb-nvidia-docs.prom", 21 },
	};
	gs_error err = clean_err();
	int rc;
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_LEN(ok); i++) {
		size_t n = count_file(ok[i].file, &err, &rc);
		assert_gs_ok(rc, &err);
		if (n != ok[i].samples)
			fail_msg("%s: %zu samples, expected %zu", ok[i].file, n, ok[i].samples);
	}
	/* The vGPU scrape ends with a line curl printed: refused, where it is. */
	count_file(SAMPLES "grid-a100-40c-vgpu-vks.cncf-ai-conformance.prom", &err, &rc);
	assert_int_equal(rc, GS_ESYNTAX);
	assert_gs_error(&err, SAMPLES "grid-a100-40c-vgpu-vks.cncf-ai-conformance.prom:34:1: "
	                              "error: expected a metric name, not '*'");
}

static void test_sample_labels(void **state)
{
	static const char line[] = "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",UUID=\"GPU-34319582-"
	                           "d595-d1c7-d1d2-179bcfa61660\","
	                           "device=\"nvidia0\",GPU_I_PROFILE=\"1g.5gb\",GPU_I_ID=\"13\","
	                           "Hostname=\"ub20-a100-k8s\"} 0.995687\n";
	gs_error err = clean_err();
	sink k;
	(void)state;
	assert_gs_ok(parse(line, &k, &err), &err);
	assert_string_equal(k.text,
	                    "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=0,UUID=GPU-34319582-d595-d1c7-"
	                    "d1d2-179bcfa61660,device=nvidia0,GPU_I_PROFILE=1g.5gb,GPU_I_ID=13,"
	                    "Hostname=ub20-a100-k8s} 0.99568699999999999 [1]\n");
}

/* ---- query results ------------------------------------------------------------------- */

static int query(const char *json, sink *k, gs_error *err)
{
	memset(k, 0, sizeof *k);
	return gs_prom_parse_query("q.json", json, strlen(json), collect, k, err);
}

static void test_query(void **state)
{
	gs_error err = clean_err();
	sink k;
	(void)state;

	assert_gs_ok(
	    query(
	        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
	        "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_FB_USED\",\"pod\":\"p\",\"gpu\":\"0\"},"
	        "\"values\":[[1732200000,\"61000\"],[1732200060.5,\"NaN\"],[1732200120,\"+Inf\"]]},"
	        "{\"metric\":{\"__name__\":\"up\"},\"values\":[]}]}}\n",
	        &k, &err),
	    &err);
	assert_string_equal(k.text, "DCGM_FI_DEV_FB_USED{pod=p,gpu=0} 61000 @1732200000000 [0]\n"
	                            "DCGM_FI_DEV_FB_USED{pod=p,gpu=0} nan @1732200060500 [0]\n"
	                            "DCGM_FI_DEV_FB_USED{pod=p,gpu=0} inf @1732200120000 [0]\n");
	assert_gs_ok(
	    query("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
	          "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\"},\"value\":[1.5,\"91\"]}]}}",
	          &k, &err),
	    &err);
	assert_string_equal(k.text, "DCGM_FI_DEV_GPU_UTIL{} 91 @1500 [0]\n");
}

static void test_query_errors(void **state)
{
	static const struct {
		const char *in;
		const char *want;
	} cases[] = {
		{ "[1, 2]",
		  "q.json:1:1: error: not a Prometheus query result: expected an object" },
		{ "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error at "
		  "char 5\"}",
		  "q.json:1:11: error: the query failed: parse error at char 5" },
		{ "{\"data\":{}}", "q.json:1:1: error: not a Prometheus query result: expected "
		                   "data.resultType and data.result" },
		{ "{\"data\":{\"resultType\":\"scalar\",\"result\":[]}}",
		  "q.json:1:23: error: resultType is 'scalar', expected 'matrix' or 'vector'" },
		{ "{\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"pod\":\"p\"},"
		  "\"values\":[]}]}}",
		  "q.json:1:52: error: a series has no __name__ label (query the DCGM metrics by "
		  "name, without aggregation)" },
		{ "{\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":"
		  "\"x\"},\"values\":[[1]]}]}}",
		  "q.json:1:79: error: not a Prometheus query result: a sample must be [timestamp, "
		  "\"value\"]" },
		{ "{\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":"
		  "\"x\"},\"values\":[[1,\"abc\"]]}]}}",
		  "q.json:1:82: error: invalid sample value 'abc'" },
		{ "{\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":"
		  "\"x\"},\"values\":[[\"1\",\"2\"]]}]}}",
		  "q.json:1:79: error: not a Prometheus query result: a sample must be [timestamp, "
		  "\"value\"]" },
		{ "{\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":"
		  "\"x\"}}]}}",
		  "q.json:1:42: error: not a Prometheus query result: a series needs 'metric' and "
		  "'values'" },
		{ "{\"data\":{\"resultType\":", "q.json:2:1: error: did not find expected node "
		                                "content while parsing a flow node" },
	};
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_LEN(cases); i++) {
		gs_error err = clean_err();
		sink k;
		if (query(cases[i].in, &k, &err) >= 0)
			fail_msg("case %zu was accepted", i);
		assert_gs_error(&err, cases[i].want);
	}
}

static void test_read_file_detects(void **state)
{
	gs_error err = clean_err();
	int rc;
	(void)state;
	/* The fixture range query is JSON, the scrapes are text. */
	assert_int_equal(count_file("fixtures/import/range.json", &err, &rc), 47);
	assert_gs_ok(rc, &err);
	assert_int_equal(count_file("fixtures/import/t4-b.prom", &err, &rc), 8);
	assert_gs_ok(rc, &err);
	count_file("fixtures/import/no-such.prom", &err, &rc);
	assert_int_equal(rc, GS_EIO);
	assert_gs_error(
	    &err, "fixtures/import/no-such.prom: error: cannot open: No such file or directory");
}

/* ---- percentiles ---------------------------------------------------------------------- */

static void test_percentile(void **state)
{
	double ten[] = { 0.97, 0.70, 0.75, 0.80, 0.78, 0.82, 0.91, 0.88, 0.95, 0.72 };
	double one[] = { 5 };
	double two[] = { 2, 1 };
	(void)state;

	assert_true(gs_percentile(ten, 10, 95) == 0.97);  /* rank ceil(9.5) = 10 */
	assert_true(gs_percentile(ten, 10, 90) == 0.95);  /* rank 9 */
	assert_true(gs_percentile(ten, 10, 50) == 0.80);  /* rank 5 */
	assert_true(gs_percentile(ten, 10, 1) == 0.70);   /* rank 1 */
	assert_true(gs_percentile(ten, 10, 100) == 0.97);
	assert_true(gs_percentile(ten, 10, 11) == 0.72);  /* rank ceil(1.1) = 2 */
	assert_true(gs_percentile(one, 1, 95) == 5);
	assert_true(gs_percentile(two, 2, 50) == 1);
	assert_true(gs_percentile(two, 2, 51) == 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_stops),
		cmocka_unit_test(test_repeats),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_real_scrapes),
		cmocka_unit_test(test_sample_labels),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_query_errors),
		cmocka_unit_test(test_read_file_detects),
		cmocka_unit_test(test_percentile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
