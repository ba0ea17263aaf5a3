/*
 * cli.h - what the subcommands share: the option tables that drive parsing
 * and help, catalog discovery, error reporting and number formatting.
 */
#ifndef GS_CLI_H
#define GS_CLI_H

#include <stdarg.h>
#include <stddef.h>
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
/* Writes s with its control characters escaped (\n, \t, \x1b, C1 as
 * \u0085): every message passes through it, so text from a file (a
 * workload name, a path) can neither forge a line nor drive the terminal. */
void cli_put_safe(FILE *f, const char *s);
void cli_vput_safe(FILE *f, const char *fmt, va_list ap);
/* "gpushare: warning: ..." on stderr, escaped like every message. */
void cli_warning(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
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

typedef struct cli_cmd cli_cmd;

/* How an option's value is stored: each row of an option table names its
 * variable and how to read it, and cli_parse() fills the variables. */
typedef enum cli_kind {
	CLI_K_INDEX, /* stored by the caller: cli_next() returns the row's index */
	CLI_K_HELP,  /* prints the command's help; the command ends with 0 */
	CLI_K_FLAG,  /* int: 1 */
	CLI_K_LAST,  /* int: 1, and the options after it are not read */
	CLI_K_STR,   /* const char *: the argument */
	CLI_K_INT,   /* int: the argument, a whole number from min to max */
	CLI_K_ENUM,  /* an int-sized enum: the argument's index in choices */
	CLI_K_CALL,  /* call() stores it */
	CLI_K_KUBE,  /* int: the minor of a Kubernetes version "1.N" (cli_parse_kube) */
	CLI_K_MANIFESTS, /* const gs_manifests *: a file loaded (cli_load_manifests) */
} cli_kind;

/* One option, declared once: it feeds getopt_long, the parser, --help,
 * completion and the man page's synopsis check. */
typedef struct cli_opt {
	const char *name;  /* long name; NULL ends a table */
	char short_name;   /* 0: none */
	const char *arg;   /* NULL: takes no argument */
	const char *help;
	cli_kind kind;
	/* The variable, as an offset into the struct cli_parse() fills: a
	 * command keeps its options in a struct of its own on its stack, as
	 * the REPL runs a command many times in one process. */
	size_t at;
	long min, max;                /* CLI_K_INT */
	const char *const *choices;   /* CLI_K_ENUM, NULL-terminated */
	/* CLI_K_CALL: returns 0, or an exit status after reporting. */
	int (*call)(const cli_cmd *cmd, void *args, const char *arg);
} cli_opt;

/* The rest of a row, after its name, short name, argument and help:
 * where its value goes in a T and how it is read. Each checks the type
 * of the field f, so a row cannot write the wrong kind of variable. */
#define CLI_AT(T, f, type) \
	(offsetof(T, f) + 0 * sizeof(char[_Generic(((T *)0)->f, type: 1)]))
#define CLI_FLAG(T, f) .kind = CLI_K_FLAG, .at = CLI_AT(T, f, int)
#define CLI_LAST(T, f) .kind = CLI_K_LAST, .at = CLI_AT(T, f, int)
#define CLI_STR(T, f) .kind = CLI_K_STR, .at = CLI_AT(T, f, const char *)
#define CLI_INT(T, f, lo, hi) \
	.kind = CLI_K_INT, .at = CLI_AT(T, f, int), .min = (lo), .max = (hi)
/* f is an int or an enum of int's size; list names its values in order
 * (cli_formats, cli_dra_apis). */
#define CLI_ENUM(T, f, list) \
	.kind = CLI_K_ENUM, .choices = (list), \
	.at = (offsetof(T, f) + \
	       0 * sizeof(char[sizeof(((T *)0)->f) == sizeof(int) ? 1 : -1]))
#define CLI_CALL(fn) .kind = CLI_K_CALL, .call = (fn)
#define CLI_KUBE(T, f) .kind = CLI_K_KUBE, .at = CLI_AT(T, f, int)
/* "1.35" (or "v1.35") as 35, within the versions the library supports;
 * returns 0 or EXIT_USAGE after reporting. */
int cli_parse_kube(const cli_cmd *cmd, const char *text, int *minor);
#define CLI_MANIFESTS(T, f) .kind = CLI_K_MANIFESTS, .at = CLI_AT(T, f, const gs_manifests *)
/* Loads the workloads' manifests into *out (0, or an exit status after
 * the error is printed); they live until the process ends. */
int cli_load_manifests(const char *path, const gs_manifests **out);
/* --placement P over the file's placement (NULL: the file's). */
int cli_set_placement(gs_scenario *s, const char *placement, gs_error *err);

/* The values of --format and --dra-api, in the order of FMT_* and
 * gs_dra_api. */
extern const char *const cli_formats[];
extern const char *const cli_dra_apis[];

/* Rows several tables share: name, short name, argument and help. */
#define CLI_ROW_PROFILES \
	"profiles", 0, "DIR", "load GPU and instance profiles from DIR (colon-separated list)"
#define CLI_ROW_FORMAT "format", 0, "FMT", "output format: text, json or yaml"
#define CLI_OPT_HELP { "help", 'h', NULL, "show this help and exit", .kind = CLI_K_HELP }
#define CLI_OPT_END { .name = NULL }
/* The emitting options, shared by `plan --emit` and `emit` (in this
 * order). CLI_OPTS_EMIT makes their seven rows, stored into the
 * gs_emit_opts eo of a T. */
#define CLI_ROW_RENAME \
	"rename-shared", 0, NULL, "advertise shared GPUs as nvidia.com/gpu.shared"
#define CLI_ROW_EXAMPLES \
	"example-deployments", 0, NULL, "complete example Deployments instead of patches"
#define CLI_ROW_DRA "dra", 0, NULL, "DRA ResourceClaims even when via is device-plugin"
#define CLI_ROW_DRA_API \
	"dra-api", 0, "V", "resource.k8s.io: v1, v1beta2 or v1beta1 (default: per --kube-version)"
#define CLI_ROW_KUBE \
	"kube-version", 0, "1.N", "the cluster's Kubernetes, 1.32 to 1.37 (default 1.35)"
#define CLI_ROW_PLACEMENT \
	"placement", 0, "P", "robust (any placement fits) or pinned (copies per placement)"
#define CLI_ROW_MANIFESTS \
	"manifests", 0, "FILE", "the workloads' real objects: patches name their containers"
#define CLI_ROW_NAMESPACE \
	"namespace", 0, "NS", "namespace of the ConfigMaps (default gpu-operator)"
#define CLI_OPTS_EMIT(T, eo) \
	{ CLI_ROW_RENAME, CLI_FLAG(T, eo.rename_shared) }, \
	{ CLI_ROW_EXAMPLES, CLI_FLAG(T, eo.example_deployments) }, \
	{ CLI_ROW_DRA, CLI_FLAG(T, eo.dra) }, \
	{ CLI_ROW_DRA_API, CLI_ENUM(T, eo.dra_api, cli_dra_apis) }, \
	{ CLI_ROW_NAMESPACE, CLI_STR(T, eo.namespace_) }, \
	{ CLI_ROW_KUBE, CLI_KUBE(T, eo.kube_minor) }, \
	{ CLI_ROW_MANIFESTS, CLI_MANIFESTS(T, eo.manifests) }
/* The same rows read by index, for a command that stores them itself
 * (emit, through cli_emit_option). */
#define CLI_OPT_PROFILES { CLI_ROW_PROFILES, .kind = CLI_K_INDEX }
#define CLI_OPT_RENAME { CLI_ROW_RENAME, .kind = CLI_K_INDEX }
#define CLI_OPT_EXAMPLES { CLI_ROW_EXAMPLES, .kind = CLI_K_INDEX }
#define CLI_OPT_DRA { CLI_ROW_DRA, .kind = CLI_K_INDEX }
#define CLI_OPT_DRA_API { CLI_ROW_DRA_API, .kind = CLI_K_INDEX }
#define CLI_OPT_NAMESPACE { CLI_ROW_NAMESPACE, .kind = CLI_K_INDEX }
#define CLI_OPT_KUBE { CLI_ROW_KUBE, .kind = CLI_K_INDEX }
#define CLI_OPT_MANIFESTS { CLI_ROW_MANIFESTS, .kind = CLI_K_INDEX }

struct cli_cmd {
	const char *name;
	int (*run)(const cli_cmd *self, int argc, char **argv);
	const char *brief;    /* one line for the command list */
	const char *synopsis; /* after "gpushare NAME " */
	const char *summary;
	const cli_opt *opts;
	/* Prints what follows the summary in --help, for text that comes
	 * from the library (emit's kinds); NULL: nothing. */
	void (*more_help)(FILE *out);
};

/* The command table (commands.c): main.c dispatches through it, and
 * --help, completion and the REPL read it. */
extern const cli_cmd cli_commands[];
const cli_cmd *cli_find_command(const char *name);

/* Reads argv's options (and the global ones) into args, a struct the
 * rows of cmd's table point into. Returns CLI_DONE, with *first the index
 * of the first operand, or the exit status after --help or a usage error
 * (already reported). */
enum { CLI_DONE = -1, CLI_EXIT = -2 };
int cli_parse(const cli_cmd *cmd, int argc, char **argv, void *args, int *first);

/* One option at a time, for a caller that stores options itself (emit,
 * and the REPL running plan or emit on its scenario). cli_next() returns
 * the option's index in the table, CLI_DONE at the end (then p->optind is
 * the first operand), or CLI_EXIT with p->status set after --help or a
 * usage error (already reported). With p->args set (cli_parse), it
 * stores the rows that say where and returns only the others. */
typedef struct cli_parser {
	const cli_cmd *cmd;
	int argc;
	char **argv;
	void *args;        /* where bound rows are stored; NULL: nowhere */
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
/* Writes the HTML page html (taken: freed here) to path atomically, an
 * existing path only with force, and says so; EXIT_OK or the status after
 * reporting. */
int cli_write_page(const char *path, char *html, int force);
int cli_status(int code);

/* Loads the catalog from --profiles, $GPUSHARE_PROFILES, the source tree
 * or the installed data, in that order. */
int cli_load_catalog(const char *flag, gs_catalog **out);

/* --format's values (cli_formats names them). cli_parse_format() reads one
 * into *fmt and returns 0, or reports a usage error and returns
 * EXIT_USAGE. */
enum { FMT_TEXT, FMT_JSON, FMT_YAML };
int cli_parse_format(const cli_cmd *cmd, const char *text, int *fmt);
/* Renders and prints a document; frees it. */
int cli_print_doc(gs_doc *doc, int fmt);

/* Reads a whole number from min to max for --opt into *out and returns 0,
 * or reports a usage error and returns EXIT_USAGE. */
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
/* Applies one of the seven emitting options; idx - first picks which. */
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
int cmd_cost(const cli_cmd *self, int argc, char **argv);

extern const cli_opt plan_opts[];
extern const cli_opt emit_opts[];
/* emit's --help: the kinds, as the library's registry names them. */
void cli_emit_kinds_help(FILE *out);
extern const cli_opt advise_opts[];
extern const cli_opt import_opts[];
extern const cli_opt savings_opts[];
extern const cli_opt gpus_opts[];
extern const cli_opt instances_opts[];
extern const cli_opt mig_opts[];
extern const cli_opt completion_opts[];
extern const cli_opt repl_opts[];
extern const cli_opt lint_opts[];
extern const cli_opt cost_opts[];

/* cluster_in.c: a cluster's inputs, shared by import, plan --nodes and
 * cost. The cli_cluster is the FIRST member of the command's args, so the
 * option callbacks find it; CLI_OPTS_CLUSTER(T, f) are its rows (f: the
 * member's name). */
/* --prometheus and the options that shape its queries (prom_args.c). */
typedef struct cli_prom {
	const char *url;              /* NULL: no Prometheus */
	const char *window, *step, *until; /* as given, for messages; NULL: default */
	int64_t window_ms, step_ms, until_ms; /* parsed when given */
	int timeout;                  /* seconds per request; 0: the default */
} cli_prom;
typedef struct cli_cluster {
	gs_import_opts o;             /* percentile, team label, strict */
	const char **nodes, **pods, **metrics;
	size_t n_nodes, n_pods, n_metrics;
	cli_prom prom;                /* DCGM series from a Prometheus server */
	const char **claims;          /* DRA ResourceClaims (cost only) */
	size_t n_claims;
	const char *context, *kubeconfig; /* either: nodes and pods from kubectl */
	int live_claims;              /* with kubectl, also its ResourceClaims (cost) */
} cli_cluster;
int cli_cluster_init(cli_cluster *c, int argc);
void cli_cluster_free(cli_cluster *c);
int cli_cluster_add_nodes(const cli_cmd *self, void *args, const char *file);
int cli_cluster_add_pods(const cli_cmd *self, void *args, const char *file);
int cli_cluster_add_metrics(const cli_cmd *self, void *args, const char *file);
int cli_cluster_add_claims(const cli_cmd *self, void *args, const char *file);
/* 1 when a node or pod list was given. */
int cli_cluster_given(const cli_cluster *c);
/* -1 when the inputs go together, else the exit status after a usage error. */
int cli_cluster_check(const cli_cmd *self, const cli_cluster *c);
/* Parses a command that takes a cluster and no other argument (args
 * starts with its cli_cluster): -1 to go on, else the exit status. */
int cli_cluster_parse(const cli_cmd *self, int argc, char **argv, void *args);
/* What names the cluster in titles: the first node list. */
const char *cli_cluster_name(const cli_cluster *c);
/* Reads and measures it; EXIT_OK, or the status after reporting. */
int cli_cluster_load(const cli_cluster *c, const gs_catalog *cat, gs_inventory **out);
/* prom_args.c: the option callbacks of --window, --step and --until (each
 * parses its argument now, a usage error when it cannot), and the check
 * that they come with --prometheus (-1, or the exit status). */
int cli_prom_set_window(const cli_cmd *self, void *args, const char *text);
int cli_prom_set_step(const cli_cmd *self, void *args, const char *text);
int cli_prom_set_until(const cli_cmd *self, void *args, const char *text);
int cli_prom_check(const cli_cmd *self, const cli_prom *p);
/* prom_read.c: the DCGM series of the range p names, each query's body
 * read by the inventory as a metrics source. 0, or a GS_E* code with err
 * filled; Prometheus' warnings go to stderr as they come. */
int cli_prom_read(const cli_prom *p, gs_inventory *inv, gs_error *err);
/* kubectl.c: the node list (GS_INPUT_NODES), pod list or ResourceClaims of the cluster
 * c's --kubeconfig and --context name, read into inv by running kubectl
 * (KUBECTL names another binary). Its failure is the error, named
 * "kubectl get nodes", "... pods" or "... resourceclaims"; a cluster without
 * ResourceClaims is a warning. */
int cli_kubectl_read(const cli_cluster *c, gs_inventory *inv, gs_import_input what,
                     gs_error *err);

#define CLI_OPTS_CLUSTER(T, f) \
	{ "nodes", 0, "FILE", "'kubectl get nodes -o json' output (repeatable; - for stdin)", \
	  CLI_CALL(cli_cluster_add_nodes) }, \
	{ "pods", 0, "FILE", "'kubectl get pods -A -o json' output (repeatable; - for stdin)", \
	  CLI_CALL(cli_cluster_add_pods) }, \
	{ "metrics", 'm', "FILE", \
	  "a dcgm-exporter scrape or a Prometheus query result (repeatable)", \
	  CLI_CALL(cli_cluster_add_metrics) }, \
	{ "percentile", 'p', "N", "percentile of the samples to plan for (default 95)", \
	  CLI_INT(T, f.o.percentile, 1, 100) }, \
	{ "team-label", 0, "KEY", "pod label naming the team (default: the namespace)", \
	  CLI_STR(T, f.o.team_label) }, \
	{ "strict", 0, NULL, "fail on a bad sample or an unknown GPU, not warn", \
	  CLI_FLAG(T, f.o.strict) }, \
	{ "prometheus", 0, "URL", "read the DCGM series from the Prometheus server at URL", \
	  CLI_STR(T, f.prom.url) }, \
	{ "window", 0, "DURATION", "with --prometheus, how far back to read (default 7d)", \
	  CLI_CALL(cli_prom_set_window) }, \
	{ "step", 0, "DURATION", "with --prometheus, the query resolution (default 5m)", \
	  CLI_CALL(cli_prom_set_step) }, \
	{ "until", 0, "TIME", "with --prometheus, the window's end (default now)", \
	  CLI_CALL(cli_prom_set_until) }, \
	{ "timeout", 0, "SECONDS", "with --prometheus, the limit of each request (default 30)", \
	  CLI_INT(T, f.prom.timeout, 1, 86400) }, \
	{ "context", 0, "NAME", "read nodes and pods with kubectl from this kubeconfig context", \
	  CLI_STR(T, f.context) }, \
	{ "kubeconfig", 0, "FILE", "the kubeconfig kubectl reads nodes and pods with", \
	  CLI_STR(T, f.kubeconfig) }

/* DRA claims: only what reads who holds which GPU (cost) takes them. */
#define CLI_OPT_CLAIMS \
	{ "claims", 0, "FILE", \
	  "'kubectl get resourceclaims -A -o json' output (repeatable; - for stdin)", \
	  CLI_CALL(cli_cluster_add_claims) }

#endif
