/*
 * plan_choose.c - a GPU model per workload: first the cheapest share of a
 * GPU that holds it, then a local search that moves workloads between
 * models while the whole plan, packed and bought, gets cheaper.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/group_evals.h"
#include "plan/host.h"
#include "plan/memo.h"
#include "plan/plan_ident.h"
#include "plan/planner.h"
#include "plan/search_groups.h"
#include "scenario/scenario.h"

/* How many replicas the searched workloads on model m have. */
static int count_reps(const gs_planner *pl, const gs_choice *c, int m)
{
	const int *wls;
	int nw = gs_searched_workloads(pl, &wls), n = 0;
	for (int i = 0; i < nw; i++) {
		int w = wls ? wls[i] : i;
		if (c->model[w] == m)
			n += pl->rep_at[w + 1] - pl->rep_at[w];
	}
	return n;
}

int gs_reps_of_model(const gs_planner *pl, const gs_choice *c, int m, int **out, int *n)
{
	int *v = malloc((size_t)(count_reps(pl, c, m) + 1) * sizeof *v), k = 0;
	const int *wls;
	int nw = gs_searched_workloads(pl, &wls);
	if (!v)
		return -1;
	/* A workload's replicas are consecutive: in workload order, the
	 * replicas come in index order, and a tenant's search reads its own. */
	for (int i = 0; i < nw; i++) {
		int w = wls ? wls[i] : i;
		if (c->model[w] == m)
			for (int r = pl->rep_at[w]; r < pl->rep_at[w + 1]; r++)
				v[k++] = r;
	}
	*out = v;
	*n = k;
	return 0;
}

/* What model m's workloads cost, packed and bought; with keep, the
 * packing as bought (merged) in keep's words, and in *kept the worst cases
 * packing and merging counted. */
static int eval_packed(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                       gs_total *t, gs_words *keep, long *kept)
{
	long before = pl->robust_bound ? *pl->robust_bound : 0;
	int *reps, n, rc;
	gs_pack pk;
	if (gs_reps_of_model(pl, c, m, &reps, &n) < 0)
		return -1;
	memset(t, 0, sizeof *t);
	if (n == 0) {
		free(reps);
		return 0;
	}
	rc = gs_pack_model(pl, pl->models[m], reps, n, &pk);
	free(reps);
	if (rc < 0)
		return -1;
	if ((rc = gs_merge_dedicated(pl, &shops[m], &pk)) == 0 && keep) {
		*kept = pl->robust_bound ? *pl->robust_bound - before : 0;
		if (gs_pack_save(&pk, keep) < 0)
			keep->n = 0;
	}
	if (rc == 0)
		rc = gs_price_pack(pl, &shops[m], &pk, t);
	gs_pack_release(&pk);
	return rc;
}

/* The words of the memo's key of an evaluation that come before the
 * workloads. */
#define EVAL_HEAD 16

/* What the memo keeps under a key: an evaluation's totals, or the
 * packing of a choice the search kept. */
enum { KEY_TOTALS = 2, KEY_PACKING = 4 };

/* The memo's key of model m's evaluation: what the packer and the shop
 * read of the planner (its copies differ in these), then each workload
 * of m, with whether its replicas are kept off MIG (plan_uniform.c);
 * -1 when a workload's replicas differ in that (then no memo). */
