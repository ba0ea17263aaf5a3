/*
 * bound.c - the volume bound, for plans too large for the optimiser's
 * program (opt.c proves a tighter one where it runs).
 *
 * Each replica is given, per candidate model, a share of a GPU's memory a
 * and of its compute b, the least any way of placing it there takes, such
 * that on every GPU the shares of its replicas add up to at most 1 in
 * each: on a whole GPU shared or not, memory over the usable memory and
 * compute over targetUtilization (alone above the target, or isolated, or
 * kept alone by robust placement, gs_robust_alone: the whole GPU); in a
 * MIG instance, the instance's memory and compute slices
 * over the GPU's, times the replica's part of the instance where it may
 * share it. A GPU of model m costs at least p_m, its model's cheapest price
 * per GPU, so for any weights 0 <= l_m <= 1 each GPU costs at least
 * p_m (l_m sum a + (1 - l_m) sum b), and every plan at least
 *   L(l) = sum over replicas of min over models of p_m (l_m a + (1 - l_m) b).
 * The weights are searched coordinate by coordinate; any of them gives a
 * valid bound.
 *
 * Under robust placement a third share t, a slot, mixes in with a weight
 * mu_m of its own: a group of k replicas gives each 1/k of its GPU, and
 * where a workload's replicas outnumber what one group may hold of them,
 * its worst case keeps every group it joins that small (gs_robust_slots). On
 * fleets of one kind per workload this is most of what robust placement
 * costs over pinned: whole GPUs split by a replica count, not by bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/bound.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

/* Weights tried per model, and rounds over the models. */
#define STEPS 10
#define ROUNDS 3
/* Rounds over the models of the slot shares' weights, at most. */
#define MU_ROUNDS 8

/* The plain form, another valid bound that the MIG shares can undercut:
 * the larger of the replicas' cheapest memory over usable memory, and of
 * their compute over all of a GPU's. */
static double plain(const gs_planner *pl, const gs_choice *c)
{
	double mem = 0, comp = 0;
	for (int r = 0; r < pl->nreps; r++) {
		const gs_workload *w = pl->reps[r].w;
		int wi = pl->reps[r].wi;
		double bm = -1, bc = -1;
		for (int k = 0; k < c->ncand[wi]; k++) {
			int m = c->cands[wi][k];
			const gs_gpu *g = pl->models[m];
			double p = (double)pl->gpu_price[m], vm, vc;
			vm = vc = p * w->gpus_per_replica;
			if (w->gpus_per_replica <= 1) {
				vm = p * (double)w->memory_bytes / (double)gs_usable_bytes(g);
				vc = p * gs_workload_compute_exact(w, g) / GS_PPM;
			}
			bm = bm < 0 || vm < bm ? vm : bm;
			bc = bc < 0 || vc < bc ? vc : bc;
		}
		mem += bm < 0 ? 0 : bm;
		comp += bc < 0 ? 0 : bc;
	}
	return mem > comp ? mem : comp;
}

/* Dual feasible functions u_k (k = 1, 2; 0: the share itself): on any GPU
 * whose shares add up to at most 1, so do their images, and the images
 * grow with the share, so a bound may count a share by its image. u_1
 * counts a share over a half as a whole GPU and drops those under it,
 * which is what pairs of large replicas cost. */
static double dff(int k, double x)
{
	double y;
	if (k == 0)
		return x;
	y = (k + 1) * x;
	if (fabs(y - floor(y + 0.5)) < 1e-12)
		return x;
	return floor(y) / k;
}

#define KINDS 3

typedef struct vol {
	int nw, nm;
	int *cand;        /* per workload x model: 1 when a candidate */
	double *fa, *fb;  /* per workload x model x function: the images */
	double *reps;     /* per workload */
	double *price;    /* per model */
	double *l;        /* per model: the weight of memory */
	int *ka, *kb;     /* per model: the functions of memory and compute */
	double *ft;       /* per workload x model: the slot share */
	double *mu;       /* per model: the weight of the slot share */
	double *other;    /* per workload: its least cost on the other models */
	double *cost;     /* per workload x model: cost_of as the weights stand */
} vol;

static double cost_of(const vol *v, int w, int m)
{
	size_t at = ((size_t)w * v->nm + m) * KINDS;
	double mu = v->mu[m];
	return v->price[m] * ((1 - mu) * (v->l[m] * v->fa[at + v->ka[m]] +
	                                  (1 - v->l[m]) * v->fb[at + v->kb[m]]) +
	                      mu * v->ft[(size_t)w * v->nm + m]);
}

