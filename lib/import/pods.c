/*
 * pods.c - the pods of kubectl's pod list that count (Running or Pending,
 * requesting GPUs): what each requests and where it runs, and the
 * workloads they make up (a Deployment, StatefulSet, Job... or a bare pod),
 * named for the workload file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/kube_list.h"

#define MAX_REQ 8        /* distinct GPU resources one pod requests */

typedef struct req {
	const char *res;
	int64_t n;
} req;

static void req_add(req *r, size_t *nr, const char *res, int64_t n, int as_max)
{
	for (size_t i = 0; i < *nr; i++) {
		if (strcmp(r[i].res, res) != 0)
			continue;
		r[i].n = as_max ? (n > r[i].n ? n : r[i].n) : r[i].n + n;
		return;
	}
	if (*nr < MAX_REQ)
		r[(*nr)++] = (req){ res, n };
}

/* Adds one container's GPU limits (else requests) to r; returns how many
 * it requests. */
static int container_reqs(gs_inventory *inv, const char *file, const char *pod,
                          const gs_node *c, req *r, size_t *nr, int as_max)
{
	const gs_node *res = gs_node_get(c, "resources");
	const char *ctr = gs_kube_str(c, "name");
	const gs_node *src[2] = { gs_node_get(res, "limits"),
	                          gs_node_get(res, "requests") };
	int found = 0;
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; src[s] && src[s]->kind == GS_NODE_MAP && i < src[s]->n; i++) {
			const char *k = src[s]->keys[i]->text;
			const gs_node *v = src[s]->items[i];
			int64_t q;
			if (!gs_import_is_gpu_resource(k) || (s == 1 && gs_node_get(src[0], k)))
				continue;
			if (gs_kube_whole(v, &q) < 0 || q > 1000)
				return gs_fail_node(inv->err, GS_ESCHEMA, file, v,
				                    "pod '%s': container '%s': %s quantity "
				                    "'%.40s' is not a whole number up to 1000",
				                    pod, ctr ? ctr : "?", k,
				                    v->text ? v->text : gs_kube_json_kind(v));
			if (q > 0)
				req_add(r, nr, k, q, as_max);
			found += q > 0;
		}
	}
	return found;
}

/* A pod's GPU requests: the sum over its containers, or the largest of
 * an init container when that is more (as the scheduler counts them). */
static int pod_reqs(gs_inventory *inv, const char *file, const char *pod,
                    const gs_node *spec, req *r, size_t *nr, ipod *p)
{
	const gs_node *cs = gs_node_get(spec, "containers");
	const gs_node *init = gs_node_get(spec, "initContainers");
	req ri[MAX_REQ];
	size_t ni = 0;
	int rc;

	for (size_t i = 0; cs && cs->kind == GS_NODE_SEQ && i < cs->n; i++) {
		const char *name = gs_kube_str(cs->items[i], "name");
		if ((rc = container_reqs(inv, file, pod, cs->items[i], r, nr, 0)) < 0)
			return rc;
		if (rc > 0 && name && p) {
			/* Metrics name the container; only these may match. */
			char *copy = gs_strdup(name);
			if (!copy || gs_grow(&p->containers, &p->cap_containers,
			                     p->n_containers + 1, sizeof *p->containers) < 0) {
				free(copy);
				return gs_fail_nomem(inv->err);
			}
			p->containers[p->n_containers++] = copy;
		}
	}
	for (size_t i = 0; init && init->kind == GS_NODE_SEQ && i < init->n; i++)
		if ((rc = container_reqs(inv, file, pod, init->items[i], ri, &ni, 1)) < 0)
			return rc;
	for (size_t k = 0; k < ni; k++)
		req_add(r, nr, ri[k].res, ri[k].n, 1);
	return 0;
}

