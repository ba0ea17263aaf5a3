/*
 * fuzz_prom_resp.c - the scan of a Prometheus HTTP API response's top
 * level (cli/prom_resp.c: status, errorType, error, warnings, series),
 * which reads whatever a server sends before the library sees it. It
 * includes the source so that the fuzzer links nothing of the CLI. The
 * body is copied without a NUL after it, as the scan must not need one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/prom_resp.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *body = malloc(size ? size : 1), text[64];
	cli_prom_resp r;
	size_t pos = 0, n = 0;
	if (!body)
		return 0;
	memcpy(body, data, size);
	cli_prom_resp_scan(body, size, &r);
	if (strlen(r.error) >= sizeof r.error || strlen(r.error_type) >= sizeof r.error_type)
		abort();
	if (r.warnings && (r.warnings < body || r.warnings + r.warnings_len > body + size))
		abort();
	/* Each warning takes at least two bytes ("" ), so more is a stall. */
	while (cli_prom_resp_warning(&r, &pos, text, sizeof text))
		if (++n > size / 2 + 1 || strlen(text) >= sizeof text)
			abort();
	free(body);
	return 0;
}
