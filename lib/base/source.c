/* source.c - byte sources (gpushare.h): memory, files and descriptors,
 * and reading one whole within the size limit. The library reads from a
 * source the caller chose; it never picks stdin itself. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

static long memory_read(void *ud, char *buf, size_t cap, gs_error *err)
{
	gs_memory_source *m = ud;
	size_t n = m->len - m->at < cap ? m->len - m->at : cap;
	(void)err;
	memcpy(buf, m->buf + m->at, n);
	m->at += n;
	return (long)n;
}

void gs_source_memory(gs_source *src, gs_memory_source *state, const char *name,
                      const char *buf, size_t len)
{
	*state = (gs_memory_source){ buf, len, 0 };
	*src = (gs_source){ name, memory_read, NULL, state };
}

/* A descriptor and the name its errors give. */
typedef struct fd_source {
	int fd, owned;
	char name[];
} fd_source;

static long fd_read(void *ud, char *buf, size_t cap, gs_error *err)
{
	fd_source *f = ud;
	ssize_t n;
	do
		n = read(f->fd, buf, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return gs_fail_at(err, GS_EIO, f->name, 0, 0, "cannot read: %s", strerror(errno));
	return (long)n;
}

static void fd_close(void *ud)
{
	fd_source *f = ud;
	if (f->owned)
		close(f->fd);
	free(f);
}

static int fd_source_new(gs_source *src, int fd, int owned, const char *name, gs_error *err)
{
	size_t len = strlen(name);
	fd_source *f = malloc(sizeof *f + len + 1);
	if (!f) {
		if (owned)
			close(fd);
		return gs_fail_nomem(err);
	}
	f->fd = fd;
	f->owned = owned;
	memcpy(f->name, name, len + 1);
	*src = (gs_source){ f->name, fd_read, fd_close, f };
	return 0;
}

int gs_source_open_file(gs_source *src, const char *path, gs_error *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(src, 0, sizeof *src);
	if (fd < 0)
		return gs_fail_at(err, GS_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return gs_fail_at(err, GS_EIO, path, 0, 0, "is a directory, not a file");
	}
	return fd_source_new(src, fd, 1, path, err);
}

int gs_source_open_fd(gs_source *src, int fd, const char *name, gs_error *err)
{
	memset(src, 0, sizeof *src);
	if (fd < 0)
		return gs_fail(err, GS_EINVAL, "no descriptor for %s", name);
	return fd_source_new(src, fd, 0, name, err);
}

void gs_source_close(gs_source *src)
{
	if (src && src->close)
		src->close(src->ud);
	if (src)
		src->close = NULL;
}

int gs_source_read_all(const gs_source *src, char **buf, size_t *len, gs_error *err)
{
	size_t cap = 0, n = 0;
	char *p = NULL;

	for (;;) {
		long got;
		if (n + 1 >= cap) {
			size_t want = cap ? cap * 2 : 65536;
			char *q;
			if (cap > GS_READ_MAX_BYTES || !(q = realloc(p, want))) {
				free(p);
				return cap > GS_READ_MAX_BYTES
				               ? gs_fail_at(err, GS_ELIMIT, src->name, 0, 0,
				                            "file is larger than the %u MiB limit",
				                            GS_READ_MAX_BYTES >> 20)
				               : gs_fail_nomem(err);
			}
			p = q;
			cap = want;
		}
		if ((got = src->read(src->ud, p + n, cap - n - 1, err)) < 0) {
			free(p);
			return (int)got;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > GS_READ_MAX_BYTES) {
		free(p);
		return gs_fail_at(err, GS_ELIMIT, src->name, 0, 0,
		                  "file is larger than the %u MiB limit", GS_READ_MAX_BYTES >> 20);
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}
