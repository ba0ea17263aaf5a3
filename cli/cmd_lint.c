/* cmd_lint.c - `gpushare lint FILE...`: check existing GPU-sharing configs. */
#include <string.h>

#include "cli.h"

typedef struct lint_args {
	const char *gpu, *profiles;
	int fmt, list_rules;
} lint_args;

const cli_opt lint_opts[] = {
	{ "gpu", 'g', "MODEL", "check MIG geometries and MPS limits for this GPU model",
	  CLI_STR(lint_args, gpu) },
	{ CLI_ROW_FORMAT, CLI_ENUM(lint_args, fmt, cli_formats) },
	/* The options after it do not matter: it lists and exits. */
	{ "list-rules", 0, NULL, "list every rule with its severity and exit",
	  CLI_LAST(lint_args, list_rules) },
	{ CLI_ROW_PROFILES, CLI_STR(lint_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static void list_rules(void)
{
	for (size_t i = 0; i < gs_lint_rule_count(); i++) {
		const gs_lint_rule *r = gs_lint_rule_at(i);
		printf("%-28s %-8s %s\n", r->id, gs_severity_name(r->severity), r->summary);
	}
}

static void print_text(const gs_lint *l)
{
	size_t n = gs_lint_count(l), errors = gs_lint_error_count(l);

	for (size_t i = 0; i < n; i++) {
		const gs_finding *f = gs_lint_at(l, i);
		printf("%s:%lu:%lu: %s: %s [%s]\n", f->file, f->line, f->col,
		       gs_severity_name(f->severity), f->message, f->id);
	}
	fflush(stdout);
	fprintf(stderr, "%zu error%s, %zu warning%s\n", errors, errors == 1 ? "" : "s",
	        n - errors, n - errors == 1 ? "" : "s");
}

/* Lints every file; returns EXIT_USAGE when one cannot be read or is not
 * YAML (reported, the others are still linted), else EXIT_OK. *linted
 * counts the files that were. */
static int lint_files(gs_lint *l, int argc, char **argv, int *linted)
{
	int rc = EXIT_OK;
	gs_error err;

	for (int i = 0; i < argc; i++) {
		if (gs_lint_file(l, argv[i], &err) == 0) {
			(*linted)++;
			continue;
		}
		if (err.code == GS_ENOMEM)
			return cli_fail(&err);
		cli_fail(&err);
		rc = EXIT_USAGE;
	}
	return rc;
}

static int run(const gs_lint_opts *o, int fmt, int argc, char **argv)
{
	gs_lint *l = NULL;
	gs_error err;
	int rc, out = EXIT_OK, linted = 0;

	if (gs_lint_new(o, &l, &err) < 0)
		return cli_fail(&err);
	rc = lint_files(l, argc, argv, &linted);
	if (gs_lint_finish(l, &err) < 0) {
		gs_lint_free(l);
		return cli_fail(&err);
	}
	if (fmt == FMT_TEXT) {
		if (linted)
			print_text(l);
	} else if (linted) {
		gs_doc *doc;
		out = gs_doc_lint(l, &doc, &err) < 0 ? cli_fail(&err) : cli_print_doc(doc, fmt);
	}
	if (rc == EXIT_OK && out != EXIT_OK)
		rc = out;
	if (rc == EXIT_OK && gs_lint_error_count(l) > 0)
		rc = EXIT_FAIL;
	gs_lint_free(l);
	return rc;
}

int cmd_lint(const cli_cmd *self, int argc, char **argv)
{
	lint_args a = { NULL, NULL, FMT_TEXT, 0 };
	gs_lint_opts o = GS_LINT_OPTS_INIT;
	gs_catalog *cat = NULL;
	int first, rc;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	if (a.list_rules) {
		list_rules();
		return EXIT_OK;
	}
	if (first >= argc)
		return cli_usage_error(self, "a file to lint is required");
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	o.catalog = cat;
	if (a.gpu && !(o.gpu = gs_gpu_find(cat, a.gpu)))
		rc = cli_unknown_gpu(cat, a.gpu);
	else
		rc = run(&o, a.fmt, argc - first, argv + first);
	gs_catalog_free(cat);
	return rc;
}
