/*
 * host.c - the one statement of a node's host reserve, and the host needs
 * of replicas and planned GPUs.
 *
 * Kubernetes schedules a pod on a node when the pods' requests fit the
 * node's allocatable CPU and memory: its capacity less kube-reserved,
 * system-reserved and the hard eviction threshold. gpushare reserves, on
 * every node of every cloud, what the Amazon EKS AMI configures
 * (awslabs/amazon-eks-ami, bootstrap.sh and max-pods-calculator.sh):
 *
 *  - kube-reserved CPU, the ranges EKS took from GKE: 6% of the first
 *    core, 1% of the second, 0.5% of the third and fourth, 0.25% of each
 *    further core (integer millicores, rounded down per range);
 *  - kube-reserved memory 255 MiB + 11 MiB per pod the node may run, with
 *    max pods 110, or 250 above 30 vCPUs: the calculator's ceilings (the
 *    ENI limit may be lower; gpushare does not know the ENIs, so it
 *    reserves for the ceiling, which is the larger reserve);
 *  - system-reserved: none (the EKS AMI sets none);
 *  - evictionHard memory.available 100Mi;
 *  - the GPU Operator's pods on a GPU node: its DaemonSets (driver,
 *    container toolkit, device plugin, GFD, DCGM exporter, MIG manager,
 *    validator) request nothing in its Helm chart (resources: {}), and the
 *    node-feature-discovery worker requests 5m CPU and 64Mi.
 *
 * RAM is the instance's nominal figure; the kernel keeps some of it before
 * the kubelet sees any, so real allocatable memory is a little lower.
 */
#include <stdio.h>
#include <string.h>

#include "plan/host.h"
#include "plan/shop.h"
#include "scenario/scenario.h"

#define MAX_PODS_SMALL 110
#define MAX_PODS_LARGE 250
#define MAX_PODS_VCPUS 30       /* above this many vCPUs, the larger ceiling */
#define KUBE_MIB_BASE 255
#define KUBE_MIB_PER_POD 11
#define EVICTION_MIB 100
#define OPERATOR_CPU 5          /* node-feature-discovery worker */
#define OPERATOR_MIB 64

int gs_host_max_pods(int vcpus)
{
	return vcpus > MAX_PODS_VCPUS ? MAX_PODS_LARGE : MAX_PODS_SMALL;
}

int64_t gs_host_kube_cpu(int vcpus)
{
	/* Range starts in millicores, and the share of each in 1/10000. */
	static const int64_t start[] = { 0, 1000, 2000, 4000 };
	static const int64_t share[] = { 600, 100, 50, 25 };
	int64_t total = (int64_t)vcpus * 1000, reserved = 0;
	for (int i = 0; i < 4; i++) {
		int64_t end = i < 3 ? start[i + 1] : total;
		if (total > start[i])
			reserved += ((total < end ? total : end) - start[i]) * share[i] / 10000;
	}
	return reserved;
}

int64_t gs_host_kube_mib(int vcpus)
{
	return KUBE_MIB_BASE + (int64_t)KUBE_MIB_PER_POD * gs_host_max_pods(vcpus);
}

gs_host gs_host_allocatable(const gs_instance *in)
{
	gs_host h;
	int64_t mib = in->ram_mib - gs_host_kube_mib(in->vcpus) - EVICTION_MIB - OPERATOR_MIB;
	h.cpu = (int64_t)in->vcpus * 1000 - gs_host_kube_cpu(in->vcpus) - OPERATOR_CPU;
	h.mem = (mib > 0 ? mib : 0) << 20;
	if (h.cpu < 0)
		h.cpu = 0;
	return h;
}

gs_host gs_host_of_rep(const gs_planner *pl, int r)
{
	const gs_workload *w = pl->reps[r].w;
	gs_host h = { w->cpu_millis, w->host_memory_bytes };
	return h;
}

gs_host gs_host_of_pgpu(const gs_planner *pl, const gs_pgpu *g)
{
	gs_host h = { 0, 0 };
	/* (gs_host_may_join says why.) */
	for (int j = 0; pl->host_needs && j < g->ng; j++)
		for (int i = 0; i < g->g[j].n; i++) {
			gs_host x = gs_host_of_rep(pl, g->g[j].reps[i]);
			h.cpu += x.cpu;
			h.mem += x.mem;
		}
	return h;
}

