/*
 * output.c - what an inventory becomes: the scenario a plan starts from,
 * the workload file's text (that scenario as YAML under a header saying
 * where it came from and what needs a look), and the utilization report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "import/import.h"
#include "scenario/scenario.h"

/* ---- the scenario and the workload file ---------------------------------- */

static int setf(gs_scenario *s, const char *w, const char *key, gs_error *err,
                const char *fmt, ...) GS_PRINTF(5, 6);
static int setf(gs_scenario *s, const char *w, const char *key, gs_error *err,
                const char *fmt, ...)
{
	char v[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof v, fmt, ap);
	va_end(ap);
	return gs_scenario_set(s, w, key, v, err);
}

/* Whether kind is one gpushare patches (gs_object_kind). */
static int patchable(const char *kind)
{
	for (int k = 0; k <= GS_OBJECT_POD; k++)
		if (strcmp(kind, gs_object_kind_name((gs_object_kind)k)) == 0)
			return 1;
	return 0;
}

/* The first container of w's pods that requests GPUs; *n is 1, or 2 when
 * another one does too. */
static const char *gpu_container(const gs_inventory *inv, const iwl *w, size_t *n)
{
	const char *first = NULL;
	*n = 0;
	for (size_t i = 0; i < w->n_pods; i++) {
		const ipod *p = &inv->pods[w->pods[i]];
		for (size_t c = 0; c < p->n_containers; c++) {
			if (!first) {
				first = p->containers[c];
				*n = 1;
			} else if (strcmp(first, p->containers[c]) != 0) {
				*n = 2;
			}
		}
	}
	return first;
}

/* The object its pods belong to: the owner, its namespace when not the
 * file's, and the container that requests the GPU. */
static int set_object(gs_scenario *s, const gs_inventory *inv, const iwl *w, gs_error *err)
{
	const char *n = w->name, *ctr;
	size_t n_ctr;
	int rc = 0;

	if (!patchable(w->kind))
		return 0; /* the header says so */
	if (strcmp(w->kind, "Deployment") != 0)
		rc = gs_scenario_set(s, n, "object.kind", w->kind, err);
	if (rc == 0 && strcmp(w->owner, n) != 0 && gs_is_dns_subdomain(w->owner))
		rc = gs_scenario_set(s, n, "object.name", w->owner, err);
	if (rc == 0 && strcmp(w->ns, gs_scenario_namespace(s)) != 0 && gs_is_dns_label(w->ns))
		rc = gs_scenario_set(s, n, "object.namespace", w->ns, err);
	if (rc == 0 && (ctr = gpu_container(inv, w, &n_ctr)) && gs_is_dns_label(ctr))
		rc = gs_scenario_set(s, n, "object.container", ctr, err);
	return rc;
}

/* The instances its pods run on, and (when they share them) the share of
 * those instances its pods hold, so that the workloads' `current` add up
 * to no more than the cluster. */
static int set_current(gs_scenario *s, const iwl *w, gs_error *err)
{
	const gs_import_workload *pw = &w->pub;
	if (pw->current_ppm >= GS_PPM)
		return setf(s, w->name, "current", err, "%s:%d", pw->instance->type, pw->nodes);
	return setf(s, w->name, "current", err, "%s:%d:%lld.%04lld%%", pw->instance->type,
	            pw->nodes, (long long)(pw->current_ppm / 10000),
	            (long long)(pw->current_ppm % 10000));
}

static int add_workload(gs_scenario *s, const gs_inventory *inv, const iwl *w,
                        gs_error *err)
{
	const gs_import_workload *pw = &w->pub;
	const char *n = w->name;
	char tenant[64];
	int rc;

	if (!*gs_import_dns_label(w->ns, tenant))
		snprintf(tenant, sizeof tenant, "default");
	if ((rc = gs_scenario_add(s, n, err)) < 0 ||
	    (rc = setf(s, n, "replicas", err, "%d", pw->replicas)) < 0 ||
	    (rc = setf(s, n, "gpuMemory", err, "%lldMiB",
	               (long long)pw->gpu_memory_mib)) < 0 ||
	    (rc = setf(s, n, "compute", err, "%lld.%04lld%%",
	               (long long)(pw->file_compute_ppm / 10000),
	               (long long)(pw->file_compute_ppm % 10000))) < 0 ||
	    (rc = setf(s, n, "measuredOn", err, "%s", pw->gpu->name)) < 0 ||
	    (rc = setf(s, n, "team", err, "%s", w->team)) < 0 ||
	    (rc = setf(s, n, "tenant", err, "%s", tenant)) < 0)
		return rc;
	if ((strcmp(w->kind, "Job") == 0 || strcmp(w->kind, "CronJob") == 0) &&
	    (rc = setf(s, n, "kind", err, "batch")) < 0)
		return rc;
	/* Pods of several whole GPUs each: one replica per pod. */
	if (pw->gpus_per_replica > 1 &&
	    (rc = setf(s, n, "gpusPerReplica", err, "%d", pw->gpus_per_replica)) < 0)
		return rc;
	if (pw->instance && (rc = set_current(s, w, err)) < 0)
		return rc;
	return set_object(s, inv, w, err);
}

