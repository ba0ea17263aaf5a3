/*
 * bench.c - times gpushare's planner on generated fleets.
 *
 *   build/bench/bench [SIZE...]     (default: 100 1000 10000 100000)
 *
 * For each fleet size (total replicas) it generates a scenario in memory
 * with a fixed seed, through the same setters a workload file or the REPL
 * uses (gs_scenario_add / gs_scenario_set, values as text), plans it once
 * with gs_plan_make, and reports the wall time, the peak RSS, the plan's
 * costs, and how the plan compares with a lower bound (LB) and with a
 * first-fit-decreasing baseline (FFD), both computed here without the
 * planner. Each size runs in its own forked child, so that ru_maxrss (a
 * process-wide high-water mark) belongs to that size alone.
 *
 * Run from the repository top (profiles/ is read relative to it).
 * See tests/bench/README.md for the columns and the formulas.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpushare.h"

#define PROFILES "profiles"
#define SEED UINT64_C(0x2545f4914f6cdd1d)
#define TARGET_PPM 900000          /* the scenario's default targetUtilization */
#define MAX_MODELS 64
#define REPLAN_SIZE 10000L         /* the fleet the what-if latency is timed on */
/* ... and the smaller fleet whose edits are timed too, with no target of
 * their own: below 3,000 replicas the model search is thorough
 * (plan_choose.c), and an edit searches again more of the fleet. */
#define MID_EDIT_SIZE 1000L
#define GOAL_SIZE 100000L
#define GOAL_MS 1000.0
#define GOAL_MIB 256.0
#define REPLAN_GOAL_MS 50.0        /* issue 16: REPL set + re-plan of 10k */

/* ---- the PRNG (rng.h) ---- */

#include "rng.h"

