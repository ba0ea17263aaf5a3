/*
 * prom.c - the Prometheus text exposition format (0.0.4) and query
 * results. The text reader is a state machine over one line at a time:
 * no recursion, every index checked against the line's length, so hostile
 * input can cost at most one pass. It will be fuzzed; keep it that way.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/prom.h"

enum { T_NONE, T_COUNTER, T_GAUGE, T_HISTOGRAM, T_SUMMARY, T_UNTYPED };
static const char *const type_names[] = { "", "counter", "gauge", "histogram",
	                                      "summary", "untyped" };

/* What the format's rules about HELP and TYPE lines need to remember. */
typedef struct family {
	char *name;
	int type;
	unsigned long type_line, help_line, first_sample;
	uint64_t help_hash;
} family;

typedef struct parser {
	const char *file;
	gs_error *err;
	gs_prom_fn fn;
	gs_prom_bad_fn bad;   /* NULL: a bad line fails the file */
	void *ud;
	int in_fn;            /* the failure is the callback's, not the line's */
	unsigned long line;
	char *scratch;        /* unescaped names and values of one line */
	size_t cap, used;
	gs_prom_label labels[GS_PROM_MAX_LABELS];
	size_t n_labels;
	family *fam;          /* open addressing, power-of-two size */
	size_t n_fam, cap_fam;
} parser;

static int fail(parser *p, size_t col0, const char *fmt, ...) GS_PRINTF(3, 4);
static int fail(parser *p, size_t col0, const char *fmt, ...)
{
	char msg[GS_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return gs_fail_at(p->err, GS_ESYNTAX, p->file, p->line, col0 + 1, "%s", msg);
}

/* A byte as a message shows it: 'x', or \xNN when it is not printable. */
static const char *show(int c, char buf[8])
{
	if (c > 32 && c < 127)
		snprintf(buf, 8, "%c", c);
	else
		snprintf(buf, 8, "\\x%02X", (unsigned)c & 0xffu);
	return buf;
}

static int is_blank(int c) { return c == ' ' || c == '\t'; }
static int is_alpha_(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int name_start(int c) { return is_alpha_(c) || c == ':'; }
static int name_char(int c) { return name_start(c) || is_digit(c); }
static int label_char(int c) { return is_alpha_(c) || is_digit(c); }

static size_t skip_blanks(const char *s, size_t n, size_t i)
{
	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	return i;
}

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = UINT64_C(1469598103934665603);
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
	return h;
}

/* ---- metric families -------------------------------------------------- */

static int fam_grow(parser *p)
{
	size_t cap = p->cap_fam ? p->cap_fam * 2 : 64;
	family *t = calloc(cap, sizeof *t);
	if (!t)
		return gs_fail_nomem(p->err);
	for (size_t i = 0; i < p->cap_fam; i++) {
		size_t h;
		if (!p->fam[i].name)
			continue;
		h = hash(p->fam[i].name, strlen(p->fam[i].name)) & (cap - 1);
		while (t[h].name)
			h = (h + 1) & (cap - 1);
		t[h] = p->fam[i];
	}
	free(p->fam);
	p->fam = t;
	p->cap_fam = cap;
	return 0;
}

/* The family named s[0..n), created when absent; NULL when out of memory. */
static family *fam_get(parser *p, const char *s, size_t n)
{
	size_t h;
	if ((p->n_fam + 1) * 2 > p->cap_fam && fam_grow(p) < 0)
		return NULL;
	for (h = hash(s, n) & (p->cap_fam - 1); p->fam[h].name; h = (h + 1) & (p->cap_fam - 1))
		if (strncmp(p->fam[h].name, s, n) == 0 && p->fam[h].name[n] == '\0')
			return &p->fam[h];
	if (!(p->fam[h].name = gs_strndup(s, n))) {
		gs_fail_nomem(p->err);
		return NULL;
	}
	p->n_fam++;
	return &p->fam[h];
}

static void fam_free(parser *p)
{
	for (size_t i = 0; i < p->cap_fam; i++)
		free(p->fam[i].name);
	free(p->fam);
}

/* ---- values ---------------------------------------------------------------- */

static int prefix_ci(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);
	if (n != w)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((s[i] | 0x20) != word[i])
			return 0;
	return 1;
}

