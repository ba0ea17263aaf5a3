/* kubectl.c - a running cluster's nodes and pods, read by running
 * `kubectl get nodes -o json` and `kubectl get pods -A -o json` and
 * streaming their standard output into the import as it comes.
 *
 * kubectl does the talking to the cluster: kubeconfig, contexts, every
 * kind of authentication (exec plugins, OIDC, cloud helpers), proxies and
 * paging. gpushare only starts it (posix_spawnp, no shell: the arguments
 * are passed as they are), reads its output through a pipe, and turns its
 * failure into one error: its exit status and the last line it wrote to
 * stderr. Its stderr goes to an unlinked temporary file, not a second
 * pipe, so neither side can block on the other. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

/* A running kubectl: the pipe of its stdout, as a source that notes when
 * it has read to the end, and its stderr. */
typedef struct kubectl {
	pid_t pid;
	int out;
	FILE *err;
	gs_source fd;      /* gs_source_open_fd over out */
	int at_end;
	char name[32];     /* "kubectl get pods", what errors name */
} kubectl;

/* The library's errors are the library's to make; this one is kubectl's,
 * made here in the same shape: "kubectl get pods: error: MSG". */
static int fail(gs_error *err, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static int fail(gs_error *err, const char *name, const char *fmt, ...)
{
	va_list ap;
	if (!err)
		return GS_EIO;
	memset(err, 0, sizeof *err);
	err->code = GS_EIO;
	snprintf(err->file, sizeof err->file, "%s", name);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return GS_EIO;
}

static long kubectl_read(void *ud, char *buf, size_t cap, gs_error *err)
{
	kubectl *k = ud;
	long n = k->fd.read(k->fd.ud, buf, cap, err);
	if (n == 0)
		k->at_end = 1;
	return n;
}

static const char *binary(void)
{
	const char *bin = getenv("KUBECTL");
	return bin && *bin ? bin : "kubectl";
}

/* What kubectl lists for each input, and whether across namespaces. */
static const char *resource(gs_import_input what)
{
	return what == GS_INPUT_PODS     ? "pods"
	       : what == GS_INPUT_CLAIMS ? "resourceclaims"
	                                 : "nodes";
}

/* kubectl [--kubeconfig F] [--context N] get RESOURCE [-A] -o json */
static void arguments(const cli_cluster *c, gs_import_input what, const char *argv[12])
{
	int n = 0;
	argv[n++] = binary();
	if (c->kubeconfig) {
		argv[n++] = "--kubeconfig";
		argv[n++] = c->kubeconfig;
	}
	if (c->context) {
		argv[n++] = "--context";
		argv[n++] = c->context;
	}
	argv[n++] = "get";
	argv[n++] = resource(what);
	if (what != GS_INPUT_NODES)
		argv[n++] = "-A";
	argv[n++] = "-o";
	argv[n++] = "json";
	argv[n] = NULL;
}

static int start(kubectl *k, const cli_cluster *c, gs_import_input what, gs_error *err)
{
	const char *argv[12];
	posix_spawn_file_actions_t fa;
	int fd[2], rc;

	arguments(c, what, argv);
	if (!(k->err = tmpfile()))
		return fail(err, k->name, "cannot make a temporary file: %s",
		                  strerror(errno));
	if (pipe(fd) < 0)
		return fail(err, k->name, "cannot make a pipe: %s",
		                  strerror(errno));
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(k->err), 2);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	rc = posix_spawnp(&k->pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc != 0) {
		k->pid = -1; /* nothing to wait for */
		close(fd[0]);
		return fail(err, k->name,
		            "cannot run '%s': %s (install kubectl, or name it in KUBECTL)", argv[0],
		            strerror(rc));
	}
	k->out = fd[0];
	cli_verbose("running %s%s%s%s%s get %s%s -o json", argv[0],
	            c->kubeconfig ? " --kubeconfig " : "", c->kubeconfig ? c->kubeconfig : "",
	            c->context ? " --context " : "", c->context ? c->context : "",
	            resource(what), what != GS_INPUT_NODES ? " -A" : "");
	return gs_source_open_fd(&k->fd, k->out, k->name, err);
}

/* The last line kubectl wrote to stderr that says something, without its
 * own "error: ". */
static void last_line(FILE *f, char *out, size_t size)
{
	char line[1024];
	*out = '\0';
	rewind(f);
	while (fgets(line, sizeof line, f)) {
		size_t n = strcspn(line, "\r\n");
		line[n] = '\0';
		if (n == 0 || strspn(line, " \t") == n)
			continue;
		n = strncmp(line, "error: ", 7) == 0 ? 7 : 0;
		if (strlen(line + n) >= size)
			line[n + size - 1] = '\0';
		memcpy(out, line + n, strlen(line + n) + 1);
	}
}

