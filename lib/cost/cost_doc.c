/*
 * cost_doc.c - a chargeback as data: the JSON/YAML document (its keys are
 * a contract: added to, never renamed) and the CSV of its rows. Dollars
 * are exact, written as the plan's document writes them (at least two
 * decimals, every decimal there is); GPU shares have six decimals.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cost/cost.h"
#include "doc/doc.h"

static const char *const by_names[] = { "workload", "namespace", "team" };
static const char *const basis_names[] = { "allocation", "usage" };
static const char *const mig_names[] = { "max", "memory", "compute" };

static gs_node *money(gs_micros m) { return gs_node_money(m, 2); }
static gs_node *share(int64_t millionths) { return gs_node_fixed(millionths, 1000000, 6); }

static gs_node *strings(const char *const *v, size_t n)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; i < n; i++)
		rc |= gs_node_push(seq, gs_node_str(v[i]));
	return gs_node_done(seq, rc);
}

static gs_node *row_node(const gs_cost_row *r)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "namespace", gs_node_str(r->namespace_));
	rc |= gs_node_put(m, "team", gs_node_str(r->team));
	rc |= gs_node_put(m, "workload", gs_node_str(r->workload));
	rc |= gs_node_put(m, "owner_kind", gs_node_str(r->owner_kind));
	rc |= gs_node_put(m, "nodes", strings(r->nodes, r->n_nodes));
	rc |= gs_node_put(m, "pods", gs_node_int(r->pods));
	rc |= gs_node_put(m, "pods_by_usage", gs_node_int(r->pods_by_usage));
	rc |= gs_node_put(m, "gpu_share", share(r->gpu_share));
	rc |= gs_node_put(m, "held_per_hour", money(r->held_per_hour));
	rc |= gs_node_put(m, "idle_per_hour", money(r->idle_per_hour));
	rc |= gs_node_put(m, "cost_per_hour", money(r->cost_per_hour));
	return gs_node_done(m, rc);
}

static gs_node *holder_node(const gs_cost_holder *h)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "namespace", gs_node_str(h->namespace_));
	rc |= gs_node_put(m, "pod", gs_node_str(h->pod));
	rc |= gs_node_put(m, "workload", gs_node_str(h->workload));
	rc |= gs_node_put(m, "owner_kind", gs_node_str(h->owner_kind));
	rc |= gs_node_put(m, "team", gs_node_str(h->team));
	rc |= gs_node_put(m, "gpu_share", share(h->gpu_share));
	rc |= gs_node_put(m, "cost_per_hour", money(h->cost_per_hour));
	rc |= gs_node_put(m, "basis", gs_node_str(basis_names[h->by_usage ? 1 : 0]));
	rc |= gs_node_put(m, "dra", gs_node_bool(h->dra));
	return gs_node_done(m, rc);
}

static gs_node *node_node(const gs_cost_node *n)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL), *hs = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0, priced = n->price_per_hour >= 0;
	rc |= gs_node_put(m, "name", gs_node_str(n->name));
	rc |= gs_node_put(m, "instance_type", gs_node_str(n->instance_type));
	rc |= gs_node_put(m, "gpu", gs_node_str(n->gpu->name));
	rc |= gs_node_put(m, "gpus", gs_node_int(n->gpu_count));
	rc |= gs_node_put(m, "sharing", gs_node_str(n->sharing));
	rc |= gs_node_put(m, "replicas", gs_node_int(n->replicas));
	rc |= gs_node_put(m, "price_per_hour",
	                  priced ? money(n->price_per_hour) : gs_node_str(NULL));
	rc |= gs_node_put(m, "held_gpus", share(n->held_share));
	rc |= gs_node_put(m, "held_per_hour", money(n->held_per_hour));
	rc |= gs_node_put(m, "idle_per_hour", money(n->idle_per_hour));
	rc |= gs_node_put(m, "holders", hs);
	for (size_t i = 0; !rc && i < n->n_holders; i++)
		rc |= gs_node_push(hs, holder_node(&n->holders[i]));
	return gs_node_done(m, rc);
}

static int summary(gs_node *m, const gs_chargeback_summary *s)
{
	int rc = 0;
	gs_micros h = s->hours_per_month;
	rc |= gs_node_put(m, "by", gs_node_str(by_names[s->opts.by]));
	rc |= gs_node_put(m, "basis", gs_node_str(basis_names[s->opts.basis]));
	rc |= gs_node_put(m, "mig_share", gs_node_str(mig_names[s->opts.mig_share]));
	rc |= gs_node_put(m, "gpu_weight_percent", gs_node_int(s->opts.gpu_weight_pct));
	rc |= gs_node_put(m, "spread_idle", gs_node_bool(s->opts.spread_idle));
	rc |= gs_node_put(m, "hours_per_month", gs_node_int(s->hours_per_month));
	rc |= gs_node_put(m, "total_per_hour", money(s->total_per_hour));
	rc |= gs_node_put(m, "held_per_hour", money(s->held_per_hour));
	rc |= gs_node_put(m, "idle_per_hour", money(s->idle_per_hour));
	rc |= gs_node_put(m, "spread_per_hour", money(s->spread_per_hour));
	rc |= gs_node_put(m, "total_per_month", money(s->total_per_hour * h));
	rc |= gs_node_put(m, "idle_per_month", money(s->idle_per_hour * h));
	rc |= gs_node_put(m, "gpus", gs_node_int(s->gpus));
	rc |= gs_node_put(m, "held_gpus", share(s->held_share));
	rc |= gs_node_put(m, "idle_gpus", share(s->idle_share));
	rc |= gs_node_put(m, "nodes_unpriced", gs_node_int(s->nodes_unpriced));
	rc |= gs_node_put(m, "pods", gs_node_int(s->pods));
	rc |= gs_node_put(m, "workloads", gs_node_int(s->workloads));
	return rc;
}

int gs_doc_chargeback(const gs_chargeback *c, gs_doc **out, gs_error *err)
{
	gs_node *root = gs_node_new(GS_NODE_MAP, NULL), *rows = gs_node_new(GS_NODE_SEQ, NULL);
	gs_node *nodes = gs_node_new(GS_NODE_SEQ, NULL), *warns = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = summary(root, &c->sum);
	/* The lists belong to root first, so a failure below frees them. */
	rc |= gs_node_put(root, "rows", rows);
	rc |= gs_node_put(root, "nodes", nodes);
	rc |= gs_node_put(root, "warnings", warns);
	for (size_t i = 0; !rc && i < c->n_rows; i++)
		rc |= gs_node_push(rows, row_node(&c->rows[i]));
	for (size_t i = 0; !rc && i < c->n_nodes; i++)
		rc |= gs_node_push(nodes, node_node(&c->nodes[i]));
	for (size_t i = 0; !rc && i < c->n_warnings; i++)
		rc |= gs_node_push(warns, gs_node_str(c->warnings[i]));
	return gs_doc_wrap(gs_node_done(root, rc), out, err);
}

