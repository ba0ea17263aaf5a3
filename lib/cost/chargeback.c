/*
 * chargeback.c - who pays for which GPU: each GPU node's price split over
 * the pods that hold it (weights.c says how much each holds) and idle,
 * exactly (gs_money_split, in lib/base); then the pods' costs added up per
 * workload, and the rows made (rows.c). Accessors and release.
 *
 * A node's price P is split once, over its holders and idle, with the
 * weights that give each its exact share: of the GPU part (gpu_weight_pct
 * of P) what it holds of the node's GPUs, T; of the host part (the rest)
 * what it holds of what all its holders hold, H. Holder i's weight is
 * w_i (pct H + (100 - pct) T), idle's pct (T - H) H, all over 100 T H; a
 * node that nobody holds anything of is idle whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"
#include "cost/cost.h"

static int check_opts(const gs_chargeback_opts *o, gs_error *err)
{
	int rc = gs_check_version(o->version, GS_CHARGEBACK_OPTS_VERSION, "gs_chargeback_opts",
	                          err);
	if (rc < 0)
		return rc;
	if ((unsigned)o->basis > GS_COST_USAGE || (unsigned)o->mig_share > GS_COST_MIG_COMPUTE ||
	    (unsigned)o->by > GS_COST_BY_TEAM)
		return gs_fail(err, GS_EINVAL, "unknown chargeback basis, MIG rule or grouping");
	if (o->gpu_weight_pct < 0 || o->gpu_weight_pct > 100)
		return gs_fail(err, GS_EINVAL, "the GPUs' weight must be from 0 to 100%%, not %d%%",
		               o->gpu_weight_pct);
	return 0;
}

/* ---- workloads ----------------------------------------------------------- */

/* The workload of pod p: its namespace, its owner's kind and name. */
static int wl_of(gs_chargeback *c, gs_strmap *ix, const gs_hold_pod *p, size_t *out)
{
	size_t len = strlen(p->ns) + strlen(p->kind) + strlen(p->owner) + 3, w;
	char *key = malloc(len);
	int rc = 0;

	if (!key)
		return gs_fail_nomem(c->err);
	snprintf(key, len, "%s\n%s\n%s", p->ns, p->kind, p->owner);
	if ((w = gs_strmap_find(ix, key)) == GS_STRMAP_NONE) {
		w = c->n_wls;
		if (gs_grow(&c->wls, &c->cap_wls, w + 1, sizeof *c->wls) < 0 ||
		    gs_strmap_put(ix, key, w) < 0)
			rc = gs_fail_nomem(c->err);
		else
			c->wls[c->n_wls++] = (cwl){ .ns = p->ns, .kind = p->kind, .owner = p->owner,
				                        .team = p->team };
	}
	free(key);
	*out = w;
	return rc;
}

/* Every pod and the workload it belongs to. */
static int workloads(gs_chargeback *c)
{
	size_t np = gs_hold_pod_count(c->inv);
	gs_strmap ix = GS_STRMAP_INIT;
	int rc = 0;

	c->pods = calloc(np ? np : 1, sizeof *c->pods);
	c->pod_wl = calloc(np ? np : 1, sizeof *c->pod_wl);
	if (!c->pods || !c->pod_wl)
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < np && rc == 0; i++) {
		gs_hold_pod_at(c->inv, i, &c->pods[i]);
		rc = wl_of(c, &ix, &c->pods[i], &c->pod_wl[i]);
	}
	gs_strmap_release(&ix);
	return rc;
}

static int wl_add_node(gs_chargeback *c, cwl *w, size_t ni)
{
	for (size_t i = 0; i < w->n_nodes; i++)
		if (w->nodes[i] == ni)
			return 0;
	if (gs_grow(&w->nodes, &w->cap_nodes, w->n_nodes + 1, sizeof *w->nodes) < 0)
		return gs_fail_nomem(c->err);
	w->nodes[w->n_nodes++] = ni;
	return 0;
}

