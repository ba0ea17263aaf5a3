/*
 * measure.c - the readings reduced: a percentile per GPU and per
 * workload (per replica), the idle GPUs of each node, what each workload
 * holds of its nodes today, and the values of the workload file. The
 * readings come from metrics.c, given to pods by share.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/prom.h"

/* ---- reducing ------------------------------------------------------------ */

static void measure_gpu(gs_inventory *inv, inode *n, int g)
{
	samples *m = &n->m[g * M_COUNT];
	gs_import_gpu *pg = &n->gpus[g];
	for (int k = M_SM; k <= M_UTIL && !pg->measured; k++) {
		if (!m[k].n)
			continue;
		pg->measured = 1;
		pg->metric = gs_import_metric_name(k);
		pg->compute_ppm = llround(gs_percentile(m[k].v, m[k].n, inv->percentile) * GS_PPM);
	}
	if (m[M_FB].n)
		pg->memory_mib = (int64_t)ceil(gs_percentile(m[M_FB].v, m[M_FB].n,
		                                             inv->percentile));
}

/* Idle GPUs. GPUs whose readings went to pods are allocated; of the
 * others, the requests take busy ones first, then unmeasured ones (the
 * benefit of the doubt), then quiet ones, which are allocated but idle. */
void gs_import_measure_node(gs_inventory *inv, inode *n)
{
	int owned = 0, owned_low = 0, busy = 0, unmeasured = 0, requested, rest, idle;
	int64_t c = n->pub.gpu_count;

	for (int g = 0; g < n->pub.gpu_count; g++) {
		const gs_import_gpu *pg = &n->gpus[g];
		int low;
		measure_gpu(inv, n, g);
		low = pg->measured && pg->compute_ppm < GS_IMPORT_IDLE_PPM;
		owned += pg->attributed;
		owned_low += pg->attributed && low;
		busy += !pg->attributed && pg->measured && !low;
		unmeasured += !pg->attributed && !pg->measured;
	}
	requested = (int)((n->pub.requested_ppm + GS_PPM - 1) / GS_PPM);
	if (requested < owned)
		requested = owned;
	if (requested > c)
		requested = (int)c;
	rest = requested - owned - busy - unmeasured;
	n->pub.idle_unrequested = (int)c - requested;
	n->pub.idle_low = owned_low + (rest > 0 ? rest : 0);
	idle = n->pub.idle_unrequested + n->pub.idle_low;
	if (n->pub.price_per_hour >= 0 && c > 0)
		n->pub.idle_per_month =
		    gs_div_round(n->pub.price_per_hour * idle * GS_HOURS_PER_MONTH, c);
	inv->sum.idle_gpus += idle;
	inv->sum.idle_per_month += n->pub.idle_per_month;
	inv->sum.gpus += (int)c;
	if (n->pub.price_per_hour > 0)
		inv->sum.cost_per_hour += n->pub.price_per_hour;
}

