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
 *  - Out-parameters come last, just before err; indexed getters end in _at.
 *  - Options structs start with a version that their _INIT macro sets:
 *    initialise them with it (gs_plan_opts o = GS_PLAN_OPTS_INIT;) and set
 *    fields by name. A function given another version fails with
 *    GS_EINVAL, so a program built against another release is refused
 *    rather than misread.
 */
#ifndef GPUSHARE_H
#define GPUSHARE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GS_VERSION "0.1.0"

/* Marks the library's API: libgpushare.so is built with hidden visibility,
 * so only what this header declares with GS_EXPORT is exported. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define GS_EXPORT __attribute__((visibility("default")))
#else
#define GS_EXPORT
#endif

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
	GS_ELIMIT = -8,    /* an input exceeds a size or depth limit */
	GS_EWRITE = -9     /* an output file could not be written */
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
GS_EXPORT
const char *gs_strerror(int code);

/* A structured result (JSON/YAML), rendered with gs_doc_render. */
typedef struct gs_doc gs_doc;

/* Formats `err` as "FILE:LINE:COL: error: MSG" (or "error: MSG" without a
 * location) into buf, always NUL-terminated. Returns buf. */
GS_EXPORT
char *gs_error_format(const gs_error *err, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Money                                                               */

typedef int64_t gs_micros; /* micro-dollars */
#define GS_MICROS_PER_USD INT64_C(1000000)
#define GS_HOURS_PER_MONTH 730

/* Parses a decimal dollar amount ("3.06", "21.957642") exactly; more than
 * six decimals, a sign or any other character is GS_ESYNTAX. */
GS_EXPORT
int gs_micros_parse(const char *text, gs_micros *out, gs_error *err);

/* Formats `m` as dollars with `decimals` (0..6) digits, rounding half away
 * from zero: (3060000, 2) -> "3.06". Always NUL-terminated. Returns buf. */
GS_EXPORT
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
	/* What the driver keeps for itself of memory_mib (nvidia-smi -q "FB
	 * Memory Usage: Reserved"; 0 where no source gives it), and what is
	 * left for the replicas: memory_mib - memory_reserve_mib. */
	int64_t memory_reserve_mib;
	int64_t usable_memory_mib;
	int memory_bandwidth_gbs;     /* GB/s (10^9 bytes), from the datasheet */
} gs_gpu;

/* A host's CPU architecture, named as the kubernetes.io/arch label names
 * it. Instances are amd64 or arm64; a workload may also run on any. */
typedef enum gs_arch { GS_ARCH_AMD64, GS_ARCH_ARM64, GS_ARCH_ANY } gs_arch;

GS_EXPORT
const char *gs_arch_name(gs_arch a); /* "amd64", "arm64", "any" */

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
	gs_arch arch;           /* of its CPUs: GS_ARCH_AMD64 or GS_ARCH_ARM64 */
} gs_instance;

/* Loads DIR/gpus/ *.yaml and then DIR/instances/ *.yaml, in name order, for
 * every DIR of the colon-separated list `dirs` (later directories add to
 * earlier ones, e.g. "profiles:/etc/gpushare"), then each DIR/retention.yaml
 * there is (optional; a later one's rows replace earlier ones'). Errors
 * carry the file, line and column. */
GS_EXPORT
int gs_catalog_load(const char *dirs, gs_catalog **out, gs_error *err);
GS_EXPORT
void gs_catalog_free(gs_catalog *cat);

GS_EXPORT
size_t gs_catalog_gpu_count(const gs_catalog *cat);
GS_EXPORT
const gs_gpu *gs_catalog_gpu_at(const gs_catalog *cat, size_t i);
GS_EXPORT
size_t gs_catalog_instance_count(const gs_catalog *cat);
GS_EXPORT
const gs_instance *gs_catalog_instance_at(const gs_catalog *cat, size_t i);

/* The clouds the instances name ("aws", "azure", "gcp", or your own such
 * as "onprem"), each once, in the order the profiles first name them. */
GS_EXPORT
size_t gs_catalog_cloud_count(const gs_catalog *cat);
GS_EXPORT
const char *gs_catalog_cloud_at(const gs_catalog *cat, size_t i);

/* Finds a GPU by canonical name or alias, ignoring case; NULL if none. */
GS_EXPORT
const gs_gpu *gs_gpu_find(const gs_catalog *cat, const char *name);
/* Finds an instance by type, ignoring case; NULL if none. */
GS_EXPORT
const gs_instance *gs_instance_find(const gs_catalog *cat, const char *type);

/* The known GPU name or instance type nearest to `name` (edit distance),
 * or NULL when nothing is close. Borrowed. */
GS_EXPORT
const char *gs_gpu_suggest(const gs_catalog *cat, const char *name);
GS_EXPORT
const char *gs_instance_suggest(const gs_catalog *cat, const char *type);

/* ------------------------------------------------------------------ */
/* MIG geometry                                                        */

/* Finds a profile of `gpu` by name. Exact names match first; otherwise
 * "<C>g.<M>gb[variant]" matches the profile with C compute slices, the same
 * variant and the memory nearest M GB (names drift with drivers:
 * "7g.79gb" is 7g.80gb). Returns NULL when nothing matches. */
GS_EXPORT
const gs_mig_profile *gs_mig_profile_find(const gs_gpu *gpu, const char *name);

/* Decides whether the n profiles can coexist on one `gpu`. On success fills
 * starts[i] with the start slot of profiles[i] (starts may be NULL) and
 * returns 0. Returns GS_ENOFIT with the reason in err when no placement
 * exists, GS_EINVAL when the GPU has no MIG or a profile is not its own. */
GS_EXPORT
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
GS_EXPORT
int gs_mig_enumerate(const gs_gpu *gpu, const gs_mig_profile *const *allowed,
                     size_t n, int which, gs_mig_geometry_fn fn, void *ud,
                     gs_error *err);

/* The largest count of one profile that forms a valid geometry (0 when the
 * profile is not the GPU's). */
GS_EXPORT
int gs_mig_max_count(const gs_gpu *gpu, const gs_mig_profile *profile);

/* ------------------------------------------------------------------ */
/* Savings: W whole-GPU workloads against the same sharing GPUs        */

typedef enum gs_strategy {
	GS_STRATEGY_DEDICATED,
	GS_STRATEGY_TIME_SLICING,
	GS_STRATEGY_MPS,
	GS_STRATEGY_MIG,
	/* Replicas of uneven sizes on one whole GPU, each with a hard memory
	 * cap (and an SM % limit where the backend enforces one). */
	GS_STRATEGY_FRACTION
} gs_strategy;

/* What enforces a fraction's limits (GS_STRATEGY_FRACTION), as the
 * workload file's `fractions` names it: HAMi vGPU (memory cap and SM %),
 * Kubernetes DRA consumable capacity (memory only; compute time-sliced),
 * or MPS with per-client limits (memory cap and active thread %). */
typedef enum gs_backend {
	GS_BACKEND_NONE,
	GS_BACKEND_HAMI,
	GS_BACKEND_DRA,
	GS_BACKEND_MPS
} gs_backend;

typedef enum gs_pricing { GS_PRICING_ON_DEMAND, GS_PRICING_SPOT } gs_pricing;

GS_EXPORT
const char *gs_strategy_name(gs_strategy s); /* "time-slicing", ... */
GS_EXPORT
const char *gs_backend_name(gs_backend b);   /* "none", "hami", "dra", "mps" */
GS_EXPORT
const char *gs_pricing_name(gs_pricing p);   /* "on-demand", "spot" */

/* What a replica keeps of its dedicated-GPU throughput under a strategy
 * (and, for GS_STRATEGY_FRACTION, a backend), as a range from published
 * measurements: the catalog's DIR/retention.yaml (gpushare-workloads(5)). */
typedef struct gs_retention {
	int64_t low_ppm, high_ppm;  /* of a dedicated GPU's throughput */
	const char *source;         /* for people: "NVIDIA Dynamo study, MPS" */
	const char *url;            /* where to read it; NULL if the row gives none */
} gs_retention;

/* The row of strategy s (and backend b for GS_STRATEGY_FRACTION, else
 * ignored); GS_ENOTFOUND when the profiles have none. Strings borrowed
 * from the catalog. */
GS_EXPORT
int gs_retention_of(const gs_catalog *cat, gs_strategy s, gs_backend b, gs_retention *out);

