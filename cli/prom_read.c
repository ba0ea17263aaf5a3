/* prom_read.c - the DCGM series of a time range from Prometheus' HTTP API:
 * one /api/v1/query_range per field the import reads, split so that no
 * query asks for more than 11,000 points per series or returns more than
 * CLI_PROM_MAX_BODY bytes. Each body goes to the inventory as a metrics
 * source, exactly as a file holding the same JSON would; what the server
 * says besides the series (errors, warnings) is checked here first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prom.h"

#define MAX_SEEN 32 /* distinct warnings printed; the rest are counted */

typedef struct reader {
	gs_inventory *inv;
	gs_error *err;
	cli_http *http;
	char base[2048];              /* the URL without trailing '/' */
	char shown[GS_ERROR_FILE_MAX]; /* the URL as given, without user:password@ */
	int64_t start, end, step;     /* ms; end = start + (total - 1) * step */
	int64_t total, per_query;     /* points per series: all, and per query */
	long series, queries;         /* series of all fields, queries asked */
	long field_series;            /* of this field: the most one query gave */
	char *seen[MAX_SEEN];         /* the warnings printed */
	size_t n_seen, more_warnings;
} reader;

/* The URL without the user:password@ of basic authentication, which
 * must not reach a message. */
static void hide_userinfo(const char *url, char *out, size_t size)
{
	const char *host = strstr(url, "://"), *at, *slash;
	host = host ? host + 3 : url;
	slash = strchr(host, '/');
	at = memchr(host, '@', slash ? (size_t)(slash - host) : strlen(host));
	if (at)
		snprintf(out, size, "%.*s%s", (int)(host - url), url, at + 1);
	else
		snprintf(out, size, "%s", url);
}

/* ms as the API's seconds: "1732200000", or "1732200000.5". */
static char *secs(int64_t ms, char *buf, size_t size)
{
	int64_t s = ms / 1000, f = ms % 1000;
	if (f < 0) {
		s--;
		f += 1000;
	}
	if (!f)
		snprintf(buf, size, "%lld", (long long)s);
	else if (f % 100 == 0)
		snprintf(buf, size, "%lld.%lld", (long long)s, (long long)(f / 100));
	else if (f % 10 == 0)
		snprintf(buf, size, "%lld.%02lld", (long long)s, (long long)(f / 10));
	else
		snprintf(buf, size, "%lld.%03lld", (long long)s, (long long)f);
	return buf;
}

/* The start of a body, for a message: its first line, at most 60 bytes. */
static char *snippet(const char *body, size_t len, char *buf, size_t size)
{
	size_t n = 0;
	while (n < len && n < 60 && body[n] != '\n' && body[n] != '\r')
		n++;
	while (n && (body[n - 1] == ' ' || body[n - 1] == '\t'))
		n--;
	snprintf(buf, size, "\"%.*s%s\"", (int)n, body, n < len && n == 60 ? "..." : "");
	return buf;
}

/* Each distinct warning once: the server tends to give the same advice
 * for every field and every part of a split range. */
static void warn(reader *r, const char *text)
{
	for (size_t i = 0; i < r->n_seen; i++)
		if (strcmp(r->seen[i], text) == 0)
			return;
	if (r->n_seen == MAX_SEEN) {
		r->more_warnings++;
		return;
	}
	if ((r->seen[r->n_seen] = strdup(text)))
		r->n_seen++;
	cli_warning("%s: Prometheus warns: %s", r->shown, text);
}

/* A response that is not a successful query result, as one line. */
static int refused(reader *r, const char *field, const cli_http_reply *h,
                   const cli_prom_resp *p)
{
	char cut[96];
	const char *hint = "";
	if (p->api && (p->error[0] || p->error_type[0])) {
		if (strcmp(p->error_type, "execution") == 0 ||
		    strcmp(p->error_type, "timeout") == 0 || h->status == 422 || h->status == 503)
			hint = " (a shorter --window or a larger --step asks for less)";
		return cli_prom_error(r->err, GS_EIO, r->shown,
		                      "query_range %s: HTTP %ld: %s: %s%s", field, h->status,
		                      p->error_type[0] ? p->error_type : "error",
		                      p->error[0] ? p->error : "no reason given", hint);
	}
	snippet(h->body, h->len, cut, sizeof cut);
	if (h->status < 200 || h->status > 299)
		return cli_prom_error(r->err, GS_EIO, r->shown, "query_range %s: HTTP %ld, not a "
		                      "Prometheus API response (%s): is it Prometheus' base URL?",
		                      field, h->status, h->len ? cut : "an empty body");
	return cli_prom_error(r->err, GS_EIO, r->shown, "query_range %s: HTTP %ld, but not a "
	                      "Prometheus API response (%s%s%s): is it Prometheus' base URL?",
	                      field, h->status, h->content_type[0] ? h->content_type : "",
	                      h->content_type[0] ? ", " : "", h->len ? cut : "an empty body");
}

/* The body of a successful query, read by the inventory. */
static int feed(reader *r, const char *url, const cli_http_reply *h,
                const cli_prom_resp *p)
{
	char text[1024], name[GS_ERROR_FILE_MAX];
	gs_memory_source mem;
	gs_source src;
	size_t pos = 0;

	while (cli_prom_resp_warning(p, &pos, text, sizeof text))
		warn(r, text);
	if (p->series > r->field_series)
		r->field_series = p->series;
	hide_userinfo(url, name, sizeof name);
	gs_source_memory(&src, &mem, name, h->body, h->len);
	return gs_import_read(r->inv, GS_INPUT_METRICS, &src, r->err);
}

