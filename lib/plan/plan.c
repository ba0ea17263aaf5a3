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

#include "plan/cg.h"
#include "plan/decision.h"
#include "plan/host.h"
#include "plan/plan_internal.h"
#include "plan/opt.h"
#include "plan/memo.h"
#include "plan/planner.h"
#include "plan/plan_ident.h"
#include "scenario/scenario.h"

/* ---- the summary --------------------------------------------------------- */

/* The plan before sharing, the cheapest with a whole GPU per replica; a
 * scenario imported from a cluster compares with the cluster instead, and
 * still states the dedicated plan. */
static void sum_before(gs_plan *p, const gs_scenario *s, const gs_built *before)
{
	gs_plan_summary *sum = &p->sum;
	for (int i = 0; i < before->ns.n; i++) {
		sum->dedicated_per_hour += before->ns.v[i].price;
		sum->gpus_dedicated += before->ns.v[i].inst->gpu_count;
		sum->instances_dedicated++;
	}
	sum->before_per_hour = sum->dedicated_per_hour;
	sum->gpus_before = sum->gpus_dedicated;
	sum->instances_before = sum->instances_dedicated;
	if (s->cluster_cost >= 0 && s->cluster_gpus > 0) {
		sum->before_per_hour = s->cluster_cost;
		sum->gpus_before = s->cluster_gpus;
		sum->instances_before = s->cluster_nodes;
		sum->before_is_cluster = 1;
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
		price = (price >= 0 ? price : w->current->on_demand) * w->current_count;
		/* Its share, when it shares its instances with other workloads. */
		cost += w->current_share_ppm ? gs_div_round(price * w->current_share_ppm, GS_PPM)
		                             : price;
	}
	return cost;
}

/* What a saving is as a share of what it is measured against, in
 * permille. */
static int share_of(gs_micros saved, gs_micros of)
{
	return of ? (int)gs_div_round(saved * 1000, of) : 0;
}

/* The summary's figures that follow from the totals before and after,
 * and comp, the planned compute after. */
static void summarize(gs_plan *p, const gs_planner *pl, int64_t comp)
{
	gs_plan_summary *sum = &p->sum;
	sum->pricing = pl->s->pricing;
	sum->hours_per_month = GS_HOURS_PER_MONTH;
	sum->replicas = pl->nreps;
	sum->savings_per_hour = sum->before_per_hour - sum->after_per_hour;
	sum->savings_permille = share_of(sum->savings_per_hour, sum->before_per_hour);
	sum->savings_vs_dedicated_per_hour = sum->dedicated_per_hour - sum->after_per_hour;
	sum->savings_vs_dedicated_permille =
	        share_of(sum->savings_vs_dedicated_per_hour, sum->dedicated_per_hour);
	if (sum->gpus_after)
		sum->util_after_permille =
		        (int)(comp * 1000 / ((int64_t)sum->gpus_after * GS_PPM));
	sum->current_per_hour = current_cost(pl->s);
}

/* Each workload's part of its nodes' idle, before plan_teams spreads each
 * team's over its workloads. */
static void raw_idle(gs_plan *p)
{
	int r = 0;
	for (size_t i = 0; i < p->n_wls; i++) {
		gs_plan_workload *pw = &p->wls[i];
		pw->idle_per_hour = 0;
		for (int k = 0; k < pw->workload->replicas; k++)
			pw->idle_per_hour += p->rep_idle[r++];
	}
}

/* The plan's idle, and what the workloads that name their `current`
 * instances cost in the plan: the capacity they hold and their idle, so
 * that when every workload names it, the whole plan. */
static void sum_showback(gs_plan *p)
{
	gs_plan_summary *sum = &p->sum;
	p->current_after = 0;
	for (size_t i = 0; i < p->n_wls; i++) {
		const gs_plan_workload *pw = &p->wls[i];
		sum->idle_per_hour += pw->idle_per_hour;
		if (pw->workload->current || p->s->cluster_cost >= 0)
			p->current_after += pw->cost_per_hour + pw->idle_per_hour;
	}
	if (sum->current_per_hour < 0)
		return;
	sum->current_savings_per_hour = sum->current_per_hour - p->current_after;
	sum->current_savings_permille =
	        share_of(sum->current_savings_per_hour, sum->current_per_hour);
}

