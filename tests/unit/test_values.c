/*
 * test_values.c - exact values: money parsing and formatting, error codes
 * and formatting, the internal memory-size and share parsers, edit
 * distance and suggestions, and the YAML/JSON seams (gs_yaml_read_buffer,
 * gs_yaml_render, gs_json_render) with their refusals.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "testutil.h"
#include "doc/fields.h"
#include "doc/doc.h"

static gs_error clean_err(void)
{
	gs_error e;
	memset(&e, 0, sizeof e);
	return e;
}

/* ---- money ------------------------------------------------------------------ */

static void test_micros_parse(void **state)
{
	static const struct {
		const char *text;
		gs_micros want;
	} ok[] = {
		{ "3.06", 3060000 },         { "21.957642", 21957642 },
		{ "0", 0 },                  { "12.24", 12240000 },
		{ "0.000001", 1 },           { "14.00", 14000000 },
		{ "12.240000000", 12240000 }, /* zeros past 6 decimals are exact */
		{ ".5", 500000 },            { "1.", 1000000 },
		{ "9223372036849.999999", INT64_C(9223372036849999999) },
	};
	gs_error err = clean_err();
	(void)state;

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		gs_micros v = -7;
		assert_gs_ok(gs_micros_parse(ok[i].text, &v, &err), &err);
		assert_int_equal(v, ok[i].want);
	}
}

static void test_micros_parse_errors(void **state)
{
	static const char *const bad[] = {
		"-1", "1e3", "", ".", "+1", " 3", "3 ", "3,06", "$3", "0x10",
	};
	(void)state;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		gs_error err = clean_err();
		gs_micros v = -7;
		char want[128];
		assert_int_equal(gs_micros_parse(bad[i], &v, &err), GS_ESYNTAX);
		assert_int_equal(err.code, GS_ESYNTAX);
		assert_int_equal(v, -7);
		snprintf(want, sizeof want, "error: '%s' is not a dollar amount", bad[i]);
		assert_gs_error(&err, want);
	}
	/* Sub-micro-dollar precision is refused with its own reason. */
	{
		gs_error err = clean_err();
		gs_micros v = -7;
		assert_int_equal(gs_micros_parse("1.0000001", &v, &err), GS_ESYNTAX);
		assert_gs_error(&err, "error: '1.0000001' has more than 6 decimals");
		assert_int_equal(v, -7);
	}
	/* Too large for int64 micro-dollars: refused, not wrapped. */
	{
		gs_error err = clean_err();
		gs_micros v = -7;
		assert_int_equal(gs_micros_parse("9223372036854775808", &v, &err),
		                 GS_ESYNTAX);
		assert_int_equal(gs_micros_parse("9223372036855", &v, &err), GS_ESYNTAX);
		assert_int_equal(v, -7);
	}
	/* err may be NULL. */
	{
		gs_micros v = -7;
		assert_int_equal(gs_micros_parse("x", &v, NULL), GS_ESYNTAX);
	}
}

static void test_micros_format(void **state)
{
	static const struct {
		gs_micros m;
		int decimals;
		const char *want;
	} cases[] = {
		{ 3060000, 2, "3.06" },   { 3065000, 2, "3.07" },
		{ 3064999, 2, "3.06" },   { -3065000, 2, "-3.07" },
		{ 0, 2, "0.00" },         { 0, 0, "0" },
		{ 5000, 2, "0.01" },      { -5000, 2, "-0.01" },
		{ 4999, 2, "0.00" },      { -4000, 2, "0.00" }, /* no "-0.00" */
		{ 21957642, 6, "21.957642" }, { 21957642, 2, "21.96" },
		{ 21957642, 0, "22" },    { 1499999, 0, "1" },
		{ 1500000, 0, "2" },      { -500000, 0, "-1" },
		{ 12240000, 1, "12.2" },  { 1, 6, "0.000001" },
		{ 5, 5, "0.00001" },      { 4, 5, "0.00000" },
		{ 3060000, 9, "3.060000" }, /* at most 6 */
		{ 3060000, -1, "3" },     /* at least 0 */
		{ INT64_C(9223372036849999999), 6, "9223372036849.999999" },
	};
	char buf[64];
	(void)state;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(buf, 'x', sizeof buf);
		assert_ptr_equal(gs_micros_format(cases[i].m, cases[i].decimals, buf,
		                                  sizeof buf),
		                 buf);
		assert_string_equal(buf, cases[i].want);
	}
	/* Truncated, still terminated. */
	assert_string_equal(gs_micros_format(3060000, 2, buf, 4), "3.0");
	assert_string_equal(gs_micros_format(3060000, 2, buf, 1), "");
}

/* The extremes of gs_micros must format without overflow. Run in a child
 * process so a sanitizer abort fails this test only. */
