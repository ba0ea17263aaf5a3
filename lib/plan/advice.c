/*
 * advice.c - why each workload of a plan gets its strategy, naming the
 * alternatives ruled out, and the plan's warnings (advise.c advises on one
 * workload alone). The rules follow the benchmark study in the seeds
 * (KubeCon NA 2024, "Which GPU Sharing Strategy Is Right for You?").
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "plan/strategy.h"
#include "scenario/scenario.h"

/* Where a workload's replicas landed: per strategy, the first place, so
 * the text describes the strategy it names (a workload split between MIG
 * and a whole GPU must not print the GPU's details under "MIG"). */
typedef struct seen {
	const gs_gpu *model[GS_STRATEGY_COUNT];
	const gs_mig_profile *profile[GS_STRATEGY_COUNT];
	int k[GS_STRATEGY_COUNT];
	int counts[GS_STRATEGY_COUNT];
} seen;

static void note(seen *sn, gs_strategy st, const gs_gpu *g,
                 const gs_mig_profile *prof, int k)
{
	if (sn->counts[st]++)
		return;
	sn->model[st] = g;
	sn->profile[st] = prof;
	sn->k[st] = k;
}

typedef struct windex {
	const gs_workload *w;
	size_t i;
} windex;

static int cmp_addr(const void *a, const void *b)
{
	const gs_workload *x = ((const windex *)a)->w, *y = ((const windex *)b)->w;
	return x < y ? -1 : x > y;
}

/* Assignments point at workloads; a sorted index maps them back. */
static size_t index_of(const windex *v, size_t n, const gs_workload *w)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid].w < w)
			lo = mid + 1;
		else
			hi = mid;
	}
	return v[lo].i;
}

