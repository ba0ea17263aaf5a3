/*
 * test_fraction.c - uneven fractions (the workload file's `fractions`):
 * exact plans of small files, and on seeded fleets the backends' rules
 * checked in the plan's own records: caps sum within usable memory, SM
 * limits within 100 %, clients within the backend's limit, one tenant
 * per GPU, never a fault-isolated replica, and replicas that must not be
 * time-sliced only under MPS limits. Allowing fractions never costs more.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

TU_CATALOG_GROUP(cat)

static const char uneven[] =
	"version: 1\n"
	"cloud: aws\n"
	"instances: [\"g6.xlarge\"]\n"
	"%s"
	"workloads:\n"
	"  - {name: chat, kind: inference, replicas: 2, gpuMemory: 17GiB, compute: 40%%}\n"
	"  - {name: embed, kind: inference, replicas: 2, gpuMemory: 4GiB, compute: 20%%}\n";

static gs_plan *plan_of(const char *fmt, const char *line, gs_scenario **s)
{
	char yaml[4096];
	snprintf(yaml, sizeof yaml, fmt, line);
	*s = tu_scenario(cat, "test.yaml", yaml);
	return tu_plan(*s);
}

static int count_gpus(const gs_plan *p, gs_strategy st, gs_backend b)
{
	int n = 0;
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, i);
		for (size_t g = 0; g < nd->n_gpus; g++)
			n += nd->gpus[g].strategy == st && nd->gpus[g].backend == b &&
			     nd->gpus[g].n_assignments > 0;
	}
	return n;
}

/* 17 + 4 GiB fit an L4's 21.95 usable GiB only with caps of their own. */
static void test_uneven_pairs(void **state)
{
	static const struct {
		const char *line;
		gs_backend b;
		int thread;
	} cases[] = {
		{ "fractions: [hami]\n", GS_BACKEND_HAMI, 40 },
		{ "fractions: [dra]\n", GS_BACKEND_DRA, 0 },
		{ "fractions: [mps]\n", GS_BACKEND_MPS, 40 },
	};
	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		gs_scenario *s;
		gs_plan *p = plan_of(uneven, cases[c].line, &s);
		const gs_plan_gpu *g = &gs_plan_node_at(p, 0)->gpus[0];
		assert_int_equal(gs_plan_summary_get(p)->gpus_after, 2);
		assert_int_equal(gs_plan_summary_get(p)->after_per_hour, 1609600);
		assert_int_equal(count_gpus(p, GS_STRATEGY_FRACTION, cases[c].b), 2);
		assert_int_equal(g->n_assignments, 2);
		assert_string_equal(g->assignments[0].workload->name, "chat");
		assert_int_equal(g->assignments[0].memory_limit_mib, 17408);
		assert_int_equal(g->assignments[0].thread_percent, cases[c].thread);
		assert_int_equal(g->assignments[1].memory_limit_mib, 4096);
		assert_string_equal(gs_plan_node_at(p, 0)->config,
		                    cases[c].b == GS_BACKEND_HAMI  ? "g6.xlarge-frac-hami"
		                    : cases[c].b == GS_BACKEND_DRA ? "g6.xlarge-frac-dra"
		                                                   : "g6.xlarge-frac-mps");
		gs_plan_free(p);
		gs_scenario_free(s);
	}
}

/* Without `fractions` the same file plans as before: chat alone, embed
 * time-sliced, three GPUs. */
static void test_none_as_before(void **state)
{
	gs_scenario *s;
	gs_plan *p = plan_of(uneven, "", &s);
	(void)state;
	assert_int_equal(gs_plan_summary_get(p)->gpus_after, 3);
	assert_int_equal(count_gpus(p, GS_STRATEGY_FRACTION, GS_BACKEND_HAMI), 0);
	assert_int_equal(count_gpus(p, GS_STRATEGY_DEDICATED, GS_BACKEND_NONE), 2);
	assert_int_equal(count_gpus(p, GS_STRATEGY_TIME_SLICING, GS_BACKEND_NONE), 1);
	gs_plan_free(p);
	gs_scenario_free(s);
}

/* ---- seeded fleets --------------------------------------------------------- */

static unsigned next(unsigned *x)
{
	*x = *x * 1103515245u + 12345u;
	return (*x >> 16) & 0x7fff;
}

static const char *const kinds[] = { "inference", "batch", "notebook" };