gs_host gs_host_cap(const gs_planner *pl, const gs_gpu *g)
{
	gs_host cap = { -1, -1 };
	/* Of a model sold on both archs, the smaller: a GPU may end up on
	 * either. */
	for (int m = 0; m < pl->nmodels; m++)
		if (pl->models[m] == g) {
			if (cap.cpu < 0 || pl->cap_cpu[m] < cap.cpu)
				cap.cpu = pl->cap_cpu[m];
			if (cap.mem < 0 || pl->cap_mem[m] < cap.mem)
				cap.mem = pl->cap_mem[m];
		}
	return cap;
}

/* Where no replica asks for host CPU or RAM (pl->host_needs), every sum
 * below is 0 and fits: the rules ask these of every place they try, and
 * reading each member's workload, scattered, was 2.5 % of the CPU of
 * fleet.py's mixed 10^6 replicas, which ask for none. */
int gs_host_may_join(const gs_planner *pl, const gs_gpu *g, const int *reps, int n, int r)
{
	gs_host need;
	if (!pl->host_needs)
		return 1;
	need = gs_host_of_rep(pl, r);
	if (gs_host_none(need))
		return 1;
	for (int i = 0; i < n; i++) {
		gs_host x = gs_host_of_rep(pl, reps[i]);
		need.cpu += x.cpu;
		need.mem += x.mem;
	}
	return gs_host_fits(need, gs_host_cap(pl, g));
}

int gs_host_may_add(const gs_planner *pl, const gs_pgpu *pg, const gs_group *gr)
{
	gs_host need = { 0, 0 }, have;
	if (!pl->host_needs)
		return 1;
	for (int i = 0; i < gr->n; i++) {
		gs_host x = gs_host_of_rep(pl, gr->reps[i]);
		need.cpu += x.cpu;
		need.mem += x.mem;
	}
	if (gs_host_none(need))
		return 1;
	have = gs_host_of_pgpu(pl, pg);
	need.cpu += have.cpu;
	need.mem += have.mem;
	return gs_host_fits(need, gs_host_cap(pl, pg->model));
}

int gs_host_model_ok(const gs_planner *pl, const gs_workload *w, int m)
{
	const gs_shop *sh = &pl->shops[m];
	gs_host need = { w->cpu_millis, w->host_memory_bytes };
	if (w->arch != GS_ARCH_ANY && w->arch != pl->model_arch[m])
		return 0;
	/* A replica of several GPUs needs them on one node too. */
	for (int i = 0; i < sh->n; i++)
		if (need.cpu <= sh->cpu[i] && need.mem <= sh->mem[i] &&
		    sh->insts[i]->gpu_count >= w->gpus_per_replica)
			return 1;
	return 0;
}

void gs_host_cores(int64_t millis, char *buf, size_t n)
{
	if (millis % 1000 == 0)
		snprintf(buf, n, "%lld", (long long)(millis / 1000));
	else if (millis % 100 == 0)
		snprintf(buf, n, "%lld.%lld", (long long)(millis / 1000),
		         (long long)(millis % 1000 / 100));
	else if (millis % 10 == 0)
		snprintf(buf, n, "%lld.%02lld", (long long)(millis / 1000),
		         (long long)(millis % 1000 / 10));
	else
		snprintf(buf, n, "%lld.%03lld", (long long)(millis / 1000),
		         (long long)(millis % 1000));
}

/* Does w fit one GPU of planner model m (allow-list, memory, compute)? */
static int gpu_fits(const gs_planner *pl, const gs_workload *w, int m)
{
	const gs_gpu *g = pl->models[m];
	int ok = w->n_gpus == 0;
	for (size_t i = 0; i < w->n_gpus; i++)
		ok |= w->gpus[i] == g;
	return ok && w->memory_bytes <= (g->memory_mib << 20) &&
	       gs_workload_compute_on(w, g) <= GS_PPM;
}

/* What a workload's replica requests of its host, for messages. */
static void need_text(const gs_workload *w, char *buf, size_t n)
{
	char c[32];
	gs_host_cores(w->cpu_millis, c, sizeof c);
	if (w->cpu_millis && w->host_memory_bytes)
		snprintf(buf, n, "%s cpu and %.2f GiB of host memory", c,
		         (double)w->host_memory_bytes / (1 << 30));
	else if (w->cpu_millis)
		snprintf(buf, n, "%s cpu", c);
	else
		snprintf(buf, n, "%.2f GiB of host memory",
		         (double)w->host_memory_bytes / (1 << 30));
}

