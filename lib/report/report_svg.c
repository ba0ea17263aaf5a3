/*
 * report_svg.c - the report's pictures, as inline SVG: a bar chart of the
 * cost per team, and each GPU's partitions. MIG instances are drawn to
 * scale over the GPU's memory slots; time-slicing and MPS shares as
 * segments as wide as each replica's share of compute. Coordinates are
 * integers in a fixed viewBox, so the output is the same everywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* CSS scales every picture to the page. */
#define VIEW_W RP_VIEW_W
/* Average width of a character of 13px text and of bold 13px text, in
 * tenths of a unit: conservative guesses for the system fonts, used to
 * cut labels to fit. */
#define CHAR_W10 78
#define BOLD_W10 84

/* ---- shared ----------------------------------------------------------------- */

/* How many characters fit in a box of `width`, with some room. */
static size_t fit_chars(int width, int char_w10)
{
	int room = width - 12;
	return room <= 0 ? 0 : (size_t)(room * 10 / char_w10);
}

/* Text centred in a box of `width` at (cx, y), escaped and cut to fit;
 * nothing when not even two characters fit. */
static void label(rbuf *b, int cx, int y, int width, const char *cls, const char *text)
{
	size_t max = fit_chars(width, cls && strcmp(cls, "b") == 0 ? BOLD_W10 : CHAR_W10);
	if (!text || !*text || max < 2)
		return;
	rb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"%s%s%s>", cx, y,
	          cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	rb_esc_max(b, text, max);
	rb_puts(b, "</text>\n");
}

/* The opening of a picture with its accessible name (escaped). */
static void svg_open(rbuf *b, const char *cls, const char *id, int width, int height,
                     const char *name)
{
	rb_printf(b, "<svg class=\"%s\" viewBox=\"0 0 %d %d\" role=\"img\" "
	             "aria-labelledby=\"%s\">\n<title id=\"%s\">",
	          cls, width, height, id, id);
	rb_esc(b, name);
	rb_puts(b, "</title>\n");
}

/* Scratch buffers for a label's plain text (escaped when drawn). */
static void tmp_reset(rbuf *t)
{
	t->len = 0;
	if (t->buf)
		t->buf[0] = '\0';
}

static void tmp_reset3(rbuf *t1, rbuf *t2, rbuf *t3)
{
	tmp_reset(t1);
	tmp_reset(t2);
	tmp_reset(t3);
}

static const char *tmp_text(const rbuf *t) { return t->buf ? t->buf : ""; }

/* "name/replica" */
static void replica_name(rbuf *t, const gs_assignment *a)
{
	rb_puts(t, a->workload->name);
	rb_printf(t, "/%d", a->replica);
}

/* "name/0 12%, name/1 12%" (plain, escaped by the caller) */
static void replica_list(rbuf *t, const gs_assignment *a, size_t n, int shares)
{
	for (size_t i = 0; i < n; i++) {
		rb_puts(t, i ? ", " : "");
		replica_name(t, &a[i]);
		if (shares) {
			rb_puts(t, " ");
			rb_ppm(t, a[i].compute_ppm);
		}
	}
}

/* ---- cost per team ---------------------------------------------------------- */

/* Each team a row: its name and cost on one line, its bar below across the
 * whole width. Narrow, so that the text stays legible on a phone. */
#define TEAM_VIEW_W 400
#define TEAM_ROW 46
#define TEAM_MONEY_W 96 /* room kept for the cost beside the name */

static void team_row(rbuf *b, const gs_plan_team *tm, int y, gs_micros max, rbuf *t)
{
	int len = max > 0 ? (int)(tm->cost_per_hour * TEAM_VIEW_W / max) : 0;

	tmp_reset(t);
	rb_puts(t, tm->team);
	rb_puts(t, ": ");
	rb_money(t, tm->cost_per_hour);
	rb_puts(t, " an hour");
	rb_puts(b, "<g><title>");
	rb_esc(b, tmp_text(t));
	rb_printf(b, "</title>\n<text x=\"0\" y=\"%d\">", y + 14);
	rb_esc_max(b, tm->team, fit_chars(TEAM_VIEW_W - TEAM_MONEY_W, CHAR_W10));
	rb_printf(b, "</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", TEAM_VIEW_W,
	          y + 14);
	rb_money(b, tm->cost_per_hour);
	rb_printf(b, "</text>\n<rect class=\"bar\" x=\"0\" y=\"%d\" width=\"%d\" "
	             "height=\"16\" rx=\"2\"/></g>\n",
	          y + 21, len);
}

void rp_svg_teams(rbuf *b, const gs_plan *p)
{
	size_t n = gs_plan_team_count(p);
	int height = (int)(n ? n : 1) * TEAM_ROW;
	gs_micros max = 0;
	rbuf t = RBUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (gs_plan_team_at(p, i)->cost_per_hour > max)
			max = gs_plan_team_at(p, i)->cost_per_hour;
	svg_open(b, "teams", "teams-t", TEAM_VIEW_W, height,
	         "Cost per hour of each team after the plan");
	for (size_t i = 0; i < n; i++)
		team_row(b, gs_plan_team_at(p, i), (int)i * TEAM_ROW, max, &t);
	if (!n)
		rb_puts(b, "<text class=\"dim\" x=\"0\" y=\"14\">no teams</text>\n");
	rb_puts(b, "</svg>\n");
	free(t.buf);
	b->failed |= t.failed;
}