/* Model m's column of v->cost (m = -1: every column), after its weights,
 * functions or shares changed: each search of one model's weights reads
 * every other column once, and computing them there was a third of the
 * bound at 10^4 replicas. The least of the same figures is the same. */
static void refresh(vol *v, int m)
{
	int lo = m < 0 ? 0 : m, hi = m < 0 ? v->nm : m + 1;
	for (int w = 0; w < v->nw; w++)
		for (int k = lo; k < hi; k++) {
			size_t at = (size_t)w * v->nm + k;
			v->cost[at] = v->cand[at] ? cost_of(v, w, k) : -1;
		}
}

/* Each workload's least cost on the models but `skip` (-1: none). */
static void others(vol *v, int skip)
{
	for (int w = 0; w < v->nw; w++) {
		const double *row = v->cost + (size_t)w * v->nm;
		double best = -1;
		for (int m = 0; m < v->nm; m++)
			if (m != skip && row[m] >= 0 && (best < 0 || row[m] < best))
				best = row[m];
		v->other[w] = best;
	}
}

/* L with model m's weights as they stand, the others' in v->other. */
static double value_with(const vol *v, int m)
{
	double sum = 0;
	for (int w = 0; w < v->nw; w++) {
		double best = v->other[w];
		if (m >= 0 && v->cand[(size_t)w * v->nm + m]) {
			double c = cost_of(v, w, m);
			if (best < 0 || c < best)
				best = c;
		}
		sum += v->reps[w] * (best < 0 ? 0 : best);
	}
	return sum;
}

static double value(vol *v)
{
	others(v, -1);
	return value_with(v, -1);
}

/* All weights l at once: coordinate search alone can stall where the
 * function has a kink. */
static double all_at(vol *v, double l)
{
	for (int m = 0; m < v->nm; m++)
		v->l[m] = l;
	refresh(v, -1);
	return value(v);
}

/* Whether a workload's least cost on the other models (other) is below
 * its cost on model m at every weight, its images a and b there priced
 * (pa, pb: model m's price times them): the cost is linear in the
 * weight, so at least the lesser of its ends, and the margin covers what
 * rounding may take off at the steps between. Then every step adds
 * `other`, as the comparison would have chosen: the figures stay the
 * same, and most workloads on most models skip the steps. */
static int beaten(double pa, double pb, double other)
{
	return other >= 0 && other < (pb < pa ? pb : pa) * (1 - 1e-9);
}

/* The weights k / STEPS, each the double (double)k / STEPS is: IEEE
 * division and the compiler's reading of a decimal both round to the
 * nearest. add_terms divided for them per workload and model, and with
 * the products below that was nearly half of tune's time. */
static const double step_weight[STEPS + 1] = { 0.0, 0.1, 0.2, 0.3, 0.4, 0.5,
	                                       0.6, 0.7, 0.8, 0.9, 1.0 };
_Static_assert(STEPS == 10, "step_weight lists every step");

/* One workload's terms, candidate on model m at price p, added to the
 * sums of every pair of functions and weight (steps_all). The products
 * with the weights are made only where some pair is not beaten. */
static void add_terms(const double *fa, const double *fb, double p, double r, double other,
                      double sum[KINDS * KINDS][STEPS + 1])
{
	double la[KINDS][STEPS + 1], lb[KINDS][STEPS + 1], pa[KINDS], pb[KINDS];
	double t = r * (other < 0 ? 0 : other);
	int all_beaten = 1;
	for (int f = 0; f < KINDS; f++) {
		pa[f] = p * fa[f];
		pb[f] = p * fb[f];
	}
	for (int a = 0; a < KINDS; a++)
		for (int b = 0; b < KINDS; b++)
			all_beaten &= beaten(pa[a], pb[b], other);
	for (int f = 0; f < KINDS && !all_beaten; f++)
		for (int k = 0; k <= STEPS; k++) {
			double l = step_weight[k];
			la[f][k] = l * fa[f];
			lb[f][k] = (1 - l) * fb[f];
		}
	for (int a = 0; a < KINDS; a++)
		for (int b = 0; b < KINDS; b++) {
			double *s = sum[a * KINDS + b];
			if (beaten(pa[a], pb[b], other)) {
				for (int k = 0; k <= STEPS; k++)
					s[k] += t;
				continue;
			}
			for (int k = 0; k <= STEPS; k++) {
				double c = p * (la[a][k] + lb[b][k]);
				s[k] += r * (other < 0 || c < other ? c : other);
			}
		}
}