/* Uniform in [0, 1). */
static double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* Uniform in [lo, hi]. */
static int rng_int(rng *r, int lo, int hi)
{
	return lo + (int)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* ---- what one size reports back to the parent ---------------------------- */

typedef struct result {
	int ok;
	char err[600];
	long replicas, workloads, tenants;
	double build_ms, wall_ms, peak_mib;
	gs_micros after, before;
	int gpus_after;
	double lb, lb_strict, ffd;   /* USD per hour */
	long ffd_gpus;
	long violations;
	char check[200];             /* first violation found */
	int have_replan;
	double replan_ms;
	char replan_wl[32];
	gs_micros replan_after;
	long replan_mig, replan_mps; /* MIG and MPS GPUs in the re-planned plan */
	int replan_chose;            /* the re-plan chose between MIG and MPS */
	/* The same edits with the scenario's cloud set to the one the plan
	 * chose, as a team that knows its cloud plans: ONE_CLOUD_EDITS of
	 * them, timed one by one. */
	char one_cloud[16];
	double one_ms[3];            /* least, median, most */
	long one_mig, one_mps;
	int have_mid;                /* MID_EDIT_SIZE's edits, in every cloud */
	char mid_wl[32];
	double mid_ms[3];
} result;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double usd(gs_micros m) { return (double)m / 1e6; }

static void fail(result *res, const char *what, const gs_error *err)
{
	char buf[GS_ERROR_MSG_MAX + GS_ERROR_FILE_MAX + 64];
	res->ok = 0;
	snprintf(res->err, sizeof res->err, "%s: %s", what,
	         err ? gs_error_format(err, buf, sizeof buf) : "out of memory");
}

/* ---- the generated fleet ---------------------------------------------------- */

/* One generated workload, kept alongside the scenario so that LB and FFD
 * are computed from the generator's own numbers, not from the library. */
typedef struct spec {
	int kind;            /* gs_kind */
	int replicas;
	int64_t mem;         /* bytes */
	int64_t comp;        /* ppm of a GPU of `on` */
	const gs_gpu *on;    /* measuredOn, or NULL */
	int tenant;
	int fault, critical, spread;
} spec;

static const char *const kind_text[] = { "inference", "batch", "training",
	                                     "notebook", "ci" };

static int pick_kind(rng *r)
{
	/* inference 45%, batch 20%, notebook 15%, ci 10%, training 10% */
	int x = rng_int(r, 0, 99);
	if (x < 45)
		return GS_KIND_INFERENCE;
	if (x < 65)
		return GS_KIND_BATCH;
	if (x < 80)
		return GS_KIND_NOTEBOOK;
	if (x < 90)
		return GS_KIND_CI;
	return GS_KIND_TRAINING;
}

typedef struct fleet {
	spec *w;
	size_t n;
	int tenants;
} fleet;

/* gs_scenario_set, remembering what failed. */
static int set(gs_scenario *s, const char *wl, const char *key, const char *val,
               gs_error *err, char *what, size_t size)
{
	int rc = gs_scenario_set(s, wl, key, val, err);
	if (rc < 0)
		snprintf(what, size, "set %s %s %s", wl ? wl : "-", key, val);
	return rc;
}

#define SET(wl, key, val)                                                     \
	do {                                                                      \
		if ((rc = set(s, (wl), (key), (val), &err, what, sizeof what)) < 0)   \
			goto out;                                                         \
	} while (0)

/* Generates `size` replicas into a new scenario. */
static int generate(const gs_catalog *cat, long size, gs_scenario **out, fleet *fl,
                    result *res)
{
	static const char *const on_names[] = { "A10G", "L4", "T4" };
	gs_scenario *s = NULL;
	gs_error err;
	rng r = { SEED };
	char what[128] = "gs_scenario_new", name[32], val[32];
	size_t cap = (size_t)(size / 2 + 16);
	long placed = 0;
	int rc;

	memset(fl, 0, sizeof *fl);
	fl->tenants = (int)lround(sqrt((double)size / 4.5) / 2.0);
	if (fl->tenants < 1)
		fl->tenants = 1;
	if (!(fl->w = calloc(cap, sizeof *fl->w))) {
		fail(res, "generate", NULL);
		return -1;
	}
	if ((rc = gs_scenario_new(cat, &s, &err)) < 0)
		goto out;
	SET(NULL, "cloud", "all");
	while (placed < size) {
		spec *w = &fl->w[fl->n];
		int u;
		w->kind = pick_kind(&r);
		w->replicas = rng_int(&r, 1, 8);
		if (w->replicas > size - placed)
			w->replicas = (int)(size - placed);
		/* Memory 1-40 GiB in quarters, skewed small (median ~6 GiB). */
		{
			int q = 4 + (int)(156.0 * pow(rng_unit(&r), 3.0));
			w->mem = (int64_t)q << 28;
			if (q % 4)
				snprintf(val, sizeof val, "%d.%dGiB", q / 4, q % 4 * 25);
			else
				snprintf(val, sizeof val, "%dGiB", q / 4);
		}
		snprintf(name, sizeof name, "w%06zu", fl->n);
		if ((rc = gs_scenario_add(s, name, &err)) < 0) {
			snprintf(what, sizeof what, "add %s", name);
			goto out;
		}
		SET(name, "kind", kind_text[w->kind]);
		SET(name, "gpuMemory", val);
		snprintf(val, sizeof val, "%d", w->replicas);
		SET(name, "replicas", val);
		/* Compute 3-90%, skewed small (median ~25%). */
		{
			int pct = 3 + (int)(88.0 * pow(rng_unit(&r), 2.0));
			w->comp = (int64_t)pct * 10000;
			snprintf(val, sizeof val, "%d%%", pct);
			SET(name, "compute", val);
		}
		w->tenant = rng_int(&r, 0, fl->tenants - 1);
		snprintf(val, sizeof val, "t%d", w->tenant);
		SET(name, "tenant", val);
		if ((w->fault = rng_unit(&r) < 0.10))
			SET(name, "isolation", "fault");
		if ((w->critical = rng_unit(&r) < 0.10))
			SET(name, "latency", "critical");
		/* measuredOn: A10G 50%, L4 15%, T4 10%, unset 25%. */
		u = rng_int(&r, 0, 99);
		if (u < 75) {
			const char *on = on_names[u < 50 ? 0 : u < 65 ? 1 : 2];
			w->on = gs_gpu_find(cat, on);
			SET(name, "measuredOn", on);
		}
		/* A third of the replicated inference servers spread over GPUs. */
		if (w->kind == GS_KIND_INFERENCE && w->replicas > 1 && rng_int(&r, 0, 2) == 0) {
			w->spread = 1;
			SET(name, "spread", "gpu");
		}
		placed += w->replicas;
		if (++fl->n == cap) {
			spec *v = realloc(fl->w, 2 * cap * sizeof *v);
			if (!v) {
				rc = GS_ENOMEM;
				snprintf(what, sizeof what, "generate");
				goto out;
			}
			fl->w = v;
			memset(v + cap, 0, cap * sizeof *v);
			cap *= 2;
		}
	}
	/* The setters must have parsed the texts to the generator's numbers. */
	for (size_t i = 0; i < fl->n; i++) {
		const gs_workload *pw = gs_scenario_workload_at(s, i);
		if (pw->memory_bytes != fl->w[i].mem || pw->compute_ppm != fl->w[i].comp ||
		    pw->replicas != fl->w[i].replicas || pw->measured_on != fl->w[i].on) {
			res->ok = 0;
			snprintf(res->err, sizeof res->err,
			         "workload %zu: the scenario holds other values than were set", i);
			gs_scenario_free(s);
			return -1;
		}
	}
	*out = s;
	return 0;
out:
	fail(res, what, rc == GS_ENOMEM ? NULL : &err);
	gs_scenario_free(s);
	return -1;
}

/* ---- the catalog, seen independently of the planner ---------------------- */

typedef struct model {
	const gs_gpu *gpu;
	double per_gpu;            /* cheapest price / gpu_count, USD/h */
	const gs_instance *buy;    /* the instance with that per-GPU price */
} model;

typedef struct market {
	model m[MAX_MODELS];
	int n;
} market;

/* Models with at least one instance of known on-demand price in one cloud
 * (a plan lives in one cloud), on amd64 hosts (the fleet's workloads are
 * amd64, the default). */
static void market_init(const gs_catalog *cat, const char *cloud, market *mk)
{
	memset(mk, 0, sizeof *mk);
	for (size_t g = 0; g < gs_catalog_gpu_count(cat) && mk->n < MAX_MODELS; g++) {
		model *m = &mk->m[mk->n];
		m->gpu = gs_catalog_gpu_at(cat, g);
		m->buy = NULL;
		for (size_t i = 0; i < gs_catalog_instance_count(cat); i++) {
			const gs_instance *in = gs_catalog_instance_at(cat, i);
			double per;
			if (in->gpu != m->gpu || in->on_demand < 0 || in->gpu_count < 1 ||
			    strcmp(in->cloud, cloud) != 0 || in->arch != GS_ARCH_AMD64)
				continue;
			per = (double)in->on_demand / 1e6 / in->gpu_count;
			if (!m->buy || per < m->per_gpu ||
			    (per == m->per_gpu && in->gpu_count < m->buy->gpu_count)) {
				m->per_gpu = per;
				m->buy = in;
			}
		}
		if (m->buy)
			mk->n++;
	}
}

static int64_t gpu_bytes(const gs_gpu *g) { return g->usable_memory_mib << 20; }

/* The share converted to model g as the plan converts it (gs_workload_ratio
 * in lib/scenario): inference, which the bench never marks otherwise, by
 * memory bandwidth; other kinds by dense FP16 throughput. Rounded up. */
static int64_t comp_on(const spec *w, const gs_gpu *g)
{
	int bw = w->kind == GS_KIND_INFERENCE && w->on && w->on->memory_bandwidth_gbs &&
	         g->memory_bandwidth_gbs;
	int64_t from, to;
	if (!w->on || w->on == g)
		return w->comp;
	from = bw ? w->on->memory_bandwidth_gbs : w->on->fp16_mtflops;
	to = bw ? g->memory_bandwidth_gbs : g->fp16_mtflops;
	return (w->comp * from + to - 1) / to;
}

static int fits(const spec *w, const gs_gpu *g)
{
	return w->mem <= gpu_bytes(g) && comp_on(w, g) <= 1000000;
}

/* Time-slicing is ruled out (gpushare-workloads(5)): latency-critical
 * heavy inference, and GPU-intensive batch or training. */
static int no_ts(const spec *w)
{
	return (w->kind == GS_KIND_INFERENCE && w->critical && w->comp >= 500000) ||
	       ((w->kind == GS_KIND_BATCH || w->kind == GS_KIND_TRAINING) &&
	        w->comp >= 700000);
}

/* LB as asked for: per replica, the cheapest per-GPU price times the larger
 * of its memory and compute shares, minimised over the models it fits.
 * LB*: the strictly valid fractional bound, max(memory bound, compute bound),
 * each a sum over replicas minimised over models separately. */
static void lower_bounds(const market *mk, const fleet *fl, double *lb, double *lb_strict)
{
	double sum_max = 0, sum_mem = 0, sum_comp = 0;
	for (size_t i = 0; i < fl->n; i++) {
		const spec *w = &fl->w[i];
		double best = -1, best_mem = -1, best_comp = -1;
		for (int m = 0; m < mk->n; m++) {
			const gs_gpu *g = mk->m[m].gpu;
			double ms, cs, v;
			if (!fits(w, g))
				continue;
			ms = (double)w->mem / (double)gpu_bytes(g);
			cs = (double)comp_on(w, g) / 1e6;
			v = mk->m[m].per_gpu * (ms > cs ? ms : cs);
			if (best < 0 || v < best)
				best = v;
			if (best_mem < 0 || mk->m[m].per_gpu * ms < best_mem)
				best_mem = mk->m[m].per_gpu * ms;
			if (best_comp < 0 || mk->m[m].per_gpu * cs < best_comp)
				best_comp = mk->m[m].per_gpu * cs;
		}
		sum_max += best * w->replicas;
		sum_mem += best_mem * w->replicas;
		sum_comp += best_comp * w->replicas;
	}
	*lb = sum_max;
	*lb_strict = sum_mem > sum_comp ? sum_mem : sum_comp;
}

/* ---- the first-fit-decreasing baseline --------------------------------------- */

typedef struct item {
	int model, tenant;
	double size;
	int64_t mem, comp;
	long wi;
	int spread;
} item;

static int by_group_size(const void *a, const void *b)
{
	const item *x = a, *y = b;
	if (x->model != y->model)
		return x->model - y->model;
	if (x->tenant != y->tenant)
		return x->tenant - y->tenant;
	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return (x->wi > y->wi) - (x->wi < y->wi);
}

typedef struct bin {
	int64_t mem, comp;
	long spread_wl;   /* last spread workload placed here */
} bin;

/* What a careful engineer would script: each replica on the model with the
 * cheapest per-GPU price that fits it; fault-isolated replicas (and those
 * the rules forbid to time-slice) on a GPU of their own; the others
 * time-sliced, one tenant per GPU, first-fit-decreasing on
 * max(memory share, compute share) with memory <= the GPU's and compute
 * <= 90%, never two replicas of a spread: gpu workload together; then each
 * model's GPUs bought as ceil(n / gpu_count) of its cheapest-per-GPU
 * instance. Returns USD/h, or -1 when out of memory. */
static double ffd_cost(const market *mk, const fleet *fl, long *gpus_out,
                       long gpus[MAX_MODELS])
{
	long nrep = 0, ni = 0;
	item *items;
	bin *bins = NULL;
	size_t bcap = 0;
	double cost = 0;

	memset(gpus, 0, MAX_MODELS * sizeof *gpus);
	for (size_t i = 0; i < fl->n; i++)
		nrep += fl->w[i].replicas;
	if (!(items = malloc((size_t)(nrep ? nrep : 1) * sizeof *items)))
		return -1;
	for (size_t i = 0; i < fl->n; i++) {
		const spec *w = &fl->w[i];
		int best = -1;
		for (int m = 0; m < mk->n; m++)
			if (fits(w, mk->m[m].gpu) &&
			    (best < 0 || mk->m[m].per_gpu < mk->m[best].per_gpu))
				best = m;
		if (best < 0) {
			free(items);
			return -1;
		}
		if (w->fault || no_ts(w)) {
			gpus[best] += w->replicas;
			continue;
		}
		for (int k = 0; k < w->replicas; k++) {
			item *it = &items[ni++];
			const gs_gpu *g = mk->m[best].gpu;
			double ms = (double)w->mem / (double)gpu_bytes(g);
			double cs = (double)comp_on(w, g) / 1e6;
			it->model = best;
			it->tenant = w->tenant;
			it->size = ms > cs ? ms : cs;
			it->mem = w->mem;
			it->comp = comp_on(w, g);
			it->wi = (long)i;
			it->spread = w->spread;
		}
	}
	qsort(items, (size_t)ni, sizeof *items, by_group_size);
	for (long a = 0, b; a < ni; a = b) {
		const gs_gpu *g = mk->m[items[a].model].gpu;
		long nb = 0;
		for (b = a; b < ni && items[b].model == items[a].model &&
		            items[b].tenant == items[a].tenant; b++) {
			const item *it = &items[b];
			long j;
			for (j = 0; j < nb; j++)
				if (bins[j].mem + it->mem <= gpu_bytes(g) &&
				    bins[j].comp + it->comp <= TARGET_PPM &&
				    !(it->spread && bins[j].spread_wl == it->wi))
					break;
			if (j == nb) {
				if ((size_t)nb == bcap) {
					size_t nc = bcap ? 2 * bcap : 256;
					bin *v = realloc(bins, nc * sizeof *v);
					if (!v) {
						free(bins);
						free(items);
						return -1;
					}
					bins = v;
					bcap = nc;
				}
				bins[nb].mem = bins[nb].comp = 0;
				bins[nb].spread_wl = -1;
				nb++;
			}
			bins[j].mem += it->mem;
			bins[j].comp += it->comp;
			if (it->spread)
				bins[j].spread_wl = it->wi;
		}
		gpus[items[a].model] += nb;
	}
	free(bins);
	free(items);
	*gpus_out = 0;
	for (int m = 0; m < mk->n; m++) {
		long per = mk->m[m].buy->gpu_count, n = (gpus[m] + per - 1) / per;
		cost += (double)n * (double)mk->m[m].buy->on_demand / 1e6;
		*gpus_out += n * per;
	}
	return cost;
}

/* ---- an independent check of the plan ---------------------------------------- */

typedef struct checker {
	const gs_scenario *s;
	const fleet *fl;
	long *first;        /* per workload: index of its replica 0 */
	unsigned char *seen;
	const gs_workload **by_addr;
	long *addr_idx;
	result *res;
} checker;

static void violation(checker *c, const char *fmt, ...)
{
	va_list ap;
	if (c->res->violations++ == 0) {
		va_start(ap, fmt);
		vsnprintf(c->res->check, sizeof c->res->check, fmt, ap);
		va_end(ap);
	}
}

static const checker *sort_ck;

static int by_addr(const void *a, const void *b)
{
	const gs_workload *x = sort_ck->by_addr[*(const long *)a];
	const gs_workload *y = sort_ck->by_addr[*(const long *)b];
	return (x > y) - (x < y);
}

static long wl_index(const checker *c, const gs_workload *w)
{
	size_t lo = 0, hi = c->fl->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->by_addr[c->addr_idx[mid]] < w)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->fl->n && c->by_addr[c->addr_idx[lo]] == w ? c->addr_idx[lo] : -1;
}

