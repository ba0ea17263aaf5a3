/*
 * mig.c - the MIG geometry engine.
 *
 * A multiset of GPU-instance profiles is a valid geometry when every
 * instance gets one of its profile's legal start slots with no two
 * instances overlapping on the memory-slice axis, no profile is used more
 * than its maximum count, and (where the GPU has a known budget) the
 * media engines add up. This is NVML's placement rule; the driver's own
 * choice of placements only affects creation order, not validity.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

#define MAX_INSTANCES 32

static int owns(const gs_gpu *gpu, const gs_mig_profile *p)
{
	return p >= gpu->mig_profiles && p < gpu->mig_profiles + gpu->n_mig_profiles;
}

static uint64_t window(int start, int size)
{
	return ((UINT64_C(1) << size) - 1u) << start;
}

/* Depth-first search over start slots; items are ordered big first so the
 * search prunes early. */
static int place(const gs_mig_profile *const *items, size_t i, size_t n,
                 uint64_t used, int *starts, size_t *deepest)
{
	if (i == n)
		return 1;
	if (i > *deepest)
		*deepest = i;
	for (size_t s = 0; s < items[i]->n_starts; s++) {
		uint64_t w = window(items[i]->starts[s], items[i]->memory_slices);
		if (used & w)
			continue;
		if (place(items, i + 1, n, used | w, starts, deepest)) {
			if (starts)
				starts[i] = items[i]->starts[s];
			return 1;
		}
	}
	return 0;
}

static int bigger_first(const void *a, const void *b)
{
	const gs_mig_profile *x = *(const gs_mig_profile *const *)a;
	const gs_mig_profile *y = *(const gs_mig_profile *const *)b;
	if (x->memory_slices != y->memory_slices)
		return y->memory_slices - x->memory_slices;
	/* Fewer legal starts first: the most constrained goes early. */
	if (x->n_starts != y->n_starts)
		return (int)x->n_starts - (int)y->n_starts;
	return x < y ? -1 : x > y;
}

/* At most MAX_INSTANCES items, and the packer asks for every GPU it
 * tries: an insertion sort, without qsort's calls. bigger_first orders
 * distinct profiles strictly, so the order is qsort's. */
static void sort_bigger_first(const gs_mig_profile **items, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const gs_mig_profile *x = items[i];
		size_t j = i;
		for (; j > 0 && bigger_first(&items[j - 1], &x) > 0; j--)
			items[j] = items[j - 1];
		items[j] = x;
	}
}

static const char *engine_name(int e)
{
	static const char *const names[] = { "NVDEC", "NVENC", "NVJPG", "OFA" };
	return names[e];
}

static void list_starts(const gs_mig_profile *p, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t s = 0; s < p->n_starts && o < size; s++)
		o += (size_t)snprintf(buf + o, size - o, "%s%d", s ? ", " : "",
		                      p->starts[s]);
}

/* Checks the count, engine and slice budgets, explaining the first one
 * that is exceeded. */
static int check_budgets(const gs_gpu *gpu, const gs_mig_profile *const *profiles,
                         size_t n, gs_error *err)
{
	int eng[GS_ENGINE_COUNT] = { 0 }, mem = 0, cs = 0;

	for (size_t i = 0; i < n; i++) {
		const gs_mig_profile *p = profiles[i];
		int count = 0;
		for (size_t j = 0; j < n; j++)
			count += profiles[j] == p;
		if (count > p->max_count)
			return gs_fail(err, GS_ENOFIT,
			               "%d instances of %s, but %s allows at most %d",
			               count, p->name, gpu->name, p->max_count);
		for (int e = 0; e < GS_ENGINE_COUNT; e++)
			eng[e] += p->has_engines ? p->engines[e] : 0;
		mem += p->memory_slices;
		cs += p->compute_slices;
	}
	if (mem > gpu->mig_slots)
		return gs_fail(err, GS_ENOFIT,
		               "needs %d memory slices, %s has %d", mem, gpu->name,
		               gpu->mig_slots);
	if (cs > gpu->mig_compute_slices)
		return gs_fail(err, GS_ENOFIT,
		               "needs %d compute slices, %s has %d", cs, gpu->name,
		               gpu->mig_compute_slices);
	for (int e = 0; gpu->mig_has_engines && e < GS_ENGINE_COUNT; e++)
		if (eng[e] > gpu->mig_engines[e])
			return gs_fail(err, GS_ENOFIT,
			               "needs %d %s, %s has %d", eng[e], engine_name(e),
			               gpu->name, gpu->mig_engines[e]);
	return 0;
}

