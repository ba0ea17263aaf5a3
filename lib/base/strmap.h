/*
 * strmap.h - a map from strings to indices (open addressing, linear
 * probing, keys copied). Callers keep their records in an array and index
 * them by name here: a value is usually an index into that array.
 */
#ifndef GS_STRMAP_H
#define GS_STRMAP_H

#include <stddef.h>

/* What gs_strmap_find answers for a key that is not there. */
#define GS_STRMAP_NONE ((size_t)-1)

typedef struct gs_strmap {
	char **keys;    /* cap slots, NULL where empty */
	size_t *vals;
	size_t n, cap;  /* cap is 0 or a power of two */
} gs_strmap;

#define GS_STRMAP_INIT { NULL, NULL, 0, 0 }

/* The value of key, or GS_STRMAP_NONE. */
size_t gs_strmap_find(const gs_strmap *m, const char *key);

/* Adds a copy of key, which is not there yet (callers find it first).
 * Returns 0 or GS_ENOMEM; like gs_grow it fills no gs_error, so callers
 * chain it with their other allocations and fail once. */
int gs_strmap_put(gs_strmap *m, const char *key, size_t val);

/* Frees the keys of an embedded map and leaves it empty (GS_STRMAP_INIT). */
void gs_strmap_release(gs_strmap *m);

#endif
