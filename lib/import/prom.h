/*
 * prom.h - reading Prometheus metrics (internal): the text exposition
 * format that dcgm-exporter serves (version 0.0.4), and the JSON result of
 * a /api/v1/query_range or /api/v1/query request.
 *
 * The readers call back once per sample and keep nothing, so a scrape of
 * any size is read in one pass. Everything a sample points to is borrowed
 * for the duration of the callback.
 */
#ifndef GS_PROM_H
#define GS_PROM_H

#include "doc/fields.h"

/* Limits, on top of GS_READ_MAX_BYTES for the whole file. */
#define GS_PROM_MAX_LINE 65536   /* bytes in one line, without the newline */
#define GS_PROM_MAX_LABELS 64    /* labels on one sample */

typedef struct gs_prom_label {
	const char *name;
	const char *value;
} gs_prom_label;

typedef struct gs_prom_sample {
	const char *name;              /* metric name */
	const gs_prom_label *labels;   /* without __name__ */
	size_t n_labels;
	double value;                  /* may be NaN or infinite */
	int has_time;
	int64_t time_ms;               /* milliseconds since the epoch */
	unsigned long line;            /* text format: its line; JSON: 0 */
} gs_prom_sample;

/* Called for each sample. A negative return stops reading and is returned
 * by the reader (the callback fills err itself). */
typedef int (*gs_prom_fn)(const gs_prom_sample *s, void *ud);

/* Parses the text exposition format. `name` is the file named in errors,
 * which read "NAME:LINE:COL: error: ...". Comments, HELP and TYPE lines are
 * checked as the format requires; a TYPE line may repeat with the same
 * type (several scrapes appended to one file), never change it. A "\r"
 * before a newline is accepted, for files saved on Windows. */
int gs_prom_parse_text(const char *name, const char *buf, size_t len,
                       gs_prom_fn fn, void *ud, gs_error *err);

/* Parses a Prometheus HTTP API query result: resultType "matrix" (values)
 * or "vector" (value); sample values are strings as the API writes them. */
int gs_prom_parse_query(const char *name, const char *buf, size_t len,
                        gs_prom_fn fn, void *ud, gs_error *err);

/* Reads a source of either kind: JSON when its first non-blank byte is
 * '{' (which cannot start an exposition line). */
int gs_prom_read_source(const gs_source *src, gs_prom_fn fn, void *ud, gs_error *err);

/* Called for a line of the text format that does not parse (or a sample
 * value of a query result), with err located and filled: 0 skips it and
 * reading goes on, a negative return stops with that error. */
typedef int (*gs_prom_bad_fn)(const gs_error *err, void *ud);

/* The same, passing each bad line to bad (NULL: a bad line fails). Limits
 * of the whole file (its size) and a query result's structure still fail. */
int gs_prom_read_source_skip(const gs_source *src, gs_prom_fn fn, gs_prom_bad_fn bad,
                             void *ud, gs_error *err);

/* The value of label `name` on the sample, or NULL. Borrowed. */
const char *gs_prom_label_get(const gs_prom_sample *s, const char *name);

/* Parses a sample value as Prometheus does (Go's ParseFloat without hex):
 * decimals with an optional exponent, "NaN", "+Inf", "-Inf", "Inf",
 * "Infinity", any case. Out-of-range values are refused. text need not be
 * NUL-terminated. Returns 0 or -1. */
int gs_prom_parse_value(const char *text, size_t n, double *out);

/* The nearest-rank percentile (1..100) of the n values: the smallest value
 * with at least pct% of the values at or below it. Sorts v in place; n > 0. */
double gs_percentile(double *v, size_t n, int pct);

#endif