int gs_mig_fit(const gs_gpu *gpu, const gs_mig_profile *const *profiles,
               size_t n, int *starts, gs_error *err)
{
	const gs_mig_profile *items[MAX_INSTANCES];
	int placed[MAX_INSTANCES];
	size_t order[MAX_INSTANCES], deepest = 0;
	int rc;

	if (!gpu->mig_slots)
		return gs_fail(err, GS_EINVAL, "%s does not support MIG", gpu->name);
	if (n == 0)
		return 0;
	if (n > MAX_INSTANCES)
		return gs_fail(err, GS_ENOFIT, "%zu instances, %s has %d slots", n,
		               gpu->name, gpu->mig_slots);
	for (size_t i = 0; i < n; i++)
		if (!profiles[i] || !owns(gpu, profiles[i]))
			return gs_fail(err, GS_EINVAL, "profile is not one of %s's",
			               gpu->name);
	if ((rc = check_budgets(gpu, profiles, n, err)) < 0)
		return rc;
	memcpy(items, profiles, n * sizeof *items);
	sort_bigger_first(items, n);
	if (!place(items, 0, n, 0, placed, &deepest)) {
		char buf[64];
		/* The packer asks without err, for every GPU it tries. */
		if (!err)
			return GS_ENOFIT;
		list_starts(items[deepest], buf, sizeof buf);
		return gs_fail(err, GS_ENOFIT,
		               "no placement without overlapping memory slices: %s "
		               "can start only at slot%s %s",
		               items[deepest]->name, items[deepest]->n_starts == 1 ? "" : "s", buf);
	}
	if (!starts)
		return 0;
	/* Map the sorted placements back to the caller's order; equal
	 * profiles take their starts in increasing order. */
	for (size_t i = 0; i < n; i++)
		order[i] = 0;
	for (size_t i = 0; i < n; i++) {
		int best = -1;
		size_t pick = 0;
		for (size_t k = 0; k < n; k++) {
			if (items[k] != profiles[i] || order[k])
				continue;
			if (best < 0 || placed[k] < best) {
				best = placed[k];
				pick = k;
			}
		}
		order[pick] = 1;
		starts[i] = best;
	}
	return 0;
}

int gs_mig_max_count(const gs_gpu *gpu, const gs_mig_profile *profile)
{
	const gs_mig_profile *items[MAX_INSTANCES];
	int k = 0;

	if (!gpu->mig_slots || !owns(gpu, profile))
		return 0;
	while (k < MAX_INSTANCES && k < profile->max_count) {
		items[k] = profile;
		if (gs_mig_fit(gpu, items, (size_t)k + 1, NULL, NULL) < 0)
			break;
		k++;
	}
	return k;
}

/* ---- enumeration -------------------------------------------------------- */

typedef struct walk {
	const gs_gpu *gpu;
	const gs_mig_profile *allowed[64];
	size_t n;
	int which;
	gs_mig_geometry_fn fn;
	void *ud;
	size_t counts[64];
	const gs_mig_profile *seq[MAX_INSTANCES];
	size_t len;
} walk;

static int canonical(const void *a, const void *b)
{
	const gs_mig_profile *x = *(const gs_mig_profile *const *)a;
	const gs_mig_profile *y = *(const gs_mig_profile *const *)b;
	if (x->compute_slices != y->compute_slices)
		return y->compute_slices - x->compute_slices;
	if (x->memory_slices != y->memory_slices)
		return y->memory_slices - x->memory_slices;
	return strcmp(x->name, y->name);
}