static void test_micros_format_extremes(void **state)
{
	pid_t pid;
	int status = 0;
	(void)state;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char buf[64];
		int ok = 1;
		ok &= strcmp(gs_micros_format(INT64_MAX, 2, buf, sizeof buf),
		             "9223372036854.78") == 0;
		ok &= strcmp(gs_micros_format(INT64_MAX, 6, buf, sizeof buf),
		             "9223372036854.775807") == 0;
		ok &= strcmp(gs_micros_format(INT64_MIN, 2, buf, sizeof buf),
		             "-9223372036854.78") == 0;
		ok &= strcmp(gs_micros_format(INT64_MIN, 6, buf, sizeof buf),
		             "-9223372036854.775808") == 0;
		_exit(ok ? 0 : 3);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status))
		fail_msg("gs_micros_format(INT64_MAX/MIN) died (signal %d)",
		         WTERMSIG(status));
	if (WEXITSTATUS(status) != 0)
		fail_msg("gs_micros_format(INT64_MAX/MIN): exit status %d (3: wrong "
		         "text, else a sanitizer abort)", WEXITSTATUS(status));
}

/* ---- errors ------------------------------------------------------------------ */

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(gs_strerror(GS_OK), "success");
	assert_string_equal(gs_strerror(GS_ENOMEM), "out of memory");
	assert_string_equal(gs_strerror(GS_EIO), "input/output error");
	assert_string_equal(gs_strerror(GS_ESYNTAX), "syntax error");
	assert_string_equal(gs_strerror(GS_ESCHEMA), "invalid content");
	assert_string_equal(gs_strerror(GS_ENOTFOUND), "not found");
	assert_string_equal(gs_strerror(GS_EINVAL), "invalid argument");
	assert_string_equal(gs_strerror(GS_ENOFIT), "does not fit");
	assert_string_equal(gs_strerror(GS_ELIMIT), "limit exceeded");
	assert_string_equal(gs_strerror(GS_EWRITE), "cannot write");
	assert_string_equal(gs_strerror(-10), "unknown error");
	assert_string_equal(gs_strerror(1), "unknown error");
}

static void test_error_format(void **state)
{
	gs_error err = clean_err();
	char buf[128];
	(void)state;

	err.code = GS_ESCHEMA;
	strcpy(err.msg, "unknown key 'x'");
	strcpy(err.file, "gpus/a.yaml");
	err.line = 3;
	err.col = 7;
	assert_string_equal(gs_error_format(&err, buf, sizeof buf),
	                    "gpus/a.yaml:3:7: error: unknown key 'x'");
	/* A file without a line. */
	err.line = 0;
	err.col = 0;
	assert_string_equal(gs_error_format(&err, buf, sizeof buf),
	                    "gpus/a.yaml: error: unknown key 'x'");
	/* No location. */
	err.file[0] = '\0';
	assert_string_equal(gs_error_format(&err, buf, sizeof buf),
	                    "error: unknown key 'x'");
	/* No message: the code's description. */
	err.msg[0] = '\0';
	err.code = GS_ENOFIT;
	assert_string_equal(gs_error_format(&err, buf, sizeof buf),
	                    "error: does not fit");
	assert_string_equal(gs_error_format(NULL, buf, sizeof buf),
	                    "error: unknown error");
	/* Truncated to the buffer, always terminated. */
	strcpy(err.msg, "a long message");
	assert_string_equal(gs_error_format(&err, buf, 10), "error: a ");
	/* size 0 writes nothing. */
	buf[0] = 'z';
	assert_ptr_equal(gs_error_format(&err, buf, 0), buf);
	assert_int_equal(buf[0], 'z');
}

/* ---- memory sizes and shares ---------------------------------------------------- */

static void test_parse_bytes(void **state)
{
	static const struct {
		const char *text;
		int64_t want;
	} ok[] = {
		{ "10GiB", INT64_C(10737418240) },
		{ "1.5Gi", INT64_C(1610612736) },
		{ "512MiB", INT64_C(536870912) },
		{ "512Mi", INT64_C(536870912) },
		{ "10GB", INT64_C(10000000000) },
		{ "1MB", INT64_C(1000000) },
		{ "0.5GiB", INT64_C(536870912) },
		{ "0GiB", 0 },
		{ "40192MiB", INT64_C(42144366592) },
		/* Rounded up to whole bytes: 1.048576 -> 2. */
		{ "0.000001MiB", 2 },
		{ "4294967295GiB", INT64_C(4611686017353646080) },
	};
	gs_error err = clean_err();
	(void)state;

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		int64_t v = -7;
		assert_gs_ok(gs_parse_bytes(ok[i].text, &v, &err), &err);
		assert_int_equal(v, ok[i].want);
	}
}