/* ---- CSV ----------------------------------------------------------------- */

/* A field, quoted when it holds a comma, a quote or a line end (RFC
 * 4180), its quotes doubled; NULL is empty. */
static void field(gs_buf *b, const char *s, int last)
{
	if (s && strpbrk(s, ",\"\r\n")) {
		gs_buf_putc(b, '"');
		for (; *s; s++) {
			if (*s == '"')
				gs_buf_putc(b, '"');
			gs_buf_putc(b, *s);
		}
		gs_buf_putc(b, '"');
	} else if (s) {
		gs_buf_puts(b, s);
	}
	gs_buf_putc(b, last ? '\n' : ',');
}

/* Dollars as the document writes them. */
static void money_field(gs_buf *b, gs_micros m, int last)
{
	gs_node *n = money(m);
	field(b, n ? n->text : NULL, last);
	b->failed |= !n;
	gs_node_free(n);
}

static void share_field(gs_buf *b, int64_t millionths)
{
	gs_node *n = share(millionths);
	field(b, n ? n->text : NULL, 0);
	b->failed |= !n;
	gs_node_free(n);
}

static void nodes_field(gs_buf *b, const char *const *v, size_t n)
{
	gs_buf t = GS_BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		gs_buf_puts(&t, i ? ";" : "");
		gs_buf_puts(&t, v[i]);
	}
	field(b, n ? gs_buf_str(&t) : "", 0);
	b->failed |= t.failed;
	gs_buf_release(&t);
}

static void csv_row(gs_buf *b, const gs_cost_row *r)
{
	field(b, r->namespace_, 0);
	field(b, r->team, 0);
	field(b, r->workload, 0);
	field(b, r->owner_kind, 0);
	nodes_field(b, r->nodes, r->n_nodes);
	gs_buf_printf(b, "%d,%d,", r->pods, r->pods_by_usage);
	share_field(b, r->gpu_share);
	money_field(b, r->held_per_hour, 0);
	money_field(b, r->idle_per_hour, 0);
	money_field(b, r->cost_per_hour, 1);
}

/* The idle row: the priced nodes with idle capacity, and how much. */
static int idle_row(const gs_chargeback *c, gs_buf *b)
{
	const char **names = malloc((c->n_nodes ? c->n_nodes : 1) * sizeof *names);
	gs_cost_row r = { "__idle__", "__idle__", "__idle__", NULL, names, 0, 0, 0, 0, 0, 0, 0 };

	if (!names)
		return -1;
	for (size_t i = 0; i < c->n_nodes; i++)
		if (c->nodes[i].price_per_hour >= 0 && c->nodes[i].idle_per_hour > 0)
			names[r.n_nodes++] = c->nodes[i].name;
	r.gpu_share = c->sum.idle_share;
	r.idle_per_hour = r.cost_per_hour = c->sum.idle_per_hour;
	csv_row(b, &r);
	free(names);
	return 0;
}

int gs_chargeback_csv(const gs_chargeback *c, char **out, gs_error *err)
{
	gs_buf b = GS_BUF_INIT;
	gs_buf_puts(&b, "namespace,team,workload,owner_kind,nodes,pods,pods_by_usage,gpu_share,"
	                "held_per_hour,idle_per_hour,cost_per_hour\n");
	for (size_t i = 0; i < c->n_rows; i++)
		csv_row(&b, &c->rows[i]);
	if (idle_row(c, &b) < 0)
		b.failed = 1;
	return gs_buf_detach(&b, out, err);
}
