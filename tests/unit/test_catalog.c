/*
 * test_catalog.c - the profile loader: the shipped profiles, lookups and
 * suggestions, and the exact located error of every kind of broken
 * profile file (written to a scratch directory under /tmp).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

/* ---- the shipped profiles --------------------------------------------------- */

static gs_catalog *shipped;

static int group_setup(void **state)
{
	gs_error err;
	(void)state;
	memset(&err, 0, sizeof err);
	assert_gs_ok(gs_catalog_load(TEST_PROFILES, &shipped, &err), &err);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	gs_catalog_free(shipped);
	return 0;
}

/* What profiles/ ships: one model per file under gpus/, and the instance rows. */
#define SHIPPED_GPUS 25
#define SHIPPED_INSTANCES 86

static void test_shipped_counts(void **state)
{
	(void)state;
	assert_int_equal(gs_catalog_gpu_count(shipped), SHIPPED_GPUS);
	assert_int_equal(gs_catalog_instance_count(shipped), SHIPPED_INSTANCES);
	assert_non_null(gs_catalog_gpu_at(shipped, SHIPPED_GPUS - 1));
	assert_null(gs_catalog_gpu_at(shipped, SHIPPED_GPUS));
	assert_non_null(gs_catalog_instance_at(shipped, SHIPPED_INSTANCES - 1));
	assert_null(gs_catalog_instance_at(shipped, SHIPPED_INSTANCES));
	/* Every instance points into the catalog's GPUs. */
	for (size_t i = 0; i < SHIPPED_INSTANCES; i++) {
		const gs_instance *in = gs_catalog_instance_at(shipped, i);
		assert_ptr_equal(gs_gpu_find(shipped, in->gpu->name), in->gpu);
	}
}

static void test_gpu_find(void **state)
{
	const gs_gpu *g;
	(void)state;

	g = gs_gpu_find(shipped, "a100-40gb");
	assert_non_null(g);
	assert_string_equal(g->name, "A100-SXM4-40GB");
	assert_ptr_equal(gs_gpu_find(shipped, "A100-SXM4-40GB"), g);
	assert_ptr_equal(gs_gpu_find(shipped, "NVIDIA-A100-SXM4-40GB"), g);
	assert_ptr_equal(gs_gpu_find(shipped, "nvidia a100-sxm4-40gb"), g);
	g = gs_gpu_find(shipped, "Tesla-T4");
	assert_non_null(g);
	assert_string_equal(g->name, "T4");
	assert_ptr_equal(gs_gpu_find(shipped, "tesla t4"), g);
	assert_null(gs_gpu_find(shipped, "A100"));
	assert_null(gs_gpu_find(shipped, "A100-40GBX"));
	assert_null(gs_gpu_find(shipped, ""));
	assert_null(gs_gpu_find(shipped, NULL));

	/* What a GPU record holds. */
	g = gs_gpu_find(shipped, "A100-SXM4-40GB");
	assert_string_equal(g->architecture, "Ampere");
	assert_int_equal(g->cc_major, 8);
	assert_int_equal(g->cc_minor, 0);
	assert_int_equal(g->memory_mib, 40960);
	assert_int_equal(g->sm_count, 108);
	assert_int_equal(g->fp16_mtflops, 312000);
	assert_int_equal(g->mig_slots, 8);
	assert_int_equal(g->mig_compute_slices, 7);
	assert_int_equal(g->n_mig_profiles, 7);
	assert_int_equal(g->n_aliases, 3);
	assert_string_equal(g->aliases[2], "NVIDIA A100-SXM4-40GB");
	assert_string_equal(g->file, "../profiles/gpus/a100-sxm4-40gb.yaml");
	/* Profiles sorted big to small, by compute then memory slices. */
	assert_string_equal(g->mig_profiles[0].name, "7g.40gb");
	assert_string_equal(g->mig_profiles[6].name, "1g.5gb+me");
	assert_string_equal(g->mig_profiles[6].variant, "+me");
	assert_null(g->mig_profiles[0].variant);
	assert_int_equal(g->mig_profiles[0].memory_mib, 40192);
	g = gs_gpu_find(shipped, "B200");
	assert_int_equal(g->cc_major, 10);
	assert_int_equal(g->cc_minor, 0);
	assert_false(g->mig_has_engines);
	g = gs_gpu_find(shipped, "T4");
	assert_int_equal(g->mig_slots, 0);
	assert_null(g->mig_profiles);
}

/* Usable memory is what the driver reports less its reserve (public
 * nvidia-smi -q captures); no capture: nothing subtracted. Every shipped
 * model has a memory bandwidth for bandwidth-bound conversions. */
