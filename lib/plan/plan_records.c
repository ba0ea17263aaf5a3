/*
 * plan_records.c - the plan's public records from the bought nodes: each
 * node with its GPUs, MIG instances and assignments, and each replica's
 * share of what its node costs (showback.c).
 */
#include "catalog/offer.h"
#include "plan/host.h"
#include "plan/nodes.h"
#include "plan/plan_internal.h"
#include "scenario/scenario.h"

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
		if (g->strategy == GS_STRATEGY_FRACTION) {
			/* Its own cap; an SM limit where the backend has one. */
			a[i].memory_limit_mib = gs_div_ceil(r->w->memory_bytes, 1 << 20);
			if (gs_pgpu_backend(pl, g) != GS_BACKEND_DRA)
				a[i].thread_percent = gs_fraction_percent(a[i].compute_ppm);
			continue;
		}
		if (g->strategy != GS_STRATEGY_MPS)
			continue;
		if (pl->via_dra) {
			a[i].thread_percent = (int)gs_div_ceil(a[i].compute_ppm, 10000);
			a[i].memory_limit_mib = gs_div_ceil(r->w->memory_bytes, 1 << 20);
		} else {
			/* The device plugin's equal split. */
			a[i].thread_percent = 100 / k;
			a[i].memory_limit_mib = (g->model->memory_mib << 20) / k >> 20;
		}
	}
	*out = a;
	return 0;
}

/* What a group's replicas hold and what its GPU or instance offers them:
 * several replicas time-slicing it keep the largest headroom of theirs
 * free (the packer's rule, offer.h). */
static void group_memory(const gs_planner *pl, const gs_gpu *model,
                         const gs_mig_profile *prof, const gs_group *gr, gs_strategy st,
                         int64_t *mem, int64_t *offer, int64_t *room)
{
	int shared_ts = gr->n > 1 && st == GS_STRATEGY_TIME_SLICING;
	*mem = *room = 0;
	for (int i = 0; i < gr->n; i++) {
		const gs_replica *r = &pl->reps[gr->reps[i]];
		*mem += r->w->memory_bytes;
		if (shared_ts && r->headroom > *room)
			*room = r->headroom;
	}
	*offer = gs_memory_offer(model, prof, shared_ts ? st : GS_STRATEGY_DEDICATED, *room);
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
		group_memory(pl, g->model, g->g[j].prof, &g->g[j], m[j].strategy,
		             &m[j].memory_bytes, &m[j].memory_offer_bytes,
		             &m[j].memory_headroom_ppm);
		out->memory_bytes += m[j].memory_bytes;
	}
	out->memory_offer_bytes = gs_usable_bytes(g->model);
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

/* The replicas per GPU the node's config advertises. */
static int node_slots(const gs_bnode *b)
{
	int k = b->k;
	if (b->strategy == GS_STRATEGY_FRACTION)
		return 0; /* a fraction advertises no slots */
	if (b->strategy != GS_STRATEGY_TIME_SLICING)
		return b->strategy == GS_STRATEGY_DEDICATED ? 1 : k;
	for (int i = 0; i < b->n; i++)
		if (b->gpus[i]->g[0].n > k)
			k = b->gpus[i]->g[0].n;
	return k < 2 ? 2 : k;
}

/* GPU i of the node; GPUs past the packed ones stay unused. */
static int fill_gpu(gs_plan *p, const gs_planner *pl, const gs_bnode *b, int i, int slots,
                    gs_plan_gpu *pg)
{
	const gs_pgpu *g = i < b->n ? b->gpus[i] : NULL;
	gs_assignment *a;
	pg->index = i;
	pg->model = b->inst->gpu;
	pg->strategy = b->strategy;
	pg->replicas = b->strategy == GS_STRATEGY_MIG ? 0 : slots;
	if (b->strategy == GS_STRATEGY_FRACTION) /* one backend a node (its key) */
		pg->backend = gs_pgpu_backend(pl, b->gpus[0]);
	if (!g)
		return 0;
	if (b->strategy == GS_STRATEGY_MIG)
		return fill_mig(p, pl, b, g, pg);
	if (fill_assignments(p, pl, g, &g->g[0], slots, &a) < 0)
		return -1;
	pg->assignments = a;
	pg->n_assignments = (size_t)g->g[0].n;
	group_memory(pl, g->model, NULL, &g->g[0], b->strategy, &pg->memory_bytes,
	             &pg->memory_offer_bytes, &pg->memory_headroom_ppm);
	return 0;
}