/* The namespace most planned workloads are in (the first of equals in
 * their order): the file's, so that fewer objects name their own. NULL
 * when out of memory. */
static const char *main_namespace(const gs_inventory *inv)
{
	gs_strmap seen = GS_STRMAP_INIT;
	size_t *count = calloc(inv->n_wls + 1, sizeof *count), most = 0;
	const char *best = count ? "default" : NULL;

	for (size_t i = 0; best && i < inv->n_wls; i++) {
		const iwl *w = &inv->wls[i];
		size_t j = gs_strmap_find(&seen, w->ns);
		if (w->pub.flags & GS_IMPORT_UNSCHEDULED)
			continue;
		if (j == GS_STRMAP_NONE && gs_strmap_put(&seen, w->ns, j = i) < 0)
			best = NULL;
		else if (++count[j] > most) {
			most = count[j];
			best = inv->wls[j].ns;
		}
	}
	gs_strmap_release(&seen);
	free(count);
	return best;
}

int gs_import_scenario(const gs_inventory *inv, gs_scenario **out, gs_error *err)
{
	const char *ns;
	gs_scenario *s;
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < inv->n_wls; i++)
		n += !(inv->wls[i].pub.flags & GS_IMPORT_UNSCHEDULED);
	/* A workload file without workloads would not load. */
	if (!n)
		return gs_fail(err, GS_ESCHEMA,
		               "no pod that requests GPUs runs on a GPU node of the "
		               "node list: nothing to plan");
	if ((rc = gs_scenario_new(inv->cat, &s, err)) < 0)
		return rc;
	rc = gs_scenario_set(s, NULL, "cloud", inv->sum.cloud, err);
	if (rc == 0 && !(ns = main_namespace(inv)))
		rc = gs_fail_nomem(err);
	if (rc == 0 && strcmp(ns, "default") != 0 && gs_is_dns_label(ns))
		rc = gs_scenario_set(s, NULL, "namespace", ns, err);
	for (size_t i = 0; rc == 0 && i < inv->n_wls; i++)
		if (!(inv->wls[i].pub.flags & GS_IMPORT_UNSCHEDULED))
			rc = add_workload(s, inv, &inv->wls[i], err);
	if (rc < 0) {
		gs_scenario_free(s);
		return rc;
	}
	/* What the cluster costs today: a later plan compares with this. */
	gs_scenario_set_cluster(s, inv->sum.cost_per_hour > 0 ? inv->sum.cost_per_hour : -1,
	                        inv->sum.gpus, inv->sum.nodes);
	for (size_t i = 0; i < inv->n_nodes; i++)
		s->cluster_unpriced += inv->nodes[i].pub.price_per_hour < 0;
	*out = s;
	return 0;
}

/* What `object` could not say: an owner gpushare does not patch, several
 * containers that request GPUs. Kinds and container names are escaped
 * (gs_import_dns_label), so nothing breaks out of the comment. */
static void object_notes(const gs_inventory *inv, const iwl *w, gs_buf *b)
{
	char kind[64], ctr[64];
	const char *first;
	size_t n;

	if (w->pub.flags & GS_IMPORT_UNSCHEDULED)
		return;
	if (!patchable(w->kind)) {
		gs_buf_printf(b, "# %s: its pods belong to a %s, which gpushare cannot patch: "
		              "edit or remove it\n", w->name,
		              gs_label_value(w->kind, kind));
		return;
	}
	if ((first = gpu_container(inv, w, &n)) && n > 1)
		gs_buf_printf(b, "# %s: several containers request GPUs; object.container "
		              "names %s\n", w->name, gs_import_dns_label(first, ctr));
}

/* The file's header says where it came from and what needs a look. Names
 * are DNS labels, so nothing here can break out of the comment. */
static void header(const gs_inventory *inv, gs_buf *b)
{
	gs_buf_printf(b, "# Imported by 'gpushare import': %d GPU nodes, %d pods; "
	              "gpuMemory and\n"
	              "# compute are the p%d of %zu DCGM samples. "
	              "Review before planning.\n",
	              inv->sum.nodes, inv->sum.pods, inv->percentile,
	              inv->sum.samples);
	for (size_t i = 0; i < inv->n_wls; i++) {
		const gs_import_workload *w = &inv->wls[i].pub;
		if (w->flags & GS_IMPORT_UNSCHEDULED)
			gs_buf_printf(b, "# %s: no pod runs on a known GPU node, "
			              "left out\n", w->name);
		else if (w->flags & GS_IMPORT_NO_METRICS)
			gs_buf_printf(b, "# %s: no metrics, keeps what it requested\n",
			              w->name);
		else if (w->flags & GS_IMPORT_PARTIAL)
			gs_buf_printf(b, "# %s: no metrics for %d of %d pods\n", w->name,
			              w->pods - w->pods_measured, w->pods);
		object_notes(inv, &inv->wls[i], b);
	}
}

