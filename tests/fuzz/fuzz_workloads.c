/*
 * fuzz_workloads.c - the workload-file loader, and when a file loads, the
 * whole pipeline behind it: plan, JSON and YAML output (streamed too, and
 * the same bytes as the tree's), every emitter.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpushare.h"

static const char *profiles_dir(void)
{
	const char *dir = getenv("GS_PROFILES");
	return dir ? dir : "profiles";
}

static gs_catalog *catalog(void)
{
	static gs_catalog *cat;
	gs_error err;
	/* Loaded once: the shipped profiles never change under the fuzzer. */
	if (!cat && gs_catalog_load(profiles_dir(), &cat, &err) < 0)
		abort();
	return cat;
}

/* gs_plan_write's bytes, gathered to compare with the tree's. */
typedef struct gathered {
	char *data;
	size_t len, cap;
} gathered;

static int gather(void *ctx, const char *data, size_t len)
{
	gathered *g = ctx;
	if (g->len + len + 1 > g->cap) {
		size_t cap = (g->len + len + 1) * 2;
		char *p = realloc(g->data, cap);
		if (!p)
			return GS_ENOMEM;
		g->data = p;
		g->cap = cap;
	}
	memcpy(g->data + g->len, data, len);
	g->len += len;
	g->data[g->len] = '\0';
	return 0;
}

/* The streamed plan must be the rendered tree, byte for byte. */
static void same_streamed(const gs_plan *plan, gs_format fmt, const char *text)
{
	gathered g = { NULL, 0, 0 };
	gs_error err;
	int rc = gs_plan_write(plan, fmt, gather, &g, &err);
	if (rc == 0 && (g.len != strlen(text) || memcmp(g.data, text, g.len) != 0))
		abort();
	free(g.data);
}

static void exercise(const gs_scenario *s)
{
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	gs_emit_opts eo = GS_EMIT_OPTS_INIT;
	gs_plan *plan = NULL;
	gs_doc *doc = NULL;
	gs_error err;
	char *text = NULL;
	size_t replicas = 0;

	/* Keep each run short: big fleets are the benchmark's job. */
	for (size_t i = 0; i < gs_scenario_workload_count(s); i++)
		replicas += (size_t)gs_scenario_workload_at(s, i)->replicas;
	if (replicas > 64 || gs_plan_make(s, &po, &plan, &err) < 0)
		return;
	if (gs_doc_plan(plan, &doc, &err) == 0) {
		if (gs_doc_render(doc, GS_FORMAT_JSON, &text, &err) == 0) {
			same_streamed(plan, GS_FORMAT_JSON, text);
			free(text);
		}
		if (gs_doc_render(doc, GS_FORMAT_YAML, &text, &err) == 0) {
			same_streamed(plan, GS_FORMAT_YAML, text);
			free(text);
		}
		gs_doc_free(doc);
	}
	eo.dra = 1;
	eo.rename_shared = 1;
	for (int k = 0; k < GS_EMIT_KIND_COUNT; k++)
		if (gs_emit_wanted(plan, (gs_emit_kind)k, &eo) &&
		    gs_emit(plan, (gs_emit_kind)k, &eo, &text, &err) == 0)
			free(text);
	gs_plan_free(plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gs_scenario *s = NULL;
	gs_error err;
	if (gs_scenario_load_buffer(catalog(), "fuzz.yaml", (const char *)data, size, &s,
	                            &err) == 0) {
		gs_doc *doc;
		char *text;
		/* Saving must give a file that loads again. */
		if (gs_doc_scenario(s, &doc, &err) == 0) {
			if (gs_doc_render(doc, GS_FORMAT_YAML, &text, &err) == 0) {
				gs_scenario *again = NULL;
				if (gs_scenario_load_buffer(catalog(), "saved.yaml", text,
				                            strlen(text), &again, &err) < 0)
					abort();
				gs_scenario_free(again);
				free(text);
			}
			gs_doc_free(doc);
		}
		exercise(s);
	}
	gs_scenario_free(s);
	return 0;
}
