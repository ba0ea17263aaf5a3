/*
 * plan_cheap.c - more starts for the shared plan, each packed by the
 * same packer: every workload on its cheapest model per GPU, every
 * workload on the model the volume bound's weights price least (bound.c),
 * which sees that memory-heavy and compute-heavy replicas fill a GPU
 * together where the first choice's estimate looks at each alone. The
 * model search (plan_choose.c) can settle where either is cheaper, most
 * often on large fleets whose search budget is small; and the replicas
 * that hold a GPU alone gathered into MIG instances (plan_gather.c),
 * which no single move of the search finds. The cheapest plan stands.
 * From 500 replicas the third start runs on a second thread
 * (fork.h), and the repair of the plan as it stands waits for it no more.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/fork.h"
#include "plan/opt.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

/* c's candidates, each workload on the one of least price per GPU; a
 * replica of several GPUs on the one whose instances that hold it cost
 * least per GPU (gs_span_price). A model that only 8-GPU nodes sell, kept
 * for one wide replica, drew every workload that fits it onto that node. */
static void cheapest(const gs_planner *pl, const gs_choice *c, int *model)
{
	for (size_t w = 0; w < pl->s->n; w++) {
		int n = pl->s->w[w]->pub.gpus_per_replica;
		gs_micros best = -1;
		model[w] = c->model[w];
		for (int k = 0; k < c->ncand[w]; k++) {
			int m = c->cands[w][k];
			gs_micros p = gs_span_price(pl, m, n);
			if (p >= 0 && (best < 0 || p < best)) {
				best = p;
				model[w] = m;
			}
		}
	}
}

/* Whether the starts are compared repaired. Under pinned placement the
 * repair (refill.c) empties GPUs into the room others of their tenant
 * have, on any of a workload's models, and it moves a start's cost more
 * than the starts differ: on fleet.py's mixed 10,000 replicas (seed 1)
 * the first choice built at $6,041.07/h repaired to $5,881.16/h, and the
 * start on the cheapest models per GPU, which lost built at $6,662.61/h,
 * repairs to $5,636.00/h. Not where the relaxation's program or the
 * gather start compete with the plan as built (gs_choose_thorough,
 * gs_cg_affords). The third start is repaired on its own thread, beside
 * the repair of the plan that stands on the first (the same time at
 * 50,000 to 1,000,000 replicas); the cheapest start, on the first
 * thread, up to REPAIR_EACH_REPLICAS replicas (times the effort), where
 * a repair takes a few tens of milliseconds. Under robust placement the
 * repair moves whole workloads: comparing repaired found 0 to 1.1 %
 * there, took bench.c's REPL edit in aws from 42 to 56 ms, and the third
 * start's repair made the first thread wait 0.5 s at 100,000 replicas. */
#define REPAIR_EACH_REPLICAS 20000L

static int repair_third(const gs_planner *pl)
{
	return pl->placement == GS_PLACEMENT_PINNED && !pl->quick && !gs_choose_thorough(pl) &&
	       !gs_cg_affords(pl);
}

static int repair_each(const gs_planner *pl)
{
	long effort = pl->effort > 1 ? pl->effort : 1;
	long most = pl->repair_most ? pl->repair_most : REPAIR_EACH_REPLICAS;
	return repair_third(pl) && pl->nreps <= most * effort;
}

/* The plan of a start of models given per workload, searched from there
 * as the first choice was (with search, where gs_choose_thorough), and
 * with repair repaired; *one: whether it is a plan under robust, where a
 * workload may ask one thing. */
static int start_build(gs_planner *pl, gs_shop *shops, gs_choice *alt, int search, int repair,
                       gs_built *b, int *one)
{
	int rc = search && gs_choose_thorough(pl) ? gs_choose_models_first(pl, shops, alt) : 0;
	*one = 1;
	if (rc == 0)
		rc = gs_build_chosen(pl, shops, alt, b);
	if (rc == 0 && pl->placement == GS_PLACEMENT_ROBUST &&
	    (*one = gs_built_one_request(pl, b)) < 0)
		rc = -1;
	if (rc == 0 && repair)
		rc = gs_refill(pl, shops, alt, b);
	return rc;
}