typedef struct gs_savings_opts {
	unsigned version;       /* GS_SAVINGS_OPTS_VERSION, set by _INIT */
	const char *instance;   /* instance type, required */
	int replicas;           /* per GPU; 0 with MIG: the profile's maximum */
	int workloads;          /* 0: replicas x GPUs of the instance */
	gs_strategy strategy;
	const char *mig_profile;  /* with GS_STRATEGY_MIG */
	gs_pricing pricing;
	int hours_per_month;
	/* Version 2: the rule `plan` shares GPUs by. */
	const char *compute;    /* each workload's peak share, "25%"; NULL: unknown */
	const char *target_utilization; /* "90%"; NULL: the workload file's default */
	/* Version 3: GS_STRATEGY_FRACTION, what enforces it and what each needs. */
	gs_backend backend;     /* required with GS_STRATEGY_FRACTION, else NONE */
	const char *memory;     /* each workload's memory cap, "18Gi"; NULL: an
	                           equal split of the usable memory by replicas */
} gs_savings_opts;

#define GS_SAVINGS_OPTS_VERSION 3
#define GS_SAVINGS_OPTS_INIT                                                  \
	{ GS_SAVINGS_OPTS_VERSION, NULL, 0, 0, GS_STRATEGY_TIME_SLICING, NULL,    \
	  GS_PRICING_ON_DEMAND, GS_HOURS_PER_MONTH, NULL, NULL, GS_BACKEND_NONE,  \
	  NULL }

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
	int64_t memory_mib;       /* memory each may use (MPS or fraction cap, MIG size,
	                             or, time-slicing, its fair share) */
	int thread_percent;       /* MPS active thread or fraction SM % limit; 0 otherwise */
	int memory_isolated;      /* 1 with MPS limits, fractions or MIG */
	int fault_isolated;       /* 1 with MIG */
	/* The rule that sets the replicas per GPU, as `plan` applies it. */
	int replicas_asked;       /* per GPU, as asked; replicas is what fits */
	int compute_given;        /* 1 when opts.compute was given */
	int64_t compute_ppm;      /* each workload's peak: given, or assumed */
	int64_t target_ppm;       /* targetUtilization */
	char rule[256];           /* the rule in a sentence */
	/* GS_STRATEGY_FRACTION only (else NONE, 0, NULL). */
	gs_backend backend;
	int max_clients;          /* the backend's clients per GPU; 0: no limit */
	const char *bound_by;     /* the rule that set replicas: "memory",
	                             "compute", "sm", "clients" or "asked" */
} gs_savings;

/* Computes the savings described by opts against the catalog. */
GS_EXPORT
int gs_savings_compute(const gs_catalog *cat, const gs_savings_opts *opts,
                       gs_savings *out, gs_error *err);

/* ------------------------------------------------------------------ */
/* Scenarios: the workloads to place and the rules of the plan         */

typedef struct gs_scenario gs_scenario;

typedef enum gs_kind {
	GS_KIND_INFERENCE, GS_KIND_BATCH, GS_KIND_TRAINING, GS_KIND_NOTEBOOK,
	GS_KIND_CI
} gs_kind;
typedef enum gs_spread { GS_SPREAD_NONE, GS_SPREAD_GPU, GS_SPREAD_NODE } gs_spread;
typedef enum gs_via { GS_VIA_DEVICE_PLUGIN, GS_VIA_DRA } gs_via;
/* How precisely the emitted configuration places pods (the file's
 * `placement`): ROBUST plans so that any placement the emitted selectors
 * allow keeps the plan's rules; PINNED gives each distinct placement its
 * own object, which needs the workloads' manifests. */
typedef enum gs_placement { GS_PLACEMENT_ROBUST, GS_PLACEMENT_PINNED } gs_placement;

/* The kind of Kubernetes object whose pods a workload is. */
typedef enum gs_object_kind {
	GS_OBJECT_DEPLOYMENT, GS_OBJECT_STATEFULSET, GS_OBJECT_JOB, GS_OBJECT_CRONJOB,
	GS_OBJECT_POD
} gs_object_kind;

/* The object that emitted patches change (a workload's `object`). */
typedef struct gs_object_ref {
	gs_object_kind kind;    /* default GS_OBJECT_DEPLOYMENT */
	const char *name;       /* NULL: the workload's name */
	const char *namespace_; /* NULL: the file's (gs_scenario_namespace) */
	const char *container;  /* NULL: the object's only container */
} gs_object_ref;

GS_EXPORT
const char *gs_object_kind_name(gs_object_kind k); /* "Deployment" */
/* What limits a workload's speed, and so which figure converts its compute
 * share between GPU models: dense FP16 throughput, or memory bandwidth. */
typedef enum gs_bound { GS_BOUND_COMPUTE, GS_BOUND_MEMORY_BANDWIDTH } gs_bound;

GS_EXPORT
const char *gs_bound_name(gs_bound b); /* "compute", "memory-bandwidth" */

#define GS_PPM 1000000 /* shares are parts per million: 40% = 400000 */

/* What a workload's `throughput` counts. */
typedef enum gs_work_unit { GS_WORK_NONE, GS_WORK_TOKENS, GS_WORK_REQUESTS } gs_work_unit;

GS_EXPORT
const char *gs_work_unit_name(gs_work_unit u); /* "none", "tokens/s", "requests/s" */

/* One workload. Read-only record owned by its scenario; valid until the
 * scenario changes or is freed. */
typedef struct gs_workload {
	const char *name;
	gs_kind kind;
	int replicas;
	int64_t memory_bytes;      /* peak device memory of one replica */
	int64_t compute_ppm;       /* peak share of one GPU of measured_on */
	const gs_gpu *measured_on; /* NULL: the share holds on any model */
	int latency_critical;
	int isolation_fault;
	const char *tenant;
	const char *team;
	const gs_gpu *const *gpus; /* allow-list; n_gpus == 0: any */
	size_t n_gpus;
	gs_spread spread;
	const gs_instance *current; /* NULL: unknown */
	int current_count;
	unsigned long line, col;    /* where it was defined, 0 if not a file */
	gs_bound bound;             /* its `bound`, else its kind's default */
	/* Share of a GPU's usable memory it keeps free where memory is shared
	 * without isolation, in ppm; -1: the file's (gs_scenario_memory_headroom). */
	int64_t memory_headroom_ppm;
	/* Host needs of one replica: what its pod requests of the node. 0:
	 * not given, and then the planner checks none. */
	int64_t cpu_millis;         /* cores x 1000 (`cpu`) */
	int64_t host_memory_bytes;  /* host RAM (`memory`) */
	gs_arch arch;               /* its images' CPUs; GS_ARCH_ANY: either */
	gs_object_ref object;       /* the object its pods belong to */
	/* Whole GPUs one replica's pod holds, all on one node and dedicated
	 * (`gpusPerReplica`); 1 unless set. Its compute and gpuMemory are per
	 * GPU. */
	int gpus_per_replica;
	/* The share of its `current` instances it holds (their other GPUs
	 * are other workloads'), in ppm; 0: all of them. */
	int64_t current_share_ppm;
	/* One replica's throughput on a dedicated GPU of measured_on, at its
	 * measured share (`throughput`), in thousandths of work_unit per
	 * second; 0 and GS_WORK_NONE: not given. */
	int64_t throughput_milli;
	gs_work_unit work_unit;
	/* Its own measured retention (`retention`), per strategy, in ppm of
	 * its dedicated throughput; -1: the profile's range. Never set for
	 * GS_STRATEGY_DEDICATED. */
	int64_t retention_ppm[GS_STRATEGY_FRACTION + 1];
} gs_workload;

/* Loads a workload file (gpushare-workloads(5)); path "-" is stdin. The
 * catalog must outlive the scenario. */
GS_EXPORT
int gs_scenario_load(const gs_catalog *cat, const char *path,
                     gs_scenario **out, gs_error *err);
/* The same from a buffer; `name` stands for the file in messages. */
GS_EXPORT
int gs_scenario_load_buffer(const gs_catalog *cat, const char *name, const char *buf,
                            size_t len, gs_scenario **out, gs_error *err);
/* An empty scenario with the defaults. */
GS_EXPORT
int gs_scenario_new(const gs_catalog *cat, gs_scenario **out, gs_error *err);
/* A deep copy (for undo and what-if scenarios). */
GS_EXPORT
int gs_scenario_clone(const gs_scenario *src, gs_scenario **out, gs_error *err);
GS_EXPORT
void gs_scenario_free(gs_scenario *s);

/* Sets one key, with the workload file's syntax for the value: on the
 * scenario when workload is NULL ("pricing", "spot"), else on that
 * workload ("compute", "40%"). Lists are written "a,b". */
GS_EXPORT
int gs_scenario_set(gs_scenario *s, const char *workload, const char *key,
                    const char *value, gs_error *err);
/* Adds a workload with the defaults; it needs gpuMemory and compute set
 * before it can be planned. */
GS_EXPORT
int gs_scenario_add(gs_scenario *s, const char *name, gs_error *err);
GS_EXPORT
int gs_scenario_remove(gs_scenario *s, const char *name, gs_error *err);
/* What the whole cluster costs today (e.g. from an imported inventory);
 * the plan reports it as the current cost instead of the sum of the
 * workloads' `current`. -1 unsets it. */