/* ---- nodes --------------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
	const gs_hold_pod *x = ((const cholder *)a)->p, *y = ((const cholder *)b)->p;
	int d = strcmp(x->ns, y->ns);
	return d ? d : strcmp(x->name, y->name);
}

/* The money of node ni: got[0..n) its holders', got[n] idle's. */
static int split_node(gs_chargeback *c, const gs_import_node *in, const cholder *h,
                      size_t n, gs_micros *got)
{
	int64_t pct = c->sum.opts.gpu_weight_pct;
	gs_wide total = (gs_wide)in->gpu_count * GS_COST_UNIT, held = 0;
	gs_wide *w;
	int rc;

	for (size_t i = 0; i < n; i++)
		held += h[i].weight;
	memset(got, 0, (n + 1) * sizeof *got);
	if (in->price_per_hour < 0)
		return 0;
	if (held == 0 || total == 0) {
		got[n] = in->price_per_hour;
		return 0;
	}
	if (!(w = malloc((n + 1) * sizeof *w)))
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < n; i++)
		w[i] = h[i].weight * (pct * held + (100 - pct) * total);
	w[n] = pct * (total - held) * held;
	rc = gs_money_split(in->price_per_hour, w, n + 1, got) < 0 ? gs_fail_nomem(c->err) : 0;
	free(w);
	return rc;
}

/* Holder i of node ni: its record, and what it adds to its workload. */
static int add_holder(gs_chargeback *c, size_t ni, const cholder *h, gs_micros got,
                      unsigned char *seen)
{
	const gs_hold_pod *p = &c->pods[h->pod];
	cwl *w = &c->wls[c->pod_wl[h->pod]];
	gs_cost_holder *r;

	if (gs_grow(&c->holders, &c->cap_holders, c->n_holders + 1, sizeof *c->holders) < 0)
		return gs_fail_nomem(c->err);
	r = &c->holders[c->n_holders++];
	*r = (gs_cost_holder){ p->ns, p->name, p->owner, p->kind, p->team,
		                   gs_cost_millionths(h->weight), got, h->by_usage, h->dra };
	w->weight += h->weight;
	w->held += got;
	if (!seen[h->pod]) {
		seen[h->pod] = 1;
		w->pods++;
		w->pods_by_usage += h->by_usage;
	}
	return wl_add_node(c, w, ni);
}

static int one_node(gs_chargeback *c, size_t ni, cholder *h, size_t n, unsigned char *seen)
{
	const gs_import_node *in = gs_import_node_at(c->inv, ni);
	gs_cost_node *cn = &c->nodes[ni];
	gs_micros *got = malloc((n + 1) * sizeof *got);
	int64_t held = 0;
	int rc;

	if (!got)
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < n; i++)
		h[i].p = &c->pods[h[i].pod];
	qsort(h, n, sizeof *h, by_name);
	rc = split_node(c, in, h, n, got);
	*cn = (gs_cost_node){ in->name, in->instance_type, in->gpu, in->gpu_count, in->sharing,
		                  in->replicas, in->price_per_hour, 0, 0, got[n], NULL, n };
	for (size_t i = 0; i < n && rc == 0; i++) {
		held += h[i].weight;
		cn->held_per_hour += got[i];
		rc = add_holder(c, ni, &h[i], got[i], seen);
	}
	cn->held_share = gs_cost_millionths(held);
	c->sum.gpus += in->gpu_count;
	if (rc == 0 && in->price_per_hour < 0) {
		c->sum.nodes_unpriced++;
		rc = gs_cost_warn(c, "node '%s' has no known price: left out of the totals, and "
		                  "its %zu pod%s pay nothing for it", in->name, n,
		                  n == 1 ? "" : "s");
	} else if (rc == 0) {
		c->sum.total_per_hour += in->price_per_hour;
		c->sum.held_per_hour += cn->held_per_hour;
		c->sum.idle_per_hour += cn->idle_per_hour;
		c->sum.held_share += cn->held_share;
		c->sum.idle_share += (int64_t)in->gpu_count * 1000000 - cn->held_share;
	}
	free(got);
	return rc;
}

/* The holds of each node, in the order recorded: ix[start[i]..start[i+1]). */
static int bucket(gs_chargeback *c, size_t nn, size_t **start, size_t **ix)
{
	size_t nh = gs_hold_count(c->inv), *pos = calloc(nn ? nn : 1, sizeof *pos);
	*start = calloc(nn + 1, sizeof **start);
	*ix = malloc((nh ? nh : 1) * sizeof **ix);
	if (!pos || !*start || !*ix) {
		free(pos);
		return gs_fail_nomem(c->err);
	}
	for (size_t i = 0; i < nh; i++)
		(*start)[gs_hold_at(c->inv, i)->node + 1]++;
	for (size_t i = 0; i < nn; i++)
		(*start)[i + 1] += (*start)[i];
	for (size_t i = 0; i < nn; i++)
		pos[i] = (*start)[i];
	for (size_t i = 0; i < nh; i++)
		(*ix)[pos[gs_hold_at(c->inv, i)->node]++] = i;
	free(pos);
	return 0;
}

