/*
 * keys.c - the keys of a workload file, in one table (see keys.h): each
 * key's row and the functions that read it and write it back. Reading
 * goes through gs_scenario_read_key, for files and for `set` alike, so a
 * value typed at the prompt is checked exactly as the same value in a
 * file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/keys.h"
#include "scenario/values.h"

static const char *const kind_names[] = { "inference", "batch", "training",
	                                      "notebook", "ci" };
static const char *const spread_names[] = { "none", "gpu", "node" };
static const char *const latencies[] = { "tolerant", "critical" };
static const char *const isolations[] = { "none", "fault" };
static const char *const pricings[] = { "on-demand", "spot" };
static const char *const vias[] = { "device-plugin", "dra" };
static const char *const bounds[] = { "compute", "memory-bandwidth" };
static const char *const archs[] = { "amd64", "arm64", "any" }; /* as gs_arch */

const char *gs_kind_name(gs_kind k) { return kind_names[k]; }

static const char *const object_kinds[] = { "Deployment", "StatefulSet", "Job", "CronJob",
	                                        "Pod" }; /* as gs_object_kind */
const char *gs_object_kind_name(gs_object_kind k)
{
	return (unsigned)k < GS_ARRAY_LEN(object_kinds) ? object_kinds[k] : "unknown";
}
const char *gs_bound_name(gs_bound b)
{
	return (unsigned)b < GS_ARRAY_LEN(bounds) ? bounds[b] : "unknown";
}

const char *gs_spread_name(gs_spread sp) { return spread_names[sp]; }

static int put_str(gs_node *map, const char *key, const char *text)
{
	return gs_node_put(map, key, gs_node_str(text));
}

/* ---- workload keys ------------------------------------------------------ */

static int read_name(const gs_key_dst *d, const gs_node *v)
{
	return gs_read_label(d->c, v, "name", &d->w->name);
}

static int write_name(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, s->w->pub.name);
}

static int read_kind(const gs_key_dst *d, const gs_node *v)
{
	int i, rc = gs_read_choice(d->c, v, "kind", kind_names,
	                           GS_ARRAY_LEN(kind_names), &i);
	if (rc == 0)
		d->w->pub.kind = (gs_kind)i;
	return rc;
}

static int write_kind(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, kind_names[s->w->pub.kind]);
}

static int read_replicas(const gs_key_dst *d, const gs_node *v)
{
	gs_ctx *c = d->c;
	int64_t x;
	int rc = gs_scalar_int(c, v, 1, 100000, &x);

	if (rc == 0) {
		d->w->pub.replicas = (int)x;
	} else if (v->kind == GS_NODE_STRING && strcmp(v->text, "0") == 0) {
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v, "replicas must be at "
		                  "least 1 (remove the workload instead)");
	} else if (c->err) {
		gs_error tmp = *c->err;
		gs_fail_node(c->err, rc, c->file, v, "'replicas': %s", tmp.msg);
	}
	return rc;
}

static int write_replicas(const gs_key_src *s, gs_node *map, const char *key)
{
	return gs_node_put(map, key, gs_node_int(s->w->pub.replicas));
}

static int read_memory(const gs_key_dst *d, const gs_node *v)
{
	int64_t x;
	int rc = gs_scalar_bytes(d->c, v, &x);

	if (rc == 0 && x == 0)
		rc = gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, v,
		                  "gpuMemory must be more than 0");
	if (rc == 0) {
		d->w->pub.memory_bytes = x;
		d->w->has_memory = 1;
	}
	return rc;
}

static int write_memory(const gs_key_src *s, gs_node *map, const char *key)
{
	return gs_node_put(map, key, gs_bytes_node(s->w->pub.memory_bytes));
}

static int read_compute(const gs_key_dst *d, const gs_node *v)
{
	gs_ctx *c = d->c;
	int64_t x;
	int rc = gs_scalar_share(c, v, &x);

	if (rc == 0 && x > GS_PPM && !strchr(v->text, '%'))
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                  "compute '%s' is a fraction of a GPU, so %s means more "
		                  "than 100%%; write '%s%%'", v->text, v->text, v->text);
	else if (rc == 0 && (x <= 0 || x > GS_PPM))
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                  "compute must be more than 0 and at most 100%%, "
		                  "not '%s'", v->text);
	if (rc == 0) {
		d->w->pub.compute_ppm = x;
		d->w->has_compute = 1;
	}
	return rc;
}