/* value_with(v, m) at every weight k / STEPS of model m and every pair
 * of functions a and b (sum[a * KINDS + b][k]), in one pass over the
 * workloads: each sum adds the same terms in the same order as
 * value_with would, and each cost is cost_of's expression on the same
 * figures (its products made once per workload), so the sums are the
 * same. One pass for the nine pairs, not one each: the bound's search
 * was 282 ms of the third start's 415 at 10^5 replicas. */
static void steps_all(const vol *v, int m, double sum[KINDS * KINDS][STEPS + 1])
{
	double p = v->price[m];
	memset(sum, 0, KINDS * KINDS * sizeof *sum);
	for (int w = 0; w < v->nw; w++) {
		size_t at = (size_t)w * v->nm + m;
		double other = v->other[w], r = v->reps[w];
		if (!v->cand[at]) {
			double t = r * (other < 0 ? 0 : other);
			for (int ab = 0; ab < KINDS * KINDS; ab++)
				for (int k = 0; k <= STEPS; k++)
					sum[ab][k] += t;
			continue;
		}
		add_terms(v->fa + at * KINDS, v->fb + at * KINDS, p, r, other, sum);
	}
}

/* The best weight and functions of model m, the others held. */
static double tune(vol *v, int m, double now)
{
	double keep = v->l[m], sum[KINDS * KINDS][STEPS + 1];
	int ka = v->ka[m], kb = v->kb[m];
	others(v, m);
	steps_all(v, m, sum);
	for (int a = 0; a < KINDS; a++)
		for (int b = 0; b < KINDS; b++)
			for (int k = 0; k <= STEPS; k++)
				if (sum[a * KINDS + b][k] > now) {
					now = sum[a * KINDS + b][k];
					keep = (double)k / STEPS;
					ka = a;
					kb = b;
				}
	v->l[m] = keep;
	v->ka[m] = ka;
	v->kb[m] = kb;
	refresh(v, m);
	return now;
}

/* The best weight mu of model m's slot shares, its memory and compute
 * weights held and the others' costs in v->other: each GPU costs at least
 * p_m ((1 - mu) (l a + (1 - l) b) + mu t), a mix of shares that each add
 * up to at most 1. The steps' costs are cost_of's expression, in one
 * pass. Runs after tune's searches, which read mu as 0. */
static double tune_mu(vol *v, int m, double now)
{
	double sum[STEPS + 1];
	others(v, m);
	for (int k = 0; k <= STEPS; k++)
		sum[k] = 0;
	for (int w = 0; w < v->nw; w++) {
		size_t at = (size_t)w * v->nm + m, f = at * KINDS;
		double other = v->other[w], r = v->reps[w], p = v->price[m], t = v->ft[at];
		/* cost_of's terms, but the weight mu's. */
		double x = v->l[m] * v->fa[f + v->ka[m]] + (1 - v->l[m]) * v->fb[f + v->kb[m]];
		for (int k = 0; k <= STEPS; k++) {
			double mu = (double)k / STEPS, c = -1;
			if (v->cand[at])
				c = p * ((1 - mu) * x + mu * t);
			if (c < 0 || (other >= 0 && other < c))
				c = other;
			sum[k] += r * (c < 0 ? 0 : c);
		}
	}
	for (int k = 0; k <= STEPS; k++)
		if (sum[k] > now) {
			now = sum[k];
			v->mu[m] = (double)k / STEPS;
		}
	refresh(v, m);
	return now;
}

/* Whether some replica has a slot share: robust placement only. */
static int any_slots(const vol *v)
{
	for (size_t i = 0; i < (size_t)v->nw * v->nm; i++)
		if (v->ft[i] > 0)
			return 1;
	return 0;
}

/* The slot shares' weights, model by model, from the bound `now`, round
 * after round while one raises it: coordinate by coordinate it climbs
 * slowly (fleet.py's heterogeneous 10,000 replicas: 4.4 % in 3 rounds,
 * 4.8 % in 5, where it stops). */