static int eval_key(const gs_planner *pl, const gs_shop *shops, const gs_choice *c, int m,
                    int what, int64_t *key)
{
	int k = 0, last = -1, no_mig = 0, mps_matters = pl->frac_ts == GS_BACKEND_MPS;
	int64_t head[EVAL_HEAD] = {
		what, m, gs_shop_key(shops), gs_shop_key(pl->shops),
		(int64_t)(intptr_t)pl->cost, (int64_t)(intptr_t)pl->cloud, pl->target,
		pl->placement, pl->via_dra, 0, pl->no_mig && pl->models[m]->mig_slots, pl->wide,
		pl->wide_apart, pl->host_needs, pl->robust_bound != NULL, pl->only_tenant,
	};
	const int *wls;
	int nw = gs_searched_workloads(pl, &wls);
	if (pl->evals) {
		/* Addresses of this plan's: the shops and the cloud's name are
		 * the words gs_ident_planner adds. */
		head[2] = gs_shop_key(shops) == gs_shop_key(pl->shops);
		head[3] = head[5] = 0;
	}
	memcpy(key, head, sizeof head);
	k = EVAL_HEAD;
	for (int i = 0; i < nw; i++) {
		int w = wls ? wls[i] : i;
		if (c->model[w] != m)
			continue;
		for (int r = pl->rep_at[w]; r < pl->rep_at[w + 1]; r++) {
			const gs_replica *p = &pl->reps[r];
			if (p->wi == last && p->no_mig != no_mig)
				return -1;
			if (p->wi != last) {
				key[k++] = (int64_t)p->wi * 2 + p->no_mig;
				if (pl->evals)
					k += (int)gs_ident_workload(pl, w, 1, key + k);
			}
			last = p->wi;
			no_mig = p->no_mig;
			mps_matters |= p->no_ts;
		}
	}
	/* no_mps and no_mig change a packing only where MPS (shared groups
	 * with a replica kept off time-slicing, or MPS fractions) or MIG
	 * could be in it: elsewhere a plan rebuilt without one of them
	 * (plan_build.c) finds the packing it had. */
	key[9] = pl->no_mps && mps_matters;
	if (pl->evals)
		k += (int)gs_ident_planner(pl, key + k);
	return k;
}

int gs_choice_rules_matter(const gs_planner *pl, const gs_choice *c, int m)
{
	const int *wls;
	int nw = gs_searched_workloads(pl, &wls);
	if (pl->no_mig && pl->models[m]->mig_slots)
		return 1;
	if (!pl->no_mps || pl->frac_ts == GS_BACKEND_MPS)
		return pl->no_mps;
	for (int i = 0; i < nw; i++) {
		int w = wls ? wls[i] : i;
		for (int r = pl->rep_at[w]; c->model[w] == m && r < pl->rep_at[w + 1]; r++)
			if (pl->reps[r].no_ts)
				return 1;
	}
	return 0;
}

/* Where evaluations are kept: a gs_plan_cache's memo, from one plan to
 * the next, or the planner's. */
static gs_memo *eval_memo(const gs_planner *pl)
{
	return pl->evals ? pl->evals : pl->memo;
}

/* Where the packings the search kept are: the cache's memo of them, or
 * the planner's. */
static gs_memo *pack_memo(const gs_planner *pl)
{
	return pl->evals ? pl->packs : pl->memo;
}

/* The words of model m's key: one per replica at most (eval_key), and
 * with a cache what gs_ident_* add. */
static size_t key_words(const gs_planner *pl, const gs_choice *c, int m)
{
	const int *wls;
	int nw = gs_searched_workloads(pl, &wls);
	size_t n = EVAL_HEAD + (size_t)count_reps(pl, c, m);
	if (!pl->evals)
		return n;
	for (int i = 0; i < nw; i++) {
		int w = wls ? wls[i] : i;
		if (c->model[w] == m)
			n += gs_ident_workload(pl, w, 1, NULL);
	}
	return n + gs_ident_planner(pl, NULL);
}

/* A new key for model m's evaluation, its length in *nkey; NULL when
 * there is no memo (or no key). */
static int64_t *new_key(const gs_planner *pl, const gs_shop *shops, const gs_choice *c,
                        int m, int what, int *nkey)
{
	int64_t *key = eval_memo(pl) && !pl->probe
	                   ? malloc(key_words(pl, c, m) * sizeof *key)
	                   : NULL;
	if (key && (*nkey = eval_key(pl, shops, c, m, what, key)) > 0)
		return key;
	free(key);
	return NULL;
}

/* The group's record (group_evals.h) of an evaluation of key, with the
 * words that name this plan's shops and cloud made the same in every
 * plan (the planner's words are in the record's name); `put` keeps val
 * and work, else 1 when found there (val, *work), 0 when not. Only where
 * the search counts work and no worst case. */