/* Spreads team t's idle over its workloads by what they hold, exactly. */
static int spread_idle(gs_plan *p, const gs_plan_team *t)
{
	size_t n = 0, k = 0;
	int64_t *w;
	gs_micros *got;
	size_t *at;
	int rc = -1;
	for (size_t i = 0; i < p->n_wls; i++)
		n += strcmp(p->wls[i].workload->team, t->team) == 0;
	w = malloc((n ? n : 1) * sizeof *w);
	got = malloc((n ? n : 1) * sizeof *got);
	at = malloc((n ? n : 1) * sizeof *at);
	if (w && got && at) {
		for (size_t i = 0; i < p->n_wls; i++)
			if (strcmp(p->wls[i].workload->team, t->team) == 0) {
				at[k] = i;
				w[k++] = p->wls[i].cost_per_hour;
			}
		rc = gs_split_micros(t->idle_per_hour, w, (int)n, got);
		for (size_t i = 0; rc == 0 && i < n; i++)
			p->wls[at[i]].idle_per_hour = got[i];
	}
	free(w);
	free(got);
	free(at);
	return rc;
}

/* Each team's cost and idle, teams sorted by name; a team's idle is what
 * its workloads carry of their nodes' idle, then spread over them by what
 * they hold. */
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
			p->teams[t].idle_per_hour = 0;
			p->n_teams++;
		}
		for (t = 0; strcmp(p->teams[t].team, team) != 0; t++)
			;
		p->teams[t].cost_per_hour += p->wls[i].cost_per_hour;
		p->teams[t].idle_per_hour += p->wls[i].idle_per_hour;
	}
	for (size_t t = 0; t < p->n_teams; t++)
		if (spread_idle(p, &p->teams[t]) < 0)
			return -1;
	return 0;
}

/* ---- making the plan ----------------------------------------------------- */

/* The baseline: the search's plan with a whole GPU per replica, or the
 * shared plan itself when it shares no GPU and costs less, since it is
 * then such a plan too: a plan that shares nothing saves nothing. */
static const gs_built *baseline(const gs_built *after, const gs_built *before)
{
	if (gs_built_shares_nothing(after) && after->cost < before->cost)
		return after;
	return before;
}

/* The records of plan `shared ? after : base` and everything said about
 * them, but the pinned figure and the sharing limit (plan_side.c). */
static int fill_records(gs_plan *p, gs_planner *pl, gs_choice *c, const gs_built *after,
                        const gs_built *base, int shared, gs_micros *ded)
{
	gs_whole_gpu_costs(pl, base, ded);
	if (gs_plan_records(p, pl, shared ? &after->ns : &base->ns) < 0)
		return -1;
	sum_before(p, pl->s, base);
	summarize(p, pl, sum_after(p));
	if (gs_plan_decide(p, pl, c, shared ? after : base, shared, after->cost,
	                   base->cost, ded) < 0 ||
	    gs_plan_advice(p, ded) < 0 || gs_plan_host(p, shared ? &after->ns : &base->ns) < 0)
		return -1;
	raw_idle(p);
	if (plan_teams(p) < 0)
		return -1;
	sum_showback(p);
	if (gs_plan_costs_more(p) < 0 || gs_plan_util_error(p) < 0)
		return -1;
	/* The texts are rendered from the records and decisions alone: fill
	 * writes them beside the second thread where this plan is the one
	 * kept, else gs_plan_texts does once it is. The plans of the other
	 * clouds and of a what-if edit that shows its summary need none. */
	p->texts_due = 1;
	if (gs_plan_uniform_note(p, pl) < 0 || gs_plan_pool_note(p) < 0)
		return -1;
	if (!shared && gs_plan_warn(p, "no sharing plan found beats a whole GPU per replica "
	                               "here; this plan keeps every replica on its own "
	                               "GPU") < 0)
		return -1;
	return 0;
}

/* The summary of the cheaper plan without its records
 * (gs_plan_opts.summary_only): the totals fill_records sums from them,
 * taken from the bought nodes they would be made of. */