GS_EXPORT
void gs_scenario_set_cluster_cost(gs_scenario *s, gs_micros per_hour);
/* The same with the cluster's GPU and node counts: a plan of such a
 * scenario then compares with the cluster as it is ("before" is today's
 * cost, GPUs and nodes) rather than with one GPU per replica. */
GS_EXPORT
void gs_scenario_set_cluster(gs_scenario *s, gs_micros per_hour, int gpus, int nodes);
/* Checks what a loader checks at the end: required keys, fits. */
GS_EXPORT
int gs_scenario_validate(const gs_scenario *s, gs_error *err);

GS_EXPORT
size_t gs_scenario_workload_count(const gs_scenario *s);
GS_EXPORT
const gs_workload *gs_scenario_workload_at(const gs_scenario *s, size_t i);
GS_EXPORT
const gs_workload *gs_scenario_find(const gs_scenario *s, const char *name);
GS_EXPORT
const gs_catalog *gs_scenario_catalog(const gs_scenario *s);
GS_EXPORT
const char *gs_scenario_file(const gs_scenario *s); /* NULL if none */
/* How the workloads get their GPUs: the file's `via` (device-plugin, dra). */
GS_EXPORT
gs_via gs_scenario_via(const gs_scenario *s);
/* The file's `fractions` in its order: writes at most cap backends to out
 * and returns how many it names. */
GS_EXPORT
size_t gs_scenario_fractions(const gs_scenario *s, gs_backend *out, size_t cap);
/* The file's `namespace`: the workloads' objects' default ("default"). */
GS_EXPORT
const char *gs_scenario_namespace(const gs_scenario *s);
/* The file's `placement` (robust by default). */
GS_EXPORT
gs_placement gs_scenario_placement(const gs_scenario *s);
/* The file's memoryHeadroom in ppm: the share of a GPU's usable memory kept
 * free where replicas share it without memory isolation (time-slicing). */
GS_EXPORT
int64_t gs_scenario_memory_headroom(const gs_scenario *s);
/* The headroom that holds for w: its own memoryHeadroom, else the file's. */
GS_EXPORT
int64_t gs_workload_memory_headroom(const gs_scenario *s, const gs_workload *w);
/* Names the scenario in messages and headings (a file, or a cluster). */
GS_EXPORT
int gs_scenario_set_file(gs_scenario *s, const char *name, gs_error *err);

/* Renders the scenario as a workload file (YAML) the loader accepts. */
GS_EXPORT
int gs_doc_scenario(const gs_scenario *s, gs_doc **out, gs_error *err);

/* ------------------------------------------------------------------ */
/* Plans                                                               */

typedef struct gs_plan gs_plan;

/* One replica placed on a GPU or MIG instance. */
typedef struct gs_assignment {
	const gs_workload *workload;
	int replica;               /* 0-based */
	int64_t compute_ppm;       /* of the whole GPU, after conversion */
	/* Its limits: MPS's split, or a fraction's own (memory: its gpuMemory
	 * in whole MiB; threads: its compute share in whole percent, 0 where
	 * the backend limits no compute); 0 with other strategies. */
	int thread_percent;
	int64_t memory_limit_mib;
} gs_assignment;

typedef struct gs_plan_mig {
	const gs_mig_profile *profile;
	int start;
	gs_strategy strategy;      /* DEDICATED: one replica alone */
	int replicas;              /* advertised slots when shared */
	const gs_assignment *assignments;
	size_t n_assignments;
	/* Device memory: what its replicas plan to hold (Σ gpuMemory), what
	 * the instance offers them (its memory, less the headroom where
	 * several share it by time-slicing), and that headroom in ppm (0:
	 * none applies). */
	int64_t memory_bytes, memory_offer_bytes, memory_headroom_ppm;
} gs_plan_mig;

typedef struct gs_plan_gpu {
	int index;
	const gs_gpu *model;
	gs_strategy strategy;
	int replicas;              /* advertised slots (time-slicing, MPS) */
	const gs_plan_mig *mig;
	size_t n_mig;
	const gs_assignment *assignments; /* non-MIG GPUs */
	size_t n_assignments;
	/* Device memory, as in gs_plan_mig: planned, offered (the usable
	 * memory, less the headroom when time-sliced by several replicas),
	 * and that headroom in ppm. A MIG GPU: all instances' replicas, and
	 * its usable memory. */
	int64_t memory_bytes, memory_offer_bytes, memory_headroom_ppm;
	gs_backend backend;        /* with GS_STRATEGY_FRACTION, else NONE */
} gs_plan_gpu;

typedef struct gs_plan_node {
	const gs_instance *instance;
	gs_micros price_per_hour;
	const char *config;        /* device-plugin config name (a label value) */
	const char *mig_config;    /* mig-parted config name; NULL if no MIG */
	/* Its pool: the value of its gpushare.io/pool label. Nodes of one
	 * pool have the same instance type, configuration and workloads; a
	 * workload's pods select exactly the pools it is planned on. */
	const char *pool;
	const gs_plan_gpu *gpus;
	size_t n_gpus;
	/* Host CPU (millicores) and RAM (bytes): what the node leaves its
	 * pods after the reserve for the kubelet, the system and the GPU
	 * Operator (gpushare-workloads(5)), and what its replicas request. */
	int64_t cpu_allocatable_millis, memory_allocatable_bytes;
	int64_t cpu_requested_millis, memory_requested_bytes;
} gs_plan_node;

typedef struct gs_plan_workload {
	const gs_workload *workload;
	gs_strategy strategy;      /* of most of its replicas */
	gs_micros cost_per_hour;   /* the capacity its replicas hold */
	const char *why;
	/* What else the plan did to it, one sentence each: where its compute
	 * was converted from the model it was measured on, the ratio used. */
	const char *const *notes;
	size_t n_notes;
	gs_micros idle_per_hour;   /* its part of its nodes' unheld capacity */
} gs_plan_workload;

/* A team's cost plus its idle, summed over the teams, is the plan's cost
 * exactly. */
typedef struct gs_plan_team {
	const char *team;
	gs_micros cost_per_hour;   /* its workloads' cost_per_hour */
	gs_micros idle_per_hour;   /* its workloads' idle_per_hour */
} gs_plan_team;

typedef struct gs_plan_summary {
	gs_pricing pricing;
	int hours_per_month;
	gs_micros before_per_hour, after_per_hour, savings_per_hour;
	int savings_permille;
	gs_micros current_per_hour;  /* -1: no workload gave `current` */
	int gpus_before, gpus_after;
	int instances_before, instances_after;
	int util_before_permille, util_after_permille; /* planned compute */
	int replicas;
	/* The cheapest plan found with a whole GPU per replica, bought like
	 * the plan: "before" unless an imported cluster's cost replaces it. */
	gs_micros dedicated_per_hour;
	int gpus_dedicated, instances_dedicated;
	gs_micros savings_vs_dedicated_per_hour;
	int savings_vs_dedicated_permille;
	/* Against current_per_hour (unset when it is -1): what the workloads
	 * with `current` save, and as a share of their bill today. */
	gs_micros current_savings_per_hour;
	int current_savings_permille;
	gs_micros idle_per_hour;     /* capacity no replica holds */
	int before_is_cluster;       /* 1: before is an imported cluster's cost */
	/* When targetUtilization kept replicas apart that would otherwise
	 * share a GPU and a plan at a higher target is cheaper: the rule in a
	 * sentence ("targetUtilization 90% leaves room for 3 of these on one
	 * GPU; ..."); NULL otherwise. */
	const char *sharing_limit;
	/* Workloads without `cpu`, and without `memory`: the plan assumed
	 * they need none of their node's CPU or RAM. */
	int workloads_without_cpu, workloads_without_memory;
	const char *cloud;           /* the one cloud the plan buys in */
	/* The scenario's placement; with robust, what the plan would cost
	 * pinned (each placement an object of its own, the exact packing):
	 * the plan's own cost when robustness cost nothing. -1: pinned. */
	gs_placement placement;
	gs_micros pinned_per_hour;
	/* When before is the cluster and the plan costs more: that, and why,
	 * in a sentence of figures (lib/plan/dearer.c); NULL otherwise. */
	const char *costs_more;
	/* What no plan of these workloads under the plan's rules can cost
	 * less than, per hour; -1: none. lower_bound_by says how it is
	 * known: "optimum" (the plan is proven the cheapest), "program" (the
	 * optimiser's integer program, solved or bounded), "relaxation" (the
	 * packing's linear relaxation, solved by column generation where the
	 * program is too large), "volume" (every GPU holds at most its memory
	 * and its compute, at its model's cheapest price per GPU). Under
	 * placement: robust it bounds the pinned plans, which include every
	 * robust one. */
	gs_micros lower_bound_per_hour;
	const char *lower_bound_by;
} gs_plan_summary;

