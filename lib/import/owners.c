/*
 * owners.c - which workload owns a pod: a Deployment (through its
 * ReplicaSet), a CronJob (through its Job), another controller, or the pod
 * itself. Shared by the pods that request GPUs (pods.c) and those that
 * hold them through DRA claims (claims.c).
 */
#include <string.h>

#include "import/import.h"
#include "import/kube_list.h"

/* Deployments own pods through a ReplicaSet named <deployment>-<hash>. */
static size_t deployment_len(const char *rs, const char *hash)
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	size_t n = strlen(rs), h;
	const char *dash = strrchr(rs, '-');
	if (hash && (h = strlen(hash)) + 1 < n && rs[n - h - 1] == '-' &&
	    strcmp(rs + n - h, hash) == 0)
		return n - h - 1;
	if (hash || !dash || dash == rs || !dash[1] || strlen(dash + 1) > 10 ||
	    strspn(dash + 1, alphabet) != strlen(dash + 1))
		return 0;
	return (size_t)(dash - rs);
}

/* CronJobs own pods through a Job named <cronjob>-<minutes>, the minutes
 * since 1970 of its scheduled time (the CronJob controller's getJobName).
 * Only values from 2010 to 2100 count, which no YYYYMMDD date reaches
 * (20,000,000 to 20,991,231), so "train-20260101" stays a Job. */
static size_t cronjob_len(const char *job)
{
	const char *dash = strrchr(job, '-');
	int64_t minutes;

	if (!dash || dash == job || gs_kube_digits(dash + 1, &minutes) < 0 ||
	    minutes < 21038400 || minutes > 68374080)
		return 0;
	return (size_t)(dash - job);
}

int gs_import_pod_owner(const gs_node *meta, const char *pod, ipod *p)
{
	const gs_node *refs = gs_node_get(meta, "ownerReferences"), *ref = NULL;
	const char *kind, *name, *hash;
	size_t len;

	for (size_t i = 0; refs && refs->kind == GS_NODE_SEQ && i < refs->n; i++) {
		const gs_node *c = gs_node_get(refs->items[i], "controller");
		if (!ref || (c && c->text && !c->quoted && strcmp(c->text, "true") == 0))
			ref = refs->items[i];
	}
	kind = gs_kube_str(ref, "kind");
	name = gs_kube_str(ref, "name");
	if (!kind || !name) {
		kind = "Pod";
		name = pod;
	}
	hash = gs_kube_str(gs_node_get(meta, "labels"), "pod-template-hash");
	len = strcmp(kind, "ReplicaSet") == 0 ? deployment_len(name, hash) : 0;
	if (len)
		kind = "Deployment";
	else if (strcmp(kind, "Job") == 0 && (len = cronjob_len(name)))
		kind = "CronJob";
	p->kind = gs_strdup(kind);
	p->owner = gs_strndup(name, len ? len : strlen(name));
	return p->kind && p->owner ? 0 : -1;
}
