/*
 * share.c - a GPU's readings to the pods that hold it. DCGM measures a
 * physical GPU, not the pods on it: under time-slicing and MPS every
 * pod's series of the GPU is the whole GPU's (dcgm-exporter copies the
 * series once per pod, and with --kubernetes-virtual-gpus, >= 4.5.3, once
 * per replica with the replica's number in a `vgpu` label; NVML has no
 * per-pod activity, dcgm-exporter#642). So:
 *
 * - The pods that hold a GPU are those whose series name it, and on a node
 *   with one GPU every pod of the node. Their replicas of it: the vgpu
 *   labels their series carry, else what they request.
 * - Where two series of a GPU differ at one instant they are each pod's
 *   own (the per-process values some exporters give): each pod keeps its
 *   own, scaled down at an instant where they add up to more than the
 *   device read. Otherwise they are the GPU's, and its readings are
 *   divided among its pods by the replicas each holds, with a warning
 *   saying so: never the whole GPU's activity to each of them.
 * - A GPU only one pod holds is that pod's, series without pod labels
 *   included (the only pod on an L4 is what makes it busy or idle).
 * - What a GPU's pods add up to (p95 each, and what those without
 *   readings keep) never goes above the GPU: above 100 % of its compute or
 *   its memory is a data error, said with the figures and scaled down.
 * - A MIG instance is divided among the pods that hold it the same way
 *   (a time-sliced slice, vgpu labels included), its compute scaled to the
 *   whole GPU; one whose series name no pod is the pod's that alone asks
 *   for that profile on the node.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/prom.h"

typedef struct holder {
	uint32_t pod;
	double w;       /* replicas it holds of the GPU */
	int labelled;   /* its series name the GPU */
} holder;

/* What dividing one GPU found, for its warning. */
typedef struct split {
	unsigned even, own;      /* fields divided evenly, fields per pod */
	int vgpu;                /* the replicas came from vgpu labels */
	int mig;                 /* a MIG instance, not a GPU */
	double w;                /* replicas its pods hold */
	/* Per field: instants where the pods' own readings add up to more than
	 * the device's, and the largest such sum with the device's reading. */
	size_t over[M_COUNT];
	double over_sum[M_COUNT], over_dev[M_COUNT];
} split;

