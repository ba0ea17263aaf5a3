/*
 * kube_scan.c - the items of kubectl's JSON List, found chunk by chunk
 * (kube_scan.h).
 *
 * Most of a List is the inside of its items, most of that strings and
 * indentation: the loops over them stop only at the bytes that matter
 * (tables below), and columns are counted only when a position is needed,
 * from the last newline. Before the items begin, anything unexpected
 * sends the file to a reader of the whole (WHOLE), which words the error
 * or reads what is not a List (`kubectl get node NAME -o json`, YAML);
 * after, the scanner reports it itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/kube_scan.h"

enum {
	S_START,      /* before the List's '{' */
	S_KEY_FIRST,  /* after '{': a key or '}' */
	S_KEY_NEXT,   /* after ',': a key */
	S_KEY,        /* inside a key */
	S_COLON,      /* after a key */
	S_VALUE,      /* before a member's value */
	S_SKIP,       /* inside a member's value, not the items */
	S_MEMBER_END, /* after a member: ',' or '}' */
	S_ITEM_FIRST, /* after '[': an item or ']' */
	S_ITEM_NEXT,  /* after ',': an item */
	S_ITEM,       /* inside an item */
	S_ITEM_END,   /* after an item: ',' or ']' */
	S_END         /* after the List's '}' */
};

/* The bytes each loop stops at. */
static const unsigned char in_string[256] = { ['"'] = 1, ['\\'] = 1, ['\n'] = 1, [0] = 1 };
static const unsigned char in_nest[256] = {
	['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1, ['\n'] = 1, [0] = 1,
};
static const unsigned char in_scalar[256] = {
	[' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, [','] = 1, [']'] = 1, ['}'] = 1, [0] = 1,
};

/* One call's bytes and where the line of b[i] begins in them, if it does. */
typedef struct cur {
	const char *b;
	size_t n, i, bol;
	int has_bol;
} cur;

void gs_kube_scan_init(gs_kube_scan *s, const char *file)
{
	memset(s, 0, sizeof *s);
	s->file = file;
	s->line = s->col = 1;
}

void gs_kube_scan_free(gs_kube_scan *s)
{
	free(s->item);
	s->item = NULL;
	s->item_len = s->item_cap = 0;
}

static void newline(gs_kube_scan *s, cur *c, size_t at)
{
	s->line++;
	c->bol = at + 1;
	c->has_bol = 1;
}

/* The column of b[i]: characters since the line began (UTF-8 continuation
 * bytes are not characters). */
static unsigned long col_at(const gs_kube_scan *s, const cur *c, size_t i)
{
	unsigned long col = c->has_bol ? 1 : s->col;
	for (size_t k = c->has_bol ? c->bol : 0; k < i; k++)
		col += ((unsigned char)c->b[k] & 0xC0) != 0x80;
	return col;
}

static int fail_at(gs_kube_scan *s, const cur *c, size_t i, int code, const char *what,
                   gs_error *err)
{
	return gs_fail_at(err, code, s->file, s->line, col_at(s, c, i), "%s", what);
}

/* A byte that does not belong: before the items, the whole file goes to a
 * reader that says what is wrong; after, the scanner says it. */
static int unexpected(gs_kube_scan *s, const cur *c, const char *want, gs_error *err)
{
	unsigned char ch = (unsigned char)c->b[c->i];
	char msg[160];
	if (!s->items_open)
		return GS_KUBE_SCAN_WHOLE;
	if (ch == 0)
		return fail_at(s, c, c->i, GS_ESYNTAX, "NUL byte in the file", err);
	if (ch > ' ' && ch < 0x7f)
		snprintf(msg, sizeof msg, "invalid JSON: expected %s, not '%c'", want, ch);
	else
		snprintf(msg, sizeof msg, "invalid JSON: expected %s, not byte 0x%02x", want, ch);
	return fail_at(s, c, c->i, GS_ESYNTAX, msg, err);
}

/* The first byte of a value (consumed). */
static int value_start(gs_kube_scan *s, const cur *c, const char *want, gs_error *err)
{
	char ch = c->b[c->i];
	s->in_str = s->esc = s->scalar = 0;
	s->depth = 0;
	if (ch == '"')
		s->in_str = 1;
	else if (ch == '{' || ch == '[')
		s->stack[s->depth++] = ch;
	else if (!in_scalar[(unsigned char)ch] && ch != ':')
		s->scalar = 1;
	else
		return unexpected(s, c, want, err);
	return 0;
}

static int bad_close(gs_kube_scan *s, const cur *c, size_t i, char open, gs_error *err)
{
	char msg[96];
	if (!s->items_open)
		return GS_KUBE_SCAN_WHOLE;
	snprintf(msg, sizeof msg, "invalid JSON: '%c' closes a '%c'", c->b[i], open);
	return fail_at(s, c, i, GS_ESYNTAX, msg, err);
}

