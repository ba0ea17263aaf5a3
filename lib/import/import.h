/*
 * import.h - the inventory's internals, shared by the files of lib/import
 * (internal). The public records (gs_import_node, gs_import_workload) are
 * the first member of each internal record and point into the strings it
 * owns.
 *
 *   import.c     gs_import_load: the readers in order
 *   nodes.c      GPU nodes, their resources and sharing
 *   pods.c       counted pods and the workloads they make up
 *   metrics.c    DCGM samples read as readings of GPUs and MIG instances
 *   share.c      a GPU's readings divided among the pods that hold it
 *   measure.c    readings reduced to percentiles, idle GPUs, file values
 *   inventory.c  warnings, names and keys; accessors; free
 *   owners.c     the workload that owns a pod
 *   duplicates.c nodes and pods that several lists (or one) repeat
 *   output.c     the scenario, the workload file, the report document
 *   holders.c    what each pod holds where, for chargeback (holders.h)
 *   claims.c     DRA ResourceClaims: the GPUs they allocate to pods
 * The readers read kubectl's lists through kube_list.h and Prometheus's
 * samples through prom.h. Calls go one way: import.c calls the readers
 * (nodes.c, pods.c, claims.c, metrics.c), share.c and measure.c; pods.c
 * calls nodes.c and claims.c, the pod readers call owners.c and holders.c;
 * they and output.c call inventory.c, which calls none of them but to
 * free what holders.c keeps; share.c and measure.c name fields through
 * metrics.c.
 */
#ifndef GS_IMPORT_H
#define GS_IMPORT_H

#include "base/strmap.h"
#include "doc/doc.h"

/* The DCGM fields the importer reads, in order of preference for compute. */
enum { M_SM, M_GR, M_UTIL, M_FB, M_COUNT };

typedef struct samples {
	double *v;
	size_t n, cap;
} samples;

/* No pod: a reading without pod labels (or with those of a pod that does
 * not run on the GPU's node). */
#define GS_NO_POD ((uint32_t)-1)

/* One sample of a physical GPU: its value, the instant it was taken (the
 * sample's timestamp, else its scrape: see measure.c), and the counted pod
 * whose labels it carries. */
typedef struct reading {
	double v;
	int64_t t;
	uint32_t pod;
} reading;

typedef struct readings {
	reading *r;
	size_t n, cap;
} readings;

/* Samples outside what a field can read (above 100 %, below 0): a data
 * error, counted and reported once per GPU or pod and field. */
typedef struct bad_values {
	size_t over, under;
	double max;
} bad_values;

/* The samples of one MIG instance, as read (a time-sliced instance's
 * readings are divided among its pods as a GPU's are). */
typedef struct mig_inst {
	int gpu;
	char *id, *profile;        /* GPU_I_ID, GPU_I_PROFILE */
	readings raw[M_COUNT];
} mig_inst;

/* A replica of a GPU (gpu >= 0) or of MIG instance i of the pod's node
 * (gpu = GS_VGPU_MIG(i)) that a pod's series name (the vgpu label). */
typedef struct pod_vgpu {
	int gpu;
	char *id;
} pod_vgpu;
#define GS_VGPU_MIG(i) (-2 - (int)(i))

/* One nvidia.com resource of a node and what one unit of it is. */
typedef struct ires {
	char *name;                /* "nvidia.com/mig-3g.20gb" */
	int64_t capacity;
	int64_t unit_ppm;          /* share of a GPU, for requested and idle GPUs */
	int64_t keep_ppm, keep_mib;/* what a pod without metrics keeps */
	const gs_mig_profile *mig; /* NULL: not a MIG slice */
	int replicas;              /* units per device (time-slicing, MPS) */
	int64_t hard_mib;          /* the most one unit can hold: GPU or slice */
} ires;

