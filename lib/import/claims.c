/*
 * claims.c - GPUs allocated through Dynamic Resource Allocation: the
 * ResourceClaims that `kubectl get resourceclaims -A -o json` prints (the
 * status is the same in resource.k8s.io v1, v1beta2 and v1beta1), and
 * the pods that hold no GPU resource but name claims, kept while the pod
 * lists are read.
 *
 * A claim's status.allocation.devices.results[] lists each device it was
 * given: {driver, pool, device, adminAccess, consumedCapacity}. For
 * NVIDIA's driver (gpu.nvidia.com) the pool is the node, and the device
 * is "gpu-<minor>" (a whole GPU), "gpu-vfio-<n>" (a whole GPU passed
 * through), or a MIG device, "gpu-<minor>-mig-<profile id>-<start>-<size>"
 * (up to v25.12) or "gpu-<minor>-mig-<profile without dots>-..." (later).
 * status.reservedFor[] names the pods that use it; a claim reserved for
 * several pods is shared by them equally, and an allocated claim reserved
 * for none holds its devices itself. Devices of other drivers, and those
 * allocated for administrative access, hold no GPU and are skipped.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/holders.h"
#include "import/import.h"
#include "import/kube_list.h"

#define GPU_DRIVER "gpu.nvidia.com"

__extension__ typedef unsigned __int128 uwide;

/* ---- pods that name claims ----------------------------------------------- */

/* A new pod record in cpods, indexed by its key unless it stands for a
 * claim; *out is its number among all pods (holders.h). */
static int cpod_add(gs_inventory *inv, const char *ns, const char *name, const char *team,
                    int indexed, ipod **p, size_t *out)
{
	char key[GS_IMPORT_POD_KEY], t[64];
	if (gs_grow(&inv->cpods, &inv->cap_cpods, inv->n_cpods + 1, sizeof *inv->cpods) < 0)
		return gs_fail_nomem(inv->err);
	*p = &inv->cpods[inv->n_cpods++];
	memset(*p, 0, sizeof **p);
	(*p)->node = GS_STRMAP_NONE;
	if (!team || !*gs_import_dns_label(team, t))
		gs_import_dns_label(ns, t);
	gs_import_pod_key(key, ns, name);
	if (!((*p)->ns = gs_strdup(ns)) || !((*p)->name = gs_strdup(name)) ||
	    !((*p)->team = gs_strdup(*t ? t : "default")) ||
	    (indexed && gs_strmap_put(&inv->cpod_ix, key, inv->n_cpods - 1) < 0))
		return gs_fail_nomem(inv->err);
	*out = inv->n_pods + inv->n_cpods - 1;
	return 0;
}

static const char *team_of(const gs_inventory *inv, const gs_node *meta)
{
	return inv->team_label ? gs_kube_str(gs_node_get(meta, "labels"), inv->team_label)
	                       : NULL;
}

int gs_import_claim_pod(gs_inventory *inv, const gs_node *meta, const char *name,
                        const char *ns, const gs_node *spec)
{
	const gs_node *rc = gs_node_get(spec, "resourceClaims");
	char key[GS_IMPORT_POD_KEY];
	ipod *p;
	size_t at;
	int r;

	if (!rc || rc->kind != GS_NODE_SEQ || rc->n == 0 ||
	    gs_strmap_find(&inv->cpod_ix, gs_import_pod_key(key, ns, name)) != GS_STRMAP_NONE)
		return 0;
	if ((r = cpod_add(inv, ns, name, team_of(inv, meta), 1, &p, &at)) < 0)
		return r;
	if (gs_import_pod_owner(meta, name, p) < 0)
		return gs_fail_nomem(inv->err);
	return 0;
}

/* ---- the devices of a claim ---------------------------------------------- */

/* "1g.10gb+me" as the driver writes it in device names: dots dropped,
 * other characters but letters and digits made '-', lower case. */
static void sanitized(const char *name, char *out, size_t size)
{
	size_t o = 0;
	for (; *name && o + 1 < size; name++) {
		unsigned char c = (unsigned char)*name;
		if (c != '.')
			out[o++] = isalnum(c) ? (char)tolower(c) : '-';
	}
	out[o] = '\0';
}

/* The MIG profile the rest of a device name after "-mig-" starts with: a
 * profile id followed by '-', or the longest sanitized profile name. */
static const gs_mig_profile *mig_of(const gs_gpu *g, const char *rest)
{
	const gs_mig_profile *best = NULL;
	size_t best_len = 0;
	char *end;
	long id = strtol(rest, &end, 10);

	for (size_t i = 0; i < g->n_mig_profiles; i++) {
		const gs_mig_profile *p = &g->mig_profiles[i];
		char s[64];
		size_t n;
		if (end != rest && *end == '-' && p->id == id)
			return p;
		sanitized(p->name, s, sizeof s);
		n = strlen(s);
		if (n > best_len && strncmp(rest, s, n) == 0 && rest[n] == '-') {
			best = p;
			best_len = n;
		}
	}
	return best;
}

