/*
 * main.c - the entry point: global options before the command, --version
 * and --help, then dispatch through the command table (commands.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: gpushare [-q] [-v] [--color=WHEN] COMMAND [options] [ARGS]\n"
	             "       gpushare --version | --help\n\n"
	             "Advise on sharing GPUs (time-slicing, MPS, MIG) and what it saves.\n\n"
	             "commands:\n");
	for (const cli_cmd *c = cli_commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->brief);
	fprintf(out, "\nRun 'gpushare COMMAND --help' for a command's options.\n");
}

/* A word before the command: 1 for a global option (now applied), 0 for
 * something else, more for a bad --color (already reported). */
static int global_option(const char *a)
{
	if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
		return cli_global_option("quiet", NULL);
	if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
		return cli_global_option("verbose", NULL);
	if (strncmp(a, "--color=", 8) == 0)
		return cli_global_option("color", a + 8);
	return 0;
}

/* A closed standard stream would hand its descriptor to the next file
 * opened (an emitted file would receive the plan's text). Each closed one
 * is held by a device instead: /dev/full for output, so that anything
 * written to it fails and is reported. Returns whether stdout was closed. */
static int hold_closed_streams(void)
{
	int closed_out = 0;
	for (int fd = 0; fd <= 2; fd++) {
		int nfd;
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		nfd = open(fd == 0 ? "/dev/null" : "/dev/full", fd == 0 ? O_RDONLY : O_WRONLY);
		if (nfd >= 0 && nfd != fd) {
			dup2(nfd, fd);
			close(nfd);
		}
		closed_out |= fd == 1;
	}
	return closed_out;
}

/* Output that never arrived is a failure, whatever the command thought:
 * a full disk, a closed stdout or an I/O error turn a success into 1. */
static int output_kept(int rc, int stdout_closed)
{
	int lost = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (!lost)
		return rc;
	if (stdout_closed)
		fprintf(stderr, "gpushare: error: cannot write the output: standard output "
		                "is closed\n");
	else
		fprintf(stderr, "gpushare: error: cannot write the output: %s\n", strerror(e));
	return rc ? rc : EXIT_FAIL;
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
	int stdout_closed = hold_closed_streams();

	/* `gpushare plan | head -1` must end quietly, not with an error. */
	signal(SIGPIPE, SIG_DFL);
	return output_kept(run(argc, argv), stdout_closed);
}

static int run(int argc, char **argv)
{
	const cli_cmd *cmd;

	/* Global options may come before the command: gpushare -q plan ... */
	while (argc > 1 && argv[1][0] == '-') {
		int g = global_option(argv[1]);
		if (g > 1)
			return EXIT_USAGE;
		if (!g)
			break;
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	if (argc < 2) {
		/* On a terminal, plain `gpushare` starts a session. */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
			char name[] = "repl", *args[] = { name, NULL };
			cmd = cli_find_command("repl");
			return cmd->run(cmd, 1, args);
		}
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("gpushare %s\n", GS_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2 && (cmd = cli_find_command(argv[2]))) {
			cli_usage(cmd, stdout);
			return EXIT_OK;
		}
		usage(stdout);
		return EXIT_OK;
	}
	if (!(cmd = cli_find_command(argv[1]))) {
		fputs("gpushare: unknown command '", stderr);
		cli_put_safe(stderr, argv[1]);
		fputs("'\nTry 'gpushare --help'.\n", stderr);
		return EXIT_USAGE;
	}
	return cmd->run(cmd, argc - 1, argv + 1);
}
