/* common.c - error reporting, catalog discovery and number formatting. */
#include <inttypes.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#ifndef GS_PROFILES_DIR
#define GS_PROFILES_DIR "/usr/local/share/gpushare/profiles"
#endif

cli_ui cli_ui_state = { 0, 0, -1 };

int cli_global_option(const char *name, const char *arg)
{
	if (strcmp(name, "quiet") == 0)
		cli_ui_state.quiet = 1;
	else if (strcmp(name, "verbose") == 0)
		cli_ui_state.verbose = 1;
	else if (strcmp(name, "color") != 0)
		return 0;
	else if (arg && strcmp(arg, "always") == 0)
		cli_ui_state.color = 1;
	else if (arg && strcmp(arg, "never") == 0)
		cli_ui_state.color = 0;
	else if (arg && strcmp(arg, "auto") == 0)
		cli_ui_state.color = -1;
	else {
		fprintf(stderr,
		        "gpushare: error: --color must be auto, always or never, not '%s'\n",
		        arg ? arg : "");
		return EXIT_USAGE + 10;
	}
	return 1;
}

const char *cli_color(int fd, const char *sgr)
{
	const char *no = getenv("NO_COLOR");
	int on = cli_ui_state.color;
	if (on < 0)
		on = isatty(fd) && !(no && *no);
	return on ? sgr : "";
}

void cli_put_safe(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) /* C1 controls */
			fprintf(f, "\\u%04x", *++p);
		else
			fputc(*p, f);
	}
}

void cli_vput_safe(FILE *f, const char *fmt, va_list ap)
{
	char small[512], *text = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
		vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	if (n >= 0)
		cli_put_safe(f, text ? text : small);
	if (text != small)
		free(text);
}

