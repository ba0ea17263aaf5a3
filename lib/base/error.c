/* error.c - filling and formatting gs_error. */
#include <stdio.h>
#include <string.h>

#include "base/base.h"

const char *gs_strerror(int code)
{
	switch (code) {
	case GS_OK: return "success";
	case GS_ENOMEM: return "out of memory";
	case GS_EIO: return "input/output error";
	case GS_ESYNTAX: return "syntax error";
	case GS_ESCHEMA: return "invalid content";
	case GS_ENOTFOUND: return "not found";
	case GS_EINVAL: return "invalid argument";
	case GS_ENOFIT: return "does not fit";
	case GS_ELIMIT: return "limit exceeded";
	case GS_EWRITE: return "cannot write";
	default: return "unknown error";
	}
}

int gs_vfail_at(gs_error *err, int code, const char *file, unsigned long line,
                unsigned long col, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	snprintf(err->file, sizeof err->file, "%s", file ? file : "");
	err->line = file ? line : 0;
	err->col = file ? col : 0;
	return code;
}

int gs_fail(gs_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_vfail_at(err, code, NULL, 0, 0, fmt, ap);
	va_end(ap);
	return code;
}

int gs_fail_at(gs_error *err, int code, const char *file, unsigned long line,
               unsigned long col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_vfail_at(err, code, file, line, col, fmt, ap);
	va_end(ap);
	return code;
}

int gs_check_version(unsigned got, unsigned want, const char *what, gs_error *err)
{
	if (got == want)
		return 0;
	return gs_fail(err, GS_EINVAL,
	               "%s version %u is not %u: initialise it with its _INIT macro", what, got,
	               want);
}

int gs_fail_nomem(gs_error *err)
{
	return gs_fail(err, GS_ENOMEM, "out of memory");
}

char *gs_error_format(const gs_error *err, char *buf, size_t size)
{
	if (!size)
		return buf;
	if (!err) {
		snprintf(buf, size, "error: unknown error");
	} else if (err->file[0] && err->line) {
		snprintf(buf, size, "%s:%lu:%lu: error: %s", err->file, err->line,
		         err->col, err->msg);
	} else if (err->file[0]) {
		snprintf(buf, size, "%s: error: %s", err->file, err->msg);
	} else {
		snprintf(buf, size, "error: %s",
		         err->msg[0] ? err->msg : gs_strerror(err->code));
	}
	return buf;
}
