/*
 * apart.c - a task in a child process (apart.h).
 *
 * The answer ends with one byte the child adds once the task returned 0,
 * so the parent knows a whole answer from its bytes alone: a caller that
 * ignores SIGCHLD cannot read the child's status.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/apart.h"

#define DONE 0x5a

struct gs_apart_out {
	int fd;
};

int gs_apart_put(gs_apart_out *o, const void *p, size_t n)
{
	const char *s = p;
	while (n) {
		ssize_t k = write(o->fd, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The child's stdout and stderr go to /dev/null: it holds a copy of the
 * caller's unwritten stdio buffers, which whatever flushes them there
 * (CBC does) would write a second time, as it would anything it prints. */
static _Noreturn void child(int fd, gs_apart_task task, void *arg)
{
	gs_apart_out o = { fd };
	unsigned char done = DONE;
	int null = open("/dev/null", O_WRONLY), ok;
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0)
		_exit(1);
	if (null > STDERR_FILENO)
		close(null);
	ok = task(arg, &o) == 0 && gs_apart_put(&o, &done, 1) == 0;
	_exit(ok ? 0 : 1);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct answer {
	char *p;
	size_t len, cap;
} answer;

/* Reads fd to its end within `seconds`: 0, 1 when the time ran out or
 * reading failed, -2 when out of memory. */
static int read_all(int fd, double seconds, answer *a)
{
	double end = now() + seconds;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		double left = end - now();
		ssize_t k;
		int r;
		if (left <= 0)
			return 1;
		r = poll(&p, 1, left > 1e6 ? 1000000000 : (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 1;
		if (a->cap - a->len < 4096) {
			size_t cap = a->cap ? a->cap * 2 : 8192;
			char *q = realloc(a->p, cap);
			if (!q)
				return -2;
			a->p = q;
			a->cap = cap;
		}
		k = read(fd, a->p + a->len, a->cap - a->len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return 1;
		if (k == 0)
			return 0;
		a->len += (size_t)k;
	}
}

static void reap(pid_t pid, int kill_it)
{
	if (kill_it)
		kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int gs_apart_run(gs_apart_task task, void *arg, double seconds, char **out, size_t *len)
{
	answer a = { NULL, 0, 0 };
	int fds[2], rc;
	pid_t pid;
	*out = NULL;
	*len = 0;
	if (pipe(fds) < 0)
		return GS_APART_NONE;
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return GS_APART_NONE;
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], task, arg);
	}
	close(fds[1]);
	rc = read_all(fds[0], seconds, &a);
	close(fds[0]);
	reap(pid, rc != 0);
	if (rc == 0 && (a.len == 0 || (unsigned char)a.p[a.len - 1] != DONE))
		rc = GS_APART_FAILED;
	if (rc != 0) {
		free(a.p);
		return rc;
	}
	*out = a.p;
	*len = a.len - 1;
	return GS_APART_OK;
}