/* One group of replicas sharing a whole GPU or one MIG instance. */
static void check_group(checker *c, const gs_gpu *g, const gs_assignment *a, size_t n,
                        int64_t mem_cap, int shared_limit, const char *where)
{
	int64_t mem = 0, comp = 0;
	long t0;
	for (size_t i = 0; i < n; i++) {
		long wi = wl_index(c, a[i].workload);
		const spec *w;
		if (wi < 0 || a[i].replica < 0 || a[i].replica >= c->fl->w[wi].replicas) {
			violation(c, "%s: an assignment to an unknown replica", where);
			continue;
		}
		w = &c->fl->w[wi];
		if (c->seen[c->first[wi] + a[i].replica]++)
			violation(c, "%s: replica %s/%d placed twice", where, a[i].workload->name,
			          a[i].replica);
		if (a[i].compute_ppm != comp_on(w, g))
			violation(c, "%s: %s compute %lld ppm, expected %lld", where,
			          a[i].workload->name, (long long)a[i].compute_ppm,
			          (long long)comp_on(w, g));
		if (!fits(w, g))
			violation(c, "%s: %s does not fit %s at all", where, a[i].workload->name,
			          g->name);
		mem += w->mem;
		comp += comp_on(w, g);
		if (n > 1 && (t0 = wl_index(c, a[0].workload)) >= 0 &&
		    w->tenant != c->fl->w[t0].tenant)
			violation(c, "%s: tenants mixed in one group", where);
		if (n > 1 && w->fault)
			violation(c, "%s: isolation: fault replica %s shares", where,
			          a[i].workload->name);
	}
	if (mem > mem_cap)
		violation(c, "%s: memory %lld > %lld", where, (long long)mem, (long long)mem_cap);
	if (n > 1 && shared_limit && comp > TARGET_PPM)
		violation(c, "%s: compute %lld ppm > target", where, (long long)comp);
}