static int group_rec(const gs_planner *pl, const int64_t *key, int nkey, int put,
                     int64_t *val, long *work)
{
	int64_t *k;
	int rc = 0;
	if (!pl->grec || !pl->work || pl->robust_bound || !(k = malloc((size_t)nkey * sizeof *k)))
		return 0;
	memcpy(k, key, (size_t)nkey * sizeof *k);
	k[2] = k[2] == k[3];
	k[3] = k[5] = 0;
	if (put)
		gs_group_rec_put(pl->gevals, pl->grec, k, nkey, EVAL_HEAD, val, *work);
	else
		rc = gs_group_rec_get(pl->gevals, pl->grec, k, nkey, EVAL_HEAD, val, work);
	free(k);
	return rc;
}

/* eval_packed, or its result from the memo (with the worst cases it
 * counted in pl->robust_bound), or in a group's search from its record,
 * charging the work it took: the local search evaluates the model a
 * workload leaves once per model it tries, and every pass again. keep
 * (may be NULL) gets the packing when it was packed. */
static int eval_model(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                      gs_total *t, gs_words *keep, long *kept)
{
	long before = pl->robust_bound ? *pl->robust_bound : 0, counted = 0;
	long work = pl->work ? *pl->work : 0, spent = 0;
	int nkey = 0, nval, rc;
	int64_t *key = new_key(pl, shops, c, m, KEY_TOTALS, &nkey), val[3];
	const int64_t *got = key ? gs_memo_get(eval_memo(pl), key, nkey, &nval, &counted) : NULL;
	if (got || (key && group_rec(pl, key, nkey, 0, val, &spent))) {
		if (!got) {
			/* What packing it would have counted, and kept. */
			*pl->work -= spent;
			gs_memo_put(eval_memo(pl), key, nkey, val, 3, 0);
			got = val;
		}
		t->cost = got[0];
		t->gpus = (long)got[1];
		t->instances = (long)got[2];
		if (pl->robust_bound)
			*pl->robust_bound += counted;
		free(key);
		return 0;
	}
	/* A group's search never builds: what it packs only guides it. */
	rc = eval_packed(pl, shops, c, m, t, key && !pl->only_tenant ? keep : NULL, kept);
	if (rc == 0 && key) {
		val[0] = t->cost;
		val[1] = t->gpus;
		val[2] = t->instances;
		counted = pl->robust_bound ? *pl->robust_bound - before : 0;
		gs_memo_put(eval_memo(pl), key, nkey, val, 3, counted);
		work -= pl->work ? *pl->work : 0;
		group_rec(pl, key, nkey, 1, val, &work);
	}
	free(key);
	return rc;
}

/* Keeps model m's packing (the words in keep, which eval_model filled for
 * the choice c now holds) for gs_choice_kept; empties keep. */
static void keep_packing(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                         gs_words *keep, long kept)
{
	int nkey = 0;
	int64_t *key = keep->n ? new_key(pl, shops, c, m, KEY_PACKING, &nkey) : NULL;
	if (key && keep->n <= INT32_MAX)
		gs_memo_put(pack_memo(pl), key, nkey, keep->v, (int)keep->n, kept);
	free(key);
	keep->n = 0;
}

void gs_choice_keep(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                    const gs_pack *pk, long counted)
{
	gs_words keep = { NULL, 0, 0 };
	if (pl->evals && gs_pack_save(pk, &keep) == 0)
		keep_packing(pl, shops, c, m, &keep, counted);
	free(keep.v);
}

int gs_choice_kept(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                   gs_pack *out)
{
	int nkey = 0, nval;
	long counted;
	int64_t *key = new_key(pl, shops, c, m, KEY_PACKING, &nkey);
	const int64_t *got = key ? gs_memo_get(pack_memo(pl), key, nkey, &nval, &counted) : NULL;
	free(key);
	if (!got)
		return 0;
	if (gs_pack_load(got, out) < 0)
		return -1;
	if (pl->robust_bound)
		*pl->robust_bound += counted;
	return 1;
}

