/*
 * svg.c - the report's pictures, as inline SVG: a bar chart of the
 * cost per team, and each GPU's partitions. MIG instances are drawn to
 * scale over the GPU's memory slots; time-slicing and MPS shares as
 * segments as wide as each replica's share of compute. Coordinates are
 * integers in a fixed viewBox, so the output is the same everywhere.
 */
#include <stdio.h>
#include <string.h>

#include "plan/strategy.h"
#include "report/html.h"
#include "report/svg.h"

/* CSS scales every picture to the page. */
#define VIEW_W GS_SVG_VIEW_W
/* Average width of a character of 13px text and of bold 13px text, in
 * tenths of a unit: conservative guesses for the system fonts, used to
 * cut labels to fit. */
#define CHAR_W10 78
#define BOLD_W10 84

/* ---- shared -------------------------------------------------------------- */

/* How many characters fit in a box of `width`, with some room. */
static size_t fit_chars(int width, int char_w10)
{
	int room = width - 12;
	return room <= 0 ? 0 : (size_t)(room * 10 / char_w10);
}

/* Text centred in a box of `width` at (cx, y), escaped and cut to fit;
 * nothing when not even two characters fit. */
static void label(gs_buf *b, int cx, int y, int width, const char *cls, const char *text)
{
	size_t max = fit_chars(width, cls && strcmp(cls, "b") == 0 ? BOLD_W10 : CHAR_W10);
	if (!text || !*text || max < 2)
		return;
	gs_buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"%s%s%s>", cx, y,
	              cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	gs_html_esc_max(b, text, max);
	gs_buf_puts(b, "</text>\n");
}

/* The opening of a picture with its accessible name (escaped). */
static void svg_open(gs_buf *b, const char *cls, const char *id, int width, int height,
                     const char *name)
{
	gs_buf_printf(b, "<svg class=\"%s\" viewBox=\"0 0 %d %d\" role=\"img\" "
	                 "aria-labelledby=\"%s\">\n<title id=\"%s\">",
	              cls, width, height, id, id);
	gs_html_esc(b, name);
	gs_buf_puts(b, "</title>\n");
}

/* Scratch buffers for a label's plain text (escaped when drawn), emptied
 * but kept for the next label. */
static void tmp_reset(gs_buf *t)
{
	t->len = 0;
	if (t->data)
		t->data[0] = '\0';
}

static void tmp_reset3(gs_buf *t1, gs_buf *t2, gs_buf *t3)
{
	tmp_reset(t1);
	tmp_reset(t2);
	tmp_reset(t3);
}

/* "name/replica" */
static void replica_name(gs_buf *t, const gs_assignment *a)
{
	gs_buf_puts(t, a->workload->name);
	gs_buf_printf(t, "/%d", a->replica);
}

/* "name/0 12%, name/1 12%" (plain, escaped by the caller) */
static void replica_list(gs_buf *t, const gs_assignment *a, size_t n, int shares)
{
	for (size_t i = 0; i < n; i++) {
		gs_buf_puts(t, i ? ", " : "");
		replica_name(t, &a[i]);
		if (shares) {
			gs_buf_puts(t, " ");
			gs_html_ppm(t, a[i].compute_ppm);
		}
	}
}

/* ---- cost per team ------------------------------------------------------- */

/* Each team a row: its name and cost on one line, its bar below across the
 * whole width: what its replicas hold, then, dashed, its idle (what nobody
 * holds on its nodes). A last row shows the idle of all teams. Narrow, so
 * that the text stays legible on a phone. */
#define TEAM_VIEW_W 400
#define TEAM_ROW 46
#define TEAM_MONEY_W 150 /* room kept for the cost beside the name */

static int bar_len(gs_micros v, gs_micros max)
{
	return max > 0 ? (int)(v * TEAM_VIEW_W / max) : 0;
}

