/*
 * common.c - what the files of lib/cost share: GPU shares as millionths
 * of a GPU, and the chargeback's warnings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cost/cost.h"

int64_t gs_cost_millionths(int64_t weight)
{
	return (int64_t)(((gs_wide)weight * 1000000 + GS_COST_UNIT / 2) / GS_COST_UNIT);
}

int gs_cost_warn(gs_chargeback *c, const char *fmt, ...)
{
	char msg[GS_ERROR_MSG_MAX], *copy;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!(copy = gs_strdup(msg)) ||
	    gs_grow(&c->warnings, &c->cap_warnings, c->n_warnings + 1, sizeof *c->warnings) < 0) {
		free(copy);
		return gs_fail_nomem(c->err);
	}
	c->warnings[c->n_warnings++] = copy;
	return 0;
}
