/* cmd_gpus.c - `gpushare gpus [MODEL]`: the GPU models gpushare knows. */
#include <string.h>

#include "cli.h"

typedef struct gpus_args {
	const char *profiles;
	int fmt;
} gpus_args;

const cli_opt gpus_opts[] = {
	{ CLI_ROW_FORMAT, CLI_ENUM(gpus_args, fmt, cli_formats) },
	{ CLI_ROW_PROFILES, CLI_STR(gpus_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static void print_mig(const gs_gpu *g)
{
	printf("\nMIG: %d memory slots, %d compute slices\n", g->mig_slots,
	       g->mig_compute_slices);
	printf("  %-12s %7s %6s %10s %4s %4s  %s\n", "PROFILE", "COMPUTE", "SLOTS",
	       "MEMORY", "SMS", "MAX", "STARTS");
	for (size_t i = 0; i < g->n_mig_profiles; i++) {
		const gs_mig_profile *p = &g->mig_profiles[i];
		char mem[32], starts[64];
		size_t o = 0;
		starts[0] = '\0';
		for (size_t s = 0; s < p->n_starts && o < sizeof starts; s++)
			o += (size_t)snprintf(starts + o, sizeof starts - o, "%s%d",
			                      s ? "," : "", p->starts[s]);
		printf("  %-12s %7d %6d %10s %4d %4d  %s\n", p->name, p->compute_slices,
		       p->memory_slices, cli_gib(p->memory_mib, mem, sizeof mem),
		       p->sm_count, p->max_count, starts);
	}
}

static void print_one(const gs_gpu *g)
{
	char mem[32];
	printf("%s\n", g->name);
	printf("  aliases:             ");
	for (size_t i = 0; i < g->n_aliases; i++)
		printf("%s%s", i ? ", " : "", g->aliases[i]);
	printf("\n  architecture:        %s (compute capability %d.%d)\n",
	       g->architecture, g->cc_major, g->cc_minor);
	printf("  memory:              %s\n", cli_gib(g->memory_mib, mem, sizeof mem));
	printf("  usable memory:       %s", cli_gib(g->usable_memory_mib, mem, sizeof mem));
	if (g->memory_reserve_mib)
		printf(" (the driver reserves %lld MiB)\n", (long long)g->memory_reserve_mib);
	else
		printf(" (no driver reserve known)\n");
	printf("  memory bandwidth:    %d GB/s\n", g->memory_bandwidth_gbs);
	printf("  SMs:                 %d\n", g->sm_count);
	printf("  FP16 dense TFLOPS:   %lld.%lld (relative throughput)\n",
	       (long long)(g->fp16_mtflops / 1000), (long long)(g->fp16_mtflops % 1000 / 100));
	if (g->mps_max_clients)
		printf("  MPS:                 yes, at most %d clients\n", g->mps_max_clients);
	else
		printf("  MPS:                 no\n");
	if (g->mig_slots)
		print_mig(g);
	else
		printf("  MIG:                 no\n");
}

static void print_table(const gs_catalog *cat)
{
	printf("%-16s %-12s %4s %10s %10s %5s %7s %5s %4s %4s\n", "MODEL", "ARCH", "CC",
	       "MEMORY", "USABLE", "SMS", "TFLOPS", "GB/S", "MPS", "MIG");
	for (size_t i = 0; i < gs_catalog_gpu_count(cat); i++) {
		const gs_gpu *g = gs_catalog_gpu_at(cat, i);
		char mem[32], use[32], mps[8], mig[8];
		snprintf(mps, sizeof mps, "%d", g->mps_max_clients);
		snprintf(mig, sizeof mig, "%zu", g->n_mig_profiles);
		printf("%-16s %-12s %2d.%d %10s %10s %5d %7lld %5d %4s %4s\n", g->name,
		       g->architecture, g->cc_major, g->cc_minor,
		       cli_gib(g->memory_mib, mem, sizeof mem),
		       cli_gib(g->usable_memory_mib, use, sizeof use), g->sm_count,
		       (long long)(g->fp16_mtflops / 1000), g->memory_bandwidth_gbs,
		       g->mps_max_clients ? mps : "-", g->mig_slots ? mig : "-");
	}
}

int cmd_gpus(const cli_cmd *self, int argc, char **argv)
{
	gpus_args a = { NULL, FMT_TEXT };
	const gs_gpu *only = NULL;
	gs_catalog *cat = NULL;
	int first, rc;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	if (argc - first > 1)
		return cli_usage_error(self, "unexpected argument '%s'", argv[first + 1]);
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	if (first < argc && !(only = gs_gpu_find(cat, argv[first]))) {
		rc = cli_unknown_gpu(cat, argv[first]);
		gs_catalog_free(cat);
		return rc;
	}
	if (a.fmt != FMT_TEXT) {
		gs_doc *doc;
		gs_error err;
		rc = gs_doc_gpus(cat, only, &doc, &err) < 0 ? cli_fail(&err)
		                                            : cli_print_doc(doc, a.fmt);
	} else if (only) {
		print_one(only);
	} else {
		print_table(cat);
	}
	gs_catalog_free(cat);
	return rc;
}
