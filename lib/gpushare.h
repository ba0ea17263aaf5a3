/*
 * gpushare.h - the public interface of libgpushare.
 *
 * libgpushare models GPUs, cloud instances and NVIDIA's ways of sharing a
 * GPU (time-slicing, MPS, MIG), and computes what sharing saves.
 *
 * Conventions, for every function below:
 *  - Functions that can fail return 0 or a negative GS_E* code and, on
 *    failure, fill the caller-owned gs_error (which may be NULL).
 *  - Objects returned through an out-parameter (`**out`) belong to the
 *    caller, who releases them with the matching _free function.
 *    Every _free accepts NULL.
 *  - Pointers returned by getters are borrowed: they stay valid while the
 *    object they came from lives, and must not be freed.
 *  - The library never prints, never exits and never reads stdin.
 *  - Money is exact: integer micro-dollars (gs_micros), 1 USD = 1000000.
 */
#ifndef GPUSHARE_H
#define GPUSHARE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GS_VERSION "0.1.0"

/* ------------------------------------------------------------------ */
/* Errors                                                              */

enum {
	GS_OK = 0,
	GS_ENOMEM = -1,    /* out of memory */
	GS_EIO = -2,       /* a file could not be read or written */
	GS_ESYNTAX = -3,   /* malformed input (YAML, JSON, numbers) */
	GS_ESCHEMA = -4,   /* well-formed input that breaks the schema */
	GS_ENOTFOUND = -5, /* an unknown name (GPU, instance, profile) */
	GS_EINVAL = -6,    /* an invalid argument or combination */
	GS_ENOFIT = -7,    /* a check failed: nothing fits, no geometry */
	GS_ELIMIT = -8     /* an input exceeds a size or depth limit */
};

#define GS_ERROR_MSG_MAX 512
#define GS_ERROR_FILE_MAX 256

/* Filled on failure. `file` is empty and line/col are 0 when the error has
 * no location; line and col are 1-based. */
typedef struct gs_error {
	int code;
	char msg[GS_ERROR_MSG_MAX];
	char file[GS_ERROR_FILE_MAX];
	unsigned long line;
	unsigned long col;
} gs_error;

/* A fixed description of an error code, e.g. "out of memory". */
const char *gs_strerror(int code);

/* Formats `err` as "FILE:LINE:COL: error: MSG" (or "error: MSG" without a
 * location) into buf, always NUL-terminated. Returns buf. */