static double search_mu(vol *v, double now)
{
	if (!any_slots(v))
		return now;
	for (int round = 0; round < MU_ROUNDS; round++) {
		double was = now;
		for (int m = 0; m < v->nm; m++)
			now = tune_mu(v, m, now);
		if (now <= was)
			break;
	}
	return now;
}

/* Each workload's shares on its candidate models, tight or as the hint
 * reads them (least), and their images. */
static int fill(vol *v, const gs_planner *pl, const gs_choice *c, int tight)
{
	memset(v->reps, 0, (size_t)v->nw * sizeof *v->reps);
	for (int r = 0; r < pl->nreps; r++) {
		int w = pl->reps[r].wi;
		if (v->reps[w]++ > 0)
			continue;
		if (c->ncand[w] == 0)
			return -1;
		for (int k = 0; k < c->ncand[w]; k++) {
			int m = c->cands[w][k];
			size_t at = (size_t)w * v->nm + m;
			gs_vshare s = gs_vshare_least(pl, &pl->reps[r], m, tight);
			v->cand[at] = 1;
			v->ft[at] = s.t;
			for (int f = 0; f < KINDS; f++) {
				v->fa[at * KINDS + f] = dff(f, s.a);
				v->fb[at * KINDS + f] = dff(f, s.b);
			}
		}
	}
	for (int m = 0; m < v->nm; m++)
		v->price[m] = (double)pl->gpu_price[m];
	refresh(v, -1);
	return 0;
}

/* The weights' search: from all weights at once, then coordinate by
 * coordinate. */
static double search(vol *v)
{
	double lo = all_at(v, 0), hi = all_at(v, 1);
	double best = all_at(v, 0.5);
	if (lo > best || hi > best)
		best = lo > hi ? all_at(v, 0) : all_at(v, 1);
	for (int round = 0; round < ROUNDS; round++)
		for (int m = 0; m < v->nm; m++)
			best = tune(v, m, best);
	return best;
}

/* Each workload's model of least cost under the weights found: where the
 * bound would place it. A replica of several GPUs keeps its model: it
 * costs a span's price, which the weights do not see. */
static void hint(const vol *v, const gs_planner *pl, int *model)
{
	for (int w = 0; w < v->nw; w++) {
		double best = -1;
		if (pl->s->w[w]->pub.gpus_per_replica > 1)
			continue;
		for (int m = 0; m < v->nm; m++)
			if (v->cand[(size_t)w * v->nm + m]) {
				double c = cost_of(v, w, m);
				if (best < 0 || c < best) {
					best = c;
					model[w] = m;
				}
			}
	}
}

/* Where every plan leaves out MIG or MPS (gs_bound_splits), the lesser
 * of the tight sums without each, at the weights found with both: any
 * weights give a bound. Searching them again per rule took as long as
 * the bound itself (0.25 to 0.35 s at 10^5 replicas) and found the same
 * bounds on fleet.py's mixed fleets of 1,000 to 100,000 replicas. -1
 * when not split, or out of memory. */
static double split(vol *v, const gs_planner *pl, const gs_choice *c)
{
	gs_planner one = *pl;
	double least = -1;
	if (!gs_bound_splits(pl, c))
		return -1;
	for (int i = 0; i < 2; i++) {
		double x;
		one.no_mps = i == 0;
		one.no_mig = i == 1;
		if (fill(v, &one, c, 1) < 0)
			return -1;
		x = value(v);
		least = least < 0 || x < least ? x : least;
	}
	return least;
}

/* The hint's search and what the bound takes from it (gs_volume_hint). */
struct gs_vhint {
	vol v;
	int have;    /* the arrays are there */
	double best; /* the looser shares' bound, -1 without one */
};

static void vol_free(vol *v)
{
	free(v->cand);
	free(v->fa);
	free(v->fb);
	free(v->reps);
	free(v->price);
	free(v->l);
	free(v->ka);
	free(v->kb);
	free(v->other);
	free(v->ft);
	free(v->mu);
	free(v->cost);
}

