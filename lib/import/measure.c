/*
 * measure.c - the DCGM samples: each read as a reading of the physical GPU
 * it was taken on (by host and index), with the pod its labels name, or
 * as a MIG instance's; share.c then gives each GPU's readings to the pods
 * that hold it. Here they are reduced to a percentile per GPU and per
 * workload, and to the idle GPUs of each node.
 *
 * A sample without a timestamp (a scrape) is dated by its scrape: the
 * k-th sample of one series in one file is at instant k of that file, so
 * the series of one scrape are at one instant even when several scrapes
 * are appended to a file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/kube_list.h"
#include "import/prom.h"

static const char *const metric_names[M_COUNT] = {
	"DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
	"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED",
};

const char *gs_import_metric_name(int k) { return metric_names[k]; }

/* Bad lines of one file listed one by one; the rest only counted. */
#define BAD_LISTED 10

/* What reading one metrics source keeps: the scrape counts of its series
 * (open addressing on a 64-bit hash of name and labels) and its bad lines. */
typedef struct reader {
	gs_inventory *inv;
	const char *file;
	uint64_t *keys;
	size_t *seen, n, cap;
	size_t good, bad;
	gs_error first_bad;
} reader;

static int push(samples *s, double v)
{
	if (gs_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
		return -1;
	s->v[s->n++] = v;
	return 0;
}

static int push_reading(readings *r, double v, int64_t t, uint32_t pod)
{
	if (gs_grow(&r->r, &r->cap, r->n + 1, sizeof *r->r) < 0)
		return -1;
	r->r[r->n++] = (reading){ v, t, pod };
	return 0;
}

/* ---- instants --------------------------------------------------------------- */

static uint64_t mix(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return (h ^ 0xff) * UINT64_C(1099511628211);
}

static int seen_grow(reader *rd)
{
	size_t cap = rd->cap ? rd->cap * 2 : 256;
	uint64_t *k = calloc(cap, sizeof *k);
	size_t *s = calloc(cap, sizeof *s);
	if (!k || !s) {
		free(k);
		free(s);
		return -1;
	}
	for (size_t i = 0; i < rd->cap; i++) {
		size_t h;
		if (!rd->seen[i])
			continue;
		for (h = rd->keys[i] & (cap - 1); s[h]; h = (h + 1) & (cap - 1))
			;
		k[h] = rd->keys[i];
		s[h] = rd->seen[i];
	}
	free(rd->keys);
	free(rd->seen);
	rd->keys = k;
	rd->seen = s;
	rd->cap = cap;
	return 0;
}

/* The instant of a sample: its timestamp, else the negative of its
 * file's number and its series' count so far in the file. */
static int instant(reader *rd, const gs_prom_sample *s, int64_t *t)
{
	uint64_t h = mix(UINT64_C(1469598103934665603), s->name);
	size_t i;

	if (s->has_time) {
		*t = s->time_ms;
		return 0;
	}
	for (size_t l = 0; l < s->n_labels; l++)
		h = mix(mix(h, s->labels[l].name), s->labels[l].value);
	if ((rd->n + 1) * 2 > rd->cap && seen_grow(rd) < 0)
		return -1;
	for (i = h & (rd->cap - 1); rd->seen[i] && rd->keys[i] != h; i = (i + 1) & (rd->cap - 1))
		;
	if (!rd->seen[i]) {
		rd->keys[i] = h;
		rd->n++;
	}
	*t = -(int64_t)(((uint64_t)rd->inv->metrics_read << 32) + rd->seen[i]++) - 1;
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

/* The first of the labels that is present and not empty. Prometheus
 * renames the exporter's own pod labels to exported_* when its scrape
 * target has labels of the same name; those are the workload's. Old
 * exporters (--use-old-namespace) write pod_name and pod_namespace, and
 * 4.8.3 renamed Hostname to hostname. */
static const char *label_of(const gs_prom_sample *s, const char *const *names)
{
	for (; *names; names++) {
		const char *v = gs_prom_label_get(s, *names);
		if (v && *v)
			return v;
	}
	return NULL;
}

static const char *const pod_labels[] = { "exported_pod", "pod", "pod_name", NULL };
static const char *const ns_labels[] = { "exported_namespace", "namespace", "pod_namespace",
	                                     NULL };
static const char *const ctr_labels[] = { "exported_container", "container",
	                                      "container_name", NULL };
static const char *const host_labels[] = { "Hostname", "hostname", "node", "kubernetes_node",
	                                       NULL };

/* The counted pod the sample's labels name, or GS_NO_POD: a MIG pod only
 * by its instance's series, and only the containers that request GPUs. */
static uint32_t find_pod(const gs_inventory *inv, const gs_prom_sample *s, int mig)
{
	const char *pod = label_of(s, pod_labels), *ns = label_of(s, ns_labels);
	const char *ctr = label_of(s, ctr_labels);
	char key[GS_IMPORT_POD_KEY];
	const ipod *p;
	size_t pi, i;

	if (!pod || !ns)
		return GS_NO_POD;
	pi = gs_strmap_find(&inv->pod_ix, gs_import_pod_key(key, ns, pod));
	if (pi == GS_STRMAP_NONE)
		return GS_NO_POD;
	p = &inv->pods[pi];
	if (mig != (p->mig != NULL))
		return GS_NO_POD;
	for (i = 0; ctr && i < p->n_containers && strcmp(p->containers[i], ctr) != 0; i++)
		;
	return ctr && i == p->n_containers ? GS_NO_POD : (uint32_t)pi;
}

/* The node and GPU a sample was taken on: its host label, else its pod's
 * node; its gpu label, else GPU 0 of a node with one. */
static inode *find_gpu(gs_inventory *inv, const gs_prom_sample *s, uint32_t pod, int *g)
{
	const char *host = label_of(s, host_labels), *gpu = gs_prom_label_get(s, "gpu");
	size_t ni = host ? gs_strmap_find(&inv->node_ix, host)
	            : pod != GS_NO_POD ? inv->pods[pod].node : GS_STRMAP_NONE;
	int64_t x;
	inode *n;

	if (ni == GS_STRMAP_NONE)
		return NULL;
	n = &inv->nodes[ni];
	if (gpu ? gs_kube_digits(gpu, &x) < 0 || x >= n->pub.gpu_count : n->pub.gpu_count != 1)
		return NULL;
	*g = gpu ? (int)x : 0;
	return n;
}

/* A value the field cannot take is a data error: counted, then read as
 * the nearest it can. FB used has no upper bound here (share.c checks the
 * sums against the GPU's memory). */
static double checked(bad_values *b, int k, double v)
{
	if (v < 0) {
		b->under++;
		return 0;
	}
	if (k != M_FB && v > 1) {
		b->over++;
		b->max = v > b->max ? v : b->max;
		return 1;
	}
	return v;
}

static int add_once_int(int **a, size_t *n, size_t *cap, int x)
{
	for (size_t i = 0; i < *n; i++)
		if ((*a)[i] == x)
			return 0;
	if (gs_grow(a, cap, *n + 1, sizeof **a) < 0)
		return -1;
	(*a)[(*n)++] = x;
	return 0;
}

/* dcgm-exporter >= 4.5.3 with --kubernetes-virtual-gpus copies each GPU's
 * series once per replica a pod holds, with the replica in `vgpu`. */
static int note_vgpu(ipod *p, int g, const char *id)
{
	char *copy;
	for (size_t i = 0; i < p->n_vgpus; i++)
		if (p->vgpus[i].gpu == g && strcmp(p->vgpus[i].id, id) == 0)
			return 0;
	if (!(copy = gs_strdup(id)) ||
	    gs_grow(&p->vgpus, &p->cap_vgpus, p->n_vgpus + 1, sizeof *p->vgpus) < 0) {
		free(copy);
		return -1;
	}
	p->vgpus[p->n_vgpus++] = (pod_vgpu){ g, copy };
	return 0;
}

/* A physical GPU's sample: a reading of the GPU, with its pod when the pod
 * runs on that node. */
static int to_gpu(reader *rd, const gs_prom_sample *s, int k, double v, uint32_t pod)
{
	gs_inventory *inv = rd->inv;
	const char *vgpu = gs_prom_label_get(s, "vgpu");
	int64_t t;
	inode *n;
	int g = 0;

	if (!(n = find_gpu(inv, s, pod, &g)))
		return 0;
	if (pod != GS_NO_POD && inv->pods[pod].node != (size_t)(n - inv->nodes))
		pod = GS_NO_POD;
	v = checked(&n->bad[g * M_COUNT + k], k, v);
	if (instant(rd, s, &t) < 0 || push_reading(&n->raw[g * M_COUNT + k], v, t, pod) < 0)
		return -1;
	if (pod != GS_NO_POD) {
		ipod *p = &inv->pods[pod];
		if (add_once_int(&p->on_gpu, &p->n_on, &p->cap_on, g) < 0 ||
		    (vgpu && *vgpu && note_vgpu(p, g, vgpu) < 0))
			return -1;
	}
	return 1;
}

static mig_inst *mig_bucket(inode *n, int g, const char *id, const char *profile)
{
	mig_inst *m;
	for (size_t i = 0; i < n->n_migs; i++)
		if (n->migs[i].gpu == g && strcmp(n->migs[i].id, id) == 0 &&
		    strcmp(n->migs[i].profile, profile) == 0)
			return &n->migs[i];
	if (gs_grow(&n->migs, &n->cap_migs, n->n_migs + 1, sizeof *n->migs) < 0)
		return NULL;
	m = &n->migs[n->n_migs];
	memset(m, 0, sizeof *m);
	if (!(m->id = gs_strdup(id)) || !(m->profile = gs_strdup(profile))) {
		free(m->id);
		return NULL;
	}
	n->n_migs++;
	m->gpu = g;
	return m;
}

/* A MIG instance's sample: a reading of the instance, with its pod when
 * the pod runs on that node (share.c divides a time-sliced instance among
 * its pods, and scales it to the whole GPU). Without an instance to key
 * it by, it is its pod's own, scaled. */
static int to_mig(reader *rd, const gs_prom_sample *s, int k, double v, uint32_t pod)
{
	gs_inventory *inv = rd->inv;
	const char *gi = gs_prom_label_get(s, "GPU_I_PROFILE");
	const char *id = gs_prom_label_get(s, "GPU_I_ID");
	const char *vgpu = gs_prom_label_get(s, "vgpu");
	mig_inst *m;
	int64_t t;
	inode *n;
	int g = 0;

	if (!id || !(n = find_gpu(inv, s, pod, &g))) {
		ipod *p;
		if (pod == GS_NO_POD)
			return 0;
		p = &inv->pods[pod];
		v = checked(&p->bad[k], k, v);
		return push(&p->m[k], k == M_FB ? v : v * p->mig_scale) < 0 ? -1 : 1;
	}
	if (!(m = mig_bucket(n, g, id, gi)))
		return -1;
	if (pod != GS_NO_POD && inv->pods[pod].node != (size_t)(n - inv->nodes))
		pod = GS_NO_POD;
	v = checked(&n->bad[g * M_COUNT + k], k, v);
	if (instant(rd, s, &t) < 0 || push_reading(&m->raw[k], v, t, pod) < 0)
		return -1;
	if (pod != GS_NO_POD && vgpu && *vgpu &&
	    note_vgpu(&inv->pods[pod], GS_VGPU_MIG(m - n->migs), vgpu) < 0)
		return -1;
	return 1;
}

static int on_sample(const gs_prom_sample *s, void *ud)
{
	reader *rd = ud;
	gs_inventory *inv = rd->inv;
	int k = metric_kind(s->name), mig = gs_prom_label_get(s, "GPU_I_PROFILE") != NULL, a;
	double v = s->value;
	uint32_t pod;

	rd->good++;
	if (k < 0)
		return 0;
	inv->sum.samples++;
	if (isnan(v))
		return 0; /* no reading */
	if (k == M_UTIL)
		v /= 100; /* a percentage; the PROF fields are ratios */
	pod = find_pod(inv, s, mig);
	if (mig)
		a = to_mig(rd, s, k, v, pod);
	else if ((a = to_gpu(rd, s, k, v, pod)) == 0 && pod != GS_NO_POD) {
		/* No GPU known: the pod's own series. */
		ipod *p = &inv->pods[pod];
		a = push(&p->m[k], checked(&p->bad[k], k, v)) < 0 ? -1 : 1;
	}
	if (a < 0)
		return gs_fail_nomem(inv->err);
	inv->sum.unmatched += !a;
	return 0;
}

/* A line that does not parse: skipped with a warning, unless strict. */
static int on_bad(const gs_error *e, void *ud)
{
	reader *rd = ud;
	if (rd->inv->strict)
		return -1;
	if (!rd->bad++)
		rd->first_bad = *e;
	if (rd->bad > BAD_LISTED)
		return 0;
	return gs_import_warn(rd->inv, "%s:%lu:%lu: skipped a bad sample: %s", e->file,
	                      e->line, e->col, e->msg);
}

int gs_import_read_metrics(gs_inventory *inv, const gs_source *src)
{
	reader rd = { .inv = inv, .file = src->name };
	int rc = gs_prom_read_source_skip(src, on_sample, on_bad, &rd, inv->err);

	inv->metrics_read++;
	if (rc == 0 && rd.bad && !rd.good) {
		/* Nothing read: not a scrape at all, and the first bad line says so. */
		rc = gs_fail_at(inv->err, rd.first_bad.code, rd.first_bad.file, rd.first_bad.line,
		                rd.first_bad.col, "%.200s (no line of the file is a Prometheus "
		                "sample)", rd.first_bad.msg);
	} else if (rc == 0 && rd.bad) {
		inv->sum.bad_samples += rd.bad;
		rc = gs_import_warn(inv, "%s: skipped %zu bad sample%s%s", src->name, rd.bad,
		                    rd.bad == 1 ? "" : "s",
		                    rd.bad > BAD_LISTED ? " (the first ones are listed above)"
		                                        : "");
	}
	free(rd.keys);
	free(rd.seen);
	return rc;
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
		pw->replicas += p->units;
		pw->requested_ppm += p->ppm;
		pw->pods_measured += p->m[M_SM].n || p->m[M_GR].n || p->m[M_UTIL].n;
		pw->flags |= p->units > 1 ? GS_IMPORT_MULTI_GPU : 0;
		if (!w->keep_ppm && p->keep_ppm) {
			w->keep_ppm = p->keep_ppm;
			w->keep_mib = p->keep_mib;
			w->hard_mib = p->hard_mib;
		}
		if (p->round_mib && (!w->round_mib || p->round_mib < w->round_mib))
			w->round_mib = p->round_mib;
	}
	if ((rc = wl_placement(inv, w)) < 0)
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
	wl_current(inv, w);
	return 0;
}
