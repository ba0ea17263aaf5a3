/*
 * why_text.c - a workload's why-text, rendered from its decision record
 * (decision.h) and from nothing else: each clause states a rule's answer
 * or a price the planner compared, with the figures it compared.
 *
 * The shape: "<strategy> on <model> (<compute>, <memory>): <what decided>
 * [; <its node's idle GPUs>]; rejected: <alternative> (<why or cost>), ...".
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "plan/decision.h"
#include "plan/plan_internal.h"
#include "scenario/scenario.h"

/* ---- figures ------------------------------------------------------------- */

/* ppm as a percentage with dec decimals, rounded half up. */
static int64_t pct_units(int64_t ppm, int dec)
{
	int64_t div = dec == 0 ? 10000 : dec == 1 ? 1000 : 100;
	return (ppm + div / 2) / div;
}

static void put_pct(gs_buf *t, int64_t ppm, int dec)
{
	int64_t u = pct_units(ppm, dec);
	if (dec == 0)
		gs_buf_printf(t, "%lld%%", (long long)u);
	else
		gs_buf_printf(t, "%lld.%0*lld%%", (long long)(u / (dec == 1 ? 10 : 100)), dec,
		              (long long)(u % (dec == 1 ? 10 : 100)));
}

/* Two shares compared: as many decimals as it takes to tell them apart. */
static void put_pct2(gs_buf *t, int64_t a, const char *op, int64_t b)
{
	int dec = 0;
	while (dec < 2 && a != b && pct_units(a, dec) == pct_units(b, dec))
		dec++;
	put_pct(t, a, dec);
	gs_buf_printf(t, " %s ", op);
	put_pct(t, b, dec);
}

/* Bytes in GiB with two decimals, from whole MiB rounded up. */
/* GiB with two decimals, rounded as the plan's node lines round them. */
static int64_t hundredths(int64_t bytes)
{
	return gs_div_round(bytes * 100, INT64_C(1) << 30);
}

static void put_gib(gs_buf *t, int64_t bytes)
{
	int64_t h = hundredths(bytes);
	gs_buf_printf(t, "%lld.%02lld GiB", (long long)(h / 100), (long long)(h % 100));
}

static void put_gib2(gs_buf *t, int64_t a, const char *op, int64_t b)
{
	int64_t ma = gs_div_ceil(a, 1 << 20), mb = gs_div_ceil(b, 1 << 20);
	/* Equal at two decimals but not equal: in MiB, so they differ. */
	if (ma != mb && hundredths(a) == hundredths(b)) {
		gs_buf_printf(t, "%lld MiB %s %lld MiB", (long long)ma, op, (long long)mb);
		return;
	}
	put_gib(t, a);
	gs_buf_printf(t, " %s ", op);
	put_gib(t, b);
}

static void put_money(gs_buf *t, gs_micros m)
{
	char buf[32];
	gs_buf_printf(t, "$%s/h", gs_micros_format(m, 2, buf, sizeof buf));
}

static int same_money(gs_micros a, gs_micros b)
{
	char x[32], y[32];
	gs_micros_format(a, 2, x, sizeof x);
	gs_micros_format(b, 2, y, sizeof y);
	return strcmp(x, y) == 0;
}

/* ---- the study's rule ---------------------------------------------------- */

/* "latency-critical inference at 60% of A10G >= 50%", "notebook". The
 * rule reads the share as written, of the model it names. */
static void put_ts(gs_buf *t, const gs_decision *d)
{
	int64_t a = d->ts.share_ppm, b = d->ts.threshold_ppm;
	int dec = 0;
	gs_buf_puts(t, d->ts.subject);
	if (!b)
		return;
	while (dec < 2 && a != b && pct_units(a, dec) == pct_units(b, dec))
		dec++;
	gs_buf_puts(t, " at ");
	put_pct(t, a, dec);
	if (d->w->measured_on)
		gs_buf_printf(t, " of %s", d->w->measured_on->name);
	gs_buf_puts(t, d->ts.rule ? " >= " : " < ");
	put_pct(t, b, dec);
}

