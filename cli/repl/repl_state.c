/*
 * repl_state.c - the session's state: the current scenario with its undo
 * and redo snapshots and the scenarios kept by name, re-planned after
 * every change with a one-line summary. The commands (repl_cmds.c,
 * repl_show.c) change and read it through these functions; the loop that
 * runs them (repl.c) sits above all three.
 */
#include <stdlib.h>
#include <string.h>

#include "repl.h"

/* ---- snapshots ------------------------------------------------------------ */

/* Pushes s; when the stack is full the oldest snapshot is dropped. */
static void push(gs_scenario **stack, size_t *n, gs_scenario *s)
{
	if (*n == REPL_UNDO_MAX) {
		gs_scenario_free(stack[0]);
		memmove(stack, stack + 1, (REPL_UNDO_MAX - 1) * sizeof *stack);
		(*n)--;
	}
	stack[(*n)++] = s;
}

static void clear(gs_scenario **stack, size_t *n)
{
	while (*n)
		gs_scenario_free(stack[--*n]);
}

gs_scenario *repl_clone(const gs_scenario *s)
{
	gs_scenario *copy;
	gs_error err;
	if (gs_scenario_clone(s, &copy, &err) < 0) {
		cli_fail(&err);
		return NULL;
	}
	return copy;
}

/* The plan points into its scenario: it goes first. */
static void set_current(repl *r, gs_scenario *next)
{
	gs_plan_free(r->plan);
	r->plan = NULL;
	r->plan_partial = 0;
	r->cur = next;
}

void repl_commit(repl *r, gs_scenario *next)
{
	push(r->undo, &r->n_undo, r->cur);
	clear(r->redo, &r->n_redo);
	set_current(r, next);
	r->dirty = 1;
	repl_replan(r);
}

/* undo (back = 1) and redo. */
int repl_step(repl *r, int back)
{
	gs_scenario **from = back ? r->undo : r->redo, **to = back ? r->redo : r->undo;
	size_t *n_from = back ? &r->n_undo : &r->n_redo, *n_to = back ? &r->n_redo : &r->n_undo;
	if (*n_from == 0)
		return cli_error(EXIT_FAIL, "nothing to %s", back ? "undo" : "redo");
	push(to, n_to, r->cur);
	set_current(r, from[--*n_from]);
	r->dirty = 1;
	repl_replan(r);
	return EXIT_OK;
}

/* ---- planning -------------------------------------------------------------- */

char *repl_per_hour(gs_micros m, int sign, char *buf, size_t size)
{
	char money[40];
	cli_money(m, money, sizeof money);
	snprintf(buf, size, "%s%s/h", sign && m >= 0 ? "+" : "", money);
	return buf;
}

static void print_summary(const repl *r, const gs_plan_summary *s)
{
	char cost[48], delta[48];
	/* Against the dedicated plan, which before is unless it is a cluster. */
	int change = -s->savings_vs_dedicated_permille, mag = change < 0 ? -change : change;

	printf("%s (", repl_per_hour(s->after_per_hour, 0, cost, sizeof cost));
	if (r->have_last)
		printf("%s vs last, ", repl_per_hour(s->after_per_hour - r->last.after_per_hour, 1,
		                                     delta, sizeof delta));
	/* "\xc2\xb7" is a middle dot in UTF-8, whatever the compiler's charset. */
	printf("%s%d.%d%% vs dedicated) \xc2\xb7 %d GPU%s on %d node%s\n", change < 0 ? "-" : "+",
	       mag / 10, mag % 10, s->gpus_after, s->gpus_after == 1 ? "" : "s",
	       s->instances_after, s->instances_after == 1 ? "" : "s");
}

/* Plans cur without printing; on failure r->plan stays NULL and r->stale
 * says why. */
static void plan_quietly(repl *r)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	po.cache = r->cache;
	/* An edit prints the summary: the rest waits for repl_plan_full,
	 * which plans again, from the cache. */
	po.summary_only = 1;
	gs_plan_free(r->plan);
	r->plan = NULL;
	r->plan_partial = 0;
	if (gs_plan_make(r->cur, &po, &r->plan, &r->stale) < 0)
		r->plan = NULL;
	else
		r->plan_partial = 1;
}

