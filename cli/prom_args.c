/* prom_args.c - the options that shape the Prometheus queries: durations
 * as Prometheus writes them ("7d", "1h30m", or seconds), times as RFC 3339
 * or unix seconds, and the check that they come with --prometheus. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "prom.h"

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* Seconds with an optional fraction ("300", "0.5") as ms, rounded; what
 * the HTTP API takes for step and for times. No sign, no exponent. */
static int seconds(const char *s, int64_t *ms)
{
	int64_t v = 0, frac = 0;
	int k = 0, up = 0;
	size_t i = 0;
	if (!is_digit((unsigned char)s[0]))
		return -1;
	for (; is_digit((unsigned char)s[i]); i++) {
		if (v > INT64_C(9000000000000)) /* past the year 287,000 */
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (s[i] == '.') {
		if (!is_digit((unsigned char)s[++i]))
			return -1;
		/* Three digits are ms; the fourth rounds them; more are noise. */
		for (; is_digit((unsigned char)s[i]); i++, k++)
			if (k < 3)
				frac = frac * 10 + (s[i] - '0');
			else if (k == 3)
				up = s[i] >= '5';
		for (; k < 3; k++)
			frac *= 10;
	}
	if (s[i])
		return -1;
	*ms = v * 1000 + frac + up;
	return 0;
}

/* One unit of a Prometheus duration, longest names first. */
static const struct {
	const char *name;
	int64_t ms;
} units[] = {
	{ "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 },
	{ "d", 86400000 }, { "w", 604800000 }, { "y", INT64_C(31536000000) },
};

int cli_prom_duration(const char *text, int64_t *ms)
{
	const char *s = text;
	int64_t total = 0, last = INT64_MAX;

	if (seconds(text, ms) == 0)
		return *ms > 0 ? 0 : -1;
	while (*s) {
		int64_t n = 0;
		size_t u;
		if (!is_digit((unsigned char)*s))
			return -1;
		for (; is_digit((unsigned char)*s); s++) {
			if (n > 1000000000)
				return -1;
			n = n * 10 + (*s - '0');
		}
		for (u = 0; u < sizeof units / sizeof units[0]; u++)
			if (strncmp(s, units[u].name, strlen(units[u].name)) == 0)
				break; /* "ms" is tried before "m" */
		/* Units come once each, largest first, as Prometheus requires. */
		if (u == sizeof units / sizeof units[0] || units[u].ms >= last)
			return -1;
		last = units[u].ms;
		s += strlen(units[u].name);
		total += n * units[u].ms;
		if (total > 100 * INT64_C(31536000000))
			return -1;
	}
	if (total <= 0)
		return -1;
	*ms = total;
	return 0;
}

char *cli_prom_duration_text(int64_t ms, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t u = sizeof units / sizeof units[0]; u-- > 0 && o < size;) {
		int64_t n = ms / units[u].ms;
		if (!n)
			continue;
		o += (size_t)snprintf(buf + o, size - o, "%lld%s", (long long)n, units[u].name);
		ms -= n * units[u].ms;
	}
	return buf;
}

/* n digits at s as a number; -1 when they are not all digits. */
static int digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* "2024-11-21T14:40:00Z", with an optional fraction and an offset
 * ("+01:00") instead of Z; a space or a lower-case t or z as RFC 3339
 * allows. */
static int rfc3339(const char *s, int64_t *ms)
{
	struct tm tm;
	int64_t frac = 0, off = 0, scale = 100;
	size_t i = 19;
	time_t t;

	memset(&tm, 0, sizeof tm);
	if (strlen(s) < 20 || s[4] != '-' || s[7] != '-' || s[13] != ':' || s[16] != ':' ||
	    (s[10] != 'T' && s[10] != 't' && s[10] != ' '))
		return -1;
	tm.tm_year = digits(s, 4) - 1900;
	tm.tm_mon = digits(s + 5, 2) - 1;
	tm.tm_mday = digits(s + 8, 2);
	tm.tm_hour = digits(s + 11, 2);
	tm.tm_min = digits(s + 14, 2);
	tm.tm_sec = digits(s + 17, 2);
	if (tm.tm_year < 70 || tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour < 0 || tm.tm_hour > 23 || tm.tm_min < 0 ||
	    tm.tm_min > 59 || tm.tm_sec < 0 || tm.tm_sec > 60)
		return -1;
	if (s[i] == '.') {
		if (!is_digit((unsigned char)s[++i]))
			return -1;
		for (; is_digit((unsigned char)s[i]); i++, scale /= 10)
			frac += scale * (s[i] - '0');
	}
	if ((s[i] == 'Z' || s[i] == 'z') && !s[i + 1]) {
		off = 0;
	} else if ((s[i] == '+' || s[i] == '-') && strlen(s + i) == 6 && s[i + 3] == ':') {
		int h = digits(s + i + 1, 2), m = digits(s + i + 4, 2);
		if (h < 0 || h > 23 || m < 0 || m > 59)
			return -1;
		off = (h * 60 + m) * 60 * (s[i] == '-' ? -1 : 1);
	} else {
		return -1;
	}
	t = timegm(&tm);
	if (t == (time_t)-1)
		return -1;
	*ms = ((int64_t)t - off) * 1000 + frac;
	return 0;
}

int cli_prom_time(const char *text, int64_t *ms)
{
	return seconds(text, ms) == 0 || rfc3339(text, ms) == 0 ? 0 : -1;
}

char *cli_prom_rfc3339(int64_t ms, char *buf, size_t size)
{
	time_t t = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	int frac = (int)(ms - (int64_t)t * 1000);
	struct tm tm;
	char day[32];
	if (!gmtime_r(&t, &tm) || !strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(day, sizeof day, "@%lld", (long long)t);
	if (frac)
		snprintf(buf, size, "%s.%03dZ", day, frac);
	else
		snprintf(buf, size, "%sZ", day);
	return buf;
}

/* ---- the option callbacks (the cli_cluster is the first member) ----------- */

int cli_prom_set_window(const cli_cmd *self, void *args, const char *text)
{
	cli_cluster *c = args;
	if (cli_prom_duration(text, &c->prom.window_ms) < 0)
		return cli_usage_error(self, "--window: '%s' is not a duration (such as 7d, "
		                       "12h, 1h30m, or seconds)", text);
	c->prom.window = text;
	return 0;
}

int cli_prom_set_step(const cli_cmd *self, void *args, const char *text)
{
	cli_cluster *c = args;
	if (cli_prom_duration(text, &c->prom.step_ms) < 0)
		return cli_usage_error(self, "--step: '%s' is not a duration (such as 5m, 30s, "
		                       "or seconds)", text);
	c->prom.step = text;
	return 0;
}

int cli_prom_set_until(const cli_cmd *self, void *args, const char *text)
{
	cli_cluster *c = args;
	if (cli_prom_time(text, &c->prom.until_ms) < 0)
		return cli_usage_error(self, "--until: '%s' is not a time (RFC 3339 such as "
		                       "2024-11-21T14:40:00Z, or unix seconds)", text);
	c->prom.until = text;
	return 0;
}

/* The URL as libcurl would take it, narrowed to what is a Prometheus base
 * URL: http or https, no query or fragment (the API paths are appended). */
static int url_ok(const char *u)
{
	size_t skip = strncmp(u, "http://", 7) == 0 ? 7 : strncmp(u, "https://", 8) == 0 ? 8 : 0;
	return skip && u[skip] && u[skip] != '/' && !strpbrk(u, "?# \t\r\n");
}

int cli_prom_check(const cli_cmd *self, const cli_prom *p)
{
	const char *opt = p->window ? "--window" : p->step ? "--step" : p->until ? "--until"
	                  : p->timeout ? "--timeout" : NULL;
	int64_t window = p->window ? p->window_ms : CLI_PROM_WINDOW_MS;
	int64_t step = p->step ? p->step_ms : CLI_PROM_STEP_MS;

	if (!p->url)
		return opt ? cli_usage_error(self, "%s needs --prometheus", opt) : -1;
	if (!url_ok(p->url))
		return cli_usage_error(self, "--prometheus: '%s' is not an http:// or https:// "
		                       "URL without a query", p->url);
	if (window / step + 1 > CLI_PROM_MAX_POINTS)
		return cli_usage_error(self, "--window %s at --step %s is %lld points per series, "
		                       "more than %d: use a larger --step",
		                       p->window ? p->window : "7d", p->step ? p->step : "5m",
		                       (long long)(window / step + 1), CLI_PROM_MAX_POINTS);
	return -1;
}
