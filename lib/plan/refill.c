/*
 * refill.c - a repair after packing: whole GPUs are emptied, least filled
 * first, into the room other whole GPUs of their tenant have left, on any
 * of the workload's candidate models (a replica's compute converts to the
 * GPU it joins); under robust placement a workload at a time
 * (refill_whole.c).
 *
 * Packing goes model by model, with each workload's replicas on one
 * model: a GPU that one large replica holds alone keeps its room while
 * the tenant's small replicas fill GPUs of a cheaper model. Pinned copies
 * each name a node, so a workload may end up on two models. Robust
 * placement keeps a workload to one model and one request
 * (gs_built_one_request), so its workloads move whole.
 *
 * Every move asks the packer's own rule (gs_can_join: tenant, spread,
 * memory under headroom, the target, MPS's split, fractions, the node's
 * CPU and RAM); the GPUs are then bought again and the result kept only
 * when it costs less.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/radix.h"
#include "plan/refill.h"
#include "scenario/scenario.h"

/* The rule checks one refill may make, per replica of the fleet (at
 * least CHECKS_LEAST), and the GPUs it may look at per check: each
 * replica of a GPU being emptied scans its tenant's, where the tree of
 * room (refill_room.c) leads it. Both bound the refill's time. Before
 * the tree, on fleet.py's mixed fleet of 100,000 replicas, pinned, it
 * emptied 13,015 GPUs in 45 million looks, 9 % of the plan's
 * instructions, for 12 % off its cost.
 *
 * The tree passes over most spots in a few steps, and counting those as
 * looks (as the budget did before it) ended the refill with checks left:
 * on fleet.py's hetero, varied and ts fleets of 10,000 to 100,000
 * replicas, pinned, counting only the spots it leads to took 2 to 18 %
 * off the plan (hetero 100,000: $36,426.95/h to $29,701.01/h), never
 * more, in the same time (mixed 100,000: 0.81-0.94 s against 0.83-0.96 s
 * over eight interleaved runs). Under robust placement it found nothing
 * on the same fleets and took the 100,000-replica plan 0.04 s longer:
 * there a spot passed over is still a look. */
#define CHECKS_PER_REPLICA 32
#define CHECKS_LEAST 200000L
#define SCANS_PER_CHECK 16
/* Under robust placement a check is dearer (the worst case of the GPU's
 * workloads): at 100,000 replicas 8 a replica came within 0.2 % of 16 or
 * 32 for a fifth less of the refill's time, 4 within 1 %. */
#define CHECKS_PER_WHOLE 8

/* Moves every replica of spot `from` to other GPUs, or none; 1 when it
 * emptied, 0 when not, -1 when out of memory. */
static int empty_one(gs_filler *f, int from)
{
	const gs_group *src = &gs_spot_gpu(f, from)->g[0];
	int mark = f->nlog;
	/* Gone while its replicas look for a place: not a place for them. */
	gs_spot_set_gone(f, from, 1);
	for (int k = 0; k < src->n; k++) {
		int r = src->reps[k], s = gs_spot_host(f, r, UINT64_MAX);
		if (s < 0) {
			gs_spot_put_back(f, mark);
			gs_spot_set_gone(f, from, 0);
			return 0;
		}
		if (gs_spot_join(f, s, r) < 0)
			return -1;
	}
	for (int j = mark; j < f->nlog; j++)
		f->v[f->log[j].s].touched = 1;
	return 1;
}

/* Empties what it can, least filled first; how many, or -1. */
static int empty_all(gs_filler *f)
{
	gs_keyed *k = malloc(((size_t)f->n + 1) * sizeof *k);
	gs_keyed *tmp = malloc(((size_t)f->n + 1) * sizeof *tmp);
	int emptied = 0, rc = 0;
	if (!k || !tmp) {
		free(k);
		free(tmp);
		return -1;
	}
	for (int s = 0; s < f->n; s++) {
		k[s].key = (uint64_t)f->v[s].fill;
		k[s].val = (size_t)s;
	}
	gs_radix_sort(k, tmp, (size_t)f->n);
	for (int j = 0; j < f->n && rc >= 0 && f->checks > 0 && f->scans > 0; j++)
		if ((rc = empty_one(f, (int)k[j].val)) > 0)
			emptied++;
	free(k);
	free(tmp);
	return rc < 0 ? -1 : emptied;
}