/* kubectl's end: 0 when it exited 0, else its failure in err. */
static int finish(kubectl *k, gs_error *err)
{
	char msg[GS_ERROR_MSG_MAX];
	int status = 0;

	while (waitpid(k->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	last_line(k->err, msg, sizeof msg);
	if (*msg)
		return fail(err, k->name, "%s", msg);
	/* Where posix_spawnp cannot report a failed exec (it is emulated, as
	 * under valgrind), the child exits 127, the shell's "not found". */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return fail(err, k->name,
		            "cannot run '%s': %s (install kubectl, or name it in KUBECTL)",
		            binary(), strerror(ENOENT));
	if (WIFSIGNALED(status))
		return fail(err, k->name, "kubectl was killed by signal %d",
		                  WTERMSIG(status));
	return fail(err, k->name, "kubectl exited with status %d",
	                  WEXITSTATUS(status));
}

/* kubectl's whole output, for a list small enough to hold (claims). */
static int slurp(kubectl *k, char **buf, size_t *len, gs_error *err)
{
	size_t cap = 0;
	*buf = NULL;
	*len = 0;
	for (;;) {
		long n;
		if (*len + 65536 > cap) {
			size_t want = cap * 2 + 65536;
			char *q = cap > (64u << 20) ? NULL : realloc(*buf, want);
			if (!q)
				return fail(err, k->name,
				            "the output is over 64 MiB, or out of memory");
			*buf = q;
			cap = want;
		}
		if ((n = kubectl_read(k, *buf + *len, cap - *len, err)) < 0)
			return (int)n;
		if (n == 0)
			return 0;
		*len += (size_t)n;
	}
}

/* DRA claims are held, then read once kubectl has succeeded: a cluster
 * whose API has no ResourceClaims (before DRA) has none to charge, which
 * is a warning, not a failed chargeback. */
static int read_claims(const cli_cluster *c, gs_inventory *inv, gs_error *err)
{
	kubectl k = { .pid = -1, .out = -1 };
	gs_memory_source mem;
	gs_source src;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	snprintf(k.name, sizeof k.name, "kubectl get resourceclaims");
	if ((rc = start(&k, c, GS_INPUT_CLAIMS, err)) == 0) {
		rc = slurp(&k, &buf, &len, err);
		gs_source_close(&k.fd);
		close(k.out);
		k.out = -1;
		if (finish(&k, err) < 0) {
			rc = err ? err->code : GS_EIO;
			if (err && strstr(err->msg, "doesn't have a resource type")) {
				cli_warning("%s: %s; no DRA claims read", k.name, err->msg);
				rc = 0;
				len = 0;
			}
		} else if (rc == 0) {
			gs_source_memory(&src, &mem, k.name, buf, len);
			rc = gs_import_read(inv, GS_INPUT_CLAIMS, &src, err);
		}
	} else if (k.pid > 0) {
		kill(k.pid, SIGTERM);
		waitpid(k.pid, NULL, 0);
	}
	free(buf);
	if (k.out >= 0)
		close(k.out);
	if (k.err)
		fclose(k.err);
	return rc;
}

int cli_kubectl_read(const cli_cluster *c, gs_inventory *inv, gs_import_input what,
                     gs_error *err)
{
	kubectl k = { .pid = -1, .out = -1 };
	gs_source src = { k.name, kubectl_read, NULL, &k };
	gs_error mine;
	int rc;

	if (what == GS_INPUT_CLAIMS)
		return read_claims(c, inv, err);
	snprintf(k.name, sizeof k.name, "kubectl get %s", resource(what));
	if ((rc = start(&k, c, what, err)) == 0) {
		rc = gs_import_read(inv, what, &src, err);
		/* Stopped early on an error of its own: kubectl need not go on. */
		if (rc < 0 && !k.at_end)
			kill(k.pid, SIGTERM);
		gs_source_close(&k.fd);
		close(k.out);
		k.out = -1;
		/* kubectl's failure explains what the reader saw (an empty or cut
		 * output), unless the reader stopped first. */
		if (finish(&k, &mine) < 0 && (rc == 0 || k.at_end)) {
			if (err)
				*err = mine;
			rc = mine.code;
		}
	} else if (k.pid > 0) {
		kill(k.pid, SIGTERM);
		waitpid(k.pid, NULL, 0);
	}
	if (k.out >= 0)
		close(k.out);
	if (k.err)
		fclose(k.err);
	return rc;
}
