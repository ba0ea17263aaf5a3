/*
 * repl_show.c - looking at the session's scenario: `show`, `compare`, and
 * the CLI's `plan` and `emit` on the session's scenario when FILE is left
 * out.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "repl.h"

const char *const repl_workload_keys[] = {
	"name", "kind", "replicas", "gpusPerReplica", "gpuMemory", "compute", "measuredOn",
	"latency", "isolation", "tenant", "team", "gpus", "spread", "current", "bound",
	"memoryHeadroom", "cpu", "memory", "arch", "object.kind", "object.name",
	"object.namespace", "object.container", NULL,
};
const char *const repl_scenario_keys[] = {
	"cloud", "pricing", "via", "targetUtilization", "instances", "gpus",
	"memoryHeadroom", "arch", "namespace", "placement", NULL,
};

/* ---- values as a workload file writes them ---------------------------------- */

/* "4GiB", "3.5GiB", "600MiB", or bytes. */
static void fmt_bytes(int64_t b, char *buf, size_t n)
{
	static const struct {
		const char *unit;
		int shift;
	} units[] = { { "GiB", 30 }, { "MiB", 20 } };
	for (size_t i = 0; i < 2 && b >= 0 && b <= INT64_MAX / 100; i++) {
		int64_t one = INT64_C(1) << units[i].shift, h = b * 100 / one;
		if (b * 100 % one != 0 || h == 0)
			continue;
		if (h % 100 == 0)
			snprintf(buf, n, "%" PRId64 "%s", h / 100, units[i].unit);
		else if (h % 10 == 0)
			snprintf(buf, n, "%" PRId64 ".%" PRId64 "%s", h / 100, h % 100 / 10,
			         units[i].unit);
		else
			snprintf(buf, n, "%" PRId64 ".%02" PRId64 "%s", h / 100, h % 100,
			         units[i].unit);
		return;
	}
	snprintf(buf, n, "%" PRId64 "B", b);
}

/* Parts per million as a percentage: "20%", "12.5%". */
static void fmt_share(int64_t ppm, char *buf, size_t n)
{
	char num[48];
	int len = snprintf(num, sizeof num, "%" PRId64 ".%04" PRId64, ppm / 10000, ppm % 10000);
	while (len > 0 && num[len - 1] == '0')
		num[--len] = '\0';
	if (len > 0 && num[len - 1] == '.')
		num[--len] = '\0';
	snprintf(buf, n, "%s%%", num);
}

static void fmt_gpus(const gs_workload *w, char *buf, size_t n)
{
	size_t o = 0;
	snprintf(buf, n, "%s", w->n_gpus ? "" : "any");
	for (size_t i = 0; i < w->n_gpus && o < n; i++) {
		int k = snprintf(buf + o, n - o, "%s%s", i ? "," : "", w->gpus[i]->name);
		if (k < 0)
			break;
		o += (size_t)k;
	}
}

/* A sub-key of a workload's object; a default says whose it is. */
static void object_value(const gs_object_ref *o, const char *sub, char *buf, size_t n)
{
	const char *v = strcmp(sub, "kind") == 0 ? gs_object_kind_name(o->kind)
	                : strcmp(sub, "name") == 0      ? o->name
	                : strcmp(sub, "namespace") == 0 ? o->namespace_
	                                                : o->container;
	const char *dflt = strcmp(sub, "name") == 0        ? "the workload's"
	                   : strcmp(sub, "namespace") == 0 ? "the file's"
	                                                   : "the only one";
	snprintf(buf, n, "%s", v ? v : dflt);
}

