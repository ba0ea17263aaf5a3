/*
 * test_writer.c - the streaming document writer (doc/doc.h gs_wr_*): for
 * each document, its JSON and YAML bytes equal what the tree renderers
 * (gs_json_render, gs_yaml_render) give for the same tree, and a few are
 * pinned byte for byte; then misuse, failures of the output, and the
 * plan written both ways.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "base/buf.h"
#include "doc/doc.h"

TU_CATALOG_GROUP(cat)

/* Drives a writer with a tree's events, as a describer would. */
static void walk(gs_wr *w, const gs_node *n)
{
	switch (n->kind) {
	case GS_NODE_NULL: gs_wr_null(w); return;
	case GS_NODE_BOOL: gs_wr_bool(w, strcmp(n->text, "true") == 0); return;
	case GS_NODE_STRING: gs_wr_str(w, n->text); return;
	case GS_NODE_NUMBER: gs_wr_int(w, strtoll(n->text, NULL, 10)); return;
	default: break;
	}
	n->kind == GS_NODE_MAP ? gs_wr_map(w) : gs_wr_seq(w);
	for (size_t i = 0; i < n->n; i++) {
		if (n->kind == GS_NODE_MAP)
			gs_wr_key(w, n->keys[i]->text);
		walk(w, n->items[i]);
	}
	gs_wr_end(w);
}

/* The writer's bytes for tree in fmt (the caller frees them). */
static char *streamed(const gs_node *tree, gs_format fmt)
{
	gs_buf b = GS_BUF_INIT;
	gs_wr *w = NULL;
	gs_error err;
	char *out = NULL;
	assert_gs_ok(gs_wr_new(fmt, gs_wr_to_buf, &b, &w, &err), &err);
	walk(w, tree);
	assert_gs_ok(gs_wr_finish(w, &err), &err);
	assert_gs_ok(gs_buf_detach(&b, &out, &err), &err);
	return out;
}

static char *rendered(const gs_node *tree, gs_format fmt)
{
	gs_error err;
	char *out = NULL;
	if (fmt == GS_FORMAT_JSON)
		assert_gs_ok(gs_json_render(tree, &out, &err), &err);
	else
		assert_gs_ok(gs_yaml_render(tree, &out, &err), &err);
	return out;
}

/* Both formats equal the tree's; returns the JSON and YAML when asked. */
static void same_both(const gs_node *tree, char **json, char **yaml)
{
	for (int f = 0; f < 2; f++) {
		gs_format fmt = f ? GS_FORMAT_YAML : GS_FORMAT_JSON;
		char *want = rendered(tree, fmt), *got = streamed(tree, fmt);
		assert_string_equal(got, want);
		free(want);
		if (f && yaml)
			*yaml = got;
		else if (!f && json)
			*json = got;
		else
			free(got);
	}
}

static void test_json_escapes(void **state)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	char *json, *yaml;
	(void)state;
	assert_int_equal(gs_node_put(m, "k\"ey\\",
	                             gs_node_str("x\ty\n\1\x1f\x7f \"q\" é 日本 \U0001F600")),
	                 0);
	same_both(m, &json, &yaml);
	assert_string_equal(json, "{\n  \"k\\\"ey\\\\\": \"x\\ty\\n\\u0001\\u001f\x7f "
	                          "\\\"q\\\" é 日本 \U0001F600\"\n}\n");
	/* libyaml writes the key plain and escapes what is not printable. */
	assert_string_equal(yaml, "k\"ey\\: \"x\\ty\\n\\x01\\x1F\\x7F \\\"q\\\" "
	                          "é 日本 \\U0001F600\"\n");
	free(json);
	free(yaml);
	gs_node_free(m);
}

/* Every byte but NUL, in order: JSON escapes the control characters and
 * passes the rest; libyaml refuses the invalid UTF-8, and both YAML paths
 * fail alike. */
