/*
 * repl.c - the what-if session: the current scenario with its undo and
 * redo snapshots, re-planning after every change with a one-line summary,
 * and reading and running lines from a terminal or a script.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	int change = -s->savings_permille, mag = change < 0 ? -change : change;

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
	gs_plan_free(r->plan);
	r->plan = NULL;
	if (gs_plan_make(r->cur, &po, &r->plan, &r->stale) < 0)
		r->plan = NULL;
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
	if (gs_scenario_new(cat, &r->cur, &err) < 0)
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

/* ---- running lines ------------------------------------------------------------- */

static int dispatch(repl *r, int argc, char **argv)
{
	const repl_cmd *own = repl_find(argv[0]);
	const cli_cmd *cmd;

	if (own)
		return repl_session(r, own, argc, argv);
	if (!(cmd = cli_find_command(argv[0])))
		return cli_error(EXIT_USAGE, "unknown command '%s' (type 'help' for the list)",
		                 argv[0]);
	if (strcmp(cmd->name, "repl") == 0)
		return cli_error(EXIT_USAGE, "already in a session");
	return repl_run_cli(r, cmd, argc, argv);
}

int repl_exec(repl *r, const char *line)
{
	char msg[128], **argv;
	int argc, rc;

	if (repl_split(line, &argv, &argc, msg, sizeof msg) < 0)
		return cli_error(EXIT_USAGE, "%s", msg);
	rc = argc ? dispatch(r, argc, argv) : EXIT_OK;
	free(argv);
	return rc;
}

/*
 * In a script, a failing command's messages name the script's line:
 * "gpushare: <stdin>:7: error: ...". Commands print through the shared
 * cli_error() and cli_fail(), so while one runs fd 2 points at a temporary
 * file, whose lines are passed on afterwards, with the location when the
 * command failed. (A sanitizer report that aborts the process mid-command
 * is lost with the file: run the line on its own to see it.)
 */
static int capture_begin(repl *r)
{
	int saved;
	if (!r->cap)
		return -1;
	fflush(stderr);
	rewind(r->cap);
	if (ftruncate(fileno(r->cap), 0) < 0 || (saved = dup(STDERR_FILENO)) < 0)
		return -1;
	if (dup2(fileno(r->cap), STDERR_FILENO) < 0) {
		close(saved);
		return -1;
	}
	return saved;
}

/* "plan: unknown option '--x'", as cli_usage_error() words it. */
static int is_usage_error(const char *rest)
{
	char name[32];
	size_t n = strcspn(rest, ":");
	if (n == 0 || n >= sizeof name || strncmp(rest + n, ": ", 2) != 0)
		return 0;
	memcpy(name, rest, n);
	name[n] = '\0';
	return cli_find_command(name) || repl_find(name);
}

static void relocate(const repl *r, const char *line)
{
	static const char me[] = "gpushare: ";
	const char *rest = line + sizeof me - 1;

	if (strncmp(line, me, sizeof me - 1) != 0)
		fputs(line, stderr);
	else if (strstr(rest, "error:") || strstr(rest, "warning:")) /* perhaps coloured */
		fprintf(stderr, "%s<stdin>:%lu: %s", me, r->lineno, rest);
	else if (is_usage_error(rest))
		fprintf(stderr, "%s<stdin>:%lu: error: %s", me, r->lineno, rest);
	else /* information, such as "wrote 3 files" */
		fputs(line, stderr);
}

static void capture_end(repl *r, int saved, int failed)
{
	char *line = NULL;
	size_t cap = 0;

	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(r->cap);
	while (getline(&line, &cap, r->cap) >= 0) {
		if (failed)
			relocate(r, line);
		else
			fputs(line, stderr);
	}
	free(line);
}

static void run_line(repl *r, line_reader *lr, const char *line)
{
	size_t lead = strspn(line, " \t\r");
	cli_ui ui;
	int saved, rc;

	if (!line[lead] || line[lead] == '#')
		return;
	line_remember(lr, line);
	saved = capture_begin(r);
	ui = cli_ui_state; /* a command's -q or --color is for that command */
	rc = repl_exec(r, line);
	cli_ui_state = ui;
	fflush(stdout); /* so that output and messages keep their order */
	capture_end(r, saved, rc != EXIT_OK);
	if (rc != EXIT_OK && !r->status)
		r->status = rc;
}

/* On a terminal, unsaved changes need a "y"; a second Ctrl-D quits. */
static int may_quit(repl *r, line_reader *lr)
{
	char *answer;
	int yes;
	if (!r->interactive || !r->dirty)
		return 1;
	if (!(answer = line_read(lr, "discard unsaved changes? [y/N] ")))
		return 1;
	yes = answer[0] == 'y' || answer[0] == 'Y';
	free(answer);
	return yes;
}

int repl_run(repl *r, line_reader *lr)
{
	for (;;) {
		char *line = line_read(lr, r->interactive ? REPL_PROMPT : NULL);
		if (!line) {
			if (may_quit(r, lr))
				break;
			continue;
		}
		r->lineno++;
		run_line(r, lr, line);
		free(line);
		if (r->status && !r->interactive && !r->keep_going)
			break;
		if (r->quit && may_quit(r, lr))
			break;
		r->quit = 0;
	}
	return r->interactive ? EXIT_OK : r->status;
}

/* ---- history file ---------------------------------------------------------------- */

/* mkdir -p, quietly: the caller falls back when it fails. */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

int repl_history_path(char *buf, size_t size)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int n;

	/* The XDG spec ignores a relative XDG_STATE_HOME. */
	if (state && state[0] == '/') {
		n = snprintf(buf, size, "%s/gpushare", state);
		if (n > 0 && (size_t)n + sizeof "/history" <= size && make_dirs(buf) == 0) {
			memcpy(buf + n, "/history", sizeof "/history");
			return 0;
		}
	}
	if (home && *home) {
		n = snprintf(buf, size, "%s/.gpushare_history", home);
		if (n > 0 && (size_t)n < size)
			return 0;
	}
	return -1;
}
