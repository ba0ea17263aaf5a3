/*
 * pack.h - the packer's header: replicas, the groups that share a GPU or a
 * MIG instance, planned GPUs, packings, and the planner state they are
 * packed under.
 *
 * Only lib/plan/ includes it. The planner packs with gs_pack_model (and
 * builds its plan without sharing from gs_pack_add_gpu); the functions of
 * the later sections are shared by the packer's own files (pack*.c), which
 * depend one way: pack.c directs pack_share.c, pack_exact.c (which asks
 * pack_share.c's rules) and pack_mig.c, and they all build on pack_gpu.c.
 */
#ifndef GS_PLAN_PACK_H
#define GS_PLAN_PACK_H

#include <stdint.h>

#include "base/base.h"
#include "catalog/catalog.h"
#include "catalog/offer.h"
#include "scenario/scenario.h"

/* At most this many GPU models are planned at once. */
#define GS_MAX_MODELS 64

/* How many of a tenant's recently opened groups first-fit looks at: on
 * sorted input the open groups with room are few and recent, but on a
 * large tenant a window of 48 left a few percent of GPUs half empty
 * (first-fit-decreasing with no window filled them); 256 keeps it within
 * 0.2 % of that at 10^4 and 10^5 replicas, and linear. */
#define GS_FIT_WINDOW 256
/* How many recently opened MIG GPUs an instance is tried on. */
#define GS_MIG_WINDOW 48

/* One replica to place. */
typedef struct gs_replica {
	const gs_workload *w;
	int wi;        /* workload index in the scenario */
	int replica;
	int tenant;    /* tenant id */
	int no_ts;     /* advice rules out time-slicing */
	int64_t headroom; /* its memoryHeadroom (or the file's), ppm */
	int no_mig;    /* its workload's other replicas hold whole GPUs: one
	                * pod template requests one resource (plan_uniform.c) */
	gs_spread spread; /* its workload's, at hand for the packers and nodes */
} gs_replica;

/* Which packing rule refuses a replica a place, so that the plan's reasons
 * (decide.c) name the rule the packer applied: the rules below return it
 * and their yes/no forms are these rules' GS_RULE_OK. */
typedef enum gs_rule {
	GS_RULE_OK,
	GS_RULE_TENANT,      /* another tenant's group */
	GS_RULE_FAULT,       /* isolation: fault shares nothing */
	GS_RULE_SPREAD,      /* one of its own replicas, under spread */
	GS_RULE_MEMORY,      /* summed memory over the GPU's */
	GS_RULE_TARGET,      /* summed compute over targetUtilization */
	GS_RULE_HOST,        /* the node of its GPU has not the host CPU or RAM */
	GS_RULE_MPS_OFF,     /* this plan has MIG, so no MPS (plan_build.c) */
	GS_RULE_NO_MPS,      /* the model has no MPS */
	GS_RULE_MPS_CLIENTS, /* more clients than the model's MPS limit */
	GS_RULE_MPS_MEMORY,  /* a client's memory over the device plugin's split */
	GS_RULE_MPS_THREADS, /* a client's compute over the split of threads */
	GS_RULE_MIG_OFF,     /* this plan has MPS, so no MIG (plan_build.c) */
	GS_RULE_NO_MIG,      /* the model has no MIG */
	GS_RULE_MIG_TS,      /* a shared instance would time-slice a replica that
	                      * must not be */
	GS_RULE_MIG_MEMORY,  /* over the profile's memory */
	GS_RULE_MIG_COMPUTE, /* over the profile's share (times the target when
	                      * shared) */
	GS_RULE_MIG_MIXED,   /* its workload's other replicas hold whole GPUs
	                      * (or other slices): one template, one request */
	GS_RULE_FRAC_CLIENTS, /* more fractions than the backend puts on a GPU */
	GS_RULE_FRAC_PERCENT, /* the fractions' SM limits sum above 100 % */
	GS_RULE_MPS_CAPACITY, /* DRA with consumable capacity: no MPS */
} gs_rule;

/* What a refusing rule compared: need > have (bytes, or ppm of the GPU;
 * MPS_CLIENTS: clients), with k clients under MPS, rep the replica that
 * did not fit (-1: the group's sum) and prof the MIG profile. */
typedef struct gs_rule_figs {
	int64_t need, have;
	int k;
	int rep;
	const gs_mig_profile *prof;
} gs_rule_figs;

static inline gs_rule gs_rule_fig(gs_rule_figs *f, gs_rule r, int64_t need, int64_t have,
                                  int k, int rep)
{
	if (f) {
		f->need = need;
		f->have = have;
		f->k = k;
		f->rep = rep;
	}
	return r;
}