static void summary_alone(gs_plan *p, const gs_planner *pl, const gs_built *after,
                          const gs_built *before)
{
	const gs_built *base = baseline(after, before);
	const gs_nodeset *ns = after->cost <= base->cost ? &after->ns : &base->ns;
	gs_plan_summary *sum = &p->sum;
	sum_before(p, pl->s, base);
	for (int i = 0; i < ns->n; i++) {
		sum->after_per_hour += ns->v[i].price;
		sum->gpus_after += ns->v[i].inst->gpu_count;
		sum->instances_after++;
	}
	summarize(p, pl, gs_plan_records_compute(pl, ns));
	sum->pinned_per_hour = -1;
	gs_plan_bound_set(p, -1);
}

/* What the plan that stands is, for the second thread's work to end
 * on once the bound is in (make). */
typedef struct stands {
	const gs_built *chosen;
	gs_micros base_cost;
} stands;

/* The records of the cheaper plan and everything said about them, into
 * *st. Sharing must never cost more than not sharing: where the
 * heuristic lands above the dedicated plan, the dedicated plan is the
 * answer. The second thread's work (*side) began with the shared plan
 * chosen; where the dedicated one is, it begins again. */
static int fill(gs_plan *p, gs_planner *pl, gs_choice *c, const gs_built *after,
                gs_built *before, gs_side **side, gs_micros *ded, stands *st)
{
	const gs_built *base = baseline(after, before);
	int shared = after->cost <= base->cost;
	st->chosen = shared ? after : base;
	st->base_cost = base->cost;
	if (st->chosen != after) {
		gs_side_drop(*side, pl);
		if (gs_side_begin(pl, c, st->chosen, NULL, side) < 0)
			return -1;
	}
	if (fill_records(p, pl, c, after, base, shared, ded) < 0 ||
	    (p->texts_now && gs_plan_texts_write(p) < 0))
		return -1;
	/* Freed while the second thread may still work: 10,000 replicas
	 * are 10,000 GPUs there. */
	if (st->chosen != before)
		gs_built_release(before);
	return 0;
}

/* The shared plan, in which each workload's replicas request one thing:
 * where a packing mixes MIG slices and whole GPUs (or profiles) for one
 * workload, it keeps to whole GPUs and the models are chosen again. A
 * few rounds settle it; what is left is the emitter's to refuse. */
static int build_uniform(gs_planner *pl, gs_choice *c, gs_built *after)
{
	int rc = gs_build_chosen(pl, pl->shops, c, after);
	/* Pinned placement makes copies of an object where it must. */
	if (gs_scenario_placement(pl->s) == GS_PLACEMENT_PINNED)
		return rc;
	for (int round = 0; rc == 0 && round < 3; round++) {
		int marked = gs_plan_uniform(pl, after);
		if (marked <= 0)
			return marked < 0 ? -1 : 0;
		gs_built_release(after);
		memset(after, 0, sizeof *after);
		gs_choice_release(pl, c);
		memset(c, 0, sizeof *c);
		if ((rc = gs_choice_init(pl, c)) == 0 &&
		    (rc = gs_choose_models_first(pl, pl->shops, c)) == 0)
			rc = gs_build_chosen(pl, pl->shops, c, after);
	}
	return rc;
}

void gs_plan_bound_set(gs_plan *p, gs_micros bound)
{
	p->sum.lower_bound_per_hour = bound;
	if (bound >= 0 && bound >= p->sum.after_per_hour)
		p->sum.lower_bound_by = "optimum";
}

/* The better of the optimiser's bound (when its program holds every
 * option) and the volume bound; both give every replica its MIG shares,
 * kept off MIG by the plan or not (opt.c, bound.c). */
static void bound(gs_plan *p, const gs_planner *pl, const gs_choice *c,
                  const gs_opt_result *opt, gs_micros relax)
{
	/* Computed for the third start already: the candidates and the
	 * replicas' flags are as they were then. */
	gs_micros v = pl->volume != -2 ? pl->volume : gs_volume_bound(pl, c);
	gs_micros after = p->sum.after_per_hour;
	p->sum.lower_bound_by = "volume";
	if (opt->bound >= 0 && opt->bound >= v) {
		v = opt->bound;
		p->sum.lower_bound_by = "program";
	}
	/* Where the program proved nothing, the linear relaxation by column
	 * generation (cg.c) is the tighter bound. */
	if (!(opt->proven && opt->bound >= 0) && v < after && gs_cg_affords(pl)) {
		gs_micros g = relax != -2 ? relax : gs_cg_bound(pl, c, pl->effort);
		if (g > v) {
			v = g;
			p->sum.lower_bound_by = "relaxation";
		}
	}
	/* CBC's bound carries its tolerances: a few micro-dollars in tens of
	 * millions (seen: $21.957647/h over a plan of $21.957642/h). Within a
	 * millionth above the plan it proves the plan; further above, it is
	 * kept, to be seen. */
	if (v > after && v - after <= after / 1000000)
		v = after;
	gs_plan_bound_set(p, v);
}

