/* cmd_savings.c - `gpushare savings`: the cost of sharing, in one answer. */
#include <string.h>

#include "cli.h"

typedef struct savings_args {
	gs_savings_opts o;
	const char *profiles;
	int fmt;
} savings_args;

static int strategy(const cli_cmd *self, void *args, const char *s)
{
	gs_savings_opts *o = &((savings_args *)args)->o;
	if (strcmp(s, "time-slicing") == 0)
		o->strategy = GS_STRATEGY_TIME_SLICING;
	else if (strcmp(s, "mps") == 0)
		o->strategy = GS_STRATEGY_MPS;
	else if (strcmp(s, "fraction") == 0)
		o->strategy = GS_STRATEGY_FRACTION;
	else if (strncmp(s, "mig:", 4) == 0 && s[4]) {
		o->strategy = GS_STRATEGY_MIG;
		o->mig_profile = s + 4;
	} else
		return cli_usage_error(self, "--strategy must be time-slicing, mps, mig:PROFILE or "
		                             "fraction, not '%s'", s);
	return 0;
}

static int backend(const cli_cmd *self, void *args, const char *s)
{
	gs_savings_opts *o = &((savings_args *)args)->o;
	if (strcmp(s, "hami") == 0)
		o->backend = GS_BACKEND_HAMI;
	else if (strcmp(s, "dra") == 0)
		o->backend = GS_BACKEND_DRA;
	else if (strcmp(s, "mps") == 0)
		o->backend = GS_BACKEND_MPS;
	else
		return cli_usage_error(self, "--backend must be hami, dra or mps, not '%s'", s);
	return 0;
}

/* Not a CLI_ENUM: on-demand, the default, leaves the pricing as it is, so
 * "--pricing spot --pricing on-demand" prices spot, as it always has. */
static int pricing(const cli_cmd *self, void *args, const char *text)
{
	savings_args *a = args;
	if (strcmp(text, "spot") == 0)
		a->o.pricing = GS_PRICING_SPOT;
	else if (strcmp(text, "on-demand") != 0)
		return cli_usage_error(self, "--pricing must be on-demand or spot, not '%s'", text);
	return 0;
}

