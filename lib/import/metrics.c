/*
 * metrics.c - the DCGM samples of a metrics source read as readings: each
 * of the physical GPU it was taken on (by host and index) or of its MIG
 * instance, with the pod its labels name; share.c gives them to the pods
 * that hold the GPU, measure.c reduces them. A line that does not parse
 * is skipped with a warning, unless strict.
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

const char *gs_import_metric_name(int k)
{
	return metric_names[k];
}

const char *gs_import_metric_field(size_t i)
{
	return i < M_COUNT ? metric_names[i] : NULL;
}

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
