/*
 * repl_sweep.c - `sweep NAME|* KEY FROM..TO [STEP]`: the scenario planned
 * once per value of one key, a row each, marking where the workload's
 * strategy flips and where sharing stops paying for its throughput. The
 * session's scenario is not changed: every row plans a copy.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "repl.h"

/* At most this many rows: a sweep is read, not scrolled. */
#define SWEEP_MAX 50

/* A value as the key's syntax writes it: a number and its unit ("40%",
 * "12GiB", "3"). */
typedef struct value {
	double x;
	char unit[16];
} value;

static int parse_value(const char *s, value *v)
{
	char *end;
	v->x = strtod(s, &end);
	if (end == s || !isfinite(v->x) || strlen(end) >= sizeof v->unit)
		return -1;
	strcpy(v->unit, end);
	return 0;
}

/* FROM..TO [STEP]: the step defaults to a tenth of the range. */
static int parse_range(const char *range, const char *step, value *from, double *to,
                       double *by)
{
	char buf[64];
	const char *dots = strstr(range, "..");
	value t, s;
	if (!dots || (size_t)(dots - range) >= sizeof buf)
		return cli_error(EXIT_USAGE, "sweep: expected FROM..TO, not '%s'", range);
	memcpy(buf, range, (size_t)(dots - range));
	buf[dots - range] = '\0';
	if (parse_value(buf, from) < 0 || parse_value(dots + 2, &t) < 0 ||
	    strcmp(from->unit, t.unit) != 0)
		return cli_error(EXIT_USAGE, "sweep: '%s' is not FROM..TO of one unit", range);
	*to = t.x;
	*by = (t.x - from->x) / 10;
	if (step && (parse_value(step, &s) < 0 || strcmp(s.unit, t.unit) != 0))
		return cli_error(EXIT_USAGE, "sweep: the step '%s' is not in %s's unit", step,
		                 range);
	if (step)
		*by = s.x;
	if (!(*by > 0) || t.x < from->x || (t.x - from->x) / *by >= SWEEP_MAX)
		return cli_error(EXIT_USAGE, "sweep: from %s to %s by a positive step, in at most "
		                             "%d values", buf, dots + 2, SWEEP_MAX);
	return EXIT_OK;
}

/* The row's outcome for the workload (or, for *, the plan alone). */
typedef struct row {
	int planned;
	gs_strategy st;
	gs_backend backend;
	gs_plan_retention ret;
} row;

static size_t workload_index(const gs_plan *p, const char *name)
{
	for (size_t i = 0; i < gs_plan_workload_count(p); i++)
		if (strcmp(gs_plan_workload_at(p, i)->workload->name, name) == 0)
			return i;
	return (size_t)-1;
}

static void strategy_text(const row *w, char *buf, size_t size)
{
	if (w->st == GS_STRATEGY_FRACTION)
		snprintf(buf, size, "fraction:%s", gs_backend_name(w->backend));
	else
		snprintf(buf, size, "%s", gs_strategy_name(w->st));
}

/* Where sharing starts or stops paying for the workload's throughput. */
static const char *pays_mark(const row *w, const row *prev)
{
	int now = w->ret.shared && w->ret.unit != GS_WORK_NONE ? w->ret.pays : -1;
	int before = prev && prev->planned && prev->ret.shared && prev->ret.unit != GS_WORK_NONE
	             ? prev->ret.pays : -1;
	if (now == 0 && before != 0)
		return "  <- stops paying";
	if (now == 1 && before == 0)
		return "  <- pays";
	return "";
}

