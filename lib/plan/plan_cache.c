/*
 * plan_cache.c - gs_plan_cache: what earlier plans found, kept from one
 * plan to the next (a REPL session's): groups' model searches
 * (search_groups.h) and what they evaluated (group_evals.h), and the
 * model search's evaluations (plan_choose.c), under keys that say what
 * the workloads and the file are by ids of their text (plan_ident.h),
 * which this cache gives out.
 */
#include <stdlib.h>

#include "plan/group_evals.h"
#include "plan/memo.h"
#include "plan/plan_internal.h"
#include "plan/search_groups.h"

/* The evaluations' memo once held the packings too. A re-plan of
 * fleet.py's mixed 10,000 replicas added 1.5 to 2 MiB to each of the two,
 * a first plan about 5. At 32 MiB a session on mixed 2,000 (whose
 * searches are thorough) peaked at 147 MiB, at 16 MiB at 92, as fast.
 * bench.c's re-plan with `cloud: all` plans two clouds, and their kept
 * packings (19 MiB in one of them) made a memo of both forget every
 * evaluation, twice an edit: the packings have a memo of their own. */
#define EVALS_MEMO_BYTES ((size_t)16 << 20)
#define PACKS_MEMO_BYTES ((size_t)16 << 20)
/* A workload's text is a few hundred bytes: some ten thousand texts. */
#define IDS_MEMO_BYTES ((size_t)8 << 20)

struct gs_plan_cache {
	gs_memo *groups[2], *evals[2], *packs[2], *ids, *stamps;
	gs_group_evals *group_evals;
	int64_t last_id; /* ids given so far: a memo that forgot gives new ones */
};

int gs_plan_cache_new(gs_plan_cache **out, gs_error *err)
{
	gs_plan_cache *c = calloc(1, sizeof *c);
	if (!c || !(c->groups[0] = gs_memo_new(GS_GROUPS_MEMO_BYTES)) ||
	    !(c->groups[1] = gs_memo_new(GS_GROUPS_MEMO_BYTES)) ||
	    !(c->evals[0] = gs_memo_new(EVALS_MEMO_BYTES)) ||
	    !(c->evals[1] = gs_memo_new(EVALS_MEMO_BYTES)) ||
	    !(c->packs[0] = gs_memo_new(PACKS_MEMO_BYTES)) ||
	    !(c->packs[1] = gs_memo_new(PACKS_MEMO_BYTES)) ||
	    !(c->ids = gs_memo_new(IDS_MEMO_BYTES)) ||
	    !(c->stamps = gs_memo_new(IDS_MEMO_BYTES)) ||
	    !(c->group_evals = gs_group_evals_new())) {
		gs_plan_cache_free(c);
		return gs_fail_nomem(err);
	}
	*out = c;
	return 0;
}

void gs_plan_cache_free(gs_plan_cache *c)
{
	if (!c)
		return;
	gs_memo_free(c->groups[0]);
	gs_memo_free(c->groups[1]);
	gs_memo_free(c->evals[0]);
	gs_memo_free(c->evals[1]);
	gs_memo_free(c->packs[0]);
	gs_memo_free(c->packs[1]);
	gs_memo_free(c->ids);
	gs_memo_free(c->stamps);
	gs_group_evals_free(c->group_evals);
	free(c);
}

struct gs_memo *gs_plan_cache_groups(gs_plan_cache *c, int second)
{
	return c ? c->groups[second != 0] : NULL;
}
struct gs_memo *gs_plan_cache_evals(gs_plan_cache *c, int second)
{
	return c ? c->evals[second != 0] : NULL;
}

struct gs_memo *gs_plan_cache_packs(gs_plan_cache *c, int second)
{
	return c ? c->packs[second != 0] : NULL;
}

struct gs_group_evals *gs_plan_cache_group_evals(gs_plan_cache *c)
{
	return c ? c->group_evals : NULL;
}

int gs_plan_cache_age(gs_plan_cache *c)
{
	if (gs_memo_age(c->groups[0]) < 0 || gs_memo_age(c->groups[1]) < 0 ||
	    gs_memo_age(c->evals[0]) < 0 ||
	    gs_memo_age(c->evals[1]) < 0 || gs_memo_age(c->packs[0]) < 0 ||
	    gs_memo_age(c->packs[1]) < 0 || gs_memo_age(c->ids) < 0 ||
	    gs_memo_age(c->stamps) < 0)
		return -1;
	return 0;
}

int gs_plan_cache_id(gs_plan_cache *c, const char *text, int64_t *id)
{
	size_t n = gs_memo_text(text, NULL);
	int64_t *key = n <= INT32_MAX ? malloc(n * sizeof *key) : NULL;
	const int64_t *got;
	int nval;
	long unused;
	if (!key)
		return -1;
	gs_memo_text(text, key);
	if ((got = gs_memo_get(c->ids, key, (int)n, &nval, &unused)) && nval == 1) {
		*id = got[0];
	} else {
		*id = ++c->last_id;
		gs_memo_put(c->ids, key, (int)n, id, 1, 0);
	}
	free(key);
	return 0;
}

int gs_plan_cache_stamped(gs_plan_cache *c, uint64_t stamp, int64_t *id)
{
	int64_t key = (int64_t)stamp;
	int nval;
	long unused;
	const int64_t *got = gs_memo_get(c->stamps, &key, 1, &nval, &unused);
	if (!got || nval != 1)
		return 0;
	*id = got[0];
	return 1;
}

void gs_plan_cache_stamp(gs_plan_cache *c, uint64_t stamp, int64_t id)
{
	int64_t key = (int64_t)stamp;
	gs_memo_put(c->stamps, &key, 1, &id, 1, 0);
}