static void test_usable_memory(void **state)
{
	static const struct {
		const char *name;
		int64_t reserve, usable;
		int bandwidth;
	} want[] = {
		{ "L4", 556, 22478, 300 },
		{ "A10G", 304, 22724, 600 },
		{ "A10", 526, 22502, 600 },
		{ "T4", 393, 14967, 320 },
		{ "T4G", 393, 14967, 320 },
		{ "A100-SXM4-40GB", 620, 40340, 1555 },
		{ "A100-SXM4-80GB", 763, 81157, 2039 },
		{ "H100-SXM5-80GB", 454, 81105, 3350 },
		{ "H100-NVL-94GB", 594, 95236, 3900 },
		{ "H200-SXM-141GB", 700, 143071, 4800 },
		{ "A30", 0, 24576, 933 },
		{ "RTX-PRO-6000", 0, 97887, 1597 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const gs_gpu *g = gs_gpu_find(shipped, want[i].name);
		assert_non_null(g);
		assert_int_equal(g->memory_reserve_mib, want[i].reserve);
		assert_int_equal(g->usable_memory_mib, want[i].usable);
		assert_int_equal(g->memory_bandwidth_gbs, want[i].bandwidth);
	}
	for (size_t i = 0; i < SHIPPED_GPUS; i++) {
		const gs_gpu *g = gs_catalog_gpu_at(shipped, i);
		assert_int_equal(g->usable_memory_mib + g->memory_reserve_mib, g->memory_mib);
		assert_true(g->memory_bandwidth_gbs > 0);
	}
}

/* Models added for the names real clusters report (gpu-feature-discovery's
 * nvidia.com/gpu.product label and the nvidia-smi name both resolve), and
 * the facts the planner reads from them. */
static void test_added_models(void **state)
{
	const gs_gpu *g;
	(void)state;

	/* A800s: A100 silicon and MIG geometry under their own names. */
	g = gs_gpu_find(shipped, "NVIDIA-A800-SXM4-80GB");
	assert_non_null(g);
	assert_string_equal(g->name, "A800-SXM4-80GB");
	assert_ptr_equal(gs_gpu_find(shipped, "NVIDIA A800-SXM4-80GB"), g);
	assert_ptr_equal(gs_gpu_find(shipped, "A800-80GB"), g);
	assert_int_equal(g->memory_mib, 81920);
	assert_int_equal(g->sm_count, 108);
	assert_int_equal(g->mig_slots, 8);
	assert_int_equal(g->n_mig_profiles, 7);
	g = gs_gpu_find(shipped, "NVIDIA-A800-80GB-PCIe");
	assert_non_null(g);
	assert_string_equal(g->name, "A800-PCIE-80GB");
	g = gs_gpu_find(shipped, "NVIDIA-A800-40GB-Active");
	assert_non_null(g);
	assert_string_equal(g->name, "A800-PCIE-40GB");
	assert_int_equal(g->memory_mib, 40960);
	assert_string_equal(g->mig_profiles[6].name, "1g.5gb+me");

	/* L40: not L40S, and no MIG. */
	g = gs_gpu_find(shipped, "NVIDIA-L40");
	assert_non_null(g);
	assert_string_equal(g->name, "L40");
	assert_ptr_equal(gs_gpu_find(shipped, "NVIDIA L40"), g);
	assert_ptr_not_equal(gs_gpu_find(shipped, "NVIDIA-L40S"), g);
	assert_int_equal(g->cc_major, 8);
	assert_int_equal(g->cc_minor, 9);
	assert_int_equal(g->memory_mib, 46068);
	assert_int_equal(g->fp16_mtflops, 181000);
	assert_int_equal(g->mig_slots, 0);
	assert_int_equal(g->mps_max_clients, 48);

	/* GH200: both products report the same 96 GB Hopper GPU. */
	g = gs_gpu_find(shipped, "NVIDIA-GH200-480GB");
	assert_non_null(g);
	assert_string_equal(g->name, "GH200-96GB");
	assert_ptr_equal(gs_gpu_find(shipped, "NVIDIA GH200 480GB"), g);
	assert_ptr_equal(gs_gpu_find(shipped, "NVIDIA-GH200-120GB"), g);
	assert_int_equal(g->memory_mib, 97871);
	assert_int_equal(g->sm_count, 132);
	assert_int_equal(g->mig_slots, 8);
	assert_int_equal(g->mig_compute_slices, 7);
	assert_int_equal(g->n_mig_profiles, 7);
	assert_string_equal(g->mig_profiles[0].name, "7g.96gb");
	assert_int_equal(g->mig_profiles[0].memory_mib, 95232);
	assert_string_equal(g->mig_profiles[4].name, "1g.24gb");
	assert_int_equal(g->mig_profiles[4].sm_count, 26);

	/* RTX PRO 6000: CC 12.0, and NVML's 12-unit placement grid. */
	g = gs_gpu_find(shipped, "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition");
	assert_non_null(g);
	assert_string_equal(g->name, "RTX-PRO-6000");
	assert_ptr_equal(gs_gpu_find(shipped, "RTX-PRO-6000-96GB"), g);
	assert_ptr_equal(gs_gpu_find(shipped, "NVIDIA RTX PRO 6000 Blackwell Workstation Edition"),
	                 g);
	assert_int_equal(g->cc_major, 12);
	assert_int_equal(g->cc_minor, 0);
	assert_int_equal(g->memory_mib, 97887);
	assert_int_equal(g->sm_count, 188);
	assert_int_equal(g->fp16_mtflops, 503800);
	assert_int_equal(g->mig_slots, 12);
	assert_int_equal(g->mig_compute_slices, 4);
	assert_true(g->mig_has_engines);
	assert_int_equal(g->n_mig_profiles, 11);
	assert_string_equal(g->mig_profiles[0].name, "4g.96gb");
	assert_int_equal(g->mig_profiles[0].memory_slices, 12);
	assert_string_equal(g->mig_profiles[10].name, "1g.24gb-me");
	assert_string_equal(g->mig_profiles[10].variant, "-me");
	assert_int_equal(g->mig_profiles[10].n_starts, 4);
	assert_int_equal(g->mig_profiles[10].starts[3], 9);
}

static void test_instance_find(void **state)
{
	const gs_instance *in;
	(void)state;

	in = gs_instance_find(shipped, "p3.2xlarge");
	assert_non_null(in);
	assert_string_equal(in->type, "p3.2xlarge");
	assert_string_equal(in->cloud, "aws");
	assert_string_equal(in->region, "us-east-1");
	assert_int_equal(in->on_demand, 3060000);
	assert_int_equal(in->spot, 394100);
	assert_string_equal(in->gpu->name, "V100-SXM2-16GB");
	assert_int_equal(in->gpu_count, 1);
	assert_int_equal(in->vcpus, 8);
	assert_int_equal(in->ram_mib, 61 * 1024);
	assert_string_equal(in->source, "karpenter-2026-07-20");
	assert_string_equal(in->price_date, "2026-07-20");
	assert_ptr_equal(gs_instance_find(shipped, "P3.2XLARGE"), in);

	in = gs_instance_find(shipped, "p3.8xlarge");
	assert_non_null(in);
	assert_int_equal(in->on_demand, 12240000);
	assert_int_equal(in->gpu_count, 4);
	assert_string_equal(in->gpu->name, "V100-SXM2-16GB");

	in = gs_instance_find(shipped, "p4d.24xlarge");
	assert_non_null(in);
	assert_int_equal(in->on_demand, 21957642);
	assert_int_equal(in->gpu_count, 8);
	assert_string_equal(in->gpu->name, "A100-SXM4-40GB");

	assert_null(gs_instance_find(shipped, "p3.2xlarg"));
	assert_null(gs_instance_find(shipped, NULL));
}

/* Graviton (g5g) hosts are arm64; every other shipped instance is amd64. */
static void test_instance_arch(void **state)
{
	size_t arm = 0;
	(void)state;
	assert_int_equal(gs_instance_find(shipped, "p3.2xlarge")->arch, GS_ARCH_AMD64);
	assert_int_equal(gs_instance_find(shipped, "g5g.xlarge")->arch, GS_ARCH_ARM64);
	assert_int_equal(gs_instance_find(shipped, "g5g.metal")->arch, GS_ARCH_ARM64);
	assert_int_equal(gs_instance_find(shipped, "g4dn.xlarge")->arch, GS_ARCH_AMD64);
	for (size_t i = 0; i < gs_catalog_instance_count(shipped); i++) {
		const gs_instance *in = gs_catalog_instance_at(shipped, i);
		if (in->arch == GS_ARCH_ARM64) {
			assert_string_equal(in->gpu->name, "T4G");
			arm++;
		}
	}
	assert_int_equal(arm, 6);
	assert_string_equal(gs_arch_name(GS_ARCH_AMD64), "amd64");
	assert_string_equal(gs_arch_name(GS_ARCH_ARM64), "arm64");
	assert_string_equal(gs_arch_name(GS_ARCH_ANY), "any");
}

static void test_mps_clients(void **state)
{
	(void)state;
	/* CC 7.0 gets 16 clients, 7.5 and later 48. */
	assert_int_equal(gs_gpu_find(shipped, "V100-SXM2-16GB")->mps_max_clients, 16);
	assert_int_equal(gs_gpu_find(shipped, "V100-PCIE-16GB")->mps_max_clients, 16);
	assert_int_equal(gs_gpu_find(shipped, "T4")->mps_max_clients, 48);
	assert_int_equal(gs_gpu_find(shipped, "A100-SXM4-40GB")->mps_max_clients, 48);
	assert_int_equal(gs_gpu_find(shipped, "B200")->mps_max_clients, 48);
}

static void test_suggest(void **state)
{
	const char *s;
	(void)state;

	s = gs_instance_suggest(shipped, "p3.2xlarg");
	assert_non_null(s);
	assert_string_equal(s, "p3.2xlarge");
	s = gs_gpu_suggest(shipped, "A100-SXM4-40G");
	assert_non_null(s);
	assert_string_equal(s, "A100-SXM4-40GB");
	/* An alias that is close suggests the canonical name. */
	s = gs_gpu_suggest(shipped, "Tesla-T5");
	assert_non_null(s);
	assert_string_equal(s, "T4");
	assert_null(gs_gpu_suggest(shipped, "zzzzzz"));
	assert_null(gs_instance_suggest(shipped, "zzzzzz"));
}

/* ---- broken profiles ------------------------------------------------------- */

typedef struct file_spec {
	const char *path; /* relative to the scratch directory */
	const char *text;
} file_spec;

typedef struct scratch {
	char dir[64];
	char *made[32]; /* files and directories, to remove in reverse */
	size_t n;
} scratch;

static void remember(scratch *s, const char *path)
{
	assert_true(s->n < 32);
	s->made[s->n] = strdup(path);
	assert_non_null(s->made[s->n]);
	s->n++;
}

static void make_dirs(scratch *s, const char *rel)
{
	char path[512];
	size_t dl = strlen(s->dir);
	snprintf(path, sizeof path, "%s/%s", s->dir, rel);
	/* Create every parent of the file, once. */
	for (char *p = path + dl + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) == 0)
			remember(s, path);
		else if (errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
}

static void scratch_make(scratch *s, const file_spec *files, size_t n)
{
	memset(s, 0, sizeof *s);
	strcpy(s->dir, "/tmp/gs-test-catalog-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	for (size_t i = 0; i < n; i++) {
		char path[512];
		FILE *f;
		make_dirs(s, files[i].path);
		snprintf(path, sizeof path, "%s/%s", s->dir, files[i].path);
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(files[i].text, 1, strlen(files[i].text), f),
		                 strlen(files[i].text));
		assert_int_equal(fclose(f), 0);
		remember(s, path);
	}
}