/* Checks the shape of a decimal: digits, one optional '.', at least one
 * digit, then an optional exponent with at least one digit. */
static int decimal_shape(const char *s, size_t n)
{
	size_t i = 0, digits = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < n && is_digit((unsigned char)s[i]); i++)
		digits++;
	if (i < n && s[i] == '.')
		for (i++; i < n && is_digit((unsigned char)s[i]); i++)
			digits++;
	if (!digits)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = 0;
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (; i < n && is_digit((unsigned char)s[i]); i++)
			e++;
		if (!e)
			return 0;
	}
	return i == n;
}

int gs_prom_parse_value(const char *text, size_t n, double *out)
{
	char buf[128];
	size_t k = n && (text[0] == '+' || text[0] == '-');
	double v;

	if (prefix_ci(text, n, "nan")) {
		*out = NAN;
		return 0;
	}
	if (prefix_ci(text + k, n - k, "inf") || prefix_ci(text + k, n - k, "infinity")) {
		*out = text[0] == '-' ? -INFINITY : INFINITY;
		return 0;
	}
	/* No real number needs more digits than this to round correctly. */
	if (n >= sizeof buf || !decimal_shape(text, n))
		return -1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	errno = 0;
	v = strtod(buf, NULL);
	if (isinf(v))
		return -1;
	*out = v;
	return 0;
}