/* Replicas sharing one GPU or one MIG instance. */
typedef struct gs_group {
	int tenant;
	int64_t mem, comp;  /* sums: bytes, ppm of the whole GPU */
	int *reps;
	int n, cap;
	int no_ts;          /* some member rules out time-slicing */
	const gs_mig_profile *prof; /* MIG instance profile, else NULL */
	int start;
	int strict;         /* a MIG instance that must not be time-shared */
	int64_t headroom;   /* the largest memoryHeadroom of its members, ppm */
} gs_group;

/* One planned GPU. */
typedef struct gs_pgpu {
	const gs_gpu *model;
	gs_strategy strategy;
	int k;              /* MPS clients, time-slicing slots */
	gs_group *g;        /* 1 group when whole, the instances with MIG */
	int ng, capg;
	int mig_ts;         /* MIG: some instance is time-sliced */
	/* The whole GPUs this entry stands for, all on one node: a replica of
	 * gpusPerReplica N is one dedicated entry of span N, which a node
	 * takes as N of its GPUs (nodeset.c); 0 or 1: one GPU. */
	int span;
} gs_pgpu;

/* The GPUs of one node that pg takes. */
static inline int gs_pgpu_span(const gs_pgpu *pg) { return pg->span > 1 ? pg->span : 1; }

/* All GPUs of one model: the result of packing. */
typedef struct gs_pack {
	gs_pgpu *gpus;
	int n, cap;
	/* The groups the packers add lend their replicas (gs_pgpu_lend_group):
	 * a trial packing, priced and mostly dropped (pack.c), until
	 * gs_pack_own. */
	int lends;
	/* Past n, up to live, GPUs whose group arrays a reset packing keeps
	 * for the next build (gs_pack_reset); none when live <= n. */
	int live;
} gs_pack;

struct gs_planner;
struct gs_shop;

/* What pack.c compared when it chose between whole GPUs and MIG for a
 * model, for the plan's reasons (decide.c): the packing without MIG
 * instances (fault-isolated ones aside) and the best one with them. */
typedef struct gs_mig_probe {
	int tried;               /* some packing with MIG was priced */
	gs_micros whole_cost, mig_cost;
	int whole_gpus, mig_gpus;
} gs_mig_probe;

/* What a packing costs once bought (gs_pack_cost, planner.h), so that
 * packings are compared by money, not GPU count. */
typedef int (*gs_pack_cost_fn)(const struct gs_planner *pl, const gs_pack *pk,
                               gs_micros *cost);