/* "time-slicing ruled out (GPU-intensive batch: batch job at 85% >= 70%)" */
static void put_ts_out(gs_buf *t, const gs_decision *d, const gs_workload *by)
{
	gs_decision o = *d;
	if (by && by != d->w) {
		o.w = by;
		o.ts = gs_strategy_ts_check(by);
		gs_buf_printf(t, "%s rules out time-slicing (", by->name);
	} else {
		gs_buf_puts(t, "time-slicing is ruled out (");
	}
	put_ts(t, &o);
	gs_buf_puts(t, ")");
}

/* ---- the rules' answers -------------------------------------------------- */

/* What the plan left out to have the other of MIG and MPS. */
static void put_left_out(gs_buf *t, const gs_decision *d)
{
	gs_buf_printf(t, "the device plugin cannot mix MIG and MPS nodes, and the plan with %s "
	                 "costs ", d->left_out == GS_STRATEGY_MPS ? "MPS" : "MIG");
	put_money(t, d->left_out_cost);
}

/* "MPS's split for 2 clients gives 11.24 GiB per client < its 18.00 GiB":
 * its, or the named client's that does not fit. */
static void put_split(gs_buf *t, const gs_decision *d, const gs_verdict *v, const char *lead)
{
	char op[160];
	if (!v->fails || v->fails == d->w)
		snprintf(op, sizeof op, "%s per client < its",
		         v->rule == GS_RULE_MPS_MEMORY ? "" : " of threads");
	else
		snprintf(op, sizeof op, "%s per client < %s's",
		         v->rule == GS_RULE_MPS_MEMORY ? "" : " of threads", v->fails->name);
	gs_buf_printf(t, "%s split for %d clients gives ", lead, v->figs.k);
	if (v->rule == GS_RULE_MPS_MEMORY)
		put_gib2(t, v->figs.have, op + 1, v->figs.need);
	else
		put_pct2(t, v->figs.have, op + 1, v->figs.need);
}

/* MPS's answer for the replica as one of k clients. */
static void put_mps(gs_buf *t, const gs_decision *d, const gs_verdict *v, const char *lead)
{
	switch (v->rule) {
	case GS_RULE_MPS_OFF:
		gs_buf_puts(t, "this plan has no MPS: ");
		put_left_out(t, d);
		break;
	case GS_RULE_NO_MPS:
		gs_buf_printf(t, "%s has no MPS", d->model->name);
		break;
	case GS_RULE_MPS_CAPACITY:
		gs_buf_puts(t, "DRA consumable capacity turns the driver's MPS off");
		break;
	case GS_RULE_MPS_CLIENTS:
		gs_buf_printf(t, "%s takes at most %lld MPS clients", d->model->name,
		              (long long)v->figs.have);
		break;
	case GS_RULE_MPS_MEMORY:
	case GS_RULE_MPS_THREADS:
		put_split(t, d, v, lead);
		break;
	case GS_RULE_MEMORY:
		gs_buf_puts(t, "even alone it needs ");
		put_gib2(t, v->figs.need, "> the", v->figs.have);
		gs_buf_puts(t, " a shared GPU offers");
		break;
	default:
		break;
	}
}

/* MIG's answer: absent, off, or what the largest slice lacks. */
static void put_mig_rule(gs_buf *t, const gs_decision *d, const gs_verdict *v)
{
	switch (v->rule) {
	case GS_RULE_NO_MIG:
		gs_buf_printf(t, "%s has no MIG", d->model->name);
		break;
	case GS_RULE_MIG_OFF:
		gs_buf_puts(t, "this plan has no MIG: ");
		put_left_out(t, d);
		break;
	case GS_RULE_MIG_TS:
		gs_buf_puts(t, "a shared instance would be time-sliced");
		break;
	case GS_RULE_SPREAD:
		gs_buf_printf(t, "a shared instance's slots could take two of its replicas, "
		                 "which spread: %s keeps apart", gs_spread_name(d->w->spread));
		break;
	case GS_RULE_MIG_MIXED:
		gs_buf_puts(t, "its other replicas need whole GPUs, and the pods of one "
		            "object request one resource");
		break;
	case GS_RULE_MIG_MEMORY:
		gs_buf_printf(t, "the largest slice, %s, has ", v->figs.prof->name);
		put_gib2(t, v->figs.have, "<", v->figs.need);
		break;
	case GS_RULE_MIG_COMPUTE:
		gs_buf_printf(t, "the largest slice, %s, gives ", v->figs.prof->name);
		put_pct2(t, v->figs.have, "<", v->figs.need);
		break;
	default:
		break;
	}
}

