/*
 * advise.c - advice for one workload without a plan: the strategies it may
 * use in order of preference, why, and which are ruled out.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/strategy.h"
#include "scenario/scenario.h"

typedef struct text {
	char *buf;
	size_t len, cap;
	int failed;
} text;

static void put(text *t, const char *fmt, ...) GS_PRINTF(2, 3);
static void put(text *t, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (t->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || gs_grow(&t->buf, &t->cap, t->len + (size_t)n + 1, 1) < 0) {
		t->failed = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/* The smallest base MIG profile of each MIG-capable model that holds one
 * replica, so "use MIG" comes with a size. */
static void mig_sizes(text *t, const gs_catalog *cat, const gs_workload *w)
{
	int any = 0;
	for (size_t i = 0; i < gs_catalog_gpu_count(cat); i++) {
		const gs_gpu *g = gs_catalog_gpu(cat, i);
		const gs_mig_profile *best = NULL;
		int64_t comp = gs_workload_compute_on(w, g);
		for (size_t j = 0; g->mig_slots && j < g->n_mig_profiles; j++) {
			const gs_mig_profile *p = &g->mig_profiles[j];
			/* A whole-GPU profile is no slice: the planner never uses it. */
			if (p->variant || p->compute_slices >= g->mig_compute_slices ||
			    (p->memory_mib << 20) < w->memory_bytes ||
			    (int64_t)p->sm_count * GS_PPM / g->sm_count < comp)
				continue;
			if (!best || p->memory_slices < best->memory_slices ||
			    (p->memory_slices == best->memory_slices &&
			     p->compute_slices < best->compute_slices))
				best = p;
		}
		if (!best)
			continue;
		put(t, "%s%s %s", any ? ", " : " (", g->name, best->name);
		any = 1;
	}
	put(t, "%s", any ? ")" : " (no MIG profile smaller than a whole GPU holds it)");
}

int gs_advise(const gs_catalog *cat, const gs_workload *w, char **out, gs_error *err)
{
	static const char *const kinds[] = { "inference", "batch", "training", "notebook", "ci" };
	const char *no_ts = gs_strategy_ts_rule(w);
	int n = 0;
	text t = { NULL, 0, 0, 0 };

	put(&t, "%s: %s, %lld%% compute, %lld MiB, latency %s, isolation %s\n",
	    w->name ? w->name : "workload", kinds[w->kind], (long long)(w->compute_ppm / 10000),
	    (long long)gs_div_ceil(w->memory_bytes, 1 << 20),
	    w->latency_critical ? "critical" : "tolerant", w->isolation_fault ? "fault" : "none");
	if (w->compute_ppm >= 900000)
		put(&t, "%d. dedicated GPU: it needs %lld%% of a GPU, sharing would gain nothing\n",
		    ++n, (long long)(w->compute_ppm / 10000));
	if (w->isolation_fault) {
		put(&t, "%d. MIG: its own hardware partition isolates memory and faults", ++n);
		mig_sizes(&t, cat, w);
		put(&t, "\n%d. dedicated GPU, where no MIG profile fits or the GPU has no MIG\n", ++n);
		put(&t, "ruled out: time-slicing and MPS (one fault domain for all clients)\n");
	} else if (no_ts) {
		put(&t, "%d. MPS with limits: %s keeps a guaranteed share of threads and memory "
		        "with little overhead\n", ++n, no_ts);
		put(&t, "%d. MIG: a fixed slice with full isolation", ++n);
		mig_sizes(&t, cat, w);
		put(&t, "\n");
		if (w->compute_ppm < 900000)
			put(&t, "%d. dedicated GPU\n", ++n);
		put(&t, "ruled out: time-slicing (%s: context switches and no limits hurt it)\n",
		    no_ts);
	} else {
		put(&t, "%d. time-slicing: %s work shares a GPU with the least setup\n", ++n,
		    w->kind == GS_KIND_NOTEBOOK || w->kind == GS_KIND_CI ? "bursty" : "light");
		put(&t, "%d. MPS with limits: lower overhead than time-slicing, memory capped "
		        "per client, one fault domain\n", ++n);
		put(&t, "%d. MIG: when tenants must not share a GPU", ++n);
		mig_sizes(&t, cat, w);
		put(&t, "\n");
	}
	if (t.failed) {
		free(t.buf);
		return gs_fail_nomem(err);
	}
	*out = t.buf;
	return 0;
}