static int write_compute(const gs_key_src *s, gs_node *map, const char *key)
{
	return gs_node_put(map, key, gs_share_node(s->w->pub.compute_ppm));
}

static int read_measured_on(const gs_key_dst *d, const gs_node *v)
{
	return gs_read_gpu(d->c, d->s->cat, v, &d->w->pub.measured_on);
}

static int write_measured_on(const gs_key_src *s, gs_node *map, const char *key)
{
	const gs_gpu *g = s->w->pub.measured_on;
	return g ? put_str(map, key, g->name) : 0;
}

static int read_bound(const gs_key_dst *d, const gs_node *v)
{
	int i, rc = gs_read_choice(d->c, v, "bound", bounds, GS_ARRAY_LEN(bounds), &i);
	if (rc == 0) {
		d->w->pub.bound = (gs_bound)i;
		d->w->has_bound = 1;
	}
	return rc;
}

/* Written only when the file said it: otherwise it follows the kind. */
static int write_bound(const gs_key_src *s, gs_node *map, const char *key)
{
	return s->w->has_bound ? put_str(map, key, bounds[s->w->pub.bound]) : 0;
}

/* memoryHeadroom, at either level: a share from 0% (off) to 90%. */
static int read_headroom_value(gs_ctx *c, const gs_node *v, int64_t *out)
{
	int rc = gs_scalar_share(c, v, out);
	if (rc == 0 && (*out < 0 || *out > GS_MAX_MEMORY_HEADROOM_PPM))
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                  "memoryHeadroom must be from 0%% to 90%%, not '%s'", v->text);
	return rc;
}

static int read_wl_headroom(const gs_key_dst *d, const gs_node *v)
{
	return read_headroom_value(d->c, v, &d->w->pub.memory_headroom_ppm);
}

static int write_wl_headroom(const gs_key_src *s, gs_node *map, const char *key)
{
	int64_t h = s->w->pub.memory_headroom_ppm;
	return h >= 0 ? gs_node_put(map, key, gs_share_node(h)) : 0;
}

static int read_latency(const gs_key_dst *d, const gs_node *v)
{
	int i, rc = gs_read_choice(d->c, v, "latency", latencies,
	                           GS_ARRAY_LEN(latencies), &i);
	if (rc == 0)
		d->w->pub.latency_critical = i;
	return rc;
}

static int write_latency(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, latencies[s->w->pub.latency_critical ? 1 : 0]);
}

static int read_isolation(const gs_key_dst *d, const gs_node *v)
{
	int i, rc = gs_read_choice(d->c, v, "isolation", isolations,
	                           GS_ARRAY_LEN(isolations), &i);
	if (rc == 0)
		d->w->pub.isolation_fault = i;
	return rc;
}

static int write_isolation(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, isolations[s->w->pub.isolation_fault ? 1 : 0]);
}

static int read_tenant(const gs_key_dst *d, const gs_node *v)
{
	return gs_read_label(d->c, v, "tenant", &d->w->tenant);
}

static int write_tenant(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, s->w->pub.tenant);
}

static int read_team(const gs_key_dst *d, const gs_node *v)
{
	return gs_read_label(d->c, v, "team", &d->w->team);
}

static int write_team(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, s->w->pub.team);
}

static int read_wl_gpus(const gs_key_dst *d, const gs_node *v)
{
	return gs_read_gpu_list(d->c, d->s->cat, v, &d->w->gpus, &d->w->pub.n_gpus);
}

static int write_wl_gpus(const gs_key_src *s, gs_node *map, const char *key)
{
	const gs_workload *w = &s->w->pub;
	return w->n_gpus ? gs_node_put(map, key, gs_gpus_node(w->gpus, w->n_gpus)) : 0;
}

static int read_spread(const gs_key_dst *d, const gs_node *v)
{
	int i, rc = gs_read_choice(d->c, v, "spread", spread_names,
	                           GS_ARRAY_LEN(spread_names), &i);
	if (rc == 0)
		d->w->pub.spread = (gs_spread)i;
	return rc;
}

static int write_spread(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, spread_names[s->w->pub.spread]);
}

/* The share of its instances a workload holds: more than 0, at most 100%. */
static int read_current_share(gs_ctx *c, const gs_node *v, int64_t *out)
{
	const gs_node *x = gs_node_get(v, "share");
	int rc;
	*out = 0;
	if (!x)
		return 0;
	if ((rc = gs_scalar_share(c, x, out)) < 0)
		return rc;
	if (*out <= 0 || *out > GS_PPM)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, x,
		                    "current share must be more than 0%% and at most 100%%, "
		                    "not '%s'", x->text);
	if (*out == GS_PPM)
		*out = 0;
	return 0;
}

