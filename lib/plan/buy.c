/*
 * nodes.c - from packed GPUs to nodes: buy the cheapest instances for each
 * kind of node (one device-plugin sharing configuration per node), place
 * GPUs on them, and build the plan's public records.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "plan/strategy.h"

void *gs_plan_alloc(gs_plan *p, size_t n, size_t size)
{
	void *x;
	if (gs_grow(&p->blocks, &p->cap_blocks, p->n_blocks + 1, sizeof *p->blocks) < 0 ||
	    !(x = calloc(n ? n : 1, size)))
		return NULL;
	p->blocks[p->n_blocks++] = x;
	return x;
}

char *gs_plan_strdup(gs_plan *p, const char *s)
{
	char *d = gs_plan_alloc(p, strlen(s) + 1, 1);
	if (d)
		memcpy(d, s, strlen(s) + 1);
	return d;
}

int gs_plan_warn(gs_plan *p, const char *fmt, ...)
{
	char buf[512];
	char *d;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!(d = gs_plan_strdup(p, buf)) ||
	    gs_grow(&p->warnings, &p->cap_warnings, p->n_warnings + 1,
	            sizeof *p->warnings) < 0)
		return -1;
	p->warnings[p->n_warnings++] = d;
	return 0;
}

void gs_nodeset_free(gs_nodeset *ns)
{
	for (int i = 0; i < ns->n; i++) {
		free(ns->v[i].gpus);
		free(ns->v[i].spread_wl);
	}
	free(ns->v);
	memset(ns, 0, sizeof *ns);
}

static gs_bnode *node_new(gs_nodeset *ns, const gs_instance *in, gs_micros price,
                       gs_strategy kind, int k)
{
	gs_bnode *b;
	if (ns->n == ns->cap) {
		int ncap = ns->cap ? ns->cap * 2 : 8;
		gs_bnode *v = realloc(ns->v, (size_t)ncap * sizeof *v);
		if (!v)
			return NULL;
		ns->v = v;
		ns->cap = ncap;
	}
	b = &ns->v[ns->n];
	memset(b, 0, sizeof *b);
	if (!(b->gpus = calloc((size_t)in->gpu_count, sizeof *b->gpus)))
		return NULL;
	b->inst = in;
	b->price = price;
	b->kind = kind;
	b->k = k;
	ns->n++;
	return b;
}

static int spread_clash(const gs_planner *pl, const gs_bnode *b, const gs_pgpu *g)
{
	for (int i = 0; i < g->ng; i++)
		for (int r = 0; r < g->g[i].n; r++) {
			const gs_replica *p = &pl->reps[g->g[i].reps[r]];
			if (p->w->spread != GS_SPREAD_NODE)
				continue;
			for (int j = 0; j < b->nsw; j++)
				if (b->spread_wl[j] == p->wi)
					return 1;
		}
	return 0;
}

static int node_take(const gs_planner *pl, gs_bnode *b, const gs_pgpu *g)
{
	for (int i = 0; i < g->ng; i++)
		for (int r = 0; r < g->g[i].n; r++) {
			const gs_replica *p = &pl->reps[g->g[i].reps[r]];
			int *v;
			if (p->w->spread != GS_SPREAD_NODE)
				continue;
			if (!(v = realloc(b->spread_wl, (size_t)(b->nsw + 1) * sizeof *v)))
				return -1;
			b->spread_wl = v;
			b->spread_wl[b->nsw++] = p->wi;
		}
	b->gpus[b->n++] = g;
	return 0;
}

/* The instance with the lowest price, for nodes that spread forces. */
static int cheapest_node(const gs_shop *sh)
{
	int best = 0;
	for (int i = 1; i < sh->n; i++)
		if (sh->price[i] < sh->price[best])
			best = i;
	return best;
}

int gs_nodes_buy(const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus, int n, gs_strategy kind,
              int k, gs_nodeset *out)
{
	int counts[64], first = out->n, cur;

	if (n == 0)
		return 0;
	if (gs_shop_counts(sh, n, counts) < 0)
		return -1;
	/* Big instances first: fewer, fuller nodes. */
	for (int pass = 64; pass >= 1; pass--)
		for (int i = 0; i < sh->n; i++)
			for (int c = 0; sh->insts[i]->gpu_count == pass && c < counts[i]; c++)
				if (!node_new(out, sh->insts[i], sh->price[i], kind, k))
					return -1;
	cur = first;
	for (int i = 0; i < n; i++) {
		int placed = 0;
		for (int j = cur; j < out->n && !placed; j++) {
			gs_bnode *b = &out->v[j];
			if (b->n == b->inst->gpu_count || spread_clash(pl, b, gpus[i]))
				continue;
			if (node_take(pl, b, gpus[i]) < 0)
				return -1;
			placed = 1;
		}
		if (!placed) {
			int c = cheapest_node(sh);
			gs_bnode *b = node_new(out, sh->insts[c], sh->price[c], kind, k);
			if (!b || node_take(pl, b, gpus[i]) < 0)
				return -1;
		}
		/* Without spread conflicts the fill is sequential. */
		while (cur < out->n && out->v[cur].n == out->v[cur].inst->gpu_count)
			cur++;
	}
	/* Spread may leave bought nodes empty; they are not needed. */
	for (int j = first; j < out->n;) {
		if (out->v[j].n) {
			j++;
			continue;
		}
		free(out->v[j].gpus);
		free(out->v[j].spread_wl);
		memmove(&out->v[j], &out->v[j + 1], (size_t)(out->n - j - 1) * sizeof *out->v);
		out->n--;
	}
	return 0;
}