/* With `cloud: all`, each cloud whose instances the scenario may buy, the
 * chosen one included, in the catalog's order. Clouds are planned in the
 * order of their estimate; one whose estimate is not below the best plan
 * so far is not planned (after_per_hour -1, why says so). */
typedef struct gs_plan_cloud {
	const char *cloud;
	gs_micros after_per_hour;    /* -1: not planned, or it cannot hold
	                                every workload */
	int gpus, instances;         /* bought there */
	gs_micros estimate_per_hour; /* the workloads' cheapest shares of an
	                                instance there; -1: it cannot hold
	                                them */
	const char *why;             /* why no plan; NULL when planned */
	int planned;                 /* 1: planned; 0: it cannot hold every
	                                workload; -1: not planned, its
	                                lower bound not below the best plan */
	gs_micros lower_bound_per_hour; /* no plan there costs less: its
	                                plan's bound when planned, else the
	                                greater of the estimate and the
	                                volume bound; -1: none */
} gs_plan_cloud;

/* What the planner found for one scenario, kept for the next plans of
 * edited ones (a REPL session's): the model search of each tenant whose
 * workloads an edit left as they were is not made again, and the search
 * of one it changed finds what it evaluated before of the others. A plan
 * made with a cache is the same bytes as one made without. One plan at a
 * time may use a cache; it holds about 150 MiB at most (a session of 40
 * edits of 10,000 replicas peaked at 103 MiB, the process whole). */
typedef struct gs_plan_cache gs_plan_cache;
GS_EXPORT
int gs_plan_cache_new(gs_plan_cache **out, gs_error *err);
GS_EXPORT
void gs_plan_cache_free(gs_plan_cache *c);

typedef struct gs_plan_opts {
	unsigned version;  /* GS_PLAN_OPTS_VERSION, set by _INIT */
	/* Wall-time limit of the optimiser's search, in ms; 0: the default,
	 * GS_PLAN_TIME_LIMIT_MS. The search is deterministic below it; a
	 * search the limit stops keeps its best plan and its bound. N times
	 * the default also gives the model search N times its budget (a
	 * count of re-packings), and the cheaper of that plan and the
	 * default's stands. */
	unsigned time_limit_ms;
	/* How many threads the planner may run at once: 0, the default, or
	 * 2 and above: two (it has two tasks to run side by side); 1: the
	 * calling thread alone. The plan is the same bytes either way. */
	unsigned threads;
	/* What earlier plans found (the caller's, which must outlive the
	 * call); NULL: none. */
	gs_plan_cache *cache;
	/* Nonzero: the plan's texts (each workload's why and notes) wait for
	 * gs_plan_texts, for a caller that may show only the summary; until
	 * then why is NULL and n_notes 0. 0: they are written. */
	unsigned texts_later;
	/* Nonzero: the plan holds its summary's totals alone, for a caller
	 * that shows what an edit costs and plans again (with the same cache)
	 * when asked for more. The costs, GPUs, instances and utilization
	 * before, after and dedicated, and the savings, are those of the whole
	 * plan; pinned_per_hour and lower_bound_per_hour are -1; idle and
	 * current savings are 0, sharing_limit and costs_more NULL; the plan has
	 * no nodes, workloads, warnings, texts or clouds. It skips the records,
	 * the reasons, the bound and the pinned plan: at 10,000 replicas, about a
	 * third of a REPL edit; with `cloud: all`, a cloud's volume bound is
	 * summed only where it may rule the cloud out. 0: the whole plan. */
	unsigned summary_only;
	/* Nonzero: gs_plan_make may return while the planner's second
	 * thread still works out the plan's last figures (the summary's
	 * pinned_per_hour and sharing_limit), so that the caller writes the
	 * plan meanwhile: gs_plan_write waits for them where it writes them,
	 * after the records (at 10^6 replicas the writing took 1 s of the
	 * 1.5 s the first thread waited). gs_plan_finish waits for them, and
	 * so does the first gs_plan_summary_get; call gs_plan_finish before
	 * handing the plan to anything else (an emitter, a report).
	 * gs_plan_free waits too. With `cloud: all`, or a time limit above
	 * the default, the plan comes whole. 0: it always does. */
	unsigned finish_later;
} gs_plan_opts;
#define GS_PLAN_TIME_LIMIT_MS 60000
#define GS_PLAN_OPTS_VERSION 7
#define GS_PLAN_OPTS_INIT { GS_PLAN_OPTS_VERSION, 0, 0, NULL, 0, 0, 0 }

/* How much the plan may cost above the best possible, from its lower
 * bound, in tenths of a percent rounded up; -1 without a bound. */
GS_EXPORT
int gs_plan_gap_permille(const gs_plan_summary *s);

/* Plans the scenario: the cheapest deployable placement (ties: fewer GPUs,
 * then fewer instances), in one cloud: the scenario's, or with `cloud:
 * all` the cheapest single cloud that holds every workload (each is
 * planned; gs_plan_cloud_at lists them). A plan never spans clouds.
 * Deterministic. GS_ENOFIT explains a workload nothing can hold. */
GS_EXPORT
int gs_plan_make(const gs_scenario *s, const gs_plan_opts *opts,
                 gs_plan **out, gs_error *err);
GS_EXPORT
void gs_plan_free(gs_plan *p);
/* Writes the texts of a plan made with texts_later: the same texts, byte
 * for byte, as a plan made without it. 0 at once when they are written.
 * Not while another thread reads p. */
GS_EXPORT
int gs_plan_texts(gs_plan *p, gs_error *err);
/* Waits for the last figures of a plan made with finish_later and sets
 * them: 0 (at once for a plan made whole), or GS_ENOMEM. Not while
 * another thread reads p. */
GS_EXPORT
int gs_plan_finish(gs_plan *p, gs_error *err);

GS_EXPORT
const gs_plan_summary *gs_plan_summary_get(const gs_plan *p);
/* The scenario the plan was made from. A plan borrows its scenario: it
 * must outlive the plan, and editing it invalidates the plan. */
GS_EXPORT
const gs_scenario *gs_plan_scenario(const gs_plan *p);
GS_EXPORT
size_t gs_plan_node_count(const gs_plan *p);
GS_EXPORT
const gs_plan_node *gs_plan_node_at(const gs_plan *p, size_t i);
GS_EXPORT
size_t gs_plan_workload_count(const gs_plan *p);
GS_EXPORT
const gs_plan_workload *gs_plan_workload_at(const gs_plan *p, size_t i);
GS_EXPORT
size_t gs_plan_team_count(const gs_plan *p);
GS_EXPORT
const gs_plan_team *gs_plan_team_at(const gs_plan *p, size_t i);
/* The clouds compared under `cloud: all` (none otherwise). */
GS_EXPORT
size_t gs_plan_cloud_count(const gs_plan *p);
GS_EXPORT
const gs_plan_cloud *gs_plan_cloud_at(const gs_plan *p, size_t i);
GS_EXPORT
size_t gs_plan_warning_count(const gs_plan *p);
GS_EXPORT
const char *gs_plan_warning_at(const gs_plan *p, size_t i);

/* The plan's JSON/YAML contract (gpushare-plan keys in gpushare(1)). */
GS_EXPORT
int gs_doc_plan(const gs_plan *p, gs_doc **out, gs_error *err);

/* What sharing costs plan workload i in throughput, and in money per unit
 * of work where it gives a `throughput`. */
typedef struct gs_plan_retention {
	/* 0: its replicas hold whole GPUs (dedicated), or the profiles have no
	 * row for its strategy; the range and source are then unset. */
	int shared;
	gs_strategy strategy;
	gs_backend backend;         /* its GPUs' with GS_STRATEGY_FRACTION */
	int64_t low_ppm, high_ppm;  /* of its dedicated-GPU throughput */
	const char *source;         /* the profile's, or "your measurement" */
	int measured;               /* 1: its own `retention` */
	/* With a throughput (unit not GS_WORK_NONE): what a million tokens,
	 * or a thousand requests, cost with one dedicated GPU of its model per
	 * replica (at the plan's price per GPU of the instance it is planned
	 * on), and in the plan: its cost_per_hour over what its replicas serve
	 * at the low and at the high retention. Rounded to the micro-dollar. */
	gs_work_unit unit;
	gs_micros before, after_low, after_high;
	int pays;                   /* 1: after_low is at most before (exactly) */
} gs_plan_retention;

/* Fills *out for plan workload i (gs_plan_workload_at). */
GS_EXPORT
int gs_plan_retention_at(const gs_plan *p, size_t i, gs_plan_retention *out, gs_error *err);
/* What the per-unit figures count: "1M tokens", "1k requests", or "". */
GS_EXPORT
const char *gs_work_per_name(gs_work_unit u);