/* One key of a workload, as `set` would take it. */
static void wl_value(const gs_workload *w, const char *key, char *buf, size_t n)
{
	static const char *const kinds[] = { "inference", "batch", "training", "notebook", "ci" };
	static const char *const spreads[] = { "none", "gpu", "node" };

	if (strcmp(key, "kind") == 0)
		snprintf(buf, n, "%s", kinds[w->kind]);
	else if (strcmp(key, "replicas") == 0)
		snprintf(buf, n, "%d", w->replicas);
	else if (strcmp(key, "gpusPerReplica") == 0)
		snprintf(buf, n, "%d", w->gpus_per_replica);
	else if (strcmp(key, "gpuMemory") == 0)
		fmt_bytes(w->memory_bytes, buf, n);
	else if (strcmp(key, "compute") == 0)
		fmt_share(w->compute_ppm, buf, n);
	else if (strcmp(key, "measuredOn") == 0)
		snprintf(buf, n, "%s", w->measured_on ? w->measured_on->name : "any");
	else if (strcmp(key, "latency") == 0)
		snprintf(buf, n, "%s", w->latency_critical ? "critical" : "tolerant");
	else if (strcmp(key, "isolation") == 0)
		snprintf(buf, n, "%s", w->isolation_fault ? "fault" : "none");
	else if (strcmp(key, "tenant") == 0)
		snprintf(buf, n, "%s", w->tenant ? w->tenant : "-");
	else if (strcmp(key, "team") == 0)
		snprintf(buf, n, "%s", w->team ? w->team : "-");
	else if (strcmp(key, "gpus") == 0)
		fmt_gpus(w, buf, n);
	else if (strcmp(key, "spread") == 0)
		snprintf(buf, n, "%s", spreads[w->spread]);
	else if (strcmp(key, "current") == 0 && w->current)
		snprintf(buf, n, "%s:%d", w->current->type, w->current_count);
	else if (strcmp(key, "current") == 0)
		snprintf(buf, n, "none");
	else if (strcmp(key, "bound") == 0)
		snprintf(buf, n, "%s", gs_bound_name(w->bound));
	else if (strcmp(key, "memoryHeadroom") == 0 && w->memory_headroom_ppm >= 0)
		fmt_share(w->memory_headroom_ppm, buf, n);
	else if (strcmp(key, "memoryHeadroom") == 0)
		snprintf(buf, n, "the file's");
	else if ((strcmp(key, "cpu") == 0 && !w->cpu_millis) ||
	         (strcmp(key, "memory") == 0 && !w->host_memory_bytes))
		snprintf(buf, n, "-");
	else if (strcmp(key, "cpu") == 0 && w->cpu_millis % 1000 == 0)
		snprintf(buf, n, "%" PRId64, w->cpu_millis / 1000);
	else if (strcmp(key, "cpu") == 0)
		snprintf(buf, n, "%" PRId64 "m", w->cpu_millis);
	else if (strcmp(key, "memory") == 0)
		fmt_bytes(w->host_memory_bytes, buf, n);
	else if (strcmp(key, "arch") == 0)
		snprintf(buf, n, "%s", gs_arch_name(w->arch));
	else if (strncmp(key, "object.", 7) == 0)
		object_value(&w->object, key + 7, buf, n);
	else
		snprintf(buf, n, "%s", w->name);
}

/* The plan's entry for workload i of its scenario (usually at i). */
static const gs_plan_workload *planned(const gs_plan *p, size_t i, const char *name)
{
	size_t n = p ? gs_plan_workload_count(p) : 0;
	if (i < n && strcmp(gs_plan_workload_at(p, i)->workload->name, name) == 0)
		return gs_plan_workload_at(p, i);
	for (size_t j = 0; j < n; j++)
		if (strcmp(gs_plan_workload_at(p, j)->workload->name, name) == 0)
			return gs_plan_workload_at(p, j);
	return NULL;
}

/* ---- show ------------------------------------------------------------------------ */