/* spread: gpu - no two replicas of one workload on one GPU, MIG or not. */
static void check_spread(checker *c, const gs_plan_gpu *pg, const char *where)
{
	const gs_workload *seen[64];
	size_t n = 0;
	for (size_t m = 0; m <= pg->n_mig; m++) {
		const gs_assignment *a = m == 0 ? pg->assignments : pg->mig[m - 1].assignments;
		size_t na = m == 0 ? pg->n_assignments : pg->mig[m - 1].n_assignments;
		for (size_t i = 0; i < na; i++) {
			if (a[i].workload->spread != GS_SPREAD_GPU)
				continue;
			for (size_t k = 0; k < n; k++)
				if (seen[k] == a[i].workload)
					violation(c, "%s: two replicas of spread workload %s",
					          where, a[i].workload->name);
			if (n < 64)
				seen[n++] = a[i].workload;
		}
	}
}

/* Placement, memory, compute, tenants, isolation and spread: gpu, and the
 * summary's totals against the nodes. */
static void check_plan(const gs_scenario *s, const fleet *fl, const gs_plan *p, result *res)
{
	const gs_plan_summary *sum = gs_plan_summary_get(p);
	checker c = { s, fl, NULL, NULL, NULL, NULL, res };
	long total = 0, gpus = 0;
	gs_micros cost = 0;
	char where[96];

	c.first = malloc((fl->n ? fl->n : 1) * sizeof *c.first);
	c.by_addr = malloc((fl->n ? fl->n : 1) * sizeof *c.by_addr);
	c.addr_idx = malloc((fl->n ? fl->n : 1) * sizeof *c.addr_idx);
	for (size_t i = 0; c.first && i < fl->n; i++) {
		c.first[i] = total;
		total += fl->w[i].replicas;
	}
	c.seen = calloc((size_t)(total ? total : 1), 1);
	if (!c.first || !c.seen || !c.by_addr || !c.addr_idx) {
		violation(&c, "checker: out of memory");
		goto done;
	}
	for (size_t i = 0; i < fl->n; i++) {
		c.by_addr[i] = gs_scenario_workload_at(s, i);
		c.addr_idx[i] = (long)i;
	}
	sort_ck = &c;
	qsort(c.addr_idx, fl->n, sizeof *c.addr_idx, by_addr);
	sort_ck = NULL;
	for (size_t n = 0; n < gs_plan_node_count(p); n++) {
		const gs_plan_node *nd = gs_plan_node_at(p, n);
		cost += nd->price_per_hour;
		gpus += (long)nd->n_gpus;
		if (nd->n_gpus != (size_t)nd->instance->gpu_count)
			violation(&c, "node %zu: %zu GPUs on a %d-GPU %s", n, nd->n_gpus,
			          nd->instance->gpu_count, nd->instance->type);
		for (size_t gi = 0; gi < nd->n_gpus; gi++) {
			const gs_plan_gpu *pg = &nd->gpus[gi];
			if (pg->model != nd->instance->gpu)
				violation(&c, "node %zu gpu %zu: model differs from the instance's",
				          n, gi);
			snprintf(where, sizeof where, "node %zu gpu %zu", n, gi);
			check_group(&c, pg->model, pg->assignments, pg->n_assignments,
			            gpu_bytes(pg->model), 1, where);
			for (size_t m = 0; m < pg->n_mig; m++) {
				snprintf(where, sizeof where, "node %zu gpu %zu mig %zu", n, gi, m);
				check_group(&c, pg->model, pg->mig[m].assignments,
				            pg->mig[m].n_assignments,
				            pg->mig[m].profile->memory_mib << 20, 0, where);
			}
			check_spread(&c, pg, where);
		}
	}
	/* One cloud, and amd64 hosts for the fleet's amd64 workloads. */
	for (size_t n = 0; n < gs_plan_node_count(p); n++) {
		const gs_instance *in = gs_plan_node_at(p, n)->instance;
		if (strcmp(in->cloud, gs_plan_node_at(p, 0)->instance->cloud) != 0)
			violation(&c, "node %zu: cloud %s, node 0's is %s", n, in->cloud,
			          gs_plan_node_at(p, 0)->instance->cloud);
		if (in->arch != GS_ARCH_AMD64)
			violation(&c, "node %zu: %s is %s", n, in->type, gs_arch_name(in->arch));
	}
	for (long r = 0; r < total; r++)
		if (!c.seen[r]) {
			violation(&c, "replica %ld (of %ld) not placed", r, total);
			break;
		}
	if (cost != sum->after_per_hour)
		violation(&c, "summary after %lld != node prices %lld",
		          (long long)sum->after_per_hour, (long long)cost);
	if (gpus != sum->gpus_after)
		violation(&c, "summary gpus_after %d != %ld", sum->gpus_after, gpus);
	if (sum->replicas != total)
		violation(&c, "summary replicas %d != %ld", sum->replicas, total);
done:
	free(c.first);
	free(c.seen);
	free(c.by_addr);
	free(c.addr_idx);
}