/* The companion's rule: "beside chat-llm/1, it would need 36.00 GiB >
 * 22.49 GiB". Tenants and spread name an example of the companions. */
static void put_with(gs_buf *t, const gs_decision *d)
{
	const gs_verdict *v = &d->bind;
	if (v->rule == GS_RULE_TENANT) {
		gs_buf_printf(t, "no whole %s GPU of its tenant to join; the others hold other "
		                 "tenants (e.g. %s/%d of %s), and tenants share a GPU only in MIG",
		              d->model->name, v->with->name, v->with_replica, v->with->tenant);
		return;
	}
	if (v->rule == GS_RULE_SPREAD) {
		gs_buf_printf(t, "the only whole %s GPUs it could join hold its own replicas, "
		                 "which spread: %s keeps apart", d->model->name,
		              gs_spread_name(d->w->spread));
		return;
	}
	gs_buf_printf(t, "beside %s/%d", v->with->name, v->with_replica);
	if (v->with_n > 1)
		gs_buf_printf(t, " and %d more", v->with_n - 1);
	switch (v->rule) {
	case GS_RULE_MEMORY:
		gs_buf_puts(t, ", it would need ");
		put_gib2(t, v->figs.need, ">", v->figs.have);
		break;
	case GS_RULE_TARGET:
		gs_buf_puts(t, ", the GPU would run at ");
		put_pct2(t, v->figs.need, "> targetUtilization", v->figs.have);
		break;
	case GS_RULE_HOST:
		gs_buf_printf(t, ", no %s node would have the host CPU and RAM for both (after "
		                 "its reserve)", d->model->name);
		break;
	case GS_RULE_MPS_MEMORY:
	case GS_RULE_MPS_THREADS:
		if (d->ts_by && d->ts_by == v->with) {
			gs_decision o = *d;
			o.w = d->ts_by;
			o.ts = gs_strategy_ts_check(d->ts_by);
			gs_buf_puts(t, ", which rules out time-slicing (");
			put_ts(t, &o);
			gs_buf_puts(t, ")");
		} else if (d->ts_by && d->ts_by != d->w) {
			gs_buf_puts(t, ", where ");
			put_ts_out(t, d, d->ts_by);
		}
		gs_buf_puts(t, ", ");
		put_split(t, d, v, "MPS's");
		break;
	default:
		gs_buf_puts(t, ": ");
		put_mps(t, d, v, "MPS's");
	}
}

/* ---- fractions ------------------------------------------------------------ */

static const char *backend_label(gs_backend b)
{
	switch (b) {
	case GS_BACKEND_HAMI:
		return "HAMi";
	case GS_BACKEND_DRA:
		return "DRA capacity";
	case GS_BACKEND_MPS:
		return "MPS limits";
	default:
		return "none";
	}
}

/* What the backend enforces for w, and what the equal shares would have
 * offered its group where they fall short. */
static void put_fraction(gs_buf *t, const gs_decision *d)
{
	int64_t mib = gs_div_ceil(d->w->memory_bytes, 1 << 20);
	int pct = gs_fraction_percent(gs_workload_compute_on(d->w, d->model));
	int k = d->group_n;
	if (d->frac == GS_BACKEND_DRA)
		gs_buf_printf(t, "; its claim reserves %lld MiB of the GPU's memory (compute "
		                 "time-sliced)", (long long)mib);
	else if (d->frac == GS_BACKEND_HAMI)
		gs_buf_printf(t, "; HAMi caps it at %lld MiB and %d%% of the SMs", (long long)mib,
		              pct);
	else
		gs_buf_printf(t, "; its MPS limits are %lld MiB and %d%% of the threads",
		              (long long)mib, pct);
	if (d->group_mem > d->ts_offer) {
		gs_buf_puts(t, "; time-slicing would offer ");
		put_gib(t, d->ts_offer);
		gs_buf_puts(t, " (headroom ");
		put_pct(t, d->group_headroom, 0);
		gs_buf_puts(t, ")");
	}
	if (d->group_max_mem > d->mps_each && d->model->mps_max_clients) {
		gs_buf_puts(t, d->group_mem > d->ts_offer ? " and MPS's equal split "
		                                          : "; MPS's equal split ");
		put_gib(t, d->mps_each);
		gs_buf_printf(t, " to each of %d clients", k);
	}
}

