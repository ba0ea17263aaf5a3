/*
 * host.h - a node's host resources: the reserve Kubernetes keeps on every
 * node, what that leaves the pods (the node's allocatable CPU and RAM),
 * and what replicas and planned GPUs ask of it (host.c). The rule is
 * stated once, in host.c; gpushare-workloads(5) states it for people.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_HOST_H
#define GS_PLAN_HOST_H

#include "plan/pack.h"

/* Host CPU in millicores and RAM in bytes: a need or a capacity. */
typedef struct gs_host {
	int64_t cpu;
	int64_t mem;
} gs_host;

/* ---- the reserve --------------------------------------------------------- */

/* The pods a node of `vcpus` vCPUs may run, as the kube-reserved memory
 * counts them: 110, or 250 above 30 vCPUs. */
int gs_host_max_pods(int vcpus);
/* kube-reserved CPU in millicores: 6% of the first core, 1% of the
 * second, 0.5% of the next two, 0.25% of every further core. */
int64_t gs_host_kube_cpu(int vcpus);
/* kube-reserved memory in MiB: 255 + 11 per pod. */
int64_t gs_host_kube_mib(int vcpus);
/* What the instance leaves its pods: its vCPUs and RAM less the kubelet's
 * reserve, the eviction threshold and the GPU Operator's node pods. */
gs_host gs_host_allocatable(const gs_instance *in);

/* ---- needs --------------------------------------------------------------- */

/* What replica r's pod requests of its node; 0 where not given. */
gs_host gs_host_of_rep(const gs_planner *pl, int r);
/* The sum over every replica of a planned GPU. */
gs_host gs_host_of_pgpu(const gs_planner *pl, const gs_pgpu *g);
static inline int gs_host_fits(gs_host need, gs_host room)
{
	return need.cpu <= room.cpu && need.mem <= room.mem;
}
static inline int gs_host_none(gs_host h) { return h.cpu == 0 && h.mem == 0; }

/* May w run on planner model m: its arch, and one replica's host needs
 * within some node of m's shop that has its gpusPerReplica GPUs? */
int gs_host_model_ok(const gs_planner *pl, const gs_workload *w, int m);

/* What one replica of w costs on model m, as a share of the instance that
 * holds it cheapest: the larger of its share of the GPUs (need_ppm of one
 * GPU), of the CPU and of the RAM the instance leaves its pods; in
 * micro-dollars times ppm, -1 when no instance holds it. */
int64_t gs_host_share(const gs_planner *pl, const gs_workload *w, int m, int64_t need_ppm);

/* ---- the packer's bound --------------------------------------------------- */

/* The most one node that sells model g leaves its pods: no GPU may ask
 * more of its host than that, whatever else shares the node. */
gs_host gs_host_cap(const gs_planner *pl, const gs_gpu *g);
/* May replica r join the replicas reps[0..n) on one GPU of model g, as
 * far as the host goes? Free when r asks nothing of the host. */
int gs_host_may_join(const gs_planner *pl, const gs_gpu *g, const int *reps, int n, int r);
/* May the group gr join the groups already on pg (MIG instances)? */
int gs_host_may_add(const gs_planner *pl, const gs_pgpu *pg, const gs_group *gr);

/* ---- words ---------------------------------------------------------------- */

/* Millicores as cores: "4", "0.5", "3.915". */
void gs_host_cores(int64_t millis, char *buf, size_t n);
/* Fails with GS_ENOFIT saying why no model of the planner may hold w:
 * no GPU it fits, no host of its arch, or no node with room for one
 * replica's host requests. */
int gs_host_no_model(const gs_planner *pl, const gs_workload *w, gs_error *err);

#endif
