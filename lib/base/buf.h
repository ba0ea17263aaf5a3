/*
 * buf.h - the one growable string buffer of libgpushare (after git's
 * strbuf and cmark's buffer).
 *
 * Appends never fail loudly: the first allocation failure makes the buffer
 * "failed", every later append does nothing, and gs_buf_detach reports the
 * failure once. So writers append freely and check once at the end. Nothing
 * is ever cut short: formatted appends grow to fit whatever they format.
 */
#ifndef GS_BUF_H
#define GS_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "base/base.h"

typedef struct gs_buf {
	char *data;     /* NUL-terminated once anything is appended; else NULL */
	size_t len;     /* bytes before the NUL */
	size_t cap;
	int failed;     /* an allocation failed: the content is incomplete */
} gs_buf;

#define GS_BUF_INIT { NULL, 0, 0, 0 }

/* Appends n bytes (which may hold NULs). */
void gs_buf_add(gs_buf *b, const void *data, size_t n);
void gs_buf_puts(gs_buf *b, const char *s);
void gs_buf_putc(gs_buf *b, char c);
void gs_buf_printf(gs_buf *b, const char *fmt, ...) GS_PRINTF(2, 3);
void gs_buf_vprintf(gs_buf *b, const char *fmt, va_list ap);

/* The text so far, "" when nothing was appended; borrowed until the next
 * append, detach or release. */
const char *gs_buf_str(const gs_buf *b);

/* Hands the text to *out (the caller frees it with free(); "" when
 * nothing was appended) and leaves b empty. A failed buffer is released
 * instead, *out is untouched, and the result is GS_ENOMEM. */
int gs_buf_detach(gs_buf *b, char **out, gs_error *err);

/* Frees the text of an embedded buffer and leaves it empty (GS_BUF_INIT). */
void gs_buf_release(gs_buf *b);

#endif
