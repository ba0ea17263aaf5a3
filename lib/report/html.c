/* html.c - HTML escaping and number cells for the report (html.h). */
#include <stdio.h>
#include <string.h>

#include "report/html.h"

/* ---- escaping ------------------------------------------------------------ */

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */
#define ELLIPSIS "\xE2\x80\xA6"    /* U+2026 */

/* The length of the well-formed UTF-8 character at s (1 to 4), or 0 when
 * the bytes there are not one (stray continuation bytes, overlong forms,
 * surrogates, code points past U+10FFFF, a truncated sequence). */
static size_t u8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xBF;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4;
	else
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

/* Appends the character at s escaped; returns the bytes it used. */
static size_t esc_char(gs_buf *b, const unsigned char *s)
{
	size_t n = u8_len(s);

	if (n == 0) {
		gs_buf_puts(b, REPLACEMENT);
		return 1;
	}
	switch (s[0]) {
	case '&': gs_buf_puts(b, "&amp;"); return 1;
	case '<': gs_buf_puts(b, "&lt;"); return 1;
	case '>': gs_buf_puts(b, "&gt;"); return 1;
	case '"': gs_buf_puts(b, "&quot;"); return 1;
	case '\'': gs_buf_puts(b, "&#39;"); return 1;
	case '\t': case '\n': gs_buf_putc(b, (char)s[0]); return 1;
	}
	/* C0 and C1 controls and DEL are parse errors in HTML. */
	if (s[0] < 0x20 || s[0] == 0x7F || (s[0] == 0xC2 && s[1] < 0xA0))
		gs_buf_puts(b, REPLACEMENT);
	else
		gs_buf_add(b, s, n);
	return n;
}

void gs_html_esc(gs_buf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	while (u && *u)
		u += esc_char(b, u);
}

size_t gs_html_chars(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = 0, len;
	while (u && *u) {
		len = u8_len(u);
		u += len ? len : 1;
		n++;
	}
	return n;
}

void gs_html_esc_max(gs_buf *b, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;

	if (!s || max == 0)
		return;
	if (gs_html_chars(s) <= max) {
		gs_html_esc(b, s);
		return;
	}
	for (size_t i = 0; i + 1 < max; i++)
		u += esc_char(b, u);
	gs_buf_puts(b, ELLIPSIS);
}

/* ---- numbers ------------------------------------------------------------- */

void gs_html_money(gs_buf *b, gs_micros m)
{
	char plain[32], grouped[48];
	size_t len, o = 0;

	/* The magnitude of the most negative amount still fits once rounded
	 * to cents: gs_micros_format works on the sign itself. */
	gs_micros_format(m, 2, plain, sizeof plain);
	const char *digits = plain[0] == '-' ? plain + 1 : plain;
	len = strcspn(digits, ".");
	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			grouped[o++] = ',';
		grouped[o++] = digits[i];
	}
	snprintf(grouped + o, sizeof grouped - o, "%s", digits + len);
	gs_buf_printf(b, "%s$%s", plain[0] == '-' ? "-" : "", grouped);
}

void gs_html_permille(gs_buf *b, int permille)
{
	int a = permille < 0 ? -permille : permille;
	gs_buf_printf(b, "%s%d.%d%%", permille < 0 ? "-" : "", a / 10, a % 10);
}

void gs_html_ppm(gs_buf *b, int64_t ppm)
{
	gs_buf_printf(b, "%lld%%", (long long)gs_div_round(ppm, 10000));
}
