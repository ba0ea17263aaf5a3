/*
 * test_mig.c - the MIG geometry engine against tests/fixtures/mig-truth.json
 * (every feasible and maximal geometry of every shipped MIG model, for the
 * classic, base and all profile sets), plus explicit fits, misfits and
 * profile-name lookups with their exact messages.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "testutil.h"

#define TRUTH_FILE "fixtures/mig-truth.json"
#define MAX_GEOM 32

static gs_catalog *cat;
static cJSON *truth;

/* Each key of the truth file and the models of ours it describes. */
typedef struct model_map {
	const char *key;
	const char *model;
} model_map;

static const model_map models[] = {
	{ "A100-40GB", "A100-SXM4-40GB" },  { "A100-40GB", "A100-PCIE-40GB" },
	{ "A100-80GB", "A100-SXM4-80GB" },  { "A100-80GB", "A100-PCIE-80GB" },
	{ "A30-24GB", "A30" },              { "H100-80GB", "H100-SXM5-80GB" },
	{ "H100-80GB", "H100-PCIE-80GB" },  { "H100-94GB", "H100-NVL-94GB" },
	{ "H200-141GB", "H200-SXM-141GB" }, { "B200-180GB", "B200" },
	/* A800s: mig-parted gives their device IDs the A100 configs, and the
	 * truth file lists those IDs under the A100 keys. */
	{ "A100-40GB", "A800-PCIE-40GB" },  { "A100-80GB", "A800-SXM4-80GB" },
	{ "A100-80GB", "A800-PCIE-80GB" },  { "H100-96GB", "GH200-96GB" },
	/* Its NVML placement grid has 12 units (3 per memory quarter); the
	 * truth file and our model both keep NVML's starts. */
	{ "RTX-PRO-6000-96GB", "RTX-PRO-6000" },
};
#define N_MODELS (sizeof models / sizeof models[0])

/* Keys of the truth file for models we do not ship, NULL-terminated:
 * none today, every key is mapped. */
static const char *const skipped_keys[] = { NULL };

static const char *const set_names[] = { "classic", "base", "all" };
#define N_SETS (sizeof set_names / sizeof set_names[0])

/* ---- fixtures ------------------------------------------------------------ */

static cJSON *read_truth(void)
{
	FILE *f = fopen(TRUTH_FILE, "rb");
	char *buf;
	long len;
	cJSON *j;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[len] = '\0';
	fclose(f);
	j = cJSON_Parse(buf);
	free(buf);
	return j;
}

static int group_setup(void **state)
{
	gs_error err;
	(void)state;
	memset(&err, 0, sizeof err);
	assert_gs_ok(gs_catalog_load(TEST_PROFILES, &cat, &err), &err);
	truth = read_truth();
	assert_non_null(truth);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	gs_catalog_free(cat);
	cJSON_Delete(truth);
	return 0;
}

static const gs_gpu *gpu(const char *name)
{
	const gs_gpu *g = gs_gpu_find(cat, name);
	if (!g)
		fail_msg("GPU %s is not in the catalog", name);
	return g;
}

static const gs_mig_profile *prof(const gs_gpu *g, const char *name)
{
	const gs_mig_profile *p = gs_mig_profile_find(g, name);
	if (!p)
		fail_msg("%s has no MIG profile %s", g->name, name);
	return p;
}

/* ---- geometry lists -------------------------------------------------------- */

typedef struct geolist {
	char **items; /* "4g.20gb,3g.20gb": names in canonical order */
	size_t n, cap;
} geolist;

static void geolist_add(geolist *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->items = realloc(l->items, l->cap * sizeof *l->items);
		assert_non_null(l->items);
	}
	l->items[l->n++] = s;
}

static void geolist_free(geolist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof *l);
}

static char *join_names(const char *const *names, size_t n)
{
	size_t len = 1;
	char *s;
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	s = malloc(len);
	assert_non_null(s);
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, names[i]);
	}
	return s;
}

/* What the enumeration callback sees. */
typedef struct collect {
	geolist list;
	size_t n_expected;   /* the allowed set's size */
	int bad_profiles;    /* the callback's profiles were not canonical */
} collect;

static int canonical_before(const gs_mig_profile *a, const gs_mig_profile *b)
{
	if (a->compute_slices != b->compute_slices)
		return a->compute_slices > b->compute_slices;
	if (a->memory_slices != b->memory_slices)
		return a->memory_slices > b->memory_slices;
	return strcmp(a->name, b->name) < 0;
}

