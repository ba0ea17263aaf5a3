/*
 * cmd_repl.c - `gpushare repl [FILE]`: an interactive what-if session on
 * a terminal, or a what-if study read from a script on stdin
 * (gpushare-repl(1)).
 */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "repl/repl.h"

enum { O_KEEP_GOING, O_PROFILES, O_HELP };

const cli_opt repl_opts[] = {
	[O_KEEP_GOING] = { "keep-going", 'k', NULL,
	                   "reading a script, run every line even after one fails" },
	[O_PROFILES] = CLI_OPT_PROFILES,
	[O_HELP] = CLI_OPT_HELP,
	{ NULL, 0, NULL, NULL },
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
		printf("gpushare %s: a what-if session. 'help' lists the commands, Ctrl-D ends it.\n",
		       GS_VERSION);
	if (file && (rc = repl_load(&r, file)) != EXIT_OK)
		goto done;
	if (line_open(&lr, tty, tty && repl_history_path(history, sizeof history) == 0 ? history : NULL,
	              repl_complete, &r) < 0) {
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
	const char *profiles = NULL;
	gs_catalog *cat = NULL;
	int keep_going = 0, opt, rc;
	cli_parser p;

	cli_parse_begin(&p, self, argc, argv);
	while ((opt = cli_next(&p)) >= 0) {
		if (opt == O_KEEP_GOING)
			keep_going = 1;
		else if (opt == O_PROFILES)
			profiles = p.arg;
	}
	if (opt == CLI_EXIT)
		return p.status;
	if (argc - p.optind > 1)
		return cli_usage_error(self, "unexpected argument '%s'", argv[p.optind + 1]);
	if ((rc = cli_load_catalog(profiles, &cat)) != EXIT_OK)
		return rc;
	/* The commands run inside find the same profiles. */
	if (profiles && setenv("GPUSHARE_PROFILES", profiles, 1) < 0) {
		gs_catalog_free(cat);
		return cli_error(EXIT_FAIL, "out of memory");
	}
	return session(p.optind < argc ? argv[p.optind] : NULL, keep_going, cat);
}
