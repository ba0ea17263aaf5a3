/*
 * test_kube_scan.c - kubectl's List read item by item from a stream
 * (lib/import/kube_scan.c, kube_list.c): every item found whatever the
 * chunk boundaries (a source that gives one byte at a time, and every
 * split in two), strings with escaped quotes and brackets, "items" inside
 * items, truncated files at every length, errors at their place in the
 * file, one object and YAML read whole, and the limits.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "base/buf.h"
#include "import/kube_list.h"
#include "import/kube_scan.h"

/* ---- a source that gives at most `step` bytes a call, `first` the first time */

typedef struct drip {
	const char *buf;
	size_t len, at, step, first;
	int calls;
} drip;

static long drip_read(void *ud, char *out, size_t cap, gs_error *err)
{
	drip *d = ud;
	size_t n = d->calls++ == 0 && d->first ? d->first : d->step;
	(void)err;
	if (n > cap)
		n = cap;
	if (n > d->len - d->at)
		n = d->len - d->at;
	memcpy(out, d->buf + d->at, n);
	d->at += n;
	return (long)n;
}

/* ---- a callback that writes down what it gets ------------------------------------ */

typedef struct seen {
	gs_buf text;      /* "i: <item as JSON>\n" per item */
	size_t n;
	int fail_at;      /* fail on this item (-1: never), at its "bad" member */
	int calls;
	gs_error *err;    /* the reader's, as the importer's callbacks have it */
} seen;

static int record(const char *file, const gs_node *item, size_t i, void *ud)
{
	seen *s = ud;
	char *json = NULL;
	gs_error err;
	s->calls++;
	if (s->fail_at == (int)i)
		return gs_fail_node(s->err, GS_ESCHEMA, file, gs_node_get(item, "bad"), "bad");
	assert_int_equal(gs_json_render(item, &json, &err), 0);
	gs_buf_printf(&s->text, "%zu: %s", i, json);
	free(json);
	s->n++;
	return 0;
}

/* The items read from buf given in pieces of `step` bytes (`first` first). */
static int read_list(const char *buf, size_t len, size_t first, size_t step, seen *s,
                     gs_error *err)
{
	drip d = { buf, len, 0, step, first, 0 };
	gs_source src = { "list.json", drip_read, NULL, &d };
	gs_kube_list l = { &src, "Pod", "kubectl get pods -A -o json" };
	s->err = err;
	return gs_kube_list_read(&l, record, s, err);
}

/* What each item gives read on its own. */
static char *expected(const char *const *items, size_t n)
{
	gs_buf b = GS_BUF_INIT;
	char *out = NULL;
	gs_error err;
	for (size_t i = 0; i < n; i++) {
		gs_node *t = NULL;
		char *json = NULL;
		assert_int_equal(gs_json_read_buffer("x", items[i], strlen(items[i]), &t, &err), 0);
		assert_int_equal(gs_json_render(t, &json, &err), 0);
		gs_buf_printf(&b, "%zu: %s", i, json);
		free(json);
		gs_node_free(t);
	}
	assert_int_equal(gs_buf_detach(&b, &out, &err), 0);
	return out;
}

static const char *const tricky_items[] = {
	/* quotes, backslashes and brackets inside strings */
	"{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\\\"]}[{\\\\\", \"n\": \"\\\\\"}}",
	/* an "items" of its own, nested arrays, numbers, literals, UTF-8 */
	"{\"kind\":\"Pod\",\"items\":[[1,2],{\"items\":[]}],\"x\":[true,false,null,-1.5e3],"
	"\"name\":\"caf\xc3\xa9 \\u00e9\"}",
	/* an empty object and string escapes across the board */
	"{}",
	"{\"s\": \"\\b\\f\\n\\r\\t\\/\\u0041\", \"e\": {}, \"a\": []}",
};
#define N_TRICKY (sizeof tricky_items / sizeof tricky_items[0])

static char *tricky_list(void)
{
	gs_buf b = GS_BUF_INIT;
	char *out = NULL;
	gs_error err;
	gs_buf_puts(&b, "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n");
	for (size_t i = 0; i < N_TRICKY; i++)
		gs_buf_printf(&b, "    %s%s\n", tricky_items[i], i + 1 < N_TRICKY ? "," : "");
	gs_buf_puts(&b, "  ],\n  \"kind\": \"List\",\n  \"metadata\": {\"resourceVersion\": "
	                "\"[{\\\"\"}\n}\n");
	assert_int_equal(gs_buf_detach(&b, &out, &err), 0);
	return out;
}