/* Whether the program over the columns within GS_CG_NEAR left a gap
 * that more of k's columns may close. */
static int narrow_left(const gs_built *after, gs_micros relax, const gs_cg_cols *k)
{
	int wider = 0;
	for (int i = 0; i < k->n && !wider; i++)
		wider = k->v[i].near > GS_CG_NEAR;
	return wider && relax >= 0 && after->cost > relax;
}

/* The program over the columns k, its plan in after's place where it
 * costs less (then to be repaired again). */
static int priced_by(gs_planner *pl, gs_choice *c, gs_built *after, const gs_cg_cols *k,
                     double seconds, int *repaired)
{
	gs_opt_result res;
	int rc = gs_opt_priced(pl, pl->shops, c, after, k, seconds, &res);
	if (rc == 0 && res.improved)
		*repaired = 0;
	return rc;
}

/* Where the full program had too many groups to list (opt.h), the
 * program over those of least reduced cost at the relaxation's duals
 * (gs_opt_cheapest), on fleets of at most GS_OPT_CHEAP_REPLICAS, whose
 * groups list in a blink. quality.py's heterogeneous 80 replicas, seed
 * 487 (pinned, 16,831 groups): the columns the relaxation priced hold no
 * optimum, and the optimum's two T4 groups rank 4,648th and 4,720th by
 * reduced cost; over the 9,000 cheapest, $12.3192/h, the optimum, against
 * $12.598/h, in 1.1 s more. */
static int cheapest(gs_planner *pl, gs_choice *c, gs_built *after, const gs_cg_cols *k,
                    double seconds, int *repaired)
{
	gs_cg_cols cheap;
	int rc = gs_opt_cheapest(pl, c, k, GS_OPT_CHEAP_KEEP, &cheap);
	if (rc == 0 && cheap.n)
		rc = priced_by(pl, c, after, &cheap, seconds, repaired);
	gs_cg_cols_release(&cheap);
	return rc;
}

/* Where the program proved nothing and the linear relaxation runs, the
 * relaxation's columns give a plan too: the program over them (opt.h,
 * gs_opt_priced), which takes the place of the heuristic's plan where it
 * costs less (then repaired again). *relax: the relaxation's bound, for
 * bound() (-2: not computed). Pinned only: under robust placement a
 * workload moves whole, which the relaxation's columns, splitting
 * workloads across GPUs of several models, rarely keep. */
static int priced(gs_planner *pl, gs_choice *c, gs_built *after, double seconds,
                  const gs_opt_result *opt, gs_micros *relax, int *repaired)
{
	gs_cg_cols k, narrow;
	int rc = 0, small = pl->nreps <= GS_OPT_MAX_REPLICAS;
	if (!gs_cg_affords(pl) || pl->placement != GS_PLACEMENT_PINNED)
		return 0;
	/* A program's plan takes the plan's place where it costs less: less
	 * than the plan repaired, since the repair may take the plan further
	 * down than it takes the program's. */
	if (!*repaired && (rc = gs_refill(pl, pl->shops, c, after)) < 0)
		return rc;
	*repaired = 1;
	*relax = gs_cg_bound_cols(pl, c, pl->effort, &k);
	/* A small fleet's columns reach further (GS_CG_NEAR_SMALL): the
	 * program over those GS_CG_NEAR keeps first, and the one over all of
	 * them where a gap is left. Each takes the plan's place only where
	 * it costs less. */
	if (small && (rc = gs_cg_cols_within(&k, GS_CG_NEAR, &narrow)) == 0) {
		rc = priced_by(pl, c, after, &narrow, seconds, repaired);
		gs_cg_cols_release(&narrow);
	}
	if (rc == 0 && (!small || narrow_left(after, *relax, &k)))
		rc = priced_by(pl, c, after, &k, seconds, repaired);
	if (rc == 0 && !opt->exact && pl->nreps <= GS_OPT_CHEAP_REPLICAS && *relax >= 0 &&
	    after->cost > *relax)
		rc = cheapest(pl, c, after, &k, seconds, repaired);
	gs_cg_cols_release(&k);
	return rc;
}