/* Advice for one workload without a plan: the strategies it may use, in
 * order of preference, and why the others are ruled out. `out` is a
 * NUL-terminated text the caller frees with free(). */
GS_EXPORT
int gs_advise(const gs_catalog *cat, const gs_workload *w, char **out,
              gs_error *err);
/* The same where the cluster has the fraction backends b[0..n) (a workload
 * file's `fractions`, in its order of preference). */
GS_EXPORT
int gs_advise_fractions(const gs_catalog *cat, const gs_workload *w, const gs_backend *b,
                        size_t n, char **out, gs_error *err);

/* ------------------------------------------------------------------ */
/* Emitting the Kubernetes configuration of a plan                     */

typedef enum gs_emit_kind {
	GS_EMIT_DEVICE_PLUGIN,   /* device-plugin-config.yaml: ConfigMap */
	GS_EMIT_OPERATOR_VALUES, /* gpu-operator-values.yaml: Helm values */
	GS_EMIT_MIG_PARTED,      /* mig-config.yaml: mig-parted ConfigMap */
	GS_EMIT_LABELS,          /* labels.sh: kubectl label lines */
	GS_EMIT_WORKLOADS,       /* workloads.yaml: patches or Deployments */
	GS_EMIT_DRA,             /* resourceclaims.yaml: DRA claims */
	GS_EMIT_KARPENTER,       /* karpenter.yaml: NodePools, EC2NodeClass */
	GS_EMIT_DRA_DRIVER,      /* dra-driver-values.yaml: DRA driver Helm values */
	GS_EMIT_HAMI             /* hami-values.yaml: HAMi Helm values (fractions) */
} gs_emit_kind;
#define GS_EMIT_KIND_COUNT 9

/* AUTO: the newest the cluster's Kubernetes (kube_minor) serves: v1 from
 * 1.34, v1beta2 on 1.33, v1beta1 on 1.32. */
typedef enum gs_dra_api { GS_DRA_V1, GS_DRA_V1BETA2, GS_DRA_V1BETA1, GS_DRA_AUTO } gs_dra_api;

typedef struct gs_emit_opts {
	unsigned version;         /* GS_EMIT_OPTS_VERSION, set by _INIT */
	int rename_shared;        /* advertise nvidia.com/gpu.shared */
	int example_deployments;  /* complete Deployments, not patches */
	int dra;                  /* DRA claims even when via is device-plugin */
	gs_dra_api dra_api;
	const char *namespace_;   /* of the ConfigMaps (gpu-operator) */
	const char *source;       /* named in each file's header, or NULL */
	/* The cluster's Kubernetes minor version (1.32 ... 1.37 as 32 ... 37):
	 * it decides the DRA API and its features. */
	int kube_minor;
	/* The workloads' real objects (gs_manifests_load), or NULL: with
	 * them, patches name their containers and pinned placements become
	 * complete copies. Borrowed. */
	const struct gs_manifests *manifests;
} gs_emit_opts;

#define GS_EMIT_OPTS_VERSION 2
/* The oldest Kubernetes release upstream still supports (1.35, Nov 2026). */
#define GS_KUBE_MINOR_DEFAULT 35
#define GS_KUBE_MINOR_MIN 32
#define GS_KUBE_MINOR_MAX 37
#define GS_EMIT_OPTS_INIT { GS_EMIT_OPTS_VERSION, 0, 0, 0, GS_DRA_AUTO, "gpu-operator", NULL, \
	                        GS_KUBE_MINOR_DEFAULT, NULL }

/* Kubernetes objects read from a YAML or JSON stream (documents, or a
 * List): the workloads' real manifests, given with --manifests. */
typedef struct gs_manifests gs_manifests;
/* Loads path ("-": stdin is not accepted; the CLI reads it). */
GS_EXPORT
int gs_manifests_load(const char *path, gs_manifests **out, gs_error *err);
GS_EXPORT
void gs_manifests_free(gs_manifests *m);

/* Writes data to path through a temporary file in the same directory,
 * flushed and renamed into place: a reader sees the old file or the new
 * one, never a mix. With exclusive, an existing path is refused. */
GS_EXPORT
int gs_write_file(const char *path, const char *data, size_t len, int exclusive,
                  gs_error *err);
/* Writes a set of files into dir as one: names[i] holding texts[i], where
 * a NULL text is a name of the set's kind that this set leaves out (a
 * pattern, with '*', for names a set makes as it needs). The
 * set is written to a new directory beside dir and swapped in with one
 * rename, so dir holds the old set or the new one, never a mix. dir is the
 * set's own: an existing dir may hold only files of these names (an older
 * set), and they are refused unless force. dir's parent must exist. */
GS_EXPORT
int gs_write_dir(const char *dir, const char *const *names, const char *const *texts, size_t n,
                 int force, gs_error *err);

/* The files `plan --emit DIR` writes, made whole before any is written:
 * every wanted kind's file (Karpenter only with karpenter), the workloads'
 * patches one file per object ("patch-deployment-ml-chat.yaml"), the
 * copies and manifests they patch, and kustomization.yaml, which applies
 * the Kubernetes objects and the patches with `kubectl apply -k DIR`.
 * Names whose text is NULL are of the set's kind but left out this time
 * (for gs_write_dir). */
typedef struct gs_emit_set gs_emit_set;
GS_EXPORT
int gs_emit_set_make(const gs_plan *p, const gs_emit_opts *o, int karpenter,
                     gs_emit_set **out, gs_error *err);
GS_EXPORT
size_t gs_emit_set_count(const gs_emit_set *s);
GS_EXPORT
const char *const *gs_emit_set_names(const gs_emit_set *s);
GS_EXPORT
const char *const *gs_emit_set_texts(const gs_emit_set *s);
GS_EXPORT
void gs_emit_set_free(gs_emit_set *s);

GS_EXPORT
const char *gs_emit_kind_name(gs_emit_kind k);  /* "device-plugin" */
GS_EXPORT
const char *gs_emit_file_name(gs_emit_kind k);  /* "device-plugin-config.yaml" */
GS_EXPORT
int gs_emit_kind_parse(const char *name, gs_emit_kind *out);
/* Whether a plan has anything of this kind to emit (no MIG GPUs: no
 * mig-parted config; DRA only with via: dra or opts->dra; Karpenter only
 * for AWS nodes). */
GS_EXPORT
int gs_emit_wanted(const gs_plan *p, gs_emit_kind k, const gs_emit_opts *o);
/* Renders one kind as text (YAML, or a shell script for labels); the
 * caller frees *out with free(). User strings go through the YAML
 * emitter or are sanitized to label values; nothing is pasted. */
GS_EXPORT
int gs_emit(const gs_plan *p, gs_emit_kind k, const gs_emit_opts *o, char **out,
            gs_error *err);

/* ------------------------------------------------------------------ */
/* Lint: checking existing device-plugin, mig-parted, DRA and          */
/* Karpenter configuration (gpushare-lint(1))                          */

typedef enum gs_severity { GS_SEVERITY_ERROR, GS_SEVERITY_WARNING } gs_severity;

GS_EXPORT
const char *gs_severity_name(gs_severity s); /* "error", "warning" */

/* One rule. Static, read-only; each rule has one severity. */
typedef struct gs_lint_rule {
	const char *id;       /* stable and short: "dp-replicas" */
	gs_severity severity;
	const char *summary;  /* one line: what the rule catches */
} gs_lint_rule;

/* Every rule, in the manual's order. */
GS_EXPORT
size_t gs_lint_rule_count(void);
GS_EXPORT
const gs_lint_rule *gs_lint_rule_at(size_t i);

/* One problem. Read-only record owned by its gs_lint; valid until the next
 * gs_lint_file/gs_lint_buffer call on it or gs_lint_free. */
typedef struct gs_finding {
	const char *file;
	unsigned long line, col;  /* 1-based, in the file */
	gs_severity severity;
	const char *id;           /* the rule's id */
	const char *message;      /* what is wrong and what to write instead */
} gs_finding;

typedef struct gs_lint_opts {
	unsigned version;  /* GS_LINT_OPTS_VERSION, set by _INIT */
	/* For MIG geometry checks; NULL skips them. Borrowed: it must outlive
	 * the gs_lint. */
	const gs_catalog *catalog;
	/* The GPU every mig-parted config is for (a MIG model of catalog).
	 * NULL: the model a device-filter names, else any MIG model. */
	const gs_gpu *gpu;
} gs_lint_opts;

#define GS_LINT_OPTS_VERSION 1
#define GS_LINT_OPTS_INIT { GS_LINT_OPTS_VERSION, NULL, NULL }

