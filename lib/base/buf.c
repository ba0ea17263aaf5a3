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