/* What the workload runs on today: {instance: TYPE, count: N, share: S}. */
static int read_current(const gs_key_dst *d, const gs_node *v)
{
	static const char *const keys[] = { "instance", "count", "share" };
	gs_ctx *c = d->c;
	gs_workload *pw = &d->w->pub;
	const char *type = NULL, *near;
	int64_t count = 1, share = 0;
	int rc;

	if ((rc = gs_need_kind(c, v, GS_NODE_MAP, "'current'")) < 0 ||
	    (rc = gs_check_keys(c, v, keys, 3)) < 0 ||
	    (rc = gs_get_str(c, v, "instance", 1, &type)) < 0 ||
	    (rc = gs_get_int(c, v, "count", 0, 1, 100000, &count)) < 0 ||
	    (rc = read_current_share(c, v, &share)) < 0)
		return rc;
	if (!(pw->current = gs_instance_find(d->s->cat, type))) {
		near = gs_instance_suggest(d->s->cat, type);
		return gs_fail_node(c->err, GS_ENOTFOUND, c->file,
		                    gs_node_get(v, "instance"),
		                    "unknown instance type '%s'%s%s%s", type,
		                    near ? " (did you mean '" : "", near ? near : "",
		                    near ? "'?)" : "");
	}
	pw->current_count = (int)count;
	pw->current_share_ppm = share;
	return 0;
}

static int write_current(const gs_key_src *s, gs_node *map, const char *key)
{
	const gs_workload *w = &s->w->pub;
	gs_node *c;
	int rc = 0;

	if (!w->current)
		return 0;
	c = gs_node_new(GS_NODE_MAP, NULL);
	rc |= put_str(c, "instance", w->current->type);
	rc |= gs_node_put(c, "count", gs_node_int(w->current_count));
	if (w->current_share_ppm)
		rc |= gs_node_put(c, "share", gs_share_node(w->current_share_ppm));
	rc |= gs_node_put(map, key, c);
	return rc;
}

/* An arch as the kubernetes.io/arch label names it; the kernel's names
 * (x86_64, aarch64) are refused with the label's. */
static int read_arch_value(gs_ctx *c, const gs_node *v, gs_arch *out)
{
	static const char *const x86[] = { "x86_64", "x86-64", "x64", "intel", "amd" };
	static const char *const arm[] = { "aarch64", "arm", "armv8", "graviton" };
	int i, rc;

	for (size_t k = 0; v->kind == GS_NODE_STRING && k < GS_ARRAY_LEN(x86); k++)
		if (gs_strcaseeq(v->text, x86[k]))
			return gs_fail_node(c->err, GS_ESCHEMA, c->file, v, "invalid arch '%s' "
			                    "(Kubernetes calls it amd64)", v->text);
	for (size_t k = 0; v->kind == GS_NODE_STRING && k < GS_ARRAY_LEN(arm); k++)
		if (gs_strcaseeq(v->text, arm[k]))
			return gs_fail_node(c->err, GS_ESCHEMA, c->file, v, "invalid arch '%s' "
			                    "(Kubernetes calls it arm64)", v->text);
	if ((rc = gs_read_choice(c, v, "arch", archs, GS_ARRAY_LEN(archs), &i)) < 0)
		return rc;
	*out = (gs_arch)i;
	return 0;
}

/* Host needs: what one replica's pod requests of its node. */
static int read_cpu(const gs_key_dst *d, const gs_node *v)
{
	int64_t x;
	int rc = gs_scalar_cpu(d->c, v, &x);

	if (rc == 0 && x == 0)
		rc = gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, v,
		                  "cpu must be more than 0 (leave it out when unknown)");
	if (rc == 0)
		d->w->pub.cpu_millis = x;
	return rc;
}

/* Whole cores as a number, others in millicores as Kubernetes writes them. */
static int write_cpu(const gs_key_src *s, gs_node *map, const char *key)
{
	int64_t m = s->w->pub.cpu_millis;
	char text[32];

	if (!m)
		return 0;
	if (m % 1000 == 0)
		return gs_node_put(map, key, gs_node_int(m / 1000));
	snprintf(text, sizeof text, "%lldm", (long long)m);
	return put_str(map, key, text);
}

