/*
 * test_first_fit.c - the packers' first fits against the rules they
 * implement, written out plainly here. Shared GPUs (pack_share.c):
 * replicas by size, largest first (then by index); each into the newest
 * of its tenant's last GS_FIT_WINDOW groups that gs_can_join admits, else
 * a group of its own. MIG (pack_mig.c): instances biggest first (spread
 * ones first in a second try, the one of fewer GPUs kept); each onto the
 * newest of the last GS_MIG_WINDOW GPUs that gs_mig_place admits, else a
 * GPU of its own. The packers pass over what their sums or an earlier
 * refusal rule out; on seeded fleets of time-slicing, MPS (kinds that must
 * not be time-sliced), spread, fault isolation and several tenants, robust
 * and pinned, they must give exactly these packings, and count a robust
 * refusal exactly when the plain rule does.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_planner.h"
#include "plan/pack.h"
#include "scenario/scenario.h"

TU_CATALOG_GROUP(cat)

/* A fleet of n workloads on one L4 instance type: replicas 1 to 8, memory
 * 1 to 16 GiB, compute 2 to 60 %, three tenants; a fifth must not be
 * time-sliced, some are spread. */
static char *fleet(uint64_t seed, int n)
{
	static const char *kinds[] = { "inference", "batch", "notebook", "ci" };
	size_t cap = 128 + (size_t)n * 160, o;
	char *y = malloc(cap);
	uint64_t x = seed;
	assert_non_null(y);
	o = (size_t)snprintf(y, cap, "version: 1\ninstances: [g6.xlarge]\nworkloads:\n");
	for (int i = 0; i < n; i++) {
		/* One draw a statement: arguments have no order of evaluation. */
		const char *kind = kinds[tu_below(&x, 4)];
		int replicas = 1 + tu_below(&x, 8), gib = 1 + tu_below(&x, 16);
		int pct = 2 + tu_below(&x, 59), tenant = tu_below(&x, 3);
		int critical = tu_below(&x, 5) == 0, spread = tu_below(&x, 6);
		o += (size_t)snprintf(y + o, cap - o,
		                      "  - {name: w%d, kind: %s, replicas: %d, gpuMemory: %dGiB, "
		                      "compute: %d%%, tenant: t%d%s%s}\n",
		                      i, kind, replicas, gib, pct, tenant,
		                      critical ? ", latency: critical" : "",
		                      spread == 0   ? ", spread: gpu"
		                      : spread == 1 ? ", spread: node"
		                                    : "");
	}
	return y;
}

typedef struct sized {
	int64_t size;
	int r;
} sized;

static int by_size(const void *a, const void *b)
{
	const sized *x = a, *y = b;
	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return x->r - y->r;
}

/* The plain rule, into gs[0..*ng). */
static void plain_fit(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                      gs_group *gs, int *ng)
{
	sized *v = calloc((size_t)n, sizeof *v);
	int *last = calloc((size_t)n, sizeof *last); /* groups, newest last */
	int nl = 0;
	assert_non_null(v);
	assert_non_null(last);
	for (int i = 0; i < n; i++) {
		v[i].r = reps[i];
		v[i].size = gs_rep_size(pl, reps[i], g);
	}
	qsort(v, (size_t)n, sizeof *v, by_size);
	*ng = 0;
	for (int i = 0; i < n; i++) {
		int r = v[i].r, seen = 0, into = -1;
		for (int k = nl - 1; k >= 0 && seen < GS_FIT_WINDOW && into < 0; k--) {
			if (gs[last[k]].tenant != pl->reps[r].tenant)
				continue;
			seen++;
			if (gs_can_join(pl, g, &gs[last[k]], r))
				into = last[k];
		}
		if (into < 0) {
			into = (*ng)++;
			memset(&gs[into], 0, sizeof gs[into]);
			gs[into].tenant = pl->reps[r].tenant;
			last[nl++] = into;
		}
		assert_int_equal(gs_group_join(pl, g, &gs[into], r), 0);
	}
	free(last);
	free(v);
}

static void same_groups(const gs_group *a, int na, const gs_group *b, int nb)
{
	assert_int_equal(na, nb);
	for (int i = 0; i < na; i++) {
		assert_int_equal(a[i].n, b[i].n);
		assert_int_equal(a[i].tenant, b[i].tenant);
		assert_int_equal(a[i].mem, b[i].mem);
		assert_int_equal(a[i].comp, b[i].comp);
		assert_memory_equal(a[i].reps, b[i].reps, (size_t)a[i].n * sizeof *a[i].reps);
	}
}