/* Why the group's GPU is not shared as fractions. */
static void put_frac_rule(gs_buf *t, const gs_decision *d)
{
	const gs_rule_figs *f = &d->frac_v.figs;
	switch (d->frac_v.rule) {
	case GS_RULE_FRAC_CLIENTS:
		gs_buf_printf(t, "%lld replicas > %lld per GPU", (long long)f->need,
		              (long long)f->have);
		if (d->frac == GS_BACKEND_HAMI)
			gs_buf_puts(t, ", HAMi's deviceSplitCount");
		break;
	case GS_RULE_FRAC_PERCENT:
		gs_buf_printf(t, "their SM limits, in whole percent, sum to %lld%% > 100%%",
		              (long long)f->need);
		break;
	case GS_RULE_MEMORY:
		gs_buf_puts(t, "their caps would sum to ");
		put_gib2(t, f->need, ">", f->have);
		break;
	case GS_RULE_MPS_OFF:
		gs_buf_puts(t, "this plan has MIG, so no MPS");
		break;
	case GS_RULE_MPS_CAPACITY:
		gs_buf_puts(t, "DRA consumable capacity turns the driver's MPS off");
		break;
	default:
		gs_buf_printf(t, "%s has no MPS", d->model->name);
	}
}

/* ---- what decided -------------------------------------------------------- */

static void put_head(gs_buf *t, const gs_decision *d)
{
	int64_t comp = gs_workload_compute_on(d->w, d->model);
	switch (d->strategy) {
	case GS_STRATEGY_TIME_SLICING:
		gs_buf_printf(t, "time-slicing on %s", d->model->name);
		break;
	case GS_STRATEGY_MPS:
		gs_buf_printf(t, "MPS on %s, %d clients", d->model->name, d->clients);
		break;
	case GS_STRATEGY_MIG:
		gs_buf_printf(t, "MIG %s on %s", d->profile->name, d->model->name);
		break;
	case GS_STRATEGY_FRACTION:
		gs_buf_printf(t, "fraction (%s) on %s", backend_label(d->frac), d->model->name);
		break;
	default:
		if (d->w->gpus_per_replica > 1)
			gs_buf_printf(t, "dedicated %d x %s", d->w->gpus_per_replica,
			              d->model->name);
		else
			gs_buf_printf(t, "dedicated %s", d->model->name);
	}
	gs_buf_puts(t, " (");
	put_pct(t, comp, 0);
	gs_buf_puts(t, " compute, ");
	put_gib(t, d->w->memory_bytes);
	gs_buf_puts(t, d->w->gpus_per_replica > 1 ? " per GPU): " : "): ");
}

static void put_rule(gs_buf *t, const gs_decision *d)
{
	if (d->bind.with) {
		put_with(t, d);
		return;
	}
	if (d->bind.rule == GS_RULE_TARGET) {
		gs_buf_puts(t, "alone it runs at ");
		put_pct2(t, d->bind.figs.need, "> targetUtilization", d->bind.figs.have);
		gs_buf_puts(t, ", the cap of a shared GPU");
		return;
	}
	put_ts_out(t, d, d->w);
	gs_buf_puts(t, " and ");
	put_mps(t, d, &d->bind, "MPS's");
}

