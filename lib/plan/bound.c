/*
 * bound.c - the volume bound: no GPU holds more than its usable memory or
 * more than all of its compute (MIG instances included), and no GPU of a
 * model costs less than the model's cheapest price per GPU, so each sum of
 * the replicas' cheapest shares, by memory and apart by compute, is a
 * lower bound of every plan. The optimiser proves a tighter one where it
 * runs (opt.c); this one is for plans too large for it.
 */
#include "plan/planner.h"
#include "scenario/scenario.h"

/* Replica r's cheapest share of a GPU among its candidates: by memory
 * (mem) and by compute (comp), in micro-dollars times ppm. */
static void cheapest(const gs_planner *pl, const gs_choice *c, int r, gs_wide *mem,
                     gs_wide *comp)
{
	const gs_workload *w = pl->reps[r].w;
	int wi = pl->reps[r].wi;
	*mem = *comp = -1;
	for (int k = 0; k < c->ncand[wi]; k++) {
		int m = c->cands[wi][k];
		const gs_gpu *g = pl->models[m];
		gs_wide price = pl->gpu_price[m];
		gs_wide vm, vc;
		if (w->gpus_per_replica > 1) {
			vm = vc = price * w->gpus_per_replica * GS_PPM;
		} else {
			vm = price * w->memory_bytes * GS_PPM / gs_usable_bytes(g);
			vc = price * gs_workload_compute_on(w, g);
		}
		if (*mem < 0 || vm < *mem)
			*mem = vm;
		if (*comp < 0 || vc < *comp)
			*comp = vc;
	}
}

gs_micros gs_volume_bound(const gs_planner *pl, const gs_choice *c)
{
	gs_wide mem = 0, comp = 0;
	for (int r = 0; r < pl->nreps; r++) {
		gs_wide m, k;
		cheapest(pl, c, r, &m, &k);
		if (m < 0)
			return -1;
		mem += m;
		comp += k;
	}
	/* Rounded down: a bound may not exceed what it bounds. */
	return (gs_micros)((mem > comp ? mem : comp) / GS_PPM);
}