static int collect_fn(const gs_mig_profile *const *profiles,
                      const size_t *counts, size_t n, void *ud)
{
	collect *c = ud;
	const char *names[MAX_GEOM];
	size_t k = 0;

	if (n != c->n_expected)
		c->bad_profiles = 1;
	for (size_t i = 0; i < n; i++) {
		if (i && !canonical_before(profiles[i - 1], profiles[i]))
			c->bad_profiles = 1;
		for (size_t r = 0; r < counts[i]; r++) {
			if (k == MAX_GEOM)
				return -100;
			names[k++] = profiles[i]->name;
		}
	}
	geolist_add(&c->list, join_names(names, k));
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Compares the enumerated list with the truth's, in order. When they hold
 * the same geometries in another order, says so. */
static void compare_lists(const char *what, const geolist *got,
                          const geolist *want)
{
	size_t n = got->n < want->n ? got->n : want->n;
	size_t first = n;

	for (size_t i = 0; i < n; i++)
		if (strcmp(got->items[i], want->items[i]) != 0) {
			first = i;
			break;
		}
	if (first == n && got->n == want->n)
		return;
	{
		int same_set = got->n == want->n;
		if (same_set) {
			char **a = malloc(got->n * sizeof *a), **b = malloc(got->n * sizeof *b);
			assert_true(a && b);
			memcpy(a, got->items, got->n * sizeof *a);
			memcpy(b, want->items, got->n * sizeof *b);
			qsort(a, got->n, sizeof *a, cmp_str);
			qsort(b, got->n, sizeof *b, cmp_str);
			for (size_t i = 0; i < got->n; i++)
				if (strcmp(a[i], b[i]) != 0)
					same_set = 0;
			free(a);
			free(b);
		}
		fail_msg("%s: %s; first difference at #%zu: got [%s], want [%s] "
		         "(got %zu geometries, want %zu)",
		         what,
		         same_set ? "same geometries in a different order"
		                  : "different geometries",
		         first, first < got->n ? got->items[first] : "(end)",
		         first < want->n ? want->items[first] : "(end)", got->n,
		         want->n);
	}
}

/* The truth's geometries, joined the same way. */
static void truth_list(const cJSON *arr, geolist *out)
{
	const cJSON *geo;
	assert_true(cJSON_IsArray(arr));
	cJSON_ArrayForEach(geo, arr) {
		const char *names[MAX_GEOM];
		size_t k = 0;
		const cJSON *nm;
		assert_true(cJSON_IsArray(geo));
		cJSON_ArrayForEach(nm, geo) {
			assert_true(cJSON_IsString(nm));
			assert_true(k < MAX_GEOM);
			names[k++] = nm->valuestring;
		}
		geolist_add(out, join_names(names, k));
	}
}

/* Resolves a truth geometry (a JSON list of names) to our profiles. */
static size_t geometry_profiles(const gs_gpu *g, const cJSON *geo,
                                const gs_mig_profile **out)
{
	size_t k = 0;
	const cJSON *nm;
	cJSON_ArrayForEach(nm, geo) {
		assert_true(k < MAX_GEOM);
		out[k++] = prof(g, nm->valuestring);
	}
	return k;
}

static int legal_start(const gs_mig_profile *p, int start)
{
	for (size_t s = 0; s < p->n_starts; s++)
		if (p->starts[s] == start)
			return 1;
	return 0;
}

/* gs_mig_fit accepts the geometry with legal, disjoint starts. */
static void check_fits(const gs_gpu *g, const gs_mig_profile *const *ps,
                       size_t n, const char *label)
{
	int starts[MAX_GEOM];
	gs_error err;

	memset(&err, 0, sizeof err);
	for (size_t i = 0; i < n; i++)
		starts[i] = -1;
	if (gs_mig_fit(g, ps, n, starts, &err) != 0)
		fail_msg("%s: [%s] does not fit: %s", g->name, label, err.msg);
	for (size_t i = 0; i < n; i++) {
		if (!legal_start(ps[i], starts[i]))
			fail_msg("%s: [%s]: %s placed at %d, not a legal start", g->name,
			         label, ps[i]->name, starts[i]);
		for (size_t j = 0; j < i; j++) {
			int a0 = starts[i], a1 = starts[i] + ps[i]->memory_slices;
			int b0 = starts[j], b1 = starts[j] + ps[j]->memory_slices;
			if (a0 < b1 && b0 < a1)
				fail_msg("%s: [%s]: %s at %d overlaps %s at %d", g->name,
				         label, ps[i]->name, starts[i], ps[j]->name,
				         starts[j]);
		}
	}
}

/* ---- the truth file ------------------------------------------------------- */

static void test_truth_keys_all_mapped(void **state)
{
	const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(truth, "gpus");
	const cJSON *g;
	size_t skipped = 0, mapped = 0, n_skipped = 0;

	(void)state;
	assert_true(cJSON_IsObject(gpus));
	cJSON_ArrayForEach(g, gpus) {
		int known = 0;
		for (size_t i = 0; i < N_MODELS; i++)
			if (strcmp(models[i].key, g->string) == 0) {
				known = 1;
				mapped++;
			}
		for (size_t i = 0; skipped_keys[i]; i++)
			if (strcmp(skipped_keys[i], g->string) == 0) {
				assert_false(known);
				known = 1;
				skipped++;
			}
		if (!known)
			fail_msg("truth key %s is neither mapped nor skipped", g->string);
	}
	/* Every key skipped on purpose; every mapping used. */
	while (skipped_keys[n_skipped])
		n_skipped++;
	assert_int_equal(skipped, n_skipped);
	assert_int_equal(mapped, N_MODELS);
	/* Every mapped model is ours and supports MIG. */
	for (size_t i = 0; i < N_MODELS; i++) {
		const gs_gpu *m = gpu(models[i].model);
		assert_string_equal(m->name, models[i].model);
		assert_true(m->mig_slots > 0);
	}
}

typedef struct set_case {
	const model_map *map;
	const char *set;
	char label[96];
} set_case;

static set_case set_cases[N_MODELS * N_SETS];

/* Geometry lists and counts of one model and one profile set. */
static void test_truth_set(void **state)
{
	const set_case *tc = *state;
	const cJSON *entry, *set, *names, *counts, *nm;
	const gs_mig_profile *allowed[16];
	const gs_gpu *g = gpu(tc->map->model);
	size_t n = 0;
	gs_error err;

	memset(&err, 0, sizeof err);
	entry = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(truth, "gpus"), tc->map->key);
	set = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(entry, "sets"), tc->set);
	assert_non_null(set);
	names = cJSON_GetObjectItemCaseSensitive(set, "profiles");
	counts = cJSON_GetObjectItemCaseSensitive(set, "counts");
	assert_true(cJSON_IsArray(names));
	assert_true(cJSON_IsObject(counts));
	assert_int_equal(g->mig_slots, cJSON_GetObjectItemCaseSensitive(
	                                   entry, "placement_units")->valueint);

	/* Every name of the set is one of ours, spelt the same. */
	cJSON_ArrayForEach(nm, names) {
		assert_true(n < 16);
		allowed[n] = prof(g, nm->valuestring);
		assert_string_equal(allowed[n]->name, nm->valuestring);
		n++;
	}

	for (int pass = 0; pass < 2; pass++) {
		const char *key = pass == 0 ? "feasible" : "maximal";
		int which = pass == 0 ? GS_MIG_FEASIBLE : GS_MIG_MAXIMAL;
		const cJSON *arr = cJSON_GetObjectItemCaseSensitive(set, key);
		const cJSON *count = cJSON_GetObjectItemCaseSensitive(counts, key);
		collect c;
		geolist want;
		char what[160];

		memset(&c, 0, sizeof c);
		memset(&want, 0, sizeof want);
		c.n_expected = n;
		assert_int_equal(gs_mig_enumerate(g, allowed, n, which, collect_fn, &c,
		                                  &err),
		                 0);
		assert_false(c.bad_profiles);
		truth_list(arr, &want);
		assert_true(cJSON_IsNumber(count));
		assert_int_equal(want.n, (size_t)count->valueint);
		assert_int_equal(c.list.n, (size_t)count->valueint);
		snprintf(what, sizeof what, "%s %s %s", g->name, tc->set, key);
		compare_lists(what, &c.list, &want);
		geolist_free(&c.list);
		geolist_free(&want);
	}

	/* Every feasible geometry fits with legal, disjoint starts. */
	{
		const cJSON *geo;
		cJSON_ArrayForEach(geo, cJSON_GetObjectItemCaseSensitive(set, "feasible")) {
			const gs_mig_profile *ps[MAX_GEOM];
			size_t k = geometry_profiles(g, geo, ps);
			char *label = cJSON_PrintUnformatted(geo);
			check_fits(g, ps, k, label);
			cJSON_free(label);
		}
	}

	/* Nothing of the set joins a maximal geometry. */
	{
		const cJSON *geo;
		cJSON_ArrayForEach(geo, cJSON_GetObjectItemCaseSensitive(set, "maximal")) {
			const gs_mig_profile *ps[MAX_GEOM + 1];
			size_t k = geometry_profiles(g, geo, ps);
			for (size_t a = 0; a < n; a++) {
				int rc;
				ps[k] = allowed[a];
				rc = gs_mig_fit(g, ps, k + 1, NULL, &err);
				if (rc != GS_ENOFIT) {
					char *label = cJSON_PrintUnformatted(geo);
					fail_msg("%s: %s + %s returned %d, want GS_ENOFIT",
					         g->name, label, allowed[a]->name, rc);
				}
			}
		}
	}
}