static void put_shared(gs_buf *t, const gs_decision *d)
{
	int n = d->group_n - 1;
	int64_t a = d->group_mem, b = d->gpu_mem;
	gs_buf_printf(t, "with %d other replica%s", n, n == 1 ? "" : "s");
	if (d->n_tenants > 1)
		gs_buf_printf(t, " of tenant %s", d->w->tenant);
	gs_buf_puts(t, ", together ");
	put_pct(t, d->group_comp, 0);
	gs_buf_puts(t, " compute (targetUtilization ");
	put_pct(t, d->target, 0);
	gs_buf_printf(t, ") and %lld.%02lld of ", (long long)(hundredths(a) / 100),
	              (long long)(hundredths(a) % 100));
	put_gib(t, b);
}

/* The packer's prices for the model's replicas, whole GPUs against MIG:
 * chosen says MIG was chosen (else whole GPUs were). */
static void put_mig_cost(gs_buf *t, const gs_decision *d, int chosen)
{
	const gs_mig_probe *pr = &d->probe;
	gs_micros other = chosen ? pr->whole_cost : pr->mig_cost;
	gs_micros mine = chosen ? pr->mig_cost : pr->whole_cost;
	int gpus_other = chosen ? pr->whole_gpus : pr->mig_gpus;
	int gpus_mine = chosen ? pr->mig_gpus : pr->whole_gpus;
	gs_buf_printf(t, "%sthe %s replicas would cost ", chosen ? "on whole GPUs " : "",
	              d->model->name);
	if (!same_money(other, mine)) {
		put_money(t, other);
		gs_buf_puts(t, chosen ? ", not " : " with it, not ");
		put_money(t, mine);
	} else if (gpus_other != gpus_mine) {
		gs_buf_printf(t, "the same%s on %d GPUs, not %d", chosen ? "" : " with it",
		              gpus_other, gpus_mine);
	} else {
		gs_buf_puts(t, "the same with it, with more to reconfigure");
	}
}

static void put_mig(gs_buf *t, const gs_decision *d)
{
	if (d->why == GS_WHY_FAULT)
		gs_buf_puts(t, "isolation: fault needs an instance of its own");
	else
		put_mig_cost(t, d, 1);
	if (d->other_tenant)
		gs_buf_printf(t, "; isolated from tenant %s on the same GPU", d->other_tenant);
	else if (d->beside)
		gs_buf_printf(t, "; beside %s", d->beside->name);
	if (d->group_n > 1)
		gs_buf_printf(t, ", time-sliced with %d more", d->group_n - 1);
	if (!d->smaller.figs.prof) {
		gs_buf_puts(t, "; its smallest profile");
		return;
	}
	/* The optimiser may give an instance more than it needs where the
	 * geometry has the slices to spare; the smaller one then holds it. */
	if (d->smaller.rule == GS_RULE_OK) {
		gs_buf_printf(t, "; %s would hold it too, and the GPU's geometry has the room",
		              d->smaller.figs.prof->name);
		return;
	}
	gs_buf_printf(t, "; %s ", d->smaller.figs.prof->name);
	if (d->smaller.rule == GS_RULE_MIG_MEMORY) {
		gs_buf_puts(t, "has ");
		put_gib2(t, d->smaller.figs.have, "<", d->smaller.figs.need);
	} else {
		gs_buf_puts(t, "gives ");
		put_pct2(t, d->smaller.figs.have, "<", d->smaller.figs.need);
	}
}

static void put_mps_group(gs_buf *t, const gs_decision *d, const gs_plan *p)
{
	const gs_assignment *a = p->nodes[d->node].gpus[d->gpu].assignments;
	size_t i = 0;
	put_ts_out(t, d, d->ts_by);
	while (a[i].workload != d->w || a[i].replica != d->replica)
		i++;
	if (p->s->via == GS_VIA_DRA) {
		gs_buf_printf(t, "; limits per claim: %d%% of threads and ", a[i].thread_percent);
		put_gib(t, a[i].memory_limit_mib << 20);
		return;
	}
	gs_buf_printf(t, "; the device plugin's split, %d%% of threads and ", a[i].thread_percent);
	put_gib(t, a[i].memory_limit_mib << 20);
	gs_buf_puts(t, " per client, holds it");
}

