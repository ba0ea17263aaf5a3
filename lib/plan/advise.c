/*
 * advise.c - advice for one workload without a plan: the strategies it may
 * use in order of preference, why, and which are ruled out. Every reason
 * is the planner's own rule answering about this workload: the study's
 * time-slicing rule (gs_strategy_ts_check), targetUtilization's cap on a
 * shared GPU (at its default, as a workload file without it gets), and
 * the MIG profile the packer would choose (gs_mig_rule).
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "plan/pack.h"
#include "plan/strategy.h"
#include "scenario/scenario.h"

/* The profile the packer would give one replica on each MIG-capable model
 * (the smallest base profile below the whole GPU that holds it), so "use
 * MIG" comes with a size: " (A30 1g.6gb, ...)"; 0 when none holds it. */
static int mig_sizes(gs_buf *t, const gs_catalog *cat, const gs_workload *w)
{
	gs_planner pl;
	int any = 0;
	memset(&pl, 0, sizeof pl);
	pl.target = GS_TARGET_DEFAULT_PPM;
	for (size_t i = 0; i < gs_catalog_gpu_count(cat); i++) {
		const gs_gpu *g = gs_catalog_gpu_at(cat, i);
		const gs_mig_profile *best;
		gs_group one = { 0 };
		one.n = 1;
		one.mem = w->memory_bytes;
		one.comp = gs_workload_compute_on(w, g);
		if (gs_mig_rule(&pl, g, &one, &best, NULL) != GS_RULE_OK)
			continue;
		gs_buf_printf(t, "%s%s %s", any ? ", " : " (", g->name, best->name);
		any = 1;
	}
	if (any)
		gs_buf_puts(t, ")");
	return any;
}

/* Advice in order, and what is ruled out. */
typedef struct advice {
	gs_buf *t;
	int n;
	gs_buf out;
} advice;

static void item(advice *a, const char *text)
{
	gs_buf_printf(a->t, "%d. %s\n", ++a->n, text);
}

static void ruled(advice *a, const char *what)
{
	gs_buf_printf(&a->out, "%s%s", a->out.len ? "; " : "ruled out: ", what);
}

/* MIG with its sizes, or ruled out when no slice holds it. */
static void mig_item(advice *a, const gs_catalog *cat, const gs_workload *w,
                     const char *why)
{
	gs_buf sizes = GS_BUF_INIT;
	if (mig_sizes(&sizes, cat, w)) {
		gs_buf_printf(a->t, "%d. MIG: %s%s\n", ++a->n, why, gs_buf_str(&sizes));
	} else {
		ruled(a, "MIG (no profile smaller than a whole GPU holds it)");
	}
	a->t->failed |= sizes.failed;
	gs_buf_release(&sizes);
}

/* "latency-critical inference at 60% >= 50%", "notebook". */
static void ts_text(char *buf, size_t n, const gs_ts_verdict *v)
{
	if (v->threshold_ppm)
		snprintf(buf, n, "%s at %lld%% %s %lld%%", v->subject,
		         (long long)(v->share_ppm / 10000), v->rule ? ">=" : "<",
		         (long long)(v->threshold_ppm / 10000));
	else
		snprintf(buf, n, "%s", v->subject);
}

/* ---- fractions ------------------------------------------------------------ */

typedef struct fracs {
	const gs_backend *b;
	size_t n;
} fracs;

static int listed(const fracs *f, gs_backend b)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->b[i] == b)
			return 1;
	return 0;
}

/* What backend b enforces for w, as an item of advice. */
static void frac_item(advice *a, const gs_workload *w, gs_backend b)
{
	long long mib = (long long)gs_div_ceil(w->memory_bytes, 1 << 20);
	int pct = gs_fraction_percent(w->compute_ppm);
	char line[256];
	if (b == GS_BACKEND_HAMI)
		snprintf(line, sizeof line, "fraction (HAMi): a hard cap of %lld MiB and %d%% of "
		         "the SMs; replicas of other sizes share its GPU; one fault domain", mib,
		         pct);
	else if (b == GS_BACKEND_DRA)
		snprintf(line, sizeof line, "fraction (DRA capacity): its claim reserves %lld MiB "
		         "of a shared GPU; compute time-sliced without a limit; one fault domain",
		         mib);
	else
		snprintf(line, sizeof line, "fraction (MPS limits): %lld MiB and %d%% of the "
		         "threads of its own, beside clients of other sizes; one fault domain",
		         mib, pct);
	item(a, line);
}