static void test_every_byte(void **state)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	gs_buf b = GS_BUF_INIT;
	gs_wr *w = NULL;
	gs_error err;
	char every[256], *json, *out = NULL;
	(void)state;
	for (int i = 1; i < 256; i++)
		every[i - 1] = (char)i;
	every[255] = '\0';
	assert_int_equal(gs_node_put(m, "every byte", gs_node_str(every)), 0);
	json = rendered(m, GS_FORMAT_JSON);
	out = streamed(m, GS_FORMAT_JSON);
	assert_string_equal(out, json);
	assert_non_null(strstr(json, "\"\\u0001\\u0002"));
	assert_non_null(strstr(json, "\\b\\t\\n\\u000b\\f\\r\\u000e"));
	assert_non_null(strstr(json, "\\u001f !\\\"#$%&'()*+,-./0123456789"));
	assert_non_null(strstr(json, "Z[\\\\]^_`a"));
	free(out);
	out = NULL;
	assert_int_equal(gs_yaml_render(m, &out, &err), GS_EINVAL);
	assert_gs_error(&err, "error: cannot write YAML: emitter error");
	free(json);
	assert_gs_ok(gs_wr_new(GS_FORMAT_YAML, gs_wr_to_buf, &b, &w, &err), &err);
	walk(w, m);
	assert_int_equal(gs_wr_finish(w, &err), GS_EINVAL);
	assert_gs_error(&err, "error: cannot write YAML: emitter error");
	gs_buf_release(&b);
	gs_node_free(m);
}

/* The JSON writer scans eight bytes at a time: each byte it escapes, at
 * every offset of the first three words, amid plain ASCII and amid bytes
 * past 127 (which must not be taken for it), escaped as cJSON escapes. */
static void test_json_escapes_at_every_offset(void **state)
{
	static const char fill[] = { 'a', (char)0xc3, (char)0xa9, (char)0xff };
	(void)state;
	for (int e = 1; e < 128; e++) {
		if (e >= 32 && e != '"' && e != '\\' && e != 127)
			continue;
		for (int at = 0; at < 24; at++)
			for (size_t f = 0; f < sizeof fill; f++) {
				gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
				char text[32], *want, *got;
				memset(text, fill[f], 30);
				text[at] = (char)e;
				text[at + 1 + (at % 5)] = '"';
				text[30] = '\0';
				assert_int_equal(gs_node_put(m, "k", gs_node_str(text)), 0);
				want = rendered(m, GS_FORMAT_JSON);
				got = streamed(m, GS_FORMAT_JSON);
				assert_string_equal(got, want);
				free(want);
				free(got);
				gs_node_free(m);
			}
	}
}

static void test_yaml_quoting(void **state)
{
	static const char *const texts[] = {
		"yes", "No", "ON", "off", "y", "n", "true", "False", "null", "Null", "~", "<<", "=",
		"1.0", "1", "-1", "+1", ".5", "0x1f", "1e3", ".inf", "-.Inf", ".NaN", "nan",
		"", " ", ": ", "a: b", "a:b", "- a", "-", "--", "---", "#c", "a #c", "@x", "`x",
		"{a}", "[a]", "&a", "*a", "!t", "%p", "'q'", "\"d\"", ",", "?", "? x", "|", ">",
		"lead ", " trail", "two\nlines", "tab\there", "plain", "dns-label.1", "é",
		"a\\b", "x\r", "end\n",
	};
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL), *map = gs_node_new(GS_NODE_MAP, NULL);
	char *yaml;
	int rc = 0;
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_LEN(texts); i++) {
		rc |= gs_node_push(seq, gs_node_str(texts[i]));
		rc |= gs_node_put(map, texts[i], gs_node_str(texts[i]));
	}
	assert_int_equal(rc, 0);
	same_both(seq, NULL, &yaml);
	assert_non_null(strstr(yaml, "- \"yes\"\n- \"No\"\n"));
	assert_non_null(strstr(yaml, "- \"1.0\"\n- \"1\"\n- \"-1\"\n"));
	assert_non_null(strstr(yaml, "- \"\"\n- ' '\n- ': '\n- 'a: b'\n- a:b\n- '- a'\n- '-'\n"));
	assert_non_null(strstr(yaml, "- |-\n  two\n  lines\n"));
	assert_non_null(strstr(yaml, "- plain\n- dns-label.1\n- é\n"));
	free(yaml);
	same_both(map, NULL, &yaml);
	assert_non_null(strstr(yaml, "\"yes\": \"yes\"\n"));
	assert_non_null(strstr(yaml, "\"\": \"\"\n"));
	free(yaml);
	gs_node_free(seq);
	gs_node_free(map);
}