static void test_parse_bytes_errors(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} bad[] = {
		{ "10", "error: '10' needs a unit: GiB, Gi, MiB, Mi, GB or MB" },
		{ "10TB", "error: unknown unit 'TB' in '10TB' (use GiB, Gi, MiB, Mi, GB or MB)" },
		{ "10gib",
		  "error: unknown unit 'gib' in '10gib' (use GiB, Gi, MiB, Mi, GB or MB)" },
		{ "10 GiB",
		  "error: unknown unit ' GiB' in '10 GiB' (use GiB, Gi, MiB, Mi, GB or MB)" },
		{ "1e400GiB",
		  "error: '1e400GiB': exponents are not allowed (write the number out)" },
		{ "GiB", "error: 'GiB' is not a memory size (try '10GiB' or '512MiB')" },
		{ "-1GiB", "error: '-1GiB' is not a memory size (try '10GiB' or '512MiB')" },
		{ "", "error: '' is not a memory size (try '10GiB' or '512MiB')" },
		{ "1.5.GiB", "error: '1.5.GiB' is not a valid size" },
		{ "0.0000001GiB", "error: '0.0000001GiB' has more than 6 decimals" },
		{ "4294967296GiB", "error: '4294967296GiB' is too large" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		gs_error err = clean_err();
		int64_t v = -7;
		assert_int_equal(gs_parse_bytes(bad[i].text, &v, &err), GS_ESCHEMA);
		assert_int_equal(v, -7);
		assert_gs_error(&err, bad[i].want);
	}
}

/* A number too big for the arithmetic is "too large", not a format
 * error. */
static void test_parse_bytes_too_large(void **state)
{
	gs_error err = clean_err();
	int64_t v = -7;
	(void)state;
	assert_int_equal(gs_parse_bytes("99999999999999GiB", &v, &err), GS_ESCHEMA);
	assert_gs_error(&err, "error: '99999999999999GiB' is too large");
}

