/* opts.c - option tables to getopt_long and --help. */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_OPTS 64

void cli_print_options(const cli_opt *opts, FILE *out)
{
	fprintf(out, "\noptions:\n");
	for (const cli_opt *o = opts; o->name; o++) {
		char left[64];
		int n = o->short_name ? snprintf(left, sizeof left, "-%c, --%s",
		                                 o->short_name, o->name)
		                      : snprintf(left, sizeof left, "    --%s", o->name);
		if (o->arg && n > 0 && (size_t)n < sizeof left)
			snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
		fprintf(out, "  %-26s %s\n", left, o->help);
	}
}

void cli_usage(const cli_cmd *cmd, FILE *out)
{
	fprintf(out, "usage: gpushare %s %s\n\n%s\n", cmd->name, cmd->synopsis,
	        cmd->summary);
	if (cmd->opts && cmd->opts[0].name)
		cli_print_options(cmd->opts, out);
	fprintf(out, "\nglobal options: -q (quiet), -v (verbose), --color=auto|always|never\n");
}

int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "gpushare: %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'gpushare %s --help'.\n", cmd->name);
	return EXIT_USAGE;
}

void cli_parse_begin(cli_parser *p, const cli_cmd *cmd, int argc, char **argv)
{
	memset(p, 0, sizeof *p);
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
}

static size_t build(const cli_cmd *cmd, struct option *lo, char *shorts)
{
	size_t n = 0, s = 0;
	/* A leading ':' reports a missing argument distinctly from an
	 * unknown option; options may follow operands. */
	shorts[s++] = ':';
	for (const cli_opt *o = cmd->opts; o && o->name && n < MAX_OPTS - 1; o++, n++) {
		lo[n].name = o->name;
		lo[n].has_arg = o->arg ? required_argument : no_argument;
		lo[n].flag = NULL;
		lo[n].val = 256 + (int)n;
		if (o->short_name) {
			shorts[s++] = o->short_name;
			if (o->arg)
				shorts[s++] = ':';
		}
	}
	/* The global options, in every command without being in its table. */
	lo[n++] = (struct option){ "quiet", no_argument, NULL, 1000 };
	lo[n++] = (struct option){ "verbose", no_argument, NULL, 1001 };
	lo[n++] = (struct option){ "color", required_argument, NULL, 1002 };
	shorts[s++] = 'q';
	shorts[s++] = 'v';
	memset(&lo[n], 0, sizeof lo[n]);
	shorts[s] = '\0';
	return n;
}

static int index_of_short(const cli_cmd *cmd, int c)
{
	for (int i = 0; cmd->opts[i].name; i++)
		if (cmd->opts[i].short_name == c)
			return i;
	return -1;
}

int cli_next(cli_parser *p)
{
	struct option lo[MAX_OPTS + 3];
	char shorts[2 * MAX_OPTS + 3];
	int c, idx;

	build(p->cmd, lo, shorts);
	if (!p->started) {
		optind = 0; /* glibc: a full reset, so the REPL can parse again */
		p->started = 1;
	}
	opterr = 0;
	for (;;) {
		int g;
		c = getopt_long(p->argc, p->argv, shorts, lo, NULL);
		if (c != 'q' && c != 'v' && (c < 1000 || c > 1002))
			break;
		g = cli_global_option(c == 'q' || c == 1000 ? "quiet"
		                      : c == 'v' || c == 1001 ? "verbose" : "color", optarg);
		if (g > 1) {
			p->status = EXIT_USAGE;
			return CLI_EXIT;
		}
	}
	p->optind = optind;
	if (c == -1)
		return CLI_DONE;
	if (c == '?' || c == ':') {
		const char *bad = p->argv[optind - 1];
		if (c == ':')
			p->status = cli_usage_error(p->cmd, "option '%s' needs an argument", bad);
		else if (optopt)
			p->status = cli_usage_error(p->cmd, "unknown option '-%c'", optopt);
		else
			p->status = cli_usage_error(p->cmd, "unknown option '%s'", bad);
		return CLI_EXIT;
	}
	idx = c >= 256 ? c - 256 : index_of_short(p->cmd, c);
	if (idx < 0)
		return CLI_EXIT;
	p->arg = optarg;
	if (strcmp(p->cmd->opts[idx].name, "help") == 0) {
		cli_usage(p->cmd, stdout);
		p->status = EXIT_OK;
		return CLI_EXIT;
	}
	return idx;
}

int cli_parse_int(const cli_cmd *cmd, const char *opt, const char *text,
                  long min, long max, int *out)
{
	char *end;
	long v = strtol(text, &end, 10);
	if (!*text || *end || v < min || v > max)
		return cli_usage_error(cmd, "--%s must be a whole number from %ld to %ld, not '%s'",
		                       opt, min, max, text);
	*out = (int)v;
	return 0;
}

int cli_parse_format(const cli_cmd *cmd, const char *text, int *fmt)
{
	if (strcmp(text, "text") == 0)
		*fmt = FMT_TEXT;
	else if (strcmp(text, "json") == 0)
		*fmt = FMT_JSON;
	else if (strcmp(text, "yaml") == 0)
		*fmt = FMT_YAML;
	else
		return cli_usage_error(cmd, "--format must be text, json or yaml, not '%s'",
		                       text);
	return 0;
}