static int show_workloads(repl *r)
{
	size_t n = gs_scenario_workload_count(r->cur);
	int rc;
	/* Stale, the workloads are listed without their plan. */
	if (r->plan && (rc = repl_plan_full(r)) != EXIT_OK)
		return rc;
	if (n == 0) {
		printf("no workloads (add one with 'add NAME gpuMemory=SIZE compute=SHARE')\n");
		return EXIT_OK;
	}
	printf("%-24s %-10s %4s %9s %8s  %-13s %10s\n", "WORKLOAD", "KIND", "REPL", "MEMORY",
	       "COMPUTE", "STRATEGY", "COST/H");
	for (size_t i = 0; i < n; i++) {
		const gs_workload *w = gs_scenario_workload_at(r->cur, i);
		const gs_plan_workload *pw = planned(r->plan, i, w->name);
		char kind[16], mem[32], share[32], cost[32];
		wl_value(w, "kind", kind, sizeof kind);
		wl_value(w, "gpuMemory", mem, sizeof mem);
		wl_value(w, "compute", share, sizeof share);
		if (!w->memory_bytes) /* added, not set yet */
			snprintf(mem, sizeof mem, "-");
		if (!w->compute_ppm)
			snprintf(share, sizeof share, "-");
		printf("%-24s %-10s %4d %9s %8s  %-13s %10s\n", w->name, kind, w->replicas, mem,
		       share, pw ? gs_strategy_name(pw->strategy) : "-",
		       pw ? cli_money(pw->cost_per_hour, cost, sizeof cost) : "-");
	}
	if (!r->plan)
		printf("(stale: %s)\n", r->stale.msg);
	return EXIT_OK;
}

typedef struct keyval {
	char key[32];
	char val[256];
} keyval;

static void append(char *dst, size_t n, const char *sep, const char *s, size_t len)
{
	size_t o = strlen(dst);
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
	}
	snprintf(dst + o, n - o, "%s%.*s", *dst ? sep : "", (int)len, s);
}

/* The scenario's own keys, read back from its rendered workload file
 * (lists joined with commas). A stopgap: gpushare.h has no getter for
 * cloud, via, targetUtilization or the allow-lists. */
static size_t scenario_pairs(const gs_scenario *s, keyval *out, size_t max)
{
	gs_doc *doc = NULL;
	char *text = NULL;
	size_t n = 0;
	gs_error err;

	if (gs_doc_scenario(s, &doc, &err) < 0 ||
	    gs_doc_render(doc, GS_FORMAT_YAML, &text, &err) < 0)
		text = NULL;
	for (const char *l = text; l && *l && strncmp(l, "workloads:", 10) != 0;) {
		size_t len = strcspn(l, "\n");
		const char *colon = memchr(l, ':', len);
		if (l[0] == '-' && n > 0)
			append(out[n - 1].val, sizeof out[n - 1].val, ",", l + 2, len - 2);
		else if (colon && l[0] != ' ' && n < max) {
			snprintf(out[n].key, sizeof out[n].key, "%.*s", (int)(colon - l), l);
			out[n].val[0] = '\0';
			if ((size_t)(colon - l) + 2 <= len)
				append(out[n].val, sizeof out[n].val, "", colon + 2,
				       len - (size_t)(colon - l) - 2);
			n++;
		}
		l += len + (l[len] == '\n');
	}
	free(text);
	gs_doc_free(doc);
	return n;
}

static const char *pair_value(const keyval *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(kv[i].key, key) == 0)
			return kv[i].val;
	/* A file leaves out the defaults: no allow-list, amd64 images. */
	if (strcmp(key, "namespace") == 0)
		return "default";
	if (strcmp(key, "placement") == 0)
		return "robust";
	return strcmp(key, "arch") == 0 ? "amd64" : "any";
}