static void test_parse_share(void **state)
{
	static const struct {
		const char *text;
		int64_t want;
	} ok[] = {
		{ "40%", 400000 },  { "0.4", 400000 }, { "12.5%", 125000 },
		{ "1", 1000000 },   { "100%", 1000000 }, { "0", 0 },
		{ "0.125", 125000 }, { "40.0001%", 400001 }, { "0.000001", 1 },
	};
	static const struct {
		const char *text;
		const char *want;
	} bad[] = {
		{ "40 %", "error: '40 %' is not a percentage (try '40%')" },
		{ "abc%", "error: 'abc%' is not a percentage (try '40%')" },
		{ "-5%", "error: '-5%' is not a percentage (try '40%')" },
		{ "%", "error: '%' is not a percentage (try '40%')" },
		{ "40.00001%", "error: '40.00001%' is not a percentage (try '40%')" },
		{ "", "error: '' is not a share" },
		{ "0.0000001",
		  "error: '0.0000001' is not a share (use a percentage like '40%' or a "
		  "fraction like '0.4')" },
		{ "forty",
		  "error: 'forty' is not a share (use a percentage like '40%' or a "
		  "fraction like '0.4')" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		gs_error err = clean_err();
		int64_t v = -7;
		assert_gs_ok(gs_parse_share(ok[i].text, &v, &err), &err);
		assert_int_equal(v, ok[i].want);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		gs_error err = clean_err();
		int64_t v = -7;
		assert_int_equal(gs_parse_share(bad[i].text, &v, &err), GS_ESCHEMA);
		assert_int_equal(v, -7);
		assert_gs_error(&err, bad[i].want);
	}
}

/* CPU as Kubernetes writes it, in millicores. */
static void test_parse_cpu(void **state)
{
	static const struct {
		const char *text;
		int64_t want;
	} ok[] = {
		{ "4", 4000 }, { "0.5", 500 }, { "500m", 500 }, { "1.25", 1250 },
		{ "1m", 1 },   { "0.001", 1 }, { "96", 96000 }, { "2500m", 2500 },
	};
	static const struct {
		const char *text;
		const char *want;
	} bad[] = {
		{ "1.0001", "error: '1.0001' is finer than a millicore (at most 3 decimals, or "
		            "whole millicores like '500m')" },
		{ "0.5m", "error: '0.5m' is finer than a millicore (at most 3 decimals, or "
		          "whole millicores like '500m')" },
		{ "-1", "error: '-1' is not a CPU amount (try '4', '0.5' or '500m')" },
		{ "4 cores", "error: '4 cores' is not a CPU amount (try '4', '0.5' or '500m')" },
		{ "m", "error: 'm' is not a CPU amount (try '4', '0.5' or '500m')" },
		{ "", "error: '' is not a CPU amount (try '4' or '500m')" },
		{ "1000001", "error: '1000001' is too large" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		gs_error err = clean_err();
		int64_t v = -7;
		assert_gs_ok(gs_parse_cpu(ok[i].text, &v, &err), &err);
		assert_int_equal(v, ok[i].want);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		gs_error err = clean_err();
		int64_t v = -7;
		assert_int_equal(gs_parse_cpu(bad[i].text, &v, &err), GS_ESCHEMA);
		assert_int_equal(v, -7);
		assert_gs_error(&err, bad[i].want);
	}
}

/* ---- suggestions ----------------------------------------------------------------- */

static void test_edit_distance(void **state)
{
	char long_a[70];
	(void)state;
	assert_int_equal(gs_edit_distance("kitten", "sitting", 100), 3);
	assert_int_equal(gs_edit_distance("sitting", "kitten", 100), 3);
	assert_int_equal(gs_edit_distance("Sm_Count", "sm_count", 10), 0);
	assert_int_equal(gs_edit_distance("", "abc", 10), 3);
	assert_int_equal(gs_edit_distance("abc", "", 10), 3);
	assert_int_equal(gs_edit_distance("", "", 10), 0);
	assert_int_equal(gs_edit_distance("memroy", "memory", 10), 2);
	/* Capped. */
	assert_int_equal(gs_edit_distance("kitten", "sitting", 2), 2);
	assert_int_equal(gs_edit_distance("abc", "xyz", 1), 1);
	/* Longer than 64 characters: never close. */
	memset(long_a, 'a', 65);
	long_a[65] = '\0';
	assert_int_equal(gs_edit_distance(long_a, long_a, 7), 7);
	long_a[64] = '\0';
	assert_int_equal(gs_edit_distance(long_a, long_a, 7), 0);
}

static void test_suggest(void **state)
{
	static const char *const keys[] = { "name", "sm_count", "memory", "mps" };
	(void)state;
	assert_string_equal(gs_suggest("sm_cout", keys, 4), "sm_count");
	assert_string_equal(gs_suggest("SM_COUNT", keys, 4), "sm_count");
	assert_string_equal(gs_suggest("memroy", keys, 4), "memory");
	assert_string_equal(gs_suggest("mp", keys, 4), "mps");
	assert_null(gs_suggest("zzzz", keys, 4));
	assert_null(gs_suggest("sm_count_total", keys, 4));
	assert_null(gs_suggest("x", keys, 0));
	/* The limit is a third of the word, at least 2 edits. */
	{
		static const char *const far[] = { "abcxyz" };
		static const char *const near[] = { "abcdxy" };
		static const char *const nine[] = { "abcdefxyz" };
		assert_null(gs_suggest("abcdef", far, 1));
		assert_string_equal(gs_suggest("abcdef", near, 1), "abcdxy");
		assert_string_equal(gs_suggest("abcdefghi", nine, 1), "abcdefxyz");
	}
	/* Ties: the first candidate. */
	{
		static const char *const tie[] = { "abcx", "abcy" };
		assert_string_equal(gs_suggest("abcz", tie, 2), "abcx");
	}
}

/* ---- YAML ------------------------------------------------------------------------ */

static gs_node *read_ok(const char *name, const char *text)
{
	gs_node *n = NULL;
	gs_error err = clean_err();
	assert_gs_ok(gs_yaml_read_buffer(name, text, strlen(text), &n, &err), &err);
	assert_non_null(n);
	return n;
}

static void expect_read_error(const char *name, const char *buf, size_t len,
                              int code, const char *want)
{
	gs_node *n = NULL;
	gs_error err = clean_err();
	int rc = gs_yaml_read_buffer(name, buf, len, &n, &err);
	gs_node_free(rc == 0 ? n : NULL);
	assert_int_equal(rc, code);
	assert_int_equal(err.code, code);
	assert_null(rc == 0 ? n : NULL);
	assert_gs_error(&err, want);
}

static char *render(const gs_node *n)
{
	char *out = NULL;
	gs_error err = clean_err();
	assert_gs_ok(gs_yaml_render(n, &out, &err), &err);
	assert_non_null(out);
	return out;
}

/* Two trees hold the same kinds, texts and quoting. */
static void assert_same_tree(const gs_node *a, const gs_node *b)
{
	assert_int_equal(a->kind, b->kind);
	if (a->kind == GS_NODE_STRING) {
		assert_string_equal(a->text, b->text);
		assert_int_equal(a->quoted, b->quoted);
	}
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		if (a->kind == GS_NODE_MAP)
			assert_string_equal(a->keys[i]->text, b->keys[i]->text);
		assert_same_tree(a->items[i], b->items[i]);
	}
}

/* Positions and kinds the reader records. */
static void test_yaml_read_tree(void **state)
{
	gs_node *root = read_ok("t.yaml", "name: Test\n"
	                                  "list:\n"
	                                  "  - a\n"
	                                  "  - \"q\"\n"
	                                  "spot: null\n"
	                                  "empty:\n");
	gs_node *list, *v;
	(void)state;

	assert_int_equal(root->kind, GS_NODE_MAP);
	assert_int_equal(root->n, 4);
	assert_int_equal(root->line, 1);
	assert_int_equal(root->col, 1);
	v = gs_node_get(root, "name");
	assert_int_equal(v->kind, GS_NODE_STRING);
	assert_string_equal(v->text, "Test");
	assert_int_equal(v->quoted, 0);
	assert_int_equal(v->line, 1);
	assert_int_equal(v->col, 7);
	list = gs_node_get(root, "list");
	assert_int_equal(list->kind, GS_NODE_SEQ);
	assert_int_equal(list->n, 2);
	assert_int_equal(list->line, 3);
	assert_int_equal(list->col, 3);
	assert_int_equal(list->items[1]->quoted, 1);
	assert_int_equal(list->items[1]->line, 4);
	assert_int_equal(list->items[1]->col, 5);
	assert_int_equal(gs_node_get(root, "spot")->kind, GS_NODE_NULL);
	assert_int_equal(gs_node_get(root, "empty")->kind, GS_NODE_NULL);
	assert_int_equal(root->keys[3]->line, 6);
	assert_null(gs_node_get(root, "absent"));
	gs_node_free(root);
}

static const char nested_doc[] = "name: Test\n"
                                 "list:\n"
                                 "- a\n"
                                 "- b: c\n"
                                 "  d:\n"
                                 "  - x\n"
                                 "  - \"y\"\n"
                                 "  e: {}\n"
                                 "empty: []\n"
                                 "spot: null\n";

static void test_yaml_nested_round_trip(void **state)
{
	static const char input[] = "name: Test\n"
	                            "list:\n"
	                            "  - a\n"
	                            "  - b: c\n"
	                            "    d: [x, y]\n"
	                            "    e: {}\n"
	                            "empty: []\n"
	                            "spot: ~\n";
	gs_node *root = read_ok("in.yaml", input), *again;
	char *out = render(root);
	(void)state;

	/* "y" is a YAML 1.1 boolean, so it is written quoted. */
	assert_string_equal(out, nested_doc);
	again = read_ok("out.yaml", out);
	free(out);
	/* The same tree, except that "y" is now quoted in the source. */
	{
		gs_node *y = gs_node_get(gs_node_get(root, "list")->items[1], "d")->items[1];
		assert_int_equal(y->quoted, 0);
		y->quoted = 1;
	}
	assert_same_tree(root, again);
	gs_node_free(root);
	gs_node_free(again);
}

/* Renders {name: value} with value a string and checks the exact text,
 * then that reading it back gives the same string. */
static void check_quoted(const char *value)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL), *back = NULL, *v;
	char want[64], got[64], text[64] = "", *out;
	gs_error err = clean_err();
	int rc, kind = -1, quoted = -1;

	assert_int_equal(gs_node_put(m, "name", gs_node_str(value)), 0);
	out = render(m);
	gs_node_free(m);
	snprintf(got, sizeof got, "%s", out);
	rc = gs_yaml_read_buffer("q.yaml", out, strlen(out), &back, &err);
	free(out);
	if (rc == 0 && (v = gs_node_get(back, "name"))) {
		kind = (int)v->kind;
		quoted = v->quoted;
		snprintf(text, sizeof text, "%s", v->text);
	}
	gs_node_free(rc == 0 ? back : NULL);
	snprintf(want, sizeof want, "name: \"%s\"\n", value);
	assert_string_equal(got, want);
	assert_gs_ok(rc, &err);
	assert_int_equal(kind, GS_NODE_STRING);
	assert_int_equal(quoted, 1);
	assert_string_equal(text, value);
}

