/*
 * nodes.c - the GPU nodes of kubectl's node list: which GPU (the
 * gpu-feature-discovery product label, else the instance type), how many,
 * their nvidia.com resources and what one unit of each is, and how they
 * are shared (time-slicing, MPS, MIG).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/kube_list.h"

#define MAX_GPUS 1024    /* per node: bounds what labels can make us allocate */

static int label_int(const gs_node *labels, const char *key, int64_t *out)
{
	return gs_kube_whole(gs_node_get(labels, key), out);
}

int gs_import_is_gpu_resource(const char *k)
{
	return strcmp(k, "nvidia.com/gpu") == 0 ||
	       strcmp(k, "nvidia.com/gpu.shared") == 0 ||
	       strncmp(k, "nvidia.com/mig-", 15) == 0;
}

/* GFD's product label is the GPU's name, maybe with "-SHARED" (time-slicing
 * without renaming) and "-MIG-<profile>" (MIG single strategy). Returns 0,
 * -1 for an unknown GPU, -2 for an unknown MIG profile. */
static int resolve_product(const gs_catalog *cat, const char *label,
                           const gs_gpu **gpu, const gs_mig_profile **mig)
{
	char buf[256];
	size_t n = strlen(label);
	char *m;

	*mig = NULL;
	if (n >= sizeof buf)
		return -1;
	memcpy(buf, label, n + 1);
	if ((*gpu = gs_gpu_find(cat, buf)))
		return 0;
	if (n > 7 && strcmp(buf + n - 7, "-SHARED") == 0)
		buf[n - 7] = '\0';
	if ((*gpu = gs_gpu_find(cat, buf)))
		return 0;
	if (!(m = strstr(buf, "-MIG-")))
		return -1;
	*m = '\0';
	if (!(*gpu = gs_gpu_find(cat, buf)))
		return -1;
	return (*mig = gs_mig_profile_find(*gpu, m + 5)) ? 0 : -2;
}

int gs_import_unit_of(const inode *n, const gs_node *labels, const char *res,
                      ires *u)
{
	const gs_gpu *g = n->pub.gpu;
	int64_t rep = n->pub.replicas, r;

	memset(u, 0, sizeof *u);
	if (strcmp(res, "nvidia.com/gpu") == 0 || strcmp(res, "nvidia.com/gpu.shared") == 0) {
		u->mig = n->mig;
	} else if (strncmp(res, "nvidia.com/mig-", 15) == 0) {
		char key[192];
		if (!g->mig_compute_slices || !(u->mig = gs_mig_profile_find(g, res + 15)))
			return -2;
		snprintf(key, sizeof key, "%s.replicas", res);
		rep = label_int(labels, key, &r) == 0 && r > 1 && r <= 1000 ? r : 1;
	} else {
		return -1;
	}
	u->unit_ppm = u->mig ? GS_PPM * u->mig->compute_slices / g->mig_compute_slices : GS_PPM;
	/* A whole GPU holds at most what the driver leaves usable. */
	u->hard_mib = u->mig ? u->mig->memory_mib : g->usable_memory_mib;
	/* A replica of a shared GPU (or slice) keeps its share of it: 1/8 of a
	 * GPU time-sliced 8 ways, never the whole GPU. */
	u->unit_ppm /= rep;
	u->keep_ppm = u->unit_ppm;
	u->keep_mib = u->hard_mib / rep;
	u->replicas = (int)rep;
	return 0;
}

static int has_gpus(const gs_node *res)
{
	int64_t q;
	for (size_t i = 0; res && res->kind == GS_NODE_MAP && i < res->n; i++)
		if (gs_import_is_gpu_resource(res->keys[i]->text) &&
		    gs_kube_whole(res->items[i], &q) == 0 && q > 0)
			return 1;
	return 0;
}

const ires *gs_import_node_res(const inode *n, const char *name)
{
	for (size_t i = 0; i < n->n_res; i++)
		if (strcmp(n->res[i].name, name) == 0)
			return &n->res[i];
	return NULL;
}

/* The GPU resources of capacity, then those only allocatable lists. */
static int node_resources(gs_inventory *inv, inode *n, const gs_node *labels,
                          const gs_node *cap, const gs_node *alloc)
{
	const gs_node *src[2] = { cap, alloc };
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; src[s] && src[s]->kind == GS_NODE_MAP && i < src[s]->n; i++) {
			const char *k = src[s]->keys[i]->text;
			ires u;
			int rc;
			if (!gs_import_is_gpu_resource(k) || gs_import_node_res(n, k))
				continue;
			if ((rc = gs_import_unit_of(n, labels, k, &u)) == -2) {
				rc = gs_import_warn(inv, "node '%s': %s is not a MIG profile of %s",
				                    n->name, k, n->pub.gpu->name);
				if (rc < 0)
					return rc;
				continue;
			}
			if (gs_kube_whole(src[s]->items[i], &u.capacity) < 0)
				u.capacity = 0;
			if (!(u.name = gs_strdup(k)) ||
			    gs_grow(&n->res, &n->cap_res, n->n_res + 1, sizeof *n->res) < 0) {
				free(u.name);
				return gs_fail_nomem(inv->err);
			}
			n->res[n->n_res++] = u;
		}
	}
	return 0;
}