static void team_row(gs_buf *b, const char *name, gs_micros cost, gs_micros idle, int y,
                     gs_micros max, gs_buf *t, int total)
{
	int held = bar_len(cost, max), all = bar_len(cost + idle, max);

	tmp_reset(t);
	gs_buf_puts(t, name);
	gs_buf_puts(t, ": ");
	if (!total) {
		gs_html_money(t, cost);
		gs_buf_puts(t, " an hour for what its replicas hold, ");
	}
	gs_html_money(t, idle);
	gs_buf_puts(t, total ? " an hour that no replica holds" : " idle");
	gs_buf_puts(b, "<g><title>");
	gs_html_esc(b, gs_buf_str(t));
	gs_buf_printf(b, "</title>\n<text x=\"0\" y=\"%d\">", y + 14);
	gs_html_esc_max(b, name, fit_chars(TEAM_VIEW_W - TEAM_MONEY_W, CHAR_W10));
	gs_buf_printf(b, "</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", TEAM_VIEW_W,
	              y + 14);
	if (!total) {
		gs_html_money(b, cost);
		gs_buf_puts(b, " + ");
	}
	gs_html_money(b, idle);
	gs_buf_puts(b, " idle");
	gs_buf_printf(b, "</text>\n<rect class=\"bar\" x=\"0\" y=\"%d\" width=\"%d\" "
	                 "height=\"16\" rx=\"2\"/>\n", y + 21, held);
	if (all > held)
		gs_buf_printf(b, "<rect class=\"idle\" x=\"%d\" y=\"%d\" width=\"%d\" "
		                 "height=\"16\"/>\n", held, y + 21, all - held);
	gs_buf_puts(b, "</g>\n");
}

void gs_svg_teams(gs_buf *b, const gs_plan *p)
{
	size_t n = gs_plan_team_count(p);
	int height = (int)(n + 1) * TEAM_ROW;
	gs_micros max = 0, idle = gs_plan_summary_get(p)->idle_per_hour;
	gs_buf t = GS_BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const gs_plan_team *tm = gs_plan_team_at(p, i);
		if (tm->cost_per_hour + tm->idle_per_hour > max)
			max = tm->cost_per_hour + tm->idle_per_hour;
	}
	max = idle > max ? idle : max;
	svg_open(b, "teams", "teams-t", TEAM_VIEW_W, height,
	         "Cost per hour of each team after the plan, and the idle capacity of its "
	         "nodes");
	for (size_t i = 0; i < n; i++) {
		const gs_plan_team *tm = gs_plan_team_at(p, i);
		team_row(b, tm->team, tm->cost_per_hour, tm->idle_per_hour, (int)i * TEAM_ROW, max,
		         &t, 0);
	}
	team_row(b, "all teams", 0, idle, (int)n * TEAM_ROW, max, &t, 1);
	gs_buf_puts(b, "</svg>\n");
	b->failed |= t.failed;
	gs_buf_release(&t);
}

/* ---- GPUs ---------------------------------------------------------------- */

#define X0 GS_SVG_GPU_X
#define GPU_W GS_SVG_GPU_W
#define BAR_Y 2
#define BAR_H 56
#define LINE1 (BAR_Y + 24)
#define LINE2 (BAR_Y + 43)
#define AXIS_Y (BAR_Y + BAR_H + 16)

int gs_svg_gpu_unused(const gs_plan_gpu *g) { return !g->n_assignments && !g->n_mig; }

/* One drawn box: its class, its data-mig value (or NULL) and two lines. */
typedef struct box {
	const char *cls;
	const char *mig;
	const char *title, *line1, *line2;
} box;

static void draw_box(gs_buf *b, int x, int w, const box *bx)
{
	if (w < 1) /* a share too small to see still gets its title */
		w = 1;
	gs_buf_puts(b, "<g><title>");
	gs_html_esc(b, bx->title);
	gs_buf_printf(b, "</title>\n<rect class=\"%s\"", bx->cls);
	if (bx->mig) {
		gs_buf_puts(b, " data-mig=\"");
		gs_html_esc(b, bx->mig);
		gs_buf_puts(b, "\"");
	}
	gs_buf_printf(b, " x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>\n", x, BAR_Y,
	              w, BAR_H);
	label(b, x + w / 2, bx->line2 ? LINE1 : (LINE1 + LINE2) / 2, w, "b", bx->line1);
	label(b, x + w / 2, LINE2, w, NULL, bx->line2);
	gs_buf_puts(b, "</g>\n");
}

