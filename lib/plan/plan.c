/*
 * plan.c - the gs_plan object: a plan in one cloud (choose a GPU model per
 * workload, pack, buy instances, and keep the cheaper of the shared plan
 * and the plan without sharing), its summary and its accessors; which
 * cloud is plan_cloud.c's (gs_plan_make). Every
 * step iterates in a fixed order, so the same input always gives the same
 * plan. The memory the plan owns is plan_mem.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/host.h"
#include "plan/plan_internal.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

/* ---- the summary --------------------------------------------------------- */

/* The plan before sharing; a scenario imported from a cluster compares
 * with the cluster. */
static void sum_before(gs_plan *p, const gs_scenario *s, const gs_built *before)
{
	gs_plan_summary *sum = &p->sum;
	for (int i = 0; i < before->ns.n; i++) {
		sum->before_per_hour += before->ns.v[i].price;
		sum->gpus_before += before->ns.v[i].inst->gpu_count;
		sum->instances_before++;
	}
	if (s->cluster_cost >= 0 && s->cluster_gpus > 0) {
		sum->before_per_hour = s->cluster_cost;
		sum->gpus_before = s->cluster_gpus;
		sum->instances_before = s->cluster_nodes;
	}
	if (sum->gpus_before)
		sum->util_before_permille =
		        (int)(before->comp * 1000 / ((int64_t)sum->gpus_before * GS_PPM));
}

/* The planned nodes' cost, GPUs and compute. */
static int64_t sum_after(gs_plan *p)
{
	gs_plan_summary *sum = &p->sum;
	int64_t comp = 0;
	for (size_t i = 0; i < p->n_nodes; i++) {
		const gs_plan_node *nd = &p->nodes[i];
		sum->after_per_hour += nd->price_per_hour;
		sum->gpus_after += (int)nd->n_gpus;
		sum->instances_after++;
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *pg = &nd->gpus[g];
			for (size_t a = 0; a < pg->n_assignments; a++)
				comp += pg->assignments[a].compute_ppm;
			for (size_t m = 0; m < pg->n_mig; m++)
				for (size_t a = 0; a < pg->mig[m].n_assignments; a++)
					comp += pg->mig[m].assignments[a].compute_ppm;
		}
	}
	return comp;
}

/* What runs today: the imported cluster, else the workloads' `current`
 * instances; -1 when unknown. */
static gs_micros current_cost(const gs_scenario *s)
{
	gs_micros cost = -1;
	if (s->cluster_cost >= 0)
		return s->cluster_cost;
	for (size_t i = 0; i < s->n; i++) {
		const gs_workload *w = &s->w[i]->pub;
		gs_micros price;
		if (!w->current)
			continue;
		if (cost < 0)
			cost = 0;
		/* What runs today may have no spot price: count it on demand. */
		price = gs_instance_price(s, w->current);
		cost += (price >= 0 ? price : w->current->on_demand) * w->current_count;
	}
	return cost;
}

static void summarize(gs_plan *p, const gs_planner *pl)
{
	gs_plan_summary *sum = &p->sum;
	int64_t comp = sum_after(p);
	sum->pricing = pl->s->pricing;
	sum->hours_per_month = GS_HOURS_PER_MONTH;
	sum->replicas = pl->nreps;
	sum->savings_per_hour = sum->before_per_hour - sum->after_per_hour;
	sum->savings_permille = sum->before_per_hour
	        ? (int)gs_div_round(sum->savings_per_hour * 1000, sum->before_per_hour) : 0;
	if (sum->gpus_after)
		sum->util_after_permille =
		        (int)(comp * 1000 / ((int64_t)sum->gpus_after * GS_PPM));
	sum->current_per_hour = current_cost(pl->s);
}

/* Each team's cost, teams sorted by name. */
static int plan_teams(gs_plan *p)
{
	if (!(p->teams = gs_plan_alloc(p, p->n_wls, sizeof *p->teams)))
		return -1;
	for (size_t i = 0; i < p->n_wls; i++) {
		const char *team = p->wls[i].workload->team;
		size_t t;
		for (t = 0; t < p->n_teams && strcmp(p->teams[t].team, team) != 0; t++)
			;
		if (t == p->n_teams) {
			while (t > 0 && strcmp(p->teams[t - 1].team, team) > 0) {
				p->teams[t] = p->teams[t - 1];
				t--;
			}
			p->teams[t].team = team;
			p->teams[t].cost_per_hour = 0;
			p->n_teams++;
		}
		for (t = 0; strcmp(p->teams[t].team, team) != 0; t++)
			;
		p->teams[t].cost_per_hour += p->wls[i].cost_per_hour;
	}
	return 0;
}

/* ---- making the plan ----------------------------------------------------- */

/* The records of the cheaper plan and everything said about them.
 * Sharing must never cost more than not sharing: where the heuristic
 * lands above the dedicated plan, the dedicated plan is the answer. */
