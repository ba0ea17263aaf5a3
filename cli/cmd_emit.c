/* cmd_emit.c - `gpushare emit KIND FILE`: one kind of configuration. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "cli.h"

enum { O_RENAME, O_EXAMPLES, O_DRA, O_DRA_API, O_NAMESPACE, O_KUBE, O_MANIFESTS, O_PLACEMENT,
       O_PROFILES, O_HELP };

const cli_opt emit_opts[] = {
	[O_RENAME] = CLI_OPT_RENAME,
	[O_EXAMPLES] = CLI_OPT_EXAMPLES,
	[O_DRA] = CLI_OPT_DRA,
	[O_DRA_API] = CLI_OPT_DRA_API,
	[O_NAMESPACE] = CLI_OPT_NAMESPACE,
	[O_KUBE] = CLI_OPT_KUBE,
	[O_MANIFESTS] = CLI_OPT_MANIFESTS,
	[O_PLACEMENT] = { CLI_ROW_PLACEMENT, .kind = CLI_K_INDEX },
	[O_PROFILES] = CLI_OPT_PROFILES,
	[O_HELP] = CLI_OPT_HELP,
	CLI_OPT_END,
};

/* The kind named on the command line; the list of kinds in the message
 * comes from the library's. */
static int kind_of(const cli_cmd *self, const char *name, gs_emit_kind *k)
{
	char list[512] = "";
	size_t len = 0;
	if (gs_emit_kind_parse(name, k) == 0)
		return 0;
	for (int i = 0; i < GS_EMIT_KIND_COUNT && len < sizeof list; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
		                        gs_emit_kind_name((gs_emit_kind)i));
	return cli_usage_error(self, "unknown kind '%s' (one of %s)", name, list);
}

int cmd_emit(const cli_cmd *self, int argc, char **argv)
{
	gs_emit_opts eo = GS_EMIT_OPTS_INIT;
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	const char *profiles = NULL, *placement = NULL;
	gs_scenario *scn = NULL;
	gs_catalog *cat = NULL;
	gs_plan *plan = NULL;
	char *text = NULL;
	gs_emit_kind kind;
	gs_error err;
	cli_parser p;
	int opt, rc;

	cli_parse_begin(&p, self, argc, argv);
	while ((opt = cli_next(&p)) >= 0) {
		if (opt == O_PROFILES)
			profiles = p.arg;
		else if (opt == O_PLACEMENT)
			placement = p.arg;
		else if ((rc = cli_emit_option(self, O_RENAME, opt, p.arg, &eo)))
			return rc;
	}
	if (opt == CLI_EXIT)
		return p.status;
	if (argc - p.optind != 2)
		return cli_usage_error(self, "needs a KIND and a workload FILE");
	if ((rc = kind_of(self, argv[p.optind], &kind)))
		return rc;
	if ((rc = cli_load_catalog(profiles, &cat)) != EXIT_OK)
		return rc;
	eo.source = argv[p.optind + 1];
	if (gs_scenario_load(cat, argv[p.optind + 1], &scn, &err) < 0 ||
	    cli_set_placement(scn, placement, &err) < 0 ||
	    gs_plan_make(scn, &po, &plan, &err) < 0 || gs_emit(plan, kind, &eo, &text, &err) < 0)
		rc = cli_fail(&err);
	else
		fputs(text, stdout);
	free(text);
	gs_plan_free(plan);
	gs_scenario_free(scn);
	gs_catalog_free(cat);
	return rc;
}

/* Prints one word of the help, wrapped at 80 columns like the rest. */
static void help_word(FILE *out, const char *word, int *col)
{
	int len = (int)strlen(word);
	if (*col > 0 && *col + 1 + len > 80) {
		fputc('\n', out);
		*col = 0;
	} else if (*col > 0) {
		fputc(' ', out);
		(*col)++;
	}
	fputs(word, out);
	*col += len;
}

void cli_emit_kinds_help(FILE *out)
{
	/* Continues the summary's line: "...configuration: a, b or c." */
	int col = (int)strlen("Plan FILE and print one kind of its Kubernetes configuration:");

	for (int k = 0; k < GS_EMIT_KIND_COUNT; k++) {
		char word[64];
		int last = k + 1 == GS_EMIT_KIND_COUNT;
		if (last)
			help_word(out, "or", &col);
		snprintf(word, sizeof word, "%s%s", gs_emit_kind_name((gs_emit_kind)k),
		         last ? "." : k + 2 < GS_EMIT_KIND_COUNT ? "," : "");
		help_word(out, word, &col);
	}
}