static int diff_scenario(const gs_scenario *a, const gs_scenario *b)
{
	keyval ka[16], kb[16];
	size_t na = scenario_pairs(a, ka, 16), nb = scenario_pairs(b, kb, 16);
	int changes = 0;
	for (const char *const *k = repl_scenario_keys; *k; k++) {
		const char *va = pair_value(ka, na, *k), *vb = pair_value(kb, nb, *k);
		char ha[32], hb[32];
		if (strcmp(*k, "memoryHeadroom") == 0) { /* a default, not "any" */
			fmt_share(gs_scenario_memory_headroom(a), ha, sizeof ha);
			fmt_share(gs_scenario_memory_headroom(b), hb, sizeof hb);
			va = ha;
			vb = hb;
		}
		if (strcmp(va, vb) != 0) {
			printf("  %s: %s -> %s\n", *k, va, vb);
			changes++;
		}
	}
	return changes;
}

static int diff_workload(const gs_workload *a, const gs_workload *b)
{
	char va[512], vb[512];
	int changes = 0;
	for (const char *const *k = repl_workload_keys + 1; *k; k++) {
		wl_value(a, *k, va, sizeof va);
		wl_value(b, *k, vb, sizeof vb);
		if (strcmp(va, vb) != 0) {
			printf("  %s: %s %s -> %s\n", a->name, *k, va, vb);
			changes++;
		}
	}
	return changes;
}

static int diff_workloads(const gs_scenario *a, const gs_scenario *b)
{
	int changes = 0;
	for (size_t i = 0; i < gs_scenario_workload_count(a); i++) {
		const gs_workload *w = gs_scenario_workload_at(a, i);
		const gs_workload *now = gs_scenario_find(b, w->name);
		if (now) {
			changes += diff_workload(w, now);
		} else {
			printf("  - %s\n", w->name);
			changes++;
		}
	}
	for (size_t i = 0; i < gs_scenario_workload_count(b); i++) {
		const gs_workload *w = gs_scenario_workload_at(b, i);
		if (!gs_scenario_find(a, w->name)) {
			printf("  + %s\n", w->name);
			changes++;
		}
	}
	return changes;
}

static void diff_cost(const repl *r)
{
	char a[48], b[48], d[48];
	if (!r->mark_planned && !r->plan)
		return;
	if (r->mark_planned)
		repl_per_hour(r->mark_sum.after_per_hour, 0, a, sizeof a);
	if (r->plan)
		repl_per_hour(gs_plan_summary_get(r->plan)->after_per_hour, 0, b, sizeof b);
	if (r->mark_planned && r->plan)
		printf("  cost: %s -> %s (%s)\n", a, b,
		       repl_per_hour(gs_plan_summary_get(r->plan)->after_per_hour -
		                         r->mark_sum.after_per_hour, 1, d, sizeof d));
	else
		printf("  cost: %s -> %s\n", r->mark_planned ? a : "stale", r->plan ? b : "stale");
}

static int show_diff(const repl *r)
{
	const char *file = gs_scenario_file(r->mark);
	int changes;
	if (r->mark_is_plan)
		printf("changes since the last plan:\n");
	else if (file)
		printf("changes since loading %s:\n", file);
	else
		printf("changes since the session started:\n");
	changes = diff_scenario(r->mark, r->cur) + diff_workloads(r->mark, r->cur);
	if (!changes)
		printf("  none\n");
	diff_cost(r);
	return EXIT_OK;
}

int repl_cmd_show(repl *r, int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "workloads";
	int rc;
	if (strcmp(what, "workloads") == 0)
		return show_workloads(r);
	if (strcmp(what, "diff") == 0)
		return show_diff(r);
	if (strcmp(what, "plan") != 0)
		return cli_error(EXIT_USAGE, "show workloads, plan or diff, not '%s'", what);
	if ((rc = repl_plan_full(r)) != EXIT_OK)
		return rc;
	if ((rc = cli_plan_print(r->plan, r->cur, FMT_TEXT)) == EXIT_OK)
		repl_mark(r, 1);
	return rc;
}

/* ---- compare ------------------------------------------------------------------ */

static int plan_for(repl *r, const gs_scenario *s, const char *name, gs_plan **out)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_error err;
	po.cache = r->cache;
	if (gs_plan_make(s, &po, out, &err) < 0)
		return cli_error(cli_status(err.code), "scenario '%s' cannot be planned: %s", name,
		                 err.msg);
	return EXIT_OK;
}

