/*
 * plan_text.c - a plan as text: the cost summary, the workloads with their
 * strategies, the nodes with what runs on each GPU, the teams and the
 * warnings. Shared by `plan` and by the REPL's `plan` and `show plan`.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void pct(char *buf, size_t n, int permille)
{
	int a = permille < 0 ? -permille : permille;
	snprintf(buf, n, "%s%d.%d%%", permille < 0 ? "-" : "", a / 10, a % 10);
}

/* A row of the cost table: what a saving is measured against, the plan's
 * cost, and the saving. */
static void print_against(const char *label, gs_micros was, gs_micros now, int permille)
{
	char a[32], b[32], c[32], d[32];
	pct(d, sizeof d, permille);
	printf("%-14s %14s %14s %14s  %s\n", label, cli_money(was, a, sizeof a),
	       cli_money(now, b, sizeof b), cli_money(was - now, c, sizeof c), d);
}

/* What robust placement costs, when it costs anything. */
static void print_placement(const gs_plan_summary *s)
{
	char a[32], b[32], line[320];
	if (s->placement != GS_PLACEMENT_ROBUST || s->pinned_per_hour >= s->after_per_hour)
		return;
	snprintf(line, sizeof line, "any placement the emitted selectors allow keeps the "
	         "plan's rules, for %s/h more than pinned (%s/h: each placement an object "
	         "of its own, with --manifests; placement: pinned)",
	         cli_money(s->after_per_hour - s->pinned_per_hour, a, sizeof a),
	         cli_money(s->pinned_per_hour, b, sizeof b));
	cli_print_hanging("robust: ", line, 8);
}

/* How far the plan can be from the best possible, from the lower bound
 * it proved: the gap rounded up, since it is an "at most". */
static void print_bound(const gs_plan_summary *s)
{
	char a[32], g[32], line[320];
	const char *by = strcmp(s->lower_bound_by, "program") == 0
	                 ? "the optimiser's integer program"
	                 : strcmp(s->lower_bound_by, "relaxation") == 0
	                 ? "the packing's linear relaxation"
	                 : "the memory and compute every GPU offers";
	if (s->lower_bound_per_hour <= 0)
		return;
	if (strcmp(s->lower_bound_by, "optimum") == 0) {
		cli_print_hanging("bound: ", "no plan under these rules costs less (proven by the "
		                  "optimiser's integer program)", 7);
		return;
	}
	pct(g, sizeof g, gs_plan_gap_permille(s));
	snprintf(line, sizeof line, "no plan under these rules costs less than %s/h (%s); "
	         "this plan is at most %s above the best possible",
	         cli_money(s->lower_bound_per_hour, a, sizeof a), by, g);
	cli_print_hanging("bound: ", line, 7);
}

/* What "before" is, and the other figures a saving is stated against:
 * today's bill where it is known, and the cheapest plan with a whole GPU
 * per replica where before is the cluster instead. */
static void print_baselines(const gs_plan_summary *s)
{
	const char *dedicated = "the cheapest plan found with a whole GPU per replica";
	char line[256];
	if (s->before_is_cluster) {
		print_against("vs dedicated", s->dedicated_per_hour, s->after_per_hour,
		              s->savings_vs_dedicated_permille);
		snprintf(line, sizeof line, "before: the cluster as it runs today; vs dedicated: "
		         "%s", dedicated);
	} else if (s->current_per_hour >= 0) {
		print_against("vs today", s->current_per_hour,
		              s->current_per_hour - s->current_savings_per_hour,
		              s->current_savings_permille);
		snprintf(line, sizeof line, "before: %s; vs today: the bill today of the "
		         "workloads that name their `current` instances, and their cost here",
		         dedicated);
	} else {
		snprintf(line, sizeof line, "before: %s", dedicated);
	}
	cli_print_wrapped(line, 0);
	if (s->sharing_limit)
		cli_print_hanging("limit: ", s->sharing_limit, 7);
	print_placement(s);
	print_bound(s);
}