static void fleet(unsigned seed, const char *fractions, char *yaml, size_t size)
{
	size_t o = (size_t)snprintf(yaml, size,
	                            "version: 1\ncloud: aws\nplacement: pinned\n"
	                            "instances: [\"g6.xlarge\", \"g5.xlarge\", \"g4dn.xlarge\"]\n"
	                            "%sworkloads:\n", fractions);
	unsigned x = seed;
	int n = 3 + (int)(next(&x) % 5);
	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(yaml + o, size - o,
		                      "  - {name: w%d, kind: %s, replicas: %u, gpuMemory: %uGiB, "
		                      "compute: %u%%, latency: %s, tenant: t%u, isolation: %s}\n",
		                      i, kinds[next(&x) % 3], 1 + next(&x) % 4, 1 + next(&x) % 14,
		                      2 + next(&x) % 60, next(&x) % 3 ? "tolerant" : "critical",
		                      next(&x) % 2, next(&x) % 8 ? "none" : "fault");
}

static int must_not_ts(const gs_workload *w)
{
	return (w->kind == GS_KIND_INFERENCE && w->latency_critical && w->compute_ppm >= 500000) ||
	       ((w->kind == GS_KIND_BATCH || w->kind == GS_KIND_TRAINING) &&
	        w->compute_ppm >= 700000);
}

static void check_gpu(const gs_plan_gpu *g)
{
	int64_t mem = 0, pct = 0;
	int limit = g->backend == GS_BACKEND_HAMI ? 10
	            : g->backend == GS_BACKEND_MPS ? g->model->mps_max_clients : 1 << 30;
	assert_true(g->backend != GS_BACKEND_NONE);
	assert_true(g->n_assignments >= 2 && (int)g->n_assignments <= limit);
	for (size_t a = 0; a < g->n_assignments; a++) {
		const gs_assignment *as = &g->assignments[a];
		const gs_workload *w = as->workload;
		assert_int_equal(as->memory_limit_mib, (w->memory_bytes + (1 << 20) - 1) >> 20);
		int pct = (int)((as->compute_ppm + 9999) / 10000);
		assert_int_equal(as->thread_percent,
		                 g->backend == GS_BACKEND_DRA ? 0 : pct < 1 ? 1 : pct);
		assert_false(w->isolation_fault);
		assert_string_equal(w->tenant, g->assignments[0].workload->tenant);
		if (must_not_ts(w))
			assert_int_equal(g->backend, GS_BACKEND_MPS);
		mem += as->memory_limit_mib;
		pct += as->thread_percent;
	}
	assert_true(mem <= g->model->usable_memory_mib);
	assert_true(pct <= 100);
}

static void check_fractions(const gs_plan *p)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, i);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *pg = &nd->gpus[g];
			if (pg->strategy == GS_STRATEGY_FRACTION && pg->n_assignments)
				check_gpu(pg);
		}
	}
}

static void test_seeded_rules(void **state)
{
	static const char *const lists[] = {
		"fractions: [hami]\n", "fractions: [dra]\n", "fractions: [mps]\n",
		"fractions: [hami, mps]\n",
	};
	int fractions = 0;
	(void)state;
	for (unsigned seed = 1; seed <= 24; seed++) {
		char yaml[8192];
		gs_scenario *s0, *s;
		gs_plan *p0, *p;
		fleet(seed, "", yaml, sizeof yaml);
		s0 = tu_scenario(cat, "none.yaml", yaml);
		p0 = tu_plan(s0);
		fleet(seed, lists[seed % 4], yaml, sizeof yaml);
		s = tu_scenario(cat, "frac.yaml", yaml);
		p = tu_plan(s);
		check_fractions(p);
		fractions += count_gpus(p, GS_STRATEGY_FRACTION, GS_BACKEND_HAMI) +
		             count_gpus(p, GS_STRATEGY_FRACTION, GS_BACKEND_DRA) +
		             count_gpus(p, GS_STRATEGY_FRACTION, GS_BACKEND_MPS);
		/* Fractions only relax the rules of a shared GPU. */
		assert_true(gs_plan_summary_get(p)->after_per_hour <=
		            gs_plan_summary_get(p0)->after_per_hour);
		gs_plan_free(p);
		gs_plan_free(p0);
		gs_scenario_free(s);
		gs_scenario_free(s0);
	}
	/* The fleets exercise the rules: some GPUs are fractions. */
	assert_true(fractions > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uneven_pairs),
		cmocka_unit_test(test_none_as_before),
		cmocka_unit_test(test_seeded_rules),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