/* The percentile of field k over the samples of w's pods; 0 when none. */
static int wl_field(gs_inventory *inv, const iwl *w, int k, double *out)
{
	size_t total = 0, o = 0;
	double *v;
	for (size_t i = 0; i < w->n_pods; i++)
		total += inv->pods[w->pods[i]].m[k].n;
	if (!total)
		return 0;
	if (!(v = malloc(total * sizeof *v)))
		return gs_fail_nomem(inv->err);
	for (size_t i = 0; i < w->n_pods; i++) {
		const samples *s = &inv->pods[w->pods[i]].m[k];
		if (s->n)
			memcpy(v + o, s->v, s->n * sizeof *v);
		o += s->n;
	}
	*out = gs_percentile(v, total, inv->percentile);
	free(v);
	return 1;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* The candidate among the first 64 that most of the n items share. */
static size_t vote(const inode *nodes, const size_t *ix, size_t n, int by_instance)
{
	size_t best = 0, most = 0;
	for (size_t i = 0; i < n && i < 64; i++) {
		const gs_import_node *c = &nodes[ix[i]].pub;
		size_t votes = 0;
		for (size_t j = 0; j < n; j++)
			votes += by_instance ? nodes[ix[j]].pub.instance == c->instance
			                     : nodes[ix[j]].pub.gpu == c->gpu;
		if (votes > most) {
			most = votes;
			best = ix[i];
		}
	}
	return best;
}

/* The model and instance most of w's pods run on, and how many nodes. */
static int wl_placement(gs_inventory *inv, iwl *w)
{
	size_t *ix = malloc((w->n_pods ? w->n_pods : 1) * sizeof *ix), n = 0;
	if (!ix)
		return gs_fail_nomem(inv->err);
	for (size_t i = 0; i < w->n_pods; i++)
		if (inv->pods[w->pods[i]].node != GS_STRMAP_NONE)
			ix[n++] = inv->pods[w->pods[i]].node;
	qsort(ix, n, sizeof *ix, cmp_size);
	for (size_t i = 0; i < n; i++)
		w->pub.nodes += !i || ix[i] != ix[i - 1];
	if (n) {
		w->pub.gpu = inv->nodes[vote(inv->nodes, ix, n, 0)].pub.gpu;
		w->pub.instance = inv->nodes[vote(inv->nodes, ix, n, 1)].pub.instance;
	}
	for (size_t i = 0; i < n; i++)
		if (inv->nodes[ix[i]].pub.gpu != w->pub.gpu)
			w->pub.flags |= GS_IMPORT_MIXED_MODELS;
	free(ix);
	return 0;
}

/* What its pods hold of the nodes they run on today: the share of the
 * `current` instances (GPUs held over those instances' GPUs) and its
 * price (each node's price split by the GPUs its pods hold). */
static void wl_current(const gs_inventory *inv, iwl *w)
{
	gs_import_workload *pw = &w->pub;
	int64_t held = 0, of;

	pw->current_per_hour = 0;
	for (size_t i = 0; i < w->n_pods; i++) {
		const ipod *p = &inv->pods[w->pods[i]];
		const gs_import_node *n;
		if (p->node == GS_STRMAP_NONE)
			continue;
		n = &inv->nodes[p->node].pub;
		held += p->ppm;
		if (n->price_per_hour < 0 || pw->current_per_hour < 0)
			pw->current_per_hour = -1;
		else if (n->gpu_count > 0)
			pw->current_per_hour += gs_div_round(n->price_per_hour * p->ppm,
			                                     (int64_t)n->gpu_count * GS_PPM);
	}
	of = pw->instance ? (int64_t)pw->instance->gpu_count * pw->nodes * GS_PPM : 0;
	pw->current_ppm = !of || held >= of ? GS_PPM : gs_div_round(held * GS_PPM, of);
	if (pw->current_ppm < 1)
		pw->current_ppm = 1;
}

/* What the workload file will say. Memory: FB used up to the next 0.5 GiB
 * (at most the replica's share of a GPU whose readings were divided, so
 * the rounding never makes them outgrow it), never more than one replica
 * can hold (its GPU or MIG slice); without metrics, exactly what it keeps.
 * Compute: measured, up to the next 0.1% and at least 1%; kept, exactly
 * (1/8 of a GPU is 12.5%, so eight fit on one); at most 100%. */
static void file_values(iwl *w)
{
	gs_import_workload *pw = &w->pub;
	int64_t m = pw->memory_mib, c = pw->compute_ppm;

	if (pw->memory_measured) {
		int64_t up = ((m > 0 ? m : 1) + 511) / 512 * 512;
		if (w->round_mib && up > w->round_mib)
			up = w->round_mib > m ? w->round_mib : m;
		m = w->hard_mib && up > w->hard_mib ? w->hard_mib : up;
	}
	pw->gpu_memory_mib = m > 0 ? m : 512; /* nothing known: the least measured */
	if (pw->metric) {
		c = (c + 999) / 1000 * 1000;
		c = c < 10000 ? 10000 : c;
	}
	pw->file_compute_ppm = c < 1 ? 1 : c > GS_PPM ? GS_PPM : c;
	pw->compute_percent = (int)((pw->file_compute_ppm + 9999) / 10000);
}

int gs_import_measure_workload(gs_inventory *inv, iwl *w)
{
	gs_import_workload *pw = &w->pub;
	double x;
	int rc;

	for (size_t i = 0; i < w->n_pods; i++) {
		const ipod *p = &inv->pods[w->pods[i]];
		pw->pods++;
		pw->requested_ppm += p->ppm;
		pw->pods_measured += p->m[M_SM].n || p->m[M_GR].n || p->m[M_UTIL].n;
		if (!w->keep_ppm && p->keep_ppm) {
			w->keep_ppm = p->keep_ppm;
			w->keep_mib = p->keep_mib;
			w->hard_mib = p->hard_mib;
		}
		if (p->round_mib && (!w->round_mib || p->round_mib < w->round_mib))
			w->round_mib = p->round_mib;
	}
	if ((rc = gs_import_pod_replicas(inv, w)) < 0 || (rc = wl_placement(inv, w)) < 0)
		return rc;
	if (!pw->gpu)
		pw->flags |= GS_IMPORT_UNSCHEDULED;
	pw->flags |= !pw->pods_measured ? GS_IMPORT_NO_METRICS
	             : pw->pods_measured < pw->pods ? GS_IMPORT_PARTIAL : 0;
	for (int k = M_SM; k <= M_UTIL && !pw->metric; k++) {
		if ((rc = wl_field(inv, w, k, &x)) < 0)
			return rc;
		if (rc > 0) {
			pw->metric = gs_import_metric_name(k);
			pw->compute_ppm = llround(x * GS_PPM);
		}
	}
	if (!pw->metric)
		pw->compute_ppm = w->keep_ppm ? w->keep_ppm : GS_PPM;
	if ((rc = wl_field(inv, w, M_FB, &x)) < 0)
		return rc;
	pw->memory_measured = rc > 0;
	pw->memory_mib = rc > 0 ? (int64_t)ceil(x) : w->keep_mib;
	file_values(w);
	wl_current(inv, w);
	return 0;
}