static void scratch_remove(scratch *s)
{
	while (s->n) {
		s->n--;
		remove(s->made[s->n]);
		free(s->made[s->n]);
	}
	rmdir(s->dir);
}

/* What a test loads from a scratch directory; freed by cleanup() even when
 * an assertion fails half-way. */
static gs_catalog *loaded;
static scratch made;

static int cleanup(void **state)
{
	(void)state;
	gs_catalog_free(loaded);
	loaded = NULL;
	if (made.dir[0])
		scratch_remove(&made);
	memset(&made, 0, sizeof made);
	return 0;
}

/* The formatted error with the scratch directory written as "DIR". */
static void format_relative(const gs_error *err, const char *dir, char *out,
                            size_t size)
{
	char buf[1024];
	const char *p = buf;
	size_t dl = strlen(dir), o = 0;

	gs_error_format(err, buf, sizeof buf);
	while (*p && o + 4 < size) {
		if (strncmp(p, dir, dl) == 0) {
			memcpy(out + o, "DIR", 3);
			o += 3;
			p += dl;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
}

/* Loads the files as a profile directory and checks the exact error. */
static void expect_load_error(const file_spec *files, size_t n, int code,
                              const char *want)
{
	scratch s;
	gs_catalog *cat = NULL;
	gs_error err;
	char got[1024];
	int rc;

	memset(&err, 0, sizeof err);
	scratch_make(&s, files, n);
	rc = gs_catalog_load(s.dir, &cat, &err);
	format_relative(&err, s.dir, got, sizeof got);
	gs_catalog_free(rc == 0 ? cat : NULL);
	scratch_remove(&s);
	if (rc == 0)
		fail_msg("loaded, want: %s", want);
	assert_int_equal(rc, code);
	assert_int_equal(err.code, code);
	assert_string_equal(got, want);
}

#define EXPECT(code, want, ...)                                                \
	do {                                                                       \
		static const file_spec files_[] = { __VA_ARGS__ };                     \
		expect_load_error(files_, sizeof files_ / sizeof files_[0], (code),    \
		                  (want));                                             \
	} while (0)

/* A valid GPU file; cases below change one line of it. */
#define GPU_HEAD                                                               \
	"name: Test-GPU\n"                 /* 1 */                                 \
	"aliases: [TG]\n"                  /* 2 */                                 \
	"architecture: Test\n"             /* 3 */                                 \
	"compute_capability: \"8.0\"\n"   /* 4 */
#define GPU_MEM "memory: 16384MiB\n"  /* 5 */
#define GPU_SM "sm_count: 40\n"        /* 6 */
#define GPU_TAIL                                                               \
	"fp16_tflops: 65\n"                /* 7 */                                 \
	"mps: true\n"                      /* 8 */
#define GPU_OK GPU_HEAD GPU_MEM GPU_SM GPU_TAIL

/* MIG section for the valid GPU (lines 9..), with one profile whose
 * memory_slices and placements vary. */
#define MIG(ms, placements)                                                    \
	"mig:\n"                           /* 9 */                                 \
	"  slots: 8\n"                     /* 10 */                                \
	"  compute_slices: 7\n"            /* 11 */                                \
	"  profiles:\n"                    /* 12 */                                \
	"    - name: 1g.2gb\n"             /* 13 */                                \
	"      id: 19\n"                   /* 14 */                                \
	"      compute_slices: 1\n"        /* 15 */                                \
	"      memory_slices: " ms "\n"    /* 16 */                                \
	"      memory: 2048MiB\n"          /* 17 */                                \
	"      sm_count: 5\n"              /* 18 */                                \
	"      max_count: 7\n"             /* 19 */                                \
	"      placements: " placements "\n" /* 20 */

/* An instance file for Test-GPU; INSTANCE(gpu, price) varies two values. */
#define INST_HEAD                                                              \
	"cloud: test\n"                    /* 1 */                                 \
	"region: r1\n"                     /* 2 */                                 \
	"currency: USD\n"                  /* 3 */                                 \
	"sources:\n"                       /* 4 */                                 \
	"  s1: \"a source\"\n"             /* 5 */                                 \
	"instances:\n"                     /* 6 */
#define INSTANCE(type, gpu, price)                                             \
	"  - type: " type "\n"             /* +0 */                                \
	"    gpu: " gpu "\n"               /* +1 */                                \
	"    gpu_count: 1\n"               /* +2 */                                \
	"    vcpus: 8\n"                   /* +3 */                                \
	"    ram_gib: 61\n"                /* +4 */                                \
	"    on_demand: " price "\n"       /* +5 */                                \
	"    spot: null\n"                 /* +6 */                                \
	"    source: s1\n"                 /* +7 */                                \
	"    price_date: 2026-07-20\n"     /* +8 */

static void test_scratch_ok(void **state)
{
	static const file_spec files[] = {
		{ "gpus/x.yaml", GPU_OK MIG("1", "[0, 1, 2, 3, 4, 5, 6]") },
		{ "instances/i.yaml",
		  INST_HEAD INSTANCE("t1.large", "tg", "3.06")
		      INSTANCE("t1.xlarge", "Test-GPU", "0.000001") },
	};
	gs_error err;
	const gs_instance *in;
	(void)state;

	/* The base files load, so every case below fails for its one change. */
	memset(&err, 0, sizeof err);
	scratch_make(&made, files, 2);
	assert_gs_ok(gs_catalog_load(made.dir, &loaded, &err), &err);
	assert_int_equal(gs_catalog_gpu_count(loaded), 1);
	assert_int_equal(gs_catalog_instance_count(loaded), 2);
	in = gs_instance_find(loaded, "t1.large");
	assert_non_null(in);
	assert_string_equal(in->gpu->name, "Test-GPU");
	assert_string_equal(in->cloud, "test");
	assert_int_equal(in->on_demand, 3060000);
	assert_int_equal(in->spot, -1);
	assert_int_equal(gs_instance_find(loaded, "t1.xlarge")->on_demand, 1);
	assert_int_equal(gs_catalog_gpu_at(loaded, 0)->mps_max_clients, 48);
	assert_int_equal(gs_catalog_gpu_at(loaded, 0)->mig_profiles[0].n_starts, 7);
	/* memory_reserve and memory_bandwidth_gbs are optional: none known. */
	assert_int_equal(gs_catalog_gpu_at(loaded, 0)->memory_reserve_mib, 0);
	assert_int_equal(gs_catalog_gpu_at(loaded, 0)->usable_memory_mib, 16384);
	assert_int_equal(gs_catalog_gpu_at(loaded, 0)->memory_bandwidth_gbs, 0);
}

/* A reserve, rounded up to whole MiB, leaves the rest usable. */
static void test_scratch_reserve(void **state)
{
	static const file_spec files[] = {
		{ "gpus/x.yaml", GPU_HEAD GPU_MEM "memory_reserve: 0.5GiB\n"
		                 "memory_bandwidth_gbs: 320\n" GPU_SM GPU_TAIL },
		{ "instances/i.yaml", INST_HEAD INSTANCE("t1.large", "tg", "3.06") },
	};
	gs_error err;
	const gs_gpu *g;
	(void)state;
	memset(&err, 0, sizeof err);
	scratch_make(&made, files, 2);
	assert_gs_ok(gs_catalog_load(made.dir, &loaded, &err), &err);
	g = gs_catalog_gpu_at(loaded, 0);
	assert_int_equal(g->memory_reserve_mib, 512);
	assert_int_equal(g->usable_memory_mib, 15872);
	assert_int_equal(g->memory_bandwidth_gbs, 320);
}

static void test_err_memory_reserve(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:6:17: error: memory_reserve must be less than memory",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM "memory_reserve: 16GiB\n" GPU_SM GPU_TAIL });
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:6:17: error: '600' needs a unit: GiB, Gi, MiB, Mi, GB or MB",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM "memory_reserve: 600\n" GPU_SM GPU_TAIL });
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:6:23: error: 'memory_bandwidth_gbs': 0 is out of range "
	       "(1 to 1000000)",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM "memory_bandwidth_gbs: 0\n" GPU_SM GPU_TAIL });
}

