/*
 * atomic_dir.c - writing a set of files as one: the whole set is written
 * into a new sibling directory and then swapped in with one rename, so a
 * kill, a full disk or one unwritable name leaves the old set or the new
 * one, never new files beside old ones that name what they no longer hold.
 *
 * The directory is the writer's own: it may hold only files of the set's
 * names (a previous set, perhaps of other kinds), nothing else, so that a
 * swap never loses a file somebody else put there.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/base.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

typedef struct dirset {
	const char *dir;            /* as the caller named it */
	char path[4096];            /* without trailing slashes */
	char tmp[4096 + 64];        /* the new set, beside path */
	const char *const *names;
	size_t n;
} dirset;

static int fail_errno(gs_error *err, const char *path, const char *what)
{
	return gs_fail_at(err, GS_EWRITE, path, 0, 0, "%s: %s", what, strerror(errno));
}

/* A name of the set, or of its kind: a left-out name may be a pattern
 * ("patch-*.yaml") for files a set writes as many as it needs. */
static int is_member(const dirset *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->names[i], name) == 0 ||
		    (strchr(d->names[i], '*') && fnmatch(d->names[i], name, FNM_PERIOD) == 0))
			return 1;
	return 0;
}

/* The directory's path without trailing slashes; ".", ".." and "/" name
 * no sibling to write beside, so they are refused. */
static int set_path(dirset *d, gs_error *err)
{
	size_t n = strlen(d->dir);
	const char *base;

	while (n > 1 && d->dir[n - 1] == '/')
		n--;
	if (n == 0 || n >= sizeof d->path)
		return gs_fail(err, GS_EINVAL, "invalid directory '%s'", d->dir);
	memcpy(d->path, d->dir, n);
	d->path[n] = '\0';
	base = strrchr(d->path, '/');
	base = base ? base + 1 : d->path;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return gs_fail(err, GS_EINVAL,
		               "'%s' cannot be replaced as a whole; name a directory of "
		               "its own, such as '%s/gpushare'", d->dir, d->path);
	return 0;
}

/* What an existing directory holds must be ours: files of the set's
 * names. Without force, any of them is refused as existing already. */
static int check_existing(const dirset *d, int force, gs_error *err)
{
	DIR *dh = opendir(d->path);
	struct dirent *e;
	int rc = 0;

	if (!dh)
		return fail_errno(err, d->path, "cannot read the directory");
	while (rc == 0 && (e = readdir(dh)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (!is_member(d, e->d_name))
			rc = gs_fail_at(err, GS_EWRITE, d->path, 0, 0,
			                "holds '%s', which gpushare did not write; the directory "
			                "is replaced as a whole, so name an empty or new one",
			                e->d_name);
		else if (!force)
			rc = gs_fail_at(err, GS_EWRITE, d->path, 0, 0,
			                "holds '%s' already (use --force to replace the set)",
			                e->d_name);
	}
	closedir(dh);
	return rc;
}

/* Removes a directory of the set's files (the new set after a failure, or
 * the old one after the swap). */
static void remove_set(const dirset *d, const char *dir)
{
	char f[sizeof d->tmp + 256];
	DIR *dh = opendir(dir);
	struct dirent *e;

	while (dh && (e = readdir(dh)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(f, sizeof f, "%s/%s", dir, e->d_name);
		unlink(f);
	}
	if (dh)
		closedir(dh);
	rmdir(dir);
}

/* A new empty directory beside path (mode 0777 less the umask). */
static int make_sibling(dirset *d, gs_error *err)
{
	static unsigned serial;
	for (int tries = 0; tries < 100; tries++) {
		snprintf(d->tmp, sizeof d->tmp, "%s.gpushare-%ld-%u", d->path, (long)getpid(),
		         serial++);
		if (mkdir(d->tmp, 0777) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	return fail_errno(err, d->tmp, "cannot create the directory");
}

static int write_set(dirset *d, const char *const *texts, gs_error *err)
{
	char f[sizeof d->tmp + 256];
	int rc = 0, fd;

	for (size_t i = 0; rc == 0 && i < d->n; i++) {
		if (!texts[i])
			continue;
		snprintf(f, sizeof f, "%s/%s", d->tmp, d->names[i]);
		rc = gs_write_atomic(f, texts[i], strlen(texts[i]), 1, err);
	}
	/* The new entries must be on disk before the rename points at them. */
	if (rc == 0 && (fd = open(d->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		if (fsync(fd) < 0)
			rc = fail_errno(err, d->tmp, "cannot write");
		close(fd);
	}
	return rc;
}

/* Puts the new set in place of the old one. The kernel's exchange swaps
 * both names at once; where a filesystem lacks it, the old set is moved
 * aside first (for an instant the directory is absent, never mixed). */
static int swap_in(dirset *d, int exists, gs_error *err)
{
	char old[sizeof d->tmp + 8];

	if (!exists)
		return rename(d->tmp, d->path) < 0 ? fail_errno(err, d->path, "cannot write") : 0;
	if (syscall(SYS_renameat2, AT_FDCWD, d->tmp, AT_FDCWD, d->path, RENAME_EXCHANGE) == 0) {
		remove_set(d, d->tmp);
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		return fail_errno(err, d->path, "cannot write");
	snprintf(old, sizeof old, "%s.old", d->tmp);
	if (rename(d->path, old) < 0)
		return fail_errno(err, d->path, "cannot write");
	if (rename(d->tmp, d->path) < 0) {
		int e = errno;
		rename(old, d->path);
		errno = e;
		return fail_errno(err, d->path, "cannot write");
	}
	remove_set(d, old);
	return 0;
}

int gs_write_dir(const char *dir, const char *const *names, const char *const *texts, size_t n,
                 int force, gs_error *err)
{
	dirset d = { dir, "", "", names, n };
	struct stat st;
	int rc, exists;

	for (size_t i = 0; i < n; i++)
		if (!*names[i] || strchr(names[i], '/') || names[i][0] == '.')
			return gs_fail(err, GS_EINVAL, "invalid file name '%s'", names[i]);
	if ((rc = set_path(&d, err)) < 0)
		return rc;
	exists = lstat(d.path, &st) == 0;
	if (exists && !S_ISDIR(st.st_mode))
		return gs_fail_at(err, GS_EWRITE, d.path, 0, 0, "is not a directory");
	if (exists && (rc = check_existing(&d, force, err)) < 0)
		return rc;
	if ((rc = make_sibling(&d, err)) < 0)
		return rc;
	if ((rc = write_set(&d, texts, err)) < 0 || (rc = swap_in(&d, exists, err)) < 0)
		remove_set(&d, d.tmp);
	return rc;
}
