/* prom_resp.c - the top level of a Prometheus HTTP API response: status,
 * errorType, error, warnings, and how many series data.result holds. A
 * scan over the bytes, no tree and no recursion (brackets are counted):
 * a body can be many MiB, and the library parses it in full afterwards.
 * Malformed JSON only ends the scan early; the library reports where. */
#include <string.h>

#include "prom.h"

#define NONE ((size_t)-1)

static size_t ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* Past the string that starts at s[i] ('"'); NONE when it does not end. */
static size_t skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return NONE;
}

/* Past the value at s[i]; NONE when it does not end. */
static size_t skip_value(const char *s, size_t n, size_t i)
{
	size_t depth = 0;
	if (i >= n)
		return NONE;
	if (s[i] == '"')
		return skip_string(s, n, i);
	if (s[i] != '{' && s[i] != '[') {
		size_t from = i;
		while (i < n && !strchr(",}] \t\r\n", s[i]))
			i++;
		return i > from ? i : NONE; /* no value where one must be */
	}
	for (; i < n; i++) {
		if (s[i] == '"') {
			if ((i = skip_string(s, n, i)) == NONE)
				return NONE;
			i--;
		} else if (s[i] == '{' || s[i] == '[') {
			depth++;
		} else if ((s[i] == '}' || s[i] == ']') && --depth == 0) {
			return i + 1;
		}
	}
	return NONE;
}

/* The value of member key of the object at s[i]; NONE when absent. Keys
 * are compared as written (those we look for have no escapes). */
static size_t member(const char *s, size_t n, size_t i, const char *key)
{
	size_t klen = strlen(key);
	if (i >= n || s[i] != '{')
		return NONE;
	i = ws(s, n, i + 1);
	while (i < n && s[i] == '"') {
		size_t k = i + 1, end = skip_string(s, n, i);
		if (end == NONE)
			return NONE;
		i = ws(s, n, end);
		if (i >= n || s[i] != ':')
			return NONE;
		i = ws(s, n, i + 1);
		if (end - k - 1 == klen && memcmp(s + k, key, klen) == 0)
			return i < n ? i : NONE;
		if ((i = skip_value(s, n, i)) == NONE)
			return NONE;
		i = ws(s, n, i);
		if (i >= n || s[i] != ',')
			return NONE;
		i = ws(s, n, i + 1);
	}
	return NONE;
}

static void put_utf8(char *buf, size_t size, size_t *o, unsigned long c)
{
	char u[4];
	size_t k = 0;
	if (c < 0x80) {
		u[k++] = (char)c;
	} else if (c < 0x800) {
		u[k++] = (char)(0xC0 | c >> 6);
		u[k++] = (char)(0x80 | (c & 0x3F));
	} else if (c < 0x10000) {
		u[k++] = (char)(0xE0 | c >> 12);
		u[k++] = (char)(0x80 | (c >> 6 & 0x3F));
		u[k++] = (char)(0x80 | (c & 0x3F));
	} else {
		u[k++] = (char)(0xF0 | c >> 18);
		u[k++] = (char)(0x80 | (c >> 12 & 0x3F));
		u[k++] = (char)(0x80 | (c >> 6 & 0x3F));
		u[k++] = (char)(0x80 | (c & 0x3F));
	}
	if (*o + k < size) {
		memcpy(buf + *o, u, k);
		*o += k;
	}
}

static unsigned long hex4(const char *s, size_t n, size_t i)
{
	unsigned long v = 0;
	for (size_t k = i; k < i + 4; k++) {
		int c = k < n ? s[k] : 'x';
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return 0xFFFD;
		v = v * 16 + (unsigned long)d;
	}
	return v;
}

/* The string at s[i] decoded into buf (cut to size, NUL-terminated). The
 * messages it holds are printed through cli_put_safe, which escapes what
 * a terminal would act on. */
static void decode(const char *s, size_t n, size_t i, char *buf, size_t size)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	size_t o = 0, end = skip_string(s, n, i);
	if (end == NONE)
		end = n;
	for (i++; i + 1 < end && o + 1 < size; i++) {
		const char *e;
		unsigned long c;
		if (s[i] != '\\') {
			buf[o++] = s[i];
			continue;
		}
		i++;
		if (s[i] != 'u') {
			e = s[i] ? strchr(esc, s[i]) : NULL;
			buf[o++] = e && (e - esc) % 2 == 0 ? e[1] : s[i];
			continue;
		}
		c = hex4(s, n, i + 1);
		i += 4;
		if (c >= 0xD800 && c < 0xDC00 && i + 6 < end && s[i + 1] == '\\' &&
		    s[i + 2] == 'u') {
			unsigned long lo = hex4(s, n, i + 3);
			if (lo >= 0xDC00 && lo < 0xE000) {
				c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
				i += 6;
			}
		}
		put_utf8(buf, size, &o, c >= 0xD800 && c < 0xE000 ? 0xFFFD : c);
	}
	buf[size ? (o < size ? o : size - 1) : 0] = '\0';
}

/* The elements of the array at s[i]; -1 when it is not one. */
static long count_items(const char *s, size_t n, size_t i)
{
	long k = 0;
	if (i >= n || s[i] != '[')
		return -1;
	i = ws(s, n, i + 1);
	if (i < n && s[i] == ']')
		return 0;
	while ((i = skip_value(s, n, i)) != NONE) {
		k++;
		i = ws(s, n, i);
		if (i >= n || s[i] != ',')
			return i < n && s[i] == ']' ? k : -1;
		i = ws(s, n, i + 1);
	}
	return -1;
}

void cli_prom_resp_scan(const char *s, size_t n, cli_prom_resp *r)
{
	size_t top = ws(s, n, 0), v;

	memset(r, 0, sizeof *r);
	r->series = -1;
	if ((v = member(s, n, top, "status")) == NONE || s[v] != '"')
		return;
	r->api = 1;
	r->success = n - v >= 9 && memcmp(s + v, "\"success\"", 9) == 0;
	if ((v = member(s, n, top, "errorType")) != NONE && s[v] == '"')
		decode(s, n, v, r->error_type, sizeof r->error_type);
	if ((v = member(s, n, top, "error")) != NONE && s[v] == '"')
		decode(s, n, v, r->error, sizeof r->error);
	if ((v = member(s, n, top, "data")) != NONE &&
	    (v = member(s, n, v, "result")) != NONE)
		r->series = count_items(s, n, v);
	if ((v = member(s, n, top, "warnings")) != NONE && s[v] == '[') {
		size_t end = skip_value(s, n, v);
		r->warnings = s + v;
		r->warnings_len = end == NONE ? n - v : end - v;
	}
}

int cli_prom_resp_warning(const cli_prom_resp *r, size_t *pos, char *buf, size_t size)
{
	const char *s = r->warnings;
	size_t n = r->warnings_len, i = *pos ? *pos : 1;

	if (!s)
		return 0;
	for (;;) {
		i = ws(s, n, i);
		if (i < n && s[i] == ',')
			i = ws(s, n, i + 1);
		if (i >= n || s[i] == ']')
			return 0;
		if (s[i] == '"')
			break;
		if ((i = skip_value(s, n, i)) == NONE) /* not a string: not a message */
			return 0;
	}
	decode(s, n, i, buf, size);
	*pos = skip_value(s, n, i);
	if (*pos == NONE)
		*pos = n;
	return 1;
}
