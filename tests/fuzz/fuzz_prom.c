/*
 * fuzz_prom.c - the Prometheus exposition-format parser and the query
 * result reader (the first byte picks which), written to the format's
 * specification and fed whatever a scrape or a user may hand it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/prom.h"

static int count(const gs_prom_sample *s, void *ud)
{
	/* Touch what a caller reads. */
	(void)gs_prom_label_get(s, "pod");
	++*(size_t *)ud;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = 0;
	gs_error err;
	double v;
	if (size == 0)
		return 0;
	if (data[0] & 1)
		gs_prom_parse_query("q.json", (const char *)data + 1, size - 1, count, &n, &err);
	else
		gs_prom_parse_text("m.prom", (const char *)data + 1, size - 1, count, &n, &err);
	gs_prom_parse_value((const char *)data, size < 64 ? size : 64, &v);
	return 0;
}