static void test_err_unknown_key(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:6:1: error: unknown key 'sm_cout' (did you mean 'sm_count'?)",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM "sm_cout: 40\n" GPU_TAIL });
	/* Nothing near: no suggestion. */
	EXPECT(GS_ESCHEMA, "DIR/gpus/x.yaml:9:1: error: unknown key 'vendor'",
	       { "gpus/x.yaml", GPU_OK "vendor: nvidia\n" });
}

static void test_err_missing_key(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:1:1: error: missing required key 'sm_count'",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM GPU_TAIL });
	/* A key written without a value is as good as missing. */
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:6:10: error: missing required key 'sm_count'",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM "sm_count:\n" GPU_TAIL });
	EXPECT(GS_ESCHEMA,
	       "DIR/instances/i.yaml:7:5: error: missing required key 'price_date'",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD
	                             "  - type: t1\n"
	                             "    gpu: TG\n"
	                             "    gpu_count: 1\n"
	                             "    vcpus: 8\n"
	                             "    ram_gib: 61\n"
	                             "    on_demand: 1\n"
	                             "    source: s1\n" });
}

static void test_err_wrong_type(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:6:11: error: 'sm_count': expected a whole number, not 'forty'",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM "sm_count: forty\n" GPU_TAIL });
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:6:11: error: 'sm_count': expected a whole number, not a list",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM "sm_count: [40]\n" GPU_TAIL });
	EXPECT(GS_ESCHEMA, "DIR/gpus/x.yaml:8:6: error: 'mps' must be true or false",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM GPU_SM "fp16_tflops: 65\nmps: yes\n" });
}

