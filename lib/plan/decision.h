/*
 * decision.h - what decided each workload's place in a plan, recorded from
 * the planner's own rules and scores (decide.c, decide_cost.c), so that
 * its why-text (advice.c) renders these facts and nothing else.
 *
 * Only lib/plan/ and the unit tests include it.
 */
#ifndef GS_PLAN_DECISION_H
#define GS_PLAN_DECISION_H

#include "plan/pack.h"
#include "plan/strategy.h"

/* Why the described replica got its strategy. */
typedef enum gs_why {
	GS_WHY_UNSHARED, /* no sharing plan beat a whole GPU per replica */
	GS_WHY_FAULT,    /* isolation: fault: a MIG instance or a GPU of its own */
	GS_WHY_ALONE,    /* no other replica is planned on its model */
	GS_WHY_RULE,     /* a packing rule refuses it a companion: rule, figs */
	GS_WHY_ALLOWED,  /* the rules allow a companion; the packing kept it apart */
	GS_WHY_SHARED,   /* shares a whole GPU: time-slicing or MPS */
	GS_WHY_SPARE,    /* alone on a GPU of a time-slicing node */
	GS_WHY_MIG,      /* a MIG instance, which the packer found cheaper */
	GS_WHY_UNASKED,  /* a big plan's budget of rule checks ran out */
	GS_WHY_WIDE,     /* gpusPerReplica above 1: whole GPUs, dedicated */
} gs_why;

/* A packing rule's answer: which rule, what it compared, and with whom. */
typedef struct gs_verdict {
	gs_rule rule;
	gs_rule_figs figs;
	const gs_workload *with;  /* the companion it was asked about, or NULL */
	int with_replica;
	int with_n;               /* replicas in the companion's group */
	const gs_workload *fails; /* MPS split: the client that does not fit */
} gs_verdict;

typedef struct gs_decision {
	const gs_workload *w;
	gs_strategy strategy;
	int replica;              /* the replica described: the first placed */
	int n_other;              /* replicas of w with another strategy */
	gs_strategy other;        /* the commonest of those */
	int n_elsewhere;          /* replicas of w on another model (pinned
	                           * copies, refill.c and opt.c split them) */
	const gs_gpu *elsewhere;  /* the commonest of those models */
	const gs_gpu *model;
	const gs_mig_profile *profile;   /* MIG only */
	int node, gpu;            /* into the plan's nodes and their GPUs */

	gs_why why;
	gs_verdict bind;          /* RULE, ALLOWED: the binding answer */
	int asked, could_ask;     /* dedicated: its tenant's GPUs asked, of all */
	gs_ts_verdict ts;         /* the study's rule for w */
	const gs_workload *ts_by; /* MPS: the member that rules time-slicing out */

	/* its GPU or MIG instance */
	int group_n;              /* replicas there, itself included */
	int64_t group_mem, group_comp;   /* sums: bytes, ppm of the GPU */
	int64_t gpu_mem, target;  /* what its GPU or slice offers it (bytes); ppm */
	int clients;              /* MPS clients per GPU */
	int n_tenants;            /* tenants in the scenario */
	const char *other_tenant; /* MIG: another tenant on the same GPU */
	const gs_workload *beside;       /* MIG: another workload on the GPU */

	/* MIG: the next smaller profile and what it lacked */
	gs_verdict smaller;
	/* a whole-GPU strategy: why not MIG (OK: the packer priced it) */
	gs_verdict mig;
	/* w's MPS with one other client, when time-slicing is ruled out */
	gs_verdict mps;

	/* fractions (the file's `fractions`): the backend its group would use
	 * (NONE: the file allows none); a fraction: what time-slicing would
	 * offer its group (bytes) and MPS's equal split each client, and its
	 * group's largest replica; a GPU shared otherwise: what refused its
	 * group a fraction */
	gs_backend frac;
	int64_t ts_offer, mps_each, group_max_mem, group_headroom;
	gs_verdict frac_v;
	/* what the packer compared for its model: whole GPUs and with MIG */
	gs_mig_probe probe;

	/* the plan: what left MIG or MPS out, and the plans without sharing */
	gs_strategy left_out;     /* DEDICATED: nothing */
	gs_micros left_out_cost;
	gs_micros shared_cost, dedicated_cost;   /* UNSHARED */

	/* its node */
	int node_gpus, node_idle; /* GPUs, and GPUs with nothing on them */
	int min_gpus;             /* the smallest instance of its model here */

	/* rejected alternatives with their costs */
	gs_micros cost;           /* w's share of the plan, per hour: the capacity
	                           * its replicas hold (its COST/H) */
	gs_micros idle;           /* and its part of its nodes' idle capacity */
	gs_micros ded_cost;       /* w on whole GPUs, per hour */
	const gs_gpu *alt_model;  /* the cheapest other model, or NULL */
	gs_micros alt_delta;      /* the plan's change with w moved there */
} gs_decision;

struct gs_built;
struct gs_choice;

/* Records each workload's decision in p, after its records and before
 * its why-texts: the plan of the built nodes b, `shared` when that is the
 * plan with sharing, the costs of the plans with and without sharing, and
 * ded[i], workload i on whole GPUs. pl's flags are restored. */
int gs_plan_decide(gs_plan *p, gs_planner *pl, struct gs_choice *c, const struct gs_built *b,
                   int shared, gs_micros shared_cost, gs_micros dedicated_cost,
                   const gs_micros *ded);

/* Workload i's decision, NULL past the end or before gs_plan_decide. */
const gs_decision *gs_plan_decision_at(const gs_plan *p, size_t i);

/* ---- the companions of a dedicated replica (decide_near.c) -------------- */

/* The whole-GPU groups of the built plan a replica could have joined,
 * by model and tenant, with a budget of rule checks for big plans. */
typedef struct gs_near gs_near;

int gs_near_build(const gs_planner *pl, const struct gs_built *b, gs_near **out);
void gs_near_free(gs_near *n);
/* Why dedicated replica r0, alone on `own` of model m, shares nothing:
 * fills d->why, d->bind, d->ts_by, d->asked and d->could_ask. */
void gs_near_explain(gs_near *n, const gs_planner *pl, int m, const gs_pgpu *own, int r0,
                     gs_decision *d);
/* The member of gr that rules time-slicing out, w if it does; or NULL. */
const gs_workload *gs_ts_ruler(const gs_planner *pl, const gs_group *gr,
                               const gs_workload *w);

/* ---- the text (why_text.c) ---------------------------------------------- */

struct gs_buf;

/* Appends d's why-text, rendered from d alone (and the plan records it
 * points into); -1 when out of memory. */
int gs_decision_text(const gs_decision *d, const gs_plan *p, struct gs_buf *t);

/* ---- costs of alternatives (decide_cost.c) ------------------------------- */

/* What the packer compared for model m with and without MIG (a re-run of
 * its packing with the probe set). */
int gs_decide_probe(gs_planner *pl, const struct gs_choice *c, int m, gs_mig_probe *out);

/* For each workload, the other model whose move changes the plan least,
 * by the local search's measure, within a budget of re-packings; alt[i]
 * stays -1 where none was priced. */
int gs_decide_alt_models(gs_planner *pl, struct gs_choice *c, int *alt, gs_micros *delta);

#endif