static int parse_time(const char *s, size_t n, int64_t *out)
{
	size_t i = n && (s[0] == '+' || s[0] == '-');
	int neg = n && s[0] == '-';
	int64_t v = 0;
	if (i == n)
		return -1;
	for (; i < n; i++) {
		int d = (unsigned char)s[i] - '0';
		if (d < 0 || d > 9 || v > (INT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = neg ? -v : v;
	return 0;
}

/* ---- comments, HELP and TYPE ---------------------------------------------- */

/* Checks the escapes of a HELP docstring (only \\ and \n are defined). */
static int check_help(parser *p, const char *s, size_t n, size_t i, uint64_t *h)
{
	*h = hash(s + i, n - i);
	for (; i < n; i++) {
		char b[8];
		if (s[i] != '\\')
			continue;
		if (i + 1 >= n)
			return fail(p, i, "'\\' at the end of a HELP line");
		if (s[i + 1] != '\\' && s[i + 1] != 'n')
			return fail(p, i, "invalid escape '\\%s' in HELP text",
			            show((unsigned char)s[i + 1], b));
		i++;
	}
	return 0;
}

static int apply_help(parser *p, family *f, const char *s, size_t n, size_t i)
{
	uint64_t h;
	int rc = check_help(p, s, n, i, &h);
	if (rc < 0)
		return rc;
	if (f->help_line && f->help_hash != h)
		return fail(p, 0, "HELP text of '%s' differs from the one on line %lu",
		            f->name, f->help_line);
	if (!f->help_line) {
		f->help_line = p->line;
		f->help_hash = h;
	}
	return 0;
}

static int apply_type(parser *p, family *f, const char *s, size_t n, size_t i)
{
	size_t k = i, t;
	char b[8];
	while (k < n && !is_blank((unsigned char)s[k]))
		k++;
	if (k == i)
		return fail(p, i, "TYPE line for '%s' without a type", f->name);
	for (t = T_COUNTER; t <= T_UNTYPED; t++)
		if (k - i == strlen(type_names[t]) && memcmp(s + i, type_names[t], k - i) == 0)
			break;
	if (t > T_UNTYPED)
		return fail(p, i, "unknown metric type '%.*s' (expected counter, "
		            "gauge, histogram, summary or untyped)",
		            (int)(k - i > 40 ? 40 : k - i), s + i);
	if ((k = skip_blanks(s, n, k)) < n)
		return fail(p, k, "unexpected '%s' after the metric type",
		            show((unsigned char)s[k], b));
	if (f->type && f->type != (int)t)
		return fail(p, i, "TYPE of '%s' changes from %s (line %lu) to %s", f->name,
		            type_names[f->type], f->type_line, type_names[t]);
	if (!f->type && f->first_sample)
		return fail(p, 0, "TYPE line for '%s' comes after its samples (line %lu)",
		            f->name, f->first_sample);
	if (!f->type) {
		f->type = (int)t;
		f->type_line = p->line;
	}
	return 0;
}

/* A line that starts with '#' at offset i. Other comments are ignored. */
static int parse_comment(parser *p, const char *s, size_t n, size_t i)
{
	size_t k, name;
	int help;
	char b[8];
	family *f;

	i = skip_blanks(s, n, i + 1);
	for (k = i; k < n && !is_blank((unsigned char)s[k]); k++)
		;
	if (k - i != 4 || (memcmp(s + i, "HELP", 4) != 0 && memcmp(s + i, "TYPE", 4) != 0))
		return 0;
	help = s[i] == 'H';
	if ((name = skip_blanks(s, n, k)) == n)
		return fail(p, n, "%s line without a metric name", help ? "HELP" : "TYPE");
	if (name == k || !name_start((unsigned char)s[name]))
		return fail(p, name, "expected a metric name, not '%s'",
		            show((unsigned char)s[name], b));
	for (k = name; k < n && name_char((unsigned char)s[k]); k++)
		;
	if (k < n && !is_blank((unsigned char)s[k]))
		return fail(p, k, "invalid character '%s' in metric name",
		            show((unsigned char)s[k], b));
	if (!(f = fam_get(p, s + name, k - name)))
		return GS_ENOMEM;
	i = skip_blanks(s, n, k);
	return help ? apply_help(p, f, s, n, i) : apply_type(p, f, s, n, i);
}

/* ---- samples ------------------------------------------------------------------ */

enum st {
	S_NAME, S_AFTER_NAME, S_LABELS, S_LNAME, S_LEQ, S_LQUOTE, S_LVALUE, S_LESC,
	S_LNEXT, S_AFTER_LABELS, S_VALUE, S_AFTER_VALUE, S_TIME, S_TRAIL
};

/* Copies s[0..n) into the scratch buffer, NUL-terminated. */
static char *keep(parser *p, const char *s, size_t n)
{
	char *d;
	if (p->used + n + 1 > p->cap)
		return NULL;
	d = p->scratch + p->used;
	memcpy(d, s, n);
	d[n] = '\0';
	p->used += n + 1;
	return d;
}

static int put_char(parser *p, size_t i, char c)
{
	if (p->used + 2 > p->cap)
		return fail(p, i, "line too long");
	p->scratch[p->used++] = c;
	return 0;
}

/* A label name ends at s[i]: checks it and starts its pair. */
static int label_name(parser *p, const char *s, size_t tok, size_t i)
{
	gs_prom_label *l;
	if (p->n_labels >= GS_PROM_MAX_LABELS)
		return fail(p, tok, "more than %d labels", GS_PROM_MAX_LABELS);
	if (i - tok == 8 && memcmp(s + tok, "__name__", 8) == 0)
		return fail(p, tok, "label name '__name__' is reserved");
	for (size_t j = 0; j < p->n_labels; j++)
		if (strncmp(p->labels[j].name, s + tok, i - tok) == 0 &&
		    p->labels[j].name[i - tok] == '\0')
			return fail(p, tok, "duplicate label '%.*s'", (int)(i - tok), s + tok);
	l = &p->labels[p->n_labels++];
	if (!(l->name = keep(p, s + tok, i - tok)))
		return fail(p, tok, "line too long");
	l->value = NULL;
	return 0;
}

static const char *last_label(const parser *p)
{
	return p->n_labels ? p->labels[p->n_labels - 1].name : "";
}

/* One step inside a label set; returns the next state or a negative code. */
static int step_labels(parser *p, enum st st, const char *s, size_t i, int c, size_t *tok)
{
	char b[8];
	int rc;
	if (c < 0)
		return st == S_LVALUE || st == S_LESC
		           ? fail(p, i, "unterminated value of label '%s'", last_label(p))
		           : fail(p, i, "unterminated label set (expected '}')");
	switch (st) {
	case S_LABELS:
		if (is_blank(c))
			return st;
		if (c == '}')
			return S_AFTER_LABELS;
		if (!is_alpha_(c))
			return fail(p, i, "expected a label name or '}', not '%s'", show(c, b));
		*tok = i;
		return S_LNAME;
	case S_LNAME:
		if (label_char(c))
			return st;
		if (c != '=' && !is_blank(c))
			return fail(p, i, "invalid character '%s' in label name", show(c, b));
		if ((rc = label_name(p, s, *tok, i)) < 0)
			return rc;
		return c == '=' ? S_LQUOTE : S_LEQ;
	case S_LEQ:
		if (is_blank(c))
			return st;
		if (c != '=')
			return fail(p, i, "expected '=' after label name '%s'", last_label(p));
		return S_LQUOTE;
	case S_LQUOTE:
		if (is_blank(c))
			return st;
		if (c != '"')
			return fail(p, i, "expected '\"' to start the value of label '%s'",
			            last_label(p));
		p->labels[p->n_labels - 1].value = p->scratch + p->used;
		return S_LVALUE;
	case S_LVALUE:
		if (c == '\\')
			return S_LESC;
		if (c == '"')
			return (rc = put_char(p, i, '\0')) < 0 ? rc : S_LNEXT;
		return (rc = put_char(p, i, (char)c)) < 0 ? rc : (int)st;
	case S_LESC:
		if (c != '\\' && c != '"' && c != 'n')
			return fail(p, i - 1, "invalid escape '\\%s' in the value of label '%s'",
			            show(c, b), last_label(p));
		return (rc = put_char(p, i, c == 'n' ? '\n' : (char)c)) < 0 ? rc : S_LVALUE;
	default: /* S_LNEXT */
		if (is_blank(c))
			return st;
		if (c == ',')
			return S_LABELS;
		if (c == '}')
			return S_AFTER_LABELS;
		return fail(p, i, "expected ',' or '}' after the value of label '%s'",
		            last_label(p));
	}
}

/* The value and the optional timestamp, after the name and labels. */
static int step_value(parser *p, enum st st, const char *s, size_t i, int c, size_t *tok,
                      gs_prom_sample *out)
{
	int end = c < 0 || is_blank(c);
	char b[8];
	switch (st) {
	case S_AFTER_NAME:
	case S_AFTER_LABELS:
	case S_AFTER_VALUE:
		if (c < 0 && st != S_AFTER_VALUE)
			return fail(p, i, "expected a value after the %s",
			            st == S_AFTER_NAME ? "metric name" : "labels");
		if (end)
			return st;
		*tok = i;
		return st == S_AFTER_VALUE ? S_TIME : S_VALUE;
	case S_VALUE:
		if (!end)
			return st;
		if (gs_prom_parse_value(s + *tok, i - *tok, &out->value) < 0)
			return fail(p, *tok, "invalid value '%.*s'",
			            (int)(i - *tok > 40 ? 40 : i - *tok), s + *tok);
		return S_AFTER_VALUE;
	case S_TIME:
		if (!end)
			return st;
		if (parse_time(s + *tok, i - *tok, &out->time_ms) < 0)
			return fail(p, *tok, "invalid timestamp '%.*s'",
			            (int)(i - *tok > 40 ? 40 : i - *tok), s + *tok);
		out->has_time = 1;
		return S_TRAIL;
	default: /* S_TRAIL */
		if (!end)
			return fail(p, i, "unexpected '%s' after the timestamp", show(c, b));
		return st;
	}
}

static int parse_sample(parser *p, const char *s, size_t n, size_t start,
                        gs_prom_sample *out)
{
	size_t tok = start;
	enum st st = S_NAME;
	char b[8];

	p->used = 0;
	p->n_labels = 0;
	for (size_t i = start; i <= n; i++) {
		int c = i < n ? (unsigned char)s[i] : -1, next;
		if (st == S_NAME) {
			if (c >= 0 && name_char(c))
				continue;
			if (c >= 0 && c != '{' && !is_blank(c))
				return fail(p, i, "invalid character '%s' in metric name",
				            show(c, b));
			if (!(out->name = keep(p, s + tok, i - tok)))
				return fail(p, tok, "line too long");
			next = c == '{' ? S_LABELS : (int)S_AFTER_NAME;
			if (c < 0)
				next = step_value(p, S_AFTER_NAME, s, i, c, &tok, out);
		} else if (st == S_AFTER_NAME && c == '{') {
			next = S_LABELS; /* blanks may separate the name from its labels */
		} else if (st >= S_LABELS && st <= S_LNEXT) {
			next = step_labels(p, st, s, i, c, &tok);
		} else {
			next = step_value(p, st, s, i, c, &tok, out);
		}
		if (next < 0)
			return next;
		st = (enum st)next;
	}
	out->labels = p->labels;
	out->n_labels = p->n_labels;
	return 0;
}

/* ---- the text format ------------------------------------------------------------ */

static int parse_line(parser *p, const char *s, size_t n)
{
	size_t i = skip_blanks(s, n, 0);
	gs_prom_sample smp;
	family *f;
	char b[8];
	int rc;

	if (i == n)
		return 0;
	if (s[i] == '#')
		return parse_comment(p, s, n, i);
	if (!name_start((unsigned char)s[i]))
		return fail(p, i, "expected a metric name, not '%s'", show((unsigned char)s[i], b));
	memset(&smp, 0, sizeof smp);
	smp.line = p->line;
	if ((rc = parse_sample(p, s, n, i, &smp)) < 0)
		return rc;
	if (!(f = fam_get(p, smp.name, strlen(smp.name))))
		return GS_ENOMEM;
	if (!f->first_sample)
		f->first_sample = p->line;
	p->in_fn = 1;
	rc = p->fn(&smp, p->ud);
	p->in_fn = 0;
	return rc;
}

/* A line's failure: the callback's and out of memory stop; a bad line is
 * passed to p->bad, which skips it (0) or stops (negative). */
static int line_failed(parser *p, int rc)
{
	if (rc == 0 || p->in_fn || rc == GS_ENOMEM || !p->bad)
		return rc;
	return p->bad(p->err, p->ud) < 0 ? rc : 0;
}

static int parse_text(const char *name, const char *buf, size_t len, gs_prom_fn fn,
                      gs_prom_bad_fn bad, void *ud, gs_error *err)
{
	parser p;
	size_t pos = 0;
	int rc = 0;

	memset(&p, 0, sizeof p);
	p.file = name;
	p.err = err;
	p.fn = fn;
	p.bad = bad;
	p.ud = ud;
	/* Names and values are never longer than the line they came from. */
	p.cap = GS_PROM_MAX_LINE + GS_PROM_MAX_LABELS + 2;
	if (!(p.scratch = malloc(p.cap)))
		return gs_fail_nomem(err);
	if (len > GS_READ_MAX_BYTES)
		rc = gs_fail_at(err, GS_ELIMIT, name, 0, 0, "file is larger than the %u MiB limit",
		                GS_READ_MAX_BYTES >> 20);
	while (rc == 0 && pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len, n = end - pos;
		const char *nul;
		p.line++;
		if (n > 0 && buf[end - 1] == '\r')
			n--;
		if (n > GS_PROM_MAX_LINE)
			rc = gs_fail_at(err, GS_ELIMIT, name, p.line, GS_PROM_MAX_LINE + 1,
			                "line is longer than %d bytes", GS_PROM_MAX_LINE);
		else if ((nul = memchr(buf + pos, '\0', n)))
			rc = fail(&p, (size_t)(nul - (buf + pos)), "NUL byte in the line");
		else
			rc = parse_line(&p, buf + pos, n);
		rc = line_failed(&p, rc);
		pos = end + 1;
	}
	free(p.scratch);
	fam_free(&p);
	return rc;
}

int gs_prom_parse_text(const char *name, const char *buf, size_t len,
                       gs_prom_fn fn, void *ud, gs_error *err)
{
	return parse_text(name, buf, len, fn, NULL, ud, err);
}

const char *gs_prom_label_get(const gs_prom_sample *s, const char *name)
{
	for (size_t i = 0; i < s->n_labels; i++)
		if (strcmp(s->labels[i].name, name) == 0)
			return s->labels[i].value;
	return NULL;
}

/* ---- query results (JSON) ----------------------------------------------------------- */

static int query_fail(const char *name, gs_error *err, const gs_node *at, const char *what)
{
	return gs_fail_node(err, GS_ESCHEMA, name, at, "not a Prometheus query result: %s", what);
}

/* What walking a query result calls. */
typedef struct query_cb {
	gs_prom_fn fn;
	gs_prom_bad_fn bad;
	void *ud;
} query_cb;

/* One [timestamp, "value"] pair of a series; a value that does not parse
 * goes to cb->bad when there is one. */
static int query_point(const char *name, const gs_node *pt, gs_prom_sample *s,
                       const query_cb *cb, gs_error *err)
{
	const gs_node *ts, *v;
	double t;
	char *end;
	if (!pt || pt->kind != GS_NODE_SEQ || pt->n != 2)
		return query_fail(name, err, pt, "a sample must be [timestamp, \"value\"]");
	ts = pt->items[0];
	v = pt->items[1];
	if ((ts->kind != GS_NODE_NUMBER && (ts->kind != GS_NODE_STRING || ts->quoted)) ||
	    v->kind != GS_NODE_STRING)
		return query_fail(name, err, pt, "a sample must be [timestamp, \"value\"]");
	t = strtod(ts->text, &end);
	if (!*ts->text || *end || !(t > -9.2e15 && t < 9.2e15))
		return query_fail(name, err, ts, "invalid timestamp");
	if (gs_prom_parse_value(v->text, strlen(v->text), &s->value) < 0) {
		int rc = gs_fail_node(err, GS_ESYNTAX, name, v,
		                      "invalid sample value '%.40s'", v->text);
		return cb->bad && cb->bad(err, cb->ud) == 0 ? 0 : rc;
	}
	s->has_time = 1;
	s->time_ms = (int64_t)llround(t * 1000.0);
	return cb->fn(s, cb->ud);
}

static int query_series(const char *name, const gs_node *r, int matrix,
                        const query_cb *cb, gs_error *err)
{
	gs_prom_label labels[GS_PROM_MAX_LABELS];
	gs_prom_sample s;
	const gs_node *m = gs_node_get(r, "metric");
	const gs_node *vals = gs_node_get(r, matrix ? "values" : "value");
	int rc = 0;

	memset(&s, 0, sizeof s);
	if (!m || m->kind != GS_NODE_MAP || !vals || vals->kind != GS_NODE_SEQ)
		return query_fail(name, err, r, matrix ? "a series needs 'metric' and 'values'"
		                                       : "a series needs 'metric' and 'value'");
	for (size_t i = 0; i < m->n; i++) {
		if (m->items[i]->kind != GS_NODE_STRING)
			return query_fail(name, err, m->items[i], "label values must be strings");
		if (strcmp(m->keys[i]->text, "__name__") == 0)
			s.name = m->items[i]->text;
		else if (s.n_labels >= GS_PROM_MAX_LABELS)
			return gs_fail_node(err, GS_ELIMIT, name, m->keys[i],
			                    "a series has more than %d labels",
			                    GS_PROM_MAX_LABELS);
		else
			labels[s.n_labels++] =
			    (gs_prom_label){ m->keys[i]->text, m->items[i]->text };
	}
	if (!s.name)
		return gs_fail_node(err, GS_ESCHEMA, name, m,
		                    "a series has no __name__ label (query the DCGM "
		                    "metrics by name, without aggregation)");
	s.labels = labels;
	if (!matrix)
		return query_point(name, vals, &s, cb, err);
	for (size_t i = 0; i < vals->n && rc == 0; i++)
		rc = query_point(name, vals->items[i], &s, cb, err);
	return rc;
}

static int query_walk(const char *name, const gs_node *root, const query_cb *cb,
                      gs_error *err)
{
	const gs_node *st = gs_node_get(root, "status"), *data = gs_node_get(root, "data");
	const gs_node *type = gs_node_get(data, "resultType"), *res = gs_node_get(data, "result");
	int matrix, rc = 0;

	if (st && st->kind == GS_NODE_STRING && strcmp(st->text, "error") == 0) {
		const gs_node *e = gs_node_get(root, "error");
		return gs_fail_node(err, GS_ESCHEMA, name, st, "the query failed: %.200s",
		                    e && e->kind == GS_NODE_STRING ? e->text : "no reason given");
	}
	if (!type || type->kind != GS_NODE_STRING || !res || res->kind != GS_NODE_SEQ)
		return query_fail(name, err, root, "expected data.resultType and data.result");
	matrix = strcmp(type->text, "matrix") == 0;
	if (!matrix && strcmp(type->text, "vector") != 0)
		return gs_fail_node(err, GS_ESCHEMA, name, type,
		                    "resultType is '%.40s', expected 'matrix' or "
		                    "'vector'", type->text);
	for (size_t i = 0; i < res->n && rc == 0; i++)
		rc = query_series(name, res->items[i], matrix, cb, err);
	return rc;
}

static int parse_query(const char *name, const char *buf, size_t len, const query_cb *cb,
                       gs_error *err)
{
	gs_node *root = NULL;
	/* JSON through the YAML reader, for positions (see import.c). */
	int rc = gs_yaml_read_buffer(name, buf, len, &root, err);
	if (rc < 0)
		return rc;
	rc = root->kind == GS_NODE_MAP ? query_walk(name, root, cb, err)
	                               : query_fail(name, err, root, "expected an object");
	gs_node_free(root);
	return rc;
}

int gs_prom_parse_query(const char *name, const char *buf, size_t len,
                        gs_prom_fn fn, void *ud, gs_error *err)
{
	query_cb cb = { fn, NULL, ud };
	return parse_query(name, buf, len, &cb, err);
}

int gs_prom_read_source(const gs_source *src, gs_prom_fn fn, void *ud, gs_error *err)
{
	return gs_prom_read_source_skip(src, fn, NULL, ud, err);
}

int gs_prom_read_source_skip(const gs_source *src, gs_prom_fn fn, gs_prom_bad_fn bad,
                             void *ud, gs_error *err)
{
	query_cb cb = { fn, bad, ud };
	const char *name = src->name;
	char *buf;
	size_t len, i = 0;
	int rc = gs_source_read_all(src, &buf, &len, err);
	if (rc < 0)
		return rc;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	rc = i < len && buf[i] == '{' ? parse_query(name, buf, len, &cb, err)
	                              : parse_text(name, buf, len, fn, bad, ud, err);
	free(buf);
	return rc;
}

/* ---- percentiles ------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double gs_percentile(double *v, size_t n, int pct)
{
	size_t rank;
	qsort(v, n, sizeof *v, cmp_double);
	rank = ((size_t)pct * n + 99) / 100;
	return v[rank ? rank - 1 : 0];
}
