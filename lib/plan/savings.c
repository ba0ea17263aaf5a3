/*
 * savings.c - the quick answer: W workloads that each hold a whole GPU
 * today, against the same workloads sharing GPUs with R replicas per GPU.
 */
#include <string.h>

#include "base/base.h"
#include "plan/strategy.h"

static int resolve_mig(const gs_instance *in, const gs_savings_opts *o,
                       gs_savings *s, gs_error *err)
{
	const gs_gpu *g = in->gpu;
	int max;

	if (!g->mig_slots)
		return gs_fail(err, GS_EINVAL,
		               "%s has %s GPUs, which do not support MIG", in->type,
		               g->name);
	if (!o->mig_profile || !(s->mig_profile = gs_mig_profile_find(g, o->mig_profile)))
		return gs_fail(err, GS_ENOTFOUND, "%s has no MIG profile '%s'",
		               g->name, o->mig_profile ? o->mig_profile : "");
	max = gs_mig_max_count(g, s->mig_profile);
	if (o->replicas > max)
		return gs_fail(err, GS_ENOFIT,
		               "at most %d instances of %s fit on one %s, not %d", max,
		               s->mig_profile->name, g->name, o->replicas);
	s->replicas = o->replicas ? o->replicas : max;
	return 0;
}

static void describe_limits(const gs_instance *in, gs_savings *s)
{
	const gs_gpu *g = in->gpu;
	const gs_strategy_info *si = gs_strategy_info_get(s->strategy);

	s->compute_permille = (int)gs_div_round(1000, s->replicas);
	s->memory_mib = g->memory_mib / s->replicas;
	s->memory_isolated = si->memory_isolated;
	s->fault_isolated = si->fault_isolated;
	if (s->strategy == GS_STRATEGY_MPS) {
		/* The device plugin's equal split (integer division). */
		s->thread_percent = 100 / s->replicas;
	} else if (s->strategy == GS_STRATEGY_MIG) {
		s->compute_permille = (int)gs_div_round(1000 * s->mig_profile->compute_slices,
		                                        g->mig_compute_slices);
		s->memory_mib = s->mig_profile->memory_mib;
	}
}

/* Time-slicing and MPS: R replicas per GPU, within what MPS allows. */
static int resolve_shared(const gs_instance *in, const gs_savings_opts *o,
                          gs_savings *s, gs_error *err)
{
	if (o->replicas < 2)
		return gs_fail(err, GS_EINVAL,
		               "replicas must be at least 2 to share a GPU");
	if (o->strategy == GS_STRATEGY_MPS && !in->gpu->mps_max_clients)
		return gs_fail(err, GS_EINVAL, "%s does not support MPS",
		               in->gpu->name);
	if (o->strategy == GS_STRATEGY_MPS && o->replicas > in->gpu->mps_max_clients)
		return gs_fail(err, GS_ENOFIT,
		               "MPS on %s allows at most %d clients per GPU, not %d",
		               in->gpu->name, in->gpu->mps_max_clients, o->replicas);
	if (o->replicas > 1000)
		return gs_fail(err, GS_EINVAL, "replicas must be at most 1000");
	s->replicas = o->replicas;
	return 0;
}

static int find_instance(const gs_catalog *cat, const gs_savings_opts *o,
                         const gs_instance **out, gs_error *err)
{
	const char *near;
	if (o->instance && (*out = gs_instance_find(cat, o->instance)))
		return 0;
	near = o->instance ? gs_instance_suggest(cat, o->instance) : NULL;
	if (near)
		return gs_fail(err, GS_ENOTFOUND,
		               "unknown instance type '%s' (did you mean '%s'?)",
		               o->instance, near);
	return gs_fail(err, GS_ENOTFOUND, "unknown instance type '%s'",
	               o->instance ? o->instance : "");
}

/* Before and after, per hour and per month. */
static void count(const gs_instance *in, const gs_savings_opts *o, gs_savings *s)
{
	int per_inst = in->gpu_count;
	s->workloads = o->workloads ? o->workloads : s->replicas * per_inst;
	s->price_per_hour = o->pricing == GS_PRICING_SPOT ? in->spot : in->on_demand;
	s->gpus_before = s->workloads;
	s->gpus_after = (int)gs_div_ceil(s->workloads, s->replicas);
	s->instances_before = (int)gs_div_ceil(s->gpus_before, per_inst);
	s->instances_after = (int)gs_div_ceil(s->gpus_after, per_inst);
	s->before_per_hour = s->instances_before * s->price_per_hour;
	s->after_per_hour = s->instances_after * s->price_per_hour;
	s->saved_per_hour = s->before_per_hour - s->after_per_hour;
	s->before_per_month = s->before_per_hour * s->hours_per_month;
	s->after_per_month = s->after_per_hour * s->hours_per_month;
	s->saved_per_month = s->saved_per_hour * s->hours_per_month;
	s->saved_permille = s->before_per_hour
	                        ? (int)gs_div_round(s->saved_per_hour * 1000,
	                                            s->before_per_hour)
	                        : 0;
}

int gs_savings_compute(const gs_catalog *cat, const gs_savings_opts *o,
                       gs_savings *s, gs_error *err)
{
	const gs_instance *in;
	int rc;

	memset(s, 0, sizeof *s);
	if ((rc = gs_check_version(o->version, GS_SAVINGS_OPTS_VERSION, "gs_savings_opts",
	                           err)) < 0 ||
	    (rc = find_instance(cat, o, &in, err)) < 0)
		return rc;
	s->instance = in;
	s->strategy = o->strategy;
	s->pricing = o->pricing;
	s->hours_per_month = o->hours_per_month;
	if (o->hours_per_month < 1 || o->hours_per_month > 744)
		return gs_fail(err, GS_EINVAL, "hours per month must be 1 to 744");
	if (o->strategy == GS_STRATEGY_MIG)
		rc = resolve_mig(in, o, s, err);
	else if (o->strategy == GS_STRATEGY_MPS || o->strategy == GS_STRATEGY_TIME_SLICING)
		rc = resolve_shared(in, o, s, err);
	else
		rc = gs_fail(err, GS_EINVAL, "savings needs a sharing strategy");
	if (rc < 0)
		return rc;
	if (o->pricing == GS_PRICING_SPOT && in->spot < 0)
		return gs_fail(err, GS_ENOTFOUND, "no spot price is known for %s",
		               in->type);
	if (o->workloads < 0 || o->workloads > 1000000)
		return gs_fail(err, GS_EINVAL, "workloads must be 1 to 1000000");
	count(in, o, s);
	describe_limits(in, s);
	return 0;
}
