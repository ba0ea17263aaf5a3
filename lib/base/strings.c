/* strings.c - small string and arithmetic helpers. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

char *gs_strdup(const char *s)
{
	return s ? gs_strndup(s, strlen(s)) : NULL;
}

char *gs_strndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int gs_strcaseeq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

size_t gs_edit_distance(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[65];

	/* Suggestions are for names people type; long strings are not close. */
	if (la > 64 || lb > 64)
		return cap;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0], best;
		row[0] = i;
		best = row[0];
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			int same = tolower((unsigned char)a[i - 1]) ==
			           tolower((unsigned char)b[j - 1]);
			size_t v = diag + (same ? 0 : 1);
			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
			if (v < best)
				best = v;
		}
		if (best >= cap)
			return cap;
	}
	return row[lb] < cap ? row[lb] : cap;
}

const char *gs_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t len = strlen(word);
	size_t limit = len / 3 > 2 ? len / 3 : 2;
	size_t best = limit + 1;
	const char *pick = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = gs_edit_distance(word, cands[i], best);
		if (d < best) {
			best = d;
			pick = cands[i];
		}
	}
	return pick;
}

char *gs_label_value(const char *s, char *out)
{
	size_t n = 0, start = 0;
	for (; s[n] && n < 63; n++) {
		char c = s[n];
		out[n] = isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.' ? c : '-';
	}
	out[n] = '\0';
	while (n > 0 && !isalnum((unsigned char)out[n - 1]))
		out[--n] = '\0';
	while (out[start] && !isalnum((unsigned char)out[start]))
		start++;
	memmove(out, out + start, n - start + 1);
	return out;
}

int gs_grow(void *items, size_t *cap, size_t need, size_t size)
{
	void **p = items;
	size_t ncap = *cap ? *cap : 8;
	void *q;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / size)
			return -1;
		ncap *= 2;
	}
	q = realloc(*p, ncap * size);
	if (!q)
		return -1;
	*p = q;
	*cap = ncap;
	return 0;
}

int gs_parse_fixed(const char *text, int64_t scale, int64_t *out)
{
	int64_t whole = 0, frac = 0, unit = scale;
	const char *p = text;
	int digits = 0;

	for (; isdigit((unsigned char)*p); p++, digits++) {
		if (whole > (INT64_MAX / scale - 9) / 10)
			return GS_PARSE_TOO_LARGE;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		p++;
		for (; isdigit((unsigned char)*p); p++, digits++) {
			/* Extra zeros are harmless; extra precision is not. */
			if (unit == 1) {
				if (*p != '0')
					return GS_PARSE_TOO_PRECISE;
				continue;
			}
			unit /= 10;
			frac += (*p - '0') * unit;
		}
	}
	if (*p || !digits)
		return -1;
	*out = whole * scale + frac;
	return 0;
}

int gs_scale_decimals(int64_t scale)
{
	int d = 0;
	for (; scale > 1; scale /= 10)
		d++;
	return d;
}

int64_t gs_div_round(int64_t num, int64_t den)
{
	/* Quotient and remainder never overflow where num + den/2 would. */
	int64_t q = num / den, r = num % den;
	uint64_t ar = r < 0 ? (uint64_t)0 - (uint64_t)r : (uint64_t)r;
	uint64_t ad = den < 0 ? (uint64_t)0 - (uint64_t)den : (uint64_t)den;
	if (ar >= ad - ar)
		q += (r < 0) == (den < 0) ? 1 : -1;
	return q;
}

int64_t gs_div_ceil(int64_t num, int64_t den)
{
	return num <= 0 ? 0 : (num + den - 1) / den;
}

int gs_is_dns_label(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 63 || !isalnum((unsigned char)s[0]) ||
	    !isalnum((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) ||
		      s[i] == '-'))
			return 0;
	return 1;
}

int gs_is_dns_subdomain(const char *s)
{
	size_t n = strlen(s), i = 0;
	char part[64];

	if (n == 0 || n > 253)
		return 0;
	while (i <= n) {
		size_t k = strcspn(s + i, ".");
		if (k == 0 || k > 63)
			return 0;
		memcpy(part, s + i, k);
		part[k] = '\0';
		if (!gs_is_dns_label(part))
			return 0;
		i += k + 1;
	}
	return 1;
}