/* ---- GPUs ------------------------------------------------------------------- */

#define X0 RP_GPU_X
#define GPU_W RP_GPU_W
#define BAR_Y 2
#define BAR_H 56
#define LINE1 (BAR_Y + 24)
#define LINE2 (BAR_Y + 43)
#define AXIS_Y (BAR_Y + BAR_H + 16)

int rp_gpu_unused(const gs_plan_gpu *g) { return !g->n_assignments && !g->n_mig; }

/* One drawn box: its class, its data-mig value (or NULL) and two lines. */
typedef struct box {
	const char *cls;
	const char *mig;
	const char *title, *line1, *line2;
} box;

static void draw_box(rbuf *b, int x, int w, const box *bx)
{
	if (w < 1) /* a share too small to see still gets its title */
		w = 1;
	rb_puts(b, "<g><title>");
	rb_esc(b, bx->title);
	rb_printf(b, "</title>\n<rect class=\"%s\"", bx->cls);
	if (bx->mig) {
		rb_puts(b, " data-mig=\"");
		rb_esc(b, bx->mig);
		rb_puts(b, "\"");
	}
	rb_printf(b, " x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>\n", x, BAR_Y,
	          w, BAR_H);
	label(b, x + w / 2, bx->line2 ? LINE1 : (LINE1 + LINE2) / 2, w, "b", bx->line1);
	label(b, x + w / 2, LINE2, w, NULL, bx->line2);
	rb_puts(b, "</g>\n");
}

/* Shares laid end to end: x of the boundary after `ppm` of `total`. */
static int share_x(int64_t ppm, int64_t total)
{
	return X0 + (int)(ppm * GPU_W / total);
}

static void shares_axis(rbuf *b, int64_t total)
{
	static const char *anchor[] = { "start", "middle", "middle", "middle", "end" };
	for (int k = 0; k <= 4; k++) {
		int64_t ppm = total * k / 4;
		rb_printf(b, "<text class=\"dim\" x=\"%d\" y=\"%d\" text-anchor=\"%s\">",
		          share_x(ppm, total), AXIS_Y, anchor[k]);
		rb_ppm(b, ppm);
		rb_puts(b, k == 4 ? " of compute</text>\n" : "</text>\n");
	}
}

/* One replica's share: "name/0" over "12%" when the name fits, else
 * "name" over "/0 12%", or over "12%" in a narrow box. */
static void draw_share(rbuf *b, gs_strategy s, const gs_assignment *a, int x, int w,
                       rbuf *t1, rbuf *t2, rbuf *t3)
{
	box bx = { s == GS_STRATEGY_MPS ? "seg s-mps" : "seg s-ts", NULL, NULL, NULL, NULL };

	tmp_reset3(t1, t2, t3);
	replica_name(t1, a);
	if (rb_chars(tmp_text(t1)) > fit_chars(w, BOLD_W10)) {
		tmp_reset(t1);
		rb_puts(t1, a->workload->name);
		if (fit_chars(w, CHAR_W10) >= 7)
			rb_printf(t2, "/%d ", a->replica);
	}
	rb_ppm(t2, a->compute_ppm);
	if (a->thread_percent)
		rb_printf(t2, ", %d%% threads", a->thread_percent);
	replica_list(t3, a, 1, 1);
	if (a->thread_percent)
		rb_printf(t3, " (%d%% threads, %lld MiB)", a->thread_percent,
		          (long long)a->memory_limit_mib);
	bx.title = tmp_text(t3);
	bx.line1 = tmp_text(t1);
	bx.line2 = tmp_text(t2);
	draw_box(b, x, w, &bx);
}

static void draw_shared(rbuf *b, const gs_plan_gpu *g, rbuf *t1, rbuf *t2, rbuf *t3)
{
	int64_t sum = 0, total, at = 0;

	for (size_t i = 0; i < g->n_assignments; i++)
		sum += g->assignments[i].compute_ppm > 0 ? g->assignments[i].compute_ppm : 0;
	total = sum > GS_PPM ? sum : GS_PPM;
	for (size_t i = 0; i < g->n_assignments; i++) {
		const gs_assignment *a = &g->assignments[i];
		int64_t ppm = a->compute_ppm > 0 ? a->compute_ppm : 0;
		int x = share_x(at, total), w = share_x(at + ppm, total) - x;
		draw_share(b, g->strategy, a, x + 1, w - 2, t1, t2, t3);
		at += ppm;
	}
	if (at < total) {
		int x = share_x(at, total), w = share_x(total, total) - x;
		box bx = { "idle", NULL, NULL, "free", NULL };

		tmp_reset3(t1, t2, t3);
		rb_ppm(t2, total - at);
		rb_puts(t3, "free: ");
		rb_ppm(t3, total - at);
		rb_puts(t3, " of compute");
		bx.title = tmp_text(t3);
		bx.line2 = tmp_text(t2);
		draw_box(b, x + 1, w - 2, &bx);
	}
	shares_axis(b, total);
}

