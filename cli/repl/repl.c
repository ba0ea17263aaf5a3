/*
 * repl.c - the session's loop: reading lines from a terminal or a script,
 * splitting them and dispatching each to a session command (repl_cmds.c)
 * or a CLI command (repl_show.c runs plan and emit on the session's
 * scenario), with a script's messages naming its line; and where the
 * history file lives.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl.h"

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
