/*
 * opts.c - option tables to getopt_long, to the variables their rows name,
 * and to --help.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_OPTS 64

const char *const cli_formats[] = { "text", "json", "yaml", NULL };
const char *const cli_dra_apis[] = { "v1", "v1beta2", "v1beta1", NULL };
_Static_assert(FMT_YAML == 2 && GS_DRA_V1BETA1 == 2, "the choices are in enum order");

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
	fprintf(out, "usage: gpushare %s %s\n\n%s", cmd->name, cmd->synopsis,
	        cmd->summary);
	if (cmd->more_help)
		cmd->more_help(out);
	fputc('\n', out);
	if (cmd->opts && cmd->opts[0].name)
		cli_print_options(cmd->opts, out);
	fprintf(out, "\nglobal options: -q (quiet), -v (verbose), --color=auto|always|never\n");
}

int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "gpushare: %s: ", cmd->name);
	va_start(ap, fmt);
	cli_vput_safe(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'gpushare %s --help'.\n", cmd->name);
	return EXIT_USAGE;
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

/* Reads one of choices into *index, or reports which there are. */
static int parse_choice(const cli_cmd *cmd, const char *opt, const char *const *choices,
                        const char *text, int *index)
{
	char list[256] = "";
	size_t n = 0, o = 0;

	for (int i = 0; choices[i]; i++) {
		if (strcmp(choices[i], text) == 0) {
			*index = i;
			return 0;
		}
		n++;
	}
	/* "a, b or c" */
	for (size_t i = 0; i < n && o < sizeof list; i++)
		o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
		                      i == 0 ? "" : i + 1 < n ? ", " : " or ", choices[i]);
	return cli_usage_error(cmd, "--%s must be %s, not '%s'", opt, list, text);
}

int cli_parse_kube(const cli_cmd *cmd, const char *text, int *minor)
{
	const char *t = text[0] == 'v' ? text + 1 : text;
	char *end = NULL;
	long v = -1;
	if (t[0] == '1' && t[1] == '.' && t[2] >= '0' && t[2] <= '9')
		v = strtol(t + 2, &end, 10);
	if (v < GS_KUBE_MINOR_MIN || v > GS_KUBE_MINOR_MAX || !end || *end)
		return cli_usage_error(cmd, "--kube-version must be 1.%d to 1.%d, not '%s'",
		                       GS_KUBE_MINOR_MIN, GS_KUBE_MINOR_MAX, text);
	*minor = (int)v;
	return 0;
}

/* Stores the value of a bound option; returns 0 or an exit status. */
static int store(const cli_parser *p, const cli_opt *o)
{
	char *at = (char *)p->args + o->at;
	int v, rc;

	switch (o->kind) {
	case CLI_K_FLAG:
	case CLI_K_LAST:
		*(int *)at = 1;
		return 0;
	case CLI_K_STR:
		*(const char **)at = p->arg;
		return 0;
	case CLI_K_INT:
		return cli_parse_int(p->cmd, o->name, p->arg, o->min, o->max, (int *)at);
	case CLI_K_ENUM:
		/* The field may be an enum type of int's size: no int lvalue. */
		if ((rc = parse_choice(p->cmd, o->name, o->choices, p->arg, &v)) == 0)
			memcpy(at, &v, sizeof v);
		return rc;
	case CLI_K_CALL:
		return o->call(p->cmd, p->args, p->arg);
	case CLI_K_KUBE:
		return cli_parse_kube(p->cmd, p->arg, (int *)at);
	case CLI_K_MANIFESTS:
		return cli_load_manifests(p->arg, (const gs_manifests **)(void *)at);
	default:
		return 0;
	}
}

/* The next option from getopt_long, after applying the global ones:
 * its row's index, CLI_DONE or CLI_EXIT. */
static int next_option(cli_parser *p)
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
	p->arg = optarg;
	return idx < 0 ? CLI_EXIT : idx;
}

int cli_next(cli_parser *p)
{
	for (;;) {
		int idx = next_option(p);
		const cli_opt *o;
		if (idx < 0)
			return idx;
		o = &p->cmd->opts[idx];
		if (o->kind == CLI_K_HELP) {
			cli_usage(p->cmd, stdout);
			p->status = EXIT_OK;
			return CLI_EXIT;
		}
		if (!p->args || o->kind == CLI_K_INDEX)
			return idx;
		if ((p->status = store(p, o)) != 0)
			return CLI_EXIT;
		if (o->kind == CLI_K_LAST)
			return CLI_DONE;
	}
}

void cli_parse_begin(cli_parser *p, const cli_cmd *cmd, int argc, char **argv)
{
	memset(p, 0, sizeof *p);
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
}

int cli_parse(const cli_cmd *cmd, int argc, char **argv, void *args, int *first)
{
	cli_parser p;
	int opt;

	cli_parse_begin(&p, cmd, argc, argv);
	p.args = args;
	opt = cli_next(&p);
	*first = p.optind;
	if (opt >= 0) /* a row that says nowhere: a mistake in the table */
		return cli_error(EXIT_FAIL, "--%s has no variable", cmd->opts[opt].name);
	return opt == CLI_EXIT ? p.status : CLI_DONE;
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
	return parse_choice(cmd, "format", cli_formats, text, fmt);
}