/* The re-plan fleet's extra tenant: 24 replicas that must not time-slice
 * (batch at 75%, latency-critical inference at 55%) beside light ones, all
 * measured on T4, which the planner packs with MPS. */
static int add_mps_tenant(gs_scenario *s, gs_error *err)
{
	static const char *const w[][6] = {
		{ "mps-heavy", "batch", "6GiB", "75%", "tolerant", "8" },
		{ "mps-crit", "inference", "4GiB", "55%", "critical", "8" },
		{ "mps-light", "inference", "2GiB", "10%", "tolerant", "8" },
	};
	for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
		int rc;
		if ((rc = gs_scenario_add(s, w[i][0], err)) < 0 ||
		    (rc = gs_scenario_set(s, w[i][0], "kind", w[i][1], err)) < 0 ||
		    (rc = gs_scenario_set(s, w[i][0], "gpuMemory", w[i][2], err)) < 0 ||
		    (rc = gs_scenario_set(s, w[i][0], "compute", w[i][3], err)) < 0 ||
		    (rc = gs_scenario_set(s, w[i][0], "latency", w[i][4], err)) < 0 ||
		    (rc = gs_scenario_set(s, w[i][0], "replicas", w[i][5], err)) < 0 ||
		    (rc = gs_scenario_set(s, w[i][0], "measuredOn", "T4", err)) < 0 ||
		    (rc = gs_scenario_set(s, w[i][0], "tenant", "tmps", err)) < 0)
			return rc;
	}
	return 0;
}

