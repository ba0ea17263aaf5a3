/*
 * test_buf.c - the one string buffer (base/buf.h): appends of every kind,
 * formatted text far past any fixed size or into the room left, the same
 * text as the C library's, detach and the sticky failure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "base/buf.h"

static void test_appends(void **state)
{
	gs_buf b = GS_BUF_INIT;
	(void)state;
	assert_string_equal(gs_buf_str(&b), "");
	gs_buf_puts(&b, "gpu");
	gs_buf_putc(&b, '-');
	gs_buf_add(&b, "shared!", 6);
	gs_buf_printf(&b, " %d/%s", 7, "mig");
	assert_string_equal(gs_buf_str(&b), "gpu-shared 7/mig");
	assert_int_equal(b.len, strlen("gpu-shared 7/mig"));
	gs_buf_release(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
}

/* The emitters' old printf cut every line at 512 bytes. */
static void test_printf_never_truncates(void **state)
{
	gs_buf b = GS_BUF_INIT;
	char *big = malloc(100001), *out = NULL;
	gs_error err;
	(void)state;
	assert_non_null(big);
	memset(big, 'x', 100000);
	big[100000] = '\0';
	gs_buf_printf(&b, "<%s>", big);
	gs_buf_printf(&b, "%s", "");
	assert_gs_ok(gs_buf_detach(&b, &out, &err), &err);
	assert_int_equal(strlen(out), 100002);
	assert_int_equal(out[0], '<');
	assert_int_equal(out[100001], '>');
	assert_null(b.data);
	free(out);
	free(big);
}

/* printf formats into the room left and again where it was short: every
 * length from nothing to past the room, one after another, each landing
 * whole after what was there, the text always NUL-terminated. */
static void test_printf_fills_the_room(void **state)
{
	gs_buf b = GS_BUF_INIT;
	char *want = calloc(80000, 1), piece[400];
	size_t at = 0;
	(void)state;
	assert_non_null(want);
	for (int n = 0; n < 380; n++) {
		memset(piece, 'a' + n % 26, (size_t)n);
		piece[n] = '\0';
		gs_buf_printf(&b, "%s|%d", piece, n);
		at += (size_t)snprintf(want + at, 80000 - at, "%s|%d", piece, n);
		assert_int_equal(b.len, at);
		assert_int_equal(strlen(gs_buf_str(&b)), at);
		assert_true(b.cap > b.len);
	}
	assert_string_equal(gs_buf_str(&b), want);
	gs_buf_release(&b);
	free(want);
}

/* The conversions gs_buf_printf formats itself (buf.c) write what the C
 * library writes, and every other format still goes to it. */
#define AS_LIBC(...)                                             \
	do {                                                     \
		gs_buf b_ = GS_BUF_INIT;                         \
		char want_[128];                                 \
		gs_buf_puts(&b_, "<");                           \
		gs_buf_printf(&b_, __VA_ARGS__);                 \
		want_[0] = '<';                                  \
		snprintf(want_ + 1, sizeof want_ - 1, __VA_ARGS__); \
		assert_string_equal(gs_buf_str(&b_), want_);     \
		assert_int_equal(b_.len, strlen(want_));         \
		gs_buf_release(&b_);                             \
	} while (0)

static void test_printf_as_libc(void **state)
{
	(void)state;
	AS_LIBC("plain");
	AS_LIBC("100%% of %s, %d of %d", "L4", 3, -4);
	AS_LIBC("%d %d %d", 0, INT_MIN, INT_MAX);
	AS_LIBC("%lld %lld %lld", 0LL, LLONG_MIN, LLONG_MAX);
	AS_LIBC("%lld.%0*lld%%", 12LL, 2, 5LL);
	AS_LIBC("%lld.%0*lld%%", 3LL, 1, 7LL);
	AS_LIBC("[%0*lld] [%0*lld] [%0*lld]", -4, 7LL, 5, -42LL, 0, 9LL);
	AS_LIBC("%02lld %03lld %09lld %02lld", -1LL, -1LL, 123LL, 12345LL);
	AS_LIBC("%lld.%02lld GiB", 22LL, 5LL);
	/* Not formatted here: widths, flags, precision and other types. */
	AS_LIBC("%5d|%-3s|%.2f|%lu|%zu|%ld|%x", 7, "x", 1.5, 5UL, (size_t)6, -7L, 255u);
	AS_LIBC("%s %5lld %+d %.3s", "mixed", 42LL, 3, "abcdef");
}

static void test_detach_empty(void **state)
{
	gs_buf b = GS_BUF_INIT;
	char *out = NULL;
	gs_error err;
	(void)state;
	assert_gs_ok(gs_buf_detach(&b, &out, &err), &err);
	assert_string_equal(out, "");
	free(out);
}

/* After a failure nothing is appended and detach reports it once. */
static void test_failure_is_sticky(void **state)
{
	gs_buf b = GS_BUF_INIT;
	char *out = NULL;
	gs_error err;
	(void)state;
	gs_buf_puts(&b, "kept");
	b.failed = 1;
	gs_buf_puts(&b, " lost");
	gs_buf_printf(&b, "%d", 42);
	assert_string_equal(gs_buf_str(&b), "kept");
	assert_int_equal(gs_buf_detach(&b, &out, &err), GS_ENOMEM);
	assert_gs_error(&err, "error: out of memory");
	assert_null(out);
	assert_null(b.data);
	assert_int_equal(b.failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_printf_never_truncates),
		cmocka_unit_test(test_printf_fills_the_room),
		cmocka_unit_test(test_printf_as_libc),
		cmocka_unit_test(test_detach_empty),
		cmocka_unit_test(test_failure_is_sticky),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