int gs_import_render(const gs_inventory *inv, char **out, gs_error *err)
{
	gs_scenario *s = NULL;
	gs_doc *doc = NULL;
	gs_buf text = GS_BUF_INIT;
	char *yaml = NULL;
	int rc;

	if ((rc = gs_import_scenario(inv, &s, err)) < 0 ||
	    (rc = gs_doc_scenario(s, &doc, err)) < 0 ||
	    (rc = gs_doc_render(doc, GS_FORMAT_YAML, &yaml, err)) < 0)
		goto done;
	header(inv, &text);
	gs_buf_puts(&text, yaml);
	rc = gs_buf_detach(&text, out, err);
done:
	free(yaml);
	gs_doc_free(doc);
	gs_scenario_free(s);
	return rc;
}

int gs_import_write(const gs_inventory *inv, const char *path, int exclusive, gs_error *err)
{
	char *text;
	int rc = gs_import_render(inv, &text, err);
	if (rc < 0)
		return rc;
	rc = gs_write_atomic(path, text, strlen(text), exclusive, err);
	free(text);
	return rc;
}

/* ---- the utilization report ---------------------------------------------- */

static gs_node *pct(int64_t ppm) { return gs_node_fixed(ppm, 10000, 1); }
static gs_node *pct4(int64_t ppm) { return gs_node_fixed(ppm, 10000, 4); }
static gs_node *gpus(int64_t ppm) { return gs_node_fixed(ppm, GS_PPM, 2); }
static gs_node *price(gs_micros m)
{
	return m < 0 ? gs_node_str(NULL) : gs_node_money(m, 2);
}

static gs_node *gpu_node(const gs_import_gpu *g)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "index", gs_node_int(g->index));
	rc |= gs_node_put(m, "compute_percent",
	                  g->measured ? pct(g->compute_ppm) : gs_node_str(NULL));
	rc |= gs_node_put(m, "memory_mib", g->memory_mib >= 0 ? gs_node_int(g->memory_mib)
	                                                      : gs_node_str(NULL));
	rc |= gs_node_put(m, "metric", gs_node_str(g->metric));
	rc |= gs_node_put(m, "pod_metrics", gs_node_bool(g->attributed));
	rc |= gs_node_put(m, "holders", gs_node_int(g->holders));
	rc |= gs_node_put(m, "division", gs_node_str(g->division));
	return gs_node_done(m, rc);
}

static gs_node *node_node(const gs_import_node *n)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL), *g = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; i < n->n_gpus; i++)
		rc |= gs_node_push(g, gpu_node(&n->gpus[i]));
	rc |= gs_node_put(m, "name", gs_node_str(n->name));
	rc |= gs_node_put(m, "instance", gs_node_str(n->instance_type));
	rc |= gs_node_put(m, "gpu", gs_node_str(n->gpu->name));
	rc |= gs_node_put(m, "product", gs_node_str(n->product));
	rc |= gs_node_put(m, "gpu_count", gs_node_int(n->gpu_count));
	rc |= gs_node_put(m, "gpu_memory_mib", gs_node_int(n->gpu_memory_mib));
	rc |= gs_node_put(m, "sharing", gs_node_str(n->sharing));
	rc |= gs_node_put(m, "replicas", gs_node_int(n->replicas));
	rc |= gs_node_put(m, "price_per_hour", price(n->price_per_hour));
	rc |= gs_node_put(m, "pods", gs_node_int(n->pods));
	rc |= gs_node_put(m, "requested_gpus", gpus(n->requested_ppm));
	rc |= gs_node_put(m, "gpus", g);
	rc |= gs_node_put(m, "idle_unrequested", gs_node_int(n->idle_unrequested));
	rc |= gs_node_put(m, "idle_low_activity", gs_node_int(n->idle_low));
	rc |= gs_node_put(m, "idle_per_month", gs_node_money(n->idle_per_month, 2));
	return gs_node_done(m, rc);
}

static gs_node *flags_node(unsigned f)
{
	static const char *const names[] = { "no-metrics", "partial-metrics", "mixed-models",
		                                 "unscheduled", "multi-gpu" };
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (unsigned i = 0; i < GS_ARRAY_LEN(names); i++)
		if (f & (1u << i))
			rc |= gs_node_push(seq, gs_node_str(names[i]));
	return gs_node_done(seq, rc);
}

