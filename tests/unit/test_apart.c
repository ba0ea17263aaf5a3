/*
 * test_apart.c - a task in a child process (base/apart.h): its answer
 * comes back whole, and its failure, crash or hang is a failed task, never
 * the caller's; what it prints goes nowhere.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "base/apart.h"

static int says_hello(void *arg, gs_apart_out *o)
{
	(void)arg;
	return gs_apart_put(o, "hello", 5);
}

/* More than a pipe holds (64 KiB), so parent and child take turns. */
#define BIG (1 << 20)

static int says_much(void *arg, gs_apart_out *o)
{
	char *p = malloc(BIG);
	int rc;
	(void)arg;
	if (!p)
		return -1;
	for (int i = 0; i < BIG; i++)
		p[i] = (char)(i * 7 + i / 251);
	rc = gs_apart_put(o, p, BIG);
	free(p);
	return rc;
}

static int fails(void *arg, gs_apart_out *o)
{
	(void)arg;
	gs_apart_put(o, "half", 4);
	return 1;
}

static int crashes(void *arg, gs_apart_out *o)
{
	(void)arg;
	gs_apart_put(o, "half", 4);
	raise(SIGKILL);
	return 0;
}

static int hangs(void *arg, gs_apart_out *o)
{
	(void)arg;
	(void)o;
	for (;;)
		pause();
	return 0;
}

/* The child sees the caller's memory as it was, and changes only its own. */
static int changes(void *arg, gs_apart_out *o)
{
	int *x = arg;
	*x += 1;
	return gs_apart_put(o, x, sizeof *x);
}

static int prints(void *arg, gs_apart_out *o)
{
	(void)arg;
	fflush(stdout);
	printf("from the child\n");
	fflush(stdout);
	return gs_apart_put(o, "ok", 2);
}

static void test_answer(void **state)
{
	char *out;
	size_t len;
	(void)state;
	assert_int_equal(gs_apart_run(says_hello, NULL, 10, &out, &len), GS_APART_OK);
	assert_int_equal(len, 5);
	assert_memory_equal(out, "hello", 5);
	free(out);
	assert_int_equal(gs_apart_run(says_much, NULL, 30, &out, &len), GS_APART_OK);
	assert_int_equal(len, BIG);
	for (int i = 0; i < BIG; i += 4099)
		assert_int_equal(out[i], (char)(i * 7 + i / 251));
	free(out);
}

static void test_failures(void **state)
{
	char *out = (char *)1;
	size_t len = 1;
	time_t t0 = time(NULL);
	(void)state;
	assert_int_equal(gs_apart_run(fails, NULL, 10, &out, &len), GS_APART_FAILED);
	assert_null(out);
	assert_int_equal(len, 0);
	assert_int_equal(gs_apart_run(crashes, NULL, 10, &out, &len), GS_APART_FAILED);
	assert_null(out);
	/* Killed after its half second, not waited for. */
	assert_int_equal(gs_apart_run(hangs, NULL, 0.5, &out, &len), GS_APART_FAILED);
	assert_null(out);
	assert_true(time(NULL) - t0 < 20);
}

static void test_memory_is_its_own(void **state)
{
	int x = 41, got;
	char *out;
	size_t len;
	(void)state;
	assert_int_equal(gs_apart_run(changes, &x, 10, &out, &len), GS_APART_OK);
	assert_int_equal(len, sizeof got);
	memcpy(&got, out, sizeof got);
	free(out);
	assert_int_equal(got, 42);
	assert_int_equal(x, 41);
}

/* The caller's stdout, buffered and not yet written, is written once:
 * the child's flush goes to /dev/null, and so does what it prints. */
static void test_prints_nothing(void **state)
{
	int p[2], saved = dup(STDOUT_FILENO);
	char *out, got[64];
	size_t len;
	ssize_t n;
	(void)state;
	assert_true(saved >= 0 && pipe(p) == 0);
	fflush(stdout);
	assert_true(dup2(p[1], STDOUT_FILENO) >= 0);
	close(p[1]);
	setvbuf(stdout, NULL, _IOFBF, 4096);
	printf("from the parent\n");
	assert_int_equal(gs_apart_run(prints, NULL, 10, &out, &len), GS_APART_OK);
	free(out);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	n = read(p[0], got, sizeof got - 1);
	close(p[0]);
	assert_true(n >= 0);
	got[n] = 0;
	assert_string_equal(got, "from the parent\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_memory_is_its_own),
		cmocka_unit_test(test_prints_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