static void row_money(const char *label, gs_micros a, gs_micros b)
{
	char x[32], y[32], d[40], m[32];
	cli_money(b - a, m, sizeof m);
	snprintf(d, sizeof d, "%s%s", b - a >= 0 ? "+" : "", m);
	printf("%-14s %14s %14s %14s\n", label, cli_money(a, x, sizeof x),
	       cli_money(b, y, sizeof y), d);
}

static void row_int(const char *label, int a, int b)
{
	printf("%-14s %14d %14d %+14d\n", label, a, b, b - a);
}

/* Prints (when `print`) a row for a workload whose strategy differs;
 * returns 1 for such a workload. */
static int strategy_row(int print, const char *name, const gs_plan_workload *a,
                        const gs_plan_workload *b)
{
	if (a && b && a->strategy == b->strategy)
		return 0;
	if (print)
		printf("%-24s %-15s %s\n", name, a ? gs_strategy_name(a->strategy) : "-",
		       b ? gs_strategy_name(b->strategy) : "-");
	return 1;
}

static int strategy_rows(int print, const gs_plan *a, const gs_plan *b)
{
	int rows = 0;
	for (size_t i = 0; i < gs_plan_workload_count(a); i++) {
		const gs_plan_workload *w = gs_plan_workload_at(a, i);
		rows += strategy_row(print, w->workload->name, w, planned(b, i, w->workload->name));
	}
	for (size_t i = 0; i < gs_plan_workload_count(b); i++) {
		const gs_plan_workload *w = gs_plan_workload_at(b, i);
		if (!planned(a, i, w->workload->name))
			rows += strategy_row(print, w->workload->name, NULL, w);
	}
	return rows;
}

static void compare_strategies(const char *na, const gs_plan *a, const char *nb, const gs_plan *b)
{
	if (!strategy_rows(0, a, b)) {
		printf("\nno workload changes strategy\n");
		return;
	}
	printf("\n%-24s %-15s %s\n", "WORKLOAD", na, nb);
	strategy_rows(1, a, b);
}

int repl_cmd_compare(repl *r, int argc, char **argv)
{
	const gs_scenario *a, *b;
	gs_plan *pa = NULL, *pb = NULL;
	int rc;
	(void)argc;
	if (!(a = repl_scenario_named(r, argv[1])) || !(b = repl_scenario_named(r, argv[2])))
		return EXIT_USAGE;
	if ((rc = plan_for(r, a, argv[1], &pa)) == EXIT_OK &&
	    (rc = plan_for(r, b, argv[2], &pb)) == EXIT_OK) {
		const gs_plan_summary *sa = gs_plan_summary_get(pa), *sb = gs_plan_summary_get(pb);
		printf("%-14s %14s %14s %14s\n", "", argv[1], argv[2], "change");
		row_money("per hour", sa->after_per_hour, sb->after_per_hour);
		row_money("per month", sa->after_per_hour * sa->hours_per_month,
		          sb->after_per_hour * sb->hours_per_month);
		row_int("GPUs", sa->gpus_after, sb->gpus_after);
		row_int("instances", sa->instances_after, sb->instances_after);
		compare_strategies(argv[1], pa, argv[2], pb);
	}
	gs_plan_free(pa);
	gs_plan_free(pb);
	return rc;
}

/* ---- plan and emit on the session's scenario ---------------------------------- */

/* The CLI commands that take the session's scenario when their FILE is
 * left out, and how many operands they have then. */
static const struct {
	const char *name;
	int operands;
} takes_scenario[] = { { "plan", 0 }, { "emit", 1 } };

static int operands_without_file(const cli_cmd *cmd)
{
	for (size_t i = 0; i < sizeof takes_scenario / sizeof takes_scenario[0]; i++)
		if (strcmp(cmd->name, takes_scenario[i].name) == 0)
			return takes_scenario[i].operands;
	return -1;
}