static int fill(gs_plan *p, const gs_planner *pl, const gs_built *after,
                const gs_built *before, const gs_micros *ded)
{
	int shared = after->cost <= before->cost;
	if (gs_plan_records(p, pl, shared ? &after->ns : &before->ns) < 0)
		return -1;
	sum_before(p, pl->s, before);
	summarize(p, pl);
	if (gs_plan_advice(p, ded) < 0 || gs_plan_host(p, shared ? &after->ns : &before->ns) < 0)
		return -1;
	if (!shared && gs_plan_warn(p, "no sharing plan found beats a whole GPU per replica "
	                               "here; this plan keeps every replica on its own "
	                               "GPU") < 0)
		return -1;
	return plan_teams(p);
}

static int make(gs_plan *p, gs_planner *pl, gs_error *err)
{
	gs_choice c;
	gs_built after, before;
	gs_micros *ded = calloc(pl->s->n ? pl->s->n : 1, sizeof *ded);
	int rc;

	memset(&c, 0, sizeof c);
	memset(&after, 0, sizeof after);
	memset(&before, 0, sizeof before);
	rc = ded ? gs_choice_init(pl, &c) : -1;

	if (rc == -2) {
		rc = gs_host_no_model(pl, &pl->s->w[c.failed]->pub, err);
		goto done;
	}
	if (rc == 0)
		rc = gs_choose_models(pl, pl->shops, &c);
	if (rc == 0 && !(p->rep_cost = calloc((size_t)(pl->nreps ? pl->nreps : 1),
	                                      sizeof *p->rep_cost)))
		rc = -1;
	if (rc == 0 && (rc = gs_build_after(pl, pl->shops, &c, &after)) == 0)
		rc = gs_build_before(pl, pl->shops, &c, &before, ded);
	if (rc == -2)
		rc = gs_fail(err, GS_ENOFIT, "no instance in %s holds the host CPU and RAM that "
		             "the replicas of one GPU request", pl->cloud);
	if (rc == 0)
		rc = fill(p, pl, &after, &before, ded);
	if (rc == -1)
		rc = gs_fail_nomem(err);
done:
	gs_built_release(&after);
	gs_built_release(&before);
	gs_choice_release(pl, &c);
	free(ded);
	return rc;
}

int gs_plan_estimate(const gs_scenario *s, const char *cloud, gs_micros *share)
{
	gs_shop shops[GS_MAX_MODELS];
	gs_planner pl;
	gs_choice c;
	int rc;

	memset(shops, 0, sizeof shops);
	memset(&c, 0, sizeof c);
	rc = gs_planner_init(&pl, s, cloud, shops);
	if (rc == 0)
		rc = gs_choice_init(&pl, &c);
	*share = c.share;
	gs_choice_release(&pl, &c);
	gs_planner_release(&pl);
	return rc;
}

int gs_plan_in(const gs_scenario *s, const char *cloud, int quick, gs_plan **out,
               gs_error *err)
{
	gs_shop shops[GS_MAX_MODELS];
	gs_planner pl;
	gs_plan *p;
	int rc;

	if (!(p = calloc(1, sizeof *p)))
		return gs_fail_nomem(err);
	p->s = s;
	memset(shops, 0, sizeof shops);
	if (gs_planner_init(&pl, s, cloud, shops) < 0 || !(p->sum.cloud = gs_plan_strdup(p, cloud)))
		rc = gs_fail_nomem(err);
	else {
		pl.quick = quick;
		rc = make(p, &pl, err);
	}
	gs_planner_release(&pl);
	if (rc < 0) {
		gs_plan_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

/* ---- accessors ----------------------------------------------------------- */

const gs_plan_summary *gs_plan_summary_get(const gs_plan *p) { return &p->sum; }
const gs_scenario *gs_plan_scenario(const gs_plan *p) { return p->s; }
size_t gs_plan_node_count(const gs_plan *p) { return p->n_nodes; }
const gs_plan_node *gs_plan_node_at(const gs_plan *p, size_t i)
{
	return i < p->n_nodes ? &p->nodes[i] : NULL;
}
size_t gs_plan_workload_count(const gs_plan *p) { return p->n_wls; }
const gs_plan_workload *gs_plan_workload_at(const gs_plan *p, size_t i)
{
	return i < p->n_wls ? &p->wls[i] : NULL;
}
size_t gs_plan_team_count(const gs_plan *p) { return p->n_teams; }
const gs_plan_team *gs_plan_team_at(const gs_plan *p, size_t i)
{
	return i < p->n_teams ? &p->teams[i] : NULL;
}
size_t gs_plan_cloud_count(const gs_plan *p) { return p->n_clouds; }
const gs_plan_cloud *gs_plan_cloud_at(const gs_plan *p, size_t i)
{
	return i < p->n_clouds ? &p->clouds[i] : NULL;
}
size_t gs_plan_warning_count(const gs_plan *p) { return p->n_warnings; }
const char *gs_plan_warning_at(const gs_plan *p, size_t i)
{
	return i < p->n_warnings ? p->warnings[i] : NULL;
}
