/*
 * plan_build.c - the plan after sharing: each model's workloads packed,
 * then bought (plan_before.c builds the plan it is compared with).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"
#include "scenario/scenario.h"

void gs_built_release(gs_built *b)
{
	gs_nodeset_release(&b->ns);
	for (int m = 0; b->packs && m < b->npacks; m++)
		gs_pack_release(&b->packs[m]);
	free(b->packs);
	memset(b, 0, sizeof *b);
}

int gs_built_init(const gs_planner *pl, gs_built *b)
{
	memset(b, 0, sizeof *b);
	b->npacks = pl->nmodels;
	b->packs = calloc((size_t)(pl->nmodels ? pl->nmodels : 1), sizeof *b->packs);
	return b->packs ? 0 : -1;
}

int gs_built_buy(const gs_planner *pl, gs_shop *shops, gs_built *b)
{
	for (int m = 0; m < pl->nmodels; m++) {
		int rc = b->packs[m].n ? gs_buy_pack(pl, &shops[m], &b->packs[m], &b->ns) : 0;
		if (rc < 0)
			return rc;
	}
	for (int i = 0; i < b->ns.n; i++)
		b->cost += b->ns.v[i].price;
	return 0;
}

int gs_built_promote(const gs_planner *pl, gs_shop *shops, gs_built *b)
{
	int changed = 0;
	for (int m = 0; m < pl->nmodels; m++) {
		int rc = b->packs[m].n ? gs_settle_whole(pl, &shops[m], &b->packs[m], 1) : 0;
		if (rc < 0)
			return -1;
		changed |= rc;
	}
	if (!changed)
		return 0;
	gs_nodeset_release(&b->ns);
	b->cost = 0;
	return gs_built_buy(pl, shops, b);
}

/* The shop of pl that sells instance type in. */
static gs_shop *shop_of(const gs_planner *pl, gs_shop *shops, const gs_instance *in)
{
	for (int m = 0; m < pl->nmodels; m++)
		for (int t = 0; t < shops[m].n; t++)
			if (shops[m].insts[t] == in)
				return &shops[m];
	return NULL;
}

int gs_built_split(const gs_planner *pl, gs_shop *shops, gs_built *b)
{
	int n = b->ns.n;
	for (int j = 0; j < n; j++) {
		gs_shop *sh;
		if (b->ns.v[j].n == b->ns.v[j].inst->gpu_count)
			continue;
		sh = shop_of(pl, shops, b->ns.v[j].inst);
		if (sh && gs_nodeset_split(pl, sh, &b->ns, j) < 0)
			return -1;
	}
	gs_nodeset_drop_empty(&b->ns, 0);
	b->cost = 0;
	for (int i = 0; i < b->ns.n; i++)
		b->cost += b->ns.v[i].price;
	return 0;
}

/* Under placement: robust a workload is one object with one template:
 * its replicas keep to one model and request one thing (a whole GPU, or
 * one MIG profile). */
int gs_built_one_request(const gs_planner *pl, const gs_built *b)
{
	int ok = 1;
	int *model = malloc(((size_t)pl->s->n + 1) * sizeof *model);
	const gs_mig_profile **prof = calloc((size_t)pl->s->n + 1, sizeof *prof);
	if (!model || !prof) {
		ok = -1;
		goto done;
	}
	for (size_t w = 0; w < pl->s->n; w++)
		model[w] = -1;
	for (int m = 0; ok == 1 && m < b->npacks; m++)
		for (int i = 0; ok == 1 && i < b->packs[m].n; i++)
			for (int j = 0; ok == 1 && j < b->packs[m].gpus[i].ng; j++) {
				const gs_group *gr = &b->packs[m].gpus[i].g[j];
				/* A whole GPU's group may keep the profile it was
				 * priced with: it still requests the whole GPU. */
				const gs_pgpu *pg = &b->packs[m].gpus[i];
				const gs_mig_profile *ask =
				    pg->strategy == GS_STRATEGY_MIG ? gr->prof : NULL;
				for (int k = 0; k < gr->n; k++) {
					int w = pl->reps[gr->reps[k]].wi;
					if (model[w] < 0) {
						model[w] = m;
						prof[w] = ask;
					}
					ok &= model[w] == m && prof[w] == ask;
				}
			}
done:
	free(model);
	free(prof);
	return ok;
}

/* A copy of packing pk (merged as bought) in out; -1 when out of memory. */
static int pack_copy(const gs_pack *pk, gs_pack *out)
{
	gs_words w = { NULL, 0, 0 };
	int rc = gs_pack_save(pk, &w) < 0 || gs_pack_load(w.v, out) < 0 ? -1 : 0;
	free(w.v);
	return rc;
}

/* Each model's workloads in c packed, not yet bought. like (may be
 * NULL): a plan of the same c built without no_mig and no_mps, whose
 * packings of the models those rules leave alone are copied rather than
 * packed again (the plan rebuilt without MIG re-packed every model: a
 * third of the builds at 10^6 replicas). */