typedef struct gs_planner {
	const gs_scenario *s;
	const gs_catalog *cat;
	gs_replica *reps;
	int nreps;
	int ntenants;
	/* Workload wi's replicas are reps[rep_at[wi] .. rep_at[wi + 1]); tenant
	 * t's workloads, in index order, tenant_wls[tenant_at[t] ..
	 * tenant_at[t + 1]) (tenant ids are workload indices): a tenant's
	 * search visits its own alone (plan_choose.c). */
	int *rep_at, *tenant_wls, *tenant_at;
	int64_t target;
	const gs_gpu *models[GS_MAX_MODELS];
	int nmodels;
	gs_micros gpu_price[GS_MAX_MODELS]; /* cheapest per-GPU price of each */
	int via_dra;
	/* The fraction backends the file allows (GS_BACKEND_NONE: none):
	 * for replicas that may be time-sliced (the file's first), and for
	 * those that may not (MPS with per-client limits, if named). */
	gs_backend frac_ts, frac_mps;
	int no_mps_dra;            /* the DRA driver serves MPS and DRA fractions,
	                            * which exclude each other */
	int no_mig, no_mps;        /* one of them, when a plan may not have both */
	gs_pack_cost_fn cost;      /* NULL: compare packings by GPU count */
	struct gs_shop *shops;     /* for cost: the shop of each model */
	gs_mig_probe *probe;       /* set by decide.c only: try_mig fills it */
	gs_strategy left_out;      /* MIG or MPS when the plan may not have both
	                            * (plan_build.c), else DEDICATED */
	gs_micros left_out_cost;   /* the cheapest plan that kept it */
	/* A model sold on hosts of both architectures is two models here,
	 * one per arch, so that a GPU's replicas and its node agree. */
	gs_arch model_arch[GS_MAX_MODELS];
	/* The most CPU (millicores) and RAM (bytes) one node of each model
	 * leaves its pods (host.h). */
	int64_t cap_cpu[GS_MAX_MODELS], cap_mem[GS_MAX_MODELS];
	const char *cloud;         /* the one cloud this plan buys in */
	int host_needs;            /* some replica requests host CPU or RAM */
	int spread_node;           /* some replica's workload has spread: node */
	int quick;                 /* no local search over models (a first
	                              estimate, to rank clouds) */
	int64_t volume;            /* gs_volume_bound of the plan's candidates,
	                            * kept from the start it guides
	                            * (plan_cheap.c); -2: not computed */
	int effort;                /* the model search's budgets times this:
	                            * the time limit over its default, at
	                            * least 1 (plan_choose.c); 0 as 1 */
	int only_tenant;           /* 1 + the tenant whose replicas alone the
	                            * model search packs (plan_choose.c); 0: all */
	long *work;                /* what the packer may still do for the model
	                            * search (plan_choose.c, pack.c); NULL: no
	                            * such limit */
	long tenant_work;          /* the search tenant by tenant's budget of
	                            * that work, before the effort; 0: its
	                            * default (plan_choose.c) */
	long repair_most;          /* the most replicas whose every start is
	                            * repaired, before the effort; 0: its
	                            * default (plan_cheap.c) */
	long early_least;          /* the fewest replicas whose pinned figure
	                            * begins early; 0: its default
	                            * (plan_side.c) */
	long near_budget;          /* the rule checks that say why replicas
	                            * stay dedicated may make; 0: its default
	                            * (decide_near.c) */
	int third_first;           /* compares the third start before the
	                            * repair: 0 where it has ended (plan_cheap.c);
	                            * tests: 1 always, -1 never */
	gs_placement placement;    /* robust: shared GPUs hold their worst case
	                            * (robust.h) */
	long *robust_bound;        /* counts where that worst case, not the
	                            * planned replicas, refused a place; or NULL */
	long *near_target;         /* counts where a target refused a group
	                            * that compute rounded up per replica may
	                            * have decided (opt.c); or NULL */
	int near_relax;            /* with near_target: such a group is let
	                            * pass, for a bound (opt.c) */
	int wide;                  /* some workload has gpusPerReplica above 1 */
	int wide_apart;            /* robust: replicas of several GPUs on nodes
	                            * of their own span (plan_placement.c) */
	struct gs_memo *memo;      /* results computed before (memo.h), shared
	                            * by the copies of this planner; or NULL */
	struct gs_memo *groups;    /* what groups' searches found
	                            * (search_groups.h); in a copy, the
	                            * cache's groups2, or NULL */
	struct gs_memo *groups2;   /* a gs_plan_cache's memo of them for the
	                            * copy at work on the second thread, as
	                            * evals2; else NULL */
	int groups_kept;           /* groups is a gs_plan_cache's, which
	                            * the planner does not free */
	struct gs_memo *evals;     /* a gs_plan_cache's memo of the model
	                            * search's evaluations (plan_choose.c);
	                            * NULL in a group's search, or without a
	                            * cache */
	struct gs_memo *evals2;    /* the cache's memo for the copy at work on
	                            * the second thread (fork.h), which has
	                            * it as its evals */
	struct gs_memo *packs, *packs2; /* the cache's memos of the packings
	                            * the search kept, beside evals and
	                            * evals2: a packing is some ten times
	                            * an evaluation's totals, and in one memo
	                            * they made it forget the totals */
	int64_t *ident;            /* with a cache: each workload's id, and
	                            * at [n] the file's (plan_ident.h) */
	struct gs_group_evals *gevals; /* a gs_plan_cache's groups' evaluations
	                            * (group_evals.h); NULL without a cache,
	                            * and in a copy at work on another thread */
	struct gs_group_rec *grec; /* the record of the group searched, in
	                            * gevals; NULL when none is */
	/* Each workload's peak compute on each catalog GPU the planner buys,
	 * converted once (plan_comp.c): comp[wi * ncomp + comp_col[gpu]],
	 * where comp_col is -1 for a GPU not bought; NULL: convert each time. */
	int64_t *comp;
	int *comp_col;
	int ncomp;
	int solo;                  /* forks no further (fork.h): a copy at work
	                            * beside its parent, or told to use one
	                            * thread (gs_plan_opts) */
	struct gs_fits *fits;      /* gs_mig_fit's answers (mig_fits.h), this
	                            * thread's: a fork has its own; NULL: none */
	int summary_only;          /* the plan is its summary alone
	                            * (gs_plan_opts.summary_only): no
	                            * records and no bound */
} gs_planner;

/* ---- packing a model (pack.c) ------------------------------------------- */

/* Packs replicas reps[0..n) onto GPUs of model g: the cheapest packing
 * found, then the one with fewer GPUs, then fewer MIG GPUs. */
int gs_pack_model(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                  gs_pack *out);

