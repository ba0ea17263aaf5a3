/*
 * advise.c - advice for one workload without a plan: the strategies it may
 * use in order of preference, why, and which are ruled out.
 */
#include "base/buf.h"
#include "plan/strategy.h"
#include "scenario/scenario.h"

/* The smallest base MIG profile of each MIG-capable model that holds one
 * replica, so "use MIG" comes with a size. */
static void mig_sizes(gs_buf *t, const gs_catalog *cat, const gs_workload *w)
{
	int any = 0;
	for (size_t i = 0; i < gs_catalog_gpu_count(cat); i++) {
		const gs_gpu *g = gs_catalog_gpu_at(cat, i);
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
		gs_buf_printf(t, "%s%s %s", any ? ", " : " (", g->name, best->name);
		any = 1;
	}
	gs_buf_puts(t, any ? ")" : " (no MIG profile smaller than a whole GPU holds it)");
}

/* Fault isolation: only a partition of its own, or a GPU of its own. */
static void advise_isolated(gs_buf *t, const gs_catalog *cat, const gs_workload *w,
                            int *n)
{
	gs_buf_printf(t, "%d. MIG: its own hardware partition isolates memory and faults",
	              ++*n);
	mig_sizes(t, cat, w);
	gs_buf_printf(t, "\n%d. dedicated GPU, where no MIG profile fits or the GPU has "
	                 "no MIG\n", ++*n);
	gs_buf_puts(t, "ruled out: time-slicing and MPS (one fault domain for all clients)\n");
}

/* The study's rule rules time-slicing out (no_ts says which rule). */
static void advise_no_ts(gs_buf *t, const gs_catalog *cat, const gs_workload *w,
                         const char *no_ts, int *n)
{
	gs_buf_printf(t, "%d. MPS with limits: %s keeps a guaranteed share of threads and "
	                 "memory with little overhead\n", ++*n, no_ts);
	gs_buf_printf(t, "%d. MIG: a fixed slice with full isolation", ++*n);
	mig_sizes(t, cat, w);
	gs_buf_puts(t, "\n");
	if (w->compute_ppm < 900000)
		gs_buf_printf(t, "%d. dedicated GPU\n", ++*n);
	gs_buf_printf(t, "ruled out: time-slicing (%s: context switches and no limits "
	                 "hurt it)\n", no_ts);
}

static void advise_shared(gs_buf *t, const gs_catalog *cat, const gs_workload *w,
                          int *n)
{
	gs_buf_printf(t, "%d. time-slicing: %s work shares a GPU with the least setup\n",
	              ++*n,
	              w->kind == GS_KIND_NOTEBOOK || w->kind == GS_KIND_CI ? "bursty"
	                                                                   : "light");
	gs_buf_printf(t, "%d. MPS with limits: lower overhead than time-slicing, memory "
	                 "capped per client, one fault domain\n", ++*n);
	gs_buf_printf(t, "%d. MIG: when tenants must not share a GPU", ++*n);
	mig_sizes(t, cat, w);
	gs_buf_puts(t, "\n");
}

int gs_advise(const gs_catalog *cat, const gs_workload *w, char **out, gs_error *err)
{
	const char *no_ts = gs_strategy_ts_rule(w);
	gs_buf t = GS_BUF_INIT;
	int n = 0;

	gs_buf_printf(&t, "%s: %s, %lld%% compute, %lld MiB, latency %s, isolation %s\n",
	              w->name ? w->name : "workload", gs_kind_name(w->kind),
	              (long long)(w->compute_ppm / 10000),
	              (long long)gs_div_ceil(w->memory_bytes, 1 << 20),
	              w->latency_critical ? "critical" : "tolerant",
	              w->isolation_fault ? "fault" : "none");
	if (w->compute_ppm >= 900000)
		gs_buf_printf(&t, "%d. dedicated GPU: it needs %lld%% of a GPU, sharing would "
		                  "gain nothing\n", ++n, (long long)(w->compute_ppm / 10000));
	if (w->isolation_fault)
		advise_isolated(&t, cat, w, &n);
	else if (no_ts)
		advise_no_ts(&t, cat, w, no_ts, &n);
	else
		advise_shared(&t, cat, w, &n);
	return gs_buf_detach(&t, out, err);
}
