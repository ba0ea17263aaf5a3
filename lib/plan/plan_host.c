/*
 * plan_host.c - what the plan says about host resources: how many
 * workloads gave no host needs (the plan assumed none for them), and where
 * the replicas' CPU and RAM requests made it buy larger or more instances
 * than the GPU count alone.
 */
#include "plan/host.h"
#include "plan/nodes.h"
#include "plan/plan_internal.h"

static int unknown_needs(gs_plan *p)
{
	size_t n = gs_scenario_workload_count(p->s);
	int cpu = 0, mem = 0;
	for (size_t i = 0; i < n; i++) {
		const gs_workload *w = gs_scenario_workload_at(p->s, i);
		cpu += w->cpu_millis == 0;
		mem += w->host_memory_bytes == 0;
	}
	p->sum.workloads_without_cpu = cpu;
	p->sum.workloads_without_memory = mem;
	if (!cpu && !mem)
		return 0;
	if (cpu == mem)
		return gs_plan_warn(p, "host needs: %d of %zu workload%s give%s no cpu or memory; "
		                       "the plan assumed %s none of a node's CPU and RAM (give "
		                       "both per replica to have every node checked)",
		                    cpu, n, n == 1 ? "" : "s", cpu == 1 ? "s" : "",
		                    cpu == 1 ? "it needs" : "they need");
	return gs_plan_warn(p, "host needs: %d of %zu workload%s give%s no cpu and %d no "
	                       "memory; the plan assumed none of what is not given",
	                    cpu, n, n == 1 ? "" : "s", cpu == 1 ? "s" : "", mem);
}

static int upsized(gs_plan *p, const gs_host_note *nt)
{
	char a[32], b[32], c[32], cores[32];
	gs_host room = nt->small ? gs_host_allocatable(nt->small) : (gs_host){ 0, 0 };
	gs_micros_format(nt->bought, 2, a, sizeof a);
	gs_micros_format(nt->by_count, 2, b, sizeof b);
	gs_micros_format(nt->bought - nt->by_count, 2, c, sizeof c);
	gs_host_cores(room.cpu, cores, sizeof cores);
	return gs_plan_warn(p, "host CPU/RAM: %d of %d %s GPU%s carr%s replicas that request "
	                       "more than %s leaves its pods (%s cpu, %.2f GiB), so the plan "
	                       "buys larger or more instances: $%s/h where the GPU count "
	                       "alone would buy $%s/h (+$%s/h)",
	                    nt->moved, nt->gpus, nt->model->name, nt->gpus == 1 ? "" : "s",
	                    nt->moved == 1 ? "ies" : "y",
	                    nt->small ? nt->small->type : "the cheapest instance", cores,
	                    (double)room.mem / (1 << 30), a, b, c);
}

int gs_plan_host(gs_plan *p, const gs_nodeset *ns)
{
	for (int i = 0; i < ns->nnotes; i++)
		if (upsized(p, &ns->notes[i]) < 0)
			return -1;
	return unknown_needs(p);
}
