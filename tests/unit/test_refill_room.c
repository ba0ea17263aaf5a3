/*
 * test_refill_room.c - the refill's tree of room (refill_room.c) and the
 * scan it shortens (gs_spot_host): the tree never passes over a spot
 * with the room, and a host found through it is the one a plain scan,
 * spot by spot, finds, with the same looks and checks spent: a look for
 * each spot with room by the tree's measure (whole MiB), and with
 * look_past for each it passes over too.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/refill.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

#define MIB (INT64_C(1) << 20)

/* The first spot from s before end, not gone, with mem bytes (whole MiB
 * here) and comp ppm free; end when none. */
static int plain_next(const gs_filler *f, int s, int end, int64_t mem, int64_t comp)
{
	for (; s < end; s++)
		if (!f->v[s].gone && f->v[s].free_mem >= mem && f->v[s].free_comp >= comp)
			return s;
	return end;
}

static void expect_next_as_plain(const gs_filler *f, uint64_t *x)
{
	for (int q = 0; q < 400; q++) {
		int s = tu_below(x, f->n + 1), end = s + tu_below(x, f->n - s + 1);
		int64_t mem = tu_below(x, 48) * MIB, comp = tu_below(x, 1100000) - 50000;
		int want = plain_next(f, s, end, mem, comp);
		assert_int_equal(gs_room_next(f, s, end, mem, comp), want);
	}
}

/* Spots of random room in whole MiB (some below none), some gone; then
 * changed one at a time as joins and moves change them. */
static void test_next_as_plain(void **state)
{
	uint64_t x = 0x5eed2026;
	(void)state;
	for (int n = 1; n <= 70; n += 23) {
		gs_filler f;
		memset(&f, 0, sizeof f);
		f.n = n;
		f.v = calloc((size_t)n, sizeof *f.v);
		assert_non_null(f.v);
		for (int s = 0; s < n; s++) {
			f.v[s].free_mem = (tu_below(&x, 50) - 2) * MIB;
			f.v[s].free_comp = tu_below(&x, 1200000) - 100000;
			f.v[s].gone = tu_below(&x, 5) == 0;
		}
		assert_int_equal(gs_room_init(&f), 0);
		expect_next_as_plain(&f, &x);
		for (int k = 0; k < 3 * n; k++) {
			int s = tu_below(&x, n);
			f.v[s].free_mem = tu_below(&x, 50) * MIB;
			f.v[s].free_comp = tu_below(&x, 1000000);
			gs_room_set(&f, s);
			gs_spot_set_gone(&f, tu_below(&x, n), tu_below(&x, 2));
		}
		expect_next_as_plain(&f, &x);
		gs_room_free(&f);
		free(f.v);
	}
}

/* Room not in whole MiB: a spot a byte short of a replica's memory is
 * not passed over by the tree (it rounds up) but is by the scan's sums;
 * one with exactly the room is found. */
static void test_bytes_round_up(void **state)
{
	gs_filler f;
	gs_spot v[3];
	(void)state;
	memset(&f, 0, sizeof f);
	memset(v, 0, sizeof v);
	v[0].free_mem = 5 * MIB - 1;
	v[1].free_mem = 3 * MIB;
	v[2].free_mem = 5 * MIB + 7;
	f.v = v;
	f.n = 3;
	assert_int_equal(gs_room_init(&f), 0);
	assert_int_equal(gs_room_next(&f, 0, 3, 5 * MIB, 0), 0);
	assert_int_equal(gs_room_next(&f, 1, 3, 5 * MIB, 0), 2);
	assert_int_equal(gs_room_next(&f, 1, 3, 5 * MIB + 8, 0), 2);
	assert_int_equal(gs_room_next(&f, 1, 3, 6 * MIB + 1, 0), 3);
	assert_int_equal(gs_room_next(&f, 0, 2, 4 * MIB, 1), 2);
	gs_room_free(&f);
}

/* Whether the tree leads a replica of mem bytes and least ppm to spot sp
 * (refill_room.c: memory in whole MiB, rounded up). */
static int leads_to(const gs_spot *sp, int64_t mem, int64_t least)
{
	return !sp->gone && (sp->free_mem + MIB - 1) / MIB >= (mem + MIB - 1) / MIB &&
	       sp->free_comp >= least;
}

/* The scan without the tree: spot by spot, a look each that the tree
 * would lead to, or with f->look_past each. */
