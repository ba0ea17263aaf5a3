/*
 * import.c - a cluster as gpushare sees it: GPU nodes from kubectl's node
 * list (gpu-feature-discovery labels, nvidia.com resources), workloads from
 * its pod list (owners and GPU requests), and their DCGM samples reduced to
 * a percentile per workload and per GPU. Nothing is guessed: an unknown GPU
 * product is an error, a missing price or metric is reported as missing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

/* ---- small containers --------------------------------------------------- */

int gs_import_warn(gs_inventory *inv, const char *fmt, ...)
{
	char msg[GS_ERROR_MSG_MAX];
	char *copy;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!(copy = gs_strdup(msg)) ||
	    gs_grow(&inv->warnings, &inv->cap_warnings, inv->n_warnings + 1,
	            sizeof *inv->warnings) < 0) {
		free(copy);
		return gs_fail_nomem(inv->err);
	}
	inv->warnings[inv->n_warnings++] = copy;
	return 0;
}

char *gs_import_dns_label(const char *s, char out[64])
{
	size_t o = 0;
	for (; *s && o < 63; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '-';
		if (c != '-' || o > 0)
			out[o++] = c;
	}
	while (o > 0 && out[o - 1] == '-')
		o--;
	out[o] = '\0';
	return out;
}

static int finish(gs_inventory *inv)
{
	int rc = gs_import_name_workloads(inv);
	inv->sum.cloud = NULL;
	for (size_t i = 0; i < inv->n_nodes; i++) {
		const gs_instance *in = inv->nodes[i].pub.instance;
		gs_import_measure_node(inv, &inv->nodes[i]);
		if (in && (!inv->sum.cloud || strcmp(inv->sum.cloud, in->cloud) == 0))
			inv->sum.cloud = in->cloud;
		else if (in)
			inv->sum.cloud = "all";
	}
	if (!inv->sum.cloud)
		inv->sum.cloud = "all";
	for (size_t i = 0; i < inv->n_wls && rc == 0; i++)
		rc = gs_import_measure_workload(inv, &inv->wls[i]);
	inv->sum.nodes = (int)inv->n_nodes;
	inv->sum.pods = (int)inv->n_pods;
	inv->sum.workloads = (int)inv->n_wls;
	inv->sum.percentile = inv->percentile;
	inv->sum.hours_per_month = GS_HOURS_PER_MONTH;
	return rc;
}

/* ---- lifecycle ---------------------------------------------------------------------------- */

static int import_once(const gs_catalog *cat, const gs_import_opts *opts, int yaml_only,
                       gs_inventory **out, gs_error *err);

/* cJSON keeps no positions, so an import that fails without one is run
 * again with the YAML reader alone, which locates the same error. Only
 * failures pay for the second pass. */
int gs_import_load(const gs_catalog *cat, const gs_import_opts *opts, gs_inventory **out,
                   gs_error *err)
{
	gs_error first, second;
	int rc = import_once(cat, opts, 0, out, &first);
	if (rc == 0)
		return 0;
	if (!first.line && first.file[0]) {
		int rc2 = import_once(cat, opts, 1, out, &second);
		if (rc2 == 0)
			return 0; /* the readers disagree; the YAML reader's answer stands */
		if (second.line)
			first = second;
	}
	if (err)
		*err = first;
	return rc;
}

static int import_once(const gs_catalog *cat, const gs_import_opts *opts, int yaml_only,
                       gs_inventory **out, gs_error *err)
{
	gs_inventory *inv;
	int rc;

	if (!opts->nodes || !opts->pods)
		return gs_fail(err, GS_EINVAL, "both a node list and a pod list are needed");
	if (opts->percentile < 1 || opts->percentile > 100)
		return gs_fail(err, GS_EINVAL, "the percentile must be from 1 to 100, not %d",
		               opts->percentile);
	if (!(inv = calloc(1, sizeof *inv)))
		return gs_fail_nomem(err);
	inv->cat = cat;
	inv->err = err;
	inv->yaml_only = yaml_only;
	inv->team_label = opts->team_label;
	inv->percentile = opts->percentile;
	rc = gs_import_read_nodes(inv, opts->nodes);
	if (rc == 0)
		rc = gs_import_read_pods(inv, opts->pods);
	for (size_t i = 0; rc == 0 && i < opts->n_metrics; i++)
		rc = gs_import_read_metrics(inv, opts->metrics[i]);
	if (rc == 0)
		rc = finish(inv);
	inv->err = NULL;
	inv->team_label = NULL;
	if (rc < 0) {
		gs_import_free(inv);
		return rc;
	}
	*out = inv;
	return 0;
}

