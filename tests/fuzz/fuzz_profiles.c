/*
 * fuzz_profiles.c - the profile loader: the first byte picks a GPU file or
 * an instance file (against one known GPU), the rest is the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

static int count(const gs_mig_profile *const *p, const size_t *c, size_t n, void *ud)
{
	(void)p;
	(void)c;
	(void)n;
	++*(size_t *)ud;
	return 0;
}

static const char t4[] =
	"name: T4\narchitecture: Turing\ncompute_capability: \"7.5\"\n"
	"memory: 15360MiB\nsm_count: 40\nfp16_tflops: 65\nmps: true\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gs_catalog *cat = calloc(1, sizeof *cat);
	gs_error err;
	if (!cat || size == 0) {
		free(cat);
		return 0;
	}
	if (data[0] & 1) {
		if (gs_catalog_add_buffer(cat, "t4.yaml", t4, sizeof t4 - 1, 0, &err) < 0)
			abort();
		gs_catalog_add_buffer(cat, "fuzz.yaml", (const char *)data + 1, size - 1, 1, &err);
	} else if (gs_catalog_add_buffer(cat, "fuzz.yaml", (const char *)data + 1, size - 1, 0,
	                                 &err) == 0) {
		/* A GPU that loads must also enumerate and render. */
		const gs_gpu *g = gs_catalog_gpu_at(cat, 0);
		gs_doc *doc;
		char *text;
		size_t n = 0;
		if (g && g->mig_slots && g->n_mig_profiles <= 12)
			gs_mig_enumerate(g, NULL, 0, GS_MIG_MAXIMAL, count, &n, &err);
		if (gs_doc_gpus(cat, NULL, &doc, &err) == 0) {
			if (gs_doc_render(doc, GS_FORMAT_JSON, &text, &err) == 0)
				free(text);
			gs_doc_free(doc);
		}
	}
	gs_catalog_free(cat);
	return 0;
}