/* The classic set's physical layouts: every one is a legal placement. */
static void test_truth_layouts(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_MODELS; i++) {
		const gs_gpu *g = gpu(models[i].model);
		const cJSON *entry = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(truth, "gpus"), models[i].key);
		const cJSON *classic = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(entry, "sets"), "classic");
		const cJSON *layouts =
		    cJSON_GetObjectItemCaseSensitive(classic, "maximal_layouts");
		const cJSON *lay;
		size_t count = 0;

		assert_true(cJSON_IsArray(layouts));
		cJSON_ArrayForEach(lay, layouts) {
			const gs_mig_profile *ps[MAX_GEOM];
			uint64_t used = 0;
			size_t k = 0;
			const cJSON *t;
			char *label = cJSON_PrintUnformatted(lay);

			cJSON_ArrayForEach(t, lay) {
				const char *name = cJSON_GetArrayItem(t, 0)->valuestring;
				int start = cJSON_GetArrayItem(t, 1)->valueint;
				int size = cJSON_GetArrayItem(t, 2)->valueint;
				uint64_t w;
				assert_true(k < MAX_GEOM);
				ps[k] = prof(g, name);
				/* The layout's own placement is legal for our data. */
				if (ps[k]->memory_slices != size || !legal_start(ps[k], start))
					fail_msg(
					    "%s: %s: %s at %d size %d is not a legal placement "
					    "(size %d)",
					    g->name, label, name, start, size,
					    ps[k]->memory_slices);
				w = ((UINT64_C(1) << size) - 1) << start;
				assert_int_equal(used & w, 0);
				used |= w;
				k++;
			}
			check_fits(g, ps, k, label);
			cJSON_free(label);
			count++;
		}
		assert_int_equal(count, g->mig_slots == 8 ? 19 : 5);
		if (strcmp(g->name, "A100-SXM4-40GB") == 0)
			assert_int_equal(count, 19);
		if (strcmp(g->name, "A30") == 0)
			assert_int_equal(count, 5);
	}
}