static void print_summary(const gs_plan_summary *s, const char *file, size_t nw)
{
	char a[32], b[32], c[32], d[32];
	int h = s->hours_per_month;

	printf("Plan for %s:\n%zu workload%s, %d replica%s, %s prices\n\n", file, nw,
	       nw == 1 ? "" : "s", s->replicas, s->replicas == 1 ? "" : "s",
	       gs_pricing_name(s->pricing));
	/* Before the table, so that nobody reads its figures without it. */
	if (s->costs_more) {
		cli_print_hanging("COSTS MORE: ", s->costs_more, 12);
		printf("\n");
	}
	printf("%-14s %14s %14s %14s\n", "", "before", "after", "saved");
	pct(d, sizeof d, s->savings_permille);
	printf("%-14s %14s %14s %14s  %s\n", "per hour",
	       cli_money(s->before_per_hour, a, sizeof a),
	       cli_money(s->after_per_hour, b, sizeof b),
	       cli_money(s->savings_per_hour, c, sizeof c), d);
	printf("%-14s %14s %14s %14s\n", "per month",
	       cli_money(s->before_per_hour * h, a, sizeof a),
	       cli_money(s->after_per_hour * h, b, sizeof b),
	       cli_money(s->savings_per_hour * h, c, sizeof c));
	printf("%-14s %14d %14d\n", "GPUs", s->gpus_before, s->gpus_after);
	printf("%-14s %14d %14d\n", "instances", s->instances_before, s->instances_after);
	pct(a, sizeof a, s->util_before_permille);
	pct(b, sizeof b, s->util_after_permille);
	printf("%-14s %14s %14s\n", "utilization", a, b);
	print_baselines(s);
}

/* Dollars per unit of work, to four decimals: a million tokens can cost
 * less than a cent. */
static char *unit_money(gs_micros m, char *buf, size_t n)
{
	char d[32];
	snprintf(buf, n, "$%s", gs_micros_format(m, 4, d, sizeof d));
	return buf;
}

/* A share in percent, to one decimal where it has one: "44.5", "76". */
static void share(char *buf, size_t n, int64_t ppm)
{
	int64_t pm = (ppm + 500) / 1000;
	if (pm % 10)
		snprintf(buf, n, "%lld.%lld", (long long)(pm / 10), (long long)(pm % 10));
	else
		snprintf(buf, n, "%lld", (long long)(pm / 10));
}

/* What sharing keeps of its throughput, and what a unit of its work costs
 * with a whole GPU per replica and here. */
static void print_retention(const gs_plan *p, size_t i)
{
	gs_plan_retention r;
	char lo[32], hi[32], a[32], b[32], c[32], line[512];
	size_t o = 0;
	if (gs_plan_retention_at(p, i, &r, NULL) < 0)
		return;
	share(lo, sizeof lo, r.low_ppm);
	share(hi, sizeof hi, r.high_ppm);
	if (r.shared && r.low_ppm == r.high_ppm)
		snprintf(line, sizeof line, "keeps %s%% of its throughput (%s)", lo, r.source);
	else if (r.shared)
		snprintf(line, sizeof line, "keeps %s-%s%% of its throughput (%s)", lo, hi,
		         r.source);
	if (r.shared)
		cli_print_wrapped(line, 4);
	if (r.unit == GS_WORK_NONE)
		return;
	o = (size_t)snprintf(line, sizeof line, "per %s: %s with a whole GPU per replica, %s",
	                     gs_work_per_name(r.unit), unit_money(r.before, a, sizeof a),
	                     unit_money(r.after_high, b, sizeof b));
	if (r.after_low != r.after_high && o < sizeof line)
		o += (size_t)snprintf(line + o, sizeof line - o, "-%s",
		                      unit_money(r.after_low, c, sizeof c));
	if (o < sizeof line)
		o += (size_t)snprintf(line + o, sizeof line - o, " here");
	if (r.shared && !r.pays && o < sizeof line)
		snprintf(line + o, sizeof line - o, "; sharing stops paying: keeping %s%%, a unit "
		         "of its work costs more than on a whole GPU", lo);
	cli_print_wrapped(line, 4);
}

static void print_workloads(const gs_plan *p)
{
	printf("\n%-24s %-13s %4s %10s\n", "WORKLOAD", "STRATEGY", "REPL", "COST/H");
	for (size_t i = 0; i < gs_plan_workload_count(p); i++) {
		const gs_plan_workload *w = gs_plan_workload_at(p, i);
		char c[32];
		printf("%-24s %-13s %4d %10s\n", w->workload->name, gs_strategy_name(w->strategy),
		       w->workload->replicas, cli_money(w->cost_per_hour, c, sizeof c));
		cli_print_wrapped(w->why, 4);
		for (size_t k = 0; k < w->n_notes; k++)
			cli_print_hanging("    - ", w->notes[k], 6);
		print_retention(p, i);
	}
}

/* Appends to a line that is wrapped when printed. */
static void put(char *buf, size_t size, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int k;
	if (*o >= size)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *o, size - *o, fmt, ap);
	va_end(ap);
	if (k > 0)
		*o += (size_t)k;
}