/* Shares laid end to end: x of the boundary after `ppm` of `total`. */
static int share_x(int64_t ppm, int64_t total)
{
	return X0 + (int)(ppm * GPU_W / total);
}

static void shares_axis(gs_buf *b, int64_t total)
{
	static const char *anchor[] = { "start", "middle", "middle", "middle", "end" };
	for (int k = 0; k <= 4; k++) {
		int64_t ppm = total * k / 4;
		gs_buf_printf(b, "<text class=\"dim\" x=\"%d\" y=\"%d\" text-anchor=\"%s\">",
		              share_x(ppm, total), AXIS_Y, anchor[k]);
		gs_html_ppm(b, ppm);
		gs_buf_puts(b, k == 4 ? " of compute</text>\n" : "</text>\n");
	}
}

/* One replica's share: "name/0" over "12%" when the name fits, else
 * "name" over "/0 12%", or over "12%" in a narrow box. */
static void draw_share(gs_buf *b, gs_strategy s, const gs_assignment *a, int x, int w,
                       gs_buf *t1, gs_buf *t2, gs_buf *t3)
{
	box bx = { s == GS_STRATEGY_MPS        ? "seg s-mps"
	           : s == GS_STRATEGY_FRACTION ? "seg s-frac"
	                                       : "seg s-ts",
		   NULL, NULL, NULL, NULL };

	tmp_reset3(t1, t2, t3);
	replica_name(t1, a);
	if (gs_html_chars(gs_buf_str(t1)) > fit_chars(w, BOLD_W10)) {
		tmp_reset(t1);
		gs_buf_puts(t1, a->workload->name);
		if (fit_chars(w, CHAR_W10) >= 7)
			gs_buf_printf(t2, "/%d ", a->replica);
	}
	gs_html_ppm(t2, a->compute_ppm);
	if (a->thread_percent)
		gs_buf_printf(t2, ", %d%% threads", a->thread_percent);
	replica_list(t3, a, 1, 1);
	if (a->thread_percent)
		gs_buf_printf(t3, " (%d%% threads, %lld MiB)", a->thread_percent,
		              (long long)a->memory_limit_mib);
	bx.title = gs_buf_str(t3);
	bx.line1 = gs_buf_str(t1);
	bx.line2 = gs_buf_str(t2);
	draw_box(b, x, w, &bx);
}

static void draw_shared(gs_buf *b, const gs_plan_gpu *g, gs_buf *t1, gs_buf *t2, gs_buf *t3)
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
		gs_html_ppm(t2, total - at);
		gs_buf_puts(t3, "free: ");
		gs_html_ppm(t3, total - at);
		gs_buf_puts(t3, " of compute");
		bx.title = gs_buf_str(t3);
		bx.line2 = gs_buf_str(t2);
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