/* Which strings a YAML reader would take for something else: each word
 * in any case, nothing longer or shorter, and numbers by their start. */
static void test_yaml_retyped(void **state)
{
	static const struct {
		const char *text;
		int retyped;
	} cases[] = {
		{ "", 1 }, { "y", 1 }, { "Y", 1 }, { "n", 1 }, { "yes", 1 }, { "YES", 1 },
		{ "yEs", 1 }, { "no", 1 }, { "On", 1 }, { "off", 1 }, { "TRUE", 1 },
		{ "False", 1 }, { "FALSE", 1 }, { "null", 1 }, { "NULL", 1 }, { "~", 1 },
		{ "<<", 1 }, { "=", 1 }, { "falsey", 0 }, { "fals", 0 }, { "yess", 0 },
		{ "ye", 0 }, { "nulls", 0 }, { "~~", 0 }, { "<", 0 }, { "==", 0 },
		{ "offf", 0 }, { "o", 0 }, { "tru", 0 }, { "1", 1 }, { "0x1f", 1 },
		{ "9abc", 1 }, { "-1", 1 }, { "+.5", 1 }, { ".5", 1 }, { "-", 0 }, { ".", 0 },
		{ "+", 0 }, { "inf", 1 }, { "INF", 1 }, { ".inf", 1 }, { "-.Inf", 1 },
		{ "+inf", 1 }, { "infinity", 0 }, { "in", 0 }, { "nan", 1 }, { ".NaN", 1 },
		{ "-nan", 1 }, { "nana", 0 }, { ".nan.", 0 }, { "\xc3\xa9", 0 },
		{ "Yes please", 0 }, { "a", 0 }, { "plain", 0 },
	};
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_LEN(cases); i++) {
		if (gs_yaml_retyped(cases[i].text) != cases[i].retyped)
			fail_msg("'%s': retyped %d, not %d", cases[i].text, !cases[i].retyped,
			         cases[i].retyped);
	}
}

static void test_empty_and_nested(void **state)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL), *inner = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *list = gs_node_new(GS_NODE_SEQ, NULL), *deep = gs_node_new(GS_NODE_SEQ, NULL);
	gs_node *empty_map = gs_node_new(GS_NODE_MAP, NULL);
	gs_node *empty_seq = gs_node_new(GS_NODE_SEQ, NULL);
	char *json, *yaml;
	int rc = 0;
	(void)state;
	rc |= gs_node_put(inner, "e", gs_node_new(GS_NODE_MAP, NULL));
	rc |= gs_node_push(list, gs_node_new(GS_NODE_MAP, NULL));
	rc |= gs_node_push(list, gs_node_new(GS_NODE_SEQ, NULL));
	rc |= gs_node_push(deep, gs_node_new(GS_NODE_SEQ, NULL));
	rc |= gs_node_push(list, deep);
	rc |= gs_node_put(m, "a", gs_node_new(GS_NODE_MAP, NULL));
	rc |= gs_node_put(m, "b", gs_node_new(GS_NODE_SEQ, NULL));
	rc |= gs_node_put(m, "c", list);
	rc |= gs_node_put(m, "d", inner);
	rc |= gs_node_put(m, "n", gs_node_str(NULL));
	rc |= gs_node_put(m, "t", gs_node_bool(1));
	assert_int_equal(rc, 0);
	same_both(m, &json, &yaml);
	assert_string_equal(json, "{\n  \"a\": {},\n  \"b\": [],\n  \"c\": [\n    {},\n    [],\n"
	                          "    [\n      []\n    ]\n  ],\n  \"d\": {\n    \"e\": {}\n  },\n"
	                          "  \"n\": null,\n  \"t\": true\n}\n");
	assert_string_equal(yaml, "a: {}\nb: []\nc:\n- {}\n- []\n- - []\nd:\n  e: {}\n\"n\": null\n"
	                          "t: true\n");
	free(json);
	free(yaml);
	same_both(empty_map, &json, &yaml);
	assert_string_equal(json, "{}\n");
	assert_string_equal(yaml, "{}\n");
	free(json);
	free(yaml);
	same_both(empty_seq, &json, NULL);
	assert_string_equal(json, "[]\n");
	free(json);
	gs_node_free(m);
	gs_node_free(empty_map);
	gs_node_free(empty_seq);
}