static void put_assignments(char *buf, size_t size, size_t *o, const gs_assignment *a,
                            size_t n)
{
	for (size_t i = 0; i < n; i++) {
		put(buf, size, o, "%s%s/%d %lld%%", i ? ", " : "", a[i].workload->name,
		    a[i].replica, (long long)((a[i].compute_ppm + 5000) / 10000));
		if (a[i].thread_percent)
			put(buf, size, o, " (%d%% threads, %lld MiB)", a[i].thread_percent,
			    (long long)a[i].memory_limit_mib);
		else if (a[i].memory_limit_mib) /* a fraction that limits no compute */
			put(buf, size, o, " (%lld MiB)", (long long)a[i].memory_limit_mib);
	}
}

/* Bytes as GiB with two decimals, rounded to nearest. */
static void gib(char *buf, size_t n, int64_t bytes)
{
	int64_t h = (bytes * 100 + (INT64_C(1) << 29)) >> 30;
	snprintf(buf, n, "%lld.%02lld", (long long)(h / 100), (long long)(h % 100));
}

/* A GPU or instance several replicas share: how much memory they plan to
 * hold of what it offers, and the headroom kept free where time-slicing
 * isolates none. */
static void put_memory(char *buf, size_t size, size_t *o, size_t n, int64_t mem,
                       int64_t offer, int64_t room)
{
	char a[32], b[32];
	if (n < 2)
		return;
	gib(a, sizeof a, mem);
	gib(b, sizeof b, offer);
	put(buf, size, o, " (memory %s of %s GiB", a, b);
	if (room)
		put(buf, size, o, ", %lld%% headroom", (long long)((room + 5000) / 10000));
	put(buf, size, o, ")");
}

static void print_gpu(const gs_plan_gpu *g)
{
	char line[8192];
	size_t o = 0;
	put(line, sizeof line, &o, "gpu %d %s %s", g->index, g->model->name,
	    gs_strategy_name(g->strategy));
	if (g->strategy == GS_STRATEGY_TIME_SLICING || g->strategy == GS_STRATEGY_MPS)
		put(line, sizeof line, &o, " x%d", g->replicas);
	if (g->strategy == GS_STRATEGY_FRACTION)
		put(line, sizeof line, &o, ":%s", gs_backend_name(g->backend));
	put_memory(line, sizeof line, &o, g->n_assignments, g->memory_bytes,
	           g->memory_offer_bytes, g->memory_headroom_ppm);
	if (!g->n_assignments && !g->n_mig) {
		printf("    %s: unused\n", line);
		return;
	}
	put(line, sizeof line, &o, ":");
	if (g->n_assignments) {
		put(line, sizeof line, &o, " ");
		put_assignments(line, sizeof line, &o, g->assignments, g->n_assignments);
	}
	cli_print_wrapped(line, 4);
	for (size_t m = 0; m < g->n_mig; m++) {
		const gs_plan_mig *mi = &g->mig[m];
		o = 0;
		put(line, sizeof line, &o, "%s@%d", mi->profile->name, mi->start);
		if (mi->strategy != GS_STRATEGY_DEDICATED)
			put(line, sizeof line, &o, " %s x%d", gs_strategy_name(mi->strategy),
			    mi->replicas);
		put_memory(line, sizeof line, &o, mi->n_assignments, mi->memory_bytes,
		           mi->memory_offer_bytes, mi->memory_headroom_ppm);
		put(line, sizeof line, &o, ": ");
		put_assignments(line, sizeof line, &o, mi->assignments, mi->n_assignments);
		cli_print_wrapped(line, 6);
	}
}

/* Millicores as cores: "4", "0.5", "3.915". */
static void cores(char *buf, size_t n, int64_t m)
{
	int d = m % 10 ? 3 : m % 100 ? 2 : m % 1000 ? 1 : 0;
	int64_t div = d == 3 ? 1 : d == 2 ? 10 : d == 1 ? 100 : 1000;
	if (d)
		snprintf(buf, n, "%lld.%0*lld", (long long)(m / 1000), d,
		         (long long)(m % 1000 / div));
	else
		snprintf(buf, n, "%lld", (long long)(m / 1000));
}

/* What the node's replicas request of its host, when some request any. */
static void print_host(const gs_plan_node *n)
{
	char a[32], b[32];
	if (!n->cpu_requested_millis && !n->memory_requested_bytes)
		return;
	cores(a, sizeof a, n->cpu_requested_millis);
	cores(b, sizeof b, n->cpu_allocatable_millis);
	printf("    host: %s of %s cpu, %.2f of %.2f GiB allocatable\n", a, b,
	       (double)n->memory_requested_bytes / (1 << 30),
	       (double)n->memory_allocatable_bytes / (1 << 30));
}