/* v's arrays for pl's workloads and models; 0, or -1 when out of memory. */
static int vol_alloc(vol *v, const gs_planner *pl)
{
	size_t n;
	memset(v, 0, sizeof *v);
	v->nw = (int)pl->s->n;
	v->nm = pl->nmodels;
	n = (size_t)v->nw * (size_t)v->nm + 1;
	v->cand = calloc(n, sizeof *v->cand);
	v->fa = calloc(n * KINDS, sizeof *v->fa);
	v->fb = calloc(n * KINDS, sizeof *v->fb);
	v->reps = calloc((size_t)v->nw + 1, sizeof *v->reps);
	v->price = calloc((size_t)v->nm + 1, sizeof *v->price);
	v->l = calloc((size_t)v->nm + 1, sizeof *v->l);
	v->ka = calloc((size_t)v->nm + 1, sizeof *v->ka);
	v->kb = calloc((size_t)v->nm + 1, sizeof *v->kb);
	v->other = calloc((size_t)v->nw + 1, sizeof *v->other);
	v->ft = calloc(n, sizeof *v->ft);
	v->mu = calloc((size_t)v->nm + 1, sizeof *v->mu);
	v->cost = calloc(n, sizeof *v->cost);
	return v->cand && v->fa && v->fb && v->reps && v->price && v->l && v->ka && v->kb &&
	                       v->other && v->ft && v->mu && v->cost
	               ? 0
	               : -1;
}

/* Down, and a hair more for the sums' rounding: a bound may not exceed
 * what it bounds. */
static gs_micros down(double best)
{
	return best < 0 ? -1 : (gs_micros)floor(best * (1 - 1e-9));
}

/* The hint reads the looser shares: with the third start following the
 * tight ones, fleet.py's mixed fleets of 2,000 to 100,000 replicas planned
 * up to 4.7 % dearer pinned (1.0 % robust), and none cheaper by more than
 * 0.9 %. With the hint, the tight shares are summed at the loose search's
 * weights: searching them again moved no bound of fleet.py's classes at
 * 20,000 replicas, and the mixed ones' by 0.07 % at most, for 1 % more
 * time at 10,000. */
int gs_volume_hint(const gs_planner *pl, const gs_choice *c, int *model, gs_vhint **out)
{
	gs_vhint *h = calloc(1, sizeof *h);
	*out = h;
	if (!h)
		return -1;
	h->best = -1;
	h->have = vol_alloc(&h->v, pl) == 0;
	if (h->have && fill(&h->v, pl, c, 0) == 0) {
		h->best = search(&h->v);
		hint(&h->v, pl, model);
	}
	return h->best >= 0 ? 0 : -1;
}

/* The tight sums, at the hint's weights (hinted) or at their own search's,
 * and without MIG or without MPS where every plan leaves one out: the
 * greatest of them and `best`; -1 when a replica has no candidate. */
static double tight_sums(vol *v, const gs_planner *pl, const gs_choice *c, int hinted,
                         double best)
{
	double tight, apart;
	if (fill(v, pl, c, 1) < 0)
		return -1;
	tight = search_mu(v, hinted ? value(v) : search(v));
	apart = split(v, pl, c);
	best = tight > best ? tight : best;
	return apart > best ? apart : best;
}

/* best, or the plain form where it is greater, rounded down; -1 without
 * a bound. */
static gs_micros with_plain(const gs_planner *pl, const gs_choice *c, double best)
{
	if (best >= 0) {
		double flat = plain(pl, c);
		best = flat > best ? flat : best;
	}
	return down(best);
}

gs_micros gs_volume_hint_bound(gs_vhint *h, const gs_planner *pl, const gs_choice *c)
{
	if (!h || h->best < 0)
		return -1;
	return with_plain(pl, c, pl->summary_only ? h->best : tight_sums(&h->v, pl, c, 1, h->best));
}

void gs_volume_hint_free(gs_vhint *h)
{
	if (!h)
		return;
	vol_free(&h->v);
	free(h);
}

gs_micros gs_volume_bound_hint(const gs_planner *pl, const gs_choice *c, int *model)
{
	gs_vhint *h;
	gs_micros b;
	gs_volume_hint(pl, c, model, &h);
	b = gs_volume_hint_bound(h, pl, c);
	gs_volume_hint_free(h);
	return b;
}

/* Without the hint: the tight shares' own search. */
gs_micros gs_volume_bound(const gs_planner *pl, const gs_choice *c)
{
	vol v;
	double best = vol_alloc(&v, pl) == 0 ? tight_sums(&v, pl, c, 0, -1) : -1;
	vol_free(&v);
	return with_plain(pl, c, best);
}