/* One query: 0, 1 when its body passed the cap, or a GS_E* code. */
static int query(reader *r, const char *field, int64_t from, int64_t to)
{
	char url[4096], q[256], a[32], b[32], s[32];
	cli_http_reply h;
	cli_prom_resp p;
	int rc;

	if (!cli_http_escape(field, q, sizeof q) ||
	    snprintf(url, sizeof url, "%s/api/v1/query_range?query=%s&start=%s&end=%s&step=%s",
	             r->base, q, secs(from, a, sizeof a), secs(to, b, sizeof b),
	             secs(r->step, s, sizeof s)) >= (int)sizeof url)
		return cli_prom_error(r->err, GS_EINVAL, r->shown, "the URL is too long");
	r->queries++;
	if ((rc = cli_http_get(r->http, url, CLI_PROM_MAX_BODY, &h, r->err)) < 0)
		return rc;
	if (h.too_big && h.status >= 200 && h.status <= 299)
		return 1;
	if (h.too_big)
		return cli_prom_error(r->err, GS_EIO, r->shown, "query_range %s: HTTP %ld with a "
		                      "body of more than %u MiB", field, h.status,
		                      CLI_PROM_MAX_BODY >> 20);
	cli_prom_resp_scan(h.body, h.len, &p);
	if (h.status < 200 || h.status > 299 || !p.api || !p.success)
		return refused(r, field, &h, &p);
	cli_verbose("%s: %s from %s to %s: %ld series, %zu bytes", r->shown, field, a, b,
	            p.series, h.len);
	return feed(r, url, &h, &p);
}

/* Every point of the range for one field, a query at a time. A body over
 * the cap is dropped and the same points asked for in halves; the smaller
 * size then holds for the rest, as the next queries are as dense. */
static int read_field(reader *r, const char *field)
{
	r->field_series = 0;
	for (int64_t k = 0; k < r->total;) {
		int64_t n = r->total - k < r->per_query ? r->total - k : r->per_query;
		int64_t from = r->start + k * r->step;
		int rc = query(r, field, from, from + (n - 1) * r->step);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			k += n;
			continue;
		}
		if (n == 1)
			return cli_prom_error(r->err, GS_ELIMIT, r->shown, "query_range %s: the "
			                      "series of one step hold more than %u MiB",
			                      field, CLI_PROM_MAX_BODY >> 20);
		r->per_query = (n + 1) / 2; /* 2017 points: 1009 + 1008, not 1008 + 1008 + 1 */
		cli_verbose("%s: %s: a response passed %u MiB; %lld points per query from now on",
		            r->shown, field, CLI_PROM_MAX_BODY >> 20, (long long)r->per_query);
	}
	r->series += r->field_series;
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The range: points every step, the last one at --until (or now). */
static void plan_range(reader *r, const cli_prom *p)
{
	int64_t window = p->window ? p->window_ms : CLI_PROM_WINDOW_MS;
	size_t n = strlen(p->url);
	r->step = p->step ? p->step_ms : CLI_PROM_STEP_MS;
	r->end = p->until ? p->until_ms : now_ms();
	r->total = window / r->step + 1;
	r->start = r->end - (r->total - 1) * r->step;
	r->per_query = CLI_PROM_QUERY_POINTS;
	while (n && p->url[n - 1] == '/')
		n--;
	snprintf(r->base, sizeof r->base, "%.*s", (int)n, p->url);
	hide_userinfo(p->url, r->shown, sizeof r->shown);
}

static void summary(reader *r, int fields)
{
	char a[48], b[48], step[48];
	cli_prom_rfc3339(r->start, a, sizeof a);
	cli_prom_rfc3339(r->end, b, sizeof b);
	if (r->more_warnings)
		cli_warning("%s: %zu more warnings from Prometheus", r->shown, r->more_warnings);
	if (!r->series)
		cli_warning("%s: no DCGM series from %s to %s (%d fields asked for): workloads "
		            "without other metrics keep what they request", r->shown, a, b, fields);
	else
		cli_info("%s: %ld series from %s to %s, a point every %s (%ld queries)",
		         r->shown, r->series, a, b,
		         cli_prom_duration_text(r->step, step, sizeof step), r->queries);
}

int cli_prom_read(const cli_prom *p, gs_inventory *inv, gs_error *err)
{
	reader r;
	const char *field;
	int rc, fields = 0;

	memset(&r, 0, sizeof r);
	r.inv = inv;
	r.err = err;
	plan_range(&r, p);
	if (strlen(p->url) >= sizeof r.base)
		return cli_prom_error(err, GS_EINVAL, r.shown, "the URL is too long");
	rc = cli_http_open(&r.http, r.shown, p->timeout ? p->timeout : CLI_PROM_TIMEOUT, err);
	for (; rc == 0 && (field = gs_import_metric_field((size_t)fields)); fields++)
		rc = read_field(&r, field);
	if (rc == 0)
		summary(&r, fields);
	cli_http_close(r.http);
	for (size_t i = 0; i < r.n_seen; i++)
		free(r.seen[i]);
	return rc;
}