int gs_plan_gap_permille(const gs_plan_summary *s)
{
	gs_wide over;
	if (s->lower_bound_per_hour <= 0)
		return -1;
	over = (gs_wide)(s->after_per_hour - s->lower_bound_per_hour) * 1000;
	if (over <= 0)
		return 0;
	return (int)((over + s->lower_bound_per_hour - 1) / s->lower_bound_per_hour);
}

/* A plan in the making: the planner and what it made, which the second
 * thread reads until gs_side_end (plan_side.c). Where the caller writes
 * the plan before those figures are in (gs_plan_how.finish_later), the
 * plan keeps it until gs_plan_finish_late. On the heap from the start:
 * the planner points into it (its shops, its count of refusals) and the
 * second thread at the plans. */
struct gs_making {
	gs_planner pl;
	gs_shop shops[GS_MAX_MODELS];
	long refused;          /* pl.robust_bound's count */
	gs_choice c;
	gs_built after, before;
	gs_micros *ded;
	stands st;
	gs_side *side;
};

static void making_free(gs_making *m)
{
	if (!m)
		return;
	gs_side_drop(m->side, &m->pl);
	gs_built_release(&m->after);
	gs_built_release(&m->before);
	gs_choice_release(&m->pl, &m->c);
	free(m->ded);
	gs_planner_release(&m->pl);
	free(m);
}

/* The second thread's figures into p: the pinned cost and the sharing
 * limit. */
static int side_end(gs_plan *p, gs_making *m)
{
	gs_side *side = m->side;
	m->side = NULL;
	return gs_side_end(p, &m->pl, &m->c, m->st.chosen, m->st.base_cost, side);
}

int gs_plan_finish_late(gs_plan *p)
{
	gs_making *m = p->late;
	if (!m)
		return p->late_rc;
	p->late = NULL;
	p->late_rc = side_end(p, m);
	making_free(m);
	return p->late_rc;
}

/* The second thread is waited for, its work left unread. */
void gs_plan_free(gs_plan *p)
{
	if (!p)
		return;
	making_free(p->late);
	gs_plan_mem_free(p);
}

/* Makes the plan in m; 1 where it is made but for the second thread's
 * figures, which `later` leaves to gs_plan_finish_late. */
