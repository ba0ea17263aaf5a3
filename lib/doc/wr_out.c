/*
 * wr_out.c - where the streaming writer's bytes go: one fixed chunk,
 * handed to the caller's write function each time it fills, and the
 * writer's sticky failure. The backends write through here only.
 */
#include <stdio.h>
#include <string.h>

#include "doc/wr.h"

void gs_wr_fail(gs_wr *w, int rc, const char *why)
{
	if (w->rc)
		return;
	w->rc = rc;
	snprintf(w->why, sizeof w->why, "%s", why ? why : "");
}

void gs_wr_abort(gs_wr *w, int code)
{
	gs_wr_fail(w, code, code == GS_ENOMEM ? NULL : "the document could not be described");
}

void gs_wr_flush(gs_wr *w)
{
	int rc;
	if (!w->used || w->rc)
		return;
	rc = w->write(w->ctx, w->out, w->used);
	w->used = 0;
	if (rc < 0)
		gs_wr_fail(w, rc, rc == GS_ENOMEM ? NULL : "cannot write the document");
}

void gs_wr_out_slow(gs_wr *w, const char *data, size_t n)
{
	while (n && !w->rc) {
		size_t room = GS_WR_CHUNK - w->used, k = n < room ? n : room;
		memcpy(w->out + w->used, data, k);
		w->used += k;
		data += k;
		n -= k;
		if (w->used == GS_WR_CHUNK)
			gs_wr_flush(w);
	}
}

void gs_wr_puts(gs_wr *w, const char *s)
{
	gs_wr_out(w, s, strlen(s));
}