typedef struct gs_lint gs_lint;

/* An empty result that files are linted into. opts is copied. */
GS_EXPORT
int gs_lint_new(const gs_lint_opts *opts, gs_lint **out, gs_error *err);
GS_EXPORT
void gs_lint_free(gs_lint *l);

/* Lints a file (path "-" is stdin) or a buffer named `name`: a bare
 * device-plugin or mig-parted config, Helm values that embed them, or a
 * Kubernetes YAML stream (documents split on "---" lines; ConfigMap data
 * values are linted as configs, with positions in the file). Adds the
 * file's findings sorted by position. Fails (GS_EIO, GS_ESYNTAX with the
 * position, GS_ELIMIT) only when the input cannot be read or is not YAML;
 * problems in the configs are findings, not failures. */
GS_EXPORT
int gs_lint_file(gs_lint *l, const char *path, gs_error *err);
GS_EXPORT
int gs_lint_buffer(gs_lint *l, const char *name, const char *buf, size_t len,
                   gs_error *err);

/* The rules across files: runs them over everything linted into l so far
 * (device-plugin configs; Deployment, StatefulSet, DaemonSet, ReplicaSet,
 * Job, CronJob and Pod objects and patches of their pod templates; Nodes,
 * NodePools, labels.sh scripts, GPU Operator values) and adds their
 * findings, sorted by file (in the order linted) and position. Call it
 * after the last file; a second call replaces the findings of the first.
 * Fails only with GS_ENOMEM. A file holding none of these (empty, prose,
 * an object lint does not know) fails gs_lint_file with GS_ESCHEMA. */
GS_EXPORT
int gs_lint_finish(gs_lint *l, gs_error *err);

GS_EXPORT
size_t gs_lint_count(const gs_lint *l);
GS_EXPORT
const gs_finding *gs_lint_at(const gs_lint *l, size_t i);
GS_EXPORT
size_t gs_lint_error_count(const gs_lint *l);   /* findings that are errors */

/* The findings as a list of {file, line, col, severity, id, message}. */
GS_EXPORT
int gs_doc_lint(const gs_lint *l, gs_doc **out, gs_error *err);

/* ------------------------------------------------------------------ */
/* Cluster import: kubectl inventories and DCGM metrics                */

typedef struct gs_inventory gs_inventory;

/* A byte stream the library reads without choosing where it comes from: a
 * file, kubectl's output through a pipe, a body fetched over HTTP. read
 * fills up to cap bytes of buf and returns how many, 0 at the end, or a
 * negative GS_E* code with err filled. name is what errors name
 * ("pods.json", "<stdin>", "kubectl get pods"). close, when set, is called
 * by gs_source_close. The caller owns the source and what ud points to. */
typedef struct gs_source {
	const char *name;
	long (*read)(void *ud, char *buf, size_t cap, gs_error *err);
	void (*close)(void *ud);
	void *ud;
} gs_source;

/* What a memory source reads from; it must outlive the source. */
typedef struct gs_memory_source {
	const char *buf;
	size_t len, at;
} gs_memory_source;

/* A source over len bytes at buf (borrowed, not copied). */
GS_EXPORT
void gs_source_memory(gs_source *src, gs_memory_source *state, const char *name,
                      const char *buf, size_t len);
/* A source over the file at path, opened now; gs_source_close closes it.
 * Fails with GS_EIO ("cannot open: ...", "is a directory"). */
GS_EXPORT
int gs_source_open_file(gs_source *src, const char *path, gs_error *err);
/* A source over the open descriptor fd (e.g. 0 for stdin, or a pipe), not
 * closed by gs_source_close. name must outlive the source. */
GS_EXPORT
int gs_source_open_fd(gs_source *src, int fd, const char *name, gs_error *err);
/* Calls src->close; src may be NULL or closed already. */
GS_EXPORT
void gs_source_close(gs_source *src);

typedef struct gs_import_opts {
	unsigned version;             /* GS_IMPORT_OPTS_VERSION, set by _INIT */
	const char *nodes;            /* `kubectl get nodes -o json`; "-": stdin */
	const char *pods;             /* `kubectl get pods -A -o json`; "-": stdin */
	const char *const *metrics;   /* dcgm-exporter scrapes (text format) or */
	size_t n_metrics;             /* Prometheus query results (JSON)       */
	int percentile;               /* 1..100 */
	const char *team_label;       /* pod label naming the team; NULL: namespace */
	int strict;                   /* 1: a bad sample or unknown GPU fails the
	                                 import, not a warning */
} gs_import_opts;

#define GS_IMPORT_OPTS_VERSION 2
#define GS_IMPORT_OPTS_INIT { GS_IMPORT_OPTS_VERSION, NULL, NULL, NULL, 0, 95, NULL, 0 }

/* What a source given to gs_import_read holds. */
typedef enum gs_import_input {
	GS_INPUT_NODES,    /* `kubectl get nodes -o json` (or -o yaml) */
	GS_INPUT_PODS,     /* `kubectl get pods -A -o json` */
	GS_INPUT_METRICS,  /* a dcgm-exporter scrape or a Prometheus query result */
	GS_INPUT_CLAIMS    /* `kubectl get resourceclaims -A -o json`: DRA claims, read
	                      after the pod lists (before or after metrics); only
	                      chargeback (gs_chargeback_make) reads what they hold */
} gs_import_input;

/* Activity below this share of a GPU (p95) makes an allocated GPU idle. */
#define GS_IMPORT_IDLE_PPM 50000

/* One GPU of a node, as its metrics show it. */
typedef struct gs_import_gpu {
	int index;              /* the exporter's `gpu` label */
	int measured;           /* 0: no samples for this GPU */
	int attributed;         /* samples of a counted pod name this GPU */
	int64_t compute_ppm;    /* percentile of activity, of the whole GPU */
	int64_t memory_mib;     /* percentile of framebuffer used; -1: none */
	const char *metric;     /* DCGM field the activity came from */
	int holders;            /* pods (not MIG) its readings went to */
	/* How: "pod" (its one pod's series), "sole" (series without pod
	 * labels, of the one pod that holds it), "per-pod" (each pod's own
	 * series), "even" (the GPU's series, divided by replicas held); NULL:
	 * to no pod. */
	const char *division;
} gs_import_gpu;

/* A node with NVIDIA GPUs. Read-only record owned by the inventory. */
typedef struct gs_import_node {
	const char *name;
	const char *instance_type;   /* instance-type label; NULL: none */
	const gs_instance *instance; /* NULL: not in the catalog */
	const char *product;         /* nvidia.com/gpu.product; NULL: none */
	const gs_gpu *gpu;
	int gpu_count;               /* physical GPUs */
	int64_t gpu_memory_mib;      /* nvidia.com/gpu.memory in MiB; 0: none */
	const char *sharing;         /* "none", "time-slicing", "mps",
	                                "mig-single" or "mig-mixed" */
	int replicas;                /* advertised per GPU when time-sliced */
	int pods;                    /* counted pods that run here */
	int64_t requested_ppm;       /* GPUs its pods request, in ppm of a GPU */
	const gs_import_gpu *gpus;   /* n_gpus (= gpu_count) entries */
	size_t n_gpus;
	int idle_unrequested;        /* GPUs no pod requests */
	int idle_low;                /* allocated, but activity under the idle share */
	gs_micros price_per_hour;    /* on-demand; -1: unknown */
	gs_micros idle_per_month;    /* price share of the idle GPUs */
} gs_import_node;

enum {
	GS_IMPORT_NO_METRICS = 1,   /* no pod has metrics: keeps its whole request */
	GS_IMPORT_PARTIAL = 2,      /* some pods have no metrics */
	GS_IMPORT_MIXED_MODELS = 4, /* its pods run on several GPU models */
	GS_IMPORT_UNSCHEDULED = 8,  /* no pod on a known GPU node: left out */
	GS_IMPORT_MULTI_GPU = 16    /* pods request several whole GPUs each: one
	                             * replica of gpus_per_replica GPUs per pod */
};

/* A workload: the Running and Pending pods of one owner that request GPUs.
 * Read-only record owned by the inventory. */