static void test_err_quoted_number(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:6:11: error: 'sm_count': expected a whole number, not a quoted "
	       "string",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM "sm_count: \"40\"\n" GPU_TAIL });
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:7:14: error: 'fp16_tflops' must be a number, not a "
	       "quoted string",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM GPU_SM "fp16_tflops: '65'\nmps: true\n" });
}

static void test_err_memory_unit(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:5:9: error: unknown unit 'GiBs' in '16GiBs' "
	       "(use GiB, Gi, MiB, Mi, GB or MB)",
	       { "gpus/x.yaml", GPU_HEAD "memory: 16GiBs\n" GPU_SM GPU_TAIL });
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:5:9: error: '16384' needs a unit: GiB, Gi, MiB, Mi, GB or MB",
	       { "gpus/x.yaml", GPU_HEAD "memory: 16384\n" GPU_SM GPU_TAIL });
}

static void test_err_yaml_syntax(void **state)
{
	(void)state;
	/* libyaml notices at the end of the file (line 10, after the last
	 * newline), not at the '[' that was never closed (9:11). */
	EXPECT(GS_ESYNTAX,
	       "DIR/gpus/x.yaml:10:1: error: did not find expected ',' or ']' "
	       "while parsing a flow sequence",
	       { "gpus/x.yaml", GPU_HEAD GPU_MEM GPU_SM GPU_TAIL "aliases2: [a, b\n" });
}