static void test_yaml_quotes_ambiguous_strings(void **state)
{
	static const char *const values[] = {
		"yes", "No", "on", "off", "y", "true", "False", "1.0", "40", "-1",
		"+1", ".5", "0x1f", "1e3", "2026-07-20", ".inf", ".NaN", "", "null",
		"~", "Null", "<<", "=",
	};
	(void)state;

	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		check_quoted(values[i]);
	/* Plain words stay plain; built numbers, booleans and nulls are not
	 * strings and are written bare. */
	{
		gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
		char *out, got[128];
		assert_int_equal(gs_node_put(m, "a", gs_node_str("yesterday")) |
		                     gs_node_put(m, "b", gs_node_int(40)) |
		                     gs_node_put(m, "c", gs_node_money(3060000, 2)) |
		                     gs_node_put(m, "d", gs_node_bool(1)) |
		                     gs_node_put(m, "e", gs_node_str(NULL)),
		                 0);
		out = render(m);
		gs_node_free(m);
		snprintf(got, sizeof got, "%s", out);
		free(out);
		assert_string_equal(got, "a: yesterday\nb: 40\nc: 3.06\nd: true\ne: null\n");
	}
}

/* Signed infinities are floats in YAML 1.1 and 1.2, and "-.5" is a float in
 * YAML 1.2: as strings they need quotes too. */
static void test_yaml_quotes_signed_floats(void **state)
{
	(void)state;
	check_quoted("-.inf");
	check_quoted("+.inf");
	check_quoted("-.Inf");
	check_quoted("-.5");
	check_quoted("+.5");
}