static void print_row(int kw, const char *val, const gs_plan *p, const row *w,
                      const char *name, const row *prev)
{
	const gs_plan_summary *s = gs_plan_summary_get(p);
	char money[32], st[40], unit[40] = "", ded[32] = "", a[32], b[32];
	cli_money(s->after_per_hour, money, sizeof money);
	if (!name) {
		printf("%-*s %4d %12s\n", kw, val, s->gpus_after, money);
		return;
	}
	strategy_text(w, st, sizeof st);
	if (w->ret.unit != GS_WORK_NONE) {
		cli_money(w->ret.before, ded, sizeof ded);
		if (w->ret.shared && w->ret.after_high != w->ret.after_low)
			snprintf(unit, sizeof unit, "%s-%s",
			         cli_money(w->ret.after_high, a, sizeof a),
			         cli_money(w->ret.after_low, b, sizeof b));
		else if (w->ret.shared)
			cli_money(w->ret.after_low, unit, sizeof unit);
		else
			snprintf(unit, sizeof unit, "%s", ded);
	}
	printf("%-*s %-17s %4d %12s", kw, val, st, s->gpus_after, money);
	if (w->ret.unit != GS_WORK_NONE)
		printf(" %17s %10s", unit, ded);
	if (prev && prev->planned && prev->st != w->st)
		printf("  <- %s", gs_strategy_name(w->st));
	printf("%s\n", pays_mark(w, prev));
}

/* Plans a copy of the session's scenario with KEY=value: the plan borrows
 * the copy's workloads, so the caller frees both, the plan first. */
static int plan_at(repl *r, const char *who, const char *key, const char *val,
                   gs_scenario **scn, gs_plan **out)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_error err;
	po.cache = r->cache;
	if (!(*scn = repl_clone(r->cur)))
		return EXIT_FAIL;
	if (gs_scenario_set(*scn, who, key, val, &err) < 0 ||
	    gs_plan_make(*scn, &po, out, &err) < 0)
		return cli_error(cli_status(err.code), "sweep: %s=%s: %s", key, val, err.msg);
	return EXIT_OK;
}

static int fill_row(const gs_plan *p, const char *name, row *w)
{
	size_t i = workload_index(p, name);
	gs_error err;
	w->planned = 1;
	if (i == (size_t)-1)
		return cli_error(EXIT_USAGE, "sweep: no workload '%s'", name);
	w->st = gs_plan_workload_at(p, i)->strategy;
	if (gs_plan_retention_at(p, i, &w->ret, &err) < 0)
		return cli_fail(&err);
	w->backend = w->ret.backend;
	return EXIT_OK;
}

static void header(int kw, const char *key, const char *name, const row *w)
{
	if (!name) {
		printf("%-*s %4s %12s\n", kw, key, "GPUs", "per hour");
		return;
	}
	printf("%-*s %-17s %4s %12s", kw, key, "strategy", "GPUs", "per hour");
	if (w->ret.unit != GS_WORK_NONE)
		printf(" %17s %10s", gs_work_per_name(w->ret.unit), "dedicated");
	putchar('\n');
}

int repl_cmd_sweep(repl *r, int argc, char **argv)
{
	const char *name = strcmp(argv[1], "*") == 0 ? NULL : argv[1];
	value from;
	double to = 0, by = 1;
	row prev = { 0 };
	int kw = strlen(argv[2]) > 10 ? (int)strlen(argv[2]) : 10, rc;
	if ((rc = parse_range(argv[3], argc > 4 ? argv[4] : NULL, &from, &to, &by)) != EXIT_OK)
		return rc;
	for (int k = 0; rc == EXIT_OK && from.x + k * by <= to + by * 1e-9; k++) {
		char val[48];
		gs_scenario *scn = NULL;
		gs_plan *p = NULL;
		row w = { 0 };
		snprintf(val, sizeof val, "%.6g%s", from.x + k * by, from.unit);
		if ((rc = plan_at(r, name, argv[2], val, &scn, &p)) == EXIT_OK &&
		    (!name || (rc = fill_row(p, name, &w)) == EXIT_OK)) {
			if (k == 0)
				header(kw, argv[2], name, &w);
			print_row(kw, val, p, &w, name, k ? &prev : NULL);
			prev = w;
		}
		gs_plan_free(p);
		gs_scenario_free(scn);
	}
	return rc;
}