static int push(samples *s, double v)
{
	if (gs_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
		return -1;
	s->v[s->n++] = v;
	return 0;
}

/* The percentile of s without reordering it; 0 when empty, -1 out of
 * memory. */
static int pct_of(const samples *s, int pct, double *out)
{
	double *v;
	if (!s->n)
		return 0;
	if (!(v = malloc(s->n * sizeof *v)))
		return -1;
	memcpy(v, s->v, s->n * sizeof *v);
	*out = gs_percentile(v, s->n, pct);
	free(v);
	return 1;
}

static int cmp_reading(const void *a, const void *b)
{
	const reading *x = a, *y = b;
	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	return (x->pod > y->pod) - (x->pod < y->pod);
}

/* Whether two series of the GPU differ at one instant (r sorted). */
static int differ(const readings *r)
{
	for (size_t i = 1; i < r->n; i++)
		if (r->r[i].t == r->r[i - 1].t && r->r[i].pod != r->r[i - 1].pod &&
		    fabs(r->r[i].v - r->r[i - 1].v) > 1e-9 * (1 + fabs(r->r[i].v)))
			return 1;
	return 0;
}

/* The GPU's own activity, one value per instant: the series without pod
 * labels where there is one, else the pods' (their sum when each is a
 * pod's own). */
static int gpu_series(const readings *r, int own, int k, samples *out)
{
	for (size_t i = 0, j; i < r->n; i = j) {
		double v = r->r[i].v, sum = 0;
		int bare = 0;
		for (j = i; j < r->n && r->r[j].t == r->r[i].t; j++) {
			sum += r->r[j].v;
			if (r->r[j].pod == GS_NO_POD && !bare) {
				bare = 1;
				v = r->r[j].v;
			}
		}
		if (own && !bare)
			v = k != M_FB && sum > 1 ? 1 : sum;
		if (push(out, v) < 0)
			return -1;
	}
	return 0;
}

static const holder *find_holder(const holder *h, size_t n, uint32_t pod)
{
	for (size_t i = 0; i < n; i++)
		if (h[i].pod == pod)
			return &h[i];
	return NULL;
}

/* A value of field k as pod p's samples keep it: a MIG instance's
 * compute as a share of the whole GPU. */
static double unit_scale(const ipod *p, int k)
{
	return p->mig && k != M_FB ? p->mig_scale : 1;
}

/* Each pod's own readings (r sorted by instant), split over the replicas
 * it holds; at an instant where the device's own reading is less than the
 * pods' sum, their parts of it: pods never hold more than it measured. */
static int share_own(gs_inventory *inv, const readings *r, int k, const holder *h,
                     size_t nh, split *sp)
{
	for (size_t i = 0, j; i < r->n; i = j) {
		double sum = 0, bare = -1, f = 1;
		for (j = i; j < r->n && r->r[j].t == r->r[i].t; j++) {
			if (r->r[j].pod == GS_NO_POD && bare < 0)
				bare = r->r[j].v;
			else if (find_holder(h, nh, r->r[j].pod))
				sum += r->r[j].v;
		}
		if (bare >= 0 && sum > bare * (1 + 1e-9)) {
			f = bare / sum;
			if (!sp->over[k]++ || sum > sp->over_sum[k]) {
				sp->over_sum[k] = sum;
				sp->over_dev[k] = bare;
			}
		}
		for (size_t x = i; x < j; x++) {
			const holder *o = find_holder(h, nh, r->r[x].pod);
			ipod *p = o ? &inv->pods[o->pod] : NULL;
			if (p && push(&p->m[k], r->r[x].v * f / o->w * unit_scale(p, k)) < 0)
				return -1;
		}
	}
	return 0;
}

/* Field k's readings r of one GPU or MIG instance: to its own series gm
 * (one value per instant), and to its holders. */
static int share_readings(gs_inventory *inv, readings *r, int k, samples *gm,
                          const holder *h, size_t nh, split *sp)
{
	int own;

	if (!r->n)
		return 0;
	qsort(r->r, r->n, sizeof *r->r, cmp_reading);
	own = nh > 0 && differ(r);
	if (gpu_series(r, own, k, gm) < 0)
		return -1;
	if (!nh)
		return 0;
	/* A pod's samples are per replica (a workload's replicas are its pods'
	 * units): a pod's own value is split over the replicas it holds. */
	if (own) {
		sp->own |= 1u << k;
		return share_own(inv, r, k, h, nh, sp);
	}
	if (nh > 1)
		sp->even |= 1u << k;
	for (size_t i = 0; i < nh; i++) {
		ipod *p = &inv->pods[h[i].pod];
		double f = unit_scale(p, k) / sp->w;
		for (size_t j = 0; j < gm->n; j++)
			if (push(&p->m[k], gm->v[j] * f) < 0)
				return -1;
	}
	return 0;
}

/* Says how a GPU's readings were divided when the data could not tell
 * its pods apart, with the GPU's figures and what each replica got. */
static int warn_even(gs_inventory *inv, const char *where, const samples *m, const split *sp,
                     size_t nh)
{
	char fields[160] = "", gpu[80] = "", per[80] = "";
	size_t o = 0;
	int shown = 0, rc;
	double x;

	for (int k = 0; k < M_COUNT; k++) {
		if (!(sp->even & (1u << k)))
			continue;
		o += (size_t)snprintf(fields + o, sizeof fields - o, "%s%s", o ? ", " : "",
		                      gs_import_metric_name(k));
		if ((k < M_FB && shown) || (rc = pct_of(&m[k], inv->percentile, &x)) == 0)
			continue;
		if (rc < 0)
			return -1;
		shown |= k < M_FB;
		if (k == M_FB) {
			snprintf(gpu + strlen(gpu), sizeof gpu - strlen(gpu), "%s%.0f MiB used",
			         *gpu ? " and " : "", ceil(x));
			snprintf(per + strlen(per), sizeof per - strlen(per), "%s%.0f MiB",
			         *per ? " and " : "", ceil(x) / sp->w);
		} else {
			snprintf(gpu, sizeof gpu, "%.1f%% active", x * 100);
			snprintf(per, sizeof per, "%.1f%%", x * 100 / sp->w);
		}
	}
	return gs_import_warn(inv, "%s: its %zu pods hold %g replicas, and no per-pod series "
	                      "tell their use apart (%s %s the whole %s's%s): divided evenly "
	                      "by the replicas each holds%s, the %s's p%d of %s is %s per "
	                      "replica", where, nh, sp->w, fields,
	                      strchr(fields, ',') ? "are" : "is", sp->mig ? "instance" : "GPU",
	                      sp->vgpu ? ", copied per vgpu replica" : "",
	                      sp->vgpu ? " (vgpu labels)" : "", sp->mig ? "instance" : "GPU",
	                      inv->percentile, gpu, per);
}

/* Own readings that add up to more than the device read: a data error. */
static int warn_over(gs_inventory *inv, const char *where, const split *sp)
{
	int rc = 0;
	for (int k = 0; k < M_COUNT && rc == 0; k++) {
		char a[40], b[40];
		if (!sp->over[k])
			continue;
		if (k == M_FB) {
			snprintf(a, sizeof a, "%.0f MiB", sp->over_sum[k]);
			snprintf(b, sizeof b, "%.0f MiB", sp->over_dev[k]);
		} else {
			snprintf(a, sizeof a, "%.1f%%", sp->over_sum[k] * 100);
			snprintf(b, sizeof b, "%.1f%%", sp->over_dev[k] * 100);
		}
		rc = gs_import_warn(inv, "%s: at %zu instant%s its pods' own %s add up to more "
		                    "than the device's (%s against %s): a data error; each pod "
		                    "is read as its part of the device's", where, sp->over[k],
		                    sp->over[k] == 1 ? "" : "s", gs_import_metric_name(k), a, b);
	}
	return rc;
}

/* ---- holders ----------------------------------------------------------------- */

static int holds(const ipod *p, int g)
{
	for (size_t i = 0; i < p->n_on; i++)
		if (p->on_gpu[i] == g)
			return 1;
	return 0;
}

/* The replicas of GPU g pod p holds: the vgpu replicas its series name,
 * else its request (spread over the GPUs its series name). */
static double replicas_of(const ipod *p, int g, int *vgpu)
{
	int n = 0;
	for (size_t i = 0; i < p->n_vgpus; i++)
		n += p->vgpus[i].gpu == g;
	if (n) {
		*vgpu = 1;
		return n;
	}
	return p->n_on > 1 ? (double)p->units / (double)p->n_on : p->units > 0 ? p->units : 1;
}

/* The pods (not MIG) of a node that hold GPU g; pods is the node's. */
static size_t holders_of(const gs_inventory *inv, const inode *n, int g, const size_t *pods,
                         size_t np, int whole, holder *out, split *sp)
{
	size_t nh = 0;
	sp->w = 0;
	for (size_t i = 0; i < np; i++) {
		const ipod *p = &inv->pods[pods[i]];
		int on = holds(p, g);
		if (p->mig || !(on || (!p->n_on && (n->pub.gpu_count == 1 || whole))))
			continue;
		out[nh] = (holder){ (uint32_t)pods[i], replicas_of(p, g, &sp->vgpu), on };
		if (whole)
			out[nh].w = 1;
		sp->w += out[nh++].w;
	}
	return nh;
}

/* ---- data errors --------------------------------------------------------------- */

static int measured(const ipod *p)
{
	return p->m[M_SM].n || p->m[M_GR].n || p->m[M_UTIL].n;
}

/* What the holders add up to in field k (p95 each, or what one without
 * readings keeps). */
static int add_up(gs_inventory *inv, const holder *h, size_t nh, int k, double *sum)
{
	*sum = 0;
	for (size_t i = 0; i < nh; i++) {
		const ipod *p = &inv->pods[h[i].pod];
		double x = 0;
		int rc = pct_of(&p->m[k], inv->percentile, &x);
		if (rc < 0)
			return -1;
		if (!rc && k == M_FB)
			x = (double)p->keep_mib;
		else if (!rc && !measured(p))
			x = (double)p->keep_ppm / GS_PPM;
		*sum += x * h[i].w; /* per replica, times the replicas it holds */
	}
	return 0;
}

static void scale(gs_inventory *inv, const holder *h, size_t nh, int k, double f)
{
	for (size_t i = 0; i < nh; i++) {
		ipod *p = &inv->pods[h[i].pod];
		for (size_t j = 0; j < p->m[k].n; j++)
			p->m[k].v[j] *= f;
		if (!p->m[k].n && k == M_FB)
			p->keep_mib = (int64_t)floor((double)p->keep_mib * f);
		else if (!p->m[k].n && !measured(p))
			p->keep_ppm = (int64_t)floor((double)p->keep_ppm * f);
	}
}

/* Above 100 % of the GPU's compute (or above its memory): a data error,
 * named with its figures, and never planned on: scaled to fit. Each
 * compute field with readings is checked; without any, what the holders
 * keep. */
static int check_sums(gs_inventory *inv, const inode *n, int g, const holder *h, size_t nh)
{
	int any_compute = 0, rc = 0;
	for (size_t i = 0; i < nh; i++)
		any_compute |= measured(&inv->pods[h[i].pod]);
	for (int k = 0; k < M_COUNT && rc == 0; k++) {
		double sum, cap = k == M_FB ? (double)n->pub.gpu->usable_memory_mib : 1.0;
		int any = 0;
		for (size_t i = 0; i < nh; i++)
			any |= inv->pods[h[i].pod].m[k].n > 0;
		if (k != M_FB && (any_compute ? !any : k != M_UTIL))
			continue;
		if ((rc = add_up(inv, h, nh, k, &sum)) < 0 || sum <= cap * (1 + 1e-9))
			continue;
		if (k == M_FB)
			rc = gs_import_warn(inv, "node '%s' gpu %d: its %zu pods use %.0f MiB, "
			                    "more than the %lld MiB of its %s: a data error; "
			                    "their memory is scaled to fit", n->name, g, nh, sum,
			                    (long long)cap, n->pub.gpu->name);
		else
			rc = gs_import_warn(inv, "node '%s' gpu %d: its %zu pods add up to %.1f%% "
			                    "of the GPU (%s%s): a data error; their shares are "
			                    "scaled to 100%%", n->name, g, nh, sum * 100,
			                    any ? "p95 of " : "what each requests",
			                    any ? gs_import_metric_name(k) : "");
		scale(inv, h, nh, k, cap / sum);
	}
	return rc;
}

/* Samples a field could not take (above 100 %, below 0), per GPU. */
static int warn_bad(gs_inventory *inv, const char *node, int g, const char *pod,
                    const bad_values *b)
{
	int rc = 0;
	for (int k = 0; k < M_COUNT && rc == 0; k++) {
		char where[300];
		if (!b[k].over && !b[k].under)
			continue;
		if (pod)
			snprintf(where, sizeof where, "pod '%s'", pod);
		else
			snprintf(where, sizeof where, "node '%s' gpu %d", node, g);
		if (b[k].over)
			rc = gs_import_warn(inv, "%s: %zu sample%s of %s above 100%% (up to "
			                    "%.1f%%): a data error, read as 100%%", where,
			                    b[k].over, b[k].over == 1 ? "" : "s",
			                    gs_import_metric_name(k), b[k].max * 100);
		if (rc == 0 && b[k].under)
			rc = gs_import_warn(inv, "%s: %zu sample%s of %s below 0: a data error, "
			                    "read as 0", where, b[k].under,
			                    b[k].under == 1 ? "" : "s", gs_import_metric_name(k));
	}
	return rc;
}

/* ---- MIG instances -------------------------------------------------------------- */

static int mig_pod_measured(const ipod *p)
{
	for (int k = 0; k < M_COUNT; k++)
		if (p->m[k].n)
			return 1;
	return 0;
}

/* The pods whose series name MIG instance i, and their replicas of it
 * (its vgpu labels, else one). */
static size_t mig_holders(const gs_inventory *inv, const inode *n, size_t i, holder *out,
                          split *sp)
{
	const mig_inst *mi = &n->migs[i];
	size_t nh = 0;
	sp->w = 0;
	for (int k = 0; k < M_COUNT; k++)
		for (size_t j = 0; j < mi->raw[k].n; j++) {
			uint32_t pod = mi->raw[k].r[j].pod;
			const ipod *p;
			int v = 0;
			if (pod == GS_NO_POD || find_holder(out, nh, pod))
				continue;
			p = &inv->pods[pod];
			for (size_t x = 0; x < p->n_vgpus; x++)
				v += p->vgpus[x].gpu == GS_VGPU_MIG(i);
			sp->vgpu |= v > 0;
			out[nh] = (holder){ pod, v ? v : 1, 1 };
			sp->w += out[nh++].w;
		}
	return nh;
}

/* An instance no pod labels name is the pod's that alone asks for its
 * profile on the node, when it is the only instance of that profile read
 * and that pod has no samples of its own. */
static size_t mig_alone(const gs_inventory *inv, const inode *n, size_t i,
                        const size_t *pods, size_t np, holder *out, split *sp)
{
	const mig_inst *mi = &n->migs[i];
	size_t same = 0, cands = 0, at = 0;
	for (size_t j = 0; j < n->n_migs; j++)
		same += strcmp(n->migs[j].profile, mi->profile) == 0;
	for (size_t j = 0; j < np; j++) {
		const ipod *p = &inv->pods[pods[j]];
		if (p->mig && strcmp(p->mig->name, mi->profile) == 0) {
			cands++;
			at = pods[j];
		}
	}
	if (same != 1 || cands != 1 || mig_pod_measured(&inv->pods[at]))
		return 0;
	out[0] = (holder){ (uint32_t)at, 1, 0 };
	sp->w = 1;
	return 1;
}

/* Each MIG instance's readings to the pods that hold it, as a GPU's. */
static int share_migs(gs_inventory *inv, inode *n, const size_t *pods, size_t np,
                      holder *h)
{
	int rc = 0;
	for (size_t i = 0; i < n->n_migs && rc == 0; i++) {
		mig_inst *mi = &n->migs[i];
		split sp = { .mig = 1 };
		samples m[M_COUNT];
		size_t nh = mig_holders(inv, n, i, h, &sp);

		memset(m, 0, sizeof m);
		if (!nh)
			nh = mig_alone(inv, n, i, pods, np, h, &sp);
		for (int k = 0; k < M_COUNT && rc == 0; k++) {
			if (!nh)
				inv->sum.unmatched += mi->raw[k].n;
			rc = share_readings(inv, &mi->raw[k], k, &m[k], h, nh, &sp);
		}
		if (rc == 0) {
			char where[400];
			snprintf(where, sizeof where, "node '%s' gpu %d MIG %s instance %s",
			         n->name, mi->gpu, mi->profile, mi->id);
			if (sp.even)
				rc = warn_even(inv, where, m, &sp, nh);
			if (rc == 0)
				rc = warn_over(inv, where, &sp);
		}
		for (int k = 0; k < M_COUNT; k++)
			free(m[k].v);
	}
	return rc;
}

/* ---- a node --------------------------------------------------------------------- */

/* One pod that holds every GPU of a multi-GPU node: their series are its. */
static int holds_all(const gs_inventory *inv, const inode *n, const size_t *pods, size_t np)
{
	const ipod *one = NULL;
	for (size_t i = 0; i < np; i++) {
		const ipod *p = &inv->pods[pods[i]];
		if (p->mig)
			continue;
		if (one || p->n_on)
			return 0;
		one = p;
	}
	return one && one->ppm >= (int64_t)n->pub.gpu_count * GS_PPM;
}

/* Pods (not MIG) of the node that no series names and that have none of
 * their own. */
static int unlocated(const gs_inventory *inv, const size_t *pods, size_t np)
{
	int u = 0;
	for (size_t i = 0; i < np; i++) {
		const ipod *p = &inv->pods[pods[i]];
		u += !p->mig && !p->n_on && !measured(p) && !p->m[M_FB].n;
	}
	return u;
}

static int share_gpu(gs_inventory *inv, inode *n, int g, const size_t *pods, size_t np,
                     int whole, holder *h)
{
	split sp = { 0 };
	size_t nh = holders_of(inv, n, g, pods, np, whole, h, &sp);
	gs_import_gpu *pg = &n->gpus[g];
	int rc = 0, read = 0;

	for (int k = 0; k < M_COUNT && rc == 0; k++) {
		readings *r = &n->raw[g * M_COUNT + k];
		read |= r->n > 0;
		rc = share_readings(inv, r, k, &n->m[g * M_COUNT + k], h, nh, &sp);
		free(r->r);
		*r = (readings){ 0 };
	}
	if (rc < 0)
		return rc;
	pg->holders = (int)nh;
	if (nh && read) {
		/* Named by the field its compute comes from, else its memory. */
		unsigned k = 1u << M_FB;
		for (int f = M_UTIL; f >= M_SM; f--)
			if (n->m[g * M_COUNT + f].n)
				k = 1u << f;
		pg->attributed = 1;
		pg->division = sp.even & k ? "even"
		               : sp.own & k && nh > 1 ? "per-pod"
		               : h[0].labelled ? "pod" : "sole";
	}
	{
		char where[300];
		snprintf(where, sizeof where, "node '%s' gpu %d", n->name, g);
		if ((sp.even && (rc = warn_even(inv, where, &n->m[g * M_COUNT], &sp, nh)) < 0) ||
		    (rc = warn_over(inv, where, &sp)) < 0)
			return rc;
	}
	/* A replica's share of a divided GPU's memory caps the rounding of
	 * what its workload writes (measure.c). */
	for (size_t i = 0; sp.even && i < nh; i++) {
		ipod *p = &inv->pods[h[i].pod];
		double mib = (double)n->pub.gpu->usable_memory_mib;
		int64_t part = (int64_t)floor(mib / sp.w);
		if (!p->round_mib || part < p->round_mib)
			p->round_mib = part;
	}
	if ((rc = check_sums(inv, n, g, h, nh)) < 0)
		return rc;
	return warn_bad(inv, n->name, g, NULL, &n->bad[g * M_COUNT]);
}

static int share_node(gs_inventory *inv, inode *n, const size_t *pods, size_t np, holder *h)
{
	int whole = n->pub.gpu_count > 1 && holds_all(inv, n, pods, np), rc = 0;
	int u = unlocated(inv, pods, np);

	for (int g = 0; g < n->pub.gpu_count && rc == 0; g++)
		rc = share_gpu(inv, n, g, pods, np, whole, h);
	if (rc == 0 && n->pub.gpu_count > 1 && !whole && u) {
		int measured = 0;
		for (int g = 0; g < n->pub.gpu_count; g++)
			measured |= n->m[g * M_COUNT + M_SM].n || n->m[g * M_COUNT + M_GR].n ||
			            n->m[g * M_COUNT + M_UTIL].n;
		if (measured)
			rc = gs_import_warn(inv, "node '%s': %d of its pods run on its %d GPUs, "
			                    "and no series names which GPU each holds: they keep "
			                    "what they request", n->name, u, n->pub.gpu_count);
	}
	if (rc == 0 && n->pub.requested_ppm > (int64_t)n->pub.gpu_count * GS_PPM)
		rc = gs_import_warn(inv, "node '%s': its pods request %.2f GPUs of its %d: a data "
		                    "error (the pod list and the node list disagree)", n->name,
		                    (double)n->pub.requested_ppm / GS_PPM, n->pub.gpu_count);
	return rc == 0 ? share_migs(inv, n, pods, np, h) : rc;
}

int gs_import_share(gs_inventory *inv)
{
	size_t *first = malloc((inv->n_nodes + 1) * sizeof *first);
	size_t *next = malloc((inv->n_pods + 1) * sizeof *next);
	size_t *pods = malloc((inv->n_pods + 1) * sizeof *pods);
	holder *h = malloc((inv->n_pods + 1) * sizeof *h);
	int rc = first && next && pods && h ? 0 : -1;

	for (size_t i = 0; rc == 0 && i < inv->n_nodes; i++)
		first[i] = GS_STRMAP_NONE;
	/* Each node's pods, in the pod list's order. */
	for (size_t i = inv->n_pods; rc == 0 && i-- > 0;) {
		size_t ni = inv->pods[i].node;
		next[i] = ni == GS_STRMAP_NONE ? GS_STRMAP_NONE : first[ni];
		if (ni != GS_STRMAP_NONE)
			first[ni] = i;
	}
	for (size_t i = 0; rc == 0 && i < inv->n_nodes; i++) {
		size_t np = 0;
		for (size_t p = first[i]; p != GS_STRMAP_NONE; p = next[p])
			pods[np++] = p;
		rc = share_node(inv, &inv->nodes[i], pods, np, h);
	}
	for (size_t i = 0; rc == 0 && i < inv->n_pods; i++)
		rc = warn_bad(inv, NULL, 0, inv->pods[i].name, inv->pods[i].bad);
	free(first);
	free(next);
	free(pods);
	free(h);
	return rc < 0 ? gs_fail_nomem(inv->err) : 0;
}
