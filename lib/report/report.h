/* report.h - shared by the HTML report (report.c) and its SVG pictures
 * (report_svg.c); never installed. */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include "doc/fields.h"

/* Output text; failures are sticky and reported once at the end. */
typedef struct rbuf {
	char *buf;
	size_t len, cap;
	int failed;
} rbuf;

#define RBUF_INIT { NULL, 0, 0, 0 }

/* Our own markup, appended as is: never pass user text to these. */
void rb_puts(rbuf *b, const char *s);
void rb_printf(rbuf *b, const char *fmt, ...) GS_PRINTF(2, 3);

/* User text, HTML-escaped: & < > " ' become entities, control characters
 * other than tab and newline and invalid UTF-8 become U+FFFD, so the
 * result is safe in element content and in quoted attribute values. A
 * NULL s appends nothing. */
void rb_esc(rbuf *b, const char *s);
/* The same, cut to at most max characters (code points), the last of
 * them an ellipsis when s is longer. */
void rb_esc_max(rbuf *b, const char *s, size_t max);
/* Characters (code points) in s, counting invalid bytes as one each. */
size_t rb_chars(const char *s);

/* "$1,234.56" ("-$0.50"), from gs_micros_format with 2 decimals. */
void rb_money(rbuf *b, gs_micros m);
/* "44.3%" from per mille. */
void rb_permille(rbuf *b, int permille);
/* "12%": a share in ppm, rounded to a whole percent. */
void rb_ppm(rbuf *b, int64_t ppm);

/* Hands the text to *out, or frees it and fails with GS_ENOMEM. */
int rb_finish(rbuf *b, char **out, gs_error *err);

/* The class of a strategy's colour ("s-mig") and its display name
 * ("MIG"). */
const char *rp_class(gs_strategy s);
const char *rp_label(gs_strategy s);

/* report_svg.c: the pictures. Every picture's viewBox is RP_VIEW_W wide;
 * a GPU spans RP_GPU_W of it, from x = RP_GPU_X, and its MIG memory slots
 * divide that width evenly. */
#define RP_VIEW_W 960
#define RP_GPU_X 2
#define RP_GPU_W (RP_VIEW_W - 2 * RP_GPU_X)

/* Every picture is an inline <svg> with a
 * <title>, sized by its viewBox; ids are unique within the page. */
void rp_svg_teams(rbuf *b, const gs_plan *p);
/* A GPU of node n (0-based, for unique ids). */
void rp_svg_gpu(rbuf *b, const gs_plan_gpu *g, size_t n);
/* Whether a GPU holds nothing. */
int rp_gpu_unused(const gs_plan_gpu *g);

#endif