/* What device `dev` of node n is: 0 with *mig set for a MIG device (NULL
 * for a whole GPU), or -1 when the name is not one of the driver's. */
static int device_of(const inode *n, const char *dev, const gs_mig_profile **mig)
{
	const char *p;
	*mig = NULL;
	if (strncmp(dev, "gpu-vfio-", 9) == 0)
		dev += 5;
	if (strncmp(dev, "gpu-", 4) != 0 || !isdigit((unsigned char)dev[4]))
		return -1;
	for (p = dev + 4; isdigit((unsigned char)*p); p++)
		;
	if (!*p)
		return 0;
	if (strncmp(p, "-mig-", 5) != 0)
		return -1;
	*mig = mig_of(n->pub.gpu, p + 5);
	return *mig ? 0 : -1;
}

/* A Kubernetes quantity of bytes ("10Gi", "40G", "1073741824") rounded
 * up to MiB; -1 when it is not one. */
static int64_t quantity_mib(const gs_node *v)
{
	static const struct { const char *sfx; int64_t mult; } units[] = {
		{ "Ki", INT64_C(1) << 10 }, { "Mi", INT64_C(1) << 20 }, { "Gi", INT64_C(1) << 30 },
		{ "Ti", INT64_C(1) << 40 }, { "k", 1000 },              { "M", 1000000 },
		{ "G", 1000000000 },        { "T", INT64_C(1000000000000) }, { "", 1 },
	};
	char num[40];
	size_t i = 0;
	int64_t micro;

	if (!v || (v->kind != GS_NODE_STRING && v->kind != GS_NODE_NUMBER) || !v->text)
		return -1;
	while (v->text[i] && (isdigit((unsigned char)v->text[i]) || v->text[i] == '.'))
		i++;
	if (i == 0 || i >= sizeof num)
		return -1;
	memcpy(num, v->text, i);
	num[i] = '\0';
	if (gs_parse_fixed(num, 1000000, &micro) < 0)
		return -1;
	for (size_t u = 0; u < GS_ARRAY_LEN(units); u++) {
		uwide per_mib = (uwide)1000000 << 20, b;
		if (strcmp(v->text + i, units[u].sfx) != 0)
			continue;
		b = ((uwide)micro * (uint64_t)units[u].mult + per_mib - 1) / per_mib;
		return b > (uwide)INT64_MAX ? -1 : (int64_t)b;
	}
	return -1;
}

/* The memory a result consumes of its device (consumedCapacity "memory",
 * in the driver's domain or not), in MiB; 0 when it states none. */
static int64_t consumed_mib(const gs_node *result)
{
	const gs_node *cc = gs_node_get(result, "consumedCapacity");
	for (size_t i = 0; cc && cc->kind == GS_NODE_MAP && i < cc->n; i++) {
		const char *k = cc->keys[i]->text, *slash = strrchr(k, '/');
		if (strcmp(slash ? slash + 1 : k, "memory") == 0) {
			int64_t mib = quantity_mib(cc->items[i]);
			return mib > 0 ? mib : 0;
		}
	}
	return 0;
}

/* ---- claims -------------------------------------------------------------- */

typedef struct claim {
	const char *file, *ns, *name;
	size_t *pods;           /* the pods that reserve it */
	size_t n;
} claim;

/* The pod a claim is reserved for: counted, holding claims, or (missing
 * from the pod lists) a pod of its own, with a warning. */
static int consumer(gs_inventory *inv, const claim *c, const char *pod, size_t *out)
{
	char key[GS_IMPORT_POD_KEY];
	size_t i = gs_strmap_find(&inv->pod_ix, gs_import_pod_key(key, c->ns, pod));
	ipod *p;
	int rc;

	if (i != GS_STRMAP_NONE) {
		*out = i;
		return 0;
	}
	if ((i = gs_strmap_find(&inv->cpod_ix, key)) != GS_STRMAP_NONE) {
		*out = inv->n_pods + i;
		return 0;
	}
	if ((rc = gs_import_warn(inv, "claim '%s/%s' is reserved for pod '%s', which is "
	                         "not in the pod list", c->ns, c->name, pod)) < 0 ||
	    (rc = cpod_add(inv, c->ns, pod, NULL, 1, &p, out)) < 0)
		return rc;
	return (p->kind = gs_strdup("Pod")) && (p->owner = gs_strdup(pod))
	               ? 0 : gs_fail_nomem(inv->err);
}