/* ---- explicit cases on A100-SXM4-40GB ------------------------------------ */

#define A100 "A100-SXM4-40GB"

static int fit_names(const gs_gpu *g, const char *const *names, size_t n,
                     int *starts, gs_error *err)
{
	const gs_mig_profile *ps[MAX_GEOM + 8];
	assert_true(n <= MAX_GEOM + 8);
	for (size_t i = 0; i < n; i++)
		ps[i] = prof(g, names[i]);
	return gs_mig_fit(g, ps, n, starts, err);
}

static void test_fit_too_many_memory_slices(void **state)
{
	static const char *const geo[] = { "3g.20gb", "3g.20gb", "1g.5gb" };
	gs_error err;
	(void)state;
	memset(&err, 0, sizeof err);
	assert_int_equal(fit_names(gpu(A100), geo, 3, NULL, &err), GS_ENOFIT);
	assert_int_equal(err.code, GS_ENOFIT);
	assert_string_equal(err.msg, "needs 9 memory slices, A100-SXM4-40GB has 8");
	assert_gs_error(&err, "error: needs 9 memory slices, A100-SXM4-40GB has 8");
}

static void test_fit_4g_3g(void **state)
{
	static const char *const geo[] = { "4g.20gb", "3g.20gb" };
	int starts[2] = { -1, -1 };
	gs_error err;
	(void)state;
	memset(&err, 0, sizeof err);
	assert_gs_ok(fit_names(gpu(A100), geo, 2, starts, &err), &err);
	assert_int_equal(starts[0], 0);
	assert_int_equal(starts[1], 4);
	/* Given in the other order, each profile keeps its own start. */
	{
		static const char *const rev[] = { "3g.20gb", "4g.20gb" };
		assert_gs_ok(fit_names(gpu(A100), rev, 2, starts, &err), &err);
		assert_int_equal(starts[0], 4);
		assert_int_equal(starts[1], 0);
	}
}

/* 4g+2g+2g has no placement either (the second 2g.10gb would need slot 6,
 * not one of its starts), but the compute-slice budget is checked first
 * and is what the message gives, as tests/cli/cases/mig_check_compute
 * pins for the CLI. The placement message itself is checked on a made-up
 * GPU below (test_fit_placement_message). */