/* An unplannable scenario is not an error: it is kept so that the next
 * edit can fix it ("add" before "set ... gpuMemory=" always passes here). */
void repl_replan(repl *r)
{
	const gs_plan_summary *s;
	plan_quietly(r);
	if (!r->plan) {
		printf("stale: %s\n", r->stale.msg);
		return;
	}
	s = gs_plan_summary_get(r->plan);
	print_summary(r, s);
	r->last = *s;
	r->have_last = 1;
}

/* Without the file's location: the scenario has changed since it was read. */
int repl_stale_error(const repl *r)
{
	return cli_error(cli_status(r->stale.code), "%s", r->stale.msg);
}

int repl_plan_full(repl *r)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_plan *whole;
	gs_error err;
	if (!r->plan)
		return repl_stale_error(r);
	if (!r->plan_partial)
		return EXIT_OK;
	po.cache = r->cache;
	if (gs_plan_make(r->cur, &po, &whole, &err) < 0)
		return cli_fail(&err);
	gs_plan_free(r->plan);
	r->plan = whole;
	r->plan_partial = 0;
	return EXIT_OK;
}

void repl_mark(repl *r, int is_plan)
{
	gs_scenario *copy = repl_clone(r->cur);
	if (!copy)
		return;
	gs_scenario_free(r->mark);
	r->mark = copy;
	r->mark_is_plan = is_plan;
	r->mark_planned = r->plan != NULL;
	if (r->plan)
		r->mark_sum = *gs_plan_summary_get(r->plan);
}

/* ---- the session ------------------------------------------------------------- */

int repl_init(repl *r, gs_catalog *cat, int interactive, int keep_going)
{
	gs_error err;
	memset(r, 0, sizeof *r);
	r->cat = cat;
	r->interactive = interactive;
	r->keep_going = keep_going;
	if (gs_plan_cache_new(&r->cache, &err) < 0 || gs_scenario_new(cat, &r->cur, &err) < 0)
		return cli_fail(&err);
	plan_quietly(r);
	repl_mark(r, 0);
	if (!r->mark)
		return EXIT_FAIL;
	/* Without a file (no space in /tmp) a script's messages go out
	 * unchanged, without their line. */
	if (!interactive)
		r->cap = tmpfile();
	return EXIT_OK;
}

void repl_release(repl *r)
{
	gs_plan_free(r->plan);
	gs_plan_cache_free(r->cache);
	gs_scenario_free(r->cur);
	gs_scenario_free(r->mark);
	clear(r->undo, &r->n_undo);
	clear(r->redo, &r->n_redo);
	for (size_t i = 0; i < r->n_saved; i++) {
		free(r->saved[i].name);
		gs_scenario_free(r->saved[i].scn);
	}
	free(r->saved);
	if (r->cap)
		fclose(r->cap);
	gs_catalog_free(r->cat);
	memset(r, 0, sizeof *r);
}

int repl_load(repl *r, const char *path)
{
	/* Loading into a session that has seen nothing yet is not an edit
	 * that undo should take back. */
	int first = r->n_undo == 0 && gs_scenario_workload_count(r->cur) == 0;
	gs_scenario *s;
	gs_error err;

	if (gs_scenario_load(r->cat, path, &s, &err) < 0)
		return cli_fail(&err);
	repl_commit(r, s);
	if (first)
		clear(r->undo, &r->n_undo);
	r->dirty = 0;
	repl_mark(r, 0);
	return EXIT_OK;
}

/* ---- scenarios kept by name ------------------------------------------------ */

repl_saved *repl_saved_find(repl *r, const char *name)
{
	for (size_t i = 0; i < r->n_saved; i++)
		if (strcmp(r->saved[i].name, name) == 0)
			return &r->saved[i];
	return NULL;
}

/* compare's operands: a saved scenario or the current one. */
const gs_scenario *repl_scenario_named(repl *r, const char *name)
{
	repl_saved *s;
	if (strcmp(name, "current") == 0)
		return r->cur;
	if ((s = repl_saved_find(r, name)))
		return s->scn;
	cli_error(EXIT_USAGE, "no saved scenario '%s' (see 'scenario list')", name);
	return NULL;
}
