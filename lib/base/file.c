/* file.c - reading whole input files with a size limit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"

static int read_stream(FILE *f, const char *name, char **buf, size_t *len,
                       gs_error *err)
{
	size_t cap = 0, n = 0;
	char *p = NULL;

	for (;;) {
		size_t got;
		if (n + 1 >= cap) {
			size_t want = cap ? cap * 2 : 65536;
			char *q;
			if (cap > GS_READ_MAX_BYTES) {
				free(p);
				return gs_fail_at(err, GS_ELIMIT, name, 0, 0,
				                  "file is larger than the %u MiB limit",
				                  GS_READ_MAX_BYTES >> 20);
			}
			if (!(q = realloc(p, want))) {
				free(p);
				return gs_fail_nomem(err);
			}
			p = q;
			cap = want;
		}
		got = fread(p + n, 1, cap - n - 1, f);
		n += got;
		if (n > GS_READ_MAX_BYTES) {
			free(p);
			return gs_fail_at(err, GS_ELIMIT, name, 0, 0,
			                  "file is larger than the %u MiB limit",
			                  GS_READ_MAX_BYTES >> 20);
		}
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		free(p);
		return gs_fail_at(err, GS_EIO, name, 0, 0, "cannot read: %s",
		                  strerror(e));
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}

int gs_file_read(const char *path, char **buf, size_t *len, gs_error *err)
{
	struct stat st;
	FILE *f;
	int rc;

	if (strcmp(path, "-") == 0)
		return read_stream(stdin, "<stdin>", buf, len, err);
	if (!(f = fopen(path, "rb")))
		return gs_fail_at(err, GS_EIO, path, 0, 0, "cannot open: %s",
		                  strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return gs_fail_at(err, GS_EIO, path, 0, 0,
		                  "is a directory, not a file");
	}
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size > GS_READ_MAX_BYTES) {
		fclose(f);
		return gs_fail_at(err, GS_ELIMIT, path, 0, 0,
		                  "file is larger than the %u MiB limit",
		                  GS_READ_MAX_BYTES >> 20);
	}
	rc = read_stream(f, path, buf, len, err);
	fclose(f);
	return rc;
}