static void test_err_tab_indent(void **state)
{
	(void)state;
	EXPECT(GS_ESYNTAX,
	       "DIR/gpus/x.yaml:10:1: error: found character that cannot start any "
	       "token while scanning for the next token",
	       { "gpus/x.yaml", GPU_OK "mig:\n\tslots: 8\n\tcompute_slices: 7\n" });
}

static void test_err_duplicate_key(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA, "DIR/gpus/x.yaml:9:1: error: duplicate key 'sm_count'",
	       { "gpus/x.yaml", GPU_OK "sm_count: 41\n" });
}

static void test_err_anchor_alias(void **state)
{
	(void)state;
	EXPECT(GS_ESYNTAX, "DIR/gpus/x.yaml:3:15: error: anchors are not supported",
	       { "gpus/x.yaml", "name: Test-GPU\n"
	                        "aliases: [TG]\n"
	                        "architecture: &a Test\n"
	                        "compute_capability: \"8.0\"\n"
	                        GPU_MEM GPU_SM GPU_TAIL });
	EXPECT(GS_ESYNTAX, "DIR/gpus/x.yaml:2:11: error: aliases are not supported",
	       { "gpus/x.yaml", "name: Test-GPU\n"
	                        "aliases: [*a]\n" });
}

static void test_err_empty_file(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml: error: a GPU profile must be a mapping, not null",
	       { "gpus/x.yaml", "" });
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml: error: a GPU profile must be a mapping, not null",
	       { "gpus/x.yaml", "# nothing here yet\n" });
	/* No GPU file at all. */
	EXPECT(GS_ESCHEMA,
	       "DIR: error: no GPU profiles found (expected DIR/gpus/*.yaml)",
	       { "gpus/README", "not yaml\n" });
}