static void test_yaml_tricky_string_round_trip(void **state)
{
	static const char *const values[] = {
		"a: b",
		"key: value\nsecond line: \"quoted\" and 'single'\n",
		"- not a list",
		"# not a comment",
		"trailing space ",
		" leading space",
		"{braces}, [brackets] & *star !bang %pct @at `tick`",
		"multi\n\nblank line\n",
		"tab\there",
		"unicode: \xc3\xa9\xe2\x82\xac",
	};
	(void)state;

	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		gs_node *m = gs_node_new(GS_NODE_MAP, NULL), *back, *v;
		char *out;
		assert_int_equal(gs_node_put(m, "v", gs_node_str(values[i])), 0);
		out = render(m);
		back = read_ok("t.yaml", out);
		free(out);
		assert_int_equal(back->kind, GS_NODE_MAP);
		assert_int_equal(back->n, 1);
		v = gs_node_get(back, "v");
		assert_non_null(v);
		assert_int_equal(v->kind, GS_NODE_STRING);
		assert_string_equal(v->text, values[i]);
		gs_node_free(back);
		gs_node_free(m);
	}
}

static void test_yaml_billion_laughs(void **state)
{
	static const char laughs[] = "a: &a [\"lol\", \"lol\", \"lol\"]\n"
	                             "b: &b [*a, *a, *a]\n"
	                             "c: &c [*b, *b, *b]\n"
	                             "d: [*c, *c, *c]\n";
	static const char alias_only[] = "a: [lol]\n"
	                                 "b: [*a, *a]\n";
	static const char scalar_anchor[] = "a: &x lol\n";
	(void)state;
	expect_read_error("laughs.yaml", laughs, strlen(laughs), GS_ESYNTAX,
	                  "laughs.yaml:1:4: error: anchors are not supported");
	expect_read_error("alias.yaml", alias_only, strlen(alias_only), GS_ESYNTAX,
	                  "alias.yaml:2:5: error: aliases are not supported");
	expect_read_error("anchor.yaml", scalar_anchor, strlen(scalar_anchor),
	                  GS_ESYNTAX, "anchor.yaml:1:4: error: anchors are not supported");
}

static void test_yaml_depth_limit(void **state)
{
	char doc[200];
	size_t k = 0;
	gs_node *root, *n;
	int depth = 0;
	(void)state;

	/* 64 levels are fine. */
	for (int i = 0; i < 64; i++)
		doc[k++] = '[';
	for (int i = 0; i < 64; i++)
		doc[k++] = ']';
	doc[k] = '\0';
	root = read_ok("deep.yaml", doc);
	for (n = root; n->kind == GS_NODE_SEQ; n = n->n ? n->items[0] : NULL) {
		depth++;
		if (!n->n)
			break;
	}
	assert_int_equal(depth, 64);
	gs_node_free(root);

	/* 65 are not; the error points at the 65th '['. */
	k = 0;
	for (int i = 0; i < 65; i++)
		doc[k++] = '[';
	for (int i = 0; i < 65; i++)
		doc[k++] = ']';
	doc[k] = '\0';
	expect_read_error("deep.yaml", doc, k, GS_ELIMIT,
	                  "deep.yaml:1:65: error: nesting is deeper than 64 levels");
}

static void test_yaml_nul_byte(void **state)
{
	static const char mid[] = "a: 1\nb: \0x\n";
	static const char first[] = "\0";
	static const char line_start[] = "a: 1\n\0";
	(void)state;
	expect_read_error("nul.yaml", mid, sizeof mid - 1, GS_ESYNTAX,
	                  "nul.yaml:2:4: error: NUL byte in the file");
	expect_read_error("nul.yaml", first, 1, GS_ESYNTAX,
	                  "nul.yaml:1:1: error: NUL byte in the file");
	expect_read_error("nul.yaml", line_start, sizeof line_start - 1, GS_ESYNTAX,
	                  "nul.yaml:2:1: error: NUL byte in the file");
}

static void test_yaml_documents(void **state)
{
	static const char two[] = "a: 1\n---\nb: 2\n";
	static const char two_marked[] = "---\na: 1\n...\n---\nb: 2\n";
	gs_node *root;
	(void)state;
	expect_read_error("two.yaml", two, strlen(two), GS_ESYNTAX,
	                  "two.yaml:2:1: error: more than one YAML document");
	expect_read_error("two.yaml", two_marked, strlen(two_marked), GS_ESYNTAX,
	                  "two.yaml:4:1: error: more than one YAML document");
	/* One explicit document is fine; an empty one is a null root. */
	root = read_ok("one.yaml", "---\na: 1\n...\n");
	assert_int_equal(root->kind, GS_NODE_MAP);
	gs_node_free(root);
	root = read_ok("empty.yaml", "");
	assert_int_equal(root->kind, GS_NODE_NULL);
	gs_node_free(root);
	root = read_ok("comment.yaml", "# only a comment\n");
	assert_int_equal(root->kind, GS_NODE_NULL);
	gs_node_free(root);
}

