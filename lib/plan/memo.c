/*
 * memo.c - the planner's memo (memo.h): open addressing over whole keys,
 * forgotten at once when it outgrows its limit.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/memo.h"

typedef struct entry {
	uint64_t hash;
	int nkey, nval;
	long extra;
	int64_t words[]; /* the key, then the value */
} entry;

struct gs_memo {
	entry **slot;
	size_t cap, n, bytes; /* cap: a power of two, or 0 */
	size_t max;           /* what it may hold before it starts again */
	long hits;
	gs_memo *old;         /* the generation before gs_memo_age; or NULL */
};

gs_memo *gs_memo_new(size_t max_bytes)
{
	gs_memo *m = calloc(1, sizeof(gs_memo));
	if (m)
		m->max = max_bytes;
	return m;
}

static void forget(gs_memo *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slot[i]);
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = m->bytes = 0;
}

void gs_memo_free(gs_memo *m)
{
	if (!m)
		return;
	forget(m);
	gs_memo_free(m->old);
	free(m);
}

/* FNV-1a over the key's words. */
static uint64_t hash_of(const int64_t *key, int nkey)
{
	uint64_t h = 1469598103934665603ULL;
	for (int i = 0; i < nkey; i++) {
		h ^= (uint64_t)key[i];
		h *= 1099511628211ULL;
		h ^= h >> 29;
	}
	return h;
}

/* The slot that holds key, or the empty slot where it would go. */
static size_t find(const gs_memo *m, uint64_t h, const int64_t *key, int nkey)
{
	size_t i = (size_t)h & (m->cap - 1);
	for (;; i = (i + 1) & (m->cap - 1)) {
		const entry *e = m->slot[i];
		if (!e || (e->hash == h && e->nkey == nkey &&
		           !memcmp(e->words, key, (size_t)nkey * sizeof *key)))
			return i;
	}
}

/* The entry of key in m, or NULL. */
static const entry *lookup(const gs_memo *m, uint64_t h, const int64_t *key, int nkey)
{
	return m && m->cap ? m->slot[find(m, h, key, nkey)] : NULL;
}

const int64_t *gs_memo_get(gs_memo *m, const int64_t *key, int nkey, int *nval,
                           long *extra)
{
	const entry *e;
	uint64_t h = hash_of(key, nkey);
	if (!m)
		return NULL;
	if (!(e = lookup(m, h, key, nkey)) && m->old &&
	    (e = lookup(m->old, h, key, nkey)))
		/* Used again: it lives on into the next generation. The old one
		 * stays until then, so e does too. */
		gs_memo_put(m, key, nkey, e->words + e->nkey, e->nval, e->extra);
	if (!e)
		return NULL;
	m->hits++;
	*nval = e->nval;
	*extra = e->extra;
	return e->words + e->nkey;
}

/* Doubles the table (or makes its first one); -1 when out of memory. */
static int grow(gs_memo *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 1024;
	entry **old = m->slot, **v = calloc(ncap, sizeof *v);
	size_t ocap = m->cap;
	if (!v)
		return -1;
	m->slot = v;
	m->cap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i])
			m->slot[find(m, old[i]->hash, old[i]->words, old[i]->nkey)] = old[i];
	free(old);
	return 0;
}

static size_t size_of(int nkey, int nval)
{
	return sizeof(entry) + ((size_t)nkey + (size_t)nval) * sizeof(int64_t);
}

/* The slot where an entry of key (hash h) and size bytes goes, making
 * room first; or NULL when it is there already or out of memory. */
static entry **room(gs_memo *m, uint64_t h, const int64_t *key, int nkey, size_t size)
{
	entry **at;
	if (m->bytes + size + m->cap * sizeof *m->slot > m->max)
		forget(m);
	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return NULL;
	at = &m->slot[find(m, h, key, nkey)];
	return *at ? NULL : at;
}

static void hold(gs_memo *m, entry **at, entry *e, size_t size)
{
	*at = e;
	m->n++;
	m->bytes += size;
}

void gs_memo_put(gs_memo *m, const int64_t *key, int nkey, const int64_t *val, int nval,
                 long extra)
{
	size_t size = size_of(nkey, nval);
	uint64_t h = hash_of(key, nkey);
	entry *e, **at;
	if (!m || !(at = room(m, h, key, nkey, size)) || !(e = malloc(size)))
		return;
	e->hash = h;
	e->nkey = nkey;
	e->nval = nval;
	e->extra = extra;
	memcpy(e->words, key, (size_t)nkey * sizeof *key);
	memcpy(e->words + nkey, val, (size_t)nval * sizeof *val);
	hold(m, at, e, size);
}

void gs_memo_absorb(gs_memo *m, gs_memo *from)
{
	for (size_t i = 0; m && from && i < from->cap; i++) {
		entry *e = from->slot[i], **at;
		size_t size;
		if (!e)
			continue;
		from->slot[i] = NULL;
		size = size_of(e->nkey, e->nval);
		if ((at = room(m, e->hash, e->words, e->nkey, size)))
			hold(m, at, e, size);
		else
			free(e);
	}
	gs_memo_free(from);
}

int gs_memo_age(gs_memo *m)
{
	gs_memo *now = calloc(1, sizeof *now);
	if (!now)
		return -1;
	gs_memo_free(m->old);
	*now = *m;
	now->old = NULL;
	m->old = now;
	m->slot = NULL;
	m->cap = m->n = m->bytes = 0;
	return 0;
}

long gs_memo_hits(const gs_memo *m)
{
	return m ? m->hits : 0;
}

size_t gs_memo_text(const char *text, int64_t *to)
{
	size_t len = strlen(text), n = (len + 7) / 8;
	if (to) {
		to[0] = (int64_t)len;
		memset(to + 1, 0, n * sizeof *to);
		memcpy(to + 1, text, len);
	}
	return 1 + n;
}