static int read_host_memory(const gs_key_dst *d, const gs_node *v)
{
	int64_t x;
	int rc = gs_scalar_bytes(d->c, v, &x);

	if (rc == 0 && x == 0)
		rc = gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, v,
		                  "memory must be more than 0 (leave it out when unknown)");
	if (rc == 0)
		d->w->pub.host_memory_bytes = x;
	return rc;
}

static int write_host_memory(const gs_key_src *s, gs_node *map, const char *key)
{
	int64_t b = s->w->pub.host_memory_bytes;
	return b ? gs_node_put(map, key, gs_bytes_node(b)) : 0;
}

static int read_wl_arch(const gs_key_dst *d, const gs_node *v)
{
	int rc = read_arch_value(d->c, v, &d->w->pub.arch);
	if (rc == 0)
		d->w->has_arch = 1;
	return rc;
}

/* Only a workload's own arch: the file's default is written at the top. */
static int write_wl_arch(const gs_key_src *s, gs_node *map, const char *key)
{
	return s->w->has_arch ? put_str(map, key, archs[s->w->pub.arch]) : 0;
}

/* ---- file keys ---------------------------------------------------------- */

static int read_version(const gs_key_dst *d, const gs_node *v)
{
	int64_t x;
	int bare = v->kind == GS_NODE_STRING && !v->quoted;

	if (gs_scalar_int(d->c, v, 1, 1, &x) < 0)
		return gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, v,
		                    bare ? "unsupported version '%s' (this gpushare reads "
		                           "version 1)"
		                         : "version must be the number 1%s",
		                    bare ? v->text : "");
	return 0;
}

static int write_version(const gs_key_src *s, gs_node *map, const char *key)
{
	(void)s;
	return gs_node_put(map, key, gs_node_int(1));
}

/* A cloud the profiles have instances of, or "all": the cheapest one
 * (gs_plan_make plans each and keeps it). */
static int read_cloud(const gs_key_dst *d, const gs_node *v)
{
	const gs_catalog *cat = d->s->cat;
	const char *names[GS_CLOUDS_MAX + 1], *near;
	size_t n = 0;
	char list[512];

	for (size_t i = 0; i < gs_catalog_cloud_count(cat) && n < GS_CLOUDS_MAX; i++)
		names[n++] = gs_catalog_cloud_at(cat, i);
	names[n++] = "all";
	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, v,
		                    "'cloud' must be a string");
	for (size_t i = 0; i < n; i++)
		if (strcmp(v->text, names[i]) == 0)
			return gs_str_assign(&d->s->cloud, names[i]) ? gs_fail_nomem(d->c->err)
			                                             : 0;
	near = gs_suggest(v->text, names, n);
	gs_names_list(names, n, list, sizeof list);
	return gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, v,
	                    "unknown cloud '%s' (%s%s%sthe profiles have %s)", v->text,
	                    near ? "did you mean '" : "", near ? near : "", near ? "'? " : "",
	                    list);
}

static int write_cloud(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, s->s->cloud);
}

static int read_pricing(const gs_key_dst *d, const gs_node *v)
{
	int i, rc = gs_read_choice(d->c, v, "pricing", pricings,
	                           GS_ARRAY_LEN(pricings), &i);
	if (rc == 0)
		d->s->pricing = (gs_pricing)i;
	return rc;
}

static int write_pricing(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, pricings[s->s->pricing]);
}

static int read_via(const gs_key_dst *d, const gs_node *v)
{
	int i, rc = gs_read_choice(d->c, v, "via", vias, GS_ARRAY_LEN(vias), &i);
	if (rc == 0)
		d->s->via = (gs_via)i;
	return rc;
}

static int write_via(const gs_key_src *s, gs_node *map, const char *key)
{
	return put_str(map, key, vias[s->s->via]);
}

static int read_target(const gs_key_dst *d, const gs_node *v)
{
	int64_t x;
	int rc;

	if ((rc = gs_scalar_share(d->c, v, &x)) < 0)
		return rc;
	if (x < 100000 || x > GS_PPM)
		return gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, v,
		                    "targetUtilization must be from 10%% to 100%%, "
		                    "not '%s'", v->text);
	d->s->target_ppm = x;
	return 0;
}

static int write_target(const gs_key_src *s, gs_node *map, const char *key)
{
	return gs_node_put(map, key, gs_share_node(s->s->target_ppm));
}

static int read_headroom(const gs_key_dst *d, const gs_node *v)
{
	int rc = read_headroom_value(d->c, v, &d->s->headroom_ppm);
	if (rc == 0)
		d->s->has_headroom = 1;
	return rc;
}

