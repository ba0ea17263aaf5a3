/*
 * plan_mem.c - the memory a gs_plan owns: the blocks its records point to,
 * its warnings, and freeing it all.
 *
 * A leaf: the files that fill the plan's records (plan_records.c,
 * plan_names.c, advice.c) and the one that makes the plan (plan.c) all
 * allocate here, and this file calls none of them back.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"

void *gs_plan_alloc(gs_plan *p, size_t n, size_t size)
{
	void *x;
	if (gs_grow(&p->blocks, &p->cap_blocks, p->n_blocks + 1, sizeof *p->blocks) < 0 ||
	    !(x = calloc(n ? n : 1, size)))
		return NULL;
	p->blocks[p->n_blocks++] = x;
	return x;
}

char *gs_plan_strdup(gs_plan *p, const char *s)
{
	char *d = gs_plan_alloc(p, strlen(s) + 1, 1);
	if (d)
		memcpy(d, s, strlen(s) + 1);
	return d;
}

int gs_plan_warn(gs_plan *p, const char *fmt, ...)
{
	char buf[512];
	char *d;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!(d = gs_plan_strdup(p, buf)) ||
	    gs_grow(&p->warnings, &p->cap_warnings, p->n_warnings + 1,
	            sizeof *p->warnings) < 0)
		return -1;
	p->warnings[p->n_warnings++] = d;
	return 0;
}

void gs_plan_free(gs_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_blocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	free(p->warnings);
	free(p->rep_cost);
	free(p->rep_idle);
	free(p);
}
