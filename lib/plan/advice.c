/*
 * advice.c - each workload's record in the plan: its strategy, its cost
 * and its why-text, rendered from the decision the planner recorded for it
 * (decide.c, why_text.c); and the plan's warnings (advise.c advises on one
 * workload alone). The rules follow the benchmark study in the seeds
 * (KubeCon NA 2024, "Which GPU Sharing Strategy Is Right for You?").
 */
#include "base/buf.h"
#include "plan/decision.h"
#include "plan/plan_internal.h"
#include "plan/strategy.h"
#include "scenario/scenario.h"

static int warnings(gs_plan *p)
{
	int ts = 0, mps = 0, mig = 0;
	for (size_t n = 0; n < p->n_nodes; n++)
		for (size_t g = 0; g < p->nodes[n].n_gpus; g++) {
			const gs_plan_gpu *pg = &p->nodes[n].gpus[g];
			int used = pg->n_assignments || pg->n_mig;
			ts += used && pg->strategy == GS_STRATEGY_TIME_SLICING;
			mps += used && pg->strategy == GS_STRATEGY_MPS;
			mig += used && pg->strategy == GS_STRATEGY_MIG;
			for (size_t m = 0; m < pg->n_mig; m++)
				ts += pg->mig[m].strategy == GS_STRATEGY_TIME_SLICING;
		}
	if (ts && gs_plan_warn(p, "time-slicing on %d GPU%s or MIG instance%s: memory and "
	                          "faults are not isolated; a replica that outgrows its "
	                          "planned memory can crash the others",
	                       ts, ts == 1 ? "" : "s", ts == 1 ? "" : "s") < 0)
		return -1;
	if (mps && gs_plan_warn(p, "MPS on %d GPU%s: the clients of a GPU share one fault "
	                           "domain; a fatal error in one ends them all",
	                        mps, mps == 1 ? "" : "s") < 0)
		return -1;
	if (mig && gs_plan_warn(p, "MIG on %d GPU%s: applying or changing a geometry needs "
	                           "the node drained", mig, mig == 1 ? "" : "s") < 0)
		return -1;
	if (p->sum.pricing == GS_PRICING_SPOT &&
	    gs_plan_warn(p, "spot prices are a snapshot and change hourly; spot capacity "
	                    "can be reclaimed") < 0)
		return -1;
	return 0;
}

int gs_plan_advice(gs_plan *p, const gs_micros *ded_cost)
{
	size_t nw = gs_scenario_workload_count(p->s);
	int rc = 0;

	(void)ded_cost; /* in the decisions */
	if (!(p->wls = gs_plan_alloc(p, nw, sizeof *p->wls)) || p->n_decisions != nw)
		return -1;
	p->n_wls = nw;
	for (size_t i = 0; i < nw && rc == 0; i++) {
		const gs_decision *d = &p->decisions[i];
		gs_plan_workload *pw = &p->wls[i];
		pw->workload = d->w;
		pw->strategy = d->strategy;
		pw->cost_per_hour = d->cost;
		if (d->w->current || p->s->cluster_cost >= 0)
			p->current_after += pw->cost_per_hour;
	}
	return rc < 0 ? rc : warnings(p);
}

int gs_plan_why(gs_plan *p)
{
	for (size_t i = 0; i < p->n_wls; i++) {
		gs_decision *d = &p->decisions[i];
		gs_plan_workload *pw = &p->wls[i];
		gs_buf t = GS_BUF_INIT;
		int rc;
		/* What it pays here, against which a dedicated GPU is priced. */
		d->idle = pw->idle_per_hour;
		rc = gs_decision_text(d, p, &t);
		if (rc == 0 && !(pw->why = gs_plan_strdup(p, gs_buf_str(&t))))
			rc = -1;
		gs_buf_release(&t);
		if (rc < 0)
			return -1;
	}
	return 0;
}
