/*
 * import.h - the inventory's internals, shared by the files of lib/import
 * (internal). The public records (gs_import_node, gs_import_workload) are
 * the first member of each internal record and point into the strings it
 * owns.
 *
 *   import.c     gs_import_load: the readers in order
 *   nodes.c      GPU nodes, their resources and sharing
 *   pods.c       counted pods and the workloads they make up
 *   measure.c    DCGM samples: to pods and GPUs, then percentiles
 *   inventory.c  warnings, names and keys; accessors; free
 *   owners.c     the workload that owns a pod
 *   duplicates.c nodes and pods that several lists (or one) repeat
 *   output.c     the scenario, the workload file, the report document
 *   holders.c    what each pod holds where, for chargeback (holders.h)
 *   claims.c     DRA ResourceClaims: the GPUs they allocate to pods
 * The readers read kubectl's lists through kube_list.h and Prometheus's
 * samples through prom.h. Calls go one way: import.c calls the readers
 * (nodes.c, pods.c, claims.c, measure.c), pods.c calls nodes.c and
 * claims.c, the pod readers call owners.c and holders.c, and the readers
 * and output.c call inventory.c, which calls none of them but to free
 * what holders.c keeps.
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

/* One nvidia.com resource of a node and what one unit of it is. */
typedef struct ires {
	char *name;                /* "nvidia.com/mig-3g.20gb" */
	int64_t capacity;
	int64_t unit_ppm;          /* share of a GPU, for requested and idle GPUs */
	int64_t keep_ppm, keep_mib;/* what a pod without metrics keeps */
	const gs_mig_profile *mig; /* NULL: not a MIG slice */
	int replicas;              /* units per device (time-slicing, MPS) */
} ires;

typedef struct inode {
	gs_import_node pub;
	char *name, *type, *product;
	const gs_mig_profile *mig; /* MIG single strategy: what nvidia.com/gpu is */
	ires *res;
	size_t n_res, cap_res;
	gs_import_gpu *gpus;
	samples *m;                /* gpu_count x M_COUNT */
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
} ipod;

typedef struct iwl {
	gs_import_workload pub;
	char *name;                /* owned; the other strings are its pods' */
	const char *ns, *kind, *owner, *team;
	int64_t keep_ppm, keep_mib;/* per replica, when it has no metrics */
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

/* measure.c */

/* Attributes the DCGM samples of a Prometheus file to the pods and GPUs
 * read before. */
int gs_import_read_metrics(gs_inventory *inv, const gs_source *src);
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

#endif
