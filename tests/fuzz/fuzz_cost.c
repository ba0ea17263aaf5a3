/*
 * fuzz_cost.c - chargeback on hostile clusters: the input becomes the
 * ResourceClaim list (first byte even) or the pod list (odd) beside the
 * DRA cluster's other lists (read from tests/fixtures/cost/ once); the
 * first byte's other bits pick the options. Whatever imports is charged,
 * and its document, CSV and HTML page are made.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpushare.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		abort();
	if (!(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int feed(gs_inventory *inv, gs_import_input what, const char *buf, size_t len)
{
	gs_source src;
	gs_memory_source st;
	gs_error err;
	gs_source_memory(&src, &st, "fuzz", buf, len);
	return gs_import_read(inv, what, &src, &err);
}

static void charge(const gs_inventory *inv, unsigned bits)
{
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	gs_chargeback *c = NULL;
	gs_error err;
	gs_doc *doc;
	char *text;

	o.basis = (gs_cost_basis)(bits & 1);
	o.mig_share = (gs_cost_mig)((bits >> 1) % 3);
	o.gpu_weight_pct = (bits & 8) ? 90 : 100;
	o.spread_idle = (bits >> 4) & 1;
	o.by = (gs_cost_by)((bits >> 5) % 3);
	if (gs_chargeback_make(inv, &o, &c, &err) < 0)
		return;
	if (gs_doc_chargeback(c, &doc, &err) == 0)
		gs_doc_free(doc);
	if (gs_chargeback_csv(c, &text, &err) == 0)
		free(text);
	if (gs_report_cost_html(c, "fuzz", &text, &err) == 0)
		free(text);
	gs_chargeback_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static gs_catalog *cat;
	static char *nodes, *pods, *claims;
	static size_t n_nodes, n_pods, n_claims;
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_inventory *inv = NULL;
	const char *dir = getenv("GS_PROFILES");
	const char *in = (const char *)data + 1;
	gs_error err;
	int rc;

	if (!cat) {
		char path[4096];
		if (gs_catalog_load(dir ? dir : "profiles", &cat, &err) < 0)
			abort();
		snprintf(path, sizeof path, "%s/../tests/fixtures/cost/dra-nodes.json",
		         dir ? dir : "profiles");
		nodes = slurp(path, &n_nodes);
		snprintf(path, sizeof path, "%s/../tests/fixtures/cost/dra-pods.json",
		         dir ? dir : "profiles");
		pods = slurp(path, &n_pods);
		snprintf(path, sizeof path, "%s/../tests/fixtures/cost/dra-claims.json",
		         dir ? dir : "profiles");
		claims = slurp(path, &n_claims);
	}
	if (size == 0)
		return 0;
	o.team_label = "team";
	if (gs_import_begin(cat, &o, &inv, &err) < 0)
		abort();
	rc = feed(inv, GS_INPUT_NODES, nodes, n_nodes);
	if (rc == 0)
		rc = data[0] & 1 ? feed(inv, GS_INPUT_PODS, in, size - 1)
		                 : feed(inv, GS_INPUT_PODS, pods, n_pods);
	if (rc == 0)
		rc = data[0] & 1 ? feed(inv, GS_INPUT_CLAIMS, claims, n_claims)
		                 : feed(inv, GS_INPUT_CLAIMS, in, size - 1);
	if (rc == 0 && gs_import_end(inv, &err) == 0)
		charge(inv, data[0] >> 1);
	gs_import_free(inv);
	return 0;
}
