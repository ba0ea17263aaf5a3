/*
 * decide_cost.c - the costs of the alternatives a reason names, priced the
 * way the planner priced them when it decided: the packer's own scores for
 * whole GPUs against MIG (a re-run of its packing with the probe set), and
 * the local search's measure for moving a workload to another model.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/decision.h"
#include "plan/planner.h"
#include "scenario/scenario.h"

int gs_decide_probe(gs_planner *pl, const gs_choice *c, int m, gs_mig_probe *out)
{
	int *reps, n, rc;
	gs_pack pk;
	memset(out, 0, sizeof *out);
	if (gs_reps_of_model(pl, c, m, &reps, &n) < 0)
		return -1;
	if (n == 0) {
		free(reps);
		return 0;
	}
	pl->probe = out;
	rc = gs_pack_model(pl, pl->models[m], reps, n, &pk);
	pl->probe = NULL;
	free(reps);
	if (rc == 0)
		gs_pack_release(&pk);
	return rc;
}

/* Half the local search's budget of re-packings (plan_choose.c,
 * improve): the reasons may not cost more than the search. */
static long budget_of(const gs_planner *pl)
{
	long budget = pl->nreps ? (pl->nreps <= 2000 ? 500000L : 150000L) / pl->nreps : 0;
	return budget > 500 ? 500 : budget;
}

/* What moving workload wi from its model to model m changes, against the
 * models' totals in base. */
static int move_delta(gs_planner *pl, gs_choice *c, const gs_total *base, size_t wi, int m,
                      gs_micros *delta)
{
	int from = c->model[wi], rc;
	gs_total tf, tt;
	c->model[wi] = m;
	rc = gs_choice_eval(pl, pl->shops, c, from, &tf);
	if (rc == 0)
		rc = gs_choice_eval(pl, pl->shops, c, m, &tt);
	c->model[wi] = from;
	if (rc == 0)
		*delta = tf.cost + tt.cost - base[from].cost - base[m].cost;
	return rc;
}

int gs_decide_alt_models(gs_planner *pl, gs_choice *c, int *alt, gs_micros *delta)
{
	gs_total *base = calloc((size_t)(pl->nmodels ? pl->nmodels : 1), sizeof *base);
	long budget = budget_of(pl) - pl->nmodels;
	int rc = base ? 0 : -1;

	for (size_t i = 0; i < pl->s->n; i++)
		alt[i] = -1;
	for (int m = 0; rc == 0 && budget > 0 && m < pl->nmodels; m++)
		rc = gs_choice_eval(pl, pl->shops, c, m, &base[m]);
	for (size_t i = 0; rc == 0 && i < pl->s->n; i++) {
		if ((budget -= 2L * (c->ncand[i] - 1)) < 0)
			break;
		for (int k = 0; rc == 0 && k < c->ncand[i]; k++) {
			int m = c->cands[i][k];
			gs_micros d = 0;
			if (m == c->model[i] || (rc = move_delta(pl, c, base, i, m, &d)) < 0)
				continue;
			if (alt[i] < 0 || d < delta[i]) {
				alt[i] = m;
				delta[i] = d;
			}
		}
	}
	free(base);
	return rc;
}
