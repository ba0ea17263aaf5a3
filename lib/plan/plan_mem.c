/*
 * plan_mem.c - the memory a gs_plan owns: the blocks its records point to,
 * its warnings, and freeing it all.
 *
 * A leaf: the files that fill the plan's records (plan_records.c,
 * plan_names.c, advice.c) and the one that makes the plan (plan.c) all
 * allocate here, and this file calls none of them back.
 *
 * Records come by the thousand (each node's GPUs, each GPU's
 * assignments, each workload's texts: 21,262 callocs at 10,000
 * replicas), and all go with the plan: small ones are cut from blocks of
 * CHUNK bytes. Each cut is aligned as malloc's are, and zeroed, as the
 * block is calloc's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"

#define CHUNK ((size_t)64 << 10)
/* Larger records get a block of their own, which wastes no chunk. */
#define CUT_MOST (CHUNK / 8)
#define ALIGN _Alignof(max_align_t)

/* A new block of `bytes`, zeroed, which the plan frees. */
static void *block(gs_plan *p, size_t bytes)
{
	void *x;
	if (gs_grow(&p->blocks, &p->cap_blocks, p->n_blocks + 1, sizeof *p->blocks) < 0 ||
	    !(x = calloc(1, bytes)))
		return NULL;
	p->blocks[p->n_blocks++] = x;
	return x;
}

void *gs_plan_alloc(gs_plan *p, size_t n, size_t size)
{
	size_t bytes;
	char *x;
	n = n ? n : 1;
	if (size && n > SIZE_MAX / size)
		return NULL;
	if ((bytes = n * size) == 0)
		bytes = 1;
	if (bytes > CUT_MOST)
		return block(p, bytes);
	bytes = (bytes + ALIGN - 1) / ALIGN * ALIGN;
	if (bytes > p->chunk_left) {
		if (!(p->chunk = block(p, CHUNK)))
			return NULL;
		p->chunk_left = CHUNK;
	}
	x = p->chunk;
	p->chunk += bytes;
	p->chunk_left -= bytes;
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

void gs_plan_mem_free(gs_plan *p)
{
	for (size_t i = 0; i < p->n_blocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	free(p->warnings);
	free(p->rep_cost);
	free(p->rep_idle);
	free(p);
}
