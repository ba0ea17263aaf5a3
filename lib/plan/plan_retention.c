/*
 * plan_retention.c - what sharing costs a planned workload in throughput:
 * the share of its dedicated-GPU throughput its strategy keeps (the
 * profile's range, or its own `retention`), and, where it gives a
 * `throughput`, the price of a unit of work with a whole GPU per replica
 * and in the plan. Sharing stops paying where the plan's price per unit
 * at the low retention is above the dedicated one: the GPUs it saves no
 * longer make up for the work it loses.
 *
 * All money is exact: products in 128 bits, one rounding at the end.
 */
#include "plan/decision.h"
#include "plan/plan_internal.h"
#include "plan/strategy.h"

/* Units of work a figure is priced per: a million tokens, a thousand
 * requests. */
static int64_t per_units(gs_work_unit u)
{
	return u == GS_WORK_TOKENS ? 1000000 : 1000;
}

const char *gs_work_per_name(gs_work_unit u)
{
	return u == GS_WORK_TOKENS ? "1M tokens" : u == GS_WORK_REQUESTS ? "1k requests" : "";
}

/* cost_per_hour over the work n replicas of throughput t (milli-units a
 * second) do in an hour at retention r (ppm), per `per` units; rounded
 * half up to the micro-dollar. */
static gs_micros per_unit(gs_micros cost, int n, int64_t t, int64_t r, int64_t per)
{
	gs_wide num = (gs_wide)cost * per * 1000 * GS_PPM;
	gs_wide den = (gs_wide)n * t * 3600 * r;
	return (gs_micros)((num * 2 + den) / (den * 2));
}

/* The backend of the GPU that holds its first replica (fractions only). */
static gs_backend backend_of(const gs_plan *p, const gs_decision *d)
{
	if (d->node < 0 || (size_t)d->node >= p->n_nodes ||
	    d->gpu < 0 || (size_t)d->gpu >= p->nodes[d->node].n_gpus)
		return GS_BACKEND_NONE;
	return p->nodes[d->node].gpus[d->gpu].backend;
}

/* Its own figure for the strategy, else the profile's row. 0 when neither. */
static int range_of(const gs_plan *p, const gs_workload *w, gs_plan_retention *out)
{
	gs_retention r;
	int64_t own = w->retention_ppm[out->strategy];

	if (own >= 0) {
		out->low_ppm = out->high_ppm = own;
		out->source = "your measurement";
		out->measured = 1;
		return 1;
	}
	if (gs_retention_of(gs_scenario_catalog(p->s), out->strategy, out->backend, &r) < 0)
		return 0;
	out->low_ppm = r.low_ppm;
	out->high_ppm = r.high_ppm;
	out->source = r.source;
	return 1;
}

/* The prices per unit, when it gives a throughput. */
static void prices(const gs_plan_workload *pw, const gs_decision *d, gs_plan_retention *out)
{
	const gs_workload *w = pw->workload;
	int64_t per = per_units(w->work_unit), t = w->throughput_milli;
	int n = w->replicas;

	out->unit = w->work_unit;
	out->before = per_unit(d->ded_cost, n, t, GS_PPM, per);
	out->after_low = per_unit(pw->cost_per_hour, n, t, out->low_ppm, per);
	out->after_high = per_unit(pw->cost_per_hour, n, t, out->high_ppm, per);
	/* after_low <= before, without the roundings: cost/low <= ded. */
	out->pays = (gs_wide)pw->cost_per_hour * GS_PPM <= (gs_wide)d->ded_cost * out->low_ppm;
}

int gs_plan_retention_at(const gs_plan *p, size_t i, gs_plan_retention *out, gs_error *err)
{
	const gs_plan_workload *pw;
	const gs_decision *d;
	int known = 1;

	if (!p || !out || i >= p->n_wls || i >= p->n_decisions)
		return gs_fail(err, GS_EINVAL, "no plan workload %zu", i);
	pw = &p->wls[i];
	d = &p->decisions[i];
	*out = (gs_plan_retention){ 0 };
	out->strategy = pw->strategy;
	out->low_ppm = out->high_ppm = GS_PPM;
	if (out->strategy == GS_STRATEGY_FRACTION)
		out->backend = backend_of(p, d);
	if (gs_strategy_info_get(out->strategy)->shares) {
		known = range_of(p, pw->workload, out);
		out->shared = known;
	}
	if (known && pw->workload->work_unit != GS_WORK_NONE && d->ded_cost > 0)
		prices(pw, d, out);
	return 0;
}