const cli_opt savings_opts[] = {
	{ "instance", 'i', "TYPE", "instance type, e.g. p3.2xlarge",
	  CLI_STR(savings_args, o.instance) },
	{ "replicas", 'r', "N", "workloads sharing each GPU (MIG: at most the profile's count)",
	  CLI_INT(savings_args, o.replicas, 1, 1000) },
	{ "workloads", 'w', "W",
	  "workloads that each hold a whole GPU today (default N x GPUs of the instance)",
	  CLI_INT(savings_args, o.workloads, 1, 1000000) },
	{ "strategy", 's', "S", "time-slicing (default), mps, mig:PROFILE, or fraction",
	  CLI_CALL(strategy) },
	{ "backend", 'b', "B", "with fraction: what enforces it, hami, dra or mps",
	  CLI_CALL(backend) },
	{ "memory", 'm', "SIZE", "with fraction: each workload's memory cap, e.g. 4Gi",
	  CLI_STR(savings_args, o.memory) },
	{ "compute", 'c', "SHARE",
	  "each workload's peak share of a GPU, e.g. 25%: share by the rule plan applies",
	  CLI_STR(savings_args, o.compute) },
	{ "target-utilization", 0, "SHARE", "cap on a shared GPU's summed compute (default 90%)",
	  CLI_STR(savings_args, o.target_utilization) },
	{ "pricing", 0, "P", "on-demand (default) or spot", CLI_CALL(pricing) },
	{ "hours", 0, "H", "hours in a month (default 730)",
	  CLI_INT(savings_args, o.hours_per_month, 1, 744) },
	{ CLI_ROW_FORMAT, CLI_ENUM(savings_args, fmt, cli_formats) },
	{ CLI_ROW_PROFILES, CLI_STR(savings_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void print_side(const char *label, int inst, int gpus, gs_micros hour,
                       gs_micros month)
{
	char h[32], m[32];
	printf("%-16s %d %s, %d %s, %s/h (%s/month)\n", label, inst,
	       plural(inst, "instance", "instances"), gpus, plural(gpus, "GPU", "GPUs"),
	       cli_money(hour, h, sizeof h), cli_money(month, m, sizeof m));
}

static const char *backend_label(gs_backend b)
{
	return b == GS_BACKEND_HAMI ? "HAMi" : b == GS_BACKEND_DRA ? "DRA" : "MPS";
}

/* A fraction: its memory is capped, its compute limited where the backend
 * does, and its faults are shared. */
static void print_fraction(const gs_savings *s)
{
	char mem[32], sum[32], usable[32];
	int r = s->replicas;

	cli_gib(s->memory_mib, mem, sizeof mem);
	cli_gib(s->memory_mib * r, sum, sizeof sum);
	cli_gib(s->instance->gpu->usable_memory_mib, usable, sizeof usable);
	if (s->backend == GS_BACKEND_DRA)
		printf("  compute: not limited, time-sliced: at most 1/%d of the GPU's time\n"
		       "           on average (%d.%d%%) when all %d are busy\n", r,
		       s->compute_permille / 10, s->compute_permille % 10, r);
	else
		printf("  compute: at most %d%% of the SMs (%s)\n", s->thread_percent,
		       s->backend == GS_BACKEND_HAMI ? "HAMi's nvidia.com/gpucores"
		                                     : "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
	printf("  memory:  capped at %s each (%s);\n"
	       "           the %d caps take %s of %s usable\n", mem,
	       s->backend == GS_BACKEND_HAMI  ? "HAMi's nvidia.com/gpumem"
	       : s->backend == GS_BACKEND_DRA ? "the claim's capacity.requests.memory"
	                                      : "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT",
	       r, sum, usable);
	if (s->backend == GS_BACKEND_MPS)
		printf("  faults:  shared: one MPS server per GPU, a fatal error in one client "
		       "hits all %d\n", r);
	else
		printf("  faults:  not isolated: a crash or hang in one can stall the others on "
		       "its GPU\n");
}

static void print_tradeoffs(const gs_savings *s)
{
	const gs_gpu *g = s->instance->gpu;
	char mem[32], total[32];
	int r = s->replicas;

	cli_gib(s->memory_mib, mem, sizeof mem);
	cli_gib(g->memory_mib, total, sizeof total);
	printf("\nWhat each workload gives up:\n");
	if (s->strategy == GS_STRATEGY_MIG) {
		printf("  compute: a fixed %s slice, %d of %d compute slices "
		       "(%d.%d%% of the GPU)\n", s->mig_profile->name,
		       s->mig_profile->compute_slices, g->mig_compute_slices,
		       s->compute_permille / 10, s->compute_permille % 10);
		printf("  memory:  isolated, %s per instance\n", mem);
		printf("  faults:  isolated; changing the geometry needs a drained node\n");
		return;
	}
	if (r == 1) {
		printf("  nothing: no two of them share a GPU, each keeps a whole one\n");
		return;
	}
	if (s->strategy == GS_STRATEGY_FRACTION) {
		print_fraction(s);
		return;
	}
	printf("  compute: at most 1/%d of the GPU's time on average (%d.%d%%) "
	       "when all %d are busy\n", r, s->compute_permille / 10, s->compute_permille % 10, r);
	if (s->strategy == GS_STRATEGY_MPS) {
		printf("  memory:  capped by MPS at %s per client (%s / %d), threads at %d%%\n",
		       mem, total, r, s->thread_percent);
		printf("  faults:  shared: one MPS server per GPU, a fatal error in one client "
		       "hits all %d\n", r);
		return;
	}
	printf("  memory:  not isolated: the %d workloads on a GPU share its %s,\n"
	       "           so together they must fit (%s each on average)\n", r, total, mem);
	printf("  faults:  not isolated: a crash or hang in one can stall the others on its GPU\n");
}

static void print_text(const gs_savings *s)
{
	const gs_instance *in = s->instance;
	char price[32], saved[32], savedm[32];

	/* A catalog price is shown with every digit it has ($0.3941). */
	cli_price(s->price_per_hour, price, sizeof price);
	printf("%d %s on %s (%d x %s), %s %s/h each\n", s->workloads,
	       plural(s->workloads, "workload", "workloads"), in->type, in->gpu_count,
	       in->gpu->name, gs_pricing_name(s->pricing), price);
	if (s->strategy == GS_STRATEGY_MIG)
		printf("sharing: MIG, %d x %s per GPU\n", s->replicas, s->mig_profile->name);
	else if (s->strategy == GS_STRATEGY_FRACTION)
		printf("sharing: fraction (%s), %d %s per GPU\n", backend_label(s->backend),
		       s->replicas, plural(s->replicas, "replica", "replicas"));
	else if (s->replicas == s->replicas_asked)
		printf("sharing: %s, %d replicas per GPU\n",
		       s->strategy == GS_STRATEGY_MPS ? "MPS" : "time-slicing", s->replicas);
	else
		printf("sharing: %s, %d %s per GPU (%d asked)\n",
		       s->strategy == GS_STRATEGY_MPS ? "MPS" : "time-slicing", s->replicas,
		       plural(s->replicas, "replica", "replicas"), s->replicas_asked);
	cli_print_hanging("rule:    ", s->rule, 9);
	printf("\n");
	print_side("without sharing:", s->instances_before, s->gpus_before,
	           s->before_per_hour, s->before_per_month);
	print_side("with sharing:", s->instances_after, s->gpus_after,
	           s->after_per_hour, s->after_per_month);
	printf("%-16s %s/h (%s/month), %d.%d%%\n", "saved:",
	       cli_money(s->saved_per_hour, saved, sizeof saved),
	       cli_money(s->saved_per_month, savedm, sizeof savedm),
	       s->saved_permille / 10, s->saved_permille % 10);
	print_tradeoffs(s);
}

/* Which options go together, before anything is loaded. */
static int check_args(const cli_cmd *self, const gs_savings_opts *o)
{
	if (!o->instance)
		return cli_usage_error(self, "--instance is required");
	if (o->strategy == GS_STRATEGY_FRACTION) {
		if (o->backend == GS_BACKEND_NONE)
			return cli_usage_error(self, "--strategy fraction needs --backend "
			                             "hami, dra or mps");
		if (!o->replicas && !o->memory)
			return cli_usage_error(self, "--strategy fraction needs --memory or "
			                             "--replicas");
		return EXIT_OK;
	}
	if (o->backend != GS_BACKEND_NONE)
		return cli_usage_error(self, "--backend applies only to --strategy fraction");
	if (o->memory)
		return cli_usage_error(self, "--memory applies only to --strategy fraction");
	if (!o->replicas && o->strategy != GS_STRATEGY_MIG)
		return cli_usage_error(self, "--replicas is required");
	return EXIT_OK;
}

int cmd_savings(const cli_cmd *self, int argc, char **argv)
{
	savings_args a = { GS_SAVINGS_OPTS_INIT, NULL, FMT_TEXT };
	gs_catalog *cat = NULL;
	int first, rc;
	gs_savings s;
	gs_error err;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	if (first < argc)
		return cli_usage_error(self, "unexpected argument '%s'", argv[first]);
	if ((rc = check_args(self, &a.o)) != EXIT_OK)
		return rc;
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	if (gs_savings_compute(cat, &a.o, &s, &err) < 0) {
		rc = cli_fail(&err);
	} else if (a.fmt == FMT_TEXT) {
		print_text(&s);
		rc = EXIT_OK;
	} else {
		gs_doc *doc;
		rc = gs_doc_savings(&s, &doc, &err) < 0 ? cli_fail(&err)
		                                        : cli_print_doc(doc, a.fmt);
	}
	gs_catalog_free(cat);
	return rc;
}