static int write_headroom(const gs_key_src *s, gs_node *map, const char *key)
{
	return s->s->has_headroom ? gs_node_put(map, key, gs_share_node(s->s->headroom_ppm))
	                          : 0;
}

static void free_globs(char **g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(g[i]);
	free(g);
}

/* The instance allow-list: shell patterns ("g5.*"). */
static int read_instances(const gs_key_dst *d, const gs_node *v)
{
	gs_ctx *c = d->c;
	gs_scenario *s = d->s;
	char **g;
	int rc;

	s->globs_line = v->line;
	s->globs_col = v->col;
	if ((rc = gs_need_kind(c, v, GS_NODE_SEQ, "'instances'")) < 0)
		return rc;
	if (!(g = calloc(v->n ? v->n : 1, sizeof *g)))
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < v->n && rc == 0; i++) {
		if (v->items[i]->kind != GS_NODE_STRING)
			rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v->items[i],
			                  "an instance pattern must be a string");
		else if (!(g[i] = gs_strdup(v->items[i]->text)))
			rc = gs_fail_nomem(c->err);
	}
	if (rc < 0) {
		free_globs(g, v->n);
		return rc;
	}
	free_globs(s->globs, s->n_globs);
	s->globs = g;
	s->n_globs = v->n;
	return 0;
}

static int write_instances(const gs_key_src *s, gs_node *map, const char *key)
{
	gs_node *g;
	int rc = 0;

	if (!s->s->n_globs)
		return 0;
	g = gs_node_new(GS_NODE_SEQ, NULL);
	for (size_t i = 0; i < s->s->n_globs; i++)
		rc |= gs_node_push(g, gs_node_str(s->s->globs[i]));
	rc |= gs_node_put(map, key, g);
	return rc;
}

static int read_gpus(const gs_key_dst *d, const gs_node *v)
{
	return gs_read_gpu_list(d->c, d->s->cat, v, &d->s->gpus, &d->s->n_gpus);
}

static int write_gpus(const gs_key_src *s, gs_node *map, const char *key)
{
	const gs_scenario *sc = s->s;
	return sc->n_gpus ? gs_node_put(map, key, gs_gpus_node(sc->gpus, sc->n_gpus)) : 0;
}

/* The default arch of the workloads that do not name their own (a file
 * reads it before its workloads; `set arch` changes them too). */
static int read_arch(const gs_key_dst *d, const gs_node *v)
{
	gs_arch a;
	int rc = read_arch_value(d->c, v, &a);
	if (rc < 0)
		return rc;
	d->s->arch = a;
	for (size_t k = 0; k < d->s->n; k++)
		if (!d->s->w[k]->has_arch)
			d->s->w[k]->pub.arch = a;
	return 0;
}

static int write_arch(const gs_key_src *s, gs_node *map, const char *key)
{
	return s->s->arch != GS_ARCH_AMD64 ? put_str(map, key, archs[s->s->arch]) : 0;
}

/* ---- the table ---------------------------------------------------------- */

#define F GS_KEY_FILE
#define W GS_KEY_WORKLOAD

/* In the order of the file (and of "did you mean", which takes the first
 * of equally near keys). */
