/* cmd_advise.c - `gpushare advise`: advice for one workload from flags. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { O_KIND, O_MEMORY, O_COMPUTE, O_LATENCY, O_ISOLATION, O_PROFILES, O_HELP };

const cli_opt advise_opts[] = {
	[O_KIND] = { "kind", 'k', "KIND", "inference (default), batch, training, notebook or ci" },
	[O_MEMORY] = { "memory", 'm', "SIZE", "peak GPU memory of one replica, e.g. 10GiB (required)" },
	[O_COMPUTE] = { "compute", 'c', "SHARE", "peak share of one GPU, e.g. 40% or 0.4 (required)" },
	[O_LATENCY] = { "latency", 'l', "L", "tolerant (default) or critical" },
	[O_ISOLATION] = { "isolation", 'i', "I", "none (default) or fault" },
	[O_PROFILES] = CLI_OPT_PROFILES,
	[O_HELP] = CLI_OPT_HELP,
	{ NULL, 0, NULL, NULL },
};

static const char *const keys[] = {
	[O_KIND] = "kind", [O_MEMORY] = "gpuMemory", [O_COMPUTE] = "compute",
	[O_LATENCY] = "latency", [O_ISOLATION] = "isolation",
};

int cmd_advise(const cli_cmd *self, int argc, char **argv)
{
	const char *vals[O_PROFILES] = { NULL };
	const char *profiles = NULL;
	gs_catalog *cat = NULL;
	gs_scenario *scn = NULL;
	char *text = NULL;
	gs_error err;
	cli_parser p;
	int opt, rc;

	cli_parse_begin(&p, self, argc, argv);
	while ((opt = cli_next(&p)) >= 0) {
		if (opt < O_PROFILES)
			vals[opt] = p.arg;
		else if (opt == O_PROFILES)
			profiles = p.arg;
	}
	if (opt == CLI_EXIT)
		return p.status;
	if (p.optind < argc)
		return cli_usage_error(self, "unexpected argument '%s'", argv[p.optind]);
	if (!vals[O_MEMORY] || !vals[O_COMPUTE])
		return cli_usage_error(self, "--memory and --compute are required");
	if ((rc = cli_load_catalog(profiles, &cat)) != EXIT_OK)
		return rc;
	rc = gs_scenario_new(cat, &scn, &err) < 0 || gs_scenario_add(scn, "workload", &err) < 0;
	for (int i = 0; !rc && i < O_PROFILES; i++)
		if (vals[i] && gs_scenario_set(scn, "workload", keys[i], vals[i], &err) < 0)
			rc = 1;
	if (!rc && gs_advise(cat, gs_scenario_find(scn, "workload"), &text, &err) < 0)
		rc = 1;
	if (rc) {
		fprintf(stderr, "gpushare: advise: %s\n", err.msg);
		rc = cli_status(err.code);
	} else {
		/* Each line of advice wrapped to 80 columns, continuations under
		 * its text. */
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
	free(text);
	gs_scenario_free(scn);
	gs_catalog_free(cat);
	return rc;
}