/* ---- public records ------------------------------------------------------- */

static int fill_assignments(gs_plan *p, const gs_planner *pl, const gs_pgpu *g,
                            const gs_group *gr, int k, gs_assignment **out)
{
	gs_assignment *a = gs_plan_alloc(p, (size_t)gr->n, sizeof *a);
	if (!a)
		return -1;
	for (int i = 0; i < gr->n; i++) {
		const gs_replica *r = &pl->reps[gr->reps[i]];
		a[i].workload = r->w;
		a[i].replica = r->replica;
		a[i].compute_ppm = gs_workload_compute_on(r->w, g->model);
		if (g->kind != GS_STRATEGY_MPS)
			continue;
		if (pl->via_dra) {
			a[i].thread_percent = (int)gs_div_ceil(a[i].compute_ppm, 10000);
			a[i].memory_limit_mib = gs_div_ceil(r->w->memory_bytes, 1 << 20);
		} else {
			a[i].thread_percent = 100 / k;
			a[i].memory_limit_mib = (g->model->memory_mib << 20) / k >> 20;
		}
	}
	*out = a;
	return 0;
}

/* Time-slicing inside MIG: one replica count per profile and node. */
static int mig_slots_for(const gs_bnode *b, const gs_mig_profile *prof)
{
	int k = 1;
	for (int i = 0; i < b->n; i++)
		for (int j = 0; j < b->gpus[i]->ng; j++)
			if (b->gpus[i]->g[j].prof == prof && b->gpus[i]->g[j].n > k)
				k = b->gpus[i]->g[j].n;
	return k;
}

static int fill_mig(gs_plan *p, const gs_planner *pl, const gs_bnode *b, const gs_pgpu *g,
                    gs_plan_gpu *out)
{
	gs_plan_mig *m = gs_plan_alloc(p, (size_t)g->ng, sizeof *m);
	if (!m)
		return -1;
	for (int j = 0; j < g->ng; j++) {
		gs_assignment *a;
		int slots = mig_slots_for(b, g->g[j].prof);
		m[j].profile = g->g[j].prof;
		m[j].start = g->g[j].start;
		m[j].strategy = slots > 1 ? GS_STRATEGY_TIME_SLICING : GS_STRATEGY_DEDICATED;
		m[j].replicas = slots;
		if (fill_assignments(p, pl, g, &g->g[j], 1, &a) < 0)
			return -1;
		m[j].assignments = a;
		m[j].n_assignments = (size_t)g->g[j].n;
	}
	/* Report instances in slot order, as nvidia-smi lists them. */
	for (int i = 1; i < g->ng; i++)
		for (int j = i; j > 0 && m[j].start < m[j - 1].start; j--) {
			gs_plan_mig t = m[j];
			m[j] = m[j - 1];
			m[j - 1] = t;
		}
	out->mig = m;
	out->n_mig = (size_t)g->ng;
	return 0;
}

static int node_slots(const gs_bnode *b)
{
	int k = b->k;
	if (b->kind != GS_STRATEGY_TIME_SLICING)
		return b->kind == GS_STRATEGY_DEDICATED ? 1 : k;
	for (int i = 0; i < b->n; i++)
		if (b->gpus[i]->g[0].n > k)
			k = b->gpus[i]->g[0].n;
	return k < 2 ? 2 : k;
}

/* Names are label values: an instance type may hold '+' (GCP's n1 with
 * attached GPUs), so the name is sanitized, with the sharing suffix kept. */
static const char *config_name(gs_plan *p, const gs_bnode *b, int slots)
{
	const char *name = gs_strategy_info_get(b->kind)->config;
	char suffix[24], base[64], buf[96];
	/* Shared whole GPUs advertise a slot count: the name carries it. */
	if (b->kind == GS_STRATEGY_TIME_SLICING || b->kind == GS_STRATEGY_MPS)
		snprintf(suffix, sizeof suffix, "-%s%d", name, slots);
	else
		snprintf(suffix, sizeof suffix, "-%s", name);
	gs_label_value(b->inst->type, base);
	base[63 - strlen(suffix)] = '\0';
	gs_label_value(base, base);
	snprintf(buf, sizeof buf, "%s%s", base, suffix);
	return gs_plan_strdup(p, buf);
}