/* The typed number calls against the tree's constructors. */
static void numbers(gs_wr *w, int tree, gs_node *m)
{
	static const int64_t ints[] = { 0, -1, 42, INT64_MAX, INT64_MIN };
	static const gs_micros money[] = { 12240000, 21957642, 0, -500000, 1, 7000000000 };
	static const int64_t ppm[] = { 0, 5, 50, -50, -500, 999949, 1000050 };
	char key[16];
	for (size_t i = 0; i < GS_ARRAY_LEN(ints); i++) {
		snprintf(key, sizeof key, "i%zu", i);
		tree ? (void)gs_node_put(m, key, gs_node_int(ints[i]))
		     : (gs_wr_key(w, key), gs_wr_int(w, ints[i]));
	}
	for (size_t i = 0; i < GS_ARRAY_LEN(money); i++) {
		snprintf(key, sizeof key, "m%zu", i);
		tree ? (void)gs_node_put(m, key, gs_node_money(money[i], 2))
		     : (gs_wr_key(w, key), gs_wr_money(w, money[i], 2));
	}
	for (size_t i = 0; i < GS_ARRAY_LEN(ppm); i++) {
		snprintf(key, sizeof key, "f%zu", i);
		tree ? (void)gs_node_put(m, key, gs_node_fixed(ppm[i], 10000, 2))
		     : (gs_wr_key(w, key), gs_wr_fixed(w, ppm[i], 10000, 2));
		snprintf(key, sizeof key, "g%zu", i);
		tree ? (void)gs_node_put(m, key, gs_node_fixed(ppm[i], 1000, 0))
		     : (gs_wr_key(w, key), gs_wr_fixed(w, ppm[i], 1000, 0));
	}
}

static void test_numbers(void **state)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	(void)state;
	numbers(NULL, 1, m);
	for (int f = 0; f < 2; f++) {
		gs_format fmt = f ? GS_FORMAT_YAML : GS_FORMAT_JSON;
		gs_buf b = GS_BUF_INIT;
		gs_wr *w = NULL;
		gs_error err;
		char *want = rendered(m, fmt);
		assert_gs_ok(gs_wr_new(fmt, gs_wr_to_buf, &b, &w, &err), &err);
		gs_wr_map(w);
		numbers(w, 0, NULL);
		gs_wr_end(w);
		assert_gs_ok(gs_wr_finish(w, &err), &err);
		assert_string_equal(gs_buf_str(&b), want);
		if (!f) {
			assert_non_null(strstr(want, "\"i3\": 9223372036854775807,\n"
			                             "  \"i4\": -9223372036854775808,\n"));
			assert_non_null(strstr(want, "\"m0\": 12.24,\n  \"m1\": 21.957642,\n"
			                             "  \"m2\": 0.00,\n  \"m3\": -0.50,\n"
			                             "  \"m4\": 0.000001,\n  \"m5\": 7000.00,\n"));
			assert_non_null(strstr(want, "\"f1\": 0.00,\n  \"g1\": 0,\n"
			                             "  \"f2\": 0.01,\n  \"g2\": 0,\n"
			                             "  \"f3\": -0.01,\n  \"g3\": 0,\n"
			                             "  \"f4\": -0.05,\n  \"g4\": -1,\n"
			                             "  \"f5\": 99.99,\n  \"g5\": 1000,\n"
			                             "  \"f6\": 100.01,\n  \"g6\": 1000\n}\n"));
		}
		gs_buf_release(&b);
		free(want);
	}
	gs_node_free(m);
}