static void test_yaml_other_refusals(void **state)
{
	static const char dup[] = "a: 1\nb: 2\na: 3\n";
	static const char seq_key[] = "? [a, b]\n: 1\n";
	static const char unclosed[] = "a: [1, 2\n";
	(void)state;
	expect_read_error("dup.yaml", dup, strlen(dup), GS_ESCHEMA,
	                  "dup.yaml:3:1: error: duplicate key 'a'");
	expect_read_error("key.yaml", seq_key, strlen(seq_key), GS_ESYNTAX,
	                  "key.yaml:1:3: error: a key must be a plain string");
	expect_read_error("bad.yaml", unclosed, strlen(unclosed), GS_ESYNTAX,
	                  "bad.yaml:2:1: error: did not find expected ',' or ']' "
	                  "while parsing a flow sequence");
}

/* YAML's plain nulls, and what only looks like one. */
static void test_yaml_null_spellings(void **state)
{
	static const char *const nulls[] = { "a", "b", "c", "d", "e" };
	static const char *const texts[] = { "f", "g", "h", "i", "j", "k" };
	gs_node *root = read_ok("n.yaml", "a: ~\nb: null\nc: Null\nd: NULL\ne:\n"
	                                  "f: NuLl\ng: nulls\nh: '~'\ni: x\nj: nul\nk: \"null\"\n");
	(void)state;
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(gs_node_get(root, nulls[i])->kind, GS_NODE_NULL);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(gs_node_get(root, texts[i])->kind, GS_NODE_STRING);
	assert_string_equal(gs_node_get(root, "g")->text, "nulls");
	gs_node_free(root);
}

/* The reader gives each map and sequence arrays of its exact size, in
 * order, and a tree it read still grows; a failure deep in a nested value,
 * after siblings were read, frees what was read (the sanitizers see). */
static void test_yaml_exact_children(void **state)
{
	static const char doc[] = "a: {}\n"
	                          "b: [x]\n"
	                          "c: {k1: 1, k2: 2, k3: 3, k4: 4, k5: 5}\n"
	                          "d: [[1, 2], [], [3, [4, 5, 6, 7, 8, 9, 10, 11, 12]]]\n";
	static const char dup[] = "a: [1, 2]\nb:\n  - x\n  - [y, {c: 1, d: 2, c: 3}]\n";
	static const char alias[] = "a: &x [1]\nb: {c: [2, 3], d: [4, *x]}\n";
	static const char seq_key[] = "a: 1\nb: {c: 2, [d]: 3}\n";
	gs_node *root = read_ok("t.yaml", doc), *c, *d, *deep;
	char big[8 * 1000 + 16];
	size_t o = 0;
	(void)state;

	assert_int_equal(root->n, 4);
	assert_int_equal(root->cap, 4);
	assert_int_equal(gs_node_get(root, "a")->n, 0);
	assert_null(gs_node_get(root, "a")->items);
	assert_int_equal(gs_node_get(root, "b")->cap, 1);
	c = gs_node_get(root, "c");
	assert_int_equal(c->n, 5);
	assert_int_equal(c->cap, 5);
	for (size_t i = 0; i < 5; i++) {
		char k[4], v[2];
		snprintf(k, sizeof k, "k%zu", i + 1);
		snprintf(v, sizeof v, "%zu", i + 1);
		assert_string_equal(c->keys[i]->text, k);
		assert_string_equal(c->items[i]->text, v);
	}
	assert_int_equal(gs_node_put(c, "k6", gs_node_int(6)), 0);
	assert_int_equal(c->n, 6);
	assert_string_equal(gs_node_get(c, "k6")->text, "6");
	d = gs_node_get(root, "d");
	assert_int_equal(d->cap, 3);
	assert_int_equal(d->items[1]->n, 0);
	deep = d->items[2]->items[1];
	assert_int_equal(deep->n, 9);
	assert_int_equal(deep->cap, 9);
	assert_string_equal(deep->items[8]->text, "12");
	assert_int_equal(deep->line, 4);
	assert_int_equal(deep->col, 21);
	gs_node_free(root);

	o += (size_t)snprintf(big + o, sizeof big - o, "[");
	for (int i = 0; i < 1000; i++)
		o += (size_t)snprintf(big + o, sizeof big - o, "%s%d", i ? ", " : "", i);
	snprintf(big + o, sizeof big - o, "]\n");
	root = read_ok("big.yaml", big);
	assert_int_equal(root->n, 1000);
	assert_int_equal(root->cap, 1000);
	assert_string_equal(root->items[999]->text, "999");
	gs_node_free(root);

	expect_read_error("dup.yaml", dup, strlen(dup), GS_ESCHEMA,
	                  "dup.yaml:4:22: error: duplicate key 'c'");
	expect_read_error("alias.yaml", alias, strlen(alias), GS_ESYNTAX,
	                  "alias.yaml:1:4: error: anchors are not supported");
	expect_read_error("key.yaml", seq_key, strlen(seq_key), GS_ESYNTAX,
	                  "key.yaml:2:11: error: a key must be a plain string");
}

/* ---- JSON -------------------------------------------------------------------------- */

