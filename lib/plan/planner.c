/*
 * planner.c - what the planner plans: every replica of every workload,
 * with its tenant and whether the study rules time-slicing out for it;
 * and the GPU models the scenario can buy, each with its shop and its
 * cheapest price per GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/memo.h"
#include "plan/mig_fits.h"
#include "plan/planner.h"
#include "plan/search_groups.h"
#include "plan/strategy.h"
#include "scenario/scenario.h"

typedef struct tkey {
	const char *tenant;
	const char *ns;   /* under DRA its object's namespace, else "" */
	size_t wi;
} tkey;

static int same_tenant(const tkey *x, const tkey *y)
{
	return strcmp(x->tenant, y->tenant) == 0 && strcmp(x->ns, y->ns) == 0;
}

static int by_tenant(const void *a, const void *b)
{
	const tkey *x = a, *y = b;
	int c = strcmp(x->tenant, y->tenant);
	if (!c)
		c = strcmp(x->ns, y->ns);
	return c ? c : (x->wi > y->wi) - (x->wi < y->wi);
}

/* Tenant ids: the index of the first workload of each tenant, found by
 * sorting rather than by comparing every pair. Under DRA a tenant is a
 * tenant in one namespace: a shared GPU's claim serves the pods of its
 * own namespace only, so namespaces never share a GPU or MIG instance. */
static int tenant_ids(const gs_scenario *s, int *ids)
{
	tkey *k = malloc((s->n ? s->n : 1) * sizeof *k);
	if (!k)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const gs_workload *w = &s->w[i]->pub;
		k[i].tenant = w->tenant;
		k[i].ns = gs_scenario_via(s) != GS_VIA_DRA ? ""
		          : w->object.namespace_ ? w->object.namespace_ : gs_scenario_namespace(s);
		k[i].wi = i;
	}
	qsort(k, s->n, sizeof *k, by_tenant);
	for (size_t i = 0, first = 0; i < s->n; i++) {
		if (i && !same_tenant(&k[i], &k[i - 1]))
			first = i;
		ids[k[i].wi] = (int)k[first].wi;
	}
	free(k);
	return 0;
}

/* Each tenant's workloads in index order, by counting (planner.h's
 * rep_at, tenant_wls, tenant_at). */
static int index_tenants(gs_planner *pl, const gs_scenario *s, const int *tids)
{
	size_t n = s->n;
	if (!(pl->rep_at = calloc(n + 1, sizeof *pl->rep_at)) ||
	    !(pl->tenant_wls = calloc(n + 1, sizeof *pl->tenant_wls)) ||
	    !(pl->tenant_at = calloc(n + 2, sizeof *pl->tenant_at)))
		return -1;
	for (size_t i = 0; i < n; i++)
		pl->tenant_at[tids[i] + 2]++;
	for (size_t t = 2; t < n + 2; t++)
		pl->tenant_at[t] += pl->tenant_at[t - 1];
	for (size_t i = 0; i < n; i++)
		pl->tenant_wls[pl->tenant_at[tids[i] + 1]++] = (int)i;
	return 0;
}

int gs_searched_workloads(const gs_planner *pl, const int **wls)
{
	int t = pl->only_tenant - 1;
	if (!pl->only_tenant) {
		*wls = NULL;
		return (int)pl->s->n;
	}
	*wls = pl->tenant_wls + pl->tenant_at[t];
	return pl->tenant_at[t + 1] - pl->tenant_at[t];
}

static int add_replicas(gs_planner *pl, const gs_scenario *s)
{
	int n = 0, *tids;
	for (size_t i = 0; i < s->n; i++)
		n += s->w[i]->pub.replicas;
	if (!(pl->reps = calloc((size_t)(n ? n : 1), sizeof *pl->reps)))
		return -1;
	if (!(tids = malloc((s->n ? s->n : 1) * sizeof *tids)) || tenant_ids(s, tids) < 0) {
		free(tids);
		return -1;
	}
	pl->ntenants = (int)s->n;
	if (index_tenants(pl, s, tids) < 0) {
		free(tids);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		int no_ts = gs_strategy_ts_rule(&s->w[i]->pub) != NULL;
		pl->rep_at[i] = pl->nreps;
		for (int r = 0; r < s->w[i]->pub.replicas; r++) {
			gs_replica *p = &pl->reps[pl->nreps++];
			p->w = &s->w[i]->pub;
			p->wi = (int)i;
			p->replica = r;
			p->tenant = tids[i];
			p->no_ts = no_ts;
			p->spread = p->w->spread;
			p->headroom = gs_workload_memory_headroom(s, p->w);
			pl->host_needs |= p->w->cpu_millis || p->w->host_memory_bytes;
			pl->spread_node |= p->spread == GS_SPREAD_NODE;
			pl->wide |= p->w->gpus_per_replica > 1;
		}
	}
	pl->rep_at[s->n] = pl->nreps;
	free(tids);
	return 0;
}

/* Model m's cheapest price per GPU, and what its largest node leaves its
 * pods (most RAM, then most CPU): one node that holds both, so that a GPU
 * within this bound always has a node to go to. */