int gs_host_no_model(const gs_planner *pl, const gs_workload *w, gs_error *err)
{
	const gs_scenario *s = pl->s;
	const gs_instance *most = NULL;
	gs_host room = { 0, 0 };
	char need[96], names[256] = "";
	size_t o = 0;
	const gs_instance *widest = NULL;
	int fits = 0, arch_ok = 0;

	for (int m = 0; m < pl->nmodels; m++) {
		const gs_shop *sh = &pl->shops[m];
		if (!gpu_fits(pl, w, m))
			continue;
		fits++;
		if (w->arch != GS_ARCH_ANY && w->arch != pl->model_arch[m]) {
			if (o < sizeof names && !strstr(names, pl->models[m]->name))
				o += (size_t)snprintf(names + o, sizeof names - o, "%s%s",
				                      o ? ", " : "", pl->models[m]->name);
			continue;
		}
		arch_ok++;
		for (int i = 0; i < sh->n; i++)
			if (!widest || sh->insts[i]->gpu_count > widest->gpu_count)
				widest = sh->insts[i];
		for (int i = 0; i < sh->n; i++)
			if (!most || sh->mem[i] > room.mem) {
				most = sh->insts[i];
				room.cpu = sh->cpu[i];
				room.mem = sh->mem[i];
			}
	}
	if (!fits)
		return gs_fail_at(err, GS_ENOFIT, s->file, w->line, w->col,
		                  "workload '%s' fits no GPU that %s sells", w->name,
		                  pl->cloud);
	if (!arch_ok)
		return gs_fail_at(err, GS_ENOFIT, s->file, w->line, w->col,
		                  "workload '%s' is %s, but the only instances in %s with a GPU "
		                  "it fits (%s) are %s; set its arch to %s or any if its "
		                  "images run there, or allow other instances", w->name,
		                  gs_arch_name(w->arch), pl->cloud, names,
		                  gs_arch_name(w->arch == GS_ARCH_AMD64 ? GS_ARCH_ARM64
		                                                      : GS_ARCH_AMD64),
		                  gs_arch_name(w->arch == GS_ARCH_AMD64 ? GS_ARCH_ARM64
		                                                      : GS_ARCH_AMD64));
	if (widest && widest->gpu_count < w->gpus_per_replica)
		return gs_fail_at(err, GS_ENOFIT, s->file, w->line, w->col,
		                  "workload '%s' needs %d GPUs per replica on one node, more "
		                  "than any instance in %s with a GPU it fits has (the most: "
		                  "%d, %s)", w->name, w->gpus_per_replica, pl->cloud,
		                  widest->gpu_count, widest->type);
	need_text(w, need, sizeof need);
	{
		char c[32];
		gs_host_cores(room.cpu, c, sizeof c);
		return gs_fail_at(err, GS_ENOFIT, s->file, w->line, w->col,
		                  "workload '%s' requests %s per replica; no instance in %s "
		                  "with a GPU it fits leaves that much to its pods after the "
		                  "node reserve (the most: %s, %s cpu and %.2f GiB)", w->name,
		                  need, pl->cloud, most ? most->type : "none", c,
		                  (double)room.mem / (1 << 30));
	}
}

int64_t gs_host_share(const gs_planner *pl, const gs_workload *w, int m, int64_t need_ppm)
{
	const gs_shop *sh = &pl->shops[m];
	int64_t best = -1;
	for (int t = 0; t < sh->n; t++) {
		int64_t share = need_ppm / sh->insts[t]->gpu_count, c, r;
		if (w->cpu_millis > sh->cpu[t] || w->host_memory_bytes > sh->mem[t] ||
		    sh->insts[t]->gpu_count < w->gpus_per_replica)
			continue;
		c = sh->cpu[t] ? w->cpu_millis * GS_PPM / sh->cpu[t] : 0;
		r = sh->mem[t] ? (int64_t)((__extension__(__int128)w->host_memory_bytes * GS_PPM) /
		                           sh->mem[t]) : 0;
		share = share > c ? share : c;
		share = share > r ? share : r;
		if (best < 0 || sh->price[t] * share < best)
			best = sh->price[t] * share;
	}
	return best;
}