/* The GPUs of a plan that use MIG, and those that use MPS, and whether it
 * had both in play: the re-plan must, to time the work they cost. */
static void count_sharing(const gs_plan *p, long *mig, long *mps, int *chose)
{
	*mig = *mps = 0;
	*chose = 0;
	/* A device-plugin plan holds MIG or MPS, not both; when the packing had
	 * both, the reasons of the workloads it moved say what was left out. */
	for (size_t i = 0; i < gs_plan_workload_count(p); i++) {
		const char *why = gs_plan_workload_at(p, i)->why;
		if (why && strstr(why, "cannot mix MIG and MPS"))
			*chose = 1;
	}
	for (size_t n = 0; n < gs_plan_node_count(p); n++) {
		const gs_plan_node *nd = gs_plan_node_at(p, n);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			*mig += nd->gpus[g].strategy == GS_STRATEGY_MIG;
			*mps += nd->gpus[g].strategy == GS_STRATEGY_MPS;
		}
	}
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Edits as a REPL session makes them: s planned once untimed, as a
 * session's `load` would; then each edit sets wl's compute (36 % up) and
 * plans the summary. ms: the least, median and most; *last: the whole
 * plan after the edits. */
#define ONE_CLOUD_EDITS 5

static int timed_edits(gs_scenario *s, const char *wl, double ms3[3], gs_plan **last,
                       gs_error *err)
{
	gs_plan_cache *cache = NULL;
	gs_plan_opts ro = GS_PLAN_OPTS_INIT;
	gs_plan *p = NULL;
	double ms[ONE_CLOUD_EDITS];
	int rc;

	if ((rc = gs_plan_cache_new(&cache, err)) < 0)
		return rc;
	ro.cache = cache;
	if ((rc = gs_plan_make(s, &ro, &p, err)) < 0)
		goto out;
	ro.summary_only = 1;
	for (int i = 0; i < ONE_CLOUD_EDITS; i++) {
		char pct[8];
		double t0 = now_ms();
		snprintf(pct, sizeof pct, "%d%%", 36 + i);
		gs_plan_free(p);
		p = NULL;
		if ((rc = gs_scenario_set(s, wl, "compute", pct, err)) < 0 ||
		    (rc = gs_plan_make(s, &ro, &p, err)) < 0)
			goto out;
		ms[i] = now_ms() - t0;
	}
	qsort(ms, ONE_CLOUD_EDITS, sizeof *ms, by_double);
	ms3[0] = ms[0];
	ms3[1] = ms[ONE_CLOUD_EDITS / 2];
	ms3[2] = ms[ONE_CLOUD_EDITS - 1];
	gs_plan_free(p);
	p = NULL;
	ro.summary_only = 0;
	rc = gs_plan_make(s, &ro, last, err);
out:
	gs_plan_free(p);
	gs_plan_cache_free(cache);
	return rc;
}

/* Edits in one cloud: `cloud: all` plans every cloud whose bound does not
 * rule it out, and a REPL session in the cloud a team runs in plans that
 * one alone. */
static int one_cloud_edits(gs_scenario *s, const char *wl, result *res, gs_error *err)
{
	gs_plan *p = NULL;
	int rc, chose;

	if ((rc = gs_scenario_set(s, NULL, "cloud", res->one_cloud, err)) < 0 ||
	    (rc = timed_edits(s, wl, res->one_ms, &p, err)) < 0)
		return rc;
	/* The whole plan: MIG and MPS still in play in that cloud. */
	count_sharing(p, &res->one_mig, &res->one_mps, &chose);
	gs_plan_free(p);
	return 0;
}

/* ---- one size, in a child ------------------------------------------------------ */