typedef struct gs_import_workload {
	const char *name;          /* in the workload file (a DNS label) */
	const char *namespace_;    /* also its tenant */
	const char *owner_kind;    /* "Deployment", "StatefulSet", "Job", "Pod", ... */
	const char *owner;
	const char *team;
	int pods, pods_measured;   /* pods, and pods with activity samples */
	int replicas;              /* GPUs (or GPU slices) its pods request */
	int64_t requested_ppm;     /* all its scheduled pods, in ppm of a GPU */
	const gs_gpu *gpu;         /* the model most of its pods run on */
	const gs_instance *instance; /* the instance most run on; NULL: unknown */
	int nodes;                 /* distinct nodes its pods run on */
	const char *metric;        /* DCGM field of compute; NULL: not measured */
	int64_t compute_ppm;       /* percentile per replica, of a whole GPU */
	int64_t memory_mib;        /* percentile of FB used per replica */
	int memory_measured;
	int64_t gpu_memory_mib;    /* what the workload file says: gpuMemory */
	int compute_percent;       /* and compute, up to a whole percent */
	unsigned flags;            /* GS_IMPORT_* */
	/* Whole GPUs one pod requests (the most of its pods): its file's
	 * gpusPerReplica; each such pod is one replica, and compute_ppm and
	 * memory_mib are per GPU (percentiles over every sample of each of its
	 * GPUs). 1 for pods of one GPU, of a MIG slice or of a shared GPU. */
	int gpus_per_replica;
	int64_t file_compute_ppm;  /* compute as the file writes it, in ppm */
	/* What its pods hold today of the nodes they run on: the share of its
	 * `current` instances (GPUs held over their GPUs), and its price (each
	 * node's price split by the GPUs held; -1: a price is unknown). */
	int64_t current_ppm;
	gs_micros current_per_hour;
} gs_import_workload;

typedef struct gs_import_summary {
	int nodes, gpus, pods, workloads;
	int idle_gpus;
	int percentile;
	int hours_per_month;
	const char *cloud;         /* "aws", ... or "all" when mixed or unknown */
	gs_micros cost_per_hour;   /* on-demand, of the nodes with a known price */
	gs_micros idle_per_month;
	size_t samples;            /* DCGM samples read (of the fields used) */
	size_t unmatched;          /* of those, matching no pod and no GPU */
	size_t bad_samples;        /* lines of metrics skipped as unreadable */
	int nodes_left_out;        /* GPU nodes left out: an unknown GPU */
} gs_import_summary;

/* Reads the inventory and metrics that opts name and measures every
 * workload and GPU. Compute comes from DCGM_FI_PROF_SM_ACTIVE, else
 * DCGM_FI_PROF_GR_ENGINE_ACTIVE, else DCGM_FI_DEV_GPU_UTIL; memory from
 * DCGM_FI_DEV_FB_USED; each the opts->percentile over all samples of a
 * workload's pods, per replica (nearest rank). A shared GPU's readings are
 * divided among the pods that hold it (gpushare-import(1), "Shared GPUs").
 * A workload without samples keeps what it requested: a whole GPU (compute
 * 100%, memory the GPU's), its MIG slice, or its share of a time-sliced or
 * MPS GPU. A bad metrics line and a node of an unknown GPU are warnings
 * (the node left out with its pods), or with opts->strict errors naming
 * the line or the label value. The catalog must outlive the inventory. */
GS_EXPORT
int gs_import_load(const gs_catalog *cat, const gs_import_opts *opts,
                   gs_inventory **out, gs_error *err);
GS_EXPORT
void gs_import_free(gs_inventory *inv);

/* The same import from sources, for inputs that are not files (pipes,
 * HTTP bodies) or come several to a kind: gs_import_begin takes opts
 * (nodes, pods and metrics are ignored), then gs_import_read is called
 * for every node list, then every pod list, then every metrics source
 * (lists of one kind are merged), then gs_import_end measures. Reading
 * out of that order fails with GS_EINVAL. After any failure the inventory
 * only takes gs_import_free. The caller frees *out with gs_import_free. */
GS_EXPORT
int gs_import_begin(const gs_catalog *cat, const gs_import_opts *opts,
                    gs_inventory **out, gs_error *err);
GS_EXPORT
int gs_import_read(gs_inventory *inv, gs_import_input what, const gs_source *src,
                   gs_error *err);
GS_EXPORT
int gs_import_end(gs_inventory *inv, gs_error *err);
/* The i-th DCGM field (metric name) the import reads from a metrics
 * source, from 0; NULL past the last. A caller that queries Prometheus
 * asks for these. Static strings. */
GS_EXPORT
const char *gs_import_metric_field(size_t i);

GS_EXPORT
const gs_import_summary *gs_import_summary_get(const gs_inventory *inv);
GS_EXPORT
size_t gs_import_node_count(const gs_inventory *inv);
GS_EXPORT
const gs_import_node *gs_import_node_at(const gs_inventory *inv, size_t i);
GS_EXPORT
size_t gs_import_workload_count(const gs_inventory *inv);
GS_EXPORT
const gs_import_workload *gs_import_workload_at(const gs_inventory *inv, size_t i);
GS_EXPORT
size_t gs_import_warning_count(const gs_inventory *inv);
GS_EXPORT
const char *gs_import_warning_at(const gs_inventory *inv, size_t i);

/* A scenario of the scheduled workloads: replicas, gpuMemory (percentile
 * of FB used rounded up to 0.5 GiB, at most the GPU's memory), compute
 * (measured: rounded up to 0.1%, at least 1%; kept: the exact share),
 * measuredOn, team, tenant, current (with the share of its instances it
 * holds); cloud from the nodes. Its cluster cost is the on-demand price
 * of the GPU nodes, each once (the file's `cluster`). The caller frees
 * *out with gs_scenario_free. */
GS_EXPORT
int gs_import_scenario(const gs_inventory *inv, gs_scenario **out, gs_error *err);
/* That scenario as a workload file (YAML) with a header comment; the
 * caller frees *out with free(). */
GS_EXPORT
int gs_import_render(const gs_inventory *inv, char **out, gs_error *err);
/* Writes that file to path atomically; with exclusive, an existing path
 * is refused. */
GS_EXPORT
int gs_import_write(const gs_inventory *inv, const char *path, int exclusive,
                    gs_error *err);
/* The utilization report: nodes, GPUs, workloads, idle money. */
GS_EXPORT
int gs_doc_import_report(const gs_inventory *inv, gs_doc **out, gs_error *err);

/* ------------------------------------------------------------------ */
/* Chargeback: who pays for which GPU of an imported cluster          */

/* Each node's hourly price split over the pods that hold its GPUs, and
 * idle: what nobody holds. The rules (gpushare-cost(1) states them):
 *  - a dedicated GPU is its holder's: k of a node's n GPUs pay k/n;
 *  - a time-sliced or MPS GPU advertised as R replicas: each replica held
 *    is 1/R of it, unheld replicas are idle; with GS_COST_USAGE a pod with
 *    activity samples of its own holds its mean activity instead (k pods
 *    that report one and the same series, as exporters without per-pod
 *    series do, its mean over k), the rest is idle, and pods without
 *    samples keep 1/R per replica;
 *  - a MIG slice is its share of the GPU by gs_cost_mig; where the slices a
 *    node advertises add up to more than its GPUs, they are scaled down to
 *    fit, and capacity no slice takes is idle;
 *  - a DRA claim's device is a whole GPU, or a MIG slice as above, or, when
 *    the claim states the memory it consumes, that share of the GPU's
 *    memory; a claim reserved for several pods is shared equally;
 *  - gpu_weight_pct of a node's price is its GPUs'; the rest (its CPU and
 *    memory) is charged to the pods on the node by what they hold there,
 *    or to idle when no pod holds anything there;
 *  - where a node's pods hold more than its GPUs, they are scaled down.
 * Money is split exactly, per node, by the largest remainder (ties to the
 * earlier pod), so the pods' costs and idle add up to each node's price to
 * the micro-dollar. Nodes without a known price are listed but excluded
 * from every total. */
typedef struct gs_chargeback gs_chargeback;

typedef enum gs_cost_basis {
	GS_COST_ALLOCATION, /* what pods hold, whether they use it or not */
	GS_COST_USAGE       /* shared GPUs by measured activity */
} gs_cost_basis;

/* A MIG slice's share of its GPU: the larger of its memory slices over the
 * GPU's and its compute slices over the GPU's (the default), or either. */
typedef enum gs_cost_mig { GS_COST_MIG_MAX, GS_COST_MIG_MEMORY, GS_COST_MIG_COMPUTE } gs_cost_mig;

/* What a row adds up: a workload (a pod's owner), a namespace, a team. */
typedef enum gs_cost_by { GS_COST_BY_WORKLOAD, GS_COST_BY_NAMESPACE, GS_COST_BY_TEAM } gs_cost_by;

typedef struct gs_chargeback_opts {
	unsigned version;        /* GS_CHARGEBACK_OPTS_VERSION, set by _INIT */
	gs_cost_basis basis;
	gs_cost_mig mig_share;
	int gpu_weight_pct;      /* 0..100: the GPUs' part of a node's price (100) */
	int spread_idle;         /* 1: idle is spread over the rows by their cost */
	gs_cost_by by;
} gs_chargeback_opts;