static void model_figures(gs_planner *pl, int m)
{
	const gs_shop *sh = &pl->shops[m];
	pl->gpu_price[m] = -1;
	pl->cap_cpu[m] = pl->cap_mem[m] = -1;
	for (int i = 0; i < sh->n; i++) {
		gs_micros per = gs_div_ceil(sh->price[i], sh->insts[i]->gpu_count);
		if (pl->gpu_price[m] < 0 || per < pl->gpu_price[m])
			pl->gpu_price[m] = per;
		if (sh->mem[i] > pl->cap_mem[m] ||
		    (sh->mem[i] == pl->cap_mem[m] && sh->cpu[i] > pl->cap_cpu[m])) {
			pl->cap_mem[m] = sh->mem[i];
			pl->cap_cpu[m] = sh->cpu[i];
		}
	}
}

/* The models some instance sells, in catalog order; a model sold on both
 * amd64 and arm64 hosts once per arch. */
static void add_models(gs_planner *pl, const gs_scenario *s, gs_shop *shops)
{
	static const gs_arch archs[] = { GS_ARCH_AMD64, GS_ARCH_ARM64 };
	for (size_t g = 0; g < gs_catalog_gpu_count(s->cat); g++)
		for (int a = 0; a < 2 && pl->nmodels < GS_MAX_MODELS; a++) {
			gs_shop *sh = &shops[pl->nmodels];
			gs_shop_init(sh, s, pl->cloud, gs_catalog_gpu_at(s->cat, g), archs[a]);
			if (sh->n == 0)
				continue;
			pl->models[pl->nmodels] = gs_catalog_gpu_at(s->cat, g);
			pl->model_arch[pl->nmodels] = archs[a];
			model_figures(pl, pl->nmodels);
			pl->nmodels++;
		}
}

/* What the memo may hold: 16 MiB, and 512 bytes more per replica up to
 * 64 MiB, or 256 bytes per replica where that is more. At 100,000
 * replicas 16 MiB forgot the model search's packings before the build
 * read them (7 of 60 packings again: 1.97 s, now 1.80 s); at 1,000 the
 * search never needs more, and holding 64 MiB took the bench's plan from
 * 24 to 72 MiB. The packings the search keeps for the build take about
 * 90 bytes a replica (fleet.py's mixed 10^6: 10.9 million words), so at
 * 10^6 replicas 64 MiB forgot them all before the build, which packed
 * every model again: 1.5 s more of the first thread. */
size_t gs_planner_memo_bytes(long nreps)
{
	size_t per = (size_t)(nreps > 0 ? nreps : 0);
	size_t most = (size_t)64 << 20, b = ((size_t)16 << 20) + per * 512;
	if (most < per * 256)
		most = per * 256;
	return b < most ? b : most;
}

int gs_planner_init(gs_planner *pl, const gs_scenario *s, const char *cloud,
                    gs_shop *shops)
{
	memset(pl, 0, sizeof *pl);
	pl->volume = -2;
	pl->cloud = cloud;
	pl->s = s;
	pl->cat = s->cat;
	pl->target = s->target_ppm;
	pl->via_dra = s->via == GS_VIA_DRA;
	/* Under DRA a pod names the claim of its shared GPU: placement is
	 * exact, as pinned, whatever the file says. */
	pl->placement = pl->via_dra ? GS_PLACEMENT_PINNED : s->placement;
	pl->cost = gs_pack_cost;
	pl->shops = shops;
	for (int i = 0; i < s->n_fractions; i++) {
		gs_backend b = s->fractions[i];
		if (b == GS_BACKEND_MPS)
			pl->frac_mps = b;
		if (!pl->frac_ts)
			pl->frac_ts = b;
		/* ConsumableShares turns the DRA driver's MPS off. */
		pl->no_mps_dra |= b == GS_BACKEND_DRA && pl->via_dra;
	}
	if (!pl->cloud)
		pl->cloud = s->cloud;
	if (add_replicas(pl, s) < 0)
		return -1;
	add_models(pl, s, shops);
	/* Without a memo the planner computes everything again: the same. */
	pl->memo = gs_memo_new(gs_planner_memo_bytes(pl->nreps));
	pl->groups = gs_memo_new(GS_GROUPS_MEMO_BYTES);
	pl->fits = gs_fits_new();
	return gs_planner_comp_init(pl);
}

gs_micros gs_span_price(const gs_planner *pl, int m, int n)
{
	const gs_shop *sh = &pl->shops[m];
	gs_micros best = -1;
	if (n <= 1)
		return pl->gpu_price[m];
	for (int i = 0; i < sh->n; i++) {
		gs_micros per = gs_div_ceil(sh->price[i], sh->insts[i]->gpu_count);
		if (sh->insts[i]->gpu_count >= n && (best < 0 || per < best))
			best = per;
	}
	return best;
}

void gs_planner_release(gs_planner *pl)
{
	for (int m = 0; pl->shops && m < GS_MAX_MODELS; m++)
		gs_shop_release(&pl->shops[m]);
	free(pl->reps);
	pl->reps = NULL;
	free(pl->rep_at);
	free(pl->tenant_wls);
	free(pl->tenant_at);
	pl->rep_at = pl->tenant_wls = pl->tenant_at = NULL;
	gs_memo_free(pl->memo);
	if (!pl->groups_kept)
		gs_memo_free(pl->groups);
	pl->gevals = NULL;
	pl->memo = pl->groups = pl->groups2 = NULL;
	pl->evals = pl->evals2 = NULL;
	pl->packs = pl->packs2 = NULL;
	free(pl->ident);
	pl->ident = NULL;
	gs_fits_free(pl->fits);
	pl->fits = NULL;
	gs_planner_comp_release(pl);
}