/* The pods that reserve the claim, or the claim itself when none does. */
static int consumers(gs_inventory *inv, claim *c, const gs_node *meta, const gs_node *st)
{
	const gs_node *rf = gs_node_get(st, "reservedFor");
	size_t n = rf && rf->kind == GS_NODE_SEQ ? rf->n : 0;
	ipod *p;
	int rc;

	if (!(c->pods = malloc((n ? n : 1) * sizeof *c->pods)))
		return gs_fail_nomem(inv->err);
	for (size_t i = 0; i < n; i++) {
		const char *res = gs_kube_str(rf->items[i], "resource");
		const char *pod = gs_kube_str(rf->items[i], "name");
		if (!res || strcmp(res, "pods") != 0 || !pod)
			continue;
		if ((rc = consumer(inv, c, pod, &c->pods[c->n])) < 0)
			return rc;
		c->n++;
	}
	if (c->n)
		return 0;
	if ((rc = gs_import_warn(inv, "claim '%s/%s' is allocated but reserved for no pod: "
	                         "it holds its devices itself", c->ns, c->name)) < 0 ||
	    (rc = cpod_add(inv, c->ns, c->name, team_of(inv, meta), 0, &p, &c->pods[0])) < 0)
		return rc;
	c->n = 1;
	return (p->kind = gs_strdup("ResourceClaim")) && (p->owner = gs_strdup(c->name))
	               ? 0 : gs_fail_nomem(inv->err);
}

/* Where result r puts a GPU: its node and MIG profile. Returns 1, or 0
 * for a device that holds no GPU (another driver's, or administrative
 * access) or that gpushare cannot place (with a warning), or an error. */
static int gpu_of(gs_inventory *inv, const claim *c, const gs_node *r, size_t *ni,
                  const gs_mig_profile **mig)
{
	const char *driver = gs_kube_str(r, "driver"), *pool = gs_kube_str(r, "pool");
	const char *dev = gs_kube_str(r, "device");
	const gs_node *admin = gs_node_get(r, "adminAccess");
	int rc;

	if (!driver || strcmp(driver, GPU_DRIVER) != 0 ||
	    (admin && admin->text && !admin->quoted && strcmp(admin->text, "true") == 0))
		return 0;
	if (!pool || !dev || (*ni = gs_strmap_find(&inv->node_ix, pool)) == GS_STRMAP_NONE)
		rc = gs_import_warn(inv, "claim '%s/%s': device '%s' of pool '%s' is not on a "
		                    "GPU node of the node list", c->ns, c->name, dev ? dev : "?",
		                    pool ? pool : "?");
	else if (device_of(&inv->nodes[*ni], dev, mig) < 0)
		rc = gs_import_warn(inv, "claim '%s/%s': device '%s' on node '%s' is not a GPU "
		                    "or MIG device gpushare knows", c->ns, c->name, dev, pool);
	else
		return 1;
	return rc;
}

/* One GPU device on node ni: a hold for each pod that reserves the claim. */
static int result(gs_inventory *inv, const claim *c, const gs_node *r, size_t ni,
                  const gs_mig_profile *mig)
{
	ires u;
	memset(&u, 0, sizeof u);
	u.mig = mig;
	u.replicas = 1;
	for (size_t i = 0; i < c->n; i++) {
		gs_hold *h;
		int rc = gs_import_hold_add(inv, c->pods[i], ni, 1, &u);
		if (rc < 0)
			return rc;
		h = &inv->holds[inv->n_holds - 1];
		h->dra = 1;
		h->consumers = (int)c->n;
		h->memory_mib = mig ? 0 : consumed_mib(r);
	}
	return 0;
}

/* The claim's GPU devices, for the pods that reserve it; the pods are
 * looked up once the claim is known to hold a GPU. */
static int read_claim(const char *file, const gs_node *it, size_t i, void *ud)
{
	gs_inventory *inv = ud;
	const gs_node *meta, *st, *results;
	claim c = { file, NULL, NULL, NULL, 0 };
	int rc;

	if ((rc = gs_kube_item_meta(file, it, i, "ResourceClaim", &meta, &c.name, inv->err)) < 0)
		return rc;
	if (!(c.ns = gs_kube_str(meta, "namespace")))
		c.ns = "default";
	st = gs_node_get(it, "status");
	results = gs_node_get(gs_node_get(gs_node_get(st, "allocation"), "devices"), "results");
	for (size_t k = 0; rc == 0 && results && results->kind == GS_NODE_SEQ && k < results->n;
	     k++) {
		const gs_mig_profile *mig = NULL;
		size_t ni = 0;
		if ((rc = gpu_of(inv, &c, results->items[k], &ni, &mig)) <= 0)
			continue;
		if (!c.pods && (rc = consumers(inv, &c, meta, st)) < 0)
			break;
		rc = result(inv, &c, results->items[k], ni, mig);
	}
	free(c.pods);
	return rc;
}

int gs_import_read_claims(gs_inventory *inv, const gs_source *src)
{
	gs_kube_list l = { src, "ResourceClaim", "kubectl get resourceclaims -A -o json" };
	return gs_kube_list_read(&l, read_claim, inv, inv->err);
}