static void put_decided(gs_buf *t, const gs_decision *d, const gs_plan *p)
{
	switch (d->why) {
	case GS_WHY_UNSHARED:
		gs_buf_puts(t, "no sharing plan found beats a whole GPU per replica (");
		put_money(t, d->shared_cost);
		gs_buf_puts(t, " against ");
		put_money(t, d->dedicated_cost);
		gs_buf_puts(t, ")");
		break;
	case GS_WHY_FAULT:
		if (d->strategy == GS_STRATEGY_MIG) {
			put_mig(t, d);
			break;
		}
		gs_buf_puts(t, "isolation: fault, and ");
		put_mig_rule(t, d, &d->mig);
		break;
	case GS_WHY_ALONE:
		if (!d->bind.with)
			gs_buf_printf(t, "no other replica is planned on %s", d->model->name);
		else
			gs_buf_printf(t, "no whole %s GPU to share: the others are %s (e.g. %s/%d)",
			              d->model->name,
			              d->bind.with->isolation_fault       ? "fault-isolated"
			              : d->bind.with->gpus_per_replica > 1 ? "of multi-GPU replicas"
			                                                   : "in MIG",
			              d->bind.with->name, d->bind.with_replica);
		break;
	case GS_WHY_RULE:
		put_rule(t, d);
		break;
	case GS_WHY_ALLOWED:
		gs_buf_printf(t, "the rules allow it beside %s/%d, where the packing did not "
		                 "put it", d->bind.with->name, d->bind.with_replica);
		break;
	case GS_WHY_SHARED:
		if (d->strategy == GS_STRATEGY_MPS) {
			put_mps_group(t, d, p);
			break;
		}
		if (d->strategy == GS_STRATEGY_FRACTION) {
			put_shared(t, d);
			put_fraction(t, d);
			break;
		}
		put_shared(t, d);
		gs_buf_puts(t, "; allowed for ");
		put_ts(t, d);
		break;
	case GS_WHY_UNASKED:
		gs_buf_printf(t, "its tenant's %d other whole %s GPUs were too many to ask the "
		                 "rules about", d->could_ask, d->model->name);
		break;
	case GS_WHY_WIDE:
		gs_buf_printf(t, "needs %d GPUs per replica, whole and on one node "
		                 "(time-slicing, MPS and MIG share a single GPU)",
		              d->w->gpus_per_replica);
		break;
	case GS_WHY_SPARE:
		gs_buf_puts(t, "alone, on a time-slicing node rather than a dedicated one, which "
		               "priced no higher; allowed for ");
		put_ts(t, d);
		break;
	default:
		put_mig(t, d);
	}
}

/* ---- rejected alternatives ----------------------------------------------- */

typedef struct rej {
	gs_buf *t;
	int first;
} rej;

static void rej_next(rej *r, const char *what)
{
	gs_buf_puts(r->t, r->first ? "; rejected: " : ", ");
	r->first = 0;
	gs_buf_printf(r->t, "%s (", what);
}

/* Did the main clause already give the study's rule or MPS's answer? */
static int said_ts(const gs_decision *d)
{
	return (d->why == GS_WHY_RULE && !d->bind.with && d->bind.rule != GS_RULE_TARGET) ||
	       (d->why == GS_WHY_SHARED && d->strategy == GS_STRATEGY_MPS);
}

static void reject_sharing(rej *r, const gs_decision *d)
{
	if (d->why == GS_WHY_UNSHARED || d->why == GS_WHY_WIDE)
		return;
	if (d->w->isolation_fault) {
		rej_next(r, "time-slicing and MPS");
		gs_buf_puts(r->t, "isolation: fault)");
		return;
	}
	if (d->strategy != GS_STRATEGY_TIME_SLICING && d->ts.rule && !said_ts(d)) {
		rej_next(r, "time-slicing");
		put_ts(r->t, d);
		gs_buf_puts(r->t, ")");
	}
	if (d->strategy != GS_STRATEGY_MPS && d->ts.rule && d->mps.rule != GS_RULE_OK &&
	    !said_ts(d)) {
		rej_next(r, "MPS");
		put_mps(r->t, d, &d->mps, "the");
		gs_buf_puts(r->t, ")");
	}
}