/* A document far past the writer's 64 KiB chunk, counting the writes. */
typedef struct counted {
	gs_buf b;
	int calls;
	int fail_at; /* this call fails with GS_EIO (0: none) */
} counted;

static int count_write(void *ctx, const char *data, size_t len)
{
	counted *c = ctx;
	if (++c->calls == c->fail_at)
		return GS_EIO;
	return gs_wr_to_buf(&c->b, data, len);
}

static void test_large_document(void **state)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	(void)state;
	for (int i = 0; i < 20000; i++) {
		gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
		char name[32];
		snprintf(name, sizeof name, "w-%d \"%c\"", i, 'a' + i % 26);
		rc |= gs_node_put(m, "name", gs_node_str(name));
		rc |= gs_node_put(m, "replica", gs_node_int(i));
		rc |= gs_node_push(seq, m);
	}
	/* One string longer than the chunk, with escapes across its edges. */
	{
		char *big = malloc(200001);
		assert_non_null(big);
		for (int i = 0; i < 200000; i++)
			big[i] = i % 7 == 0 ? '"' : i % 11 == 0 ? '\n' : (char)('a' + i % 26);
		big[200000] = '\0';
		rc |= gs_node_push(seq, gs_node_str(big));
		free(big);
	}
	assert_int_equal(rc, 0);
	for (int f = 0; f < 2; f++) {
		gs_format fmt = f ? GS_FORMAT_YAML : GS_FORMAT_JSON;
		counted c = { GS_BUF_INIT, 0, 0 };
		gs_wr *w = NULL;
		gs_error err;
		char *want = rendered(seq, fmt);
		assert_gs_ok(gs_wr_new(fmt, count_write, &c, &w, &err), &err);
		walk(w, seq);
		assert_gs_ok(gs_wr_finish(w, &err), &err);
		assert_string_equal(gs_buf_str(&c.b), want);
		/* Written in chunks, not held whole. */
		assert_int_equal(c.calls, (int)((strlen(want) + 65535) / 65536));
		gs_buf_release(&c.b);
		free(want);
	}
	gs_node_free(seq);
}

static void test_output_fails(void **state)
{
	counted c = { GS_BUF_INIT, 0, 2 };
	gs_wr *w = NULL;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_wr_new(GS_FORMAT_JSON, count_write, &c, &w, &err), &err);
	gs_wr_seq(w);
	for (int i = 0; i < 100000; i++)
		gs_wr_str(w, "a string long enough to fill chunks");
	gs_wr_end(w);
	assert_int_equal(gs_wr_finish(w, &err), GS_EIO);
	assert_gs_error(&err, "error: cannot write the document");
	/* It stopped at the failure: no write after it. */
	assert_int_equal(c.calls, 2);
	assert_int_equal(c.b.len, 65536);
	gs_buf_release(&c.b);
}

/* The describer's own failure (gs_wr_abort): what was flushed stays
 * written, nothing after it is, and the finish reports it. */
static void test_abort(void **state)
{
	counted c = { GS_BUF_INIT, 0, 0 };
	gs_wr *w = NULL;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_wr_new(GS_FORMAT_JSON, count_write, &c, &w, &err), &err);
	gs_wr_seq(w);
	for (int i = 0; i < 3000; i++)
		gs_wr_str(w, "a string long enough to fill chunks");
	gs_wr_abort(w, GS_ENOMEM);
	gs_wr_str(w, "after");
	gs_wr_end(w);
	assert_int_equal(gs_wr_finish(w, &err), GS_ENOMEM);
	assert_gs_error(&err, "error: out of memory");
	assert_int_equal(c.calls, 1);
	assert_int_equal(c.b.len, 65536);
	gs_buf_release(&c.b);
	assert_gs_ok(gs_wr_new(GS_FORMAT_YAML, count_write, &c, &w, &err), &err);
	gs_wr_map(w);
	gs_wr_abort(w, GS_EINVAL);
	gs_wr_abort(w, GS_ENOMEM);
	assert_int_equal(gs_wr_finish(w, &err), GS_EINVAL);
	assert_gs_error(&err, "error: the document could not be described");
	gs_buf_release(&c.b);
}