static void test_err_unknown_gpu(void **state)
{
	(void)state;
	EXPECT(GS_ENOTFOUND,
	       "DIR/instances/i.yaml:8:10: error: unknown GPU 'Test-GPV' "
	       "(did you mean 'Test-GPU'?)",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD INSTANCE("t1", "Test-GPV", "1") });
	EXPECT(GS_ENOTFOUND, "DIR/instances/i.yaml:8:10: error: unknown GPU 'H100'",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD INSTANCE("t1", "H100", "1") });
}

static void test_err_arch(void **state)
{
	(void)state;
	/* The row's keys: type at line 7, arch after price_date at line 16. */
	EXPECT(GS_ESCHEMA,
	       "DIR/instances/i.yaml:16:11: error: invalid arch 'x86_64' "
	       "(expected amd64 or arm64)",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD INSTANCE("t1", "TG", "1") "    arch: x86_64\n" });
	/* "any" is a workload's word, not a host's. */
	EXPECT(GS_ESCHEMA,
	       "DIR/instances/i.yaml:16:11: error: invalid arch 'any' "
	       "(expected amd64 or arm64)",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD INSTANCE("t1", "TG", "1") "    arch: any\n" });
}

static void test_err_duplicate_instance(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/instances/i.yaml:16:11: error: instance type 'T1.Large' is "
	       "defined twice",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD INSTANCE("t1.large", "TG", "1")
	                                 INSTANCE("T1.Large", "TG", "2") });
	/* Across files too. */
	EXPECT(GS_ESCHEMA,
	       "DIR/instances/j.yaml:7:11: error: instance type 't1.large' is "
	       "defined twice",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD INSTANCE("t1.large", "TG", "1") },
	       { "instances/j.yaml", INST_HEAD INSTANCE("t1.large", "TG", "2") });
}

/* The second file's alias clashes; the error points at that alias. */
static void test_err_shared_alias(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/b.yaml:2:11: error: GPU name 'shared' is already used by "
	       "A-GPU (DIR/gpus/a.yaml)",
	       { "gpus/a.yaml", "name: A-GPU\n"
	                        "aliases: [Shared]\n"
	                        "architecture: Test\n"
	                        "compute_capability: \"8.0\"\n"
	                        GPU_MEM GPU_SM GPU_TAIL },
	       { "gpus/b.yaml", "name: B-GPU\n"
	                        "aliases: [shared]\n"
	                        "architecture: Test\n"
	                        "compute_capability: \"8.0\"\n"
	                        GPU_MEM GPU_SM GPU_TAIL });
}

static void test_err_placement_range(void **state)
{
	(void)state;
	/* A 1-slot profile on 8 slots may start at 0..7. */
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:20:26: error: placement start 8 is out of range (0 to 7)",
	       { "gpus/x.yaml", GPU_OK MIG("1", "[0, 7, 8]") });
	/* A 2-slot profile at most at 6. */
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:20:23: error: placement start 7 is out of range (0 to 6)",
	       { "gpus/x.yaml", GPU_OK MIG("2", "[0, 7]") });
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:20:19: error: 'placements' must not be empty",
	       { "gpus/x.yaml", GPU_OK MIG("1", "[]") });
}

static void test_err_memory_slices(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/gpus/x.yaml:16:22: error: 'memory_slices': 9 is out of range (1 to 8)",
	       { "gpus/x.yaml", GPU_OK MIG("9", "[0]") });
}

static void test_err_price_decimals(void **state)
{
	(void)state;
	EXPECT(GS_ESCHEMA,
	       "DIR/instances/i.yaml:12:16: error: 'on_demand' has more than 6 "
	       "decimals: '3.0600001'",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD INSTANCE("t1", "TG", "3.0600001") });
	EXPECT(GS_ESCHEMA,
	       "DIR/instances/i.yaml:12:16: error: 'on_demand' must be a "
	       "non-negative decimal number, not '-3.06'",
	       { "gpus/x.yaml", GPU_OK },
	       { "instances/i.yaml", INST_HEAD INSTANCE("t1", "TG", "-3.06") });
}

