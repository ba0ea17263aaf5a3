/*
 * fuzz_lint.c - the linter over device-plugin, mig-parted, DRA and
 * Karpenter configs, bare or inside ConfigMaps and YAML streams.
 */
#include <stdint.h>
#include <stdlib.h>

#include "gpushare.h"

static const char *profiles_dir(void)
{
	const char *dir = getenv("GS_PROFILES");
	return dir ? dir : "profiles";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static gs_catalog *cat;
	gs_lint_opts o = GS_LINT_OPTS_INIT;
	gs_lint *l = NULL;
	gs_error err;
	gs_doc *doc;
	char *text;

	/* With the catalog, so MIG geometries are checked too. */
	if (!cat && gs_catalog_load(profiles_dir(), &cat, &err) < 0)
		abort();
	o.catalog = cat;
	if (gs_lint_new(&o, &l, &err) < 0)
		abort();
	gs_lint_buffer(l, "fuzz.yaml", (const char *)data, size, &err);
	if (gs_doc_lint(l, &doc, &err) == 0) {
		if (gs_doc_render(doc, GS_FORMAT_JSON, &text, &err) == 0)
			free(text);
		gs_doc_free(doc);
	}
	gs_lint_free(l);
	return 0;
}
