/*
 * fuzz_kube_scan.c - the streaming List reader (lib/import/kube_list.c,
 * kube_scan.c), differentially: the input (after its first byte) is read
 * once in one piece and once from a source that gives 1 to 16 bytes a call
 * (the first byte picks how many). Both readings must hand out the same
 * items and end with the same result and the same error, place and all;
 * anything else aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "import/kube_list.h"

typedef struct drip {
	const uint8_t *buf;
	size_t len, at, step;
} drip;

static long drip_read(void *ud, char *out, size_t cap, gs_error *err)
{
	drip *d = ud;
	size_t n = d->step < cap ? d->step : cap;
	(void)err;
	if (n > d->len - d->at)
		n = d->len - d->at;
	memcpy(out, d->buf + d->at, n);
	d->at += n;
	return (long)n;
}

/* Each item as JSON, and a failure on items that say "fail": the callback's
 * error is then located again, as the importer's are. */
typedef struct seen {
	gs_buf text;
	gs_error *err;
} seen;

static int record(const char *file, const gs_node *item, size_t i, void *ud)
{
	seen *s = ud;
	char *json = NULL;
	if (gs_node_get(item, "fail"))
		return gs_fail_node(s->err, GS_ESCHEMA, file, gs_node_get(item, "fail"), "fail");
	if (gs_json_render(item, &json, s->err) < 0)
		return GS_ENOMEM;
	gs_buf_printf(&s->text, "%zu: %s", i, json);
	free(json);
	return 0;
}

static char *run(const uint8_t *data, size_t len, size_t step)
{
	drip d = { data, len, 0, step };
	gs_source src = { "fuzz.json", drip_read, NULL, &d };
	gs_kube_list l = { &src, "Pod", "kubectl get pods -A -o json" };
	gs_error err;
	seen s = { GS_BUF_INIT, &err };
	char msg[1024], *out = NULL;
	int rc = gs_kube_list_read(&l, record, &s, &err);
	gs_buf_printf(&s.text, "rc %d %s\n", rc,
	              rc < 0 ? gs_error_format(&err, msg, sizeof msg) : "");
	if (gs_buf_detach(&s.text, &out, &err) < 0)
		abort();
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *whole, *drip;
	if (size == 0)
		return 0;
	whole = run(data + 1, size - 1, size + 1);
	drip = run(data + 1, size - 1, 1 + data[0] % 16);
	if (strcmp(whole, drip) != 0)
		abort();
	free(whole);
	free(drip);
	return 0;
}