static gs_node *workload_node(const gs_import_workload *w)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "name", gs_node_str(w->name));
	rc |= gs_node_put(m, "namespace", gs_node_str(w->namespace_));
	rc |= gs_node_put(m, "owner_kind", gs_node_str(w->owner_kind));
	rc |= gs_node_put(m, "owner", gs_node_str(w->owner));
	rc |= gs_node_put(m, "team", gs_node_str(w->team));
	rc |= gs_node_put(m, "pods", gs_node_int(w->pods));
	rc |= gs_node_put(m, "pods_measured", gs_node_int(w->pods_measured));
	rc |= gs_node_put(m, "replicas", gs_node_int(w->replicas));
	rc |= gs_node_put(m, "requested_gpus", gpus(w->requested_ppm));
	rc |= gs_node_put(m, "gpu", gs_node_str(w->gpu ? w->gpu->name : NULL));
	rc |= gs_node_put(m, "instance", gs_node_str(w->instance ? w->instance->type : NULL));
	rc |= gs_node_put(m, "nodes", gs_node_int(w->nodes));
	rc |= gs_node_put(m, "metric", gs_node_str(w->metric));
	rc |= gs_node_put(m, "compute_percent", pct(w->compute_ppm));
	rc |= gs_node_put(m, "memory_mib", gs_node_int(w->memory_mib));
	rc |= gs_node_put(m, "memory_measured", gs_node_bool(w->memory_measured));
	rc |= gs_node_put(m, "gpu_memory_mib", gs_node_int(w->gpu_memory_mib));
	rc |= gs_node_put(m, "compute", gs_node_int(w->compute_percent));
	rc |= gs_node_put(m, "flags", flags_node(w->flags));
	rc |= gs_node_put(m, "gpus_per_replica", gs_node_int(w->gpus_per_replica));
	rc |= gs_node_put(m, "compute_written_percent", pct4(w->file_compute_ppm));
	rc |= gs_node_put(m, "current_share_percent", pct4(w->current_ppm));
	rc |= gs_node_put(m, "current_per_hour", price(w->current_per_hour));
	return gs_node_done(m, rc);
}

static gs_node *summary_node(const gs_import_summary *s)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "cloud", gs_node_str(s->cloud));
	rc |= gs_node_put(m, "nodes", gs_node_int(s->nodes));
	rc |= gs_node_put(m, "gpus", gs_node_int(s->gpus));
	rc |= gs_node_put(m, "pods", gs_node_int(s->pods));
	rc |= gs_node_put(m, "workloads", gs_node_int(s->workloads));
	rc |= gs_node_put(m, "percentile", gs_node_int(s->percentile));
	rc |= gs_node_put(m, "hours_per_month", gs_node_int(s->hours_per_month));
	rc |= gs_node_put(m, "cost_per_hour", gs_node_money(s->cost_per_hour, 2));
	rc |= gs_node_put(m, "cost_per_month",
	                  gs_node_money(s->cost_per_hour * s->hours_per_month, 2));
	rc |= gs_node_put(m, "idle_gpus", gs_node_int(s->idle_gpus));
	rc |= gs_node_put(m, "idle_per_month", gs_node_money(s->idle_per_month, 2));
	rc |= gs_node_put(m, "samples", gs_node_int((int64_t)s->samples));
	rc |= gs_node_put(m, "unmatched_samples", gs_node_int((int64_t)s->unmatched));
	rc |= gs_node_put(m, "bad_samples", gs_node_int((int64_t)s->bad_samples));
	rc |= gs_node_put(m, "nodes_left_out", gs_node_int(s->nodes_left_out));
	return gs_node_done(m, rc);
}

int gs_doc_import_report(const gs_inventory *inv, gs_doc **out, gs_error *err)
{
	gs_node *root = gs_node_new(GS_NODE_MAP, NULL), *nodes = gs_node_new(GS_NODE_SEQ, NULL);
	gs_node *wls = gs_node_new(GS_NODE_SEQ, NULL), *warns = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	/* The lists belong to root first, so a failure below frees them. */
	rc |= gs_node_put(root, "summary", summary_node(&inv->sum));
	rc |= gs_node_put(root, "nodes", nodes);
	rc |= gs_node_put(root, "workloads", wls);
	rc |= gs_node_put(root, "warnings", warns);
	for (size_t i = 0; !rc && i < inv->n_nodes; i++)
		rc |= gs_node_push(nodes, node_node(&inv->nodes[i].pub));
	for (size_t i = 0; !rc && i < inv->n_wls; i++)
		rc |= gs_node_push(wls, workload_node(&inv->wls[i].pub));
	for (size_t i = 0; !rc && i < inv->n_warnings; i++)
		rc |= gs_node_push(warns, gs_node_str(inv->warnings[i]));
	return gs_doc_wrap(gs_node_done(root, rc), out, err);
}