static void node_release(inode *n)
{
	for (size_t g = 0; n->m && g < n->pub.n_gpus * M_COUNT; g++)
		free(n->m[g].v);
	for (size_t r = 0; r < n->n_res; r++)
		free(n->res[r].name);
	free(n->m);
	free(n->res);
	free(n->gpus);
	free(n->name);
	free(n->type);
	free(n->product);
}

static void pod_release(ipod *p)
{
	for (int k = 0; k < M_COUNT; k++)
		free(p->m[k].v);
	for (size_t c = 0; c < p->n_containers; c++)
		free(p->containers[c]);
	free(p->containers);
	free(p->ns);
	free(p->name);
	free(p->kind);
	free(p->owner);
	free(p->team);
}

void gs_import_free(gs_inventory *inv)
{
	if (!inv)
		return;
	for (size_t i = 0; i < inv->n_nodes; i++)
		node_release(&inv->nodes[i]);
	for (size_t i = 0; i < inv->n_pods; i++)
		pod_release(&inv->pods[i]);
	for (size_t i = 0; i < inv->n_wls; i++) {
		free(inv->wls[i].pods);
		free(inv->wls[i].name);
	}
	for (size_t i = 0; i < inv->n_warnings; i++)
		free(inv->warnings[i]);
	gs_strmap_release(&inv->node_ix);
	gs_strmap_release(&inv->pod_ix);
	gs_strmap_release(&inv->wl_ix);
	free(inv->warnings);
	free(inv->nodes);
	free(inv->pods);
	free(inv->wls);
	free(inv);
}

const gs_import_summary *gs_import_summary_get(const gs_inventory *inv) { return &inv->sum; }
size_t gs_import_node_count(const gs_inventory *inv) { return inv->n_nodes; }
const gs_import_node *gs_import_node_at(const gs_inventory *inv, size_t i)
{
	return i < inv->n_nodes ? &inv->nodes[i].pub : NULL;
}
size_t gs_import_workload_count(const gs_inventory *inv) { return inv->n_wls; }
const gs_import_workload *gs_import_workload_at(const gs_inventory *inv, size_t i)
{
	return i < inv->n_wls ? &inv->wls[i].pub : NULL;
}
size_t gs_import_warning_count(const gs_inventory *inv) { return inv->n_warnings; }
const char *gs_import_warning_at(const gs_inventory *inv, size_t i)
{
	return i < inv->n_warnings ? inv->warnings[i] : NULL;
}

/* ---- the workload file ----------------------------------------------------------------- */

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

static int add_workload(gs_scenario *s, const iwl *w, gs_error *err)
{
	const gs_import_workload *pw = &w->pub;
	const char *n = w->name;
	char tenant[64];
	int rc;

	if (!*gs_import_dns_label(w->ns, tenant))
		snprintf(tenant, sizeof tenant, "default");
	if ((rc = gs_scenario_add(s, n, err)) < 0 ||
	    (rc = setf(s, n, "replicas", err, "%d", pw->replicas)) < 0 ||
	    (rc = setf(s, n, "gpuMemory", err, "%lldMiB", (long long)pw->gpu_memory_mib)) < 0 ||
	    (rc = setf(s, n, "compute", err, "%d%%", pw->compute_percent)) < 0 ||
	    (rc = setf(s, n, "measuredOn", err, "%s", pw->gpu->name)) < 0 ||
	    (rc = setf(s, n, "team", err, "%s", w->team)) < 0 ||
	    (rc = setf(s, n, "tenant", err, "%s", tenant)) < 0)
		return rc;
	if (strcmp(w->kind, "Job") == 0 && (rc = setf(s, n, "kind", err, "batch")) < 0)
		return rc;
	if (pw->instance)
		rc = setf(s, n, "current", err, "%s:%d", pw->instance->type, pw->nodes);
	return rc;
}

int gs_import_scenario(const gs_inventory *inv, gs_scenario **out, gs_error *err)
{
	gs_scenario *s;
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < inv->n_wls; i++)
		n += !(inv->wls[i].pub.flags & GS_IMPORT_UNSCHEDULED);
	/* A workload file without workloads would not load. */
	if (!n)
		return gs_fail(err, GS_ESCHEMA,
		               "no pod that requests GPUs runs on a GPU node of the node list: nothing to plan");
	if ((rc = gs_scenario_new(inv->cat, &s, err)) < 0)
		return rc;
	rc = gs_scenario_set(s, NULL, "cloud", inv->sum.cloud, err);
	for (size_t i = 0; rc == 0 && i < inv->n_wls; i++)
		if (!(inv->wls[i].pub.flags & GS_IMPORT_UNSCHEDULED))
			rc = add_workload(s, &inv->wls[i], err);
	if (rc < 0) {
		gs_scenario_free(s);
		return rc;
	}
	/* What the cluster costs today: a later plan compares with this. */
	gs_scenario_set_cluster(s, inv->sum.cost_per_hour > 0 ? inv->sum.cost_per_hour : -1,
	                        inv->sum.gpus, inv->sum.nodes);
	*out = s;
	return 0;
}