static int fits_with(walk *w, size_t r)
{
	if (w->len + 1 > MAX_INSTANCES)
		return 0;
	w->seq[w->len] = w->allowed[r];
	return gs_mig_fit(w->gpu, w->seq, w->len + 1, NULL, NULL) == 0;
}

/* Visits multisets as non-decreasing rank sequences: a prefix comes before
 * its extensions, and feasibility is closed under taking subsets, so an
 * infeasible extension prunes the whole subtree. */
static int visit(walk *w, size_t from)
{
	int maximal = 1, rc;

	for (size_t r = 0; r < w->n && w->len; r++)
		if (fits_with(w, r)) {
			maximal = 0;
			break;
		}
	if (w->len && (w->which == GS_MIG_FEASIBLE || maximal) &&
	    (rc = w->fn(w->allowed, w->counts, w->n, w->ud)) != 0)
		return rc;
	for (size_t r = from; r < w->n; r++) {
		if (!fits_with(w, r))
			continue;
		w->len++;
		w->counts[r]++;
		rc = visit(w, r);
		w->counts[r]--;
		w->len--;
		if (rc)
			return rc;
	}
	return 0;
}

int gs_mig_enumerate(const gs_gpu *gpu, const gs_mig_profile *const *allowed,
                     size_t n, int which, gs_mig_geometry_fn fn, void *ud,
                     gs_error *err)
{
	walk *w;
	int rc;

	if (!gpu->mig_slots)
		return gs_fail(err, GS_EINVAL, "%s does not support MIG", gpu->name);
	if (!allowed)
		n = gpu->n_mig_profiles;
	if (n > GS_ARRAY_LEN(w->allowed))
		return gs_fail(err, GS_EINVAL, "too many profiles");
	if (!(w = calloc(1, sizeof *w)))
		return gs_fail_nomem(err);
	w->gpu = gpu;
	w->n = n;
	w->which = which;
	w->fn = fn;
	w->ud = ud;
	for (size_t i = 0; i < n; i++) {
		w->allowed[i] = allowed ? allowed[i] : &gpu->mig_profiles[i];
		if (!owns(gpu, w->allowed[i])) {
			free(w);
			return gs_fail(err, GS_EINVAL, "profile is not one of %s's",
			               gpu->name);
		}
	}
	qsort(w->allowed, n, sizeof *w->allowed, canonical);
	rc = visit(w, 0);
	free(w);
	return rc;
}

/* ---- lookup by name ------------------------------------------------------ */

/* Splits "3g.20gb+me" into 3, 20 and "+me". */
static int parse_name(const char *name, int *cs, int *gb, const char **rest)
{
	int used = 0;
	if (sscanf(name, "%2dg.%4dgb%n", cs, gb, &used) != 2 || used == 0)
		return -1;
	*rest = name + used;
	return 0;
}

const gs_mig_profile *gs_mig_profile_find(const gs_gpu *gpu, const char *name)
{
	const gs_mig_profile *best = NULL;
	int cs, gb, bestd = 1 << 30;
	const char *variant;

	for (size_t i = 0; i < gpu->n_mig_profiles; i++)
		if (gs_strcaseeq(gpu->mig_profiles[i].name, name))
			return &gpu->mig_profiles[i];
	if (parse_name(name, &cs, &gb, &variant) < 0)
		return NULL;
	/* Names drift with drivers (7g.79gb for 7g.80gb): match the shape. */
	for (size_t i = 0; i < gpu->n_mig_profiles; i++) {
		const gs_mig_profile *p = &gpu->mig_profiles[i];
		int pcs, pgb, d;
		const char *pv;
		if (parse_name(p->name, &pcs, &pgb, &pv) < 0 || pcs != cs ||
		    !gs_strcaseeq(pv, variant))
			continue;
		d = abs(pgb - gb);
		if (d < bestd) {
			bestd = d;
			best = p;
		}
	}
	/* A drifted name is a GB or two off, not a different size class. */
	return best && bestd * 8 <= gb + 8 ? best : NULL;
}
