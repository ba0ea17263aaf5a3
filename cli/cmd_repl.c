/*
 * cmd_repl.c - `gpushare repl [FILE]`: an interactive what-if session on
 * a terminal, or a what-if study read from a script on stdin
 * (gpushare-repl(1)).
 */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "repl/repl.h"

typedef struct repl_args {
	const char *profiles;
	int keep_going;
} repl_args;

const cli_opt repl_opts[] = {
	{ "keep-going", 'k', NULL, "reading a script, run every line even after one fails",
	  CLI_FLAG(repl_args, keep_going) },
	{ CLI_ROW_PROFILES, CLI_STR(repl_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static int session(const char *file, int keep_going, gs_catalog *cat)
{
	int tty = isatty(STDIN_FILENO);
	char history[PATH_MAX];
	line_reader *lr = NULL;
	repl r;
	int rc;

	/* A script's output is the same wherever it goes. */
	if (!tty && cli_ui_state.color < 0)
		cli_ui_state.color = 0;
	if ((rc = repl_init(&r, cat, tty, keep_going)) != EXIT_OK)
		goto done;
	if (tty)
		printf("gpushare %s: a what-if session. 'help' lists the commands, "
		       "Ctrl-D ends it.\n", GS_VERSION);
	if (file && (rc = repl_load(&r, file)) != EXIT_OK)
		goto done;
	if (!tty || repl_history_path(history, sizeof history) < 0)
		history[0] = '\0';
	if (line_open(&lr, tty, history[0] ? history : NULL, repl_complete, &r) < 0) {
		rc = cli_error(EXIT_FAIL, "out of memory");
		goto done;
	}
	rc = repl_run(&r, lr);
done:
	line_close(lr);
	repl_release(&r);
	return rc;
}

int cmd_repl(const cli_cmd *self, int argc, char **argv)
{
	repl_args a = { NULL, 0 };
	gs_catalog *cat = NULL;
	int first, rc;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	if (argc - first > 1)
		return cli_usage_error(self, "unexpected argument '%s'", argv[first + 1]);
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	/* The commands run inside find the same profiles. */
	if (a.profiles && setenv("GPUSHARE_PROFILES", a.profiles, 1) < 0) {
		gs_catalog_free(cat);
		return cli_error(EXIT_FAIL, "out of memory");
	}
	return session(first < argc ? argv[first] : NULL, a.keep_going, cat);
}
