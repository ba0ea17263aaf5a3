/*
 * html.h - HTML escaping and number cells for the report: user text made
 * safe for element content and quoted attributes, and amounts written the
 * way the page shows them. Everything appends to a gs_buf.
 */
#ifndef GS_HTML_H
#define GS_HTML_H

#include "base/buf.h"

/* User text, HTML-escaped: & < > " ' become entities, control characters
 * other than tab and newline and invalid UTF-8 become U+FFFD, so the
 * result is safe in element content and in quoted attribute values. A
 * NULL s appends nothing. (Our own markup goes in with gs_buf_puts.) */
void gs_html_esc(gs_buf *b, const char *s);
/* The same, cut to at most max characters (code points), the last of
 * them an ellipsis when s is longer. */
void gs_html_esc_max(gs_buf *b, const char *s, size_t max);
/* Characters (code points) in s, counting invalid bytes as one each. */
size_t gs_html_chars(const char *s);

/* "$1,234.56" ("-$0.50"), from gs_micros_format with 2 decimals. */
void gs_html_money(gs_buf *b, gs_micros m);
/* "44.3%" from per mille. */
void gs_html_permille(gs_buf *b, int permille);
/* "12%": a share in ppm, rounded to a whole percent. */
void gs_html_ppm(gs_buf *b, int64_t ppm);

#endif