/* What distinguishes two MIG nodes' device-plugin configs: the profiles
 * time-sliced inside MIG and their slot counts. */
static void mig_sharing_key(const gs_plan_node *n, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t g = 0; g < n->n_gpus; g++)
		for (size_t m = 0; m < n->gpus[g].n_mig; m++) {
			const gs_plan_mig *mi = &n->gpus[g].mig[m];
			if (mi->replicas > 1 && o < size)
				o += (size_t)snprintf(buf + o, size - o, "%s:%d,", mi->profile->name,
				                      mi->replicas);
		}
}

/* What distinguishes two MIG nodes' mig-parted configs: each GPU's
 * multiset of profiles (instances are listed in slot order). */
static void mig_geometry_key(const gs_plan_node *n, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t g = 0; g < n->n_gpus && o < size; g++) {
		for (size_t m = 0; m < n->gpus[g].n_mig && o < size; m++)
			o += (size_t)snprintf(buf + o, size - o, "%s+", n->gpus[g].mig[m].profile->name);
		if (o < size)
			o += (size_t)snprintf(buf + o, size - o, "|");
	}
}

typedef struct cfgkey {
	const gs_instance *inst;
	char *key;
	size_t node;
	size_t first;   /* first node with the same instance and key */
	int number;     /* 1-based among the instance's distinct keys */
} cfgkey;

static int by_inst_key(const void *a, const void *b)
{
	const cfgkey *x = a, *y = b;
	int c = strcmp(x->inst->type, y->inst->type);
	if (c == 0)
		c = strcmp(x->key, y->key);
	return c ? c : (x->node > y->node) - (x->node < y->node);
}

static int by_inst_first(const void *a, const void *b)
{
	const cfgkey *x = a, *y = b;
	int c = strcmp(x->inst->type, y->inst->type);
	return c ? c : (x->first > y->first) - (x->first < y->first);
}

/* Numbers the distinct keys of each instance type in order of first
 * appearance, so names do not depend on how keys sort. */
static void number_keys(cfgkey *k, size_t n)
{
	qsort(k, n, sizeof *k, by_inst_key);
	for (size_t i = 0; i < n; i++)
		k[i].first = i && k[i - 1].inst == k[i].inst && strcmp(k[i - 1].key, k[i].key) == 0
		                 ? k[i - 1].first : k[i].node;
	qsort(k, n, sizeof *k, by_inst_first);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || k[i - 1].inst != k[i].inst)
			k[i].number = 1;
		else
			k[i].number = k[i - 1].number + (k[i - 1].first != k[i].first);
	}
}

typedef void (*key_fn)(const gs_plan_node *n, char *buf, size_t size);

/* Fills keys for the MIG nodes; returns how many, or -1. */
static long mig_keys(const gs_plan *p, key_fn fn, cfgkey **out)
{
	cfgkey *k = calloc(p->n_nodes ? p->n_nodes : 1, sizeof *k);
	size_t n = 0;
	char buf[2048];
	if (!k)
		return -1;
	for (size_t i = 0; i < p->n_nodes; i++) {
		const gs_plan_node *nd = &p->nodes[i];
		if (!nd->n_gpus || nd->gpus[0].strategy != GS_STRATEGY_MIG)
			continue;
		fn(nd, buf, sizeof buf);
		if (!(k[n].key = gs_strdup(buf))) {
			for (size_t j = 0; j < n; j++)
				free(k[j].key);
			free(k);
			return -1;
		}
		k[n].inst = nd->instance;
		k[n++].node = i;
	}
	*out = k;
	return (long)n;
}

/* The first distinct MIG configuration of an instance type is
 * "<type>-mig" (device plugin) and "gpushare-<type>" (mig-parted); the
 * next ones get 2, 3, ... */