static void run_size(long size, result *res)
{
	gs_catalog *cat = NULL;
	gs_scenario *s = NULL;
	gs_plan *p = NULL, *p2 = NULL;
	gs_plan_cache *cache = NULL;
	gs_plan_opts opts = GS_PLAN_OPTS_INIT;
	gs_error err;
	struct rusage ru;
	fleet fl = { NULL, 0, 0 };
	market mk;
	long ffd_gpus[MAX_MODELS];
	double t0;

	memset(res, 0, sizeof *res);
	res->ok = 1;
	res->replicas = size;
	if (gs_catalog_load(PROFILES, &cat, &err) < 0) {
		fail(res, "loading the catalog from " PROFILES "/", &err);
		return;
	}
	t0 = now_ms();
	if (generate(cat, size, &s, &fl, res) < 0)
		goto out;
	res->build_ms = now_ms() - t0;
	res->workloads = (long)fl.n;
	res->tenants = fl.tenants;

	t0 = now_ms();
	if (gs_plan_make(s, &opts, &p, &err) < 0) {
		fail(res, "gs_plan_make", &err);
		goto out;
	}
	res->wall_ms = now_ms() - t0;
	getrusage(RUSAGE_SELF, &ru);
	res->peak_mib = (double)ru.ru_maxrss / 1024.0; /* Linux: KiB */
	res->after = gs_plan_summary_get(p)->after_per_hour;
	res->before = gs_plan_summary_get(p)->before_per_hour;
	res->gpus_after = gs_plan_summary_get(p)->gpus_after;

	check_plan(s, &fl, p, res);
	/* The bounds and the baseline of the cheapest single cloud: each is
	 * the least over the clouds that can hold the fleet. */
	res->ffd = -1;
	for (size_t c = 0; c < gs_catalog_cloud_count(cat); c++) {
		double lb, lbs, ffd;
		long fg;
		market_init(cat, gs_catalog_cloud_at(cat, c), &mk);
		if ((ffd = ffd_cost(&mk, &fl, &fg, ffd_gpus)) < 0)
			continue;
		lower_bounds(&mk, &fl, &lb, &lbs);
		if (res->ffd < 0 || ffd < res->ffd) {
			res->ffd = ffd;
			res->ffd_gpus = fg;
		}
		if (res->lb <= 0 || lb < res->lb)
			res->lb = lb;
		if (res->lb_strict <= 0 || lbs < res->lb_strict)
			res->lb_strict = lbs;
	}
	if (res->ffd < 0) {
		fail(res, "FFD baseline", NULL);
		goto out;
	}

	if (size == MID_EDIT_SIZE) {
		gs_plan *last = NULL;
		snprintf(res->mid_wl, sizeof res->mid_wl, "w%06zu", fl.n / 2);
		if (timed_edits(s, res->mid_wl, res->mid_ms, &last, &err) < 0) {
			fail(res, "edits of the smaller fleet", &err);
			goto out;
		}
		gs_plan_free(last);
		res->have_mid = 1;
	}
	if (size == REPLAN_SIZE) {
		/* The REPL's what-if: one edit, then a fresh plan, on this fleet
		 * plus a tenant whose heavy replicas the planner gives MPS (the
		 * fleet above alone ends with MIG GPUs and no MPS ones). Its first
		 * plan is the REPL's current one and is not timed. */
		gs_plan *p1 = NULL;
		gs_plan_opts ro = opts;
		/* With a cache, as the REPL plans. */
		if (gs_plan_cache_new(&cache, &err) < 0) {
			fail(res, "gs_plan_cache_new", &err);
			goto out;
		}
		ro.cache = cache;
		if (add_mps_tenant(s, &err) < 0 || gs_plan_make(s, &ro, &p1, &err) < 0) {
			fail(res, "re-plan fleet", &err);
			goto out;
		}
		gs_plan_free(p1);
		snprintf(res->replan_wl, sizeof res->replan_wl, "w%06zu", fl.n / 2);
		/* An edit prints the summary line alone, as the REPL does. */
		ro.summary_only = 1;
		t0 = now_ms();
		if (gs_scenario_set(s, res->replan_wl, "compute", "35%", &err) < 0 ||
		    gs_plan_make(s, &ro, &p2, &err) < 0) {
			fail(res, "set + re-plan", &err);
			goto out;
		}
		res->replan_ms = now_ms() - t0;
		res->have_replan = 1;
		res->replan_after = gs_plan_summary_get(p2)->after_per_hour;
		/* The whole plan, as `show plan` asks it next: the same cost, and
		 * the GPUs that show MIG and MPS in play. */
		gs_plan_free(p2);
		p2 = NULL;
		ro.summary_only = 0;
		if (gs_plan_make(s, &ro, &p2, &err) < 0) {
			fail(res, "whole re-plan", &err);
			goto out;
		}
		if (gs_plan_summary_get(p2)->after_per_hour != res->replan_after) {
			res->ok = 0;
			snprintf(res->err, sizeof res->err, "re-plan: the summary's $%.2f/h is not "
			         "the whole plan's $%.2f/h", usd(res->replan_after),
			         usd(gs_plan_summary_get(p2)->after_per_hour));
			goto out;
		}
		count_sharing(p2, &res->replan_mig, &res->replan_mps, &res->replan_chose);
		snprintf(res->one_cloud, sizeof res->one_cloud, "%s",
		         gs_plan_summary_get(p2)->cloud);
		if (one_cloud_edits(s, res->replan_wl, res, &err) < 0) {
			fail(res, "edits in one cloud", &err);
			goto out;
		}
	}
out:
	gs_plan_free(p2);
	gs_plan_cache_free(cache);
	gs_plan_free(p);
	gs_scenario_free(s);
	gs_catalog_free(cat);
	free(fl.w);
}

