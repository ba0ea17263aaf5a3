/*
 * dearer.c - why a plan costs more than the cluster it was imported from.
 * The planner keeps the cheaper of its sharing plan and the plan with a
 * whole GPU per replica, but "before" is then the cluster as it runs, which
 * it may not reproduce: this says so, with the causes the data shows, each
 * once and in figures:
 *
 * - nodes without a known price, which today's cost leaves out;
 * - the workloads sized at their peaks needing more of the cluster's GPUs
 *   than targetUtilization allows;
 * - replicas that share a GPU today (their `current` share) planned on one
 *   of their own;
 * - nodes bought larger than their GPUs need, for their pods' CPU and RAM;
 * - GPUs that cost more each than the cluster's;
 * - the workloads whose part of the plan costs more than theirs today.
 *
 * And a cluster whose workloads ask for more than all of its GPUs is a
 * data error: said as a warning, never compared with as if it were so.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plan/host.h"
#include "plan/plan_internal.h"

#define TOP 3 /* workloads named in a cause */

typedef struct text {
	char buf[1600];
	size_t o;
	int causes;
} text;

static void put(text *t, const char *fmt, ...) GS_PRINTF(2, 3);
static void put(text *t, const char *fmt, ...)
{
	va_list ap;
	int k;
	if (t->o >= sizeof t->buf)
		return;
	va_start(ap, fmt);
	k = vsnprintf(t->buf + t->o, sizeof t->buf - t->o, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->o += (size_t)k;
}

static void cause(text *t) { put(t, "%s", t->causes++ ? "; " : ": "); }

static const char *usd(gs_micros m, char *buf)
{
	char a[32];
	gs_micros_format(m, 2, a, sizeof a);
	snprintf(buf, 40, "$%s", a);
	return buf;
}

/* What workload w pays today: its `current` instances, its share of them. */
static gs_micros today(const gs_scenario *s, const gs_workload *w)
{
	gs_micros price;
	if (!w->current)
		return -1;
	price = gs_instance_price(s, w->current);
	price = (price >= 0 ? price : w->current->on_demand) * w->current_count;
	return w->current_share_ppm ? gs_div_round(price * w->current_share_ppm, GS_PPM) : price;
}

static void unpriced(const gs_plan *p, text *t)
{
	const gs_scenario *s = p->s;
	if (!s->cluster_unpriced)
		return;
	cause(t);
	put(t, "%d of the cluster's %d nodes %s no known price, so today's cost leaves "
	    "%s out", s->cluster_unpriced, s->cluster_nodes,
	    s->cluster_unpriced == 1 ? "has" : "have", s->cluster_unpriced == 1 ? "it" : "them");
}

static void peaks(const gs_plan *p, text *t)
{
	const gs_plan_summary *sum = &p->sum;
	int target = (int)(p->s->target_ppm / 1000);
	if (sum->util_before_permille <= target)
		return;
	cause(t);
	put(t, "each replica sized at its peak compute (or its request, where it has no "
	    "metrics), the workloads need %d.%d%% of the cluster's %d GPUs, above "
	    "targetUtilization %d.%d%%: the plan keeps more GPUs busy at once than the "
	    "cluster does", sum->util_before_permille / 10, sum->util_before_permille % 10,
	    sum->gpus_before, target / 10, target % 10);
}

static void shared_today(const gs_plan *p, text *t)
{
	int reps = 0, named = 0;
	for (size_t i = 0; i < p->n_wls; i++) {
		const gs_plan_workload *pw = &p->wls[i];
		if (pw->workload->current_share_ppm && pw->strategy == GS_STRATEGY_DEDICATED)
			reps += pw->workload->replicas;
	}
	if (!reps)
		return;
	cause(t);
	put(t, "%d replica%s that %s a GPU today %s one of %s own (", reps,
	    reps == 1 ? "" : "s", reps == 1 ? "shares" : "share", reps == 1 ? "gets" : "get",
	    reps == 1 ? "its" : "their");
	for (size_t i = 0; i < p->n_wls && named < TOP; i++) {
		const gs_plan_workload *pw = &p->wls[i];
		if (pw->workload->current_share_ppm && pw->strategy == GS_STRATEGY_DEDICATED)
			put(t, "%s%s", named++ ? ", " : "", pw->workload->name);
	}
	put(t, "%s: see why below)", named < reps && named == TOP ? ", ..." : "");
}

/* The cheapest instance of the node's cloud with its GPUs (model and
 * count). */
static const gs_instance *cheapest_same(const gs_plan *p, const gs_plan_node *n)
{
	const gs_catalog *cat = p->s->cat;
	const gs_instance *best = NULL;
	gs_micros best_price = -1;
	for (size_t i = 0; i < gs_catalog_instance_count(cat); i++) {
		const gs_instance *in = gs_catalog_instance_at(cat, i);
		gs_micros price;
		if (in->gpu != n->instance->gpu || in->gpu_count != n->instance->gpu_count ||
		    strcmp(in->cloud, n->instance->cloud) != 0 ||
		    (price = gs_instance_price(p->s, in)) < 0)
			continue;
		if (!best || price < best_price) {
			best = in;
			best_price = price;
		}
	}
	return best;
}

/* Nodes whose pods' CPU and RAM the cheapest instance with the same GPUs
 * would not hold. */
static void host(const gs_plan *p, text *t)
{
	gs_micros extra = 0;
	int nodes = 0;
	char a[40];
	for (size_t i = 0; i < p->n_nodes; i++) {
		const gs_plan_node *n = &p->nodes[i];
		gs_host need = { n->cpu_requested_millis, n->memory_requested_bytes };
		const gs_instance *best;
		if (gs_host_none(need) || !(best = cheapest_same(p, n)) || best == n->instance ||
		    gs_host_fits(need, gs_host_allocatable(best)))
			continue;
		nodes++;
		extra += n->price_per_hour - gs_instance_price(p->s, best);
	}
	if (!nodes || extra <= 0)
		return;
	cause(t);
	put(t, "%d node%s %s larger instance%s for %s pods' CPU and RAM (%s/h more than "
	    "the same GPUs on the cheapest instances)", nodes, nodes == 1 ? "" : "s",
	    nodes == 1 ? "is a" : "are", nodes == 1 ? "" : "s", nodes == 1 ? "its" : "their",
	    usd(extra, a));
}

static void per_gpu(const gs_plan *p, text *t)
{
	const gs_plan_summary *sum = &p->sum;
	gs_micros was, now;
	char a[40], b[40];
	if (!sum->gpus_before || !sum->gpus_after)
		return;
	was = gs_div_round(sum->before_per_hour, sum->gpus_before);
	now = gs_div_round(sum->after_per_hour, sum->gpus_after);
	if (now <= was)
		return;
	cause(t);
	put(t, "the plan's GPUs cost %s/h each, the cluster's %s/h", usd(now, a), usd(was, b));
}

/* The workloads whose part of the plan (what they hold, and their idle)
 * costs more than what they hold today, the largest first. */
static void workloads(const gs_plan *p, text *t)
{
	size_t top[TOP];
	gs_micros d[TOP];
	int n = 0;
	char a[40], b[40];
	for (size_t i = 0; i < p->n_wls; i++) {
		const gs_plan_workload *pw = &p->wls[i];
		gs_micros was = today(p->s, pw->workload);
		gs_micros delta = pw->cost_per_hour + pw->idle_per_hour - was;
		int k;
		if (was < 0 || delta <= 0 || (n == TOP && delta <= d[TOP - 1]))
			continue;
		k = n < TOP ? n++ : TOP - 1;
		for (; k > 0 && d[k - 1] < delta; k--) {
			top[k] = top[k - 1];
			d[k] = d[k - 1];
		}
		top[k] = i;
		d[k] = delta;
	}
	if (!n)
		return;
	cause(t);
	put(t, "%s ", n == 1 ? "the workload that costs more than today is" : "the workloads "
	    "that cost most more than today are");
	for (int i = 0; i < n; i++) {
		const gs_plan_workload *pw = &p->wls[top[i]];
		gs_micros now = pw->cost_per_hour + pw->idle_per_hour;
		put(t, "%s%s, %s/h (%s/h today)", i ? "; " : "", pw->workload->name, usd(now, a),
		    usd(today(p->s, pw->workload), b));
	}
}

int gs_plan_costs_more(gs_plan *p)
{
	const gs_plan_summary *sum = &p->sum;
	text t = { .o = 0 };
	char a[40], b[40], c[40];
	int per = sum->savings_permille < 0 ? -sum->savings_permille : sum->savings_permille;

	if (!sum->before_is_cluster || sum->after_per_hour <= sum->before_per_hour)
		return 0;
	put(&t, "This plan costs %s/h more than the cluster today (%s/h against %s/h, "
	    "%d.%d%%)", usd(sum->after_per_hour - sum->before_per_hour, a),
	    usd(sum->after_per_hour, b), usd(sum->before_per_hour, c), per / 10, per % 10);
	unpriced(p, &t);
	peaks(p, &t);
	shared_today(p, &t);
	host(p, &t);
	per_gpu(p, &t);
	workloads(p, &t);
	put(&t, ".");
	return (p->sum.costs_more = gs_plan_strdup(p, t.buf)) ? 0 : -1;
}

int gs_plan_util_error(gs_plan *p)
{
	const gs_plan_summary *sum = &p->sum;
	if (!sum->before_is_cluster || sum->util_before_permille <= 1000)
		return 0;
	return gs_plan_warn(p, "data error: the workloads ask %d.%d%% of the cluster's %d "
	                    "GPUs (each replica at the compute it gives), more than the "
	                    "cluster has: their compute or replicas overstate what runs "
	                    "today (a shared GPU's whole activity charged to each of its "
	                    "pods?), so 'before' is not what these workloads cost today",
	                    sum->util_before_permille / 10, sum->util_before_permille % 10,
	                    sum->gpus_before);
}