static void test_fit_4g_2g_2g(void **state)
{
	static const char *const geo[] = { "4g.20gb", "2g.10gb", "2g.10gb" };
	gs_error err;
	(void)state;
	memset(&err, 0, sizeof err);
	assert_int_equal(fit_names(gpu(A100), geo, 3, NULL, &err), GS_ENOFIT);
	assert_int_equal(err.code, GS_ENOFIT);
	assert_string_equal(err.msg, "needs 8 compute slices, A100-SXM4-40GB has 7");
}

static void test_fit_3g_2g_2g(void **state)
{
	static const char *const geo[] = { "3g.20gb", "2g.10gb", "2g.10gb" };
	int starts[3] = { -1, -1, -1 };
	gs_error err;
	(void)state;
	memset(&err, 0, sizeof err);
	assert_gs_ok(fit_names(gpu(A100), geo, 3, starts, &err), &err);
	assert_int_equal(starts[0], 4);
	assert_int_equal(starts[1], 0);
	assert_int_equal(starts[2], 2);
}

static void test_fit_1g10gb_and_1g5gb(void **state)
{
	static const char *const fits[] = { "1g.10gb", "1g.10gb", "1g.10gb",
		                                "1g.5gb", "1g.5gb" };
	static const char *const over[] = { "1g.10gb", "1g.10gb", "1g.10gb",
		                                "1g.10gb", "1g.5gb" };
	const gs_gpu *g = gpu(A100);
	const gs_mig_profile *ps[5];
	gs_error err;

	(void)state;
	memset(&err, 0, sizeof err);
	for (size_t i = 0; i < 5; i++)
		ps[i] = prof(g, fits[i]);
	check_fits(g, ps, 5, "1g.10gb x3 + 1g.5gb x2");
	assert_int_equal(fit_names(g, over, 5, NULL, &err), GS_ENOFIT);
	assert_string_equal(err.msg, "needs 9 memory slices, A100-SXM4-40GB has 8");
}

static void test_fit_count_limits(void **state)
{
	static const char *const eight[] = { "1g.5gb", "1g.5gb", "1g.5gb", "1g.5gb",
		                                 "1g.5gb", "1g.5gb", "1g.5gb", "1g.5gb" };
	static const char *const me[] = { "1g.5gb+me", "1g.5gb+me" };
	gs_error err;
	(void)state;
	memset(&err, 0, sizeof err);
	assert_int_equal(fit_names(gpu(A100), eight, 8, NULL, &err), GS_ENOFIT);
	assert_string_equal(err.msg,
	                    "8 instances of 1g.5gb, but A100-SXM4-40GB allows at most 7");
	assert_int_equal(fit_names(gpu(A100), me, 2, NULL, &err), GS_ENOFIT);
	assert_string_equal(err.msg,
	                    "2 instances of 1g.5gb+me, but A100-SXM4-40GB allows at most 1");
	/* Seven fit, one per slot 0..6. */
	{
		int starts[7];
		assert_gs_ok(fit_names(gpu(A100), eight, 7, starts, &err), &err);
		for (int i = 0; i < 7; i++)
			assert_int_equal(starts[i], i);
	}
}

/* The media-engine budget: two +me profiles need two NVJPGs, A30 has one. */
static void test_fit_engine_budget(void **state)
{
	static const char *const geo[] = { "2g.12gb+me", "1g.6gb+me" };
	gs_error err;
	(void)state;
	memset(&err, 0, sizeof err);
	assert_int_equal(fit_names(gpu("A30"), geo, 2, NULL, &err), GS_ENOFIT);
	assert_string_equal(err.msg, "needs 2 NVJPG, A30 has 1");
}

static void test_fit_empty_and_foreign(void **state)
{
	const gs_gpu *a = gpu(A100), *h = gpu("H100-SXM5-80GB");
	const gs_mig_profile *ps[2];
	gs_error err;

	(void)state;
	memset(&err, 0, sizeof err);
	assert_int_equal(gs_mig_fit(a, NULL, 0, NULL, &err), 0);
	ps[0] = prof(a, "3g.20gb");
	ps[1] = prof(h, "3g.40gb");
	assert_int_equal(gs_mig_fit(a, ps, 2, NULL, &err), GS_EINVAL);
	assert_string_equal(err.msg, "profile is not one of A100-SXM4-40GB's");
	assert_int_equal(gs_mig_max_count(a, ps[1]), 0);
}

