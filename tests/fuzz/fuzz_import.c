/*
 * fuzz_import.c - the kubectl inventory importer: the input becomes the
 * node list or the pod list (first byte), beside a fixed valid other list;
 * when it imports, the scenario, the workload file and the report are
 * made too. The importer reads paths, so the input goes to a file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpushare.h"

static const char empty_list[] = "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}\n";

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

/* The harness's files: a directory of its own under TMPDIR (run.sh sets it
 * inside build/), removed at exit, so that runs leave nothing behind. */
static char dir[256], input[300], other[300];

static void remove_files(void)
{
	unlink(input);
	unlink(other);
	rmdir(dir);
}

static void make_files(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/gs-fuzz-import-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(input, sizeof input, "%s/input.json", dir);
	snprintf(other, sizeof other, "%s/other.json", dir);
	atexit(remove_files);
	write_file(other, empty_list, sizeof empty_list - 1);
}

static const char *profiles_dir(void)
{
	const char *dir = getenv("GS_PROFILES");
	return dir ? dir : "profiles";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static gs_catalog *cat;
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_inventory *inv = NULL;
	gs_error err;

	if (!cat) {
		if (gs_catalog_load(profiles_dir(), &cat, &err) < 0)
			abort();
		make_files();
	}
	if (size == 0)
		return 0;
	write_file(input, data + 1, size - 1);
	o.nodes = data[0] & 1 ? other : input;
	o.pods = data[0] & 1 ? input : other;
	if (gs_import_load(cat, &o, &inv, &err) == 0) {
		gs_scenario *s = NULL;
		gs_doc *doc;
		char *text;
		if (gs_import_scenario(inv, &s, &err) == 0)
			gs_scenario_free(s);
		if (gs_import_render(inv, &text, &err) == 0)
			free(text);
		if (gs_doc_import_report(inv, &doc, &err) == 0)
			gs_doc_free(doc);
		gs_import_free(inv);
	}
	return 0;
}