/* The fraction of a GPU of model m a workload needs at least, in ppm: a
 * replica of several GPUs needs them whole. */
static int64_t need_ppm(const gs_planner *pl, const gs_workload *w, int m)
{
	const gs_gpu *g = pl->models[m];
	if (w->gpus_per_replica > 1)
		return (int64_t)w->gpus_per_replica * GS_PPM;
	int64_t mem = w->memory_bytes * GS_PPM / gs_usable_bytes(g);
	int64_t cmp = gs_workload_compute_on(w, g) * GS_PPM / pl->target;
	int64_t need = mem > cmp ? mem : cmp;
	if (w->isolation_fault)
		need = g->mig_slots ? (need > GS_PPM / 7 ? need : GS_PPM / 7) : GS_PPM;
	return need > GS_PPM ? GS_PPM : need;
}

/* What w's share of model m costs: a price times a share, which may
 * exceed 64 bits. */
__extension__ typedef __int128 wide;

static wide share_cost(const gs_planner *pl, const gs_workload *w, int m)
{
	return (wide)gs_span_price(pl, m, w->gpus_per_replica) * need_ppm(pl, w, m);
}

/* What a replica of workload i costs at least, as the cheapest share of
 * an instance among its candidates: of the GPUs, and where it requests
 * host CPU or RAM, of those too (micro-dollars times ppm). */
static int64_t estimate(const gs_planner *pl, const gs_choice *c, size_t i)
{
	const gs_workload *w = &pl->s->w[i]->pub;
	int64_t best = -1;
	for (int k = 0; k < c->ncand[i]; k++) {
		int m = c->cands[i][k];
		int64_t v = w->cpu_millis || w->host_memory_bytes
		                    ? gs_host_share(pl, w, m, need_ppm(pl, w, m))
		                    : (int64_t)share_cost(pl, w, m);
		if (v >= 0 && (best < 0 || v < best))
			best = v;
	}
	return best < 0 ? 0 : best;
}

/* Workload i's candidate models (allowed, and a whole GPU holds it), and
 * the one whose needed share costs least; -2 when there is none. */
static int first_choice(const gs_planner *pl, gs_choice *c, size_t i)
{
	const gs_workload *w = &pl->s->w[i]->pub;
	int best = -1;
	wide bestv = 0;
	if (!(c->cands[i] = calloc(GS_MAX_MODELS, sizeof **c->cands)))
		return -1;
	/* The planner's models are those the scenario may buy: only the
	 * workload's own allow-list is left to apply. */
	for (int m = 0; m < pl->nmodels; m++) {
		const gs_gpu *g = pl->models[m];
		wide v;
		int ok = w->n_gpus == 0;
		for (size_t a = 0; a < w->n_gpus; a++)
			ok |= w->gpus[a] == g;
		if (!ok || w->memory_bytes > gs_usable_bytes(g) ||
		    gs_workload_compute_on(w, g) > GS_PPM || !gs_host_model_ok(pl, w, m) ||
		    gs_span_price(pl, m, w->gpus_per_replica) < 0)
			continue;
		c->cands[i][c->ncand[i]++] = m;
		v = share_cost(pl, w, m);
		if (best < 0 || v < bestv) {
			best = m;
			bestv = v;
		}
	}
	if (best < 0)
		return -2;
	c->model[i] = best;
	c->share += estimate(pl, c, i) * w->replicas / GS_PPM;
	return 0;
}

int gs_choice_init(const gs_planner *pl, gs_choice *c)
{
	const gs_scenario *s = pl->s;
	int rc = 0;
	memset(c, 0, sizeof *c);
	if (!(c->model = calloc(s->n, sizeof *c->model)) ||
	    !(c->cands = calloc(s->n, sizeof *c->cands)) ||
	    !(c->ncand = calloc(s->n, sizeof *c->ncand)) ||
	    !(c->per_model = calloc(GS_MAX_MODELS, sizeof *c->per_model)))
		return -1;
	for (size_t i = 0; i < s->n && rc == 0; i++)
		if ((rc = first_choice(pl, c, i)) == -2)
			c->failed = (int)i;
	return rc;
}