/* Where the pod runs, and what its requests are there. */
static int pod_place(gs_inventory *inv, ipod *p, const char *node, const req *r,
                     size_t nr)
{
	inode *n;
	p->node = node ? gs_strmap_find(&inv->node_ix, node) : GS_STRMAP_NONE;
	/* Whole GPUs unless a unit turns out a slice or a shared replica; a
	 * pod on no known node asks whole GPUs by nvidia.com/gpu alone. */
	p->whole = 1;
	for (size_t k = 0; k < nr; k++) {
		p->units += (int)r[k].n;
		p->whole &= strcmp(r[k].res, "nvidia.com/gpu") == 0;
	}
	if (node && !*node)
		node = NULL; /* not scheduled yet */
	if (node && p->node == GS_STRMAP_NONE &&
	    gs_strmap_find(&inv->left_out, node) != GS_STRMAP_NONE)
		return 0; /* its node was left out, and said so */
	if (node && p->node == GS_STRMAP_NONE)
		return gs_import_warn(inv, "pod '%s/%s' runs on node '%s', which is "
		                      "not a GPU node of the node list", p->ns, p->name,
		                      node);
	if (p->node == GS_STRMAP_NONE)
		return 0;
	n = &inv->nodes[p->node];
	for (size_t k = 0; k < nr; k++) {
		const ires *known = gs_import_node_res(n, r[k].res);
		ires u;
		int rc;
		if (known)
			u = *known;
		else if (gs_import_unit_of(n, NULL, r[k].res, &u) < 0) {
			p->whole = 0;
			rc = gs_import_warn(inv, "pod '%s/%s' requests %s, which node '%s' "
			                    "cannot provide", p->ns, p->name, r[k].res,
			                    n->name);
			if (rc < 0)
				return rc;
			continue;
		}
		p->ppm += u.unit_ppm * r[k].n;
		p->whole &= u.unit_ppm == GS_PPM && !u.mig;
		if ((rc = gs_import_hold_add(inv, (size_t)(p - inv->pods), p->node, r[k].n,
		                             &u)) < 0)
			return rc;
		if (!p->keep_ppm) {
			p->keep_ppm = u.keep_ppm;
			p->keep_mib = u.keep_mib;
			p->hard_mib = u.hard_mib;
			p->mig = u.mig;
		}
	}
	if (p->mig)
		p->mig_scale = (double)p->mig->compute_slices /
		               n->pub.gpu->mig_compute_slices;
	n->pub.pods++;
	n->pub.requested_ppm += p->ppm;
	return 0;
}

static int workload_add(gs_inventory *inv, size_t pi)
{
	const ipod *p = &inv->pods[pi];
	size_t len = strlen(p->ns) + strlen(p->kind) + strlen(p->owner) + 3, wi;
	char *key = malloc(len);
	iwl *w;
	int rc = 0;

	if (!key)
		return gs_fail_nomem(inv->err);
	snprintf(key, len, "%s/%s/%s", p->ns, p->kind, p->owner);
	if ((wi = gs_strmap_find(&inv->wl_ix, key)) == GS_STRMAP_NONE) {
		wi = inv->n_wls;
		if (gs_grow(&inv->wls, &inv->cap_wls, wi + 1, sizeof *inv->wls) < 0 ||
		    gs_strmap_put(&inv->wl_ix, key, wi) < 0)
			rc = gs_fail_nomem(inv->err);
		else {
			w = &inv->wls[inv->n_wls++];
			memset(w, 0, sizeof *w);
			w->ns = p->ns;
			w->kind = p->kind;
			w->owner = p->owner;
			w->team = p->team;
		}
	}
	free(key);
	if (rc < 0)
		return rc;
	w = &inv->wls[wi];
	if (gs_grow(&w->pods, &w->cap_pods, w->n_pods + 1, sizeof *w->pods) < 0)
		return gs_fail_nomem(inv->err);
	w->pods[w->n_pods++] = pi;
	return 0;
}

static int pod_add(gs_inventory *inv, const gs_node *meta, const char *name,
                   const char *ns, ipod **out)
{
	const gs_node *labels = gs_node_get(meta, "labels");
	const char *team = inv->team_label ? gs_kube_str(labels, inv->team_label) : NULL;
	char key[GS_IMPORT_POD_KEY], t[64];
	ipod *p;

	if (gs_grow(&inv->pods, &inv->cap_pods, inv->n_pods + 1, sizeof *inv->pods) < 0)
		return gs_fail_nomem(inv->err);
	p = &inv->pods[inv->n_pods++];
	memset(p, 0, sizeof *p);
	if (!team || !*gs_import_dns_label(team, t))
		gs_import_dns_label(ns, t);
	gs_import_pod_key(key, ns, name);
	if (!(p->ns = gs_strdup(ns)) || !(p->name = gs_strdup(name)) ||
	    !(p->team = gs_strdup(*t ? t : "default")) ||
	    gs_import_pod_owner(meta, name, p) < 0 ||
	    gs_strmap_put(&inv->pod_ix, key, inv->n_pods - 1) < 0)
		return gs_fail_nomem(inv->err);
	*out = p;
	return 0;
}

