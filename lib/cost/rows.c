/*
 * rows.c - the rows of a chargeback: idle spread over the workloads (with
 * spread_idle), then the workloads added up per row: one row per
 * workload, namespace or team, sorted by name.
 *
 * Idle (what nobody holds, on the priced nodes) is spread over the
 * workloads in proportion to what they pay for what they hold, split
 * exactly like a node's price; each team thus carries idle in proportion
 * to its share of the held cost, however its rows are grouped.
 */
#include <stdlib.h>
#include <string.h>

#include "cost/cost.h"

static int spread(gs_chargeback *c)
{
	gs_micros idle = c->sum.idle_per_hour, *got;
	gs_wide held = 0, *w;
	int rc = 0;

	if (!c->sum.opts.spread_idle || idle == 0)
		return 0;
	for (size_t i = 0; i < c->n_wls; i++)
		held += c->wls[i].held;
	if (held == 0)
		return gs_cost_warn(c, "no pod holds a GPU of a priced node: idle stays idle");
	w = malloc(c->n_wls * sizeof *w);
	got = malloc(c->n_wls * sizeof *got);
	if (!w || !got)
		rc = gs_fail_nomem(c->err);
	for (size_t i = 0; rc == 0 && i < c->n_wls; i++)
		w[i] = c->wls[i].held;
	if (rc == 0 && gs_money_split(idle, w, c->n_wls, got) < 0)
		rc = gs_fail_nomem(c->err);
	for (size_t i = 0; rc == 0 && i < c->n_wls; i++)
		c->wls[i].idle = got[i];
	if (rc == 0) {
		c->sum.spread_per_hour = idle;
		c->sum.idle_per_hour = 0;
	}
	free(w);
	free(got);
	return rc;
}

/* ---- grouping ------------------------------------------------------------ */

typedef struct key {
	const cwl *w;
	const char *k[4]; /* the group's name first, then what orders within it */
} key;

static int by_key(const void *a, const void *b)
{
	const key *x = a, *y = b;
	for (int i = 0; i < 4; i++) {
		int d = strcmp(x->k[i], y->k[i]);
		if (d)
			return d;
	}
	return 0;
}

static void make_key(gs_cost_by by, const cwl *w, key *k)
{
	const char *ns = w->ns, *team = w->team, *owner = w->owner, *kind = w->kind;
	k->w = w;
	if (by == GS_COST_BY_TEAM) {
		const char *v[4] = { team, ns, owner, kind };
		memcpy(k->k, v, sizeof v);
	} else if (by == GS_COST_BY_NAMESPACE) {
		const char *v[4] = { ns, team, owner, kind };
		memcpy(k->k, v, sizeof v);
	} else {
		const char *v[4] = { ns, owner, kind, team };
		memcpy(k->k, v, sizeof v);
	}
}

/* Whether a and b fall in one row. */
static int same_row(gs_cost_by by, const key *a, const key *b)
{
	return by == GS_COST_BY_WORKLOAD ? a->w == b->w : strcmp(a->k[0], b->k[0]) == 0;
}

static int by_node_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The row of workloads k[0..n): names they share, sums, node names. */
static void make_row(gs_chargeback *c, gs_cost_by by, const key *k, size_t n,
                     gs_cost_row *r, const char **names, unsigned char *mark)
{
	int64_t weight = 0;
	*r = (gs_cost_row){ .namespace_ = k[0].w->ns, .team = k[0].w->team, .nodes = names };
	if (by == GS_COST_BY_WORKLOAD) {
		r->workload = k[0].w->owner;
		r->owner_kind = k[0].w->kind;
	}
	for (size_t i = 0; i < n; i++) {
		const cwl *w = k[i].w;
		if (r->namespace_ && strcmp(r->namespace_, w->ns) != 0)
			r->namespace_ = NULL;
		if (r->team && strcmp(r->team, w->team) != 0)
			r->team = NULL;
		r->pods += w->pods;
		r->pods_by_usage += w->pods_by_usage;
		weight += w->weight;
		r->held_per_hour += w->held;
		r->idle_per_hour += w->idle;
		for (size_t j = 0; j < w->n_nodes; j++)
			if (!mark[w->nodes[j]]) {
				mark[w->nodes[j]] = 1;
				names[r->n_nodes++] = c->nodes[w->nodes[j]].name;
			}
	}
	for (size_t i = 0; i < n; i++) /* unmarked for the next row */
		for (size_t j = 0; j < k[i].w->n_nodes; j++)
			mark[k[i].w->nodes[j]] = 0;
	r->gpu_share = gs_cost_millionths(weight);
	r->cost_per_hour = r->held_per_hour + r->idle_per_hour;
	qsort(names, r->n_nodes, sizeof *names, by_node_name);
}

/* The workloads with pods, as rows by `by`: *rows and the node names they
 * point into, *names, both the caller's to free. */
static int make_rows(gs_chargeback *c, gs_cost_by by, gs_cost_row **rows, size_t *n_rows,
                     const char ***names)
{
	size_t n = 0, pool = 0, used = 0;
	key *k = malloc((c->n_wls ? c->n_wls : 1) * sizeof *k);
	unsigned char *mark = calloc(c->n_nodes ? c->n_nodes : 1, 1);

	for (size_t i = 0; k && i < c->n_wls; i++) {
		pool += c->wls[i].n_nodes;
		if (c->wls[i].pods)
			make_key(by, &c->wls[i], &k[n++]);
	}
	*n_rows = 0;
	*rows = malloc((n ? n : 1) * sizeof **rows);
	*names = malloc((pool ? pool : 1) * sizeof **names);
	if (!k || !mark || !*rows || !*names) {
		free(k);
		free(mark);
		return gs_fail_nomem(c->err);
	}
	qsort(k, n, sizeof *k, by_key);
	for (size_t i = 0, j; i < n; i = j) {
		gs_cost_row *r = &(*rows)[(*n_rows)++];
		for (j = i + 1; j < n && same_row(by, &k[i], &k[j]); j++)
			;
		make_row(c, by, &k[i], j - i, r, *names + used, mark);
		used += r->n_nodes;
	}
	free(k);
	free(mark);
	return 0;
}

int gs_cost_rows(gs_chargeback *c)
{
	int rc = spread(c);
	if (rc == 0)
		rc = make_rows(c, c->sum.opts.by, &c->rows, &c->n_rows, &c->row_nodes);
	if (rc == 0)
		rc = make_rows(c, GS_COST_BY_TEAM, &c->teams, &c->n_teams, &c->team_nodes);
	for (size_t i = 0; rc == 0 && i < c->n_wls; i++) {
		c->sum.workloads += c->wls[i].pods > 0;
		c->sum.pods += c->wls[i].pods;
	}
	c->sum.teams = (int)c->n_teams;
	return rc;
}