void gs_choice_release(const gs_planner *pl, gs_choice *c)
{
	for (size_t i = 0; !c->borrowed && c->cands && i < pl->s->n; i++)
		free(c->cands[i]);
	if (!c->borrowed) {
		free(c->cands);
		free(c->ncand);
	}
	free(c->model);
	free(c->per_model);
	memset(c, 0, sizeof *c);
}

int gs_choice_fork(const gs_planner *pl, const gs_choice *from, gs_choice *to)
{
	memset(to, 0, sizeof *to);
	to->borrowed = 1;
	to->cands = from->cands;
	to->ncand = from->ncand;
	to->failed = from->failed;
	to->share = from->share;
	if (!(to->model = malloc((pl->s->n ? pl->s->n : 1) * sizeof *to->model)) ||
	    !(to->per_model = malloc(GS_MAX_MODELS * sizeof *to->per_model))) {
		gs_choice_release(pl, to);
		return -1;
	}
	memcpy(to->model, from->model, pl->s->n * sizeof *to->model);
	memcpy(to->per_model, from->per_model, GS_MAX_MODELS * sizeof *to->per_model);
	return 0;
}

int gs_choice_copy(const gs_planner *pl, const gs_choice *from, gs_choice *to)
{
	size_t n = pl->s->n ? pl->s->n : 1;
	if (gs_choice_fork(pl, from, to) < 0)
		return -1;
	to->borrowed = 0;
	to->cands = calloc(n, sizeof *to->cands);
	to->ncand = calloc(n, sizeof *to->ncand);
	for (size_t i = 0; to->cands && to->ncand && i < pl->s->n; i++) {
		if (!(to->cands[i] = malloc(GS_MAX_MODELS * sizeof **to->cands)))
			break;
		memcpy(to->cands[i], from->cands[i], GS_MAX_MODELS * sizeof **to->cands);
		to->ncand[i] = from->ncand[i];
	}
	if (!to->cands || !to->ncand || (pl->s->n && !to->cands[pl->s->n - 1])) {
		gs_choice_release(pl, to);
		return -1;
	}
	return 0;
}

static int same_total(gs_total a, gs_total b)
{
	return a.cost == b.cost && a.gpus == b.gpus && a.instances == b.instances;
}

int gs_choice_same(const gs_planner *pl, const gs_choice *a, const gs_choice *b)
{
	for (int m = 0; m < GS_MAX_MODELS; m++)
		if (!same_total(a->per_model[m], b->per_model[m]))
			return 0;
	for (size_t w = 0; w < pl->s->n; w++)
		if (a->model[w] != b->model[w] || a->ncand[w] != b->ncand[w] ||
		    memcmp(a->cands[w], b->cands[w], (size_t)a->ncand[w] * sizeof **a->cands) != 0)
			return 0;
	return 1;
}

void gs_choice_take(gs_choice *c, gs_choice *from)
{
	int *model = c->model;
	gs_total *per_model = c->per_model;
	c->model = from->model;
	c->per_model = from->per_model;
	from->model = model;
	from->per_model = per_model;
}

static gs_total sum_totals(const gs_planner *pl, const gs_choice *c)
{
	gs_total t = { 0, 0, 0 };
	for (int m = 0; m < pl->nmodels; m++) {
		t.cost += c->per_model[m].cost;
		t.gpus += c->per_model[m].gpus;
		t.instances += c->per_model[m].instances;
	}
	return t;
}

/* After some workloads moved from model `from` to `to`: keeps the move
 * (1) if the whole plan got cheaper, else 0; -1 when out of memory. */
