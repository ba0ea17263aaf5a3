/* buf.c - the growable string buffer (buf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

/* Room for n more bytes and a NUL; marks the buffer failed otherwise. */
static int reserve(gs_buf *b, size_t n)
{
	if (b->failed)
		return -1;
	if (n > SIZE_MAX - b->len - 1 ||
	    gs_grow(&b->data, &b->cap, b->len + n + 1, 1) < 0) {
		b->failed = 1;
		return -1;
	}
	return 0;
}

void gs_buf_add(gs_buf *b, const void *data, size_t n)
{
	if (reserve(b, n) < 0)
		return;
	if (n)
		memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void gs_buf_puts(gs_buf *b, const char *s)
{
	gs_buf_add(b, s, strlen(s));
}

void gs_buf_putc(gs_buf *b, char c)
{
	gs_buf_add(b, &c, 1);
}

/* ---- the formats written here ------------------------------------------ */

/* The conversions formatted without the C library: %%, %s, %d, %lld,
 * %0Nlld (N one digit) and %0*lld. COIN-OR's solvers bring in
 * libquadmath (through LAPACK's gfortran), which registers printf hooks
 * when it loads, and glibc then formats every printf of the process on
 * its slow, positional path: 1.6 times the instructions for the same
 * text. The reasons of a 100,000-replica plan are 240,000 such appends.
 * Any other conversion, flag or width goes to vsnprintf. */
enum { CONV_PERCENT, CONV_STR, CONV_INT, CONV_LL, CONV_OTHER };

/* The conversion after a '%' at f: its kind, and in *pad the width of a
 * zero-padded %lld (0: none, -1: an argument's), in *end where it ends. */
static int conversion(const char *f, int *pad, const char **end)
{
	*pad = 0;
	if (*f == '0') {
		if (f[1] == '*')
			*pad = -1;
		else if (f[1] >= '1' && f[1] <= '9')
			*pad = f[1] - '0';
		else
			return CONV_OTHER;
		f += 2;
		if (strncmp(f, "lld", 3) != 0)
			return CONV_OTHER;
	}
	*end = f + 1;
	switch (*f) {
	case '%': return *pad ? CONV_OTHER : CONV_PERCENT;
	case 's': return *pad ? CONV_OTHER : CONV_STR;
	case 'd': return *pad ? CONV_OTHER : CONV_INT;
	case 'l':
		*end = f + 3;
		return strncmp(f, "lld", 3) == 0 ? CONV_LL : CONV_OTHER;
	default: return CONV_OTHER;
	}
}

/* Whether every conversion of fmt is one of those above. */
static int formats_here(const char *fmt)
{
	for (const char *f = fmt; (f = strchr(f, '%'));) {
		int pad;
		if (conversion(f + 1, &pad, &f) == CONV_OTHER)
			return 0;
	}
	return 1;
}

/* v in decimal, as %0*lld writes it: zeros after the sign up to width
 * characters in all; a negative width pads with spaces after it. */
static void put_decimal(gs_buf *b, long long v, int width)
{
	char d[24];
	int n = 0, len;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		d[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	len = n + (v < 0);
	if (v < 0)
		gs_buf_putc(b, '-');
	for (; width > 0 && len < width; len++)
		gs_buf_putc(b, '0');
	while (n > 0)
		gs_buf_putc(b, d[--n]);
	for (; width < 0 && len < -width; len++)
		gs_buf_putc(b, ' ');
}

static void format_here(gs_buf *b, const char *fmt, va_list ap)
{
	const char *f = fmt, *pct;
	while ((pct = strchr(f, '%'))) {
		int pad;
		const char *s;
		gs_buf_add(b, f, (size_t)(pct - f));
		switch (conversion(pct + 1, &pad, &f)) {
		case CONV_PERCENT: gs_buf_putc(b, '%'); break;
		case CONV_STR:
			s = va_arg(ap, const char *);
			gs_buf_puts(b, s ? s : "(null)");
			break;
		case CONV_INT: put_decimal(b, va_arg(ap, int), 0); break;
		default:
			if (pad < 0)
				pad = va_arg(ap, int);
			put_decimal(b, va_arg(ap, long long), pad);
		}
	}
	gs_buf_puts(b, f);
}

/* Formats into the room the buffer has, and only where that is short
 * again after growing it: a plan's reasons are half a million of these,
 * and formatting each twice (to measure, then to write) was 6 % of a
 * 100,000-replica plan. */
void gs_buf_vprintf(gs_buf *b, const char *fmt, va_list ap)
{
	va_list again;
	size_t room;
	int n;

	if (b->failed)
		return;
	if (formats_here(fmt)) {
		format_here(b, fmt, ap);
		return;
	}
	/* A first piece most often fits 64 bytes: one pass for it too. */
	if (!b->data) {
		if (reserve(b, 63) < 0)
			return;
		b->data[0] = '\0';
	}
	room = b->cap - b->len;
	va_copy(again, ap);
	n = vsnprintf(b->data + b->len, room, fmt, ap);
	if (n < 0) {
		b->data[b->len] = '\0';
		b->failed = 1;
	} else if ((size_t)n < room) {
		b->len += (size_t)n;
	} else {
		b->data[b->len] = '\0'; /* what the short try cut off */
		if (reserve(b, (size_t)n) == 0) {
			vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
			b->len += (size_t)n;
		}
	}
	va_end(again);
}

void gs_buf_printf(gs_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

const char *gs_buf_str(const gs_buf *b)
{
	return b->data ? b->data : "";
}

int gs_buf_detach(gs_buf *b, char **out, gs_error *err)
{
	if (!b->failed && !b->data)
		gs_buf_add(b, "", 0);
	if (b->failed) {
		gs_buf_release(b);
		return gs_fail_nomem(err);
	}
	*out = b->data;
	*b = (gs_buf)GS_BUF_INIT;
	return 0;
}

void gs_buf_release(gs_buf *b)
{
	free(b->data);
	*b = (gs_buf)GS_BUF_INIT;
}