static const gs_key keys[] = {
	{ "version", F, GS_KEY_TEXT, 1, read_version, write_version },
	{ "cloud", F, GS_KEY_TEXT, 0, read_cloud, write_cloud },
	{ "pricing", F, GS_KEY_TEXT, 0, read_pricing, write_pricing },
	{ "via", F, GS_KEY_TEXT, 0, read_via, write_via },
	{ "targetUtilization", F, GS_KEY_TEXT, 0, read_target, write_target },
	{ "memoryHeadroom", F, GS_KEY_TEXT, 0, read_headroom, write_headroom },
	{ "instances", F, GS_KEY_LIST, 0, read_instances, write_instances },
	{ "gpus", F, GS_KEY_LIST, 0, read_gpus, write_gpus },
	{ "arch", F, GS_KEY_TEXT, 0, read_arch, write_arch },
	{ "namespace", F, GS_KEY_TEXT, 0, gs_key_read_namespace, gs_key_write_namespace },
	{ "placement", F, GS_KEY_TEXT, 0, gs_key_read_placement, gs_key_write_placement },
	{ "fractions", F, GS_KEY_LIST, 0, gs_key_read_fractions, gs_key_write_fractions },
	{ "cluster", F, GS_KEY_TEXT, 1, gs_key_read_cluster, gs_key_write_cluster },
	{ "workloads", F, GS_KEY_TEXT, 1, NULL, NULL }, /* load.c, write.c */

	{ "name", W, GS_KEY_TEXT, 0, read_name, write_name },
	{ "kind", W, GS_KEY_TEXT, 0, read_kind, write_kind },
	{ "replicas", W, GS_KEY_TEXT, 0, read_replicas, write_replicas },
	{ "gpusPerReplica", W, GS_KEY_TEXT, 0, gs_key_read_gpus_per_replica,
	  gs_key_write_gpus_per_replica },
	{ "gpuMemory", W, GS_KEY_TEXT, 0, read_memory, write_memory },
	{ "compute", W, GS_KEY_TEXT, 0, read_compute, write_compute },
	{ "measuredOn", W, GS_KEY_TEXT, 0, read_measured_on, write_measured_on },
	{ "bound", W, GS_KEY_TEXT, 0, read_bound, write_bound },
	{ "throughput", W, GS_KEY_TEXT, 0, gs_key_read_throughput, gs_key_write_throughput },
	{ "retention", W, GS_KEY_SUB_OR_TEXT, 0, gs_key_read_retention,
	  gs_key_write_retention },
	{ "memoryHeadroom", W, GS_KEY_TEXT, 0, read_wl_headroom, write_wl_headroom },
	{ "latency", W, GS_KEY_TEXT, 0, read_latency, write_latency },
	{ "isolation", W, GS_KEY_TEXT, 0, read_isolation, write_isolation },
	{ "tenant", W, GS_KEY_TEXT, 0, read_tenant, write_tenant },
	{ "team", W, GS_KEY_TEXT, 0, read_team, write_team },
	{ "gpus", W, GS_KEY_LIST, 0, read_wl_gpus, write_wl_gpus },
	{ "spread", W, GS_KEY_TEXT, 0, read_spread, write_spread },
	{ "current", W, GS_KEY_PAIR, 0, read_current, write_current },
	{ "cpu", W, GS_KEY_TEXT, 0, read_cpu, write_cpu },
	{ "memory", W, GS_KEY_TEXT, 0, read_host_memory, write_host_memory },
	{ "arch", W, GS_KEY_TEXT, 0, read_wl_arch, write_wl_arch },
	{ "object", W, GS_KEY_SUB, 0, gs_key_read_object, gs_key_write_object },
};

#undef F
#undef W

_Static_assert(GS_ARRAY_LEN(keys) <= GS_KEYS_MAX, "raise GS_KEYS_MAX");

const gs_key *gs_scenario_keys(size_t *n)
{
	*n = GS_ARRAY_LEN(keys);
	return keys;
}

const gs_key *gs_scenario_key(gs_key_level level, const char *name)
{
	/* The first byte before the call: a file's workloads look their keys
	 * up 1.6 million times at 10^6 replicas. */
	for (size_t i = 0; i < GS_ARRAY_LEN(keys); i++)
		if (keys[i].level == level && keys[i].name[0] == name[0] &&
		    strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

size_t gs_scenario_key_names(gs_key_level level, const char **out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < GS_ARRAY_LEN(keys) && n < cap; i++)
		if (keys[i].level == level)
			out[n++] = keys[i].name;
	return n;
}

/* ---- reading ------------------------------------------------------------ */

static int unknown_key(gs_ctx *c, gs_key_level level, const char *name,
                       const gs_node *v)
{
	const char *names[GS_ARRAY_LEN(keys)], *near;
	size_t n = gs_scenario_key_names(level, names, GS_ARRAY_LEN(names));

	near = gs_suggest(name, names, n);
	if (near)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "unknown key '%s' (did you mean '%s'?)", name, near);
	return gs_fail_node(c->err, GS_ESCHEMA, c->file, v, "unknown key '%s'", name);
}

int gs_scenario_read_key(gs_ctx *c, gs_scenario *s, wl *w, const char *name,
                         const gs_node *v)
{
	gs_key_level level = w ? GS_KEY_WORKLOAD : GS_KEY_FILE;
	const gs_key *k = gs_scenario_key(level, name);
	return k ? gs_scenario_read_row(c, s, w, k, v) : unknown_key(c, level, name, v);
}

int gs_scenario_read_row(gs_ctx *c, gs_scenario *s, wl *w, const gs_key *k,
                         const gs_node *v)
{
	gs_key_dst d = { c, s, w };
	int rc = k->read ? k->read(&d, v) : 0;
	if (w)
		gs_wl_sync(w);
	return rc;
}

