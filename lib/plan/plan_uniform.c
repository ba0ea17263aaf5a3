/*
 * plan_uniform.c - one request per workload. The pods of one object share
 * one template, which requests one resource: a whole GPU (nvidia.com/gpu,
 * dedicated, time-sliced or MPS alike) or one MIG profile. A packing that
 * gives a workload's replicas MIG slices of several profiles, or slices
 * and whole GPUs, cannot be applied without copies of its object; such a
 * workload is planned again on whole GPUs only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

/* What each replica requests: NULL for a whole GPU, else its profile's
 * name (profiles of different models with one name are one resource). */
static void note_requests(const gs_planner *pl, const gs_built *b,
                          const char **req, char *seen)
{
	for (int m = 0; m < b->npacks; m++)
		for (int i = 0; i < b->packs[m].n; i++) {
			const gs_pgpu *g = &b->packs[m].gpus[i];
			for (int k = 0; k < g->ng; k++)
				for (int j = 0; j < g->g[k].n; j++) {
					int r = g->g[k].reps[j];
					/* (A whole GPU's group may keep the profile it
					 * was priced with.) */
					const char *name =
					    g->strategy == GS_STRATEGY_MIG
					        ? g->g[k].prof->name
					        : NULL;
					int wi = pl->reps[r].wi;
					if (!seen[wi]) {
						seen[wi] = 1;
						req[wi] = name;
					} else if (seen[wi] == 1 &&
					           (!req[wi] != !name ||
					            (name &&
					             strcmp(req[wi], name) !=
					                 0))) {
						seen[wi] = 2;
					}
				}
		}
}

int gs_plan_uniform(gs_planner *pl, const gs_built *b)
{
	size_t n = pl->s->n;
	const char **req = calloc(n ? n : 1, sizeof *req);
	char *seen = calloc(n ? n : 1, 1);
	int marked = 0;
	if (!req || !seen) {
		free(req);
		free(seen);
		return -1;
	}
	note_requests(pl, b, req, seen);
	for (int r = 0; r < pl->nreps; r++)
		if (seen[pl->reps[r].wi] == 2 && !pl->reps[r].no_mig) {
			pl->reps[r].no_mig = 1;
			marked++;
		}
	free(req);
	free(seen);
	return marked;
}

int gs_plan_uniform_note(gs_plan *p, const gs_planner *pl)
{
	char names[200] = "";
	size_t len = 0;
	int n = 0, last = -1;
	for (int r = 0; r < pl->nreps; r++) {
		if (!pl->reps[r].no_mig || pl->reps[r].wi == last)
			continue;
		last = pl->reps[r].wi;
		if (n++ < 3 && len < sizeof names)
			len += (size_t)snprintf(names + len, sizeof names - len,
			                        "%s%s", n > 1 ? ", " : "",
			                        pl->reps[r].w->name);
	}
	if (n == 0)
		return 0;
	return gs_plan_warn(
	    p,
	    "%d workload%s (%s%s) %s to whole GPUs: MIG for some "
	    "of %s replicas would need a second object, as one "
	    "object's pods request one resource; placement: pinned "
	    "with --manifests makes copies instead",
	    n, n == 1 ? "" : "s", names, n > 3 ? ", ..." : "",
	    n == 1 ? "keeps" : "keep", n == 1 ? "its" : "their");
}