typedef struct inode {
	gs_import_node pub;
	char *name, *type, *product;
	const gs_mig_profile *mig; /* MIG single strategy: what nvidia.com/gpu is */
	ires *res;
	size_t n_res, cap_res;
	gs_import_gpu *gpus;
	samples *m;                /* gpu_count x M_COUNT: each GPU's own activity */
	readings *raw;             /* gpu_count x M_COUNT: every sample, as read */
	bad_values *bad;           /* gpu_count x M_COUNT */
	mig_inst *migs;            /* MIG instances whose series name no pod */
	size_t n_migs, cap_migs;
} inode;

/* A counted pod: Running or Pending, requesting GPUs. */
typedef struct ipod {
	char *ns, *name, *kind, *owner, *team;
	char **containers;         /* those requesting GPUs */
	size_t n_containers, cap_containers;
	size_t node;               /* index into nodes; GS_STRMAP_NONE: none */
	int units;                 /* GPUs or slices requested */
	int64_t ppm;               /* GPUs requested, in ppm of a GPU */
	int64_t keep_ppm, keep_mib;/* per unit, when it has no metrics */
	const gs_mig_profile *mig;
	double mig_scale;          /* a MIG instance's activity to the GPU's */
	samples m[M_COUNT];
	int whole;                 /* every unit it requests is a whole GPU */
	int *on_gpu;               /* GPUs of its node its series name */
	size_t n_on, cap_on;
	pod_vgpu *vgpus;           /* distinct (GPU, vgpu) its series name */
	size_t n_vgpus, cap_vgpus;
	bad_values bad[M_COUNT];   /* of samples read into m directly */
	int64_t hard_mib;          /* the most one unit holds: its GPU, its slice */
	int64_t round_mib;         /* its share of a divided GPU's memory; 0: none */
} ipod;

typedef struct iwl {
	gs_import_workload pub;
	char *name;                /* owned; the other strings are its pods' */
	const char *ns, *kind, *owner, *team;
	int64_t keep_ppm, keep_mib;/* per replica, when it has no metrics */
	int64_t hard_mib, round_mib; /* the least of its pods' (ipod) */
	size_t *pods;
	size_t n_pods, cap_pods;
} iwl;

/* A pod's key in pod_ix, "namespace/name"; the bounds are far above
 * Kubernetes' own. */
#define GS_IMPORT_POD_KEY 600

struct gs_inventory {
	const gs_catalog *cat;
	gs_error *err;             /* during gs_import_load only */
	const char *team_label;    /* during gs_import_load only */
	int percentile;
	int strict;                /* bad samples and unknown GPUs fail */
	int phase;                 /* import.c: what gs_import_read takes next */
	inode *nodes;
	size_t n_nodes, cap_nodes;
	ipod *pods;
	size_t n_pods, cap_pods;
	iwl *wls;
	size_t n_wls, cap_wls;
	gs_strmap node_ix, pod_ix, wl_ix;
	char **warnings;
	size_t n_warnings, cap_warnings;
	gs_import_summary sum;
	/* holders.c, claims.c: who holds what, for chargeback (lib/cost) */
	struct ihold *holds;
	size_t n_holds, cap_holds;
	ipod *cpods;               /* pods that hold GPUs through DRA claims only */
	size_t n_cpods, cap_cpods;
	gs_strmap cpod_ix;
	/* duplicates.c: nodes [0] and pods [1] seen again, and the first */
	size_t dup_count[2];
	char dup_first[2][GS_IMPORT_POD_KEY];
	gs_strmap left_out;        /* nodes left out (unknown GPU): their pods too */
	size_t metrics_read;       /* metrics sources read so far */
};

/* inventory.c */

/* Adds a warning; fails (GS_ENOMEM in inv->err) only when out of memory. */
int gs_import_warn(gs_inventory *inv, const char *fmt, ...) GS_PRINTF(2, 3);

/* Makes s a DNS-1123 label (what workload files need for names, teams and
 * tenants): lower-case letters, digits and '-', at most 63, alphanumeric
 * at both ends. Other characters become '-'. May leave out empty. */
char *gs_import_dns_label(const char *s, char out[64]);

