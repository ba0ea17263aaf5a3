/* cmd_mig.c - `gpushare mig MODEL [PROFILE...]`: MIG geometries. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct mig_args {
	const char *profiles;
	int all, variants, fmt;
} mig_args;

const cli_opt mig_opts[] = {
	{ "all", 'a', NULL, "list every valid geometry, not only the maximal ones",
	  CLI_FLAG(mig_args, all) },
	{ "variants", 0, NULL, "include media-engine variants (+me, -me, +gfx)",
	  CLI_FLAG(mig_args, variants) },
	{ CLI_ROW_FORMAT, CLI_ENUM(mig_args, fmt, cli_formats) },
	{ CLI_ROW_PROFILES, CLI_STR(mig_args, profiles) },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

#define MAX_ITEMS 32

static int print_geometry(const gs_mig_profile *const *profiles,
                          const size_t *counts, size_t n, void *ud)
{
	int first = 1;
	(*(size_t *)ud)++;
	printf(" ");
	for (size_t i = 0; i < n; i++) {
		if (!counts[i])
			continue;
		printf("%s %s", first ? "" : " +", profiles[i]->name);
		if (counts[i] > 1)
			printf(" x%zu", counts[i]);
		first = 0;
	}
	printf("\n");
	return 0;
}

static int count_geometry(const gs_mig_profile *const *profiles,
                          const size_t *counts, size_t n, void *ud)
{
	(void)profiles;
	(void)counts;
	(void)n;
	(*(size_t *)ud)++;
	return 0;
}

static int list(const gs_gpu *g, int all, int variants, int fmt)
{
	const gs_mig_profile *allowed[64];
	size_t n = 0, shown = 0, feasible = 0;
	gs_error err;

	for (size_t i = 0; i < g->n_mig_profiles && n < 64; i++)
		if (variants || !g->mig_profiles[i].variant)
			allowed[n++] = &g->mig_profiles[i];
	if (fmt != FMT_TEXT) {
		gs_doc *doc;
		if (gs_doc_mig_geometries(g, allowed, n, all ? GS_MIG_FEASIBLE : GS_MIG_MAXIMAL,
		                          &doc, &err) < 0)
			return cli_fail(&err);
		return cli_print_doc(doc, fmt);
	}
	if (gs_mig_enumerate(g, allowed, n, GS_MIG_FEASIBLE, count_geometry,
	                     &feasible, &err) < 0)
		return cli_fail(&err);
	printf("%s: %s of %zu profiles (%zu valid in all)\n", g->name,
	       all ? "every valid geometry" : "maximal geometries", n, feasible);
	gs_mig_enumerate(g, allowed, n, all ? GS_MIG_FEASIBLE : GS_MIG_MAXIMAL,
	                 print_geometry, &shown, &err);
	printf("%zu %s\n", shown, all ? "valid geometries" : "maximal geometries");
	return EXIT_OK;
}

/* "3g.20gb", "2x1g.5gb" and "3g.20gb,1g.5gb" all name instances. */
static int add_items(const gs_gpu *g, char *arg, const gs_mig_profile **items,
                     size_t *n)
{
	for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		const gs_mig_profile *p;
		long times = 1;
		char *x = strchr(tok, 'x');
		if (x && x > tok && strspn(tok, "0123456789") == (size_t)(x - tok)) {
			times = strtol(tok, NULL, 10);
			tok = x + 1;
		}
		if (times < 1)
			return cli_error(EXIT_USAGE,
			                 "a MIG instance count must be at least 1, not '%s'", arg);
		if (!(p = gs_mig_profile_find(g, tok)))
			return cli_error(EXIT_USAGE,
			                 "%s has no MIG profile '%s' (see 'gpushare gpus %s')",
			                 g->name, tok, g->name);
		for (long t = 0; t < times; t++) {
			if (*n >= MAX_ITEMS)
				return cli_error(EXIT_USAGE, "too many MIG instances (at most %d)",
				                 MAX_ITEMS);
			items[(*n)++] = p;
		}
	}
	return EXIT_OK;
}

static void print_slots(const gs_gpu *g, const gs_mig_profile **items,
                        const int *starts, size_t n)
{
	printf("  slot:");
	for (int s = 0; s < g->mig_slots; s++)
		printf(" %d", s % 10);
	printf("\n  used:");
	for (int s = 0; s < g->mig_slots; s++) {
		size_t who = n;
		for (size_t i = 0; i < n; i++)
			if (s >= starts[i] && s < starts[i] + items[i]->memory_slices)
				who = i;
		if (who == n)
			printf(" .");
		else
			printf(" %c", (int)('A' + who));
	}
	printf("\n");
}

static int check(const gs_gpu *g, int argc, char **argv, int fmt)
{
	const gs_mig_profile *items[MAX_ITEMS] = { NULL };
	int starts[MAX_ITEMS] = { 0 };
	size_t n = 0;
	gs_error err;
	int rc;

	for (int i = 0; i < argc; i++)
		if ((rc = add_items(g, argv[i], items, &n)) != EXIT_OK)
			return rc;
	if (fmt != FMT_TEXT) {
		gs_doc *doc;
		/* An invalid geometry is an answer here: printed, exit 1. */
		if (gs_doc_mig_fit(g, items, n, &doc, &err) < 0)
			return cli_fail(&err);
		rc = gs_mig_fit(g, items, n, NULL, NULL) == 0 ? EXIT_OK : EXIT_FAIL;
		return cli_print_doc(doc, fmt) == EXIT_OK ? rc : EXIT_FAIL;
	}
	if (gs_mig_fit(g, items, n, starts, &err) < 0) {
		return cli_error(err.code == GS_ENOFIT ? EXIT_FAIL : EXIT_USAGE,
		                 "invalid MIG geometry on %s: %s", g->name, err.msg);
	}
	printf("valid MIG geometry on %s:\n", g->name);
	for (size_t i = 0; i < n; i++)
	{
		char slots[32];
		if (items[i]->memory_slices == 1)
			snprintf(slots, sizeof slots, "slot %d", starts[i]);
		else
			snprintf(slots, sizeof slots, "slots %d-%d", starts[i],
			         starts[i] + items[i]->memory_slices - 1);
		printf("  %c  %-12s start %d, %s, %d compute slice%s\n", (int)('A' + i),
		       items[i]->name, starts[i], slots, items[i]->compute_slices,
		       items[i]->compute_slices == 1 ? "" : "s");
	}
	print_slots(g, items, starts, n);
	return EXIT_OK;
}

int cmd_mig(const cli_cmd *self, int argc, char **argv)
{
	mig_args a = { NULL, 0, 0, FMT_TEXT };
	gs_catalog *cat = NULL;
	const gs_gpu *g;
	int first, rc;

	if ((rc = cli_parse(self, argc, argv, &a, &first)) != CLI_DONE)
		return rc;
	if (first >= argc)
		return cli_usage_error(self, "a GPU model is required");
	if ((rc = cli_load_catalog(a.profiles, &cat)) != EXIT_OK)
		return rc;
	if (!(g = gs_gpu_find(cat, argv[first]))) {
		rc = cli_unknown_gpu(cat, argv[first]);
	} else if (!g->mig_slots) {
		rc = cli_error(EXIT_FAIL, "%s does not support MIG", g->name);
	} else if (first + 1 < argc) {
		rc = check(g, argc - first - 1, argv + first + 1, a.fmt);
	} else {
		rc = list(g, a.all, a.variants, a.fmt);
	}
	gs_catalog_free(cat);
	return rc;
}