/* Would the packer split the shared group gr into one MIG instance per
 * replica (every replica fits a slice of its own)? */
int gs_group_splits(const gs_planner *pl, const gs_gpu *g, const gs_group *gr);

/* ---- a packing's data (pack_gpu.c) --------------------------------------- */

/* A new GPU at the end of pk, without groups; NULL when out of memory. */
gs_pgpu *gs_pack_add_gpu(gs_pack *pk, const gs_gpu *g, gs_strategy st);
/* Appends a copy of gr (and of its replicas) to pg's groups. */
int gs_pgpu_add_group(gs_pgpu *pg, const gs_group *gr);
/* Appends a copy of gr whose replicas stay gr's (its cap -1): they must
 * outlive the packing, or gs_pack_own copy them first. */
int gs_pgpu_lend_group(gs_pgpu *pg, const gs_group *gr);
/* gs_pgpu_add_group, or gs_pgpu_lend_group where pk lends. */
int gs_pack_add_group(const gs_pack *pk, gs_pgpu *pg, const gs_group *gr);
/* Copies the replicas pk's groups borrow, so that pk owns all of them and
 * lends no more, and frees the group arrays it keeps past its GPUs; -1
 * when out of memory (pk may then be released). */
int gs_pack_own(gs_pack *pk);
/* Empties pk for another build, keeping its arrays (GPUs and their
 * groups): a trial packing's (pack.c). */
void gs_pack_reset(gs_pack *pk);
/* Frees the group arrays pk keeps past its GPUs (gs_pack_reset), before
 * GPUs are dropped or moved. */
void gs_pack_trim(gs_pack *pk);
void gs_groups_free(gs_group *gs, int n);
/* Frees the groups of pk's GPUs and their replicas, but those lent. */
void gs_pack_release(gs_pack *p);
/* The fraction backend the file allows a group of these replicas (no_ts:
 * some member rules out time-slicing); NONE when it allows none. */
gs_backend gs_frac_backend(const struct gs_planner *pl, int no_ts);
/* The backend of pg's fractions; NONE unless pg is GS_STRATEGY_FRACTION. */
gs_backend gs_pgpu_backend(const struct gs_planner *pl, const gs_pgpu *pg);

/* ---- a packing as words (pack_keep.c) ----------------------------------- */

/* A growing array of words. */
typedef struct gs_words {
	int64_t *v;
	size_t n, cap;
} gs_words;

/* Appends pk, every field, to out; -1 when out of memory (or a group has
 * no replicas). */
int gs_pack_save(const gs_pack *pk, gs_words *out);
/* The packing gs_pack_save wrote at v, in new memory; -1 when out of it. */
int gs_pack_load(const int64_t *v, gs_pack *pk);

/* ---- whole GPUs shared by one tenant (pack_share.c) ---------------------- */

/* The usable memory of a GPU of model g (catalog/offer.h), in bytes. */
int64_t gs_gpu_bytes(const gs_gpu *g);
/* Replica r's peak compute on model g, in ppm of g. Inline: the packers
 * ask it in their innermost loops; the table has what converting gives. */
static inline int64_t gs_rep_comp(const gs_planner *pl, int r, const gs_gpu *g)
{
	/* (A planner without the table, as advise.c's, converts.) */
	if (pl->comp) {
		uintptr_t at = (uintptr_t)g, base = (uintptr_t)pl->cat->gpus;
		int col = at >= base && at < base + pl->cat->n_gpus * sizeof *g
		              ? pl->comp_col[(at - base) / sizeof *g] : -1;
		if (col >= 0)
			return pl->comp[(size_t)pl->reps[r].wi * (size_t)pl->ncomp + (size_t)col];
	}
	return gs_workload_compute_on(pl->reps[r].w, g);
}
/* Fills the table of gs_rep_comp (plan_comp.c); -1 when out of memory. */
int gs_planner_comp_init(gs_planner *pl);
void gs_planner_comp_release(gs_planner *pl);
/* Replica r's larger share of g's memory or of the target compute. */
int64_t gs_rep_size(const gs_planner *pl, int r, const gs_gpu *g);
/* Adds replica r to gr, with its memory, compute and time-slicing rule. */
int gs_group_join(const gs_planner *pl, const gs_gpu *g, gs_group *gr, int r);
/* Does replica r belong to a spread workload with a replica among reps?
 * Inline: both packers ask it in their innermost loops. */