/* Whatever the pieces the bytes come in, the same items. */
static void test_chunk_boundaries(void **state)
{
	char *list = tricky_list(), *want = expected(tricky_items, N_TRICKY);
	size_t len = strlen(list);
	(void)state;

	for (size_t step = 1; step <= 3; step++) {
		seen s = { GS_BUF_INIT, 0, -1, 0, NULL };
		gs_error err;
		assert_gs_ok(read_list(list, len, 0, step, &s, &err), &err);
		assert_string_equal(gs_buf_str(&s.text), want);
		gs_buf_release(&s.text);
	}
	for (size_t cut = 0; cut <= len; cut++) {
		seen s = { GS_BUF_INIT, 0, -1, 0, NULL };
		gs_error err;
		assert_gs_ok(read_list(list, len, cut ? cut : len, len, &s, &err), &err);
		if (strcmp(gs_buf_str(&s.text), want) != 0)
			fail_msg("split at %zu: %s", cut, gs_buf_str(&s.text));
		gs_buf_release(&s.text);
	}
	free(list);
	free(want);
}

/* A List cut at any byte inside it is an error, never a shorter List,
 * and says which item it ends in; items before the cut were handed out. */
static void test_truncated_everywhere(void **state)
{
	char *list = tricky_list();
	const char *items = strstr(list, "\"items\": [") + 10;
	const char *end = strrchr(list, '}');
	(void)state;

	for (const char *p = items; p < end; p++) {
		size_t len = (size_t)(p - list);
		seen s = { GS_BUF_INIT, 0, -1, 0, NULL };
		gs_error err;
		char want[64];
		int rc = read_list(list, len, 0, 1, &s, &err);
		if (rc != GS_ESYNTAX)
			fail_msg("cut at %zu: %d", len, rc);
		assert_string_equal(err.file, "list.json");
		assert_non_null(strstr(err.msg, "(truncated?)"));
		snprintf(want, sizeof want, "items[%zu]", s.n);
		if (strstr(err.msg, "ends inside"))
			assert_non_null(strstr(err.msg, want));
		gs_buf_release(&s.text);
	}
	free(list);
}

static void expect_error(const char *text, size_t step, int code, const char *want)
{
	seen s = { GS_BUF_INIT, 0, -1, 0, NULL };
	gs_error err;
	int rc = read_list(text, strlen(text), 0, step, &s, &err);
	if (rc != code)
		fail_msg("%s: code %d, expected %d (%s)", text, rc, code, err.msg);
	if (code)
		assert_gs_error(&err, want);
	gs_buf_release(&s.text);
}

static void test_truncated_messages(void **state)
{
	(void)state;
	expect_error("{\"items\": [\n  {\"kind\": \"Pod\"},\n  {\"kind\": \"P", 1, GS_ESYNTAX,
	             "list.json:3:14: error: the file ends inside items[1] (truncated?)");
	expect_error("{\"items\": [{}, {}", 4, GS_ESYNTAX,
	             "list.json:1:18: error: the file ends after items[1], before the end of "
	             "'items' (truncated?)");
	expect_error("{\"items\": [{}, ", 4, GS_ESYNTAX,
	             "list.json:1:16: error: the file ends after items[0], before the end of "
	             "'items' (truncated?)");
	expect_error("{\"items\": [", 4, GS_ESYNTAX,
	             "list.json:1:12: error: the file ends before items[0] (truncated?)");
	expect_error("{\"items\": [{}],\n \"kind\": \"List\"\n", 4, GS_ESYNTAX,
	             "list.json:3:1: error: the file ends before the List's closing brace, "
	             "after its 1 item (truncated?)");
	/* Before the items begin, the YAML reader reads the file whole and says. */
	expect_error("{\"kind\": \"Li", 1, GS_ESYNTAX,
	             "list.json:1:10: error: unterminated quoted string (the file ends "
	             "before its closing quote)");
}

static void test_syntax_errors(void **state)
{
	(void)state;
	expect_error("{\"items\": [{} {}]}", 1, GS_ESYNTAX,
	             "list.json:1:15: error: invalid JSON: expected ',' or ']' after items[0], "
	             "not '{'");
	expect_error("{\"items\": [{}, ]}", 2, GS_ESYNTAX,
	             "list.json:1:16: error: invalid JSON: expected items[1], not ']'");
	expect_error("{\"items\": [{\"a\": [}]}", 3, GS_ESYNTAX,
	             "list.json:1:19: error: invalid JSON: '}' closes a '['");
	expect_error("{\"items\": [], \"items\": []}", 1, GS_ESYNTAX,
	             "list.json:1:15: error: the List has 'items' twice");
	expect_error("{\"items\": []} {}", 1, GS_ESYNTAX,
	             "list.json:1:15: error: invalid JSON: expected the end of the file after "
	             "the List, not '{'");
	/* Inside an item: what cJSON refuses goes to the YAML reader (JSON is
	 * YAML's flow style), which reads this one and refuses that one, at its
	 * place in the file. */
	expect_error("{\"items\": [\n  {\"a\": tru}\n]}", 5, 0, "");
	expect_error("{\"items\": [\n  {\"a\": \"x\" \"y\"}\n]}", 5, GS_ESYNTAX,
	             "list.json:2:13: error: did not find expected ',' or '}' while parsing a "
	             "flow mapping");
}

/* The JSON reader's tree has no places: a callback's error on it is found
 * again on the YAML reader's tree of the same item, at its place in the
 * file, whatever the chunks. */
