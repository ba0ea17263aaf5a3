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
	else if (strncmp(s, "mig:", 4) == 0 && s[4]) {
		o->strategy = GS_STRATEGY_MIG;
		o->mig_profile = s + 4;
	} else
		return cli_usage_error(self, "--strategy must be time-slicing, mps or mig:PROFILE, "
		                             "not '%s'", s);
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
	{ "strategy", 's', "S", "time-slicing (default), mps, or mig:PROFILE",
	  CLI_CALL(strategy) },
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
	if (!a.o.instance)
		return cli_usage_error(self, "--instance is required");
	if (!a.o.replicas && a.o.strategy != GS_STRATEGY_MIG)
		return cli_usage_error(self, "--replicas is required");
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
