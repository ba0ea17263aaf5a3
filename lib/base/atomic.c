/*
 * atomic.c - writing files so that a crash, a kill or a full disk leaves
 * either the old file or the new one, never a partial one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int gs_write_file(const char *path, const char *data, size_t len, int exclusive,
                  gs_error *err)
{
	return gs_write_atomic(path, data, len, exclusive, err);
}

int gs_write_atomic(const char *path, const char *data, size_t len,
                    int exclusive, gs_error *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	int fd, e;
	struct stat st;

	if (!tmp)
		return gs_fail_nomem(err);
	if (exclusive && lstat(path, &st) == 0) {
		free(tmp);
		return gs_fail_at(err, GS_EWRITE, path, 0, 0,
		                  "exists already (use --force to replace it)");
	}
	/* Same directory as the target, so rename() cannot cross devices. */
	snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		e = errno;
		free(tmp);
		return gs_fail_at(err, GS_EWRITE, path, 0, 0, "cannot write: %s", strerror(e));
	}
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return gs_fail_at(err, GS_EWRITE, path, 0, 0, "cannot write: %s", strerror(e));
	}
	/* mkstemp creates 0600; the result should read like any other file.
	 * Close whatever happens, and keep the first error. */
	e = fchmod(fd, 0644) < 0 ? errno : 0;
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e) {
		unlink(tmp);
		free(tmp);
		return gs_fail_at(err, GS_EWRITE, path, 0, 0, "cannot write: %s", strerror(e));
	}
	free(tmp);
	return 0;
}