static int make(gs_plan *p, gs_making *m, double seconds, int later, gs_error *err)
{
	gs_planner *pl = &m->pl;
	gs_choice *c = &m->c;
	gs_built *after = &m->after, *before = &m->before;
	gs_opt_result opt;
	gs_third *third = NULL;
	gs_side *early = NULL;
	int repaired = 0;
	gs_micros relax = -2;
	size_t nr = (size_t)(pl->nreps ? pl->nreps : 1);
	int rc;

	memset(&opt, 0, sizeof opt);
	opt.bound = -1;
	p->sum.placement = pl->placement; /* pools are named by it */
	m->ded = calloc(pl->s->n ? pl->s->n : 1, sizeof *m->ded);
	rc = m->ded ? gs_plan_wide_apart(pl) : -1;
	if (rc == 0)
		rc = gs_choice_init(pl, c);

	if (rc == -2)
		return gs_host_no_model(pl, &pl->s->w[c->failed]->pub, err);
	/* The third start begins on the other core. */
	if (rc == 0 && seconds > 0)
		rc = gs_third_begin(pl, c, &third);
	if (rc == 0)
		rc = gs_choose_models_first(pl, pl->shops, c);
	if (rc == 0 && (!(p->rep_cost = calloc(nr, sizeof *p->rep_cost)) ||
	                !(p->rep_idle = calloc(nr, sizeof *p->rep_idle))))
		rc = -1;
	if (rc == 0)
		rc = build_uniform(pl, c, after);
	if (rc == 0 && seconds > 0) {
		rc = gs_build_cheapest(pl, pl->shops, c, after, third, &repaired, &early);
		third = NULL;
	}
	gs_third_drop(third, pl);
	if (rc == 0)
		rc = seconds > 0 ? gs_opt_improve(pl, pl->shops, c, after, seconds, &opt) : 0;
	/* Also where the program's plan took the heuristic's place but costs
	 * more than its bound: `proven` is the bound's, which may come from
	 * the program that admits groups near the target (opt.c), solved
	 * where the exact one stopped at its node limit. quality.py's
	 * heterogeneous 80 replicas, seed 117 (pinned): bound $20.0568/h, the
	 * optimum; the exact program's plan $20.304/h; the program over the
	 * relaxation's columns plans the optimum. */
	if (rc == 0 && seconds > 0 &&
	    (!opt.proven || (opt.improved && opt.bound < after->cost)))
		rc = priced(pl, c, after, seconds, &opt, &relax, &repaired);
	/* What the program proved optimal needs no repair; a plan it did not
	 * replace may (under robust placement, where its plan split a
	 * workload's requests). */
	if (rc == 0 && seconds > 0 && !(opt.proven && opt.bound >= after->cost) && !repaired)
		rc = gs_refill(pl, pl->shops, c, after);
	if (rc == 0)
		rc = gs_built_promote(pl, pl->shops, after);
	if (rc == 0)
		rc = gs_built_split(pl, pl->shops, after);
	/* The shared plan is nearly always the one chosen. */
	if (rc == 0 && !pl->summary_only) {
		rc = gs_side_begin(pl, c, after, early, &m->side);
		early = NULL;
	}
	gs_side_drop(early, pl);
	if (rc == 0)
		rc = gs_build_before(pl, pl->shops, c, before);
	/* Bought like the plan. */
	if (rc == 0)
		rc = gs_built_split(pl, pl->shops, before);
	/* The reasons quote what the plan that stands left out. */
	pl->left_out = after->left_out;
	pl->left_out_cost = after->left_out_cost;
	if (rc == -2)
		return gs_fail(err, GS_ENOFIT, "no instance in %s holds the host CPU and RAM that "
		               "the replicas of one GPU request", pl->cloud);
	if (rc == 0 && pl->summary_only) {
		summary_alone(p, pl, after, before);
		return 0;
	}
	/* The memo serves the model search and the starts; after them only
	 * the linear relaxation asks much of it. At 10^5 replicas letting it
	 * go before the records took the peak from 244 to 230 MiB. */
	if (rc == 0 && !gs_cg_affords(pl)) {
		gs_memo_free(pl->memo);
		pl->memo = NULL;
	}
	if (rc == 0)
		rc = fill(p, pl, c, after, before, &m->side, m->ded, &m->st);
	/* The bound reads the planner and the choice, not the second
	 * thread's work, so the linear relaxation runs beside its pinned
	 * plan: fleet.py's mixed 2,000 replicas, robust, took 2.2 s for
	 * each, one after the other. */
	if (rc == 0)
		bound(p, pl, c, &opt, relax);
	if (rc == 0 && later && m->side)
		return 1;
	if (rc == 0)
		rc = side_end(p, m);
	return rc == -1 ? gs_fail_nomem(err) : rc;
}

int gs_plan_estimate(const gs_scenario *s, const char *cloud, gs_micros *share,
                     gs_micros *bound)
{
	gs_shop shops[GS_MAX_MODELS];
	gs_planner pl;
	gs_choice c;
	int rc;

	memset(shops, 0, sizeof shops);
	memset(&c, 0, sizeof c);
	if (bound)
		*bound = -1;
	rc = gs_planner_init(&pl, s, cloud, shops);
	if (rc == 0)
		rc = gs_choice_init(&pl, &c);
	*share = c.share;
	/* Every candidate is open and no replica is kept off MIG yet: the
	 * bound of every plan there. */
	if (rc == 0 && bound)
		*bound = gs_volume_bound(&pl, &c);
	gs_choice_release(&pl, &c);
	gs_planner_release(&pl);
	return rc;
}

/* How many times its default budget the model search gets: a time limit
 * above the default asks for a better plan, and the search stays a count
 * of re-packings, so the same limit gives the same plan on any machine. */
static int effort_of(double seconds)
{
	double deflt = GS_PLAN_TIME_LIMIT_MS / 1000.0;
	return seconds > deflt ? (int)(seconds / deflt) : 1;
}

