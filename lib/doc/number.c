/*
 * number.c - the text of the decimal numbers documents carry, in one
 * place, so that the tree and the streaming writer cannot drift apart.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "doc/doc.h"

void gs_number_fixed(int64_t v, int scale, int decimals, char *buf)
{
	int64_t pow = 1, q;
	for (int i = 0; i < decimals; i++)
		pow *= 10;
	/* Round v/scale to `decimals` places, half away from zero. */
	q = gs_div_round(v * pow, scale);
	if (decimals == 0) {
		snprintf(buf, GS_NUMBER_TEXT, "%" PRId64, q);
	} else {
		int64_t a = q < 0 ? -q : q;
		snprintf(buf, GS_NUMBER_TEXT, "%s%" PRId64 ".%0*" PRId64, q < 0 ? "-" : "",
		         a / pow, decimals, a % pow);
	}
}

void gs_number_money(gs_micros m, int decimals, char *buf)
{
	size_t n;
	const char *dot;

	/* Every digit the catalog has, but at least `decimals` of them. */
	gs_micros_format(m, 6, buf, GS_NUMBER_TEXT);
	n = strlen(buf);
	dot = strchr(buf, '.');
	while (dot && n > (size_t)(dot - buf) + 1 + (size_t)decimals && buf[n - 1] == '0')
		buf[--n] = '\0';
}