#define GS_CHARGEBACK_OPTS_VERSION 1
#define GS_CHARGEBACK_OPTS_INIT \
	{ GS_CHARGEBACK_OPTS_VERSION, GS_COST_ALLOCATION, GS_COST_MIG_MAX, 100, 0, \
	  GS_COST_BY_WORKLOAD }

/* One row: a workload, namespace or team. A name that its pods do not all
 * share (the team of a namespace of several teams) is NULL, as are the
 * workload and its kind unless rows are by workload. Read-only record
 * owned by the chargeback. */
typedef struct gs_cost_row {
	const char *namespace_;
	const char *team;
	const char *workload;      /* the owner's name ("llm-api") */
	const char *owner_kind;    /* "Deployment", ..., "Pod", "ResourceClaim" */
	const char *const *nodes;  /* the nodes its pods hold GPUs on, sorted */
	size_t n_nodes;
	int pods;                  /* pods that hold a GPU or part of one */
	int pods_by_usage;         /* of those, charged by measured activity */
	int64_t gpu_share;         /* GPUs held, in millionths of a GPU */
	gs_micros held_per_hour;   /* what its pods hold: GPU and host shares */
	gs_micros idle_per_hour;   /* idle spread to it (spread_idle), else 0 */
	gs_micros cost_per_hour;   /* held + idle: what it pays */
} gs_cost_row;

/* One pod's part of one node. Read-only record owned by the chargeback. */
typedef struct gs_cost_holder {
	const char *namespace_, *pod, *workload, *owner_kind, *team;
	int64_t gpu_share;         /* millionths of a GPU */
	gs_micros cost_per_hour;
	int by_usage;              /* charged by measured activity */
	int dra;                   /* holds through a ResourceClaim */
} gs_cost_holder;

/* A GPU node, its price split between its holders and idle. Read-only
 * record owned by the chargeback. */
typedef struct gs_cost_node {
	const char *name;
	const char *instance_type;   /* NULL: none */
	const gs_gpu *gpu;
	int gpu_count;
	const char *sharing;         /* as gs_import_node says */
	int replicas;
	gs_micros price_per_hour;    /* -1: unknown, left out of every total */
	int64_t held_share;          /* GPUs held, in millionths of a GPU */
	gs_micros held_per_hour;
	gs_micros idle_per_hour;     /* before any spreading */
	const gs_cost_holder *holders; /* by namespace, then pod */
	size_t n_holders;
} gs_cost_node;

typedef struct gs_chargeback_summary {
	gs_chargeback_opts opts;
	int nodes, nodes_unpriced, gpus, pods, workloads, teams;
	int64_t held_share;          /* GPUs held on priced nodes (millionths) */
	int64_t idle_share;          /* GPUs nobody holds on priced nodes */
	gs_micros total_per_hour;    /* the priced nodes' prices */
	gs_micros held_per_hour;     /* what pods hold, before spreading idle */
	gs_micros idle_per_hour;     /* the idle line: not charged to any row */
	gs_micros spread_per_hour;   /* idle spread over the rows */
	int hours_per_month;
} gs_chargeback_summary;

/* The chargeback of an ended import. It borrows the inventory's strings:
 * the inventory must outlive it. The caller frees *out with
 * gs_chargeback_free. Fails with GS_EINVAL for options out of range. */
GS_EXPORT
int gs_chargeback_make(const gs_inventory *inv, const gs_chargeback_opts *opts,
                       gs_chargeback **out, gs_error *err);
GS_EXPORT
void gs_chargeback_free(gs_chargeback *c);
GS_EXPORT
const gs_chargeback_summary *gs_chargeback_summary_get(const gs_chargeback *c);
/* The rows, sorted by namespace, workload and kind (by team: team). */
GS_EXPORT
size_t gs_chargeback_row_count(const gs_chargeback *c);
GS_EXPORT
const gs_cost_row *gs_chargeback_row_at(const gs_chargeback *c, size_t i);
/* The same rows by team, whatever opts.by is (the report's table). */
GS_EXPORT
size_t gs_chargeback_team_count(const gs_chargeback *c);
GS_EXPORT
const gs_cost_row *gs_chargeback_team_at(const gs_chargeback *c, size_t i);
/* The GPU nodes, in the inventory's order. */
GS_EXPORT
size_t gs_chargeback_node_count(const gs_chargeback *c);
GS_EXPORT
const gs_cost_node *gs_chargeback_node_at(const gs_chargeback *c, size_t i);
/* Nodes without a price, pods charged by allocation under the usage
 * basis, nodes whose pods hold more than its GPUs. */
GS_EXPORT
size_t gs_chargeback_warning_count(const gs_chargeback *c);
GS_EXPORT
const char *gs_chargeback_warning_at(const gs_chargeback *c, size_t i);
/* {by, basis, mig_share, gpu_weight_percent, spread_idle, hours_per_month,
 * total_per_hour, held_per_hour, idle_per_hour, spread_per_hour, nodes,
 * rows, warnings}: dollars as numbers with their exact decimals, GPU
 * shares with six; the rows' cost_per_hour plus idle_per_hour equal
 * total_per_hour exactly. */
GS_EXPORT
int gs_doc_chargeback(const gs_chargeback *c, gs_doc **out, gs_error *err);
/* The rows as CSV: a header row, then the columns of the document's rows
 * (nodes joined by ';'), fields quoted as RFC 4180 says, lines ending in
 * LF; a last row "__idle__" holds idle_per_hour, so the cost column adds
 * up to total_per_hour. *out is the caller's to free(). */
GS_EXPORT
int gs_chargeback_csv(const gs_chargeback *c, char **out, gs_error *err);

/* ------------------------------------------------------------------ */
/* Reports: a plan as one self-contained HTML page                     */

/* Renders the plan as an HTML5 page: before and after costs, a chart of
 * the cost per team, the workloads, and a picture of every GPU's
 * partitions. The page loads nothing (inline CSS and SVG, no script) and
 * is the same bytes for the same plan. `title` names the plan (e.g. the
 * workload file; NULL: "the current scenario") and is escaped like every
 * other string. *out is NUL-terminated; the caller frees it with free(). */
GS_EXPORT
int gs_report_html(const gs_plan *p, const char *title, char **out, gs_error *err);

/* The chargeback as the same kind of page: the totals, the cost per row
 * with its idle, and a picture of each node's GPUs as bars split by the
 * pods that hold them, a colour per team, idle grey. The same bytes for
 * the same chargeback; the caller frees *out with free(). */
GS_EXPORT
int gs_report_cost_html(const gs_chargeback *c, const char *title, char **out,
                        gs_error *err);

/* ------------------------------------------------------------------ */
/* Documents: structured output rendered as JSON or YAML              */

typedef enum gs_format { GS_FORMAT_JSON, GS_FORMAT_YAML } gs_format;

/* Renders doc into a NUL-terminated string the caller frees with free(). */
GS_EXPORT
int gs_doc_render(const gs_doc *doc, gs_format fmt, char **out, gs_error *err);
GS_EXPORT
void gs_doc_free(gs_doc *doc);

/* Receives a streamed document's bytes in order, a chunk at a time: returns
 * 0, or a negative GS_E* code that stops the writing (the writer then
 * fails with that code). */
typedef int (*gs_write_fn)(void *ctx, const char *data, size_t len);

/* The document of gs_doc_plan, byte for byte what gs_doc_render gives for
 * it, written straight to `write` without building it: the memory it takes
 * does not grow with the plan. */
GS_EXPORT
int gs_plan_write(const gs_plan *p, gs_format fmt, gs_write_fn write, void *ctx,
                  gs_error *err);

/* The stable JSON/YAML shapes documented in gpushare(1). `filter` selects
 * one GPU (NULL: all); cloud/gpu select instances (NULL: all). */
GS_EXPORT
int gs_doc_gpus(const gs_catalog *cat, const gs_gpu *only, gs_doc **out,
                gs_error *err);
GS_EXPORT
int gs_doc_instances(const gs_catalog *cat, const char *cloud,
                     const gs_gpu *gpu, gs_doc **out, gs_error *err);
GS_EXPORT
int gs_doc_savings(const gs_savings *s, gs_doc **out, gs_error *err);
/* MIG geometries as data: {gpu, which, geometries: [[profile, ...], ...]},
 * and a check: {gpu, valid, reason, instances: [{profile, start, size}]}
 * (valid false is a result, not an error). */
GS_EXPORT
int gs_doc_mig_geometries(const gs_gpu *gpu, const gs_mig_profile *const *allowed,
                          size_t n, int which, gs_doc **out, gs_error *err);
GS_EXPORT
int gs_doc_mig_fit(const gs_gpu *gpu, const gs_mig_profile *const *profiles, size_t n,
                   gs_doc **out, gs_error *err);


#ifdef __cplusplus
}
#endif

#endif /* GPUSHARE_H */