static void test_max_count(void **state)
{
	const gs_gpu *a = gpu(A100);
	(void)state;
	assert_int_equal(gs_mig_max_count(a, prof(a, "1g.5gb")), 7);
	assert_int_equal(gs_mig_max_count(a, prof(a, "1g.10gb")), 4);
	assert_int_equal(gs_mig_max_count(a, prof(a, "2g.10gb")), 3);
	assert_int_equal(gs_mig_max_count(a, prof(a, "3g.20gb")), 2);
	assert_int_equal(gs_mig_max_count(a, prof(a, "4g.20gb")), 1);
	assert_int_equal(gs_mig_max_count(a, prof(a, "7g.40gb")), 1);
	assert_int_equal(gs_mig_max_count(a, prof(a, "1g.5gb+me")), 1);
}

static void test_profile_find_drift(void **state)
{
	const gs_gpu *a40 = gpu(A100), *a80 = gpu("A100-SXM4-80GB");
	const gs_mig_profile *p;
	(void)state;

	p = gs_mig_profile_find(a80, "7g.79gb");
	assert_non_null(p);
	assert_string_equal(p->name, "7g.80gb");
	assert_ptr_equal(p, gs_mig_profile_find(a80, "7g.80gb"));
	p = gs_mig_profile_find(a80, "3g.39gb");
	assert_non_null(p);
	assert_string_equal(p->name, "3g.40gb");
	/* A variant drifts too, and stays a variant. */
	p = gs_mig_profile_find(a80, "1g.11gb+me");
	assert_non_null(p);
	assert_string_equal(p->name, "1g.10gb+me");
	/* Exact names win, and differ between models. */
	p = gs_mig_profile_find(a40, "1g.10gb");
	assert_non_null(p);
	assert_string_equal(p->name, "1g.10gb");
	assert_int_equal(p->memory_slices, 2);
	assert_int_equal(p->compute_slices, 1);
	p = gs_mig_profile_find(a80, "1g.10gb");
	assert_non_null(p);
	assert_string_equal(p->name, "1g.10gb");
	assert_int_equal(p->memory_slices, 1);
	/* Exact matching ignores case. */
	p = gs_mig_profile_find(a40, "3G.20GB");
	assert_non_null(p);
	assert_string_equal(p->name, "3g.20gb");
	assert_null(gs_mig_profile_find(a80, "9g.5gb"));
	assert_null(gs_mig_profile_find(a80, "bogus"));
	assert_null(gs_mig_profile_find(a40, ""));
	/* Not a drift: a different size class. */
	assert_null(gs_mig_profile_find(a40, "7g.80gb"));
}

static void test_no_mig(void **state)
{
	const gs_gpu *t4 = gpu("T4"), *a = gpu(A100);
	const gs_mig_profile *ps[1];
	gs_error err;
	(void)state;

	memset(&err, 0, sizeof err);
	assert_int_equal(t4->mig_slots, 0);
	assert_int_equal(t4->n_mig_profiles, 0);
	assert_null(gs_mig_profile_find(t4, "1g.5gb"));
	ps[0] = prof(a, "1g.5gb");
	assert_int_equal(gs_mig_fit(t4, ps, 1, NULL, &err), GS_EINVAL);
	assert_string_equal(err.msg, "T4 does not support MIG");
	assert_gs_error(&err, "error: T4 does not support MIG");
	memset(&err, 0, sizeof err);
	assert_int_equal(gs_mig_fit(t4, NULL, 0, NULL, &err), GS_EINVAL);
	assert_string_equal(err.msg, "T4 does not support MIG");
	memset(&err, 0, sizeof err);
	assert_int_equal(gs_mig_enumerate(t4, NULL, 0, GS_MIG_FEASIBLE, collect_fn,
	                                  NULL, &err),
	                 GS_EINVAL);
	assert_string_equal(err.msg, "T4 does not support MIG");
	assert_int_equal(gs_mig_max_count(t4, ps[0]), 0);
}

/* allowed == NULL means every profile of the GPU: on A100-SXM4-40GB that is
 * the truth's `all` set. A non-zero callback return stops the walk. */
static int stop_at_third(const gs_mig_profile *const *profiles,
                         const size_t *counts, size_t n, void *ud)
{
	int *seen = ud;
	(void)profiles;
	(void)counts;
	(void)n;
	return ++*seen == 3 ? 42 : 0;
}