static int keep_if_cheaper(const gs_planner *pl, gs_shop *shops, gs_choice *c, int from,
                           int to, gs_total before)
{
	gs_total tf, tt, after = before;
	const gs_total *of = &c->per_model[from], *ot = &c->per_model[to];
	gs_words kf = { NULL, 0, 0 }, kt = { NULL, 0, 0 };
	long cf = 0, ct = 0;
	int rc = 0;
	if (eval_model(pl, shops, c, from, &tf, &kf, &cf) < 0 ||
	    eval_model(pl, shops, c, to, &tt, &kt, &ct) < 0) {
		free(kf.v);
		free(kt.v);
		return -1;
	}
	after.cost += tf.cost + tt.cost - of->cost - ot->cost;
	after.gpus += tf.gpus + tt.gpus - of->gpus - ot->gpus;
	after.instances += tf.instances + tt.instances - of->instances - ot->instances;
	if (gs_total_less(after, before)) {
		c->per_model[from] = tf;
		c->per_model[to] = tt;
		keep_packing(pl, shops, c, from, &kf, cf);
		keep_packing(pl, shops, c, to, &kt, ct);
		rc = 1;
	}
	free(kf.v);
	free(kt.v);
	return rc;
}

/* Moves one workload to another model if the whole plan gets cheaper. */
static int try_move(const gs_planner *pl, gs_shop *shops, gs_choice *c, size_t w, int to,
                    int *improved)
{
	int from = c->model[w], rc;
	gs_total before = sum_totals(pl, c);
	c->model[w] = to;
	if ((rc = keep_if_cheaper(pl, shops, c, from, to, before)) < 0)
		return -1;
	if (rc)
		*improved = 1;
	else
		c->model[w] = from;
	return 0;
}

int gs_choice_allows(const gs_choice *c, int w, int m)
{
	for (int k = 0; k < c->ncand[w]; k++)
		if (c->cands[w][k] == m)
			return 1;
	return 0;
}

/* Does workload w belong to the tenant being searched (all: yes)? */
static int searched(const gs_planner *pl, const int *tenant_of, size_t w)
{
	return !pl->only_tenant || tenant_of[w] == pl->only_tenant - 1;
}

/* Moves every workload of model `from` that may run on `to` there at once:
 * single moves cannot find that two workloads are cheaper together. */
static int try_merge(const gs_planner *pl, gs_shop *shops, gs_choice *c, int from, int to,
                     const int *tenant_of, int *improved)
{
	int *saved = malloc(pl->s->n * sizeof *saved), moved = 0, rc = 0;
	gs_total before = sum_totals(pl, c);
	if (!saved)
		return -1;
	memcpy(saved, c->model, pl->s->n * sizeof *saved);
	for (size_t w = 0; w < pl->s->n; w++)
		if (c->model[w] == from && gs_choice_allows(c, (int)w, to) &&
		    searched(pl, tenant_of, w)) {
			c->model[w] = to;
			moved = 1;
		}
	if (moved)
		rc = keep_if_cheaper(pl, shops, c, from, to, before);
	if (rc > 0)
		*improved = 1;
	else
		memcpy(c->model, saved, pl->s->n * sizeof *saved);
	free(saved);
	return rc < 0 ? -1 : 0;
}

/* Whether the search may evaluate again: evaluations left, and work left
 * where the packer counts it. */
static int left(const gs_planner *pl, long budget)
{
	return budget > 0 && (!pl->work || *pl->work > 0);
}

/* One pass of the local search: merges, then single moves, while the
 * budget lasts. */
static int improve_pass(const gs_planner *pl, gs_shop *shops, gs_choice *c, long *budget,
                        const int *tenant_of, int *improved)
{
	for (int a = 0; a < pl->nmodels && left(pl, *budget); a++)
		for (int b = 0; b < pl->nmodels && left(pl, *budget); b++) {
			if (a == b || !c->per_model[a].gpus)
				continue;
			if (try_merge(pl, shops, c, a, b, tenant_of, improved) < 0)
				return -1;
			*budget -= 2;
		}
	for (size_t w = 0; w < pl->s->n && left(pl, *budget); w++)
		for (int k = 0; k < c->ncand[w] && left(pl, *budget); k++) {
			if (c->cands[w][k] == c->model[w] || !searched(pl, tenant_of, w))
				continue;
			if (try_move(pl, shops, c, w, c->cands[w][k], improved) < 0)
				return -1;
			*budget -= 2;
		}
	return 0;
}

