/*
 * number.c - the text of the numbers documents carry, in one place, so
 * that the tree and the streaming writer cannot drift apart. Written by
 * hand rather than through printf: a large plan writes millions of them.
 */
#include <string.h>

#include "doc/doc.h"

/* v in decimal at p; returns the end. */
static char *digits(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* v in exactly `width` digits, zero-padded, at p; returns the end. */
static char *padded(char *p, uint64_t v, int width)
{
	for (int i = width - 1; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + width;
}

/* The sign of v at p and its magnitude (INT64_MIN's fits unsigned). */
static char *sign(char *p, int64_t v, uint64_t *a)
{
	*a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	if (v < 0)
		*p++ = '-';
	return p;
}

void gs_number_int(int64_t v, char *buf)
{
	uint64_t a;
	char *p = sign(buf, v, &a);
	*digits(p, a) = '\0';
}

void gs_number_fixed(int64_t v, int scale, int decimals, char *buf)
{
	int64_t pow = 1;
	uint64_t a;
	char *p;
	for (int i = 0; i < decimals; i++)
		pow *= 10;
	/* Round v/scale to `decimals` places, half away from zero. */
	p = sign(buf, gs_div_round(v * pow, scale), &a);
	if (decimals == 0) {
		*digits(p, a) = '\0';
		return;
	}
	p = digits(p, a / (uint64_t)pow);
	*p++ = '.';
	*padded(p, a % (uint64_t)pow, decimals) = '\0';
}

void gs_number_money(gs_micros m, int decimals, char *buf)
{
	uint64_t a;
	char *p = sign(buf, m, &a), *dot;
	size_t n;

	/* Every digit the catalog has (micro-dollars), but at least
	 * `decimals` of them. */
	p = digits(p, a / 1000000);
	dot = p;
	*p++ = '.';
	*padded(p, a % 1000000, 6) = '\0';
	n = strlen(buf);
	while (n > (size_t)(dot - buf) + 1 + (size_t)decimals && buf[n - 1] == '0')
		buf[--n] = '\0';
}