static void print_nodes(const gs_plan *p)
{
	printf("\nNODES\n");
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *n = gs_plan_node_at(p, i);
		char c[32];
		/* amd64 is the rule; an arm64 host is named. */
		printf("  %zu %s (%s%s) %s/h, config %s\n", i + 1, n->instance->type,
		       n->instance->cloud, n->instance->arch == GS_ARCH_ARM64 ? ", arm64" : "",
		       cli_money(n->price_per_hour, c, sizeof c), n->config);
		print_host(n);
		for (size_t g = 0; g < n->n_gpus; g++)
			print_gpu(&n->gpus[g]);
	}
}

static void print_rest(const gs_plan *p)
{
	gs_micros cost = 0, idle = 0;
	char c[32], d[32], e[32];
	printf("\n%-24s %10s %10s %10s\n", "TEAM", "COST/H", "IDLE/H", "TOTAL/H");
	for (size_t i = 0; i < gs_plan_team_count(p); i++) {
		const gs_plan_team *t = gs_plan_team_at(p, i);
		printf("%-24s %10s %10s %10s\n", t->team, cli_money(t->cost_per_hour, c, sizeof c),
		       cli_money(t->idle_per_hour, d, sizeof d),
		       cli_money(t->cost_per_hour + t->idle_per_hour, e, sizeof e));
		cost += t->cost_per_hour;
		idle += t->idle_per_hour;
	}
	printf("%-24s %10s %10s %10s\n", "all teams", cli_money(cost, c, sizeof c),
	       cli_money(idle, d, sizeof d), cli_money(cost + idle, e, sizeof e));
	cli_print_wrapped("cost: the capacity its replicas hold (the larger of their memory and "
	                  "compute share, or their MIG slice); idle: what no replica holds, "
	                  "split by what each holds on its node", 0);
	if (gs_plan_warning_count(p))
		printf("\nWARNINGS\n");
	for (size_t i = 0; i < gs_plan_warning_count(p); i++)
		cli_print_hanging("  - ", gs_plan_warning_at(p, i), 4);
}

/* With cloud: all, the cloud that won and what the others would cost. */
static void print_cloud(const gs_plan *p)
{
	const gs_plan_summary *s = gs_plan_summary_get(p);
	size_t n = gs_plan_cloud_count(p), o = 0;
	char line[4096], a[32], b[32];
	if (!n)
		return;
	put(line, sizeof line, &o, "%s, the %s", s->cloud,
	    n == 1 ? "only cloud the allow-lists leave" : "cheapest single cloud");
	for (size_t i = 0, k = 0; i < n; i++) {
		const gs_plan_cloud *c = gs_plan_cloud_at(p, i);
		if (strcmp(c->cloud, s->cloud) == 0)
			continue;
		put(line, sizeof line, &o, "%s", k++ ? "; " : ": ");
		if (c->planned < 0) {
			put(line, sizeof line, &o, "%s not planned, at least %s/h", c->cloud,
			    cli_money(c->lower_bound_per_hour, a, sizeof a));
			continue;
		}
		if (c->planned == 0) {
			put(line, sizeof line, &o, "%s cannot: %s", c->cloud, c->why);
			continue;
		}
		put(line, sizeof line, &o, "%s %s/h (+%s/h)", c->cloud,
		    cli_money(c->after_per_hour, a, sizeof a),
		    cli_money(c->after_per_hour - s->after_per_hour, b, sizeof b));
	}
	cli_print_hanging("cloud          ", line, 15);
}

/* The plan's JSON or YAML goes out as it is written: a large plan never
 * sits in memory as a document. A failed stdout stops the writing; main
 * reports it, as for every command's output. */
static int to_stdout(void *ctx, const char *data, size_t len)
{
	int *lost = ctx;
	if (fwrite(data, 1, len, stdout) == len)
		return 0;
	*lost = 1;
	return GS_EIO;
}

static int print_doc(const gs_plan *plan, int fmt)
{
	gs_error err;
	int lost = 0;
	if (gs_plan_write(plan, fmt == FMT_JSON ? GS_FORMAT_JSON : GS_FORMAT_YAML, to_stdout,
	                  &lost, &err) < 0 && !lost)
		return cli_fail(&err);
	return EXIT_OK;
}

int cli_plan_print(const gs_plan *plan, const gs_scenario *scn, int fmt)
{
	if (fmt != FMT_TEXT)
		return print_doc(plan, fmt);
	print_summary(gs_plan_summary_get(plan),
	              gs_scenario_file(scn) ? gs_scenario_file(scn) : "the current scenario",
	              gs_scenario_workload_count(scn));
	print_cloud(plan);
	print_workloads(plan);
	print_nodes(plan);
	print_rest(plan);
	return EXIT_OK;
}