static int append(char **text, size_t *len, size_t *cap, const char *fmt, ...) GS_PRINTF(4, 5);
static int append(char **text, size_t *len, size_t *cap, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line || gs_grow(text, cap, *len + (size_t)n + 1, 1) < 0)
		return -1;
	memcpy(*text + *len, line, (size_t)n + 1);
	*len += (size_t)n;
	return 0;
}

/* The file's header says where it came from and what needs a look. Names
 * are DNS labels, so nothing here can break out of the comment. */
static int header(const gs_inventory *inv, char **text, size_t *len, size_t *cap)
{
	int rc = append(text, len, cap,
	                "# Imported by 'gpushare import': %d GPU nodes, %d pods; gpuMemory and\n"
	                "# compute are the p%d of %zu DCGM samples. Review before planning.\n",
	                inv->sum.nodes, inv->sum.pods, inv->percentile, inv->sum.samples);
	for (size_t i = 0; rc == 0 && i < inv->n_wls; i++) {
		const gs_import_workload *w = &inv->wls[i].pub;
		if (w->flags & GS_IMPORT_UNSCHEDULED)
			rc = append(text, len, cap, "# %s: no pod runs on a known GPU node, left out\n",
			            w->name);
		else if (w->flags & GS_IMPORT_NO_METRICS)
			rc = append(text, len, cap, "# %s: no metrics, keeps what it requested\n", w->name);
		else if (w->flags & GS_IMPORT_PARTIAL)
			rc = append(text, len, cap, "# %s: no metrics for %d of %d pods\n", w->name,
			            w->pods - w->pods_measured, w->pods);
	}
	return rc;
}

int gs_import_render(const gs_inventory *inv, char **out, gs_error *err)
{
	gs_scenario *s = NULL;
	gs_doc *doc = NULL;
	char *yaml = NULL, *text = NULL;
	size_t len = 0, cap = 0, n;
	int rc;

	if ((rc = gs_import_scenario(inv, &s, err)) < 0 || (rc = gs_doc_scenario(s, &doc, err)) < 0 ||
	    (rc = gs_doc_render(doc, GS_FORMAT_YAML, &yaml, err)) < 0)
		goto done;
	n = strlen(yaml);
	if (header(inv, &text, &len, &cap) < 0 || gs_grow(&text, &cap, len + n + 1, 1) < 0) {
		rc = gs_fail_nomem(err);
		goto done;
	}
	memcpy(text + len, yaml, n + 1);
	*out = text;
	text = NULL;
done:
	free(text);
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

/* ---- the utilization report ------------------------------------------------------------- */

static gs_node *pct(int64_t ppm) { return gs_node_fixed(ppm, 10000, 1); }
static gs_node *gpus(int64_t ppm) { return gs_node_fixed(ppm, GS_PPM, 2); }
static gs_node *price(gs_micros m) { return m < 0 ? gs_node_str(NULL) : gs_node_money(m, 2); }

static gs_node *done_or_null(gs_node *m, int rc)
{
	if (rc) {
		gs_node_free(m);
		return NULL;
	}
	return m;
}

static gs_node *gpu_node(const gs_import_gpu *g)
{
	gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
	int rc = 0;
	rc |= gs_node_put(m, "index", gs_node_int(g->index));
	rc |= gs_node_put(m, "compute_percent", g->measured ? pct(g->compute_ppm) : gs_node_str(NULL));
	rc |= gs_node_put(m, "memory_mib", g->memory_mib >= 0 ? gs_node_int(g->memory_mib)
	                                                      : gs_node_str(NULL));
	rc |= gs_node_put(m, "metric", gs_node_str(g->metric));
	rc |= gs_node_put(m, "pod_metrics", gs_node_bool(g->attributed));
	return done_or_null(m, rc);
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
	return done_or_null(m, rc);
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
	return done_or_null(seq, rc);
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
	return done_or_null(m, rc);
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
	rc |= gs_node_put(m, "cost_per_month", gs_node_money(s->cost_per_hour * s->hours_per_month, 2));
	rc |= gs_node_put(m, "idle_gpus", gs_node_int(s->idle_gpus));
	rc |= gs_node_put(m, "idle_per_month", gs_node_money(s->idle_per_month, 2));
	rc |= gs_node_put(m, "samples", gs_node_int((int64_t)s->samples));
	rc |= gs_node_put(m, "unmatched_samples", gs_node_int((int64_t)s->unmatched));
	return done_or_null(m, rc);
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
	if (rc) {
		gs_node_free(root);
		return gs_fail_nomem(err);
	}
	return gs_doc_wrap(root, out, err);
}