/* Advances the value being read as far as b allows. *done: it ended, just
 * after its last byte (a scalar: at the byte after it, not consumed). */
static int run_value(gs_kube_scan *s, cur *c, int *done, gs_error *err)
{
	const char *b = c->b;
	size_t i = c->i, n = c->n;
	int rc = 0;

	while (i < n && !*done && rc == 0) {
		unsigned char ch;
		if (s->esc) {
			s->esc = 0;
			if (b[i] == '\n')
				newline(s, c, i);
			i++;
			continue;
		}
		if (s->in_str) {
			while (i < n && !in_string[(unsigned char)b[i]])
				i++;
			if (i == n)
				break;
			if ((ch = (unsigned char)b[i]) == '"') {
				s->in_str = 0;
				*done = s->depth == 0;
			} else if (ch == '\\') {
				s->esc = 1;
			} else if (ch == '\n') {
				newline(s, c, i);
			} else {
				break; /* NUL */
			}
			i++;
			continue;
		}
		if (s->scalar) {
			while (i < n && !in_scalar[(unsigned char)b[i]])
				i++;
			*done = i < n;
			break;
		}
		while (i < n && !in_nest[(unsigned char)b[i]])
			i++;
		if (i == n)
			break;
		ch = (unsigned char)b[i];
		if (ch == 0)
			break;
		if (ch == '\n') {
			newline(s, c, i);
		} else if (ch == '"') {
			s->in_str = 1;
		} else if (ch == '{' || ch == '[') {
			if (s->depth < GS_KUBE_SCAN_DEPTH)
				s->stack[s->depth++] = (char)ch;
			else if (!s->items_open)
				rc = GS_KUBE_SCAN_WHOLE;
			else
				rc = fail_at(s, c, i, GS_ELIMIT, "nesting is deeper than 64 levels",
				             err);
		} else if (s->stack[s->depth - 1] != (ch == '}' ? '{' : '[')) {
			rc = bad_close(s, c, i, s->stack[s->depth - 1], err);
		} else {
			*done = --s->depth == 0;
		}
		if (rc == 0)
			i++;
	}
	c->i = i;
	if (rc == 0 && !*done && i < n) { /* a NUL byte */
		rc = s->items_open ? fail_at(s, c, i, GS_ESYNTAX, "NUL byte in the file", err)
		                   : GS_KUBE_SCAN_WHOLE;
	}
	return rc;
}

/* The item's bytes b[from..to), within its limit. */
static int keep(gs_kube_scan *s, const cur *c, size_t from, size_t to, gs_error *err)
{
	size_t add = to - from;
	if (s->item_len + add > GS_KUBE_ITEM_MAX)
		return gs_fail_at(err, GS_ELIMIT, s->file, s->item_line, s->item_col,
		                  "items[%zu] is larger than the %u MiB limit of one item",
		                  s->n_items, GS_KUBE_ITEM_MAX >> 20);
	if (s->item_len + add > s->item_cap) {
		size_t cap = s->item_cap ? s->item_cap : 65536;
		char *p;
		while (cap < s->item_len + add)
			cap *= 2;
		if (!(p = realloc(s->item, cap)))
			return gs_fail_nomem(err);
		s->item = p;
		s->item_cap = cap;
	}
	memcpy(s->item + s->item_len, c->b + from, add);
	s->item_len += add;
	return 0;
}

/* A member's key, byte by byte: only "items" matters. */
static void key_byte(gs_kube_scan *s, cur *c)
{
	char ch = c->b[c->i];
	if (s->key_esc) {
		s->key_esc = 0;
		s->key_len = sizeof s->key; /* an escape: not "items" as kubectl writes it */
	} else if (ch == '\\') {
		s->key_esc = 1;
	} else if (ch == '"') {
		s->key_items = s->key_len == 5 && memcmp(s->key, "items", 5) == 0;
		s->state = S_COLON;
	} else if (s->key_len < sizeof s->key) {
		s->key[s->key_len++] = ch;
	}
	if (ch == '\n')
		newline(s, c, c->i);
}

static int item_begins(gs_kube_scan *s, cur *c, gs_error *err)
{
	char want[48];
	int rc;
	snprintf(want, sizeof want, "items[%zu]", s->n_items);
	s->item_line = s->line;
	s->item_col = col_at(s, c, c->i);
	s->item_len = 0;
	if ((rc = value_start(s, c, want, err)) != 0)
		return rc;
	s->state = S_ITEM;
	return 0;
}

