/*
 * prom.h - reading DCGM series from a Prometheus server (the CLI's side of
 * `--prometheus`): the range and its queries (prom_read.c), the one file
 * that speaks HTTP (prom_http.c, libcurl), and what a response body says
 * at its top level (prom_resp.c). The library only ever sees the bodies,
 * as metrics sources.
 */
#ifndef GS_CLI_PROM_H
#define GS_CLI_PROM_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* The defaults of --window, --step and --timeout. */
#define CLI_PROM_WINDOW_MS (7 * 86400 * INT64_C(1000))
#define CLI_PROM_STEP_MS (300 * INT64_C(1000))
#define CLI_PROM_TIMEOUT 30
/* Prometheus refuses a range query of more than 11,000 points per series
 * (web/api/v1: "exceeded maximum resolution"); each query asks for at most
 * this many. */
#define CLI_PROM_QUERY_POINTS 11000
/* A range of more points per series than this is a usage error: every
 * point of every series is a sample the import keeps (8 bytes) until it
 * takes the percentile, so a year at one second is refused, not tried. */
#define CLI_PROM_MAX_POINTS 110000
/* The most a response body may hold. A larger one is dropped and its range
 * asked for again in halves, so memory stays bounded however many series
 * the server holds; the library parses each body into a tree several
 * times its size. */
#define CLI_PROM_MAX_BODY (8u << 20)

/* prom_args.c: durations and times as --window, --step and --until take
 * them. 0, or -1 when text is not one. */
int cli_prom_duration(const char *text, int64_t *ms);
int cli_prom_time(const char *text, int64_t *ms);
/* ms as a duration: "10m", "1h30m", "1s500ms". */
char *cli_prom_duration_text(int64_t ms, char *buf, size_t size);
/* ms since the epoch as "2024-11-21T14:40:00Z" (".500" when not whole). */
char *cli_prom_rfc3339(int64_t ms, char *buf, size_t size);

/* prom_http.c: fills err as the library would ("NAME: error: MSG") and
 * returns code. */
int cli_prom_error(gs_error *err, int code, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* prom_http.c: one connection's worth of requests to a server. */
typedef struct cli_http cli_http;
typedef struct cli_http_reply {
	long status;             /* HTTP status; 0: none */
	const char *body;        /* NUL-terminated; owned by the cli_http */
	size_t len;
	int too_big;             /* the body passed the cap and was dropped */
	char content_type[96];   /* "" when the server gave none */
} cli_http_reply;
/* A client for the server at url (its messages name `name`), each request
 * limited to timeout seconds; it sends PROMETHEUS_TOKEN, when set, as a
 * bearer token. 0, or a GS_E* code. */
int cli_http_open(cli_http **out, const char *name, int timeout, gs_error *err);
/* GET url; the body is kept up to cap bytes. 0 with *r filled (whatever
 * the status), or GS_EIO when no response came: err says why (cannot
 * connect, cannot resolve, TLS, timeout). r is valid until the next get. */
int cli_http_get(cli_http *h, const char *url, size_t cap, cli_http_reply *r,
                 gs_error *err);
/* s percent-encoded for a query string, into buf; NULL when too long. */
char *cli_http_escape(const char *s, char *buf, size_t size);
void cli_http_close(cli_http *h);

/* prom_resp.c: the top level of a Prometheus HTTP API response, found
 * without building a tree (the bodies are large, and the library reads
 * each one in full). */
typedef struct cli_prom_resp {
	int api;                 /* a JSON object with a string "status" */
	int success;             /* status "success" */
	char error_type[64];     /* "errorType", "" when absent */
	char error[320];         /* "error", "" when absent */
	long series;             /* elements of data.result; -1: none */
	const char *warnings;    /* the "warnings" array; NULL: none */
	size_t warnings_len;
} cli_prom_resp;
void cli_prom_resp_scan(const char *s, size_t n, cli_prom_resp *r);
/* The next string of the warnings array, from *pos (0 at first), decoded
 * into buf (cut to size). 1, or 0 when there is none. */
int cli_prom_resp_warning(const cli_prom_resp *r, size_t *pos, char *buf, size_t size);

#endif
