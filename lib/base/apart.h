/*
 * apart.h - a task run in a child process of its own, whose answer comes
 * back as bytes through a pipe (apart.c): for library code we call but
 * cannot trust not to crash, so that its crash is a failed task and not
 * the caller's.
 *
 * The child is a fork of the caller: it sees the caller's memory as it
 * was, and what it changes stays its own. Forking copies the caller's
 * page tables and makes its next writes fault, about 5 ms at 20 MB and
 * half a second at 1.8 GB on the bench machine: for work on small
 * processes, such as the optimiser's program of at most a few hundred
 * replicas.
 *
 * The child ends with _exit, so no atexit handler of the caller's runs
 * twice, and writes its stdout and stderr to /dev/null. Only the calling
 * thread exists in the child, so the task must not wait on a lock another
 * thread may hold; glibc's malloc is safe.
 */
#ifndef GS_APART_H
#define GS_APART_H

#include <stddef.h>

typedef struct gs_apart_out gs_apart_out;

/* Within the task: appends n bytes to its answer; 0, or -1 when the
 * parent is gone. */
int gs_apart_put(gs_apart_out *o, const void *p, size_t n);

typedef int (*gs_apart_task)(void *arg, gs_apart_out *o);

enum {
	GS_APART_OK = 0,     /* the task returned 0; its bytes are in *out */
	GS_APART_FAILED = 1, /* it returned non-zero, died, or overstayed */
	GS_APART_NONE = -1,  /* no child (no process or pipe to be had) */
};

/* Runs task(arg, o) in a child, waiting at most `seconds` for it (then
 * kills it). With GS_APART_OK, *out (malloc'd, the caller frees it) holds
 * the *len bytes the task put; otherwise *out is NULL. -2 when out of
 * memory for the bytes. */
int gs_apart_run(gs_apart_task task, void *arg, double seconds, char **out, size_t *len);

#endif