static int plain_host(gs_filler *f, int r, uint64_t only)
{
	const gs_planner *pl = f->pl;
	int wi = pl->reps[r].wi;
	uint64_t may = 0;
	int64_t least = INT64_MAX;
	for (int k = 0; k < f->c->ncand[wi]; k++)
		may |= UINT64_C(1) << f->c->cands[wi][k];
	may &= only;
	for (int m = 0; m < pl->nmodels; m++)
		if (may >> m & 1 && gs_rep_comp(pl, r, pl->models[m]) < least)
			least = gs_rep_comp(pl, r, pl->models[m]);
	for (int m = 0; m < pl->nmodels; m++) {
		size_t l = (size_t)pl->reps[r].tenant;
		if (f->by_model)
			l = l * (size_t)pl->nmodels + (size_t)m;
		else if (m > 0)
			break;
		if (f->by_model && !(may >> m & 1))
			continue;
		for (int s = f->at[l]; s < f->at[l + 1] && f->checks > 0 && f->scans > 0; s++) {
			const gs_spot *sp = &f->v[s];
			gs_pgpu *pg = gs_spot_gpu(f, s);
			int64_t mem = pl->reps[r].w->memory_bytes;
			if (!f->look_past &&
			    !leads_to(sp, mem,
			              f->by_model ? gs_rep_comp(pl, r, pl->models[m]) : least))
				continue;
			f->scans--;
			if (sp->gone || !(may >> sp->m & 1) || mem > sp->free_mem ||
			    gs_rep_comp(pl, r, pl->models[sp->m]) > sp->free_comp)
				continue;
			f->checks--;
			if (gs_can_join(pl, pg->model, &pg->g[0], r))
				return s;
		}
	}
	return -1;
}

/* Every replica of the fixture's plan looks for a host, with budgets
 * from ample to a few looks, through the tree and plainly; some spots
 * are gone and some joined, as while a GPU is emptied. */
static void expect_hosts_as_plain(const char *fixture, gs_placement placement, int by_model,
                                  int look_past)
{
	gs_scenario *s = tu_scenario_file(cat, fixture);
	static const long budgets[] = { 1000000, 3000, 40, 7, 1 };
	uint64_t x = 0x2026;
	tu_planned t;
	gs_built b;
	gs_filler f;
	int found = 0;
	s->placement = placement;
	tu_planned_open(&t, s);
	assert_int_equal(gs_build_chosen(&t.pl, t.shops, &t.c, &b), 0);
	memset(&f, 0, sizeof f);
	f.pl = &t.pl;
	f.c = &t.c;
	f.b = &b;
	f.by_model = by_model;
	f.look_past = look_past;
	assert_int_equal(gs_spots_init(&f), 0);
	for (int r = 0; r < t.pl.nreps; r++) {
		long scans = budgets[r % 5], checks = budgets[(r / 5) % 5];
		uint64_t only = r % 3 ? UINT64_MAX : UINT64_C(1) << tu_below(&x, t.pl.nmodels);
		int tree, plain;
		f.scans = scans;
		f.checks = checks;
		tree = gs_spot_host(&f, r, only);
		scans = f.scans;
		checks = f.checks;
		f.scans = budgets[r % 5];
		f.checks = budgets[(r / 5) % 5];
		plain = plain_host(&f, r, only);
		assert_int_equal(tree, plain);
		assert_int_equal(scans, f.scans);
		assert_int_equal(checks, f.checks);
		found += tree >= 0;
		if (r % 7 == 0)
			gs_spot_set_gone(&f, tu_below(&x, f.n), 1);
		if (tree >= 0 && r % 2 == 0)
			assert_int_equal(gs_spot_join(&f, tree, r), 0);
	}
	/* The case is not empty: hosts were found and refused. */
	assert_true(found > 10);
	assert_true(found < t.pl.nreps);
	gs_spot_put_back(&f, 0);
	gs_room_free(&f);
	free(f.v);
	free(f.at);
	free(f.log);
	gs_built_release(&b);
	tu_planned_close(&t);
	gs_scenario_free(s);
}

static void test_hosts_pinned(void **state)
{
	(void)state;
	expect_hosts_as_plain("fixtures/unit/mixed-300.yaml", GS_PLACEMENT_PINNED, 0, 0);
	expect_hosts_as_plain("fixtures/unit/mixed-300.yaml", GS_PLACEMENT_PINNED, 0, 1);
}

static void test_hosts_by_model(void **state)
{
	(void)state;
	expect_hosts_as_plain("fixtures/unit/mixed-500.yaml", GS_PLACEMENT_ROBUST, 1, 1);
	expect_hosts_as_plain("fixtures/unit/mixed-500.yaml", GS_PLACEMENT_ROBUST, 1, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_as_plain),
		cmocka_unit_test(test_bytes_round_up),
		cmocka_unit_test(test_hosts_pinned),
		cmocka_unit_test(test_hosts_by_model),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