/* Both fits of every replica of s on the L4, under placement pl_kind;
 * with count, each counting robust refusals in its own counter. Returns
 * the groups (for the caller's figures). */
static int check(const gs_scenario *s, gs_placement placement, int count)
{
	tu_planned t;
	gs_group *got = NULL, *want;
	int ngot = 0, nwant = 0, *reps, n;
	long a = 0, b = 0;
	const gs_gpu *g;
	tu_planned_open(&t, s);
	t.pl.placement = placement;
	g = t.pl.models[0];
	assert_string_equal(g->name, "L4");
	n = (int)t.pl.nreps;
	reps = malloc((size_t)n * sizeof *reps);
	want = calloc((size_t)n, sizeof *want);
	assert_non_null(reps);
	assert_non_null(want);
	for (int i = 0; i < n; i++)
		reps[i] = i;
	t.pl.robust_bound = count ? &a : NULL;
	assert_int_equal(gs_share_first_fit(&t.pl, g, reps, n, &got, &ngot), 0);
	t.pl.robust_bound = count ? &b : NULL;
	plain_fit(&t.pl, g, reps, n, want, &nwant);
	same_groups(got, ngot, want, nwant);
	assert_int_equal(a > 0, b > 0);
	gs_groups_free(got, ngot);
	gs_groups_free(want, nwant);
	free(reps);
	tu_planned_close(&t);
	return nwant;
}

static void test_first_fit_is_the_plain_rule(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 12; seed++) {
		char *y = fleet(seed * UINT64_C(0x9e3779b97f4a7c15), 40 + (int)seed * 10);
		gs_scenario *s = tu_scenario(cat, "t.yaml", y);
		check(s, GS_PLACEMENT_ROBUST, 1);
		check(s, GS_PLACEMENT_ROBUST, 0);
		check(s, GS_PLACEMENT_PINNED, 1);
		gs_scenario_free(s);
		free(y);
	}
}

/* A fleet on g6.xlarge's L4: the file's header, then these workloads. */
static gs_scenario *l4_fleet(const char *workloads)
{
	char y[1024];
	snprintf(y, sizeof y, "version: 1\ninstances: [g6.xlarge]\nworkloads:\n%s", workloads);
	return tu_scenario(cat, "t.yaml", y);
}

/* Beyond the window: 800 replicas of 12 GiB each take an L4 (21.95 GiB
 * usable, 19.76 GiB offered to time-sliced pods) alone, so the replicas
 * of 7 GiB after them meet a full window of 256 groups. Pinned, each of
 * 256 joins one of the newest 256 (19 GiB), and the other 44 pair up
 * beyond them: 800 + 22. Robust, no 7 GiB joins a 12 GiB one (the
 * scheduler could seat two of 12 GiB there): 800 + 150 pairs. (1,100
 * replicas: the packer sorts them by radix, as past 1,024.) */
static void test_first_fit_window(void **state)
{
	gs_scenario *s = l4_fleet("  - {name: big, replicas: 800, gpuMemory: 12GiB, compute: 5%}\n"
	                          "  - {name: mid, replicas: 300, gpuMemory: 7GiB, compute: 5%}\n");
	(void)state;
	assert_int_equal(check(s, GS_PLACEMENT_PINNED, 1), 822);
	assert_int_equal(check(s, GS_PLACEMENT_ROBUST, 1), 950);
	gs_scenario_free(s);
}

/* The sure fit's largest member is the group's, whichever joined it: on
 * an L4 (19.76 GiB offered to time-sliced pods), b (30 %, 1 GiB) opens a
 * group and a (7 GiB, a smaller size) joins it. c (6.5 GiB, two
 * replicas) may not join them: three slots could seat a and both of c's,
 * 20 GiB. Sure of b's memory and c's alone, it would (6.5 GiB x 3 and
 * 30 % x 3 fit), and never ask the worst case. So c's replicas pair up
 * on a GPU of their own, as the plain rule has them. */