static void reject_fraction(rej *r, const gs_decision *d)
{
	char what[48];
	if (d->frac == GS_BACKEND_NONE || d->strategy == GS_STRATEGY_FRACTION ||
	    d->strategy == GS_STRATEGY_MIG || d->frac_v.rule == GS_RULE_OK ||
	    d->why != GS_WHY_SHARED)
		return;
	snprintf(what, sizeof what, "fraction (%s)", backend_label(d->frac));
	rej_next(r, what);
	put_frac_rule(r->t, d);
	gs_buf_puts(r->t, ")");
}

static void reject_mig(rej *r, const gs_decision *d)
{
	if (d->strategy == GS_STRATEGY_MIG || d->why == GS_WHY_FAULT || d->why == GS_WHY_UNSHARED ||
	    d->why == GS_WHY_WIDE || (d->mig.rule == GS_RULE_OK && !d->probe.tried))
		return;
	rej_next(r, "MIG");
	if (d->mig.rule == GS_RULE_OK)
		put_mig_cost(r->t, d, 0);
	else
		put_mig_rule(r->t, d, &d->mig);
	gs_buf_puts(r->t, ")");
}

/* Whole GPUs against what the workload pays here: the capacity it holds
 * and its part of its nodes' idle capacity, which a dedicated GPU would
 * no longer leave to others. */
static void reject_costs(rej *r, const gs_decision *d)
{
	gs_micros pays = d->cost + d->idle;
	if (d->strategy != GS_STRATEGY_DEDICATED && d->ded_cost > pays &&
	    !same_money(d->ded_cost, pays)) {
		rej_next(r, "dedicated");
		put_money(r->t, d->ded_cost);
		gs_buf_puts(r->t, " instead of ");
		put_money(r->t, pays);
		if (d->idle > 0 && !same_money(d->idle, 0))
			gs_buf_puts(r->t, " with its share of idle");
		gs_buf_puts(r->t, ")");
	}
	if (d->alt_model) {
		gs_micros mag = d->alt_delta > 0 ? d->alt_delta : -d->alt_delta;
		char buf[32];
		rej_next(r, d->alt_model->name);
		/* The local search's measure: this one workload moved. */
		if (same_money(d->alt_delta, 0))
			gs_buf_puts(r->t, "same cost if moved alone)");
		else
			gs_buf_printf(r->t, "%s$%s/h if moved alone)", d->alt_delta > 0 ? "+" : "-",
			              gs_micros_format(mag, 2, buf, sizeof buf));
	}
}

static void put_node(gs_buf *t, const gs_decision *d, const gs_plan *p)
{
	if (d->node_idle <= 0)
		return;
	gs_buf_printf(t, "; %d of its %s's %d GPUs idle", d->node_idle,
	              p->nodes[d->node].instance->type, d->node_gpus);
	if (d->min_gpus == d->node_gpus)
		gs_buf_printf(t, " (no smaller %s instance)", d->model->name);
}

int gs_decision_text(const gs_decision *d, const gs_plan *p, gs_buf *t)
{
	rej r = { t, 1 };
	put_head(t, d);
	put_decided(t, d, p);
	if (d->why != GS_WHY_UNASKED && d->asked < d->could_ask)
		gs_buf_printf(t, " (of its tenant's %d other whole %s GPUs, %d were asked)",
		              d->could_ask, d->model->name, d->asked);
	put_node(t, d, p);
	if (d->n_other)
		gs_buf_printf(t, "; %d of its %d replicas %s", d->n_other, d->w->replicas,
		              gs_strategy_info_get(d->other)->label);
	if (d->n_elsewhere)
		gs_buf_printf(t, "; %d of its %d replicas on %s", d->n_elsewhere, d->w->replicas,
		              d->elsewhere->name);
	reject_sharing(&r, d);
	reject_fraction(&r, d);
	reject_mig(&r, d);
	reject_costs(&r, d);
	return t->failed ? -1 : 0;
}