/* Left out, with the pods that run on it, when the GPU is unknown: one
 * unknown node does not stop the import of the others (unless strict,
 * where it is the located error it is). */
static int leave_out(gs_inventory *inv, const char *file, const char *name,
                     const gs_node *at, int code, const char *fmt, const char *what)
{
	char msg[GS_ERROR_MSG_MAX];
	snprintf(msg, sizeof msg, fmt, name, what);
	if (inv->strict)
		return gs_fail_node(inv->err, code, file, at, "%s", msg);
	if (gs_strmap_find(&inv->left_out, name) == GS_STRMAP_NONE &&
	    gs_strmap_put(&inv->left_out, name, 0) < 0)
		return gs_fail_nomem(inv->err);
	inv->sum.nodes_left_out++;
	return gs_import_warn(inv, "%s: left out, with the pods that run on it", msg);
}

/* Which GPU the node has: the product label, else the instance type's.
 * Returns 0, 1 when the node is left out, or an error. */
static int node_gpu(gs_inventory *inv, const char *file, const char *name,
                    const char *product, const gs_instance *in, const gs_node *at,
                    const gs_gpu **gpu, const gs_mig_profile **mig)
{
	int rc;
	*mig = NULL;
	if (!product) {
		if (in) {
			*gpu = in->gpu;
			return 0;
		}
		rc = leave_out(inv, file, name, at, GS_ESCHEMA,
		               "node '%s' has NVIDIA GPUs but no nvidia.com/gpu.product "
		               "label and no known instance type%s", " (is "
		               "gpu-feature-discovery running?)");
		return rc < 0 ? rc : 1;
	}
	rc = resolve_product(inv->cat, product, gpu, mig);
	if (rc == -2)
		rc = leave_out(inv, file, name, at, GS_ENOTFOUND,
		               "node '%s': unknown MIG profile in GPU product '%s' (label "
		               "nvidia.com/gpu.product)", product);
	else if (rc < 0)
		rc = leave_out(inv, file, name, at, GS_ENOTFOUND,
		               "node '%s': unknown GPU product '%s' (label "
		               "nvidia.com/gpu.product; see 'gpushare gpus', or add a GPU "
		               "profile)", product);
	else
		return 0;
	return rc < 0 ? rc : 1;
}

/* A node that reports another GPU than its instance type has. */
static int check_gpu(gs_inventory *inv, const inode *n)
{
	const gs_instance *in = n->pub.instance;
	if (in && in->gpu != n->pub.gpu)
		return gs_import_warn(inv, "node '%s': instance type %s has %s GPUs, "
		                      "the node reports %s", n->name, in->type,
		                      in->gpu->name, n->pub.gpu->name);
	return 0;
}

/* Physical GPUs: the label, or (MIG single, where the label counts MIG
 * devices) the instance's count, or the capacity over the replicas. */
static int node_count(gs_inventory *inv, inode *n, const gs_node *labels)
{
	const gs_instance *in = n->pub.instance;
	int64_t c = 0, q = 0;
	int have = label_int(labels, "nvidia.com/gpu.count", &c) == 0 && c > 0;

	if (n->mig) {
		int per = gs_mig_max_count(n->pub.gpu, n->mig);
		c = in ? in->gpu_count : have && per > 0 ? (c + per - 1) / per : 1;
	} else if (!have) {
		for (size_t i = 0; i < n->n_res; i++)
			if (!n->res[i].mig)
				q += n->res[i].capacity;
		c = in ? in->gpu_count : q > 0 ? (q + n->pub.replicas - 1) / n->pub.replicas : 1;
	} else if (in && in->gpu_count != c) {
		int rc = gs_import_warn(inv, "node '%s': instance type %s has %d GPUs, "
		                        "the node reports %lld", n->name, in->type,
		                        in->gpu_count, (long long)c);
		if (rc < 0)
			return rc;
	}
	if (c > MAX_GPUS)
		return gs_fail(inv->err, GS_ELIMIT, "node '%s' reports %lld GPUs (at most %d)",
		               n->name, (long long)c, MAX_GPUS);
	n->pub.gpu_count = (int)c;
	n->pub.n_gpus = (size_t)c;
	if (!(n->pub.gpus = n->gpus = calloc((size_t)c, sizeof *n->gpus)) ||
	    !(n->m = calloc((size_t)c * M_COUNT, sizeof *n->m)) ||
	    !(n->raw = calloc((size_t)c * M_COUNT, sizeof *n->raw)) ||
	    !(n->bad = calloc((size_t)c * M_COUNT, sizeof *n->bad)))
		return gs_fail_nomem(inv->err);
	for (int g = 0; g < c; g++) {
		n->gpus[g].index = g;
		n->gpus[g].memory_mib = -1;
	}
	return 0;
}