static void say(const char *fmt, va_list ap)
{
	fputs("gpushare: ", stderr);
	cli_vput_safe(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_warning(const char *fmt, ...)
{
	va_list ap;
	fputs("gpushare: warning: ", stderr);
	va_start(ap, fmt);
	cli_vput_safe(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_info(const char *fmt, ...)
{
	va_list ap;
	if (cli_ui_state.quiet)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void cli_verbose(const char *fmt, ...)
{
	va_list ap;
	if (!cli_ui_state.verbose)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

int cli_status(int code)
{
	switch (code) {
	case GS_OK: return EXIT_OK;
	case GS_ENOFIT:
	case GS_EWRITE:
	case GS_ENOMEM: return EXIT_FAIL;
	default: return EXIT_USAGE;
	}
}

int cli_error(int status, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "gpushare: %serror:%s ", cli_color(2, CLI_RED), cli_color(2, CLI_RESET));
	va_start(ap, fmt);
	cli_vput_safe(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

int cli_unknown_gpu(const gs_catalog *cat, const char *name)
{
	const char *near = gs_gpu_suggest(cat, name);
	if (near)
		return cli_error(EXIT_USAGE, "unknown GPU '%s' (did you mean '%s'?)", name, near);
	return cli_error(EXIT_USAGE, "unknown GPU '%s' (see 'gpushare gpus')", name);
}

int cli_fail(const gs_error *err)
{
	char buf[GS_ERROR_MSG_MAX + GS_ERROR_FILE_MAX + 64];
	char *e;
	gs_error_format(err, buf, sizeof buf);
	/* Colour only the word "error:" of "FILE:LINE:COL: error: MSG". */
	fputs("gpushare: ", stderr);
	if ((e = strstr(buf, "error: ")) != NULL) {
		*e = '\0';
		cli_put_safe(stderr, buf);
		fprintf(stderr, "%serror:%s ", cli_color(2, CLI_RED), cli_color(2, CLI_RESET));
		cli_put_safe(stderr, e + 7);
	} else {
		cli_put_safe(stderr, buf);
	}
	fputc('\n', stderr);
	return cli_status(err->code);
}

static int is_profiles_dir(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;
	if (snprintf(path, sizeof path, "%s/gpus", dir) >= (int)sizeof path)
		return 0;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The source tree keeps profiles/ beside the binary (or two levels above
 * the sanitized one in build/san/); an install keeps them in
 * PREFIX/share/gpushare/profiles, with the binary in PREFIX/bin. */
static int find_near_binary(char *out, size_t size)
{
	static const char *const rel[] = {
		"profiles", "../profiles", "../../profiles", "../share/gpushare/profiles",
	};
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return -1;
	*slash = '\0';
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		if (snprintf(out, size, "%s/%s", exe, rel[i]) >= (int)size)
			continue;
		if (is_profiles_dir(out))
			return 0;
	}
	return -1;
}

int cli_load_catalog(const char *flag, gs_catalog **out)
{
	char found[PATH_MAX];
	const char *dir = flag;
	gs_error err;

	if (!dir)
		dir = getenv("GPUSHARE_PROFILES");
	if (!dir || !*dir)
		dir = find_near_binary(found, sizeof found) == 0 ? found : GS_PROFILES_DIR;
	if (gs_catalog_load(dir, out, &err) < 0)
		return cli_fail(&err);
	cli_verbose("profiles from %s: %zu GPU models, %zu instance types", dir,
	            gs_catalog_gpu_count(*out), gs_catalog_instance_count(*out));
	return EXIT_OK;
}

int cli_print_doc(gs_doc *doc, int fmt)
{
	gs_error err;
	char *text = NULL;
	int rc = gs_doc_render(doc, fmt == FMT_JSON ? GS_FORMAT_JSON : GS_FORMAT_YAML,
	                       &text, &err);
	gs_doc_free(doc);
	if (rc < 0)
		return cli_fail(&err);
	fputs(text, stdout);
	free(text);
	return EXIT_OK;
}

char *cli_money(gs_micros m, char *buf, size_t size)
{
	char plain[32], grouped[48];
	size_t len, o = 0;
	const char *digits;
	int neg = m < 0;

	gs_micros_format(neg ? -m : m, 2, plain, sizeof plain);
	digits = plain;
	len = strcspn(digits, ".");
	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			grouped[o++] = ',';
		grouped[o++] = digits[i];
	}
	snprintf(grouped + o, sizeof grouped - o, "%s", digits + len);
	snprintf(buf, size, "%s$%s", neg ? "-" : "", grouped);
	return buf;
}

char *cli_price(gs_micros m, char *buf, size_t size)
{
	char plain[32];
	size_t n;
	gs_micros_format(m, 6, plain, sizeof plain);
	n = strlen(plain);
	while (n > 0 && plain[n - 1] == '0' && plain[n - 3] != '.')
		plain[--n] = '\0';
	snprintf(buf, size, "$%s", plain);
	return buf;
}

/* Prints text indented, wrapped at spaces to fit 80 columns. */
void cli_print_wrapped(const char *text, int indent)
{
	cli_print_hanging("", text, indent);
}

void cli_print_hanging(const char *lead, const char *text, int indent)
{
	int first = 1;
	fputs(lead, stdout);
	while (*text) {
		int width = 80 - (first && *lead ? (int)strlen(lead) : indent);
		int len = (int)strlen(text), cut = len;
		if (len > width) {
			cut = width;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = width;
		}
		printf("%*s%.*s\n", first && *lead ? 0 : indent, "", cut, text);
		first = 0;
		text += cut;
		while (*text == ' ')
			text++;
	}
}

char *cli_gib(int64_t mib, char *buf, size_t size)
{
	int64_t hundredths = (mib * 100 + 512) / 1024;
	snprintf(buf, size, "%" PRId64 ".%02" PRId64 " GiB", hundredths / 100,
	         hundredths % 100);
	return buf;
}

/* An HTML page, written like every other file: atomically. */
int cli_write_page(const char *path, char *html, int force)
{
	gs_error err;
	int rc = EXIT_OK;
	if (gs_write_file(path, html, strlen(html), !force, &err) < 0)
		rc = cli_fail(&err);
	else
		cli_info("wrote the report to %s", path);
	free(html);
	return rc;
}
