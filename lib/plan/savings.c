/*
 * savings.c - the quick answer: W workloads that each hold a whole GPU
 * today, against the same workloads sharing GPUs with R replicas per GPU,
 * as many as the rule `plan` packs by lets share one (share_rule.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "doc/fields.h"
#include "plan/savings_frac.h"
#include "plan/share_rule.h"
#include "plan/strategy.h"
#include "scenario/scenario.h"

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

/* The target and each workload's peak compute, as the user wrote them. */
static int read_rule(const gs_savings_opts *o, gs_savings *s, gs_error *err)
{
	s->target_ppm = GS_TARGET_DEFAULT_PPM;
	if (o->target_utilization &&
	    (gs_parse_share(o->target_utilization, &s->target_ppm, err) < 0 ||
	     s->target_ppm < 100000 || s->target_ppm > GS_PPM))
		return gs_fail(err, GS_EINVAL, "target utilization must be from 10%% to 100%%, "
		               "not '%s'", o->target_utilization);
	if (!o->compute)
		return 0;
	if (gs_parse_share(o->compute, &s->compute_ppm, err) < 0 || s->compute_ppm <= 0 ||
	    s->compute_ppm > GS_PPM)
		return gs_fail(err, GS_EINVAL, "compute must be above 0%% and at most 100%%, "
		               "not '%s'", o->compute);
	s->compute_given = 1;
	return 0;
}

/* MIG: each workload alone in its instance may use all of the instance. */
static int mig_rule(const gs_instance *in, gs_savings *s, gs_error *err)
{
	const gs_mig_profile *p = s->mig_profile;
	int64_t share = (int64_t)p->sm_count * GS_PPM / in->gpu->sm_count;
	char c[16], sh[16];
	gs_share_pct(share, sh, sizeof sh);
	if (!s->compute_given) {
		s->compute_ppm = share;
		snprintf(s->rule, sizeof s->rule, "assumes each workload peaks at or below %s "
		         "of a GPU: the compute of one %s instance (%d of %d SMs)", sh, p->name,
		         p->sm_count, in->gpu->sm_count);
		return 0;
	}
	gs_share_pct(s->compute_ppm, c, sizeof c);
	if (s->compute_ppm > share)
		return gs_fail(err, GS_ENOFIT, "a workload that peaks at %s of a GPU does not fit "
		               "a %s instance of %s (%s of the GPU: %d of %d SMs)", c, p->name,
		               in->gpu->name, sh, p->sm_count, in->gpu->sm_count);
	snprintf(s->rule, sizeof s->rule, "each workload holds its own %s instance: its %s "
	         "fits the instance's %s of the GPU (%d of %d SMs)", p->name, c, sh, p->sm_count,
	         in->gpu->sm_count);
	return 0;
}

/* The largest MPS client count whose equal thread split (integer percent)
 * still gives each client comp_ppm. */
static int mps_split_room(int64_t comp_ppm, int most)
{
	int k = most;
	while (k > 1 && (int64_t)(100 / k) * 10000 < comp_ppm)
		k--;
	return k;
}

/* Time-slicing and MPS: as many replicas per GPU as asked, within the
 * target and, with MPS, the device plugin's equal split; without a peak
 * compute, the peak that asking for R replicas assumes. */
static void shared_rule(gs_savings *s)
{
	int asked = s->replicas, fit, mps;
	char c[16], each[16];
	if (!s->compute_given) {
		int64_t split = (int64_t)(100 / asked) * 10000;
		s->compute_ppm = s->target_ppm / asked;
		gs_share_assume_text(s->rule, sizeof s->rule, s->target_ppm, asked);
		if (s->strategy == GS_STRATEGY_MPS && split < s->compute_ppm) {
			s->compute_ppm = split;
			snprintf(s->rule, sizeof s->rule, "assumes each workload peaks at or below "
			         "%s of a GPU: MPS gives each of %d clients 100 / %d = %d%% of the "
			         "threads", gs_share_pct(split, each, sizeof each), asked, asked,
			         100 / asked);
		}
		return;
	}
	fit = gs_share_room(s->target_ppm, s->compute_ppm);
	fit = fit < asked ? fit : asked;
	mps = s->strategy == GS_STRATEGY_MPS ? mps_split_room(s->compute_ppm, fit) : fit;
	s->replicas = mps > 1 ? mps : 1;
	if (mps < fit && mps >= 1)
		snprintf(s->rule, sizeof s->rule, "MPS gives each of %d clients only %d%% of the "
		         "threads, below their %s: room for %d of these on one GPU", mps + 1,
		         100 / (mps + 1), gs_share_pct(s->compute_ppm, c, sizeof c), mps);
	else
		gs_share_rule_text(s->rule, sizeof s->rule, s->target_ppm, s->compute_ppm, asked);
}

/* Before and after, per hour and per month. */
static void count(const gs_instance *in, const gs_savings_opts *o, gs_savings *s)
{
	int per_inst = in->gpu_count;
	s->workloads = o->workloads ? o->workloads : s->replicas_asked * per_inst;
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

/* A backend or a memory size means fractions; anything else ignores them. */
static int check_fraction_opts(const gs_savings_opts *o, gs_error *err)
{
	if (o->strategy == GS_STRATEGY_FRACTION)
		return 0;
	if (o->backend != GS_BACKEND_NONE)
		return gs_fail(err, GS_EINVAL, "backend %s applies only to the fraction strategy",
		               gs_backend_name(o->backend));
	if (o->memory)
		return gs_fail(err, GS_EINVAL, "a memory size applies only to the fraction "
		               "strategy");
	return 0;
}

/* What every strategy checks and counts once its replicas per GPU are
 * known. */
static int finish(const gs_instance *in, const gs_savings_opts *o, gs_savings *s,
                  gs_error *err)
{
	if (o->pricing == GS_PRICING_SPOT && in->spot < 0)
		return gs_fail(err, GS_ENOTFOUND, "no spot price is known for %s",
		               in->type);
	if (o->workloads < 0 || o->workloads > 1000000)
		return gs_fail(err, GS_EINVAL, "workloads must be 1 to 1000000");
	count(in, o, s);
	return 0;
}

static int finish_fraction(const gs_instance *in, const gs_savings_opts *o, gs_savings *s,
                           gs_error *err)
{
	int rc = gs_savings_fraction(in, o, s, err);
	return rc < 0 ? rc : finish(in, o, s, err);
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
	if ((rc = read_rule(o, s, err)) < 0 || (rc = check_fraction_opts(o, err)) < 0)
		return rc;
	if (o->strategy == GS_STRATEGY_FRACTION)
		return finish_fraction(in, o, s, err);
	if (o->strategy == GS_STRATEGY_MIG)
		rc = resolve_mig(in, o, s, err);
	else if (o->strategy == GS_STRATEGY_MPS || o->strategy == GS_STRATEGY_TIME_SLICING)
		rc = resolve_shared(in, o, s, err);
	else
		rc = gs_fail(err, GS_EINVAL, "savings needs a sharing strategy");
	if (rc < 0)
		return rc;
	s->replicas_asked = s->replicas;
	if (o->strategy == GS_STRATEGY_MIG)
		rc = mig_rule(in, s, err);
	else
		shared_rule(s);
	if (rc < 0 || (rc = finish(in, o, s, err)) < 0)
		return rc;
	describe_limits(in, s);
	return 0;
}