static const char *node_sharing(const inode *n, const gs_node *labels)
{
	const char *st = gs_kube_str(labels, "nvidia.com/gpu.sharing-strategy");
	size_t len = n->product ? strlen(n->product) : 0;
	if (n->mig)
		return "mig-single";
	for (size_t i = 0; i < n->n_res; i++)
		if (n->res[i].mig && n->res[i].capacity > 0)
			return "mig-mixed";
	if (st && strcmp(st, "mps") == 0)
		return "mps";
	if ((st && strcmp(st, "time-slicing") == 0) || n->pub.replicas > 1 ||
	    (len > 7 && strcmp(n->product + len - 7, "-SHARED") == 0))
		return "time-slicing";
	return "none";
}

static int node_add(gs_inventory *inv, const char *name, const char *product,
                    const char *type, inode **out)
{
	inode *n;
	if (gs_grow(&inv->nodes, &inv->cap_nodes, inv->n_nodes + 1, sizeof *inv->nodes) < 0)
		return gs_fail_nomem(inv->err);
	n = &inv->nodes[inv->n_nodes++];
	memset(n, 0, sizeof *n);
	if (!(n->name = gs_strdup(name)) || (product && !(n->product = gs_strdup(product))) ||
	    (type && !(n->type = gs_strdup(type))) ||
	    gs_strmap_put(&inv->node_ix, name, inv->n_nodes - 1) < 0)
		return gs_fail_nomem(inv->err);
	n->pub.name = n->name;
	n->pub.product = n->product;
	n->pub.instance_type = n->type;
	n->pub.instance = type ? gs_instance_find(inv->cat, type) : NULL;
	n->pub.price_per_hour = n->pub.instance ? n->pub.instance->on_demand : -1;
	n->pub.replicas = 1;
	*out = n;
	if (!type)
		return gs_import_warn(inv, "node '%s' has no instance-type label: "
		                      "its price is unknown", name);
	if (!n->pub.instance)
		return gs_import_warn(inv, "node '%s': instance type '%s' is not in "
		                      "the catalog: its price is unknown", name, type);
	return 0;
}

static int read_node(const char *file, const gs_node *it, size_t i, void *ud)
{
	gs_inventory *inv = ud;
	const gs_node *meta, *labels, *st, *cap, *alloc;
	const char *name, *product, *type;
	const gs_mig_profile *mig;
	const gs_gpu *gpu;
	inode *n = NULL;
	int64_t v;
	int rc;

	if ((rc = gs_kube_item_meta(file, it, i, "Node", &meta, &name, inv->err)) < 0)
		return rc;
	labels = gs_node_get(meta, "labels");
	st = gs_node_get(it, "status");
	cap = gs_node_get(st, "capacity");
	alloc = gs_node_get(st, "allocatable");
	product = gs_kube_str(labels, "nvidia.com/gpu.product");
	if (!product && !has_gpus(cap) && !has_gpus(alloc))
		return 0; /* not a GPU node */
	if (gs_strmap_find(&inv->node_ix, name) != GS_STRMAP_NONE ||
	    gs_strmap_find(&inv->left_out, name) != GS_STRMAP_NONE)
		return gs_import_duplicate(inv, 0, name);
	if (!(type = gs_kube_str(labels, "node.kubernetes.io/instance-type")))
		type = gs_kube_str(labels, "beta.kubernetes.io/instance-type");
	/* The GPU before the node is added: a second call on this item (the
	 * list reader's, to locate an error) must fail as the first did. */
	rc = node_gpu(inv, file, name, product, type ? gs_instance_find(inv->cat, type) : NULL,
	              product ? gs_node_get(labels, "nvidia.com/gpu.product") : it, &gpu, &mig);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	if ((rc = node_add(inv, name, product, type, &n)) < 0)
		return rc;
	n->pub.gpu = gpu;
	n->mig = mig;
	if ((rc = check_gpu(inv, n)) < 0)
		return rc;
	/* Mixed MIG nodes say replicas "0"; per-profile labels carry theirs. */
	if (label_int(labels, "nvidia.com/gpu.replicas", &v) == 0 && v > 1)
		n->pub.replicas = v > 1000 ? 1000 : (int)v;
	/* Older gpu-feature-discovery wrote bytes, newer writes MiB. */
	if (label_int(labels, "nvidia.com/gpu.memory", &v) == 0)
		n->pub.gpu_memory_mib = v > 10000000 ? v >> 20 : v;
	if ((rc = node_resources(inv, n, labels, cap, alloc)) < 0 ||
	    (rc = node_count(inv, n, labels)) < 0)
		return rc;
	n->pub.sharing = node_sharing(n, labels);
	return 0;
}

int gs_import_read_nodes(gs_inventory *inv, const gs_source *src)
{
	gs_kube_list l = { src, "Node", "kubectl get nodes -o json" };
	return gs_kube_list_read(&l, read_node, inv, inv->err);
}
