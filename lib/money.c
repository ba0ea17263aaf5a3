/* money.c - exact dollar amounts in integer micro-dollars. */
#include <inttypes.h>
#include <stdio.h>

#include "internal.h"

int gs_micros_parse(const char *text, gs_micros *out, gs_error *err)
{
	int64_t v;
	if (gs_parse_fixed(text, GS_MICROS_PER_USD, &v) < 0)
		return gs_fail(err, GS_ESYNTAX,
		               "'%s' is not a dollar amount (at most 6 decimals)",
		               text);
	*out = v;
	return 0;
}

char *gs_micros_format(gs_micros m, int decimals, char *buf, size_t size)
{
	int64_t pow = 1, q, a;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	for (int i = 0; i < decimals; i++)
		pow *= 10;
	q = gs_div_round(m, GS_MICROS_PER_USD / pow);
	a = q < 0 ? -q : q;
	if (decimals)
		snprintf(buf, size, "%s%" PRId64 ".%0*" PRId64, q < 0 ? "-" : "",
		         a / pow, decimals, a % pow);
	else
		snprintf(buf, size, "%s%" PRId64, q < 0 ? "-" : "", a);
	return buf;
}

const char *gs_strategy_name(gs_strategy s)
{
	switch (s) {
	case GS_STRATEGY_DEDICATED: return "dedicated";
	case GS_STRATEGY_TIME_SLICING: return "time-slicing";
	case GS_STRATEGY_MPS: return "mps";
	case GS_STRATEGY_MIG: return "mig";
	}
	return "unknown";
}

const char *gs_pricing_name(gs_pricing p)
{
	return p == GS_PRICING_SPOT ? "spot" : "on-demand";
}