/* The fractions the cluster has, in its order; under the study's rule
 * only MPS's, since HAMi and DRA time-slice compute. */
static void frac_items(advice *a, const fracs *f, const gs_workload *w, const char *ts)
{
	char line[256];
	for (size_t i = 0; i < f->n; i++)
		if (!ts || f->b[i] == GS_BACKEND_MPS)
			frac_item(a, w, f->b[i]);
	if (ts && (listed(f, GS_BACKEND_HAMI) || listed(f, GS_BACKEND_DRA))) {
		snprintf(line, sizeof line, "fractions by %s (they time-slice compute: %s)",
		         listed(f, GS_BACKEND_HAMI) && listed(f, GS_BACKEND_DRA) ? "HAMi and DRA"
		         : listed(f, GS_BACKEND_HAMI)                              ? "HAMi"
		                                                                 : "DRA",
		         ts);
		ruled(a, line);
	}
}

int gs_advise(const gs_catalog *cat, const gs_workload *w, char **out, gs_error *err)
{
	return gs_advise_fractions(cat, w, NULL, 0, out, err);
}

int gs_advise_fractions(const gs_catalog *cat, const gs_workload *w, const gs_backend *b,
                        size_t n, char **out, gs_error *err)
{
	gs_ts_verdict v = gs_strategy_ts_check(w);
	gs_buf t = GS_BUF_INIT;
	advice a = { &t, 0, GS_BUF_INIT };
	fracs f = { b, n };
	char ts[128], line[256];

	ts_text(ts, sizeof ts, &v);
	gs_buf_printf(&t, "%s: %s, %lld%% compute, %lld MiB, latency %s, isolation %s\n",
	              w->name ? w->name : "workload", gs_kind_name(w->kind),
	              (long long)(w->compute_ppm / 10000),
	              (long long)gs_div_ceil(w->memory_bytes, 1 << 20),
	              w->latency_critical ? "critical" : "tolerant",
	              w->isolation_fault ? "fault" : "none");
	if (w->isolation_fault) {
		/* Only a partition of its own, or a GPU of its own. */
		mig_item(&a, cat, w, "its own hardware partition isolates memory and faults");
		item(&a, "dedicated GPU, where no MIG profile fits or the GPU has no MIG");
		ruled(&a, f.n ? "time-slicing, MPS and fractions (one fault domain for all clients)"
		              : "time-slicing and MPS (one fault domain for all clients)");
	} else if (w->compute_ppm >= GS_TARGET_DEFAULT_PPM) {
		/* No GPU it shares may hold it. */
		snprintf(line, sizeof line, "dedicated GPU: its %lld%% is at or over "
		         "targetUtilization (%d%% unless the file sets it), the most a shared "
		         "GPU may run", (long long)(w->compute_ppm / 10000),
		         GS_TARGET_DEFAULT_PPM / 10000);
		item(&a, line);
		mig_item(&a, cat, w, "a slice of its own");
		ruled(&a, f.n ? "time-slicing, MPS and fractions (they share a GPU at "
		                "targetUtilization)"
		              : "time-slicing and MPS (they share a GPU at targetUtilization)");
	} else if (v.rule) {
		frac_items(&a, &f, w, ts);
		item(&a, "MPS with limits: keeps a guaranteed share of threads and memory with "
		         "little overhead");
		mig_item(&a, cat, w, "a fixed slice with full isolation");
		item(&a, "dedicated GPU");
		snprintf(line, sizeof line, "time-slicing (%s: context switches and no limits "
		         "hurt it)", ts);
		ruled(&a, line);
	} else {
		/* A cap of its own beats time-slicing's headroom and MPS's
		 * equal split wherever the cluster has one. */
		frac_items(&a, &f, w, NULL);
		snprintf(line, sizeof line, "time-slicing: shares a GPU with the least setup; the "
		         "study's rules allow it for %s", ts);
		item(&a, line);
		item(&a, "MPS with limits: lower overhead than time-slicing, memory capped per "
		         "client, one fault domain");
		mig_item(&a, cat, w, "when tenants must not share a GPU");
	}
	if (a.out.len)
		gs_buf_printf(&t, "%s\n", gs_buf_str(&a.out));
	t.failed |= a.out.failed;
	gs_buf_release(&a.out);
	return gs_buf_detach(&t, out, err);
}