/* Runs one size in a forked child; the result comes back through a pipe. */
static void run_child(long size, result *res)
{
	int fd[2], status;
	pid_t pid;
	size_t got = 0;

	memset(res, 0, sizeof *res);
	res->replicas = size;
	fflush(stdout);
	fflush(stderr);
	if (pipe(fd) < 0 || (pid = fork()) < 0) {
		snprintf(res->err, sizeof res->err, "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		result r;
		size_t put = 0;
		close(fd[0]);
		run_size(size, &r);
		while (put < sizeof r) {
			ssize_t k = write(fd[1], (char *)&r + put, sizeof r - put);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				_exit(3);
			put += (size_t)k;
		}
		_exit(0);
	}
	close(fd[1]);
	while (got < sizeof *res) {
		ssize_t k = read(fd[0], (char *)res + got, sizeof *res - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof *res) {
		memset(res, 0, sizeof *res);
		res->replicas = size;
		if (WIFSIGNALED(status))
			snprintf(res->err, sizeof res->err, "child killed by signal %d",
			         WTERMSIG(status));
		else
			snprintf(res->err, sizeof res->err, "child exited %d without a result",
			         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
}

/* ---- main ---------------------------------------------------------------------- */


static void usage(void)
{
	fprintf(stderr,
	        "usage: bench [SIZE...]   (replicas per fleet; default 100 1000 10000 100000)\n"
	        "run from the repository top: the catalog is read from ./" PROFILES "/\n");
}

int main(int argc, char **argv)
{
	static const long defaults[] = { 100, 1000, 10000, 100000 };
	long sizes[64];
	result *res;
	int n = 0, errors = 0, goal_run = 0, goal_ok = 0;

	for (int i = 1; i < argc; i++) {
		char *end;
		long v;
		errno = 0;
		v = strtol(argv[i], &end, 10);
		if (errno || end == argv[i] || *end || v < 1 || v > 10000000 || n == 64) {
			usage();
			return 2;
		}
		sizes[n++] = v;
	}
	if (n == 0)
		for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
			sizes[n++] = defaults[i];
	if (!(res = calloc((size_t)n, sizeof *res)))
		return 1;

	printf(
	    "gpushare %s planner benchmark: generated fleets, cloud all, on-demand, seed %#llx\n\n",
	    GS_VERSION, (unsigned long long)SEED);
	printf("replicas workloads   wall_ms  peak_MiB   after_$/h  before_$/h  gpus  plan/LB  "
	       "plan/FFD\n");
	for (int i = 0; i < n; i++) {
		result *r = &res[i];
		run_child(sizes[i], r);
		if (!r->ok) {
			printf("%8ld  FAILED: %s\n", sizes[i], r->err);
			errors++;
			continue;
		}
		printf("%8ld %9ld %9.1f %9.1f %11.2f %11.2f %5d %8.3f %9.3f\n", r->replicas,
		       r->workloads, r->wall_ms, r->peak_mib, usd(r->after), usd(r->before),
		       r->gpus_after, usd(r->after) / r->lb, usd(r->after) / r->ffd);
		fflush(stdout);
		if (r->replicas == GOAL_SIZE) {
			goal_run = 1;
			goal_ok = r->wall_ms < GOAL_MS && r->peak_mib < GOAL_MIB;
		}
	}

	printf("\nreplicas tenants  build_ms     LB_$/h    LB*_$/h  plan/LB*     FFD_$/h  FFD_gpus "
	       " check\n");
	for (int i = 0; i < n; i++) {
		const result *r = &res[i];
		if (!r->ok)
			continue;
		printf("%8ld %7ld %9.1f %10.2f %10.2f %9.3f %11.2f %9ld  %s%s\n", r->replicas,
		       r->tenants, r->build_ms, r->lb, r->lb_strict, usd(r->after) / r->lb_strict,
		       r->ffd, r->ffd_gpus, r->violations ? "FAIL: " : "ok",
		       r->violations ? r->check : "");
		if (r->violations)
			errors++;
		if (usd(r->after) > r->ffd)
			printf("  note: at %ld replicas the plan ($%.2f/h) costs more than FFD "
			       "($%.2f/h)\n",
			       r->replicas, usd(r->after), r->ffd);
		if (usd(r->after) < r->lb_strict)
			printf("  note: at %ld replicas the plan costs less than the bound LB*: a "
			       "bug\n",
			       r->replicas);
	}

	printf("\n");
	{
		int found = 0;
		for (int i = 0; i < n; i++) {
			const result *r = &res[i];
			if (!r->ok || !r->have_replan)
				continue;
			found = 1;
			printf("re-plan (%ld replicas + 24 of tenant tmps: set %s compute 35%%, "
			       "then gs_plan_make, summary only): "
			       "%.1f ms, "
			       "after $%.2f/h, %ld MIG and %ld MPS GPUs%s; REPL target <%.0f ms: "
			       "%s\n",
			       r->replicas, r->replan_wl, r->replan_ms, usd(r->replan_after),
			       r->replan_mig, r->replan_mps,
			       r->replan_chose ? " (MIG or MPS chosen)" : "", REPLAN_GOAL_MS,
			       r->replan_ms < REPLAN_GOAL_MS ? "PASS" : "FAIL");
			printf("re-plan in %s alone (cloud: %s, the plan's; then %d edits of %s "
			       "compute, 36%% to %d%%): median %.1f ms (%.1f-%.1f), %ld MIG and "
			       "%ld MPS GPUs; REPL target <%.0f ms: %s\n",
			       r->one_cloud, r->one_cloud, ONE_CLOUD_EDITS, r->replan_wl,
			       35 + ONE_CLOUD_EDITS, r->one_ms[1], r->one_ms[0], r->one_ms[2],
			       r->one_mig, r->one_mps, REPLAN_GOAL_MS,
			       r->one_ms[1] < REPLAN_GOAL_MS ? "PASS" : "FAIL");
		}
		if (!found)
			printf("re-plan: not run (it is timed on the %ld-replica fleet)\n",
			       (long)REPLAN_SIZE);
		for (int i = 0; i < n; i++) {
			const result *r = &res[i];
			if (!r->ok || !r->have_mid)
				continue;
			printf("re-plan of %ld replicas (cloud: all; %d edits of %s compute, "
			       "36%% to %d%%): median %.1f ms (%.1f-%.1f); no target (the "
			       "issue's is for %ld replicas)\n",
			       r->replicas, ONE_CLOUD_EDITS, r->mid_wl, 35 + ONE_CLOUD_EDITS,
			       r->mid_ms[1], r->mid_ms[0], r->mid_ms[2], (long)REPLAN_SIZE);
		}
	}
	printf("targets: 100k replicas in <1 s and <256 MiB: %s\n",
	       !goal_run ? "NOT RUN" : goal_ok ? "PASS" : "FAIL");
	free(res);
	return errors ? 1 : 0;
}