static void test_enumerate_all_and_stop(void **state)
{
	const gs_gpu *a = gpu(A100);
	collect c;
	int seen = 0;
	gs_error err;
	(void)state;

	memset(&err, 0, sizeof err);
	memset(&c, 0, sizeof c);
	c.n_expected = a->n_mig_profiles;
	assert_int_equal(gs_mig_enumerate(a, NULL, 0, GS_MIG_MAXIMAL, collect_fn, &c,
	                                  &err),
	                 0);
	assert_false(c.bad_profiles);
	assert_int_equal(c.list.n, 44);
	assert_string_equal(c.list.items[0], "7g.40gb");
	assert_string_equal(c.list.items[1], "4g.20gb,3g.20gb");
	assert_string_equal(c.list.items[43],
	                    "1g.5gb,1g.5gb,1g.5gb,1g.5gb,1g.5gb,1g.5gb,1g.5gb+me");
	geolist_free(&c.list);
	assert_int_equal(gs_mig_enumerate(a, NULL, 0, GS_MIG_FEASIBLE, stop_at_third,
	                                  &seen, &err),
	                 42);
	assert_int_equal(seen, 3);
}

/* ---- RTX PRO 6000: NVML's 12-unit placement grid ------------------------- */

#define RTX "RTX-PRO-6000"

/* Instances land on NVML's own starts (1g at 0/3/6/9, 2g at 0/6), so
 * `nvidia-smi mig -cgi ID:START` takes what gs_mig_fit returns. */
static void test_rtx_grid(void **state)
{
	static const char *const geo[] = { "1g.24gb", "2g.48gb", "1g.24gb" };
	static const char *const four[] = { "1g.24gb", "1g.24gb", "1g.24gb",
		                                "1g.24gb" };
	const gs_gpu *g = gpu(RTX);
	int starts[4] = { -1, -1, -1, -1 };
	gs_error err;
	(void)state;

	memset(&err, 0, sizeof err);
	assert_int_equal(g->mig_slots, 12);
	assert_int_equal(g->mig_compute_slices, 4);
	assert_gs_ok(fit_names(g, geo, 3, starts, &err), &err);
	assert_int_equal(starts[1], 0);
	assert_int_equal(starts[0], 6);
	assert_int_equal(starts[2], 9);
	assert_gs_ok(fit_names(g, four, 4, starts, &err), &err);
	for (int i = 0; i < 4; i++)
		assert_int_equal(starts[i], 3 * i);
	assert_int_equal(gs_mig_max_count(g, prof(g, "1g.24gb")), 4);
	assert_int_equal(gs_mig_max_count(g, prof(g, "2g.48gb")), 2);
	assert_int_equal(gs_mig_max_count(g, prof(g, "4g.96gb")), 1);
	assert_int_equal(gs_mig_max_count(g, prof(g, "1g.24gb+me.all")), 1);
}

/* A fifth 1g.24gb and a 4g beside anything fail on the budgets; +me.all
 * takes every media engine, so only -me profiles may join it. */
static void test_rtx_limits(void **state)
{
	static const char *const five[] = { "1g.24gb", "1g.24gb", "1g.24gb",
		                                "1g.24gb", "1g.24gb" };
	static const char *const big[] = { "4g.96gb", "1g.24gb" };
	static const char *const all_me[] = { "2g.48gb+me.all", "1g.24gb" };
	static const char *const all_me_ok[] = { "2g.48gb+me.all", "1g.24gb-me",
		                                     "1g.24gb-me" };
	const gs_gpu *g = gpu(RTX);
	gs_error err;
	(void)state;

	memset(&err, 0, sizeof err);
	assert_int_equal(fit_names(g, five, 5, NULL, &err), GS_ENOFIT);
	assert_string_equal(err.msg,
	                    "5 instances of 1g.24gb, but RTX-PRO-6000 allows at most 4");
	assert_int_equal(fit_names(g, big, 2, NULL, &err), GS_ENOFIT);
	assert_string_equal(err.msg, "needs 15 memory slices, RTX-PRO-6000 has 12");
	assert_int_equal(fit_names(g, all_me, 2, NULL, &err), GS_ENOFIT);
	assert_string_equal(err.msg, "needs 5 NVDEC, RTX-PRO-6000 has 4");
	assert_gs_ok(fit_names(g, all_me_ok, 3, NULL, &err), &err);
}

/* ---- made-up GPUs: tests/fixtures/unit/mig --------------------------------- */

#define ODD_PROFILES "fixtures/unit/mig"

static int count_fn(const gs_mig_profile *const *profiles, const size_t *counts,
                    size_t n, void *ud)
{
	size_t *seen = ud;
	(void)profiles;
	(void)counts;
	(void)n;
	++*seen;
	return 0;
}

/* Two 2g.2gb fit 4 slots and 4 compute slices, but their legal starts 0
 * and 1 overlap: the placement itself is what fails. */
