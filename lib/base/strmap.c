/* strmap.c - the map from strings to indices (strmap.h). */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/strmap.h"

/* FNV-1a: short keys, no adversary to fear from a kubectl listing. */
static size_t str_hash(const char *s)
{
	size_t h = (size_t)1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211u;
	return h;
}

/* The slot of key, or the empty slot where it would go; cap > 0. */
static size_t slot(char *const *keys, size_t cap, const char *key)
{
	size_t h = str_hash(key) & (cap - 1);
	while (keys[h] && strcmp(keys[h], key) != 0)
		h = (h + 1) & (cap - 1);
	return h;
}

size_t gs_strmap_find(const gs_strmap *m, const char *key)
{
	size_t h;
	if (!m->cap)
		return GS_STRMAP_NONE;
	h = slot(m->keys, m->cap, key);
	return m->keys[h] ? m->vals[h] : GS_STRMAP_NONE;
}

/* Doubles the table (256 slots at first) and moves the keys over. */
static int grow(gs_strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256;
	char **k;
	size_t *v;

	if (cap > SIZE_MAX / sizeof *v)
		return GS_ENOMEM;
	k = calloc(cap, sizeof *k);
	v = calloc(cap, sizeof *v);
	if (!k || !v) {
		free(k);
		free(v);
		return GS_ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		size_t h;
		if (!m->keys[i])
			continue;
		h = slot(k, cap, m->keys[i]);
		k[h] = m->keys[i];
		v[h] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = k;
	m->vals = v;
	m->cap = cap;
	return 0;
}

int gs_strmap_put(gs_strmap *m, const char *key, size_t val)
{
	size_t h;
	/* At most half full, so probes stay short and always end. */
	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return GS_ENOMEM;
	h = slot(m->keys, m->cap, key);
	if (!(m->keys[h] = gs_strdup(key)))
		return GS_ENOMEM;
	m->vals[h] = val;
	m->n++;
	return 0;
}

void gs_strmap_release(gs_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}
