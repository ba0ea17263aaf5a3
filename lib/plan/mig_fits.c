/*
 * mig_fits.c - gs_mig_fit's answers kept for one planner (mig_fits.h).
 *
 * A list of at most FITS_ITEMS instances whose profiles are among their
 * model's first 15 is one 64-bit key: 4 bits a profile (its index + 1,
 * in the list's order) and the count on top, which with the model names
 * a slot of an open-addressing table filled to three quarters at most.
 * A list it cannot key or hold is asked of gs_mig_fit each time.
 *
 * The bench's 10,000-replica plan and re-plan asked 4.9 million times,
 * of which a memo per packing (62,000 of them) missed 521,000: the lists
 * recur from one packing to the next, so the memo is the planner's.
 */
#include <stdint.h>
#include <stdlib.h>

#include "plan/mig_fits.h"

#define FITS_ITEMS 8
#define FITS_BITS 12
#define FITS_SLOTS (1u << FITS_BITS)

typedef struct slot {
	const gs_gpu *g;  /* NULL: empty */
	uint64_t key;
	uint64_t starts;  /* 8 bits an instance */
	int rc;
} slot;

struct gs_fits {
	unsigned used;
	slot v[FITS_SLOTS];
};

gs_fits *gs_fits_new(void) { return calloc(1, sizeof(gs_fits)); }

void gs_fits_free(gs_fits *f) { free(f); }

/* The list's key, or 0 when it has none. */
static uint64_t key_of(const gs_gpu *g, const gs_mig_profile *const *items, size_t n)
{
	uint64_t key = (uint64_t)n << 60;
	if (n == 0 || n > FITS_ITEMS)
		return 0;
	for (size_t i = 0; i < n; i++) {
		ptrdiff_t at = items[i] - g->mig_profiles;
		if (at < 0 || at >= 15 || (size_t)at >= g->n_mig_profiles)
			return 0;
		key |= (uint64_t)(at + 1) << (4 * i);
	}
	return key;
}

/* From the key alone: the same list of two models probes the same
 * slots, a model per slot (which a different hash per model would hide
 * from a test). */
static unsigned slot_of(uint64_t key)
{
	return (unsigned)((key * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - FITS_BITS));
}

/* Keeps rc and the starts under g and key in slot s, when they fit. */
static void keep(gs_fits *f, slot *s, const gs_gpu *g, uint64_t key, int rc, const int *starts,
                 size_t n)
{
	uint64_t packed = 0;
	if (f->used >= FITS_SLOTS / 4 * 3 || (rc != 0 && rc != GS_ENOFIT))
		return;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		if (starts[k] < 0 || starts[k] > 255)
			return;
		packed |= (uint64_t)starts[k] << (8 * k);
	}
	s->g = g;
	s->key = key;
	s->starts = packed;
	s->rc = rc;
	f->used++;
}

int gs_fits_ask(gs_fits *f, const gs_gpu *g, const gs_mig_profile *const *items, size_t n,
                int *starts)
{
	int mine[FITS_ITEMS], rc;
	uint64_t key = f ? key_of(g, items, n) : 0;
	unsigned i;
	if (!key)
		return gs_mig_fit(g, items, n, starts, NULL);
	for (i = slot_of(key); f->v[i].g && (f->v[i].g != g || f->v[i].key != key);
	     i = (i + 1) & (FITS_SLOTS - 1))
		;
	if (f->v[i].g) {
		for (size_t k = 0; f->v[i].rc == 0 && starts && k < n; k++)
			starts[k] = (int)(f->v[i].starts >> (8 * k) & 0xff);
		return f->v[i].rc;
	}
	rc = gs_mig_fit(g, items, n, mine, NULL);
	keep(f, &f->v[i], g, key, rc, mine, n);
	for (size_t k = 0; rc == 0 && starts && k < n; k++)
		starts[k] = mine[k];
	return rc;
}
