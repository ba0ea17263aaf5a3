/* cmd_instances.c - `gpushare instances`: instance types and prices. */
#include <string.h>
#include <strings.h>

#include "cli.h"

enum { O_CLOUD, O_GPU, O_FORMAT, O_PROFILES, O_HELP };

const cli_opt instances_opts[] = {
	[O_CLOUD] = { "cloud", 'c', "CLOUD", "only this cloud: aws, azure, gcp (or your own)" },
	[O_GPU] = { "gpu", 'g', "MODEL", "only instances with this GPU model" },
	[O_FORMAT] = CLI_OPT_FORMAT,
	[O_PROFILES] = CLI_OPT_PROFILES,
	[O_HELP] = CLI_OPT_HELP,
	{ NULL, 0, NULL, NULL },
};

static void print_table(const gs_catalog *cat, const char *cloud, const gs_gpu *gpu)
{
	/* 80 columns: the price dates show with -v (and in --format json). */
	printf("%-5s %-35s %-17s %9s %8s", "CLOUD", "INSTANCE", "GPUS", "$/H", "SPOT $/H");
	printf(cli_ui_state.verbose ? "  %s\n" : "\n", "PRICE DATE");
	for (size_t i = 0; i < gs_catalog_instance_count(cat); i++) {
		const gs_instance *in = gs_catalog_instance(cat, i);
		char od[32], spot[32];
		if ((cloud && strcasecmp(cloud, in->cloud) != 0) || (gpu && in->gpu != gpu))
			continue;
		gs_micros_format(in->on_demand, 4, od, sizeof od);
		if (in->spot < 0)
			strcpy(spot, "-");
		else
			gs_micros_format(in->spot, 4, spot, sizeof spot);
		char gpus[48];
		snprintf(gpus, sizeof gpus, "%dx %s", in->gpu_count, in->gpu->name);
		printf("%-5s %-35s %-17s %9s %8s", in->cloud, in->type, gpus, od, spot);
		printf(cli_ui_state.verbose ? "  %s\n" : "\n", in->price_date);
	}
}

static int known_cloud(const gs_catalog *cat, const char *cloud)
{
	for (size_t i = 0; i < gs_catalog_instance_count(cat); i++)
		if (strcasecmp(gs_catalog_instance(cat, i)->cloud, cloud) == 0)
			return 1;
	return 0;
}

int cmd_instances(const cli_cmd *self, int argc, char **argv)
{
	const char *profiles = NULL, *cloud = NULL, *gpu_name = NULL;
	const gs_gpu *gpu = NULL;
	gs_catalog *cat = NULL;
	int fmt = FMT_TEXT, opt, rc = 0;
	cli_parser p;

	cli_parse_begin(&p, self, argc, argv);
	while ((opt = cli_next(&p)) >= 0) {
		switch (opt) {
		case O_CLOUD: cloud = p.arg; break;
		case O_GPU: gpu_name = p.arg; break;
		case O_FORMAT:
			if ((rc = cli_parse_format(self, p.arg, &fmt)))
				return rc;
			break;
		case O_PROFILES: profiles = p.arg; break;
		}
	}
	if (opt == CLI_EXIT)
		return p.status;
	if (p.optind < argc)
		return cli_usage_error(self, "unexpected argument '%s'", argv[p.optind]);
	if ((rc = cli_load_catalog(profiles, &cat)) != EXIT_OK)
		return rc;
	if (gpu_name && !(gpu = gs_gpu_find(cat, gpu_name))) {
		rc = cli_unknown_gpu(cat, gpu_name);
		gs_catalog_free(cat);
		return rc;
	}
	if (cloud && !known_cloud(cat, cloud)) {
		gs_catalog_free(cat);
		return cli_error(EXIT_USAGE, "no instances of cloud '%s' (see 'gpushare instances')",
		                 cloud);
	}
	if (fmt != FMT_TEXT) {
		gs_doc *doc;
		gs_error err;
		rc = gs_doc_instances(cat, cloud, gpu, &doc, &err) < 0
		         ? cli_fail(&err) : cli_print_doc(doc, fmt);
	} else {
		print_table(cat, cloud, gpu);
	}
	gs_catalog_free(cat);
	return rc;
}