/* A pod's key in pod_ix (GS_IMPORT_POD_KEY). Returns buf. */
const char *gs_import_pod_key(char buf[GS_IMPORT_POD_KEY], const char *ns,
                              const char *name);

/* nodes.c */

/* Adds the GPU nodes of a node list . */
int gs_import_read_nodes(gs_inventory *inv, const gs_source *src);
int gs_import_is_gpu_resource(const char *name);
/* Node n's resource of that name, or NULL. */
const ires *gs_import_node_res(const inode *n, const char *name);
/* What one unit of resource `res` is on node n (labels may be NULL).
 * Returns -1 when it is not a GPU resource, -2 for a MIG profile the GPU
 * does not have. */
int gs_import_unit_of(const inode *n, const gs_node *labels, const char *res,
                      ires *u);

/* owners.c */

/* The kind and name of the workload that owns a pod (a Deployment through
 * its ReplicaSet, a CronJob through its Job, else the controller or the
 * pod itself) into p->kind and p->owner; -1 when out of memory. */
int gs_import_pod_owner(const gs_node *meta, const char *pod, ipod *p);

/* pods.c */

/* Adds the counted pods of a pod list , and their
 * workloads; the nodes are read first. */
int gs_import_read_pods(gs_inventory *inv, const gs_source *src);
/* Sorts the workloads and names them: DNS labels, unique (the owner's,
 * else namespace-owner, else numbered), so the names are deterministic. */
int gs_import_name_workloads(gs_inventory *inv);
/* Workload w's replicas from its pods: a pod of N whole GPUs is one
 * replica of N (gpus_per_replica, the most of its pods, with a warning
 * naming the workload when its pods differ), any other pod one replica per
 * unit it requests (a GPU slice, or a shared GPU's replica). */
int gs_import_pod_replicas(gs_inventory *inv, iwl *w);

/* duplicates.c */

/* Lists of one kind are merged: a node (by name) or a counted pod (by
 * namespace/name) read before is kept as it was first read, and the
 * repeat only counted. Returns 0. */
int gs_import_duplicate(gs_inventory *inv, int pods, const char *key);
/* One warning per kind that had repeats, counting them. */
int gs_import_warn_duplicates(gs_inventory *inv);

/* metrics.c */

/* Reads the DCGM samples of a metrics source as readings of the GPUs (and
 * MIG instances) of the nodes read before, with their pods. */
int gs_import_read_metrics(gs_inventory *inv, const gs_source *src);
/* The DCGM field names, by M_*. */
const char *gs_import_metric_name(int k);

/* measure.c */

/* Node n's GPUs at the percentile, its idle GPUs and their cost; adds
 * them to the summary. */
void gs_import_measure_node(gs_inventory *inv, inode *n);
/* Workload w's pods, placement, flags and percentiles, and the values of
 * the workload file. */
int gs_import_measure_workload(gs_inventory *inv, iwl *w);

/* holders.c (the accessors lib/cost reads are in holders.h) */

/* Records that pod pi holds n units of resource u on node ni. */
int gs_import_hold_add(gs_inventory *inv, size_t pi, size_t ni, int64_t n, const ires *u);
void gs_import_holds_release(gs_inventory *inv);

/* claims.c */

/* Keeps a Running or Pending pod that requests no GPU resource but names
 * ResourceClaims (spec.resourceClaims), for the claims read later. */
int gs_import_claim_pod(gs_inventory *inv, const gs_node *meta, const char *name,
                        const char *ns, const gs_node *spec);
/* Adds the GPUs that a list of ResourceClaims allocates to the pods that
 * reserve them; the pod lists are read first. */
int gs_import_read_claims(gs_inventory *inv, const gs_source *src);
/* share.c */

/* Gives each node's readings to the pods that hold its GPUs (each GPU's
 * divided among its holders), fills n->m with each GPU's own activity,
 * and reports data errors; after the last metrics source. */
int gs_import_share(gs_inventory *inv);

#endif