/* Local search over model choices, within a budget of re-packings that
 * shrinks as fleets grow so that 100,000 replicas still plan in a second. */
/* The most evaluations any one search makes, times the effort. */
#define BUDGET_MOST 1000

static long effort(const gs_planner *pl)
{
	return pl->effort > 1 ? pl->effort : 1;
}

long gs_choose_budget(const gs_planner *pl)
{
	/* Each evaluation re-packs one or two models: O(replicas). Small
	 * fleets get a larger share (measured: 2% cheaper at 1,000 replicas);
	 * large ones stay fast enough to re-plan at every REPL edit. */
	long budget = pl->nreps && !pl->quick
	                  ? (pl->nreps <= 2000 ? 1000000L : 300000L) / pl->nreps : 0;
	budget *= effort(pl);
	return budget > BUDGET_MOST * effort(pl) ? BUDGET_MOST * effort(pl) : budget;
}

/* Below this budget the extra searches (again under MIG or MPS alone,
 * from the other starts) cost more than they find: measured on the
 * bench's mixed fleets, they (and each tenant alone, then one of them)
 * took a 10,000-replica plan from 1.7 s to 9.8 s in process for 2 % at
 * most. The tenants' own search has its own reach (below). */
#define THOROUGH_BUDGET 100

int gs_choose_thorough(const gs_planner *pl)
{
	return gs_choose_budget(pl) >= THOROUGH_BUDGET;
}

static int improve(const gs_planner *pl, gs_shop *shops, gs_choice *c, long budget,
                   const int *tenant_of)
{
	for (int pass = 0; pass < 4 && left(pl, budget); pass++) {
		int improved = 0;
		if (improve_pass(pl, shops, c, &budget, tenant_of, &improved) < 0)
			return -1;
		if (!improved)
			break;
	}
	return 0;
}

/* Every model's packing priced (and kept for the build). */
static int eval_all(const gs_planner *pl, gs_shop *shops, gs_choice *c)
{
	gs_words keep = { NULL, 0, 0 };
	long kept = 0;
	for (int m = 0; m < pl->nmodels; m++) {
		if (eval_model(pl, shops, c, m, &c->per_model[m], &keep, &kept) < 0) {
			free(keep.v);
			return -1;
		}
		keep_packing(pl, shops, c, m, &keep, kept);
	}
	free(keep.v);
	return 0;
}

/* ---- the search tenant by tenant ------------------------------------------
 * Tenants never share a GPU, so a move re-packs only its tenant's
 * replicas when the search looks at one tenant at a time: on a fleet
 * whose budget cannot try every move once, each tenant's search gets up to
 * BUDGET_MOST evaluations, each of a tenant's size, and then the whole
 * search runs as before from what they found. (Buying sees one tenant's
 * GPUs then: the whole search prices them together.) A large tenant of
 * many workloads is searched in blocks (search_groups.h), as if each
 * were a tenant.
 *
 * Its cost is counted as the packer works (pack.c: each replica first
 * fit places, and each group every build places again, MIG trying
 * several builds), TENANT_WORK at most over all tenants, shared out as
 * the tenants come (what one leaves goes to those after). Measured on
 * fleet.py's mixed fleets: at 10,000 replicas the plan went from
 * $6,524.18/h to $6,041.07/h pinned (-7.4 %) and from $7,205.79/h to
 * $6,979.18/h robust (-3.1 %), 0.2 s to 0.65 s; half the work found
 * nothing there. At 5,000, pinned, -11.7 %. At 20,000 and 100,000
 * replicas the same work found nothing and took 0.45 s and 0.5 to 0.8 s
 * more, so fleets above TENANT_MAX_REPLICAS keep the whole search alone.
 * Both scale with the effort. */
#define TENANT_WORK 1000000L
#define TENANT_MAX_REPLICAS 10000L

/* The evaluations one pass of single moves takes. */
static long pass_moves(const gs_planner *pl, const gs_choice *c)
{
	long n = 0;
	for (size_t w = 0; w < pl->s->n; w++)
		n += 2L * (c->ncand[w] - 1);
	return n;
}

