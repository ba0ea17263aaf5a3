/*
 * test_emit_fraction.c - what the emitters make of fraction GPUs: HAMi's
 * accounting (scaling, budget, split), DRA capacity requests, each
 * replica's place (backend, limits, resource or template), which kinds a
 * plan wants, and the combinations refused before anything is emitted.
 * The exact files are goldens (tests/cli/cases/emit_frac_*).
 */
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "emit/objects.h"
#include "testutil.h"

TU_CATALOG_GROUP(cat)

static const char uneven[] =
	"version: 1\n"
	"cloud: aws\n"
	"instances: [\"g6.xlarge\"]\n"
	"fractions: [%s]\n"
	"workloads:\n"
	"  - {name: chat, kind: inference, replicas: 2, gpuMemory: 17GiB, compute: 40%%,\n"
	"     object: {container: main}}\n"
	"  - {name: embed, kind: inference, replicas: 2, gpuMemory: 4GiB, compute: 20%%,\n"
	"     object: {container: main}}\n";

typedef struct fixture {
	gs_scenario *s;
	gs_plan *p;
} fixture;

static fixture plan_with(const char *backends)
{
	char yaml[2048];
	fixture f;
	snprintf(yaml, sizeof yaml, uneven, backends);
	f.s = tu_scenario(cat, "test.yaml", yaml);
	f.p = tu_plan(f.s);
	return f;
}

static void release(fixture *f)
{
	gs_plan_free(f->p);
	gs_scenario_free(f->s);
}

static const gs_gpu *l4(void)
{
	const gs_gpu *g = gs_gpu_find(cat, "L4");
	assert_non_null(g);
	return g;
}

/* An L4 reports 23034 MiB and keeps 556: HAMi must account 22478. */
static void test_hami_accounting(void **state)
{
	fixture f = plan_with("hami");
	int64_t s = gs_emit_hami_scaling_ppm(f.p);
	(void)state;
	assert_int_equal(s, 975862);
	assert_int_equal(gs_emit_hami_budget_mib(l4(), s), 22478);
	assert_int_equal(gs_emit_hami_split(f.p), GS_EMIT_HAMI_SPLIT);
	assert_true(gs_emit_has_backend(f.p, GS_BACKEND_HAMI));
	assert_false(gs_emit_has_backend(f.p, GS_BACKEND_DRA));
	assert_int_equal(gs_emit_node_backend(gs_plan_node_at(f.p, 0)), GS_BACKEND_HAMI);
	/* chat 17408 + embed 4096 MiB on each GPU. */
	assert_int_equal(gs_emit_gpu_caps_mib(&gs_plan_node_at(f.p, 0)->gpus[0]), 21504);
	release(&f);
}

/* Requests scale by reported / usable memory, rounded up. */
static void test_capacity_requests(void **state)
{
	(void)state;
	assert_int_equal(gs_emit_capacity_mib(l4(), 17408), 17839);
	assert_int_equal(gs_emit_capacity_mib(l4(), 4096), 4198);
	/* Two such claims still fit the 23034 MiB the device publishes. */
	assert_true(17839 + 4198 <= l4()->memory_mib);
}

/* The place each replica's pods ask for, per backend. */
static void test_places(void **state)
{
	static const struct {
		const char *backends;
		gs_backend b;
		const char *resource, *claim;
		int64_t mib;
		int cores, template_;
	} cases[] = {
		{ "hami", GS_BACKEND_HAMI, "nvidia.com/gpu", "", 17408, 40, 0 },
		{ "dra", GS_BACKEND_DRA, "", "gpushare-chat-17839mi", 17839, 0, 1 },
		{ "mps", GS_BACKEND_MPS, "", "gpushare-n1-gpu0", 17408, 40, 0 },
	};
	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		fixture f = plan_with(cases[c].backends);
		gs_emit_opts o = GS_EMIT_OPTS_INIT;
		gs_eobjects objs;
		gs_error err;
		const gs_eobject *chat = NULL;
		/* HAMi's resource is never renamed. MPS claims are one per
		 * GPU, so a workload on two is two objects: examples need no
		 * manifest for the copy. */
		o.rename_shared = 1;
		o.example_deployments = 1;
		assert_int_equal(gs_emit_objects(f.p, &o, &objs, &err), 0);
		for (size_t i = 0; i < objs.n; i++)
			if (strcmp(objs.v[i].w->name, "chat") == 0 && !objs.v[i].copy)
				chat = &objs.v[i];
		assert_non_null(chat);
		assert_int_equal(chat->where.backend, cases[c].b);
		assert_string_equal(chat->where.resource, cases[c].resource);
		assert_string_equal(chat->where.claim, cases[c].claim);
		assert_int_equal(chat->where.frac_mib, cases[c].mib);
		assert_int_equal(chat->where.frac_cores, cases[c].cores);
		assert_int_equal(chat->where.template_, cases[c].template_);
		/* A capacity template serves every pod: one object, no copies. */
		if (cases[c].b == GS_BACKEND_DRA)
			assert_int_equal(objs.n, 2);
		gs_emit_objects_release(&objs);
		release(&f);
	}
}

