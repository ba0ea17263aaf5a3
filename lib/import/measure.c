/*
 * measure.c - the DCGM samples: each attributed to the pod (by the
 * exporter's pod labels) and to the GPU (by host and index) it was taken
 * on, then reduced to a percentile per GPU and per workload, and to the
 * idle GPUs of each node.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/kube_list.h"
#include "import/prom.h"

static const char *const metric_names[M_COUNT] = {
	"DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
	"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED",
};

const char *gs_import_metric_field(size_t i)
{
	return i < M_COUNT ? metric_names[i] : NULL;
}

static int push(samples *s, double v)
{
	if (gs_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
		return -1;
	s->v[s->n++] = v;
	return 0;
}

/* ---- attributing --------------------------------------------------------- */

static int metric_kind(const char *name)
{
	for (int k = 0; k < M_COUNT; k++)
		if (strcmp(name, metric_names[k]) == 0)
			return k;
	return -1;
}

/* A label's value, or when it is absent or empty the fallback label's. */
static const char *label2(const gs_prom_sample *s, const char *a, const char *b)
{
	const char *v = gs_prom_label_get(s, a);
	if ((!v || !*v) && b)
		v = gs_prom_label_get(s, b);
	return v && *v ? v : NULL;
}

/* Prometheus renames the exporter's own pod labels to exported_* when
 * its scrape target has labels of the same name; those are the workload's. */
static int to_pod(gs_inventory *inv, const gs_prom_sample *s, int k, double v)
{
	const char *pod = label2(s, "exported_pod", "pod");
	const char *ns = label2(s, "exported_namespace", "namespace");
	const char *ctr = label2(s, "exported_container", "container");
	const char *gi = gs_prom_label_get(s, "GPU_I_PROFILE");
	char key[GS_IMPORT_POD_KEY];
	size_t pi, i;
	ipod *p;

	if (!pod || !ns)
		return 0;
	pi = gs_strmap_find(&inv->pod_ix, gs_import_pod_key(key, ns, pod));
	if (pi == GS_STRMAP_NONE)
		return 0;
	p = &inv->pods[pi];
	/* A MIG pod's activity is its GPU instance's, not the whole GPU's. */
	if ((gi != NULL) != (p->mig != NULL))
		return 0;
	for (i = 0; ctr && i < p->n_containers && strcmp(p->containers[i], ctr) != 0; i++)
		;
	if (ctr && i == p->n_containers)
		return 0;
	if (gi && k != M_FB)
		v *= p->mig_scale;
	return push(&p->m[k], v) < 0 ? -1 : 1;
}

static int to_gpu(gs_inventory *inv, const gs_prom_sample *s, int k, double v,
                  int of_pod)
{
	const char *host = label2(s, "Hostname", "node");
	const char *gpu = gs_prom_label_get(s, "gpu");
	int64_t g;
	size_t ni;
	inode *n;

	if (!host)
		host = label2(s, "kubernetes_node", NULL);
	if (!host || !gpu || gs_prom_label_get(s, "GPU_I_PROFILE") ||
	    (ni = gs_strmap_find(&inv->node_ix, host)) == GS_STRMAP_NONE)
		return 0;
	n = &inv->nodes[ni];
	if (gs_kube_digits(gpu, &g) < 0 || g >= n->pub.gpu_count)
		return 0;
	n->gpus[g].attributed |= of_pod;
	return push(&n->m[g * M_COUNT + k], v) < 0 ? -1 : 1;
}

static int on_sample(const gs_prom_sample *s, void *ud)
{
	gs_inventory *inv = ud;
	int k = metric_kind(s->name), a, b;
	double v = s->value;

	if (k < 0)
		return 0;
	inv->sum.samples++;
	if (isnan(v))
		return 0; /* no reading */
	if (k == M_UTIL)
		v /= 100; /* a percentage; the PROF fields are ratios */
	if (v < 0)
		v = 0;
	if (k != M_FB && v > 1)
		v = 1;
	if ((a = to_pod(inv, s, k, v)) < 0 || (b = to_gpu(inv, s, k, v, a)) < 0)
		return gs_fail_nomem(inv->err);
	inv->sum.unmatched += !a && !b;
	return 0;
}

int gs_import_read_metrics(gs_inventory *inv, const gs_source *src)
{
	return gs_prom_read_source(src, on_sample, inv, inv->err);
}

/* ---- reducing ------------------------------------------------------------ */

static void measure_gpu(gs_inventory *inv, inode *n, int g)
{
	samples *m = &n->m[g * M_COUNT];
	gs_import_gpu *pg = &n->gpus[g];
	for (int k = M_SM; k <= M_UTIL && !pg->measured; k++) {
		if (!m[k].n)
			continue;
		pg->measured = 1;
		pg->metric = metric_names[k];
		pg->compute_ppm = llround(gs_percentile(m[k].v, m[k].n, inv->percentile) * GS_PPM);
	}
	if (m[M_FB].n)
		pg->memory_mib = (int64_t)ceil(gs_percentile(m[M_FB].v, m[M_FB].n,
		                                             inv->percentile));
}

/* Idle GPUs. GPUs that pods' samples name are allocated; of the others,
 * the requests take busy ones first, then unmeasured ones (the benefit
 * of the doubt), then quiet ones, which are allocated but idle. */
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

/* What the workload file will say: FB used up to the next 0.5 GiB, no more
 * than its GPU (or MIG slice) holds; compute up to a whole percent. */
static void file_values(iwl *w)
{
	gs_import_workload *pw = &w->pub;
	int64_t mib = pw->memory_measured ? (pw->memory_mib + 511) / 512 * 512 : pw->memory_mib;
	int pct = (int)((pw->compute_ppm + 9999) / 10000);
	if (w->keep_mib && mib > w->keep_mib)
		mib = w->keep_mib;
	pw->gpu_memory_mib = mib < 512 ? 512 : mib;
	pw->compute_percent = pct < 1 ? 1 : pct > 100 ? 100 : pct;
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
		}
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
			pw->metric = metric_names[k];
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
	return 0;
}
