/*
 * writer_json.c - the streaming writer's JSON: the bytes json.c renders
 * from a tree (two-space indentation, one member per line, "{}" and "[]"
 * when empty), and strings escaped as cJSON escapes them (the quote, the
 * backslash, \b \f \n \r \t, and \u00XX for other control characters;
 * every other byte as it is), so both paths give the same document.
 */
#include <stdint.h>
#include <string.h>

#include "doc/wr.h"

static void indent(gs_wr *w, size_t depth)
{
	static const char spaces[] = "                                ";
	while (depth) {
		size_t k = depth < 16 ? depth : 16;
		gs_wr_out(w, spaces, 2 * k);
		depth -= k;
	}
}

/* Whether any of the 8 bytes of x is below 32, a quote or a backslash
 * (the bytes string() escapes): the high bit of a byte of
 * (b - k) & ~b is set where byte b is below k, and b ^ c is 0 where b is
 * c. */
static int word_escapes(uint64_t x)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
	uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');
	return ((((x - ones * 32) & ~x) | ((q - ones) & ~q) | ((bs - ones) & ~bs)) & high) != 0;
}

/* The first byte from s on, before end, that needs escaping, or end:
 * eight bytes at a time where none does, as most strings are names and
 * reasons without any (4.5 % of a 100,000-replica plan's instructions
 * went to asking byte by byte). */
static const char *plain_run(const char *s, const char *end)
{
	while (s < end) {
		const char *stop = end - s >= 8 ? s + 8 : end;
		uint64_t x;
		if (stop - s == 8) {
			memcpy(&x, s, 8);
			if (!word_escapes(x)) {
				s = stop;
				continue;
			}
		}
		for (; s < stop; s++) {
			unsigned char c = (unsigned char)*s;
			if (c < 32 || c == '"' || c == '\\')
				return s;
		}
	}
	return end;
}

static void string(gs_wr *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s, *end = s + strlen(s);

	gs_wr_out(w, "\"", 1);
	for (; (s = plain_run(s, end)) < end; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[6] = { '\\', 0, '0', '0', 0, 0 };
		size_t n = 2;
		gs_wr_out(w, run, (size_t)(s - run));
		run = s + 1;
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			esc[1] = 'u';
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			n = 6;
		}
		gs_wr_out(w, esc, n);
	}
	gs_wr_out(w, run, (size_t)(s - run));
	gs_wr_out(w, "\"", 1);
}

/* Before an entry of the container at w->depth: its separator and indent. */
static void entry(gs_wr *w)
{
	gs_wr_out(w, w->lv[w->depth - 1].n ? ",\n" : "\n", w->lv[w->depth - 1].n ? 2 : 1);
	indent(w, w->depth);
}

/* In a sequence a value starts its entry; in a map its key did. */
static void value(gs_wr *w)
{
	if (w->depth && !w->lv[w->depth - 1].map)
		entry(w);
}

static void json_open(gs_wr *w, int map)
{
	value(w);
	gs_wr_out(w, map ? "{" : "[", 1);
}

static void json_close(gs_wr *w, int map, size_t n)
{
	if (n) {
		gs_wr_out(w, "\n", 1);
		indent(w, w->depth);
	}
	gs_wr_out(w, map ? "}" : "]", 1);
}

static void json_key(gs_wr *w, const char *key)
{
	entry(w);
	string(w, key);
	gs_wr_out(w, ": ", 2);
}

static void json_scalar(gs_wr *w, gs_node_kind kind, const char *text)
{
	value(w);
	if (kind == GS_NODE_STRING)
		string(w, text);
	else
		gs_wr_puts(w, text);
}

static void json_finish(gs_wr *w)
{
	gs_wr_out(w, "\n", 1);
}

const gs_wr_ops gs_wr_json_ops = {
	json_open, json_close, json_key, json_scalar, json_finish, NULL,
};