/* The last configuration named. A name is the same text for the same
 * instance, strategy and slots (or backend), and nodes come grouped by
 * them: made once per run, not once per node (three formatted strings:
 * a third of the records' time at 10,000 replicas). */
typedef struct named {
	const gs_instance *in;
	gs_strategy st;
	int arg;
	const char *name;
} named;

static const char *config_name(gs_plan *p, named *last, const gs_instance *in,
                               gs_strategy st, int arg)
{
	if (!last->name || last->in != in || last->st != st || last->arg != arg) {
		last->name = gs_plan_config_name(p, in, st, arg);
		last->in = in;
		last->st = st;
		last->arg = arg;
	}
	return last->name;
}

static int fill_node(gs_plan *p, const gs_planner *pl, const gs_bnode *b, named *last,
                     gs_plan_node *out)
{
	int slots = node_slots(b);
	gs_backend backend = b->strategy == GS_STRATEGY_FRACTION
	                     ? gs_pgpu_backend(pl, b->gpus[0]) : GS_BACKEND_NONE;
	gs_plan_gpu *gpus = gs_plan_alloc(p, (size_t)b->inst->gpu_count, sizeof *gpus);
	gs_host room;
	if (!gpus)
		return -1;
	out->instance = b->inst;
	out->price_per_hour = b->price;
	out->config = config_name(p, last, b->inst, b->strategy,
	                          backend != GS_BACKEND_NONE ? (int)backend : slots);
	out->gpus = gpus;
	out->n_gpus = (size_t)b->inst->gpu_count;
	room = gs_host_allocatable(b->inst);
	out->cpu_allocatable_millis = room.cpu;
	out->memory_allocatable_bytes = room.mem;
	out->cpu_requested_millis = b->cpu;
	out->memory_requested_bytes = b->mem;
	for (int i = 0; i < b->inst->gpu_count; i++)
		if (fill_gpu(p, pl, b, i, slots, &gpus[i]) < 0)
			return -1;
	return !out->config ? -1 : 0;
}

/* As fill_gpu and fill_mig walk them: the packed GPUs of each node, and
 * the group of a whole GPU or each MIG instance's. */
int64_t gs_plan_records_compute(const gs_planner *pl, const gs_nodeset *ns)
{
	int64_t comp = 0;
	for (int i = 0; i < ns->n; i++) {
		const gs_bnode *b = &ns->v[i];
		for (int k = 0; k < b->inst->gpu_count && k < b->n; k++) {
			const gs_pgpu *g = b->gpus[k];
			int ng = b->strategy == GS_STRATEGY_MIG ? g->ng : 1;
			for (int j = 0; j < ng; j++)
				for (int r = 0; r < g->g[j].n; r++)
					comp += gs_workload_compute_on(pl->reps[g->g[j].reps[r]].w,
					                               g->model);
		}
	}
	return comp;
}

int gs_plan_records(gs_plan *p, const gs_planner *pl, const gs_nodeset *ns)
{
	named last = { NULL, GS_STRATEGY_DEDICATED, 0, NULL };
	if (!(p->nodes = gs_plan_alloc(p, (size_t)ns->n, sizeof *p->nodes)))
		return -1;
	p->n_nodes = (size_t)ns->n;
	for (int i = 0; i < ns->n; i++) {
		if (fill_node(p, pl, &ns->v[i], &last, &p->nodes[i]) < 0)
			return -1;
		if (gs_showback_node(p, pl, &ns->v[i]) < 0)
			return -1;
	}
	if (gs_plan_name_mig_configs(p) < 0)
		return -1;
	return gs_plan_name_pools(p);
}
