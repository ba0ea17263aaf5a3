/*
 * cli.h - what the subcommands share: the option tables that drive parsing
 * and help, catalog discovery, error reporting and number formatting.
 */
#ifndef GS_CLI_H
#define GS_CLI_H

#include <stdio.h>

#include "gpushare.h"

/* Global options, accepted before the command and by every command:
 * -q (no informational lines), -v (say what is loaded and how long it
 * took), --color=auto|always|never (auto: colour on a terminal unless
 * NO_COLOR is set). */
typedef struct cli_ui {
	int quiet, verbose;
	int color;     /* 0 never, 1 always, -1 auto */
} cli_ui;
extern cli_ui cli_ui_state;
/* Handles a global option; returns 1 if it was one, 0 if not, or
 * EXIT_USAGE + 10 on a bad --color value (already reported). */
int cli_global_option(const char *name, const char *arg);
/* An informational line on stderr ("gpushare: wrote ..."), unless -q. */
void cli_info(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
/* A line on stderr with -v only. */
void cli_verbose(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
/* sgr (one of the CLI_ colours) when colour is on for stream fd (1 or
 * 2), else ""; CLI_RESET ends it. */
const char *cli_color(int fd, const char *sgr);
#define CLI_RED "\033[1;31m"
#define CLI_GREEN "\033[1;32m"
#define CLI_BOLD "\033[1m"
#define CLI_RESET "\033[0m"

/* Exit statuses (gpushare(1), EXIT STATUS). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* One option, declared once: it feeds getopt_long, --help and the man
 * page's synopsis check. */
typedef struct cli_opt {
	const char *name;  /* long name; NULL ends a table */
	char short_name;   /* 0: none */
	const char *arg;   /* NULL: takes no argument */
	const char *help;
} cli_opt;

typedef struct cli_cmd cli_cmd;
struct cli_cmd {
	const char *name;
	int (*run)(const cli_cmd *self, int argc, char **argv);
	const char *brief;    /* one line for the command list */
	const char *synopsis; /* after "gpushare NAME " */
	const char *summary;
	const cli_opt *opts;
};

/* The command table (commands.c): main.c dispatches through it, and
 * --help, completion and the REPL read it. */
extern const cli_cmd cli_commands[];
const cli_cmd *cli_find_command(const char *name);

/* Options every command that reads profiles accepts. */
#define CLI_OPT_PROFILES \
	{ "profiles", 0, "DIR", "load GPU and instance profiles from DIR (colon-separated list)" }
#define CLI_OPT_FORMAT \
	{ "format", 0, "FMT", "output format: text, json or yaml" }
#define CLI_OPT_HELP { "help", 'h', NULL, "show this help and exit" }
/* Emitting options, shared by `plan --emit` and `emit` (in this order). */
#define CLI_OPT_RENAME \
	{ "rename-shared", 0, NULL, "advertise shared GPUs as nvidia.com/gpu.shared" }
#define CLI_OPT_EXAMPLES \
	{ "example-deployments", 0, NULL, "complete example Deployments instead of patches" }
#define CLI_OPT_DRA { "dra", 0, NULL, "DRA ResourceClaims even when via is device-plugin" }
#define CLI_OPT_DRA_API \
	{ "dra-api", 0, "V", "resource.k8s.io version: v1 (default), v1beta2 or v1beta1" }
#define CLI_OPT_NAMESPACE \
	{ "namespace", 0, "NS", "namespace of the ConfigMaps (default gpu-operator)" }

/* Iterates over argv's options. Returns the option's index in the table,
 * CLI_DONE at the end (then p->optind is the first operand), or CLI_EXIT
 * with p->status set after --help or a usage error (already reported). */
enum { CLI_DONE = -1, CLI_EXIT = -2 };
typedef struct cli_parser {
	const cli_cmd *cmd;
	int argc;
	char **argv;
	const char *arg;   /* the current option's argument */
	int optind;
	int status;
	int started;
} cli_parser;

void cli_parse_begin(cli_parser *p, const cli_cmd *cmd, int argc, char **argv);
int cli_next(cli_parser *p);
void cli_usage(const cli_cmd *cmd, FILE *out);
/* "\noptions:" and a line for each option, as --help and the REPL's help
 * show them. */
void cli_print_options(const cli_opt *opts, FILE *out);
/* Reports a usage error for the command; returns EXIT_USAGE. */
int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...);

/* Prints "gpushare: error: MESSAGE" and returns status. */
int cli_error(int status, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* Reports an unknown GPU model with the nearest known name. */
int cli_unknown_gpu(const gs_catalog *cat, const char *name);

/* Reports err as "gpushare: FILE:LINE:COL: error: MSG" and returns the exit
 * status for its code. */
int cli_fail(const gs_error *err);
int cli_status(int code);

/* Loads the catalog from --profiles, $GPUSHARE_PROFILES, the source tree
 * or the installed data, in that order. */
int cli_load_catalog(const char *flag, gs_catalog **out);

/* Parses --format; returns 0 for text, 1 json, 2 yaml, -1 bad. */
enum { FMT_TEXT, FMT_JSON, FMT_YAML };
int cli_parse_format(const cli_cmd *cmd, const char *text, int *fmt);
/* Renders and prints a document; frees it. */
int cli_print_doc(gs_doc *doc, int fmt);

int cli_parse_int(const cli_cmd *cmd, const char *opt, const char *text,
                  long min, long max, int *out);

/* "$8,935.20" */
char *cli_money(gs_micros m, char *buf, size_t size);
/* Exact, at least cents: "$0.3941", "$3.06" */
char *cli_price(gs_micros m, char *buf, size_t size);
/* Prints text indented by `indent`, wrapped at spaces to fit 80 columns. */
void cli_print_wrapped(const char *text, int indent);
/* The same after lead (e.g. "  - "), which starts the first line. */
void cli_print_hanging(const char *lead, const char *text, int indent);
/* "15.78 GiB" */
char *cli_gib(int64_t mib, char *buf, size_t size);

/* Prints a plan as text (plan_text.c), JSON or YAML, for `plan` and the
 * REPL. */
int cli_plan_print(const gs_plan *plan, const gs_scenario *scn, int fmt);

/* emit_files.c: renders every wanted kind, then writes them to dir
 * atomically, refusing existing files unless force. */
int cli_emit_dir(const gs_plan *plan, const gs_emit_opts *o, const char *dir,
                 int karpenter, int force);
/* Applies one of the five emitting options; idx - first picks which. */
int cli_emit_option(const cli_cmd *self, int first, int idx, const char *arg,
                    gs_emit_opts *o);

/* Subcommands, one file each. */
int cmd_plan(const cli_cmd *self, int argc, char **argv);
int cmd_emit(const cli_cmd *self, int argc, char **argv);
int cmd_advise(const cli_cmd *self, int argc, char **argv);
int cmd_import(const cli_cmd *self, int argc, char **argv);
int cmd_savings(const cli_cmd *self, int argc, char **argv);
int cmd_gpus(const cli_cmd *self, int argc, char **argv);
int cmd_instances(const cli_cmd *self, int argc, char **argv);
int cmd_mig(const cli_cmd *self, int argc, char **argv);
int cmd_completion(const cli_cmd *self, int argc, char **argv);
int cmd_repl(const cli_cmd *self, int argc, char **argv);
int cmd_lint(const cli_cmd *self, int argc, char **argv);

extern const cli_opt plan_opts[];
extern const cli_opt emit_opts[];
extern const cli_opt advise_opts[];
extern const cli_opt import_opts[];
extern const cli_opt savings_opts[];
extern const cli_opt gpus_opts[];
extern const cli_opt instances_opts[];
extern const cli_opt mig_opts[];
extern const cli_opt completion_opts[];
extern const cli_opt repl_opts[];
extern const cli_opt lint_opts[];

#endif