/* Keeps b and alt's models (into after and c) when b is a plan and costs
 * less than `than` (what after cost as built); b is then empty. Returns
 * whether it kept them. */
static int keep_if_cheaper(gs_choice *c, gs_built *after, gs_micros than, gs_choice *alt,
                           gs_built *b, int one)
{
	if (one != 1 || b->cost >= than)
		return 0;
	gs_built_release(after);
	*after = *b;
	memset(b, 0, sizeof *b);
	gs_choice_take(c, alt);
	return 1;
}

static int same_models(const gs_planner *pl, const gs_choice *a, const gs_choice *b)
{
	return memcmp(a->model, b->model, pl->s->n * sizeof *a->model) == 0;
}

/* A start, kept (into c and after) when its plan, with repair repaired,
 * costs less than `than`: 1 when kept, else 0, or -1. */
static int start_from(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                      gs_micros than, gs_choice *alt, int repair)
{
	gs_built b;
	int rc, one;
	if (same_models(pl, alt, c))
		return 0;
	memset(&b, 0, sizeof b);
	if ((rc = start_build(pl, shops, alt, 1, repair, &b, &one)) == 0)
		rc = keep_if_cheaper(c, after, than, alt, &b, one);
	gs_built_release(&b);
	return rc;
}

/* ---- the third start, on a second thread -------------------------------- */

/* It reads the candidates and the replicas' flags as they stand after the
 * first choice's build, and nothing else of its work: begun on a copy of
 * the planner with replicas of its own, it stands when the build marked
 * none of them (plan_uniform.c), which is the rule; else it is made
 * again. At 10^5 replicas its hint (0.20 s) and build (0.35 s) ran
 * beside the first choice's search, build and first start (0.45 s). */
struct gs_third {
	gs_fork f;
	gs_choice c;         /* the first choice, with candidates of its own */
	gs_choice alt;       /* the start: each workload where the bound says */
	gs_built b;
	gs_micros volume;
	int one, whole;      /* whole: the bound placed every workload */
	gs_fork_task *task;
};

/* The hint, the start it places, and then the bound the hint's weights
 * give (none for a plan without one), which the start does not read:
 * the first thread waits for the start, and in the REPL the bound's
 * tight sums were a third of the hint. The rules the build turned off
 * and on are as they were for the bound. */
static int third_run(void *arg)
{
	gs_third *t = arg;
	gs_planner *pl = &t->f.pl;
	gs_vhint *h;
	int no_mig = pl->no_mig, no_mps = pl->no_mps, rc = 0, placed;
	for (size_t w = 0; w < pl->s->n; w++)
		t->alt.model[w] = -1;
	placed = gs_volume_hint(pl, &t->c, t->alt.model, &h) == 0;
	t->whole = 1;
	for (size_t w = 0; w < pl->s->n; w++)
		t->whole &= t->alt.model[w] >= 0;
	if (placed && t->whole)
		rc = start_build(pl, pl->shops, &t->alt, 1, repair_third(pl), &t->b, &t->one);
	pl->no_mig = no_mig;
	pl->no_mps = no_mps;
	t->volume = gs_volume_hint_bound(h, pl, &t->c);
	gs_volume_hint_free(h);
	return rc;
}

static void third_free(gs_third *t, const gs_planner *pl)
{
	gs_built_release(&t->b);
	gs_choice_release(pl, &t->alt);
	gs_choice_release(pl, &t->c);
	gs_fork_drop(&t->f);
	free(t);
}

/* A workload of several GPUs keeps the model the first start left it
 * (hint), which the second thread cannot know: those fleets make it here. */