/* Walks every assignment once, noting per workload where it landed. */
static int scan(const gs_plan *p, seen *sn, size_t nw)
{
	windex *v = malloc((nw ? nw : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < nw; i++) {
		v[i].w = gs_scenario_workload_at(p->s, i);
		v[i].i = i;
	}
	qsort(v, nw, sizeof *v, cmp_addr);
	for (size_t n = 0; n < p->n_nodes; n++)
		for (size_t g = 0; g < p->nodes[n].n_gpus; g++) {
			const gs_plan_gpu *pg = &p->nodes[n].gpus[g];
			for (size_t a = 0; a < pg->n_assignments; a++)
				note(&sn[index_of(v, nw, pg->assignments[a].workload)],
				     pg->strategy, pg->model, NULL, pg->replicas);
			for (size_t m = 0; m < pg->n_mig; m++)
				for (size_t a = 0; a < pg->mig[m].n_assignments; a++) {
					const gs_plan_mig *mi = &pg->mig[m];
					note(&sn[index_of(v, nw, mi->assignments[a].workload)],
					     GS_STRATEGY_MIG, pg->model, mi->profile, mi->replicas);
				}
		}
	free(v);
	return 0;
}

/* Why time-slicing is out for w, or NULL: its isolation, then the study's
 * rules. */
static const char *ts_ruled_out(const gs_workload *w)
{
	if (w->isolation_fault)
		return "no fault isolation";
	return gs_strategy_ts_rule(w);
}

static void share_text(const gs_workload *w, const gs_gpu *g, char *buf, size_t n)
{
	int64_t c = gs_workload_compute_on(w, g) + 5000; /* rounded, as elsewhere */
	int64_t mib = gs_div_ceil(w->memory_bytes, 1 << 20);
	snprintf(buf, n, "%lld%% compute, %lld.%02lld GiB", (long long)(c / 10000),
	         (long long)(mib / 1024), (long long)(mib % 1024 * 100 / 1024));
}

static int add(char *buf, size_t n, size_t *o, const char *fmt, ...) GS_PRINTF(4, 5);
static int add(char *buf, size_t n, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int k;
	if (*o >= n)
		return 0;
	va_start(ap, fmt);
	k = vsnprintf(buf + *o, n - *o, fmt, ap);
	va_end(ap);
	if (k > 0)
		*o += (size_t)k;
	return 0;
}

static const char *kind_text(gs_kind k)
{
	static const char *const t[] = { "inference", "batch job", "training job", "notebook",
		                             "CI job" };
	return t[k];
}

static void chosen_text(const gs_workload *w, const seen *sn, gs_strategy st,
                        char *buf, size_t n, size_t *o)
{
	char share[64];
	const gs_gpu *g = sn->model[st];
	share_text(w, g, share, sizeof share);
	switch (st) {
	case GS_STRATEGY_TIME_SLICING:
		add(buf, n, o, "time-slicing on %s: %s %s (%s) shares a GPU at the least cost",
		    g->name, w->latency_critical ? "latency-critical" : "light",
		    kind_text(w->kind), share);
		break;
	case GS_STRATEGY_MPS:
		add(buf, n, o, "MPS with limits on %s, %d clients: %s (%s) keeps its share of "
		               "threads and memory", g->name, sn->k[st],
		    ts_ruled_out(w) ? ts_ruled_out(w) : gs_kind_name(w->kind), share);
		break;
	case GS_STRATEGY_MIG:
		add(buf, n, o, "MIG %s on %s: %s (%s)", sn->profile[st]->name,
		    g->name,
		    w->isolation_fault ? "isolation: fault needs its own partition"
		                       : "a right-sized slice isolates it from other tenants",
		    share);
		break;
	default:
		add(buf, n, o, "dedicated %s: %s (%s)", g->name,
		    w->isolation_fault ? "isolation: fault and no MIG slice fits"
		    : w->spread != GS_SPREAD_NONE
		        ? "spread keeps its replicas apart and nothing of its tenant fits "
		          "beside them"
		        : "no sharing group fits it on this model",
		    share);
	}
}

static void rejected_text(const gs_workload *w, const seen *sn, gs_strategy st,
                          gs_micros cost, gs_micros ded, char *buf, size_t n, size_t *o)
{
	const gs_gpu *g = sn->model[st];
	const char *why_ts = ts_ruled_out(w);
	int first = 1;
	char a[32], b[32];
#define SEP (first ? (first = 0, "; rejected: ") : ", ")
	if (st != GS_STRATEGY_TIME_SLICING && why_ts)
		add(buf, n, o, "%stime-slicing (%s)", SEP, why_ts);
	if (st != GS_STRATEGY_MPS && w->isolation_fault)
		add(buf, n, o, "%sMPS (one fault domain per GPU)", SEP);
	else if (st != GS_STRATEGY_MPS && !g->mps_max_clients)
		add(buf, n, o, "%sMPS (%s has none)", SEP, g->name);
	if (st != GS_STRATEGY_MIG && !g->mig_slots)
		add(buf, n, o, "%sMIG (%s has no MIG)", SEP, g->name);
	gs_micros_format(ded, 2, a, sizeof a);
	gs_micros_format(cost, 2, b, sizeof b);
	/* Only a difference a reader can see is worth naming. */
	if (st != GS_STRATEGY_DEDICATED && ded > cost && strcmp(a, b) != 0)
		add(buf, n, o, "%sdedicated ($%s/h instead of $%s/h)", SEP, a, b);
#undef SEP
}

static gs_strategy majority(const seen *sn)
{
	int best = 0;
	for (int s = 1; s < GS_STRATEGY_COUNT; s++)
		if (sn->counts[s] > sn->counts[best])
			best = s;
	return (gs_strategy)best;
}

static int warnings(gs_plan *p)
{
	int ts = 0, mps = 0, mig = 0;
	for (size_t n = 0; n < p->n_nodes; n++)
		for (size_t g = 0; g < p->nodes[n].n_gpus; g++) {
			const gs_plan_gpu *pg = &p->nodes[n].gpus[g];
			int used = pg->n_assignments || pg->n_mig;
			ts += used && pg->strategy == GS_STRATEGY_TIME_SLICING;
			mps += used && pg->strategy == GS_STRATEGY_MPS;
			mig += used && pg->strategy == GS_STRATEGY_MIG;
			for (size_t m = 0; m < pg->n_mig; m++)
				ts += pg->mig[m].strategy == GS_STRATEGY_TIME_SLICING;
		}
	if (ts && gs_plan_warn(p, "time-slicing on %d GPU%s or MIG instance%s: memory and "
	                          "faults are not isolated; a replica that outgrows its "
	                          "planned memory can crash the others",
	                       ts, ts == 1 ? "" : "s", ts == 1 ? "" : "s") < 0)
		return -1;
	if (mps && gs_plan_warn(p, "MPS on %d GPU%s: the clients of a GPU share one fault "
	                           "domain; a fatal error in one ends them all",
	                        mps, mps == 1 ? "" : "s") < 0)
		return -1;
	if (mig && gs_plan_warn(p, "MIG on %d GPU%s: applying or changing a geometry needs "
	                           "the node drained", mig, mig == 1 ? "" : "s") < 0)
		return -1;
	if (p->sum.pricing == GS_PRICING_SPOT &&
	    gs_plan_warn(p, "spot prices are a snapshot and change hourly; spot capacity "
	                    "can be reclaimed") < 0)
		return -1;
	return 0;
}

int gs_plan_advice(gs_plan *p, const gs_micros *ded_cost)
{
	size_t nw = gs_scenario_workload_count(p->s);
	seen *sn = calloc(nw ? nw : 1, sizeof *sn);
	int r = 0, rc = 0;

	if (!sn || !(p->wls = gs_plan_alloc(p, nw, sizeof *p->wls)) || scan(p, sn, nw) < 0) {
		free(sn);
		return -1;
	}
	p->n_wls = nw;
	for (size_t i = 0; i < nw && rc == 0; i++) {
		const gs_workload *w = gs_scenario_workload_at(p->s, i);
		gs_plan_workload *pw = &p->wls[i];
		char buf[640];
		size_t o = 0;
		pw->workload = w;
		for (int k = 0; k < w->replicas; k++)
			pw->cost_per_hour += p->rep_cost[r++];
		pw->strategy = majority(&sn[i]);
		chosen_text(w, &sn[i], pw->strategy, buf, sizeof buf, &o);
		rejected_text(w, &sn[i], pw->strategy, pw->cost_per_hour, ded_cost[i], buf,
		              sizeof buf, &o);
		if (!(pw->why = gs_plan_strdup(p, buf)))
			rc = -1;
		if (w->current || p->s->cluster_cost >= 0)
			p->current_after += pw->cost_per_hour;
	}
	free(sn);
	return rc < 0 ? rc : warnings(p);
}
