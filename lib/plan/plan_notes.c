/*
 * plan_notes.c - what the plan did to each workload beside choosing its
 * strategy (advice.c says why that): where a workload runs on another GPU
 * model than the one it was measured on, its compute share was converted,
 * and a note names the share before and after, what bounds the workload
 * and the two figures of that kind the ratio came from. The note is made
 * from gs_workload_ratio, the function the conversion itself uses, so the
 * two cannot disagree.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "scenario/scenario.h"

/* A workload's replicas land on few models (one, unless the plan without
 * sharing moved some); more than this are noted as the first ones. */
#define NOTE_MODELS 8

typedef struct landed {
	const gs_gpu *model[NOTE_MODELS];
	int n;
} landed;

/* Notes already written, by what their text depends on: the model
 * measured on and the one run on, the share and what bounds it. Most of a
 * large fleet's workloads repeat a few hundred of them; writing each anew
 * was 1.5 % of a 100,000-replica plan's first thread. Direct-mapped: a
 * slot holds the last note hashed to it. */
#define NOTE_MEMO 4096

typedef struct note_memo {
	const gs_gpu *from, *to;
	int64_t ppm;
	int bound;
	const char *text;
} note_memo;

typedef struct windex {
	const gs_workload *w;
	size_t i;
} windex;

static int by_addr(const void *a, const void *b)
{
	const gs_workload *x = ((const windex *)a)->w, *y = ((const windex *)b)->w;
	return x < y ? -1 : x > y;
}

static void add_model(landed *l, const gs_gpu *g)
{
	for (int i = 0; i < l->n; i++)
		if (l->model[i] == g)
			return;
	if (l->n < NOTE_MODELS)
		l->model[l->n++] = g;
}

static void mark(landed *ls, const windex *ix, size_t n, const gs_assignment *a,
                 size_t na, const gs_gpu *g)
{
	for (size_t k = 0; k < na; k++) {
		windex key = { a[k].workload, 0 };
		const windex *hit = bsearch(&key, ix, n, sizeof *ix, by_addr);
		if (hit)
			add_model(&ls[hit->i], g);
	}
}

/* The models each workload's replicas run on, in node order. */
static void scan(const gs_plan *p, landed *ls, windex *ix)
{
	for (size_t i = 0; i < p->n_wls; i++) {
		ix[i].w = p->wls[i].workload;
		ix[i].i = i;
	}
	qsort(ix, p->n_wls, sizeof *ix, by_addr);
	for (size_t i = 0; i < p->n_nodes; i++)
		for (size_t g = 0; g < p->nodes[i].n_gpus; g++) {
			const gs_plan_gpu *pg = &p->nodes[i].gpus[g];
			mark(ls, ix, p->n_wls, pg->assignments, pg->n_assignments, pg->model);
			for (size_t m = 0; m < pg->n_mig; m++)
				mark(ls, ix, p->n_wls, pg->mig[m].assignments,
				     pg->mig[m].n_assignments, pg->model);
		}
}

/* A share to a tenth of a percent: "20%", "26.8%". */
static void share(char *buf, size_t n, int64_t ppm)
{
	int64_t t = (ppm + 500) / 1000;
	if (t % 10)
		snprintf(buf, n, "%lld.%lld%%", (long long)(t / 10), (long long)(t % 10));
	else
		snprintf(buf, n, "%lld%%", (long long)(t / 10));
}

/* Milli-TFLOPS as the profiles write them: "121", "503.8". */
static void tflops(char *buf, size_t n, int64_t m)
{
	if (m % 1000)
		snprintf(buf, n, "%lld.%lld", (long long)(m / 1000), (long long)(m % 1000 / 100));
	else
		snprintf(buf, n, "%lld", (long long)(m / 1000));
}

/* "memory-bandwidth-bound, 600 -> 300 GB/s", or the FP16 figures it fell
 * back to and why. */
static void ratio_text(char *buf, size_t n, const gs_workload *w, const gs_gpu *g)
{
	const gs_gpu *m = w->measured_on;
	char a[32], b[32];
	int64_t from, to;
	if (gs_workload_ratio(w, g, &from, &to)) {
		snprintf(buf, n, "memory-bandwidth-bound, %lld -> %lld GB/s", (long long)from,
		         (long long)to);
		return;
	}
	tflops(a, sizeof a, from);
	tflops(b, sizeof b, to);
	if (w->bound == GS_BOUND_MEMORY_BANDWIDTH)
		snprintf(buf, n, "memory-bandwidth-bound, but the profile of %s gives no memory "
		         "bandwidth, so by dense FP16 TFLOPS, %s -> %s",
		         m->memory_bandwidth_gbs ? g->name : m->name, a, b);
	else
		snprintf(buf, n, "compute-bound, %s -> %s dense FP16 TFLOPS", a, b);
}

static const char *conversion_note(gs_plan *p, const gs_workload *w, const gs_gpu *g,
                                   note_memo *memo)
{
	char before[32], after[32], why[256], text[512];
	uint64_t h = (uint64_t)(uintptr_t)w->measured_on * 0x9e3779b97f4a7c15u ^
	             (uint64_t)(uintptr_t)g * 0xc2b2ae3d27d4eb4fu ^
	             (uint64_t)w->compute_ppm * 0x165667b19e3779f9u ^ (uint64_t)w->bound;
	note_memo *slot = &memo[(h >> 40) % NOTE_MEMO];
	if (slot->text && slot->from == w->measured_on && slot->to == g &&
	    slot->ppm == w->compute_ppm && slot->bound == (int)w->bound)
		return slot->text;
	share(before, sizeof before, w->compute_ppm);
	share(after, sizeof after, gs_workload_compute_on(w, g));
	ratio_text(why, sizeof why, w, g);
	/* Equal figures (T4G is taken to equal T4) still say what was used. */
	snprintf(text, sizeof text, "measured on %s; on %s its %s %s %s: %s",
	         w->measured_on->name, g->name, before,
	         strcmp(before, after) ? "becomes" : "stays", after, why);
	*slot = (note_memo){ w->measured_on, g, w->compute_ppm, (int)w->bound,
		             gs_plan_strdup(p, text) };
	return slot->text;
}

/* Workload i's notes: one per model it runs on that it was not measured on. */
static int notes_of(gs_plan *p, gs_plan_workload *pw, const landed *l, note_memo *memo)
{
	const gs_workload *w = pw->workload;
	const char **v;
	size_t n = 0;
	if (!w->measured_on)
		return 0;
	if (!(v = gs_plan_alloc(p, (size_t)l->n, sizeof *v)))
		return -1;
	for (int k = 0; k < l->n; k++) {
		if (l->model[k] == w->measured_on)
			continue;
		if (!(v[n++] = conversion_note(p, w, l->model[k], memo)))
			return -1;
	}
	pw->notes = v;
	pw->n_notes = n;
	return 0;
}

int gs_plan_notes(gs_plan *p)
{
	landed *ls = calloc(p->n_wls ? p->n_wls : 1, sizeof *ls);
	windex *ix = malloc((p->n_wls ? p->n_wls : 1) * sizeof *ix);
	note_memo *memo = calloc(NOTE_MEMO, sizeof *memo);
	int rc = ls && ix && memo ? 0 : -1;
	if (rc == 0)
		scan(p, ls, ix);
	for (size_t i = 0; rc == 0 && i < p->n_wls; i++)
		rc = notes_of(p, &p->wls[i], &ls[i], memo);
	free(memo);
	free(ls);
	free(ix);
	return rc;
}