static int name_mig_configs(gs_plan *p)
{
	for (int pass = 0; pass < 2; pass++) {
		cfgkey *k;
		long n = mig_keys(p, pass ? mig_geometry_key : mig_sharing_key, &k);
		int rc = 0;
		if (n < 0)
			return -1;
		number_keys(k, (size_t)n);
		for (long i = 0; i < n; i++) {
			gs_plan_node *nd = &p->nodes[k[i].node];
			char buf[96], base[64];
			if (pass == 0 && k[i].number > 1) {
				/* Keep a label value's 63 characters with the number on. */
				char num[16];
				size_t keep;
				snprintf(num, sizeof num, "%d", k[i].number);
				keep = strlen(nd->config) + strlen(num) > 63 ? 63 - strlen(num) - 4
				                                            : strlen(nd->config) - 4;
				snprintf(buf, sizeof buf, "%.*s-mig%s", (int)keep, nd->config, num);
				gs_label_value(buf, buf);
			} else if (pass == 0)
				snprintf(buf, sizeof buf, "%s", nd->config);
			else {
				gs_label_value(nd->instance->type, base);
				base[48] = '\0';
				gs_label_value(base, base);
				if (k[i].number > 1)
					snprintf(buf, sizeof buf, "gpushare-%s-%d", base, k[i].number);
				else
					snprintf(buf, sizeof buf, "gpushare-%s", base);
			}
			if (!(pass ? (nd->mig_config = gs_plan_strdup(p, buf))
			           : (nd->config = gs_plan_strdup(p, buf))))
				rc = -1;
		}
		for (long i = 0; i < n; i++)
			free(k[i].key);
		free(k);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int fill_node(gs_plan *p, const gs_planner *pl, const gs_bnode *b, gs_plan_node *out)
{
	int slots = node_slots(b);
	gs_plan_gpu *gpus = gs_plan_alloc(p, (size_t)b->inst->gpu_count, sizeof *gpus);
	if (!gpus)
		return -1;
	out->instance = b->inst;
	out->price_per_hour = b->price;
	out->config = config_name(p, b, slots);
	out->gpus = gpus;
	out->n_gpus = (size_t)b->inst->gpu_count;
	for (int i = 0; i < b->inst->gpu_count; i++) {
		gs_plan_gpu *pg = &gpus[i];
		pg->index = i;
		pg->model = b->inst->gpu;
		pg->strategy = b->kind;
		pg->replicas = b->kind == GS_STRATEGY_MIG ? 0 : slots;
		if (i >= b->n)
			continue;
		if (b->kind == GS_STRATEGY_MIG) {
			if (fill_mig(p, pl, b, b->gpus[i], pg) < 0)
				return -1;
		} else {
			gs_assignment *a;
			if (fill_assignments(p, pl, b->gpus[i], &b->gpus[i]->g[0], slots, &a) < 0)
				return -1;
			pg->assignments = a;
			pg->n_assignments = (size_t)b->gpus[i]->g[0].n;
		}
	}
	return !out->config ? -1 : 0;
}

/* A replica's weight on its GPU: its larger share of memory or compute;
 * in a MIG instance, an equal part of the instance's compute slices. */
static int64_t rep_weight(const gs_planner *pl, const gs_pgpu *g, const gs_group *gr, int x)
{
	const gs_workload *w = pl->reps[x].w;
	int64_t mem, cmp;
	if (g->kind == GS_STRATEGY_MIG)
		return (int64_t)gr->prof->compute_slices * 1000000 / gr->n;
	mem = w->memory_bytes * 1000 / (g->model->memory_mib << 20);
	cmp = gs_workload_compute_on(w, g->model) / 1000;
	return (mem > cmp ? mem : cmp) + 1;
}

/* Splits each node's price over its replicas: equally over used GPUs, then
 * by weight. Remainders go to the first replica so that the parts add up
 * to the node's price exactly. */
static void cost_node(gs_plan *p, const gs_planner *pl, const gs_bnode *b)
{
	gs_micros per_gpu = b->price / b->n, left = b->price - per_gpu * b->n;
	for (int i = 0; i < b->n; i++) {
		const gs_pgpu *g = b->gpus[i];
		gs_micros gpu_cost = per_gpu + (i == 0 ? left : 0), given = 0;
		int64_t total = 0;
		for (int j = 0; j < g->ng; j++)
			for (int r = 0; r < g->g[j].n; r++)
				total += rep_weight(pl, g, &g->g[j], g->g[j].reps[r]);
		for (int j = 0; j < g->ng; j++)
			for (int r = 0; r < g->g[j].n; r++) {
				int x = g->g[j].reps[r];
				gs_micros c = gpu_cost * rep_weight(pl, g, &g->g[j], x) / total;
				p->rep_cost[x] += c;
				given += c;
			}
		p->rep_cost[g->g[0].reps[0]] += gpu_cost - given;
	}
}

int gs_plan_records(gs_plan *p, const gs_planner *pl, gs_nodeset *ns)
{
	if (!(p->nodes = gs_plan_alloc(p, (size_t)ns->n, sizeof *p->nodes)))
		return -1;
	p->n_nodes = (size_t)ns->n;
	for (int i = 0; i < ns->n; i++) {
		if (fill_node(p, pl, &ns->v[i], &p->nodes[i]) < 0)
			return -1;
		cost_node(p, pl, &ns->v[i]);
	}
	return name_mig_configs(p);
}