static void test_first_fit_largest_member(void **state)
{
	gs_scenario *s = l4_fleet("  - {name: b, replicas: 1, gpuMemory: 1GiB, compute: 30%}\n"
	                          "  - {name: a, replicas: 1, gpuMemory: 7GiB, compute: 5%}\n"
	                          "  - {name: c, replicas: 2, gpuMemory: 6.5GiB, compute: 5%}\n");
	(void)state;
	for (int count = 0; count <= 1; count++)
		assert_int_equal(check(s, GS_PLACEMENT_ROBUST, count), 2);
	gs_scenario_free(s);
}

/* ---- MIG ------------------------------------------------------------------ */

static const char *const profiles[] = { "1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb" };

/* n workloads on p4d (A100-SXM4-40GB): replicas 1 to 6, three tenants,
 * some spread, fault-isolated or latency-critical. */
static char *mig_fleet(uint64_t seed, int n)
{
	size_t cap = 128 + (size_t)n * 160, o;
	char *y = malloc(cap);
	uint64_t x = seed;
	assert_non_null(y);
	o = (size_t)snprintf(y, cap, "version: 1\ninstances: [p4d.24xlarge]\nworkloads:\n");
	for (int i = 0; i < n; i++) {
		int replicas = 1 + tu_below(&x, 6), gib = 1 + tu_below(&x, 4);
		int tenant = tu_below(&x, 3), extra = tu_below(&x, 8);
		o += (size_t)snprintf(y + o, cap - o,
		                      "  - {name: w%d, replicas: %d, gpuMemory: %dGiB, "
		                      "compute: 5%%, tenant: t%d%s}\n",
		                      i, replicas, gib, tenant,
		                      extra == 0   ? ", spread: gpu"
		                      : extra == 1 ? ", spread: node"
		                      : extra == 2 ? ", isolation: fault"
		                      : extra == 3 ? ", latency: critical"
		                                   : "");
	}
	return y;
}

/* The instances: each replica alone in an instance of a random profile,
 * but one time in four two replicas of a workload share one; with *x 0,
 * the first workload's in 4g.20gb and the others' in 3g.20gb, alone. */
static int instances(const gs_planner *pl, const gs_gpu *g, uint64_t *x, gs_group *gs)
{
	int n = 0;
	for (int r = 0; r < pl->nreps; r++) {
		gs_group *gr = &gs[n++];
		memset(gr, 0, sizeof *gr);
		gr->tenant = pl->reps[r].tenant;
		gr->prof = tu_profile(g, !*x ? (pl->reps[r].wi ? "3g.20gb" : "4g.20gb")
		                        : profiles[tu_below(x, 5)]);
		assert_int_equal(gs_group_join(pl, g, gr, r), 0);
		if (*x && r + 1 < pl->nreps && pl->reps[r + 1].wi == pl->reps[r].wi &&
		    tu_below(x, 4) == 0)
			assert_int_equal(gs_group_join(pl, g, gr, ++r), 0);
	}
	return n;
}

static int spread_first_of(const gs_planner *pl, const gs_group *gr)
{
	for (int k = 0; k < gr->n; k++)
		if (pl->reps[gr->reps[k]].w->spread != GS_SPREAD_NONE)
			return 1;
	return 0;
}

typedef struct ranked {
	int spread, mem, cs, rep;
	gs_group *gr;
} ranked;

static int by_rank(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->spread != y->spread)
		return y->spread - x->spread;
	if (x->mem != y->mem)
		return y->mem - x->mem;
	if (x->cs != y->cs)
		return y->cs - x->cs;
	return x->rep - y->rep;
}

/* One order of the plain MIG rule onto new GPUs at the end of pk. */
static void plain_mig_order(const gs_planner *pl, const gs_gpu *g, gs_group *gs, int n,
                            int spread_first, gs_pack *pk)
{
	ranked *v = calloc((size_t)n, sizeof *v);
	int first = pk->n;
	assert_non_null(v);
	for (int i = 0; i < n; i++) {
		v[i].spread = spread_first && spread_first_of(pl, &gs[i]);
		v[i].mem = gs[i].prof->memory_slices;
		v[i].cs = gs[i].prof->compute_slices;
		v[i].rep = gs[i].reps[0];
		v[i].gr = &gs[i];
	}
	qsort(v, (size_t)n, sizeof *v, by_rank);
	for (int i = 0; i < n; i++) {
		int placed = 0;
		for (int j = pk->n - 1; !placed && j >= first && j >= pk->n - GS_MIG_WINDOW; j--)
			placed = gs_mig_place(pl, &pk->gpus[j], v[i].gr);
		if (!placed) {
			gs_pgpu *pg = gs_pack_add_gpu(pk, g, GS_STRATEGY_MIG);
			assert_non_null(pg);
			assert_int_equal(gs_mig_place(pl, pg, v[i].gr), 1);
		}
	}
	free(v);
}