/* Group t's search (one: a copy of the planner set to search it), or
 * what it found before. The search has a memo of its own, so that it is
 * the same search whatever was searched before it (search_groups.h). */
static int search_group(gs_planner *one, gs_shop *shops, gs_choice *c, const gs_groups *g,
                        size_t t, long budget)
{
	int nkey = 0, rc = 0;
	int64_t *key = gs_group_key(one, c, g, t, *one->work, budget, &nkey);
	if (key && gs_group_recall(one, key, nkey, c, g, t, one->work)) {
		free(key);
		return 0;
	}
	/* Its own replicas size it: the fleet's count is not the search's. */
	one->memo = gs_memo_new(gs_planner_memo_bytes(gs_group_replicas(one, g, t)));
	one->grec = gs_group_open(one, g, t);
	if (eval_all(one, shops, c) < 0 || improve(one, shops, c, budget, g->of) < 0)
		rc = -1;
	gs_memo_free(one->memo);
	one->memo = NULL;
	one->grec = NULL;
	if (rc == 0 && key)
		gs_group_keep(one, key, nkey, c, g, t, *one->work);
	free(key);
	return rc;
}

/* Each group (search_groups.h: a tenant, or a block of a large one) on
 * its own, in the order of their ids. */
static int by_group(const gs_planner *pl, gs_shop *shops, gs_choice *c, const gs_groups *g,
                    long budget)
{
	gs_planner one = *pl;
	long total = (pl->tenant_work ? pl->tenant_work : TENANT_WORK) * effort(pl);
	/* A group's search counts its work as it packs: what earlier plans
	 * evaluated would be free to it, and it would search further. */
	one.evals = NULL;
	int todo = g->n;
	/* Its packings only guide the search: the whole one counts where the
	 * worst case binds. */
	one.robust_bound = NULL;
	/* gs_searched_workloads reads a group's workloads as a tenant's. */
	one.tenant_wls = g->wls;
	one.tenant_at = g->at;
	for (size_t t = 0; t < pl->s->n; t++) {
		long share;
		if (g->at[t + 1] == g->at[t])
			continue;
		/* What the groups before left unspent goes to those after. */
		share = total / todo--;
		total -= share;
		one.only_tenant = (int)t + 1;
		one.work = &share;
		if (search_group(&one, shops, c, g, t, budget) < 0)
			return -1;
		total += share > 0 ? share : 0;
	}
	return 0;
}

/* Whether the search goes group by group first: for a first choice
 * (tenants_first), on a fleet of several groups whose budget cannot try
 * every move once, and not too large for it to find anything. */
static int groups_search(const gs_planner *pl, const gs_choice *c, int tenants_first,
                         long budget)
{
	return tenants_first && budget > 0 && pl->nreps <= TENANT_MAX_REPLICAS * effort(pl) &&
	       budget < pass_moves(pl, c);
}

static int choose(const gs_planner *pl, gs_shop *shops, gs_choice *c, int tenants_first)
{
	long budget = gs_choose_budget(pl);
	int rc = 0;
	if (groups_search(pl, c, tenants_first, budget)) {
		gs_groups g;
		if (gs_groups_init(pl, &g) < 0)
			return -1;
		if (g.n > 1)
			rc = by_group(pl, shops, c, &g, BUDGET_MOST * effort(pl));
		gs_groups_release(&g);
	}
	if (rc == 0)
		rc = eval_all(pl, shops, c);
	if (rc == 0)
		rc = improve(pl, shops, c, budget, NULL);
	return rc;
}

int gs_choose_models(const gs_planner *pl, gs_shop *shops, gs_choice *c)
{
	return choose(pl, shops, c, 0);
}

int gs_choose_models_first(const gs_planner *pl, gs_shop *shops, gs_choice *c)
{
	return choose(pl, shops, c, 1);
}

int gs_choice_eval(const gs_planner *pl, gs_shop *shops, const gs_choice *c, int m,
                   gs_total *t)
{
	return eval_model(pl, shops, c, m, t, NULL, NULL);
}