static void draw_mig(gs_buf *b, const gs_plan_gpu *g, gs_buf *t1, gs_buf *t2, gs_buf *t3)
{
	int slots = mig_slots(g);

	for (int k = 0; k < slots; k++) {
		int x = slot_x(k, slots), w = slot_x(k + 1, slots) - x;
		gs_buf_printf(b, "<rect class=\"slot\" x=\"%d\" y=\"%d\" width=\"%d\" "
		                 "height=\"%d\"/>\n<text class=\"dim\" x=\"%d\" y=\"%d\" "
		                 "text-anchor=\"middle\">%d</text>\n",
		              x, BAR_Y, w, BAR_H, x + w / 2, AXIS_Y, k);
	}
	for (size_t m = 0; m < g->n_mig; m++) {
		const gs_plan_mig *mi = &g->mig[m];
		int end = mi->start + mi->profile->memory_slices;
		int x = slot_x(mi->start, slots), w = slot_x(end, slots) - x;
		box bx = { "seg s-mig", mi->profile->name, NULL, NULL, NULL };

		tmp_reset3(t1, t2, t3);
		gs_buf_puts(t1, mi->profile->name);
		if (mi->strategy != GS_STRATEGY_DEDICATED)
			gs_buf_printf(t1, " \xC2\xB7 %s \xC3\x97%d",
			              gs_strategy_info_get(mi->strategy)->label, mi->replicas);
		replica_list(t2, mi->assignments, mi->n_assignments, 0);
		if (!mi->n_assignments)
			gs_buf_puts(t2, "empty");
		gs_buf_printf(t3, "%s, memory slots %d to %d: ", mi->profile->name, mi->start,
		              end - 1);
		replica_list(t3, mi->assignments, mi->n_assignments, 1);
		bx.title = gs_buf_str(t3);
		bx.line1 = gs_buf_str(t1);
		bx.line2 = gs_buf_str(t2);
		/* Inset a little so neighbours stay apart; still to scale. */
		draw_box(b, x + 2, w - 4, &bx);
	}
}

static void draw_whole(gs_buf *b, const gs_plan_gpu *g, gs_buf *t1, gs_buf *t2, gs_buf *t3)
{
	box bx = { "seg unused", NULL, "unused", "unused", NULL };

	if (!gs_svg_gpu_unused(g)) {
		tmp_reset3(t1, t2, t3);
		replica_list(t1, g->assignments, g->n_assignments, 0);
		if (g->n_assignments == 1) {
			gs_html_ppm(t2, g->assignments[0].compute_ppm);
			gs_buf_puts(t2, " of compute");
		}
		gs_buf_puts(t3, "dedicated: ");
		replica_list(t3, g->assignments, g->n_assignments, 1);
		bx.cls = "seg s-ded";
		bx.title = gs_buf_str(t3);
		bx.line1 = gs_buf_str(t1);
		bx.line2 = g->n_assignments == 1 ? gs_buf_str(t2) : NULL;
	}
	draw_box(b, X0, GPU_W, &bx);
}

void gs_svg_gpu(gs_buf *b, const gs_plan_gpu *g, size_t node)
{
	gs_buf t1 = GS_BUF_INIT, t2 = GS_BUF_INIT, t3 = GS_BUF_INIT, name = GS_BUF_INIT;
	char id[64];
	int unused = gs_svg_gpu_unused(g);
	int axis = !unused && (g->strategy == GS_STRATEGY_MIG ||
	                       g->strategy == GS_STRATEGY_TIME_SLICING ||
	                       g->strategy == GS_STRATEGY_MPS ||
	                       g->strategy == GS_STRATEGY_FRACTION);

	snprintf(id, sizeof id, "gpu-%zu-%d", node + 1, g->index);
	gs_buf_printf(&name, "GPU %d, ", g->index);
	gs_buf_puts(&name, g->model->name);
	gs_buf_puts(&name, ": ");
	gs_buf_puts(&name, unused ? "unused" : gs_strategy_info_get(g->strategy)->label);
	if (g->strategy == GS_STRATEGY_MIG && !unused)
		gs_buf_printf(&name, ", %zu instance%s over %d memory slots", g->n_mig,
		              g->n_mig == 1 ? "" : "s", mig_slots(g));
	svg_open(b, "gpu", id, VIEW_W, axis ? AXIS_Y + 6 : BAR_Y + BAR_H + 2, gs_buf_str(&name));
	if (unused || g->strategy == GS_STRATEGY_DEDICATED)
		draw_whole(b, g, &t1, &t2, &t3);
	else if (g->strategy == GS_STRATEGY_MIG)
		draw_mig(b, g, &t1, &t2, &t3);
	else
		draw_shared(b, g, &t1, &t2, &t3);
	gs_buf_puts(b, "</svg>\n");
	b->failed |= t1.failed | t2.failed | t3.failed | name.failed;
	gs_buf_release(&t1);
	gs_buf_release(&t2);
	gs_buf_release(&t3);
	gs_buf_release(&name);
}