/* Each GPU's spot in packing m, or -1. */
static int *spot_index(const gs_filler *f, int m)
{
	int *at = malloc(((size_t)f->b->packs[m].n + 1) * sizeof *at);
	if (!at)
		return NULL;
	for (int i = 0; i < f->b->packs[m].n; i++)
		at[i] = -1;
	for (int s = 0; s < f->n; s++)
		if (f->v[s].m == m)
			at[f->v[s].i] = s;
	return at;
}

/* Packing m without the emptied GPUs, the ones replicas joined shared as
 * their groups now say, in out (empty). */
static int rebuild(const gs_filler *f, gs_shop *shops, int m, gs_pack *out)
{
	const gs_pack *pk = &f->b->packs[m];
	int *at = spot_index(f, m), rc = at ? 0 : -1;
	for (int i = 0; i < pk->n && rc == 0; i++) {
		const gs_pgpu *pg = &pk->gpus[i];
		const gs_spot *sp = at[i] >= 0 ? &f->v[at[i]] : NULL;
		gs_pgpu *np;
		if (sp && sp->gone)
			continue;
		np = gs_pack_add_gpu(out, pg->model, pg->strategy);
		if (!np) {
			rc = -1;
			break;
		}
		np->k = pg->k;
		np->mig_ts = pg->mig_ts;
		np->span = pg->span;
		for (int j = 0; j < pg->ng && rc == 0; j++)
			rc = gs_pgpu_add_group(np, &pg->g[j]);
		if (rc == 0 && sp && sp->touched) {
			np->strategy = gs_group_share(f->pl, pg->model, &pg->g[0]);
			np->k = pg->g[0].n;
		}
	}
	free(at);
	if (rc == 0)
		rc = gs_merge_dedicated(f->pl, &shops[m], out);
	return rc;
}

/* The plan of f->b refilled, bought; in out. */
static int refilled(const gs_filler *f, gs_shop *shops, gs_built *out)
{
	if (gs_built_init(f->pl, out) < 0)
		return -1;
	for (int m = 0; m < f->b->npacks; m++)
		if (rebuild(f, shops, m, &out->packs[m]) < 0)
			return -1;
	return gs_built_buy(f->pl, shops, out);
}

int gs_refill(const gs_planner *pl, gs_shop *shops, const gs_choice *c, gs_built *b)
{
	gs_filler f;
	gs_built out;
	gs_planner one = *pl;
	int rc, robust = pl->placement == GS_PLACEMENT_ROBUST;
	long least = (robust ? CHECKS_PER_WHOLE : CHECKS_PER_REPLICA) * (long)pl->nreps;

	memset(&f, 0, sizeof f);
	memset(&out, 0, sizeof out);
	/* Its rule checks only try places: the worst cases they refuse are
	 * not the plan's. */
	one.robust_bound = NULL;
	f.pl = &one;
	f.c = c;
	f.b = b;
	f.by_model = robust;
	f.look_past = robust;
	f.checks = least > CHECKS_LEAST ? least : CHECKS_LEAST;
	f.scans = f.checks * SCANS_PER_CHECK;
	rc = gs_mig_repack(pl, shops, b);
	if (rc == 0)
		rc = gs_spots_init(&f);
	if (rc == 0)
		rc = robust ? gs_refill_workloads(&f) : empty_all(&f);
	if (rc > 0 && (rc = refilled(&f, shops, &out)) == 0 && out.cost < b->cost &&
	    (!robust || (rc = gs_built_one_request(&one, &out)) == 1)) {
		out.left_out = b->left_out;
		out.left_out_cost = b->left_out_cost;
		gs_built_release(b);
		*b = out;
		memset(&out, 0, sizeof out);
	} else {
		gs_spot_put_back(&f, 0);
	}
	gs_built_release(&out);
	free(f.v);
	free(f.at);
	free(f.log);
	gs_room_free(&f);
	return rc < 0 ? -1 : 0;
}