static void test_misuse(void **state)
{
	gs_buf b = GS_BUF_INIT;
	gs_wr *w = NULL;
	gs_error err;
	(void)state;
	/* A value without its key. */
	assert_gs_ok(gs_wr_new(GS_FORMAT_YAML, gs_wr_to_buf, &b, &w, &err), &err);
	gs_wr_map(w);
	gs_wr_int(w, 1);
	gs_wr_end(w);
	assert_int_equal(gs_wr_finish(w, &err), GS_EINVAL);
	assert_gs_error(&err, "error: a document described out of order");
	/* A key in a sequence. */
	assert_gs_ok(gs_wr_new(GS_FORMAT_JSON, gs_wr_to_buf, &b, &w, &err), &err);
	gs_wr_seq(w);
	gs_wr_key(w, "k");
	assert_int_equal(gs_wr_finish(w, &err), GS_EINVAL);
	/* An unfinished document, and two roots. */
	assert_gs_ok(gs_wr_new(GS_FORMAT_JSON, gs_wr_to_buf, &b, &w, &err), &err);
	gs_wr_map(w);
	assert_int_equal(gs_wr_finish(w, &err), GS_EINVAL);
	assert_gs_error(&err, "error: an unfinished document");
	assert_gs_ok(gs_wr_new_tree(&w, &err), &err);
	gs_wr_null(w);
	gs_wr_null(w);
	assert_int_equal(gs_wr_finish(w, &err), GS_EINVAL);
	/* Deeper than the writer's fixed state. */
	assert_gs_ok(gs_wr_new(GS_FORMAT_JSON, gs_wr_to_buf, &b, &w, &err), &err);
	for (int i = 0; i <= GS_WR_MAX_DEPTH; i++)
		gs_wr_seq(w);
	assert_int_equal(gs_wr_finish(w, &err), GS_ELIMIT);
	gs_buf_release(&b);
}

/* gs_plan_write streams exactly what gs_doc_plan's tree renders. */
static void test_plan_both_ways(void **state)
{
	static const char *const files[] = {
		"../examples/mixed-fleet.yaml", "../examples/multi-tenant-mig.yaml",
		"../examples/multi-gpu.yaml", "../examples/spot.yaml",
	};
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_LEN(files); i++) {
		gs_scenario *s = tu_scenario_file(cat, files[i]);
		gs_plan *p = tu_plan(s);
		gs_doc *doc = NULL;
		gs_error err;
		assert_gs_ok(gs_doc_plan(p, &doc, &err), &err);
		for (int f = 0; f < 2; f++) {
			gs_format fmt = f ? GS_FORMAT_YAML : GS_FORMAT_JSON;
			gs_buf b = GS_BUF_INIT;
			char *want = NULL;
			assert_gs_ok(gs_doc_render(doc, fmt, &want, &err), &err);
			assert_gs_ok(gs_plan_write(p, fmt, gs_wr_to_buf, &b, &err), &err);
			assert_string_equal(gs_buf_str(&b), want);
			assert_true(b.len > 1000);
			gs_buf_release(&b);
			free(want);
		}
		gs_doc_free(doc);
		gs_plan_free(p);
		gs_scenario_free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_escapes),
		cmocka_unit_test(test_json_escapes_at_every_offset),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_yaml_quoting),
		cmocka_unit_test(test_yaml_retyped),
		cmocka_unit_test(test_empty_and_nested),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_large_document),
		cmocka_unit_test(test_output_fails),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_plan_both_ways),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
