/*
 * testutil.h - shared by the cmocka unit tests.
 *
 * Tests run from tests/ (make check does `cd tests`), so fixtures are at
 * fixtures/ and the shipped profiles at ../profiles.
 */
#ifndef GS_TESTUTIL_H
#define GS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "gpushare.h"

#define TEST_PROFILES "../profiles"

/* Fails the test with the library's message when rc is an error. */
#define assert_gs_ok(rc, err)                                                 \
	do {                                                                      \
		int rc_ = (rc);                                                       \
		if (rc_ < 0) {                                                        \
			char buf_[1024];                                                  \
			fail_msg("%s: %s", #rc, gs_error_format((err), buf_, sizeof buf_)); \
		}                                                                     \
	} while (0)

/* Asserts that the formatted error equals `want` exactly. */
#define assert_gs_error(err, want)                                            \
	do {                                                                      \
		char buf_[1024];                                                      \
		assert_string_equal(gs_error_format((err), buf_, sizeof buf_), (want)); \
	} while (0)

#endif