static void test_callback_error_located(void **state)
{
	static const char list[] = "{\"items\": [\n  {\"kind\": \"Pod\"},\n"
	                           "  {\"kind\": \"Pod\",\n   \"bad\": 1}\n]}\n";
	(void)state;
	for (size_t step = 1; step <= sizeof list; step += 7) {
		seen s = { GS_BUF_INIT, 0, 1, 0, NULL };
		gs_error err;
		assert_int_equal(read_list(list, sizeof list - 1, 0, step, &s, &err), GS_ESCHEMA);
		assert_gs_error(&err, "list.json:4:11: error: bad");
		assert_int_equal(s.n, 1);
		assert_int_equal(s.calls, 3); /* item 1 twice: to read it, to locate */
		gs_buf_release(&s.text);
	}
	/* Nothing to point at: the first error stands, without a place. */
	{
		static const char nobad[] = "{\"items\": [{}, {}]}";
		seen s = { GS_BUF_INIT, 0, 1, 0, NULL };
		gs_error err;
		assert_int_equal(read_list(nobad, sizeof nobad - 1, 0, 3, &s, &err), GS_ESCHEMA);
		assert_gs_error(&err, "list.json: error: bad");
		gs_buf_release(&s.text);
	}
}

static void expect_items(const char *text, size_t len, const char *want)
{
	seen s = { GS_BUF_INIT, 0, -1, 0, NULL };
	gs_error err;
	assert_gs_ok(read_list(text, len, 0, 5, &s, &err), &err);
	assert_string_equal(gs_buf_str(&s.text), want);
	gs_buf_release(&s.text);
}

/* What is not a JSON List is read whole: one object, YAML, an empty List. */
static void test_read_whole(void **state)
{
	static const char one[] = "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"}}\n";
	static const char yaml[] = "apiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  n: \"a\"\n"
	                           "- kind: Pod\n  n: \"b\"\n";
	static const char empty[] = "{\"apiVersion\": \"v1\", \"items\": [], \"kind\": \"List\"}";
	(void)state;
	expect_items(one, sizeof one - 1,
	             "0: {\n  \"kind\": \"Pod\",\n  \"metadata\": {\n"
	             "    \"name\": \"p\"\n  }\n}\n");
	expect_items(yaml, sizeof yaml - 1,
	             "0: {\n  \"kind\": \"Pod\",\n  \"n\": \"a\"\n}\n"
	             "1: {\n  \"kind\": \"Pod\",\n  \"n\": \"b\"\n}\n");
	expect_items(empty, sizeof empty - 1, "");
	expect_error("", 1, GS_ESCHEMA,
	             "list.json: error: the file is empty (expected the output of 'kubectl get "
	             "pods -A -o json')");
	expect_error("  42\n", 1, GS_ESCHEMA,
	             "list.json:1:3: error: expected the JSON object that 'kubectl get pods -A -o "
	             "json' prints, not a number");
	expect_error("{\"kind\": \"List\", \"items\": {}}", 2, GS_ESCHEMA,
	             "list.json:1:27: error: expected a List with 'items', the output of "
	             "'kubectl get pods -A -o json'");
}

/* Items are limited, not the file; so is their nesting. */
static void test_limits(void **state)
{
	size_t big = GS_KUBE_ITEM_MAX + 16, len;
	char *text = malloc(big + 64), deep[300];
	seen s = { GS_BUF_INIT, 0, -1, 0, NULL };
	gs_error err;
	(void)state;

	assert_non_null(text);
	len = (size_t)sprintf(text, "{\"items\": [{}, {\"s\": \"");
	memset(text + len, 'x', big);
	len += big;
	len += (size_t)sprintf(text + len, "\"}]}");
	assert_int_equal(read_list(text, len, 0, 1u << 20, &s, &err), GS_ELIMIT);
	assert_gs_error(&err, "list.json:1:16: error: items[1] is larger than the 16 MiB limit "
	                      "of one item");
	assert_int_equal(s.n, 1);
	gs_buf_release(&s.text);
	free(text);

	len = (size_t)sprintf(deep, "{\"items\": [");
	for (int i = 0; i < GS_KUBE_SCAN_DEPTH + 1; i++)
		deep[len++] = '[';
	deep[len] = '\0';
	expect_error(deep, 7, GS_ELIMIT,
	             "list.json:1:77: error: nesting is deeper than 64 levels");
	{
		static const char nul[] = "{\"items\": [{\"a\": \"x\0y\"}]}";
		s = (seen){ GS_BUF_INIT, 0, -1, 0, NULL };
		assert_int_equal(read_list(nul, sizeof nul - 1, 0, 3, &s, &err), GS_ESYNTAX);
		assert_gs_error(&err, "list.json:1:20: error: NUL byte in the file");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunk_boundaries),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_truncated_messages),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_callback_error_located),
		cmocka_unit_test(test_read_whole),
		cmocka_unit_test(test_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