int repl_takes_scenario(const cli_cmd *cmd)
{
	return operands_without_file(cmd) >= 0;
}

typedef struct session_opts {
	int fmt, force, karpenter;
	const char *emit_dir, *profiles;
	gs_emit_opts eo;
} session_opts;

static int option_index(const cli_cmd *cmd, const char *name)
{
	for (int i = 0; cmd->opts[i].name; i++)
		if (strcmp(cmd->opts[i].name, name) == 0)
			return i;
	return -1;
}

/* Options are told apart by name: the tables belong to the commands. */
static int take_option(const cli_cmd *cmd, int idx, const char *arg, session_opts *so)
{
	const char *name = cmd->opts[idx].name;
	int first_emit = option_index(cmd, "rename-shared");
	if (strcmp(name, "format") == 0)
		return cli_parse_format(cmd, arg, &so->fmt);
	if (strcmp(name, "emit") == 0)
		so->emit_dir = arg;
	else if (strcmp(name, "force") == 0)
		so->force = 1;
	else if (strcmp(name, "karpenter") == 0)
		so->karpenter = 1;
	else if (strcmp(name, "profiles") == 0)
		so->profiles = arg;
	else if (strcmp(name, "placement") == 0)
		return cli_usage_error(cmd, "in a session the placement is a key: set "
		                       "placement %s", arg);
	else if (first_emit >= 0)
		return cli_emit_option(cmd, first_emit, idx, arg, &so->eo);
	return 0;
}

static int session_plan(repl *r, const cli_cmd *cmd, session_opts *so)
{
	int rc;
	(void)cmd;
	if ((rc = repl_plan_full(r)) != EXIT_OK)
		return rc;
	if (so->emit_dir) {
		rc = cli_emit_dir(r->plan, &so->eo, so->emit_dir, so->karpenter, so->force);
		if (rc != EXIT_OK)
			return rc;
	}
	if ((rc = cli_plan_print(r->plan, r->cur, so->fmt)) == EXIT_OK)
		repl_mark(r, 1);
	return rc;
}

static int session_emit(repl *r, const cli_cmd *cmd, session_opts *so, const char *kind_name)
{
	gs_emit_kind kind;
	gs_error err;
	char *text = NULL;
	int rc;

	if (gs_emit_kind_parse(kind_name, &kind) < 0)
		return cli_usage_error(cmd, "unknown kind '%s'", kind_name);
	if ((rc = repl_plan_full(r)) != EXIT_OK)
		return rc;
	if (gs_emit(r->plan, kind, &so->eo, &text, &err) < 0)
		return cli_fail(&err);
	fputs(text, stdout);
	free(text);
	return EXIT_OK;
}

int repl_run_cli(repl *r, const cli_cmd *cmd, int argc, char **argv)
{
	session_opts so = { FMT_TEXT, 0, 0, NULL, NULL, GS_EMIT_OPTS_INIT };
	int want = operands_without_file(cmd), opt, rc;
	cli_parser p;

	if (want < 0)
		return cmd->run(cmd, argc, argv);
	cli_parse_begin(&p, cmd, argc, argv);
	while ((opt = cli_next(&p)) >= 0)
		if ((rc = take_option(cmd, opt, p.arg, &so)) != 0)
			return rc;
	if (opt == CLI_EXIT)
		return p.status;
	if (argc - p.optind != want)
		return cmd->run(cmd, argc, argv); /* with its FILE, as on the command line */
	if (so.profiles)
		return cli_usage_error(cmd, "--profiles needs a FILE: the session's scenario keeps "
		                            "the profiles the session started with");
	so.eo.source = gs_scenario_file(r->cur);
	if (want == 0)
		return session_plan(r, cmd, &so);
	return session_emit(r, cmd, &so, argv[p.optind]);
}
