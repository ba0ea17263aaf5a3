/*
 * plan_cache.c - gs_plan_cache: what groups' model searches found
 * (search_groups.h), kept from one plan to the next. Its keys hold the
 * searches' whole input, the workloads' keys as a file would write them
 * included, so an edit that changed a tenant's workload or the file's
 * settings finds nothing kept for it.
 */
#include <stdlib.h>

#include "plan/memo.h"
#include "plan/plan_internal.h"
#include "plan/search_groups.h"

struct gs_plan_cache {
	gs_memo *groups;
};

int gs_plan_cache_new(gs_plan_cache **out, gs_error *err)
{
	gs_plan_cache *c = calloc(1, sizeof *c);
	if (!c || !(c->groups = gs_memo_new(GS_GROUPS_MEMO_BYTES))) {
		free(c);
		return gs_fail_nomem(err);
	}
	*out = c;
	return 0;
}

void gs_plan_cache_free(gs_plan_cache *c)
{
	if (!c)
		return;
	gs_memo_free(c->groups);
	free(c);
}

struct gs_memo *gs_plan_cache_groups(gs_plan_cache *c)
{
	return c ? c->groups : NULL;
}
