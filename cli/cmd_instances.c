/* cmd_instances.c - `gpushare instances`: instance types and prices. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

typedef struct instances_args {
	const char *cloud, *gpu, *profiles;
	int fmt;
} instances_args;

const cli_opt instances_opts[] = {
	{ "cloud", 'c', "CLOUD", "only this cloud: aws, azure, gcp (or your own)",
	  CLI_STR(instances_args, cloud) },
	{ "gpu", 'g', "MODEL", "only instances with this GPU model",
	  CLI_STR(instances_args, gpu) },
	{ CLI_ROW_FORMAT, CLI_ENUM(instances_args, fmt, cli_formats) },
	{ CLI_ROW_PROFILES, CLI_STR(instances_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

/* A column that would push the table past 80 columns wraps: a longer
 * instance type gets a line of its own, its figures the next line. */
#define TYPE_COLS 22

/* RAM in GiB: whole numbers plain, others with one decimal. */
static void ram_text(int64_t mib, char *buf, size_t n)
{
	if (mib % 1024 == 0)
		snprintf(buf, n, "%lld", (long long)(mib / 1024));
	else
		snprintf(buf, n, "%.1f", (double)mib / 1024.0);
}

static void print_row(const gs_instance *in, int cw, int tw)
{
	char od[32], spot[32], gpus[48], ram[32];
	gs_micros_format(in->on_demand, 4, od, sizeof od);
	if (in->spot < 0)
		strcpy(spot, "-");
	else
		gs_micros_format(in->spot, 4, spot, sizeof spot);
	snprintf(gpus, sizeof gpus, "%dx %s", in->gpu_count, in->gpu->name);
	ram_text(in->ram_mib, ram, sizeof ram);
	if ((int)strlen(in->type) > tw)
		printf("%-*s %s\n%-*s %-*s", cw, in->cloud, in->type, cw, "", tw, "");
	else
		printf("%-*s %-*s", cw, in->cloud, tw, in->type);
	printf(" %-17s %4d %4s %-5s %8s %8s", gpus, in->vcpus, ram, gs_arch_name(in->arch), od,
	       spot);
	printf(cli_ui_state.verbose ? "  %s\n" : "\n", in->price_date);
}

static int shown(const gs_instance *in, const char *cloud, const gs_gpu *gpu)
{
	return !(cloud && strcasecmp(cloud, in->cloud) != 0) && !(gpu && in->gpu != gpu);
}

static void print_table(const gs_catalog *cat, const char *cloud, const gs_gpu *gpu)
{
	int cw = 5, tw = 8;
	/* Columns as wide as what they show, the type within TYPE_COLS. 80
	 * columns: the price dates show with -v (and in --format json). */
	for (size_t i = 0; i < gs_catalog_instance_count(cat); i++) {
		const gs_instance *in = gs_catalog_instance_at(cat, i);
		int c = (int)strlen(in->cloud), t = (int)strlen(in->type);
		if (!shown(in, cloud, gpu))
			continue;
		cw = c > cw ? c : cw;
		tw = t > tw ? (t > TYPE_COLS ? TYPE_COLS : t) : tw;
	}
	printf("%-*s %-*s %-17s %4s %4s %-5s %8s %8s", cw, "CLOUD", tw, "INSTANCE", "GPUS",
	       "VCPU", "RAM", "ARCH", "$/H", "SPOT $/H");
	printf(cli_ui_state.verbose ? "  %s\n" : "\n", "PRICE DATE");
	for (size_t i = 0; i < gs_catalog_instance_count(cat); i++) {
		const gs_instance *in = gs_catalog_instance_at(cat, i);
		if (shown(in, cloud, gpu))
			print_row(in, cw, tw);
	}
}

static int known_cloud(const gs_catalog *cat, const char *cloud)
{
	for (size_t i = 0; i < gs_catalog_instance_count(cat); i++)
		if (strcasecmp(gs_catalog_instance_at(cat, i)->cloud, cloud) == 0)
			return 1;
	return 0;
}

int cmd_instances(const cli_cmd *self, int argc, char **argv)
{
	instances_args a = { NULL, NULL, NULL, FMT_TEXT };
	const gs_gpu *gpu = NULL;
	gs_catalog *cat = NULL;
	int first, rc;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	if (first < argc)
		return cli_usage_error(self, "unexpected argument '%s'", argv[first]);
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	if (a.gpu && !(gpu = gs_gpu_find(cat, a.gpu))) {
		rc = cli_unknown_gpu(cat, a.gpu);
		gs_catalog_free(cat);
		return rc;
	}
	if (a.cloud && !known_cloud(cat, a.cloud)) {
		gs_catalog_free(cat);
		return cli_error(EXIT_USAGE,
		                 "no instances of cloud '%s' (see 'gpushare instances')", a.cloud);
	}
	if (a.fmt != FMT_TEXT) {
		gs_doc *doc;
		gs_error err;
		rc = gs_doc_instances(cat, a.cloud, gpu, &doc, &err) < 0
		         ? cli_fail(&err) : cli_print_doc(doc, a.fmt);
	} else {
		print_table(cat, a.cloud, gpu);
	}
	gs_catalog_free(cat);
	return rc;
}