static int plan_once(const gs_scenario *s, const char *cloud, gs_plan_how how, int effort,
                     gs_plan **out, gs_error *err)
{
	gs_making *m;
	gs_plan *p;
	int rc;

	if (!(p = calloc(1, sizeof *p)) || !(m = calloc(1, sizeof *m))) {
		free(p);
		return gs_fail_nomem(err);
	}
	p->s = s;
	p->texts_now = how.texts_now;
	if (gs_planner_init(&m->pl, s, cloud, m->shops) < 0 ||
	    !(p->sum.cloud = gs_plan_strdup(p, cloud)) || gs_ident_init(&m->pl, how.cache) < 0)
		rc = gs_fail_nomem(err);
	else {
		m->pl.quick = how.quick;
		m->pl.solo = how.solo;
		m->pl.effort = effort;
		m->pl.robust_bound = &m->refused;
		m->pl.summary_only = how.summary_only;
		rc = make(p, m, how.quick ? 0 : how.seconds, how.finish_later, err);
	}
	if (rc == 1) {
		p->late = m;
		rc = 0;
	} else {
		making_free(m);
	}
	if (rc < 0) {
		gs_plan_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

/* Is plan a cheaper than b: cost, then GPUs? */
static int cheaper(const gs_plan *a, const gs_plan *b)
{
	if (a->sum.after_per_hour != b->sum.after_per_hour)
		return a->sum.after_per_hour < b->sum.after_per_hour;
	return a->sum.gpus_after < b->sum.gpus_after;
}

/* The greater of two bounds of the same workloads under the same rules
 * in p: the longer run's may have proved more than the plan kept (it
 * affords the linear relaxation on larger fleets), and a plan the two
 * runs tie on keeps the default run's. */
static void keep_bound(gs_plan *p, const gs_plan *q)
{
	if (q->sum.lower_bound_per_hour <= p->sum.lower_bound_per_hour)
		return;
	p->sum.lower_bound_by = q->sum.lower_bound_by;
	gs_plan_bound_set(p, q->sum.lower_bound_per_hour);
}

/* With a time limit above the default, the search runs again with
 * larger budgets, and the cheaper plan stands: a local search given more
 * moves may settle elsewhere, and more time must never cost more. */
int gs_plan_in(const gs_scenario *s, const char *cloud, gs_plan_how how, gs_plan **out,
               gs_error *err)
{
	int effort = how.quick ? 1 : effort_of(how.seconds), rc;
	gs_plan *p, *q;
	/* Of two runs, only the one kept is written, and the first is
	 * finished before the second begins. */
	how.texts_now = how.texts_now && effort == 1;
	how.finish_later = how.finish_later && effort == 1;
	if ((rc = plan_once(s, cloud, how, 1, &p, err)) < 0 || effort == 1) {
		if (rc == 0)
			*out = p;
		return rc;
	}
	if ((rc = plan_once(s, cloud, how, effort, &q, err)) < 0) {
		gs_plan_free(p);
		return rc;
	}
	if (cheaper(q, p)) {
		keep_bound(q, p);
		gs_plan_free(p);
		p = q;
	} else {
		keep_bound(p, q);
		gs_plan_free(q);
	}
	*out = p;
	return 0;
}

int gs_plan_texts_write(gs_plan *p)
{
	if (!p->texts_due)
		return 0;
	/* The reasons quote what each workload pays, idle included. */
	if (gs_plan_notes(p) < 0 || gs_plan_why(p) < 0)
		return -1;
	p->texts_due = 0;
	return 0;
}

int gs_plan_texts(gs_plan *p, gs_error *err)
{
	return gs_plan_texts_write(p) < 0 ? gs_fail_nomem(err) : 0;
}

/* ---- accessors ----------------------------------------------------------- */

/* A plan made with finish_later is finished by the first read of its
 * summary; a failure there is kept for gs_plan_finish (the plan is the
 * caller's, never const, whatever the pointer says). */
const gs_plan_summary *gs_plan_summary_get(const gs_plan *p)
{
	if (p->late)
		gs_plan_finish_late((gs_plan *)p);
	return &p->sum;
}

int gs_plan_finish(gs_plan *p, gs_error *err)
{
	if (gs_plan_finish_late(p) < 0)
		return gs_fail_nomem(err);
	return 0;
}
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
