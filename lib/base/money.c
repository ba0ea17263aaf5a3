/* money.c - exact dollar amounts in integer micro-dollars. */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

int gs_micros_parse(const char *text, gs_micros *out, gs_error *err)
{
	int64_t v;
	switch (gs_parse_fixed(text, GS_MICROS_PER_USD, &v)) {
	case 0: break;
	case GS_PARSE_TOO_PRECISE:
		return gs_fail(err, GS_ESYNTAX, "'%s' has more than 6 decimals", text);
	case GS_PARSE_TOO_LARGE:
		return gs_fail(err, GS_ESYNTAX, "'%s' is too large", text);
	default:
		return gs_fail(err, GS_ESYNTAX, "'%s' is not a dollar amount", text);
	}
	*out = v;
	return 0;
}

/* The digits are written by hand, from the right: a plan's reasons quote
 * a price or two per workload, and snprintf took 2 % of a re-plan. The
 * text is what "%s%llu.%0*llu" would print, cut to size as snprintf
 * cuts. */
char *gs_micros_format(gs_micros m, int decimals, char *buf, size_t size)
{
	int64_t pow = 1, q;
	uint64_t a, whole, frac;
	char d[32];
	size_t k = sizeof d, n;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	for (int i = 0; i < decimals; i++)
		pow *= 10;
	q = gs_div_round(m, GS_MICROS_PER_USD / pow);
	/* Unsigned, so that the magnitude of INT64_MIN fits. */
	a = q < 0 ? (uint64_t)0 - (uint64_t)q : (uint64_t)q;
	whole = a / (uint64_t)pow;
	frac = a % (uint64_t)pow;
	for (int i = 0; i < decimals; i++, frac /= 10)
		d[--k] = (char)('0' + frac % 10);
	if (decimals)
		d[--k] = '.';
	do
		d[--k] = (char)('0' + whole % 10);
	while ((whole /= 10) != 0);
	if (q < 0)
		d[--k] = '-';
	if (!size)
		return buf;
	n = sizeof d - k < size - 1 ? sizeof d - k : size - 1;
	memcpy(buf, d + k, n);
	buf[n] = '\0';
	return buf;
}

const char *gs_pricing_name(gs_pricing p)
{
	return p == GS_PRICING_SPOT ? "spot" : "on-demand";
}

/* ---- splitting a price ---------------------------------------------------- */

typedef struct part {
	gs_wide rem;
	size_t item;
} part;

static int by_remainder(const void *a, const void *b)
{
	const part *x = a, *y = b;
	if (x->rem != y->rem)
		return x->rem < y->rem ? 1 : -1;
	return (x->item > y->item) - (x->item < y->item);
}

int gs_money_split(gs_micros total, const gs_wide *w, size_t n, gs_micros *out)
{
	part *p = malloc((n ? n : 1) * sizeof *p);
	gs_wide sum = 0;
	gs_micros left = total;

	if (!p)
		return -1;
	for (size_t i = 0; i < n; i++)
		sum += w[i];
	for (size_t i = 0; i < n; i++) {
		gs_wide x = (gs_wide)total * w[i];
		out[i] = (gs_micros)(x / sum);
		p[i] = (part){ x % sum, i };
		left -= out[i];
	}
	qsort(p, n, sizeof *p, by_remainder);
	/* left < n: each part lost less than one micro-dollar. */
	for (size_t i = 0; left > 0 && i < n; i++, left--)
		out[p[i].item]++;
	free(p);
	return 0;
}