int gs_third_begin(gs_planner *pl, const gs_choice *c, gs_third **out)
{
	gs_third *t;
	*out = NULL;
	if (pl->wide || !gs_fork_may(pl))
		return 0;
	if (!(t = calloc(1, sizeof *t)))
		return -1;
	if (gs_fork_init(&t->f, pl, GS_FORK_REPLICAS) < 0) {
		free(t);
		return -1;
	}
	if (gs_choice_copy(&t->f.pl, c, &t->c) < 0 ||
	    gs_choice_fork(&t->f.pl, &t->c, &t->alt) < 0 ||
	    gs_fork_start(&t->task, third_run, t) < 0) {
		third_free(t, pl);
		return -1;
	}
	*out = t;
	return 0;
}

/* Waits for t; whether its work stands: it placed every workload, and the
 * replicas it read are pl's. */
static int third_wait(gs_third *t, const gs_planner *pl)
{
	int rc = gs_fork_wait(t->task);
	t->task = NULL;
	return rc == 0 && (t->volume < 0 || t->whole) &&
	       memcmp(t->f.reps, pl->reps, (size_t)pl->nreps * sizeof *pl->reps) == 0;
}

void gs_third_drop(gs_third *t, const gs_planner *pl)
{
	if (!t)
		return;
	gs_fork_wait(t->task);
	third_free(t, pl);
}

/* The third start's plan from t, kept where it costs less than `than`,
 * as gs_build_cheapest would have made it here: whether it was. */
static int third_take(gs_planner *pl, gs_choice *c, gs_built *after, gs_micros than,
                      gs_third *t)
{
	int kept = 0;
	pl->volume = t->volume;
	if (t->volume >= 0 && !same_models(pl, &t->alt, c))
		kept = keep_if_cheaper(c, after, than, &t->alt, &t->b, t->one);
	gs_fork_done(&t->f, pl);
	return kept;
}

/* The optimiser's program, which make() runs between the starts and the
 * repair, takes fleets of up to GS_OPT_MAX_REPLICAS: on those the third
 * start stays on the planner's thread, so the repair may run early. */
_Static_assert(GS_FORK_MIN_REPLICAS > GS_OPT_MAX_REPLICAS,
               "the repair runs early only where the program does not run");

/* The third start, from t where its work stands, else made here; kept
 * where it costs less than `than`: 1 when kept, 0 when not, -1. */
static int third_start(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                       gs_micros than, gs_third *t)
{
	gs_choice alt;
	int rc;
	if (t && third_wait(t, pl)) {
		rc = third_take(pl, c, after, than, t);
		gs_third_drop(t, pl);
		return rc;
	}
	gs_third_drop(t, pl);
	if (gs_choice_fork(pl, c, &alt) < 0)
		return -1;
	/* Measured on the bench's mixed fleets, pinned: 2.1 % cheaper at
	 * 10,000 replicas and 2.7 % at 100,000 (robust keeps the first two). */
	rc = 0;
	if ((pl->volume = gs_volume_bound_hint(pl, c, alt.model)) >= 0)
		rc = start_from(pl, shops, c, after, than, &alt, repair_third(pl));
	gs_choice_release(pl, &alt);
	return rc;
}

/* The gather start (plan_gather.c): made from the plan as the cheapest
 * start leaves it and repaired, to meet the plan that stands repaired
 * too; made from that plan, or kept in its place, it lost to the repair
 * what it found. Built without a search: on fleet.py's mixed fleets of
 * 500 to 2,000 replicas (robust) the search found one plan cheaper, by
 * 2.5 %, and three dearer, by up to 1.1 %, for 1 s more at 2,000. Only
 * where the search is thorough: at 10,000 replicas it found nothing. */
typedef struct gathered {
	gs_choice alt;
	gs_built b;
	int one, built;
} gathered;