static void same_pack(const gs_pack *a, const gs_pack *b)
{
	assert_int_equal(a->n, b->n);
	for (int i = 0; i < a->n; i++) {
		assert_int_equal(a->gpus[i].ng, b->gpus[i].ng);
		for (int k = 0; k < a->gpus[i].ng; k++) {
			const gs_group *x = &a->gpus[i].g[k], *y = &b->gpus[i].g[k];
			assert_ptr_equal(x->prof, y->prof);
			assert_int_equal(x->start, y->start);
			assert_int_equal(x->n, y->n);
			assert_memory_equal(x->reps, y->reps, (size_t)x->n * sizeof *x->reps);
		}
	}
}

/* Both MIG packings of s's replicas; the packer's GPU count. */
static int check_mig(const gs_scenario *s, gs_placement placement, uint64_t seed)
{
	tu_planned t;
	gs_pack got, a, b;
	gs_group *gs, **inst;
	const gs_gpu *g;
	int n, spread = 0;
	uint64_t x = seed;
	memset(&got, 0, sizeof got);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	tu_planned_open(&t, s);
	t.pl.placement = placement;
	g = t.pl.models[0];
	assert_string_equal(g->name, "A100-SXM4-40GB");
	gs = calloc((size_t)t.pl.nreps, sizeof *gs);
	inst = calloc((size_t)t.pl.nreps, sizeof *inst);
	assert_non_null(gs);
	assert_non_null(inst);
	n = instances(&t.pl, g, &x, gs);
	for (int i = 0; i < n; i++) {
		inst[i] = &gs[i];
		spread |= spread_first_of(&t.pl, &gs[i]);
	}
	assert_int_equal(gs_pack_mig(&t.pl, g, inst, n, &got), 0);
	plain_mig_order(&t.pl, g, gs, n, 0, &a);
	if (spread)
		plain_mig_order(&t.pl, g, gs, n, 1, &b);
	same_pack(&got, spread && b.n < a.n ? &b : &a);
	n = got.n;
	gs_pack_release(&got);
	gs_pack_release(&a);
	gs_pack_release(&b);
	for (int i = 0; i < t.pl.nreps && gs[i].n; i++)
		free(gs[i].reps);
	free(gs);
	free(inst);
	tu_planned_close(&t);
	return n;
}

static void test_mig_fit_is_the_plain_rule(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		char *y = mig_fleet(seed * UINT64_C(0xd1b54a32d192ed03), 30 + (int)seed * 12);
		gs_scenario *s = tu_scenario(cat, "t.yaml", y);
		check_mig(s, GS_PLACEMENT_ROBUST, seed);
		check_mig(s, GS_PLACEMENT_PINNED, seed);
		gs_scenario_free(s);
		free(y);
	}
}

/* Past the window: 100 replicas alone in a 4g.20gb instance each (two
 * would take 8 of the A100's 7 compute slices), then 60 in 3g.20gb. The
 * first 48 of those join the newest 48 GPUs (4g.20gb + 3g.20gb: 7 compute
 * slices, 8 memory slices); the window then holds full GPUs only, and the
 * other 12 pair up on 6 new ones: 106 GPUs, robust or pinned. */
static void test_mig_fit_window(void **state)
{
	gs_scenario *s = tu_scenario(
		cat, "t.yaml",
		"version: 1\ninstances: [p4d.24xlarge]\nworkloads:\n"
		"  - {name: big, replicas: 100, gpuMemory: 12GiB, compute: 5%}\n"
		"  - {name: mid, replicas: 60, gpuMemory: 12GiB, compute: 5%}\n");
	(void)state;
	assert_int_equal(check_mig(s, GS_PLACEMENT_ROBUST, 0), 106);
	assert_int_equal(check_mig(s, GS_PLACEMENT_PINNED, 0), 106);
	gs_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_fit_is_the_plain_rule),
		cmocka_unit_test(test_first_fit_window),
		cmocka_unit_test(test_first_fit_largest_member),
		cmocka_unit_test(test_mig_fit_is_the_plain_rule),
		cmocka_unit_test(test_mig_fit_window),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