static int nodes(gs_chargeback *c)
{
	size_t nn = gs_import_node_count(c->inv), *start = NULL, *ix = NULL;
	unsigned char *seen = calloc(gs_hold_pod_count(c->inv) + 1, 1);
	int rc = seen && (c->nodes = calloc(nn ? nn : 1, sizeof *c->nodes))
	                 ? bucket(c, nn, &start, &ix) : gs_fail_nomem(c->err);

	c->n_nodes = nn;
	for (size_t i = 0; rc == 0 && i < nn; i++) {
		cholder *h = NULL;
		size_t n = 0;
		if ((rc = gs_cost_weigh(c, i, ix + start[i], start[i + 1] - start[i], &h, &n)) == 0)
			rc = one_node(c, i, h, n, seen);
		free(h);
	}
	/* The holders array has stopped growing: point the nodes into it. */
	for (size_t i = 0, at = 0; rc == 0 && i < nn; at += c->nodes[i++].n_holders)
		c->nodes[i].holders = c->holders + at;
	c->sum.nodes = (int)nn;
	free(start);
	free(ix);
	free(seen);
	return rc;
}

/* ---- the chargeback ------------------------------------------------------ */

int gs_chargeback_make(const gs_inventory *inv, const gs_chargeback_opts *opts,
                       gs_chargeback **out, gs_error *err)
{
	gs_chargeback *c;
	int rc;

	if (!inv || !opts || !out)
		return gs_fail(err, GS_EINVAL, "an inventory, options and an output are required");
	if ((rc = check_opts(opts, err)) < 0)
		return rc;
	if (!(c = calloc(1, sizeof *c)))
		return gs_fail_nomem(err);
	c->inv = inv;
	c->err = err;
	c->sum.opts = *opts;
	c->sum.hours_per_month = GS_HOURS_PER_MONTH;
	for (size_t i = 0; i < gs_import_warning_count(inv) && rc == 0; i++)
		rc = gs_cost_warn(c, "%s", gs_import_warning_at(inv, i));
	if (rc == 0 && (rc = workloads(c)) == 0 && (rc = nodes(c)) == 0)
		rc = gs_cost_rows(c);
	c->err = NULL;
	if (rc < 0) {
		gs_chargeback_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

void gs_chargeback_free(gs_chargeback *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_wls; i++)
		free(c->wls[i].nodes);
	for (size_t i = 0; i < c->n_warnings; i++)
		free(c->warnings[i]);
	free(c->wls);
	free(c->pods);
	free(c->pod_wl);
	free(c->nodes);
	free(c->holders);
	free(c->rows);
	free(c->row_nodes);
	free(c->teams);
	free(c->team_nodes);
	free(c->warnings);
	free(c);
}

const gs_chargeback_summary *gs_chargeback_summary_get(const gs_chargeback *c)
{
	return &c->sum;
}

size_t gs_chargeback_row_count(const gs_chargeback *c) { return c->n_rows; }

const gs_cost_row *gs_chargeback_row_at(const gs_chargeback *c, size_t i)
{
	return i < c->n_rows ? &c->rows[i] : NULL;
}

size_t gs_chargeback_team_count(const gs_chargeback *c) { return c->n_teams; }

const gs_cost_row *gs_chargeback_team_at(const gs_chargeback *c, size_t i)
{
	return i < c->n_teams ? &c->teams[i] : NULL;
}

size_t gs_chargeback_node_count(const gs_chargeback *c) { return c->n_nodes; }

const gs_cost_node *gs_chargeback_node_at(const gs_chargeback *c, size_t i)
{
	return i < c->n_nodes ? &c->nodes[i] : NULL;
}

size_t gs_chargeback_warning_count(const gs_chargeback *c) { return c->n_warnings; }

const char *gs_chargeback_warning_at(const gs_chargeback *c, size_t i)
{
	return i < c->n_warnings ? c->warnings[i] : NULL;
}