/* Whether a backend could put two of a workload's replicas on one GPU:
 * then spread: gpu needs a node each, else the backend keeps them apart. */
static void test_pairs(void **state)
{
	static const struct {
		const char *backends;
		int chat, embed;
	} cases[] = { { "hami", 0, 1 }, { "dra", 0, 1 }, { "mps", 0, 0 } };
	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		fixture f = plan_with(cases[c].backends);
		const gs_plan_gpu *g = &gs_plan_node_at(f.p, 0)->gpus[0];
		const gs_workload *chat = gs_scenario_find(f.s, "chat"),
		                  *embed = gs_scenario_find(f.s, "embed");
		/* 2 x 17408 > 22478 accounted (HAMi), 2 x 17839 > 23034 (DRA). */
		assert_int_equal(gs_emit_fraction_pairs(f.p, g, chat), cases[c].chat);
		assert_int_equal(gs_emit_fraction_pairs(f.p, g, embed), cases[c].embed);
		release(&f);
	}
}

/* Beside a DRA stack HAMi's pods keep HAMi's resources and take no
 * claim, and no claim is written for HAMi's GPUs. */
static void test_hami_beside_dra(void **state)
{
	fixture h = plan_with("hami");
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	gs_eobjects objs;
	gs_error err;
	char *text = NULL;
	(void)state;
	o.dra = 1;
	assert_int_equal(gs_emit_objects(h.p, &o, &objs, &err), 0);
	for (size_t i = 0; i < objs.n; i++) {
		assert_int_equal(objs.v[i].where.backend, GS_BACKEND_HAMI);
		assert_string_equal(objs.v[i].where.resource, "nvidia.com/gpu");
		assert_string_equal(objs.v[i].where.claim, "");
	}
	gs_emit_objects_release(&objs);
	assert_int_equal(gs_emit(h.p, GS_EMIT_DRA, &o, &text, &err), 0);
	assert_null(strstr(text, "kind: ResourceClaim"));
	free(text);
	assert_int_equal(gs_emit(h.p, GS_EMIT_DRA_DRIVER, &o, &text, &err), 0);
	assert_non_null(strstr(text, "operator: NotIn"));
	free(text);
	release(&h);
}

/* DRA and MPS fractions make DRA the stack; HAMi wants its values. */
static void test_wanted(void **state)
{
	fixture h = plan_with("hami"), d = plan_with("dra"), m = plan_with("mps");
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	(void)state;
	assert_true(gs_emit_wanted(h.p, GS_EMIT_HAMI, &o));
	assert_true(gs_emit_wanted(h.p, GS_EMIT_DEVICE_PLUGIN, &o));
	assert_false(gs_emit_wanted(h.p, GS_EMIT_DRA, &o));
	assert_false(gs_emit_wanted(d.p, GS_EMIT_HAMI, &o));
	assert_true(gs_emit_wanted(d.p, GS_EMIT_DRA, &o));
	assert_true(gs_emit_wanted(d.p, GS_EMIT_DRA_DRIVER, &o));
	assert_false(gs_emit_wanted(d.p, GS_EMIT_DEVICE_PLUGIN, &o));
	assert_true(gs_emit_wanted(m.p, GS_EMIT_DRA, &o));
	release(&h);
	release(&d);
	release(&m);
}

static void refused(const gs_plan *p, gs_emit_kind k, const gs_emit_opts *o,
                    const char *want)
{
	gs_error err;
	char *text = NULL;
	memset(&err, 0, sizeof err);
	assert_int_equal(gs_emit(p, k, o, &text, &err), GS_EINVAL);
	assert_null(text);
	assert_gs_error(&err, want);
}

static void test_refusals(void **state)
{
	fixture d = plan_with("dra");
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	(void)state;
	o.kube_minor = 33;
	refused(d.p, GS_EMIT_DRA, &o,
	        "error: DRA consumable capacity needs Kubernetes 1.34 or later "
	        "(DRAConsumableCapacity), not 1.33");
	o.kube_minor = 34;
	refused(d.p, GS_EMIT_HAMI, &o,
	        "error: the plan has no hami configuration (no GPU is a HAMi fraction; allow "
	        "them with fractions: [hami])");
	release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hami_accounting),
		cmocka_unit_test(test_capacity_requests),
		cmocka_unit_test(test_places),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_hami_beside_dra),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
