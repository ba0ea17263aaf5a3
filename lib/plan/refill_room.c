/*
 * refill_room.c - the most room among the refill's spots (refill.h): a
 * tree over f->v whose node holds the largest free memory and, apart,
 * the largest free compute of the spots below it, a gone spot having
 * none.
 *
 * A replica looking for a place scans its tenant's spots fullest first,
 * and most have not the room: at 1,000,000 replicas of fleet.py's mixed
 * fleet that scan was 2 s of the pinned plan's 5 s, which the first
 * thread waits for. The tree passes over a run of such spots in a few
 * steps. The two largests may be two spots', so a node that seems to
 * have the room may not: the search then goes on to its right.
 */
#include <stdlib.h>

#include "plan/refill.h"

#define NONE INT32_MIN

/* Memory in whole MiB, rounded up: a spot with the room for a replica
 * has it in these units too. Any GPU's bytes fit. */
static int32_t mib(int64_t bytes)
{
	return bytes < 0 ? -1 : (int32_t)((bytes + (INT64_C(1) << 20) - 1) >> 20);
}

static int32_t ppm(int64_t v)
{
	return v < INT32_MIN + 1 ? INT32_MIN + 1 : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

static void set_leaf(gs_filler *f, int s)
{
	size_t i = f->tree.size + (size_t)s;
	f->tree.mem[i] = f->v[s].gone ? NONE : mib(f->v[s].free_mem);
	f->tree.comp[i] = f->v[s].gone ? NONE : ppm(f->v[s].free_comp);
}

static void pull(gs_room_tree *t, size_t i)
{
	int32_t a = t->mem[2 * i], b = t->mem[2 * i + 1];
	int32_t c = t->comp[2 * i], d = t->comp[2 * i + 1];
	t->mem[i] = a > b ? a : b;
	t->comp[i] = c > d ? c : d;
}

void gs_room_free(gs_filler *f)
{
	free(f->tree.mem);
	free(f->tree.comp);
	f->tree.mem = f->tree.comp = NULL;
}

int gs_room_init(gs_filler *f)
{
	gs_room_tree *t = &f->tree;
	t->size = 1;
	while (t->size < (size_t)f->n)
		t->size *= 2;
	t->mem = malloc(2 * t->size * sizeof *t->mem);
	t->comp = malloc(2 * t->size * sizeof *t->comp);
	if (!t->mem || !t->comp) {
		gs_room_free(f);
		return -1;
	}
	for (size_t i = t->size; i < 2 * t->size; i++)
		t->mem[i] = t->comp[i] = NONE;
	for (int s = 0; s < f->n; s++)
		set_leaf(f, s);
	for (size_t i = t->size - 1; i >= 1; i--)
		pull(t, i);
	return 0;
}

void gs_room_set(gs_filler *f, int s)
{
	if (!f->tree.mem)
		return;
	set_leaf(f, s);
	for (size_t i = (f->tree.size + (size_t)s) / 2; i >= 1; i /= 2)
		pull(&f->tree, i);
}

int gs_room_next(const gs_filler *f, int s, int end, int64_t bytes, int64_t comp_ppm)
{
	int32_t mem = mib(bytes), comp = ppm(comp_ppm);
	const gs_room_tree *t = &f->tree;
	/* Node i covers the spots lo .. lo + w. */
	size_t i = t->size + (size_t)s, lo = (size_t)s, w = 1;
	while (lo < (size_t)end) {
		if (t->mem[i] >= mem && t->comp[i] >= comp) {
			if (w == 1)
				return (int)lo;
			i *= 2;
			w /= 2;
			continue;
		}
		/* Past this node: up while it is a right child, then right. */
		for (; i & 1; i /= 2, w *= 2)
			lo -= w;
		if (i == 0)
			break;
		i++;
		lo += w;
	}
	return end;
}