static int mig_slots(const gs_plan_gpu *g)
{
	int slots = g->model->mig_slots;
	for (size_t m = 0; m < g->n_mig; m++) {
		int end = g->mig[m].start + g->mig[m].profile->memory_slices;
		if (end > slots)
			slots = end;
	}
	return slots > 0 ? slots : 1;
}

static int slot_x(int slot, int slots) { return X0 + slot * GPU_W / slots; }

static void draw_mig(rbuf *b, const gs_plan_gpu *g, rbuf *t1, rbuf *t2, rbuf *t3)
{
	int slots = mig_slots(g);

	for (int k = 0; k < slots; k++) {
		int x = slot_x(k, slots), w = slot_x(k + 1, slots) - x;
		rb_printf(b, "<rect class=\"slot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n"
		             "<text class=\"dim\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
		          x, BAR_Y, w, BAR_H, x + w / 2, AXIS_Y, k);
	}
	for (size_t m = 0; m < g->n_mig; m++) {
		const gs_plan_mig *mi = &g->mig[m];
		int end = mi->start + mi->profile->memory_slices;
		int x = slot_x(mi->start, slots), w = slot_x(end, slots) - x;
		box bx = { "seg s-mig", mi->profile->name, NULL, NULL, NULL };

		tmp_reset3(t1, t2, t3);
		rb_puts(t1, mi->profile->name);
		if (mi->strategy != GS_STRATEGY_DEDICATED)
			rb_printf(t1, " \xC2\xB7 %s \xC3\x97%d", rp_label(mi->strategy), mi->replicas);
		replica_list(t2, mi->assignments, mi->n_assignments, 0);
		if (!mi->n_assignments)
			rb_puts(t2, "empty");
		rb_printf(t3, "%s, memory slots %d to %d: ", mi->profile->name, mi->start, end - 1);
		replica_list(t3, mi->assignments, mi->n_assignments, 1);
		bx.title = tmp_text(t3);
		bx.line1 = tmp_text(t1);
		bx.line2 = tmp_text(t2);
		/* Inset a little so neighbours stay apart; still to scale. */
		draw_box(b, x + 2, w - 4, &bx);
	}
}

static void draw_whole(rbuf *b, const gs_plan_gpu *g, rbuf *t1, rbuf *t2, rbuf *t3)
{
	box bx = { "seg unused", NULL, "unused", "unused", NULL };

	if (!rp_gpu_unused(g)) {
		tmp_reset3(t1, t2, t3);
		replica_list(t1, g->assignments, g->n_assignments, 0);
		if (g->n_assignments == 1) {
			rb_ppm(t2, g->assignments[0].compute_ppm);
			rb_puts(t2, " of compute");
		}
		rb_puts(t3, "dedicated: ");
		replica_list(t3, g->assignments, g->n_assignments, 1);
		bx.cls = "seg s-ded";
		bx.title = tmp_text(t3);
		bx.line1 = tmp_text(t1);
		bx.line2 = g->n_assignments == 1 ? tmp_text(t2) : NULL;
	}
	draw_box(b, X0, GPU_W, &bx);
}

void rp_svg_gpu(rbuf *b, const gs_plan_gpu *g, size_t node)
{
	rbuf t1 = RBUF_INIT, t2 = RBUF_INIT, t3 = RBUF_INIT, name = RBUF_INIT;
	char id[64];
	int unused = rp_gpu_unused(g);
	int axis = !unused && (g->strategy == GS_STRATEGY_MIG ||
	                       g->strategy == GS_STRATEGY_TIME_SLICING ||
	                       g->strategy == GS_STRATEGY_MPS);

	snprintf(id, sizeof id, "gpu-%zu-%d", node + 1, g->index);
	rb_printf(&name, "GPU %d, ", g->index);
	rb_puts(&name, g->model->name);
	rb_puts(&name, ": ");
	rb_puts(&name, unused ? "unused" : rp_label(g->strategy));
	if (g->strategy == GS_STRATEGY_MIG && !unused)
		rb_printf(&name, ", %zu instance%s over %d memory slots", g->n_mig,
		          g->n_mig == 1 ? "" : "s", mig_slots(g));
	svg_open(b, "gpu", id, VIEW_W, axis ? AXIS_Y + 6 : BAR_Y + BAR_H + 2, tmp_text(&name));
	if (unused || g->strategy == GS_STRATEGY_DEDICATED)
		draw_whole(b, g, &t1, &t2, &t3);
	else if (g->strategy == GS_STRATEGY_MIG)
		draw_mig(b, g, &t1, &t2, &t3);
	else
		draw_shared(b, g, &t1, &t2, &t3);
	rb_puts(b, "</svg>\n");
	b->failed |= t1.failed | t2.failed | t3.failed | name.failed;
	free(t1.buf);
	free(t2.buf);
	free(t3.buf);
	free(name.buf);
}