static gs_node *json_tree(void)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *list = gs_node_new(GS_NODE_SEQ, NULL);
	assert_int_equal(gs_node_push(list, gs_node_int(1)) |
	                     gs_node_push(list, gs_node_str("two")),
	                 0);
	assert_int_equal(gs_node_put(m, "name", gs_node_str("A100 \"40GB\"\tx")) |
	                     gs_node_put(m, "count", gs_node_int(3)) |
	                     gs_node_put(m, "price", gs_node_money(3060000, 2)) |
	                     gs_node_put(m, "ok", gs_node_bool(1)) |
	                     gs_node_put(m, "none", gs_node_str(NULL)) |
	                     gs_node_put(m, "list", list) |
	                     gs_node_put(m, "empty", gs_node_new(GS_NODE_SEQ, NULL)),
	                 0);
	return m;
}

static char *json_of(const gs_node *n)
{
	char *out = NULL;
	gs_error err = clean_err();
	assert_gs_ok(gs_json_render(n, &out, &err), &err);
	assert_non_null(out);
	return out;
}

/* The output parses back to the same values. */
static void test_json_render_well_formed(void **state)
{
	gs_node *tree = json_tree();
	char *out = json_of(tree);
	cJSON *j = cJSON_Parse(out);
	const cJSON *list;
	(void)state;

	gs_node_free(tree);
	assert_non_null(j);
	assert_int_equal(out[strlen(out) - 1], '\n');
	free(out);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(j, "name")->valuestring,
	                    "A100 \"40GB\"\tx");
	assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "count")));
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(j, "count")->valueint, 3);
	assert_true(cJSON_GetObjectItemCaseSensitive(j, "price")->valuedouble == 3.06);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "ok")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "none")));
	list = cJSON_GetObjectItemCaseSensitive(j, "list");
	assert_int_equal(cJSON_GetArraySize(list), 2);
	assert_string_equal(cJSON_GetArrayItem(list, 1)->valuestring, "two");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "empty")), 0);
	assert_int_equal(cJSON_GetArraySize(j), 7);
	cJSON_Delete(j);
}

/* Two-space indent, one member per line, one space after each colon. */
static void test_json_render_text(void **state)
{
	gs_node *tree = json_tree();
	char *out = json_of(tree);
	(void)state;
	gs_node_free(tree);
	/* Copy the text so the failure message can show it after free. */
	{
		char got[512];
		snprintf(got, sizeof got, "%s", out);
		free(out);
		assert_string_equal(got, "{\n"
		                         "  \"name\": \"A100 \\\"40GB\\\"\\tx\",\n"
		                         "  \"count\": 3,\n"
		                         "  \"price\": 3.06,\n"
		                         "  \"ok\": true,\n"
		                         "  \"none\": null,\n"
		                         "  \"list\": [\n"
		                         "    1,\n"
		                         "    \"two\"\n"
		                         "  ],\n"
		                         "  \"empty\": []\n"
		                         "}\n");
	}
}

static void test_json_render_scalars(void **state)
{
	gs_node *n;
	char *out;
	(void)state;
	n = gs_node_str("x");
	out = json_of(n);
	assert_string_equal(out, "\"x\"\n");
	free(out);
	gs_node_free(n);
	n = gs_node_fixed(125, 1000, 3);
	out = json_of(n);
	assert_string_equal(out, "0.125\n");
	free(out);
	gs_node_free(n);
	n = gs_node_new(GS_NODE_SEQ, NULL);
	out = json_of(n);
	assert_string_equal(out, "[]\n");
	free(out);
	gs_node_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_micros_parse),
		cmocka_unit_test(test_micros_parse_errors),
		cmocka_unit_test(test_micros_format),
		cmocka_unit_test(test_micros_format_extremes),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_error_format),
		cmocka_unit_test(test_parse_bytes),
		cmocka_unit_test(test_parse_bytes_errors),
		cmocka_unit_test(test_parse_bytes_too_large),
		cmocka_unit_test(test_parse_share),
		cmocka_unit_test(test_parse_cpu),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_yaml_read_tree),
		cmocka_unit_test(test_yaml_nested_round_trip),
		cmocka_unit_test(test_yaml_quotes_ambiguous_strings),
		cmocka_unit_test(test_yaml_quotes_signed_floats),
		cmocka_unit_test(test_yaml_tricky_string_round_trip),
		cmocka_unit_test(test_yaml_billion_laughs),
		cmocka_unit_test(test_yaml_depth_limit),
		cmocka_unit_test(test_yaml_nul_byte),
		cmocka_unit_test(test_yaml_documents),
		cmocka_unit_test(test_yaml_other_refusals),
		cmocka_unit_test(test_yaml_exact_children),
		cmocka_unit_test(test_yaml_null_spellings),
		cmocka_unit_test(test_json_render_well_formed),
		cmocka_unit_test(test_json_render_text),
		cmocka_unit_test(test_json_render_scalars),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