/* g: zeroed by the caller, so that it may be released whatever failed. */
static int gather_build(gs_planner *pl, gs_shop *shops, const gs_choice *c,
                        const gs_built *after, gathered *g)
{
	int rc;
	if (!gs_choose_thorough(pl))
		return 0;
	if (gs_choice_fork(pl, c, &g->alt) < 0)
		return -1;
	if ((rc = gs_gather_mig(pl, c, after, g->alt.model)) <= 0)
		return rc;
	g->built = 1;
	rc = start_build(pl, shops, &g->alt, 0, 0, &g->b, &g->one);
	if (rc == 0 && g->one == 1)
		rc = gs_refill(pl, shops, &g->alt, &g->b);
	return rc;
}

/* Keeps the gather start's plan where it costs less than the plan that
 * stands, repaired first: 1 when kept, else 0, or -1. */
static int gather_take(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                       gathered *g, int *repaired)
{
	int rc = 0;
	if (g->built && g->one == 1 && !*repaired) {
		if (gs_refill(pl, shops, c, after) < 0)
			return -1;
		*repaired = 1;
	}
	if (g->built)
		rc = keep_if_cheaper(c, after, after->cost, &g->alt, &g->b, g->one);
	return rc;
}

static void gather_release(gs_planner *pl, gathered *g)
{
	gs_built_release(&g->b);
	if (g->alt.model)
		gs_choice_release(pl, &g->alt);
}

int gs_build_cheapest(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *after,
                      gs_third *t, int *repaired, gs_side **early)
{
	gs_choice alt;
	gathered g;
	gs_micros than;
	int rc, first;
	*repaired = 0;
	memset(&g, 0, sizeof g);
	if (gs_choice_fork(pl, c, &alt) < 0) {
		gs_third_drop(t, pl);
		return -1;
	}
	cheapest(pl, c, alt.model);
	rc = 0;
	if (repair_each(pl)) {
		rc = gs_refill(pl, shops, c, after);
		*repaired = 1;
	}
	if (rc == 0)
		rc = start_from(pl, shops, c, after, after->cost, &alt, repair_each(pl));
	gs_choice_release(pl, &alt);
	if (rc >= 0)
		rc = gather_build(pl, shops, c, after, &g);
	than = after->cost;
	/* While the third start ends on the other thread, the plan as it
	 * stands is repaired (refill.c); the repair stands unless the third
	 * start wins against the plan as built. At 10^5 replicas the first
	 * thread waited 0.10 s for it, and the repair takes as long. Where
	 * the third start comes repaired, it is compared so, on one thread
	 * or two. Where it has already ended and is compared as built, it
	 * is compared first, and only the plan that stands is repaired: the
	 * heterogeneous 10^6 replicas repaired a plan for 2.8 s that the
	 * third start then replaced. Either way the same plan: the repair
	 * reads nothing the comparison changes, and the worst cases it may
	 * count (gs_mig_repack buys with pl) are read only as to whether
	 * there are any, so only once there are. */
	first = rc >= 0 && t && !repair_third(pl) && !*repaired &&
	        (pl->third_first ? pl->third_first > 0 : gs_fork_ended(t->task)) &&
	        (!pl->robust_bound || *pl->robust_bound > 0);
	if (rc >= 0 && (t || repair_third(pl)) && !*repaired && !first &&
	    (rc = gs_refill(pl, shops, c, after)) == 0)
		*repaired = 1;
	if (repair_third(pl))
		than = after->cost;
	/* The plan as it stands now is most often the one kept: the second
	 * thread's last work may begin from it while this one waits, and
	 * only then. */
	*early = NULL;
	if (rc >= 0 && t && !gs_fork_ended(t->task) && gs_side_early(pl, c, early) < 0)
		rc = -1;
	if (rc < 0)
		gs_third_drop(t, pl);
	else if ((rc = third_start(pl, shops, c, after, than, t)) >= 0)
		*repaired &= !rc || repair_third(pl);
	if (rc == 0 && first) {
		if ((rc = gs_refill(pl, shops, c, after)) == 0)
			*repaired = 1;
	}
	if (rc >= 0)
		rc = gather_take(pl, shops, c, after, &g, repaired);
	gather_release(pl, &g);
	return rc < 0 ? -1 : 0;
}