/* One byte between values: structure and white space. */
static int step(gs_kube_scan *s, cur *c, gs_error *err)
{
	char ch = c->b[c->i], want[64];
	int rc = 0;

	if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
		if (ch == '\n')
			newline(s, c, c->i);
		return 0;
	}
	switch (s->state) {
	case S_START:
		return ch == '{' ? (s->state = S_KEY_FIRST, 0) : GS_KUBE_SCAN_WHOLE;
	case S_KEY_FIRST:
	case S_KEY_NEXT:
		if (ch == '"') {
			s->state = S_KEY;
			s->key_len = 0;
			s->key_esc = 0;
			s->key_line = s->line;
			s->key_col = col_at(s, c, c->i);
		} else if (ch == '}' && s->state == S_KEY_FIRST) {
			s->state = S_END;
		} else {
			return unexpected(s, c, "a quoted key", err);
		}
		return 0;
	case S_COLON:
		return ch == ':' ? (s->state = S_VALUE, 0) : unexpected(s, c, "':'", err);
	case S_VALUE:
		if (!s->key_items) {
			rc = value_start(s, c, "a value", err);
			s->state = S_SKIP;
		} else if (s->items_open) {
			rc = gs_fail_at(err, GS_ESYNTAX, s->file, s->key_line, s->key_col,
			                "the List has 'items' twice");
		} else if (ch != '[') {
			rc = GS_KUBE_SCAN_WHOLE; /* the reader says what items should be */
		} else {
			s->items_open = 1;
			s->state = S_ITEM_FIRST;
		}
		return rc;
	case S_MEMBER_END:
		if (ch == ',' || ch == '}')
			s->state = ch == ',' ? S_KEY_NEXT : S_END;
		else
			rc = unexpected(s, c, "',' or '}'", err);
		return rc;
	case S_ITEM_FIRST:
		if (ch == ']') {
			s->state = S_MEMBER_END;
			return 0;
		}
		return item_begins(s, c, err);
	case S_ITEM_NEXT:
		return item_begins(s, c, err);
	case S_ITEM_END:
		if (ch == ',' || ch == ']') {
			s->state = ch == ',' ? S_ITEM_NEXT : S_MEMBER_END;
			return 0;
		}
		snprintf(want, sizeof want, "',' or ']' after items[%zu]", s->n_items - 1);
		return unexpected(s, c, want, err);
	default: /* S_END */
		return unexpected(s, c, "the end of the file after the List", err);
	}
}

int gs_kube_scan_feed(gs_kube_scan *s, const char *b, size_t n, size_t *used, gs_error *err)
{
	cur c = { b, n, 0, 0, 0 };
	size_t from = 0; /* where this call's bytes of the item begin */
	int rc = GS_KUBE_SCAN_MORE;

	while (c.i < n && rc == GS_KUBE_SCAN_MORE) {
		if (s->state == S_ITEM || s->state == S_SKIP) {
			int done = 0, item = s->state == S_ITEM;
			if ((rc = run_value(s, &c, &done, err)) != 0 || !done)
				break;
			if (!item) {
				s->state = S_MEMBER_END;
				continue;
			}
			if ((rc = keep(s, &c, from, c.i, err)) < 0)
				break;
			s->n_items++;
			s->state = S_ITEM_END;
			rc = GS_KUBE_SCAN_ITEM;
			break;
		}
		if (s->state == S_KEY) {
			key_byte(s, &c);
			c.i++;
			continue;
		}
		if ((rc = step(s, &c, err)) != 0)
			break;
		if (s->state == S_ITEM)
			from = c.i;
		c.i++;
	}
	if (rc == GS_KUBE_SCAN_MORE && s->state == S_ITEM)
		rc = keep(s, &c, from, c.i, err);
	s->col = col_at(s, &c, c.i);
	*used = c.i;
	return rc;
}

int gs_kube_scan_end(gs_kube_scan *s, gs_error *err)
{
	const char *where;
	if (s->state == S_END || !s->items_open)
		return s->items_open ? 0 : GS_KUBE_SCAN_WHOLE;
	switch (s->state) {
	case S_ITEM:
		return gs_fail_at(err, GS_ESYNTAX, s->file, s->line, s->col,
		                  "the file ends inside items[%zu] (truncated?)", s->n_items);
	case S_ITEM_FIRST:
		where = "the file ends before items[0] (truncated?)";
		break;
	case S_ITEM_NEXT:
	case S_ITEM_END:
		return gs_fail_at(err, GS_ESYNTAX, s->file, s->line, s->col,
		                  "the file ends after items[%zu], before the end of 'items' "
		                  "(truncated?)",
		                  s->n_items - 1);
	default:
		return gs_fail_at(err, GS_ESYNTAX, s->file, s->line, s->col,
		                  "the file ends before the List's closing brace, after its %zu "
		                  "item%s (truncated?)",
		                  s->n_items, s->n_items == 1 ? "" : "s");
	}
	return gs_fail_at(err, GS_ESYNTAX, s->file, s->line, s->col, "%s", where);
}
