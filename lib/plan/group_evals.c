/*
 * group_evals.c - groups' evaluations kept from plan to plan
 * (group_evals.h): one memo for all groups, and per group a record of
 * its workloads' words.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/group_evals.h"
#include "plan/memo.h"

/* The evaluations of fleet.py's mixed 10,000 replicas (24 groups) take
 * about 4 MiB at the first plan and 0.1 MiB at each re-plan. */
#define EVALS_BYTES ((size_t)32 << 20)
/* Records kept before all are forgotten, and the bytes they may hold: a
 * record of a fleet of n workloads holds 24 bytes a workload, and the
 * words of its group's (70 KiB each at fleet.py's mixed 10,000, whose
 * 24 groups are named anew by each edit of the file's own settings). */
#define RECS_MOST 1024
#define RECS_BYTES ((size_t)16 << 20)

struct gs_group_rec {
	int64_t *who;      /* group id, its size, then the planner's words */
	size_t nwho;
	int64_t id;        /* the first word of its evaluations' keys */
	int64_t searches;  /* searches opened so far */
	size_t nw;         /* workload slots: scenario indices */
	int64_t **words;   /* a workload's words when last seen; NULL: never */
	size_t *nwords;
	int64_t *changed;  /* the search at which they were last new */
};

struct gs_group_evals {
	gs_group_rec **v;
	size_t n;
	size_t bytes;      /* what the records hold */
	int64_t last_id;
	gs_memo *memo;     /* id, key, changes -> totals; extra: work */
};

static void rec_free(gs_group_rec *r)
{
	if (!r)
		return;
	for (size_t w = 0; w < r->nw; w++)
		free(r->words[w]);
	free(r->words);
	free(r->nwords);
	free(r->changed);
	free(r->who);
	free(r);
}

/* Frees every record and evaluation. */
static void drop_all(gs_group_evals *ge)
{
	for (size_t i = 0; i < ge->n; i++)
		rec_free(ge->v[i]);
	ge->n = 0;
	ge->bytes = 0;
	gs_memo_free(ge->memo);
	ge->memo = NULL;
}

/* Forgets every record and evaluation; -1 when out of memory. */
static int forget(gs_group_evals *ge)
{
	drop_all(ge);
	ge->memo = gs_memo_new(EVALS_BYTES);
	return ge->memo ? 0 : -1;
}

gs_group_evals *gs_group_evals_new(void)
{
	gs_group_evals *ge = calloc(1, sizeof *ge);
	if (ge && (!(ge->v = calloc(RECS_MOST, sizeof *ge->v)) || forget(ge) < 0)) {
		gs_group_evals_free(ge);
		return NULL;
	}
	return ge;
}

void gs_group_evals_free(gs_group_evals *ge)
{
	if (!ge)
		return;
	drop_all(ge);
	free(ge->v);
	free(ge);
}

long gs_group_evals_found(const gs_group_evals *ge)
{
	return gs_memo_hits(ge->memo);
}

static gs_group_rec *find(const gs_group_evals *ge, const int64_t *who, size_t n)
{
	for (size_t i = 0; i < ge->n; i++)
		if (ge->v[i]->nwho == n && !memcmp(ge->v[i]->who, who, n * sizeof *who))
			return ge->v[i];
	return NULL;
}

/* A new record named who[0..n), in ge; NULL when out of memory. */
static gs_group_rec *add(gs_group_evals *ge, const int64_t *who, size_t n)
{
	gs_group_rec *r;
	if (ge->n == RECS_MOST && forget(ge) < 0)
		return NULL;
	if (!(r = calloc(1, sizeof *r)) || !(r->who = malloc(n * sizeof *who))) {
		free(r);
		return NULL;
	}
	memcpy(r->who, who, n * sizeof *who);
	r->nwho = n;
	r->id = ++ge->last_id;
	ge->v[ge->n++] = r;
	ge->bytes += sizeof *r + n * sizeof *who;
	return r;
}

/* Room for workload slots 0 .. nw; -1 when out of memory. */
static int slots(gs_group_evals *ge, gs_group_rec *r, size_t nw)
{
	int64_t **words;
	size_t *nwords;
	int64_t *changed;
	if (nw <= r->nw)
		return 0;
	if (!(words = realloc(r->words, nw * sizeof *words)))
		return -1;
	r->words = words;
	if (!(nwords = realloc(r->nwords, nw * sizeof *nwords)))
		return -1;
	r->nwords = nwords;
	if (!(changed = realloc(r->changed, nw * sizeof *changed)))
		return -1;
	r->changed = changed;
	for (size_t w = r->nw; w < nw; w++) {
		r->words[w] = NULL;
		r->nwords[w] = 0;
		r->changed[w] = 0;
	}
	ge->bytes += (nw - r->nw) * (sizeof *words + sizeof *nwords + sizeof *changed);
	r->nw = nw;
	return 0;
}

gs_group_rec *gs_group_evals_open(gs_group_evals *ge, const int64_t *who, size_t nwho,
                                  size_t nw)
{
	gs_group_rec *r;
	if (ge->bytes > RECS_BYTES && forget(ge) < 0)
		return NULL;
	if (!(r = find(ge, who, nwho)) && !(r = add(ge, who, nwho)))
		return NULL;
	r->searches++;
	return slots(ge, r, nw) < 0 ? NULL : r;
}

int gs_group_rec_note(gs_group_evals *ge, gs_group_rec *r, int w, const int64_t *words,
                      size_t n)
{
	int64_t *now;
	if (r->words[w] && r->nwords[w] == n && !memcmp(r->words[w], words, n * sizeof *words))
		return 0;
	if (!(now = malloc((n ? n : 1) * sizeof *now)))
		return -1;
	memcpy(now, words, n * sizeof *words);
	ge->bytes += n * sizeof *words;
	ge->bytes -= r->nwords[w] * sizeof *words;
	free(r->words[w]);
	r->words[w] = now;
	r->nwords[w] = n;
	r->changed[w] = r->searches;
	return 0;
}

/* The memo's key: the record's id, the evaluation's key, and the search
 * at which each workload it names was last new; NULL when out of memory
 * or when it names a workload the record has no words of. */
static int64_t *rec_key(const gs_group_rec *r, const int64_t *key, int n, int head,
                        int *nk)
{
	int64_t *k = malloc((size_t)(2 * n - head + 1) * sizeof *k);
	int at = 1 + n;
	if (!k)
		return NULL;
	k[0] = r->id;
	memcpy(k + 1, key, (size_t)n * sizeof *key);
	for (int i = head; i < n; i++) {
		int64_t w = key[i] / 2;
		if (w < 0 || (size_t)w >= r->nw || !r->words[w]) {
			free(k);
			return NULL;
		}
		k[at++] = r->changed[w];
	}
	*nk = at;
	return k;
}

int gs_group_rec_get(gs_group_evals *ge, const gs_group_rec *r, const int64_t *key, int n,
                     int head, int64_t *val, long *work)
{
	int nk, nval;
	int64_t *k = rec_key(r, key, n, head, &nk);
	const int64_t *got = k ? gs_memo_get(ge->memo, k, nk, &nval, work) : NULL;
	free(k);
	if (!got || nval != 3)
		return 0;
	memcpy(val, got, 3 * sizeof *val);
	return 1;
}

void gs_group_rec_put(gs_group_evals *ge, const gs_group_rec *r, const int64_t *key, int n,
                      int head, const int64_t *val, long work)
{
	int nk;
	int64_t *k = rec_key(r, key, n, head, &nk);
	if (k)
		gs_memo_put(ge->memo, k, nk, val, 3, work);
	free(k);
}