static int read_pod(const char *file, const gs_node *it, size_t i, void *ud)
{
	gs_inventory *inv = ud;
	const gs_node *meta, *spec = gs_node_get(it, "spec");
	const char *phase = gs_kube_str(gs_node_get(it, "status"), "phase");
	const char *name, *ns;
	char key[GS_IMPORT_POD_KEY];
	req r[MAX_REQ];
	size_t nr = 0;
	ipod *p = NULL;
	int rc;

	if ((rc = gs_kube_item_meta(file, it, i, "Pod", &meta, &name, inv->err)) < 0)
		return rc;
	if (!(ns = gs_kube_str(meta, "namespace")))
		ns = "default";
	if (!phase || (strcmp(phase, "Running") != 0 && strcmp(phase, "Pending") != 0))
		return 0;
	gs_import_pod_key(key, ns, name);
	if ((rc = pod_reqs(inv, file, key, spec, r, &nr, NULL)) < 0)
		return rc;
	if (nr == 0) /* it may hold GPUs through DRA claims (claims.c) */
		return gs_import_claim_pod(inv, meta, name, ns, spec);
	if (gs_strmap_find(&inv->pod_ix, key) != GS_STRMAP_NONE)
		return gs_import_duplicate(inv, 1, key);
	nr = 0;
	if ((rc = pod_add(inv, meta, name, ns, &p)) < 0 ||
	    (rc = pod_reqs(inv, file, key, spec, r, &nr, p)) < 0 ||
	    (rc = pod_place(inv, p, gs_kube_str(spec, "nodeName"), r, nr)) < 0)
		return rc;
	return workload_add(inv, inv->n_pods - 1);
}

int gs_import_read_pods(gs_inventory *inv, const gs_source *src)
{
	gs_kube_list l = { src, "Pod", "kubectl get pods -A -o json" };
	return gs_kube_list_read(&l, read_pod, inv, inv->err);
}

/* ---- replicas ------------------------------------------------------------ */

/* The rule (gpushare(1), IMPORT): each pod of N whole GPUs, N > 1, is one
 * replica of N, and the workload's gpusPerReplica is the most of its pods';
 * its samples, one series per GPU, give per-GPU percentiles as they are. */
int gs_import_pod_replicas(gs_inventory *inv, iwl *w)
{
	gs_import_workload *pw = &w->pub;
	int least = 0;
	pw->gpus_per_replica = 1;
	for (size_t i = 0; i < w->n_pods; i++) {
		const ipod *p = &inv->pods[w->pods[i]];
		int n = p->whole ? p->units : 1;
		if (n > pw->gpus_per_replica)
			pw->gpus_per_replica = n;
		if (!least || n < least)
			least = n;
		pw->replicas += p->whole ? 1 : p->units;
	}
	if (pw->gpus_per_replica == 1)
		return 0;
	pw->flags |= GS_IMPORT_MULTI_GPU;
	if (least == pw->gpus_per_replica)
		return 0;
	return gs_import_warn(inv, "workload '%s': its pods request %d to %d GPUs each; "
	                      "planned as %d GPUs per replica, the most", w->name, least,
	                      pw->gpus_per_replica, pw->gpus_per_replica);
}

/* ---- workload names ------------------------------------------------------ */

static int cmp_wl(const void *a, const void *b)
{
	const iwl *x = a, *y = b;
	int c = strcmp(x->ns, y->ns);
	if (!c)
		c = strcmp(x->owner, y->owner);
	return c ? c : strcmp(x->kind, y->kind);
}

int gs_import_name_workloads(gs_inventory *inv)
{
	gs_strmap names = GS_STRMAP_INIT;
	int rc = 0;
	if (inv->n_wls)
		qsort(inv->wls, inv->n_wls, sizeof *inv->wls, cmp_wl);
	for (size_t i = 0; i < inv->n_wls && rc == 0; i++) {
		iwl *w = &inv->wls[i];
		char base[64], cand[64], both[600];
		snprintf(both, sizeof both, "%s-%s", w->ns, w->owner);
		if (!*gs_import_dns_label(w->owner, base))
			snprintf(base, sizeof base, "workload");
		snprintf(cand, sizeof cand, "%s", base);
		if (gs_strmap_find(&names, cand) != GS_STRMAP_NONE)
			gs_import_dns_label(both, cand);
		for (int k = 2; gs_strmap_find(&names, cand) != GS_STRMAP_NONE; k++) {
			char sfx[16];
			int len = snprintf(sfx, sizeof sfx, "-%d", k);
			base[63 - len] = '\0';
			gs_import_dns_label(base, cand);
			strcat(cand, sfx);
		}
		if (!(w->name = gs_strdup(cand)) || gs_strmap_put(&names, cand, i) < 0)
			rc = gs_fail_nomem(inv->err);
		w->pub.name = w->name;
		w->pub.namespace_ = w->ns;
		w->pub.owner_kind = w->kind;
		w->pub.owner = w->owner;
		w->pub.team = w->team;
	}
	gs_strmap_release(&names);
	return rc;
}