static int pack_shared(const gs_planner *pl, gs_shop *shops, const gs_choice *c,
                       const gs_built *like, gs_built *b)
{
	if (gs_built_init(pl, b) < 0)
		return -1;
	for (int m = 0; m < pl->nmodels; m++) {
		int *reps, n, rc;
		long before;
		if (like && !gs_choice_rules_matter(pl, c, m)) {
			if (pack_copy(&like->packs[m], &b->packs[m]) < 0)
				return -1;
			continue;
		}
		rc = gs_choice_kept(pl, shops, c, m, &b->packs[m]);
		/* The search packed this choice already. */
		if (rc != 0) {
			if (rc < 0)
				return -1;
			continue;
		}
		if (gs_reps_of_model(pl, c, m, &reps, &n) < 0)
			return -1;
		before = pl->robust_bound ? *pl->robust_bound : 0;
		rc = n ? gs_pack_model(pl, pl->models[m], reps, n, &b->packs[m]) : 0;
		free(reps);
		if (rc < 0 || gs_merge_dedicated(pl, &shops[m], &b->packs[m]) < 0)
			return -1;
		/* For the next plan, with a cache. */
		if (n)
			gs_choice_keep(pl, shops, c, m, &b->packs[m],
			               pl->robust_bound ? *pl->robust_bound - before : 0);
	}
	return 0;
}

/* ... and bought. */
static int build_shared(const gs_planner *pl, gs_shop *shops, const gs_choice *c,
                        const gs_built *like, gs_built *b)
{
	int rc = pack_shared(pl, shops, c, like, b);
	return rc < 0 ? rc : gs_built_buy(pl, shops, b);
}

static int holds(const gs_built *b, gs_strategy st)
{
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++)
			if (b->packs[m].gpus[i].strategy == st)
				return 1;
	return 0;
}

/* Whether the packings of b hold both MIG and MPS GPUs (so would its
 * nodes: a node takes its GPUs' strategy), which no device-plugin plan
 * may (one_of_mig_mps). */
static int both_mig_mps(const gs_planner *pl, const gs_built *b)
{
	return !pl->via_dra && holds(b, GS_STRATEGY_MIG) && holds(b, GS_STRATEGY_MPS);
}

static void release_both(gs_built *b, gs_choice *ch, const gs_planner *pl)
{
	for (int i = 0; i < 2; i++) {
		gs_built_release(&b[i]);
		gs_choice_release(pl, &ch[i]);
	}
}

/* The plan without MPS (i = 0) or without MIG (1): c's models packed
 * again, or, with search, the model search run again from them under
 * that rule, into ch. */
static int build_without(gs_planner *pl, gs_shop *shops, const gs_choice *c, int search,
                         int i, const gs_built *like, gs_choice *ch, gs_built *b)
{
	pl->no_mps = i == 0;
	pl->no_mig = i == 1;
	if (!search)
		return build_shared(pl, shops, c, like, b);
	if (gs_choice_fork(pl, c, ch) < 0 || gs_choose_models_first(pl, shops, ch) < 0)
		return -1;
	return build_shared(pl, shops, ch, NULL, b);
}

/* The GPU Operator sets mig.strategy for the whole cluster, and the
 * device plugin refuses MPS under the 'mixed' strategy MIG nodes need: a
 * device-plugin plan holds MIG or MPS, not both. When the shared plan
 * has both, it is built without each and the cheaper one is kept. With
 * `chosen` (c itself), the models are chosen again under each rule and
 * chosen takes the winner's: a choice made with both at hand may lean on
 * the one left out. after: packed, not bought (both_mig_mps), since it is
 * replaced: buying it was a third of the buying at 10^5 replicas. */
static int one_of_mig_mps(gs_planner *pl, gs_shop *shops, const gs_choice *c,
                          gs_choice *chosen, gs_built *after)
{
	gs_built b[2];
	gs_choice ch[2];
	int best, rc = 0;
	memset(b, 0, sizeof b);
	memset(ch, 0, sizeof ch);
	for (int i = 0; i < 2 && rc == 0; i++)
		rc = build_without(pl, shops, c, chosen != NULL, i, after, &ch[i], &b[i]);
	pl->no_mps = pl->no_mig = 0;
	if (rc < 0) {
		release_both(b, ch, pl);
		return rc;
	}
	best = b[1].cost < b[0].cost;
	gs_built_release(after);
	*after = b[best];
	memset(&b[best], 0, sizeof b[best]);
	/* What was left out, and what keeping it cost, for the reasons. */
	after->left_out = best ? GS_STRATEGY_MIG : GS_STRATEGY_MPS;
	after->left_out_cost = b[!best].cost;
	if (chosen)
		gs_choice_take(chosen, &ch[best]);
	release_both(b, ch, pl);
	return 0;
}

/* c packed; bought, or where MIG and MPS both came in, built again
 * without each (chosen: with the models chosen again). */
static int build_one(gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_choice *chosen,
                     gs_built *b)
{
	int rc = pack_shared(pl, shops, c, NULL, b);
	if (rc < 0)
		return rc;
	if (!both_mig_mps(pl, b))
		return gs_built_buy(pl, shops, b);
	return one_of_mig_mps(pl, shops, c, chosen, b);
}

int gs_build_after(gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b)
{
	return build_one(pl, shops, c, NULL, b);
}

int gs_build_chosen(gs_planner *pl, gs_shop *shops, gs_choice *c, gs_built *b)
{
	return build_one(pl, shops, c, gs_choose_thorough(pl) ? c : NULL, b);
}
