/* cmd_advise.c - `gpushare advise`: advice for one workload from flags. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The workload's keys, as a workload file names them. */
typedef struct advise_args {
	const char *kind, *gpu_memory, *compute, *latency, *isolation;
	const char *fractions;
	const char *profiles;
} advise_args;

const cli_opt advise_opts[] = {
	{ "kind", 'k', "KIND", "inference (default), batch, training, notebook or ci",
	  CLI_STR(advise_args, kind) },
	{ "memory", 'm', "SIZE", "peak GPU memory of one replica, e.g. 10GiB (required)",
	  CLI_STR(advise_args, gpu_memory) },
	{ "compute", 'c', "SHARE", "peak share of one GPU, e.g. 40% or 0.4 (required)",
	  CLI_STR(advise_args, compute) },
	{ "latency", 'l', "L", "tolerant (default) or critical",
	  CLI_STR(advise_args, latency) },
	{ "isolation", 'i', "I", "none (default) or fault",
	  CLI_STR(advise_args, isolation) },
	{ "fractions", 0, "LIST", "fraction backends the cluster has: hami, dra, mps",
	  CLI_STR(advise_args, fractions) },
	{ CLI_ROW_PROFILES, CLI_STR(advise_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

/* A workload named "workload" with the keys given; returns 0 or -1. */
static int workload(const advise_args *a, gs_scenario *scn, gs_error *err)
{
	const struct {
		const char *key, *value;
	} keys[] = {
		{ "kind", a->kind }, { "gpuMemory", a->gpu_memory }, { "compute", a->compute },
		{ "latency", a->latency }, { "isolation", a->isolation },
	};
	if (gs_scenario_add(scn, "workload", err) < 0)
		return -1;
	/* The workload file's own key, so its checks and messages too. */
	if (a->fractions && gs_scenario_set(scn, NULL, "fractions", a->fractions, err) < 0)
		return -1;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (keys[i].value &&
		    gs_scenario_set(scn, "workload", keys[i].key, keys[i].value, err) < 0)
			return -1;
	return 0;
}

/* Each line of advice wrapped to 80 columns, continuations under its
 * text. */
static void print_advice(char *text)
{
	for (char *line = text, *nl; *line; line = nl + 1) {
		if (!(nl = strchr(line, '\n')))
			nl = line + strlen(line) - 1;
		nl[0] = '\0';
		if (strlen(line) <= 80)
			puts(line);
		else {
			char *sp = strchr(line, ' '), lead[8];
			int ind = sp && sp - line < 6 ? (int)(sp - line) + 1 : 3;
			snprintf(lead, sizeof lead, "%.*s", ind, line);
			cli_print_hanging(lead, line + ind, ind);
		}
	}
}

int cmd_advise(const cli_cmd *self, int argc, char **argv)
{
	advise_args a = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	gs_backend fr[4];
	size_t nfr = 0;
	gs_catalog *cat = NULL;
	gs_scenario *scn = NULL;
	char *text = NULL;
	int first, rc;
	gs_error err;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	if (first < argc)
		return cli_usage_error(self, "unexpected argument '%s'", argv[first]);
	if (!a.gpu_memory || !a.compute)
		return cli_usage_error(self, "--memory and --compute are required");
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	if (gs_scenario_new(cat, &scn, &err) < 0 || workload(&a, scn, &err) < 0 ||
	    (nfr = gs_scenario_fractions(scn, fr, 4), 0) ||
	    gs_advise_fractions(cat, gs_scenario_find(scn, "workload"), fr, nfr, &text,
	                        &err) < 0) {
		fputs("gpushare: advise: ", stderr);
		cli_put_safe(stderr, err.msg);
		fputc('\n', stderr);
		rc = cli_status(err.code);
	} else {
		print_advice(text);
		rc = EXIT_OK;
	}
	free(text);
	gs_scenario_free(scn);
	gs_catalog_free(cat);
	return rc;
}