char *gs_error_format(const gs_error *err, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Money                                                               */

typedef int64_t gs_micros; /* micro-dollars */
#define GS_MICROS_PER_USD INT64_C(1000000)
#define GS_HOURS_PER_MONTH 730

/* Parses a decimal dollar amount ("3.06", "21.957642") exactly; more than
 * six decimals, a sign or any other character is GS_ESYNTAX. */
int gs_micros_parse(const char *text, gs_micros *out, gs_error *err);

/* Formats `m` as dollars with `decimals` (0..6) digits, rounding half away
 * from zero: (3060000, 2) -> "3.06". Always NUL-terminated. Returns buf. */
char *gs_micros_format(gs_micros m, int decimals, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Catalog: GPU models and cloud instances, loaded from profile files  */

typedef struct gs_catalog gs_catalog;

enum { GS_ENGINE_DEC, GS_ENGINE_ENC, GS_ENGINE_JPEG, GS_ENGINE_OFA, GS_ENGINE_COUNT };

/* A MIG GPU-instance profile. Read-only record owned by its gs_gpu. */
typedef struct gs_mig_profile {
	const char *name;      /* "3g.20gb", "1g.5gb+me" */
	const char *variant;   /* NULL, "+me", "+me.all", "-me", "+gfx" */
	int id;                /* nvidia-smi GI profile id */
	int compute_slices;
	int memory_slices;     /* placement size, in the GPU's slots */
	int64_t memory_mib;
	int sm_count;
	int max_count;
	int has_engines;
	int engines[GS_ENGINE_COUNT];
	const int *starts;     /* legal start slots */
	size_t n_starts;
} gs_mig_profile;

/* A GPU model. Read-only record owned by the catalog. */
typedef struct gs_gpu {
	const char *name;             /* canonical: "A100-SXM4-40GB" */
	const char *const *aliases;
	size_t n_aliases;
	const char *architecture;
	int cc_major, cc_minor;       /* compute capability */
	int64_t memory_mib;           /* as the driver reports it */
	int sm_count;
	int64_t fp16_mtflops;         /* dense FP16 in milli-TFLOPS */
	int mps_max_clients;          /* 0: no MPS */
	int mig_slots;                /* 0: no MIG */
	int mig_compute_slices;
	int mig_has_engines;
	int mig_engines[GS_ENGINE_COUNT];
	const gs_mig_profile *mig_profiles; /* sorted big to small */
	size_t n_mig_profiles;
	const char *file;             /* profile file it came from */
} gs_gpu;

/* A cloud instance type. Read-only record owned by the catalog. */
typedef struct gs_instance {
	const char *cloud;      /* "aws", "azure", "gcp", or a user's own */
	const char *type;       /* "p3.2xlarge" */
	const char *region;
	const gs_gpu *gpu;
	int gpu_count;
	int vcpus;
	int64_t ram_mib;
	gs_micros on_demand;    /* per hour */
	gs_micros spot;         /* per hour; -1 when unknown */
	const char *source;
	const char *price_date;
} gs_instance;

/* Loads DIR/gpus/ *.yaml and then DIR/instances/ *.yaml, in name order, for
 * every DIR of the colon-separated list `dirs` (later directories add to
 * earlier ones, e.g. "profiles:/etc/gpushare"). Errors carry the file,
 * line and column. */
int gs_catalog_load(gs_catalog **out, const char *dirs, gs_error *err);
void gs_catalog_free(gs_catalog *cat);

size_t gs_catalog_gpu_count(const gs_catalog *cat);
const gs_gpu *gs_catalog_gpu(const gs_catalog *cat, size_t i);
size_t gs_catalog_instance_count(const gs_catalog *cat);
const gs_instance *gs_catalog_instance(const gs_catalog *cat, size_t i);

/* Finds a GPU by canonical name or alias, ignoring case; NULL if none. */
const gs_gpu *gs_gpu_find(const gs_catalog *cat, const char *name);
/* Finds an instance by type, ignoring case; NULL if none. */
const gs_instance *gs_instance_find(const gs_catalog *cat, const char *type);

/* The known GPU name or instance type nearest to `name` (edit distance),
 * or NULL when nothing is close. Borrowed. */
const char *gs_gpu_suggest(const gs_catalog *cat, const char *name);
const char *gs_instance_suggest(const gs_catalog *cat, const char *type);

/* ------------------------------------------------------------------ */
/* MIG geometry                                                        */

/* Finds a profile of `gpu` by name. Exact names match first; otherwise
 * "<C>g.<M>gb[variant]" matches the profile with C compute slices, the same
 * variant and the memory nearest M GB (names drift with drivers:
 * "7g.79gb" is 7g.80gb). Returns NULL when nothing matches. */
const gs_mig_profile *gs_mig_profile_find(const gs_gpu *gpu, const char *name);

/* Decides whether the n profiles can coexist on one `gpu`. On success fills
 * starts[i] with the start slot of profiles[i] (starts may be NULL) and
 * returns 0. Returns GS_ENOFIT with the reason in err when no placement
 * exists, GS_EINVAL when the GPU has no MIG or a profile is not its own. */
int gs_mig_fit(const gs_gpu *gpu, const gs_mig_profile *const *profiles,
               size_t n, int *starts, gs_error *err);

enum {
	GS_MIG_FEASIBLE = 1,   /* every non-empty feasible multiset */
	GS_MIG_MAXIMAL = 2     /* only those no allowed profile can join */
};

/* Called once per geometry: counts[i] instances of profiles[i], with the
 * n profiles in canonical order (the arrays are borrowed for the call).
 * A non-zero return stops the enumeration and is returned by it. */
typedef int (*gs_mig_geometry_fn)(const gs_mig_profile *const *profiles,
                                  const size_t *counts, size_t n, void *ud);

/* Enumerates the geometries built from the n `allowed` profiles (all the
 * GPU's profiles when allowed is NULL), in canonical order: profiles by
 * decreasing compute slices, then memory slices, then name; geometries
 * lexicographically by that order. `which` is GS_MIG_FEASIBLE or
 * GS_MIG_MAXIMAL. */
int gs_mig_enumerate(const gs_gpu *gpu, const gs_mig_profile *const *allowed,
                     size_t n, int which, gs_mig_geometry_fn fn, void *ud,
                     gs_error *err);

/* The largest count of one profile that forms a valid geometry (0 when the
 * profile is not the GPU's). */
int gs_mig_max_count(const gs_gpu *gpu, const gs_mig_profile *profile);

/* ------------------------------------------------------------------ */
/* Savings: W whole-GPU workloads against the same sharing GPUs        */

typedef enum gs_strategy {
	GS_STRATEGY_DEDICATED,
	GS_STRATEGY_TIME_SLICING,
	GS_STRATEGY_MPS,
	GS_STRATEGY_MIG
} gs_strategy;

typedef enum gs_pricing { GS_PRICING_ON_DEMAND, GS_PRICING_SPOT } gs_pricing;

const char *gs_strategy_name(gs_strategy s); /* "time-slicing", ... */
const char *gs_pricing_name(gs_pricing p);   /* "on-demand", "spot" */

typedef struct gs_savings_opts {
	const char *instance;   /* instance type, required */
	int replicas;           /* per GPU; 0 with MIG: the profile's maximum */
	int workloads;          /* 0: replicas x GPUs of the instance */
	gs_strategy strategy;
	const char *mig_profile;  /* with GS_STRATEGY_MIG */
	gs_pricing pricing;
	int hours_per_month;
} gs_savings_opts;

#define GS_SAVINGS_OPTS_INIT                                                  \
	{ NULL, 0, 0, GS_STRATEGY_TIME_SLICING, NULL, GS_PRICING_ON_DEMAND,       \
	  GS_HOURS_PER_MONTH }

typedef struct gs_savings {
	const gs_instance *instance;       /* borrowed from the catalog */
	const gs_mig_profile *mig_profile; /* borrowed; NULL unless MIG */
	gs_strategy strategy;
	gs_pricing pricing;
	int workloads;
	int replicas;             /* per GPU */
	gs_micros price_per_hour; /* of one instance */
	int gpus_before, gpus_after;
	int instances_before, instances_after;
	gs_micros before_per_hour, after_per_hour, saved_per_hour;
	gs_micros before_per_month, after_per_month, saved_per_month;
	int hours_per_month;
	int saved_permille;       /* of the before cost, rounded: 750 = 75.0% */
	/* What each workload gives up. */
	int compute_permille;     /* at most this share of a GPU's time */
	int64_t memory_mib;       /* memory each may use (MPS cap, MIG size,
	                             or, time-slicing, its fair share) */
	int thread_percent;       /* MPS active thread limit; 0 otherwise */
	int memory_isolated;      /* 1 with MPS limits or MIG */
	int fault_isolated;       /* 1 with MIG */
} gs_savings;

/* Computes the savings described by opts against the catalog. */
int gs_savings_compute(const gs_catalog *cat, const gs_savings_opts *opts,
                       gs_savings *out, gs_error *err);

/* ------------------------------------------------------------------ */
/* Documents: structured output rendered as JSON or YAML              */

typedef struct gs_doc gs_doc;

typedef enum gs_format { GS_FORMAT_JSON, GS_FORMAT_YAML } gs_format;

/* Renders doc into a NUL-terminated string the caller frees with free(). */
int gs_doc_render(const gs_doc *doc, gs_format fmt, char **out, gs_error *err);
void gs_doc_free(gs_doc *doc);

/* The stable JSON/YAML shapes documented in gpushare(1). `filter` selects
 * one GPU (NULL: all); cloud/gpu select instances (NULL: all). */
int gs_doc_gpus(const gs_catalog *cat, const gs_gpu *only, gs_doc **out,
                gs_error *err);
int gs_doc_instances(const gs_catalog *cat, const char *cloud,
                     const gs_gpu *gpu, gs_doc **out, gs_error *err);
int gs_doc_savings(const gs_savings *s, gs_doc **out, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* GPUSHARE_H */
