/*
 * base.h - errors, strings, numbers and files shared by every layer of
 * libgpushare; never installed. Includes nothing of ours but the public
 * header.
 */
#ifndef GS_BASE_H
#define GS_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "gpushare.h"

#if defined(__GNUC__)
#define GS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GS_PRINTF(a, b)
#endif

#define GS_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Fills err (when not NULL) and returns code, so that callers can write
 * `return gs_fail(err, GS_EINVAL, "...")`. */
int gs_fail(gs_error *err, int code, const char *fmt, ...) GS_PRINTF(3, 4);
/* The same with a location; a NULL file leaves the location empty. */
int gs_fail_at(gs_error *err, int code, const char *file, unsigned long line,
               unsigned long col, const char *fmt, ...) GS_PRINTF(6, 7);
int gs_vfail_at(gs_error *err, int code, const char *file, unsigned long line,
                unsigned long col, const char *fmt, va_list ap);
int gs_fail_nomem(gs_error *err);
/* Refuses an options struct of another version than this library's:
 * GS_EINVAL naming the struct (`what`), or 0. */
int gs_check_version(unsigned got, unsigned want, const char *what, gs_error *err);

/* strings.c */
char *gs_strdup(const char *s);
char *gs_strndup(const char *s, size_t n);
int gs_strcaseeq(const char *a, const char *b);
/* Levenshtein distance, case-insensitive, capped at `cap`. */
size_t gs_edit_distance(const char *a, const char *b, size_t cap);
/* The candidate nearest `word`, or NULL when none is within a third of the
 * word's length (at least 2 edits). */
const char *gs_suggest(const char *word, const char *const *cands, size_t n);

/* Whether s is a DNS-1123 label (a Kubernetes name or namespace): 1 to 63
 * of [a-z0-9-], alphanumeric at both ends. */
int gs_is_dns_label(const char *s);
#define GS_DNS_LABEL_RULE                                                        \
	"1 to 63 lower-case letters, digits and '-', starting and ending with a " \
	"letter or digit"

/* Whether s is a DNS-1123 subdomain (the name of most Kubernetes objects):
 * at most 253 characters, DNS-1123 labels joined by '.'. */
int gs_is_dns_subdomain(const char *s);
#define GS_DNS_SUBDOMAIN_RULE                                                     \
	"at most 253 lower-case letters, digits, '-' and '.', each part between " \
	"dots starting and ending with a letter or digit"

/* Makes s a valid Kubernetes label value in out (at most 63 characters
 * of [A-Za-z0-9-_.], alphanumeric at both ends); other characters become
 * '-'. out must hold 64 bytes. Returns out. */
char *gs_label_value(const char *s, char *out);

/* Growable array: *items grows to hold at least `need` elements. */
int gs_grow(void *items, size_t *cap, size_t need, size_t size);

/* Exact decimal parsing: "12.5" with scale 1000 (a power of ten) gives
 * 12500. Returns 0, or GS_PARSE_SYNTAX (signs, exponents, other
 * characters), GS_PARSE_TOO_PRECISE or GS_PARSE_TOO_LARGE. */
enum { GS_PARSE_SYNTAX = -1, GS_PARSE_TOO_PRECISE = -2, GS_PARSE_TOO_LARGE = -3 };
int gs_parse_fixed(const char *text, int64_t scale, int64_t *out);
/* How many decimals a scale holds: 1000000 -> 6. */
int gs_scale_decimals(int64_t scale);

/* Integer helpers that never overflow silently. */
int64_t gs_div_round(int64_t num, int64_t den); /* half away from zero */
int64_t gs_div_ceil(int64_t num, int64_t den);  /* den > 0, num >= 0 */

/* Read limits, shared by every reader of files. */
#define GS_READ_MAX_BYTES (64u << 20)

/* atomic.c: writes data to path through a temporary file in the same
 * directory, flushed and renamed into place, so a reader sees the old
 * file or the new one, never a mix. With exclusive, an existing path is
 * an error. Failures are GS_EWRITE. */
int gs_write_atomic(const char *path, const char *data, size_t len,
                    int exclusive, gs_error *err);

/* Products of micro-dollars and weights in ppm overflow 64 bits. */
__extension__ typedef __int128 gs_wide;
/* money.c: splits total over weights w[0..n) (their sum above 0) exactly:
 * each part is rounded down, and the micro-dollars left go one each to
 * the parts with the largest remainders (ties to the earlier part), so the
 * parts add up to total and none is a micro-dollar from its exact share.
 * Returns 0, or -1 when out of memory. */
int gs_money_split(gs_micros total, const gs_wide *w, size_t n, gs_micros *out);

/* file.c: reads a whole file (path "-" is stdin) up to GS_READ_MAX_BYTES. */
int gs_file_read(const char *path, char **buf, size_t *len, gs_error *err);
/* source.c: reads what is left of a source, up to GS_READ_MAX_BYTES; *buf
 * ends with a NUL (not counted in *len) and is the caller's to free. */
int gs_source_read_all(const gs_source *src, char **buf, size_t *len, gs_error *err);

#endif