static void test_err_missing_dir(void **state)
{
	gs_error err;
	(void)state;

	memset(&err, 0, sizeof err);
	assert_int_equal(gs_catalog_load("/nonexistent/gs-profiles", &loaded, &err),
	                 GS_EIO);
	assert_gs_error(&err,
	                "/nonexistent/gs-profiles: error: profile directory does not exist");
	assert_null(loaded);
	/* The second of two directories. */
	assert_int_equal(gs_catalog_load(TEST_PROFILES ":/nonexistent/x", &loaded, &err),
	                 GS_EIO);
	assert_gs_error(&err, "/nonexistent/x: error: profile directory does not exist");
	assert_null(loaded);
}

/* "dirA:dirB": dirB has only instances/, for GPUs dirA defines. */
static void test_overlay(void **state)
{
	static const file_spec files[] = {
		{ "onprem/instances/onprem.yaml",
		  "cloud: onprem\n"
		  "region: dc1\n"
		  "instances:\n"
		  INSTANCE("rack1-a100x8", "A100-SXM4-80GB", "14.00")
		  INSTANCE("rack2-t4", "tesla t4", "0.5") },
	};
	gs_error err;
	char dirs[256];
	const gs_instance *in;
	(void)state;

	memset(&err, 0, sizeof err);
	scratch_make(&made, files, 1);
	snprintf(dirs, sizeof dirs, "%s:%s/onprem", TEST_PROFILES, made.dir);
	assert_gs_ok(gs_catalog_load(dirs, &loaded, &err), &err);
	assert_int_equal(gs_catalog_gpu_count(loaded), SHIPPED_GPUS);
	assert_int_equal(gs_catalog_instance_count(loaded), SHIPPED_INSTANCES + 2);
	in = gs_instance_find(loaded, "rack1-a100x8");
	assert_non_null(in);
	assert_ptr_equal(in, gs_catalog_instance_at(loaded, SHIPPED_INSTANCES));
	assert_string_equal(in->cloud, "onprem");
	assert_string_equal(in->region, "dc1");
	assert_int_equal(in->on_demand, 14000000);
	assert_int_equal(in->spot, -1);
	assert_int_equal(in->gpu_count, 1);
	assert_ptr_equal(in->gpu, gs_gpu_find(loaded, "A100-SXM4-80GB"));
	in = gs_instance_find(loaded, "rack2-t4");
	assert_non_null(in);
	assert_ptr_equal(in, gs_catalog_instance_at(loaded, SHIPPED_INSTANCES + 1));
	assert_string_equal(in->gpu->name, "T4");
	assert_int_equal(in->on_demand, 500000);
	/* The shipped instances are still there. */
	assert_int_equal(gs_instance_find(loaded, "p3.2xlarge")->on_demand, 3060000);
	gs_catalog_free(loaded);
	loaded = NULL;

	/* Listed first, the overlay still sees every GPU (GPUs load before
	 * any instance), and its instances come first. */
	snprintf(dirs, sizeof dirs, "%s/onprem:%s", made.dir, TEST_PROFILES);
	assert_gs_ok(gs_catalog_load(dirs, &loaded, &err), &err);
	assert_int_equal(gs_catalog_instance_count(loaded), SHIPPED_INSTANCES + 2);
	assert_string_equal(gs_catalog_instance_at(loaded, 0)->type, "rack1-a100x8");
	assert_string_equal(gs_catalog_instance_at(loaded, 1)->type, "rack2-t4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_counts),
		cmocka_unit_test(test_gpu_find),
		cmocka_unit_test(test_added_models),
		cmocka_unit_test(test_usable_memory),
		cmocka_unit_test(test_instance_find),
		cmocka_unit_test(test_instance_arch),
		cmocka_unit_test(test_mps_clients),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test_teardown(test_scratch_ok, cleanup),
		cmocka_unit_test(test_err_unknown_key),
		cmocka_unit_test(test_err_missing_key),
		cmocka_unit_test(test_err_wrong_type),
		cmocka_unit_test(test_err_quoted_number),
		cmocka_unit_test(test_err_memory_unit),
		cmocka_unit_test_teardown(test_scratch_reserve, cleanup),
		cmocka_unit_test(test_err_memory_reserve),
		cmocka_unit_test(test_err_yaml_syntax),
		cmocka_unit_test(test_err_tab_indent),
		cmocka_unit_test(test_err_duplicate_key),
		cmocka_unit_test(test_err_anchor_alias),
		cmocka_unit_test(test_err_empty_file),
		cmocka_unit_test(test_err_unknown_gpu),
		cmocka_unit_test(test_err_arch),
		cmocka_unit_test(test_err_duplicate_instance),
		cmocka_unit_test(test_err_shared_alias),
		cmocka_unit_test(test_err_placement_range),
		cmocka_unit_test(test_err_memory_slices),
		cmocka_unit_test(test_err_price_decimals),
		cmocka_unit_test_teardown(test_err_missing_dir, cleanup),
		cmocka_unit_test_teardown(test_overlay, cleanup),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
