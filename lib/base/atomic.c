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

/* Refuses to replace anything but a regular file: a device (/dev/full),
 * a symlink (/dev/stdout) or a directory is never swapped for our file. */
static int check_target(const char *path, int exclusive, gs_error *err)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return 0;
	if (exclusive)
		return gs_fail_at(err, GS_EWRITE, path, 0, 0,
		                  "exists already (use --force to replace it)");
	if (!S_ISREG(st.st_mode))
		return gs_fail_at(err, GS_EWRITE, path, 0, 0,
		                  "is not a regular file; only regular files are replaced");
	return 0;
}

/* A new file beside path, created with mode 0666 less the umask (as any
 * program's output is); its name is left in tmp. */
static int create_temp(const char *path, char *tmp, size_t size)
{
	static unsigned serial;
	for (int tries = 0; tries < 100; tries++) {
		int fd;
		snprintf(tmp, size, "%s.tmp%ld.%u", path, (long)getpid(), serial++);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* Puts tmp at path. Without exclusive, an existing file is replaced.
 * With it, link() refuses a file that appeared meanwhile (EEXIST): no
 * check-then-rename window. Filesystems without hard links fall back to
 * a rename after the check already made. */
static int place(const char *tmp, const char *path, int exclusive)
{
	if (!exclusive)
		return rename(tmp, path);
	if (link(tmp, path) == 0)
		return unlink(tmp);
	if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS && errno != EOPNOTSUPP)
		return -1;
	return rename(tmp, path);
}

int gs_write_atomic(const char *path, const char *data, size_t len,
                    int exclusive, gs_error *err)
{
	size_t n = strlen(path) + 48;
	char *tmp = malloc(n);
	int fd, e = 0, rc;

	if (!tmp)
		return gs_fail_nomem(err);
	if ((rc = check_target(path, exclusive, err)) < 0) {
		free(tmp);
		return rc;
	}
	/* Same directory as the target, so the rename cannot cross devices. */
	if ((fd = create_temp(path, tmp, n)) < 0) {
		e = errno;
		free(tmp);
		return gs_fail_at(err, GS_EWRITE, path, 0, 0, "cannot write: %s", strerror(e));
	}
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0)
		e = errno;
	/* Close whatever happens, and keep the first error. */
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e && place(tmp, path, exclusive) < 0)
		e = errno;
	if (e) {
		unlink(tmp);
		free(tmp);
		if (e == EEXIST)
			return gs_fail_at(err, GS_EWRITE, path, 0, 0,
			                  "exists already (use --force to replace it)");
		return gs_fail_at(err, GS_EWRITE, path, 0, 0, "cannot write: %s", strerror(e));
	}
	free(tmp);
	return 0;
}
