/*
 * repl_split.c - splitting a session's command line into words, the way a
 * shell would, without any expansion: words are separated by blanks,
 * 'single quotes' keep everything, "double quotes" keep everything but
 * \" and \\, a backslash outside quotes keeps the next character, and a
 * word starting with # begins a comment.
 *
 * It depends on nothing but libc so that a fuzzer can link it alone: one
 * bounded pass over the line, every write checked against the buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "repl.h"

/* Where the words are written: one block holds the argv array and then
 * the characters, so the caller frees everything with one free(). */
typedef struct splitter {
	const char *line;
	size_t len, i;   /* input and position in it */
	char *out;
	size_t cap, o;   /* character space and position in it */
	char *err;
	size_t errsize;
} splitter;

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int fail(splitter *s, const char *msg, size_t col)
{
	if (col)
		snprintf(s->err, s->errsize, "%s (opened at column %zu)", msg, col);
	else
		snprintf(s->err, s->errsize, "%s", msg);
	return -1;
}

static int put(splitter *s, char c)
{
	if (s->o >= s->cap) /* cannot happen: the space is sized for the worst case */
		return fail(s, "line too complex to split", 0);
	s->out[s->o++] = c;
	return 0;
}

/* After an opening quote at s->i - 1: copies up to the closing quote. */
static int quoted(splitter *s, char q)
{
	size_t open = s->i; /* 1-based column of the quote */
	while (s->i < s->len && s->line[s->i] != q) {
		char c = s->line[s->i++];
		if (q == '"' && c == '\\' && s->i < s->len &&
		    (s->line[s->i] == '"' || s->line[s->i] == '\\'))
			c = s->line[s->i++];
		if (put(s, c) < 0)
			return -1;
	}
	if (s->i >= s->len)
		return fail(s, q == '"' ? "unterminated double quote" : "unterminated single quote",
		            open);
	s->i++; /* the closing quote */
	return 0;
}

/* Copies one word, from s->i to the next unquoted blank, then a NUL. */
static int word(splitter *s)
{
	while (s->i < s->len && !is_blank(s->line[s->i])) {
		char c = s->line[s->i++];
		int rc = 0;
		if (c == '\'' || c == '"')
			rc = quoted(s, c);
		else if (c != '\\')
			rc = put(s, c);
		else if (s->i < s->len)
			rc = put(s, s->line[s->i++]);
		else
			rc = fail(s, "the line ends with a backslash", 0);
		if (rc < 0)
			return -1;
	}
	return put(s, '\0');
}

static int split(splitter *s, char **argv, size_t max, int *argc)
{
	size_t n = 0;
	for (;;) {
		while (s->i < s->len && is_blank(s->line[s->i]))
			s->i++;
		if (s->i >= s->len || s->line[s->i] == '#')
			break;
		if (n >= max)
			return fail(s, "line too complex to split", 0);
		argv[n++] = s->out + s->o;
		if (word(s) < 0)
			return -1;
	}
	argv[n] = NULL;
	*argc = (int)n;
	return 0;
}

int repl_split(const char *line, char ***argv, int *argc, char *err, size_t n)
{
	splitter s = { line, 0, 0, NULL, 0, 0, err, n };
	size_t max;
	char **v;

	*argv = NULL;
	*argc = 0;
	s.len = strnlen(line, REPL_LINE_MAX + 1);
	if (s.len > REPL_LINE_MAX)
		return fail(&s, "the line is longer than 65536 bytes", 0);
	/* Every word takes at least one character and a blank after it, or
	 * two quotes; its text is never longer than its input, plus a NUL. */
	max = s.len / 2 + 1;
	s.cap = s.len + max + 1;
	if (!(v = malloc((max + 1) * sizeof *v + s.cap)))
		return fail(&s, "out of memory", 0);
	s.out = (char *)(v + max + 1);
	if (split(&s, v, max, argc) < 0) {
		free(v);
		*argc = 0;
		return -1;
	}
	*argv = v;
	return 0;
}