static inline int gs_spread_conflict(const gs_planner *pl, const int *reps, int n, int r)
{
	const gs_workload *w = pl->reps[r].w;
	if (w->spread == GS_SPREAD_NONE)
		return 0;
	for (int i = 0; i < n; i++)
		if (pl->reps[reps[i]].w == w)
			return 1;
	return 0;
}
/* May replica r join the shared group gr on a whole GPU of model g? */
int gs_can_join(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r);
/* The same question answered with the rule that refuses, and its figures
 * in f when f is not NULL: gs_can_join is this rule's GS_RULE_OK. */
gs_rule gs_join_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r,
                     gs_rule_figs *f);
/* MPS's part of that rule for gr and r as k clients of one GPU. */
gs_rule gs_mps_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr, int r, int k,
                    gs_rule_figs *f);
/* Whether rule v, with its figures f, refused r's joining a group for what
 * the group holds (an MPS member over its split, more clients than the
 * model takes, or no MPS at all), so that every replica that would join
 * it by MPS is refused alike until the group changes: MPS's split
 * depends on the group's size alone, and checks its members before r.
 * Not where a fraction may take such a replica instead, nor where a
 * robust refusal is yet to be counted (the checks it would skip count). */
int gs_rule_refuses_mps(const gs_planner *pl, gs_rule v, const gs_rule_figs *f, int r);
/* The strategy of a whole GPU that group gr holds: dedicated alone, a
 * fraction where the file allows one and its rules hold for the group,
 * else MPS where time-slicing is ruled out, else time-slicing. */
gs_strategy gs_group_share(const gs_planner *pl, const gs_gpu *g, const gs_group *gr);
/* Why the whole group gr (two replicas or more) would not hold as fractions
 * of backend b on a GPU of model g: its memory, the backend's client
 * limit or SM limits (GS_RULE_OK: it would). */
gs_rule gs_frac_group_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                           gs_backend b, gs_rule_figs *f);
/* How many fractions backend b puts on one GPU of model g. */
int gs_fraction_clients(gs_backend b, const gs_gpu *g);
/* A fraction's SM limit in whole percent, from its compute share (ppm). */
int gs_fraction_percent(int64_t comp_ppm);
/* First-fit-decreasing of shareable replicas reps[0..n) into one-tenant
 * groups. */
int gs_share_first_fit(const gs_planner *pl, const gs_gpu *g, const int *reps, int n,
                       gs_group **out, int *nout);

/* ---- exact packing for small tenants (pack_exact.c) ---------------------- */

/* Replaces each small tenant's groups among gs[0..*ng) by an exact packing
 * when that needs fewer groups. */
int gs_share_exact(const gs_planner *pl, const gs_gpu *g, gs_group *gs, int *ng);

/* ---- MIG instances (pack_mig.c) ------------------------------------------ */

/* The smallest base MIG profile of g that holds the group; NULL if none
 * below the whole GPU does. */
const gs_mig_profile *gs_mig_profile_for(const gs_planner *pl, const gs_gpu *g,
                                         const gs_group *gr);
/* Is p one of the profiles a group may get: a base profile (no media
 * variant) smaller than the whole GPU? */
int gs_mig_candidate(const gs_gpu *g, const gs_mig_profile *p);
/* The same for a replica of a workload with isolation: fault, which
 * takes an instance of its own: the whole GPU's profile too. That
 * instance is the GPU, but a MIG one, so it may go on a node of MIG GPUs,
 * where a dedicated GPU needs a node of its own kind: two such replicas
 * on H100s sold as 8-GPU p5 nodes bought a node with six GPUs idle
 * (fleet.py migx 80 seed 30: $93.81/h, $70.36/h with the instance). */
int gs_mig_candidate_for(const gs_gpu *g, const gs_mig_profile *p, int fault);
/* Does candidate profile p hold the group (its memory, and its share of
 * compute, times the target when the instance is shared)? */
gs_rule gs_mig_holds(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                     const gs_mig_profile *p, gs_rule_figs *f);
/* gs_mig_profile_for with the rule when no profile holds the group: MIG
 * off or absent, a time-sliced instance ruled out, or the largest
 * candidate's shortfall in f. */
gs_rule gs_mig_rule(const gs_planner *pl, const gs_gpu *g, const gs_group *gr,
                    const gs_mig_profile **prof, gs_rule_figs *f);
/* Places the instance gr (its profile in gr->prof) on MIG GPU pg when the
 * geometry and the rules allow: 1 if placed, 0 if not, -1 when out of
 * memory. */
int gs_mig_place(const gs_planner *pl, gs_pgpu *pg, const gs_group *gr);
/* Packs the MIG instances inst[0..n) onto new GPUs at the end of pk. */
int gs_pack_mig(const gs_planner *pl, const gs_gpu *g, gs_group *const *inst, int n,
                gs_pack *pk);

#endif