static void test_fit_placement_message(void **state)
{
	gs_catalog *odd = NULL;
	const gs_gpu *g;
	const gs_mig_profile *ps[2];
	gs_error err;
	(void)state;

	memset(&err, 0, sizeof err);
	assert_gs_ok(gs_catalog_load(ODD_PROFILES, &odd, &err), &err);
	g = gs_gpu_find(odd, "Test-Narrow-4");
	assert_non_null(g);
	ps[0] = ps[1] = gs_mig_profile_find(g, "2g.2gb");
	assert_non_null(ps[0]);
	assert_int_equal(gs_mig_fit(g, ps, 2, NULL, &err), GS_ENOFIT);
	assert_string_equal(err.msg, "no placement without overlapping memory slices: "
	                             "2g.2gb can start only at slots 0, 1");
	assert_int_equal(gs_mig_max_count(g, ps[0]), 1);
	gs_catalog_free(odd);
}

/* The loader allows 32 slots; a 1-slot profile with max_count 32 gives the
 * geometries of 1..32 instances, and only the full one is maximal. The
 * walk runs in a child process so that a sanitizer abort in it fails this
 * test alone. */
static int walk_wide(const gs_gpu *g, int which)
{
	size_t seen = 0;
	gs_error err;
	memset(&err, 0, sizeof err);
	if (gs_mig_enumerate(g, NULL, 0, which, count_fn, &seen, &err) != 0)
		return -1;
	return (int)seen;
}

static void test_enumerate_32_slots(void **state)
{
	gs_catalog *odd = NULL;
	const gs_gpu *g;
	const gs_mig_profile *ps[32];
	gs_error err;
	pid_t pid;
	int status = 0;
	(void)state;

	memset(&err, 0, sizeof err);
	assert_gs_ok(gs_catalog_load(ODD_PROFILES, &odd, &err), &err);
	g = gs_gpu_find(odd, "Test-Wide-32");
	assert_non_null(g);
	assert_int_equal(g->mig_slots, 32);
	for (int i = 0; i < 32; i++)
		ps[i] = &g->mig_profiles[0];
	assert_int_equal(gs_mig_fit(g, ps, 32, NULL, &err), 0);
	assert_int_equal(gs_mig_max_count(g, ps[0]), 32);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int feasible = walk_wide(g, GS_MIG_FEASIBLE);
		int maximal = walk_wide(g, GS_MIG_MAXIMAL);
		_exit(feasible == 32 && maximal == 1 ? 0 : 3);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	gs_catalog_free(odd);
	if (!WIFEXITED(status))
		fail_msg("gs_mig_enumerate on a 32-slot GPU died (signal %d)",
		         WTERMSIG(status));
	if (WEXITSTATUS(status) != 0)
		fail_msg("gs_mig_enumerate on a 32-slot GPU: exit status %d "
		         "(3: wrong geometry counts, else a sanitizer abort)",
		         WEXITSTATUS(status));
}

int main(void)
{
	struct CMUnitTest tests[4 + N_MODELS * N_SETS + 20];
	size_t n = 0;

#define ADD(fn) tests[n++] = (struct CMUnitTest)cmocka_unit_test(fn)
	ADD(test_truth_keys_all_mapped);
	for (size_t m = 0; m < N_MODELS; m++)
		for (size_t s = 0; s < N_SETS; s++) {
			set_case *tc = &set_cases[m * N_SETS + s];
			tc->map = &models[m];
			tc->set = set_names[s];
			snprintf(tc->label, sizeof tc->label, "truth %s %s", models[m].model,
			         set_names[s]);
			tests[n++] = (struct CMUnitTest){ tc->label, test_truth_set, NULL,
				                              NULL, tc };
		}
	ADD(test_truth_layouts);
	ADD(test_fit_too_many_memory_slices);
	ADD(test_fit_4g_3g);
	ADD(test_fit_4g_2g_2g);
	ADD(test_fit_3g_2g_2g);
	ADD(test_fit_1g10gb_and_1g5gb);
	ADD(test_fit_count_limits);
	ADD(test_fit_engine_budget);
	ADD(test_fit_empty_and_foreign);
	ADD(test_max_count);
	ADD(test_profile_find_drift);
	ADD(test_no_mig);
	ADD(test_enumerate_all_and_stop);
	ADD(test_rtx_grid);
	ADD(test_rtx_limits);
	ADD(test_fit_placement_message);
	ADD(test_enumerate_32_slots);
#undef ADD
	return _cmocka_run_group_tests("test_mig", tests, n, group_setup,
	                               group_teardown);
}
