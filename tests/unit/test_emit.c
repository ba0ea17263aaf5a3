/*
 * test_emit.c - the Kubernetes-configuration emitters, round trip: every
 * example (and the fixtures of fixtures/emit/) is planned, every kind the
 * plan wants is emitted in several option variants, and the text is parsed
 * back (documents split on "---" lines, each read with gs_yaml_read_buffer)
 * and checked against the plan, never against hard-coded text: the
 * device-plugin configs, GPU Operator values, mig-parted geometries, node
 * labels, workload patches and Deployments, DRA claims and Karpenter
 * NodePools. The formats' rules are those of
 * shared/reference/k8s-formats.md §1-§5 and §8.
 *
 * One test per (plan, kind) runs every variant and reports every failed
 * check (with the plan, kind and variant) before failing, so one bug does
 * not hide the next.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "doc/doc.h"
#include "emit/emit.h"

/* ---- the plans ----------------------------------------------------------------- */

typedef struct fixture {
	const char *name;
	const char *path;      /* relative to tests/ */
	const char *profiles;  /* NULL: the shipped profiles */
	int via_dra;           /* the file says via: dra */
} fixture;

static const fixture fixtures[] = {
	{ "workloads", "../examples/workloads.yaml", NULL, 0 },
	{ "mixed-fleet", "../examples/mixed-fleet.yaml", NULL, 0 },
	{ "multi-tenant-mig", "../examples/multi-tenant-mig.yaml", NULL, 0 },
	{ "spot", "../examples/spot.yaml", NULL, 0 },
	{ "mig-ts-mps", "fixtures/emit/mig-ts-mps.yaml", NULL, 0 },
	{ "via-dra", "fixtures/emit/via-dra.yaml", NULL, 1 },
	{ "mig-pools", "fixtures/emit/mig-pools.yaml", NULL, 0 },
	{ "name-clash", "fixtures/emit/name-clash.yaml", NULL, 0 },
	{ "tenants", "fixtures/emit/tenants.yaml", NULL, 0 },
	{ "many-places", "fixtures/emit/many-places.yaml", NULL, 1 },
	{ "long-type", "fixtures/emit/long-type.yaml",
	  TEST_PROFILES ":fixtures/emit/profiles-long", 0 },
};
#define N_FIXTURES (sizeof fixtures / sizeof fixtures[0])

typedef struct loaded {
	gs_catalog *cat;
	gs_scenario *scn, *scn2;
	gs_plan *plan, *plan2; /* plan2: planned again from a fresh load */
	gs_manifests *man;     /* a manifest per workload (manifests_of) */
} loaded;

static loaded plans[N_FIXTURES];

static gs_error clean_err(void)
{
	gs_error e;
	memset(&e, 0, sizeof e);
	return e;
}

/* The container every generated manifest has beside the one patched: a
 * patch must leave it alone, and it makes "the only container" ambiguous. */
#define SIDECAR "log-shipper"

static const char *object_name(const gs_workload *w)
{
	return w->object.name ? w->object.name : w->name;
}

static const char *object_container(const gs_workload *w)
{
	return w->object.container ? w->object.container : w->name;
}

/* The pod spec of a generated manifest, indented by ind: the sidecar and
 * the workload's container, which asks for a whole nvidia.com/gpu (what an
 * unplanned GPU pod asks) in limits and requests. */
static void pod_spec_text(gs_buf *b, const gs_workload *w, int ind, int job)
{
	gs_buf_printf(b, "%*scontainers:\n%*s- name: " SIDECAR "\n%*s  image: busybox:1.36\n",
	              ind, "", ind, "", ind, "");
	gs_buf_printf(b, "%*s- name: %s\n%*s  image: registry.example.com/%s:1\n", ind, "",
	              object_container(w), ind, "", w->name);
	gs_buf_printf(b, "%*s  resources:\n%*s    limits: {nvidia.com/gpu: 1, cpu: 500m}\n"
	              "%*s    requests: {nvidia.com/gpu: 1}\n", ind, "", ind, "", ind, "");
	if (job)
		gs_buf_printf(b, "%*srestartPolicy: Never\n", ind, "");
}

/* One manifest per workload, of its object's kind, name and namespace
 * (none written when the object takes the file's). */
static void manifest_text(gs_buf *b, const gs_workload *w)
{
	gs_object_kind k = w->object.kind;
	const char *name = object_name(w);
	gs_buf_printf(b, "---\napiVersion: %s\nkind: %s\nmetadata:\n  name: %s\n",
	              k == GS_OBJECT_POD ? "v1"
	              : k == GS_OBJECT_JOB || k == GS_OBJECT_CRONJOB ? "batch/v1" : "apps/v1",
	              gs_object_kind_name(k), name);
	if (w->object.namespace_)
		gs_buf_printf(b, "  namespace: %s\n", w->object.namespace_);
	gs_buf_printf(b, "  labels: {app: %s}\n", name);
	switch (k) {
	case GS_OBJECT_POD:
		gs_buf_puts(b, "spec:\n");
		pod_spec_text(b, w, 2, 0);
		return;
	case GS_OBJECT_CRONJOB:
		gs_buf_printf(b, "spec:\n  schedule: \"0 3 * * *\"\n  jobTemplate:\n    spec:\n"
		              "      template:\n        metadata:\n          labels: {app: %s}\n"
		              "        spec:\n", name);
		pod_spec_text(b, w, 10, 1);
		return;
	case GS_OBJECT_JOB:
		gs_buf_printf(b, "spec:\n  completions: %d\n  template:\n    metadata:\n"
		              "      labels: {app: %s}\n    spec:\n", w->replicas, name);
		pod_spec_text(b, w, 6, 1);
		return;
	default:
		gs_buf_printf(b, "spec:\n  replicas: 1\n%s  selector:\n    matchLabels: {app: %s}\n"
		              "  template:\n    metadata:\n      labels: {app: %s}\n    spec:\n",
		              k == GS_OBJECT_STATEFULSET ? "  serviceName: db\n" : "", name, name);
		pod_spec_text(b, w, 6, 0);
	}
}

/* The workloads' manifests, through a file as --manifests reads them. */
static int manifests_of(const gs_scenario *s, gs_manifests **out, gs_error *err)
{
	gs_buf b = GS_BUF_INIT;
	char path[] = "/tmp/test_emit_manifests_XXXXXX";
	int fd, rc = -1;
	for (size_t i = 0; i < gs_scenario_workload_count(s); i++)
		manifest_text(&b, gs_scenario_workload_at(s, i));
	if (b.failed || (fd = mkstemp(path)) < 0) {
		gs_buf_release(&b);
		return -1;
	}
	if (write(fd, b.data, b.len) == (ssize_t)b.len)
		rc = gs_manifests_load(path, out, err);
	close(fd);
	unlink(path);
	gs_buf_release(&b);
	return rc;
}

static int group_setup(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_FIXTURES; i++) {
		gs_plan_opts po = GS_PLAN_OPTS_INIT;
		gs_error err = clean_err();
		loaded *l = &plans[i];
		const char *prof = fixtures[i].profiles ? fixtures[i].profiles : TEST_PROFILES;
		if (gs_catalog_load(prof, &l->cat, &err) < 0 ||
		    gs_scenario_load(l->cat, fixtures[i].path, &l->scn, &err) < 0 ||
		    gs_plan_make(l->scn, &po, &l->plan, &err) < 0 ||
		    gs_scenario_load(l->cat, fixtures[i].path, &l->scn2, &err) < 0 ||
		    gs_plan_make(l->scn2, &po, &l->plan2, &err) < 0 ||
		    manifests_of(l->scn, &l->man, &err) < 0) {
			char buf[1024];
			fprintf(stderr, "%s: %s\n", fixtures[i].path,
			        gs_error_format(&err, buf, sizeof buf));
			return -1;
		}
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_FIXTURES; i++) {
		gs_plan_free(plans[i].plan);
		gs_plan_free(plans[i].plan2);
		gs_scenario_free(plans[i].scn);
		gs_scenario_free(plans[i].scn2);
		gs_catalog_free(plans[i].cat);
		gs_manifests_free(plans[i].man);
	}
	return 0;
}

/* ---- option variants ------------------------------------------------------------- */

typedef struct variant {
	const char *name;
	int rename, examples, dra;
	gs_dra_api api;
	int manifests; /* give the workloads' manifests */
} variant;

static const variant variants[] = {
	{ "default", 0, 0, 0, GS_DRA_V1, 0 },
	{ "manifests", 0, 0, 0, GS_DRA_V1, 1 },
	{ "rename-shared+manifests", 1, 0, 0, GS_DRA_V1, 1 },
	{ "example-deployments", 0, 1, 0, GS_DRA_V1, 0 },
	{ "rename-shared+example-deployments", 1, 1, 0, GS_DRA_V1, 0 },
	{ "dra-v1+manifests", 0, 0, 1, GS_DRA_V1, 1 },
	{ "dra-v1beta2", 0, 0, 1, GS_DRA_V1BETA2, 0 },
	{ "dra-v1beta1+example-deployments", 0, 1, 1, GS_DRA_V1BETA1, 0 },
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

static gs_emit_opts opts_of(const variant *v, const loaded *l)
{
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	o.rename_shared = v->rename;
	o.example_deployments = v->examples;
	o.dra = v->dra;
	o.dra_api = v->api;
	o.manifests = v->manifests ? l->man : NULL;
	return o;
}

/* ---- non-fatal checks ----------------------------------------------------------- */

typedef struct ctx {
	char where[160];  /* plan/kind/variant */
	const fixture *fx;
	const loaded *ld;
	const gs_plan *p;
	gs_emit_kind kind; /* being checked */
	int failures;
} ctx;

static void check_failed(ctx *c, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void check_failed(ctx *c, int line, const char *fmt, ...)
{
	va_list ap;
	if (c->failures++ >= 40)
		return;
	fprintf(stderr, "    %s (test_emit.c:%d): ", c->where, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define CHECK(c, cond, ...)                                                   \
	do {                                                                      \
		if (!(cond))                                                          \
			check_failed((c), __LINE__, __VA_ARGS__);                         \
	} while (0)

/* ---- tree helpers ------------------------------------------------------------------- */

static const gs_node *get(const gs_node *n, const char *key)
{
	return n && n->kind == GS_NODE_MAP ? gs_node_get(n, key) : NULL;
}

/* get(get(get(n, k1), k2), ...), NULL-terminated. */
static const gs_node *at(const gs_node *n, ...)
{
	va_list ap;
	const char *k;
	va_start(ap, n);
	while (n && (k = va_arg(ap, const char *)))
		n = get(n, k);
	va_end(ap);
	return n;
}

static const char *str(const gs_node *n)
{
	return n && n->kind == GS_NODE_STRING ? n->text : NULL;
}

static int str_eq(const gs_node *n, const char *want)
{
	return str(n) && want && strcmp(str(n), want) == 0;
}

/* A YAML boolean: a plain (unquoted) true or false. */
static int is_bool(const gs_node *n, int want)
{
	return n && n->kind == GS_NODE_STRING && !n->quoted &&
	       strcmp(n->text, want ? "true" : "false") == 0;
}

/* A YAML integer: plain digits. */
static int int_of(const gs_node *n, long *out)
{
	const char *s = n && n->kind == GS_NODE_STRING && !n->quoted ? n->text : NULL;
	if (!s || !*s)
		return 0;
	for (const char *q = s; *q; q++)
		if (!isdigit((unsigned char)*q))
			return 0;
	*out = strtol(s, NULL, 10);
	return 1;
}

/* An integer written as a number or as a quoted string ("8"). */
static int quantity_of(const gs_node *n, long *out)
{
	const char *s = n && n->kind == GS_NODE_STRING ? n->text : NULL;
	if (!s || !*s)
		return 0;
	for (const char *q = s; *q; q++)
		if (!isdigit((unsigned char)*q))
			return 0;
	*out = strtol(s, NULL, 10);
	return 1;
}

static size_t seq_len(const gs_node *n)
{
	return n && n->kind == GS_NODE_SEQ ? n->n : 0;
}

static int is_seq(const gs_node *n) { return n && n->kind == GS_NODE_SEQ; }
static int is_map(const gs_node *n) { return n && n->kind == GS_NODE_MAP; }

/* Every key of map n is one of the NULL-terminated list; returns the first
 * that is not, or NULL. */
static const char *unknown_key(const gs_node *n, const char *const *allowed)
{
	if (!is_map(n))
		return NULL;
	for (size_t i = 0; i < n->n; i++) {
		int ok = 0;
		for (const char *const *a = allowed; *a && !ok; a++)
			ok = strcmp(n->keys[i]->text, *a) == 0;
		if (!ok)
			return n->keys[i]->text;
	}
	return NULL;
}

/* A Kubernetes label value (§1.5, §5.2): at most 63 characters,
 * [A-Za-z0-9-_.], alphanumeric at both ends. */
static int label_value_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 63 || !isalnum((unsigned char)s[0]) ||
	    !isalnum((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.", s[i]))
			return 0;
	return 1;
}

/* An object name (DNS subdomain): lower case, digits, '-' and '.',
 * alphanumeric ends, at most 253. */
static int object_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 253 || !isalnum((unsigned char)s[0]) ||
	    !isalnum((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) ||
		      s[i] == '-' || s[i] == '.'))
			return 0;
	return 1;
}

/* ---- a small set of strings ------------------------------------------------------- */

typedef struct sset {
	const char *v[512];
	size_t n;
} sset;

static int sset_has(const sset *s, const char *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], x) == 0)
			return 1;
	return 0;
}

static void sset_add(sset *s, const char *x)
{
	if (x && !sset_has(s, x) && s->n < sizeof s->v / sizeof s->v[0])
		s->v[s->n++] = x;
}

static int sset_has_sig(char (*sig)[256], size_t n, const char *x)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(sig[i], x) == 0)
			return 1;
	return 0;
}

/* ---- documents ------------------------------------------------------------------------ */

typedef struct docs {
	gs_node *v[512];
	size_t n;
} docs;

static void docs_free(docs *d)
{
	for (size_t i = 0; i < d->n; i++)
		gs_node_free(d->v[i]);
	d->n = 0;
}

static int parse_doc(ctx *c, const char *start, size_t n, docs *out)
{
	gs_node *doc = NULL;
	gs_error err = clean_err();
	char buf[1024];
	if (gs_yaml_read_buffer(c->where, start, n, &doc, &err) < 0) {
		CHECK(c, 0, "document %zu does not parse: %s", out->n + 1,
		      gs_error_format(&err, buf, sizeof buf));
		return -1;
	}
	if (out->n == sizeof out->v / sizeof out->v[0]) {
		CHECK(c, 0, "more than %zu documents", out->n);
		gs_node_free(doc);
		return -1;
	}
	CHECK(c, is_map(doc), "document %zu is not a mapping", out->n + 1);
	out->v[out->n++] = doc;
	return 0;
}

/* Splits text into documents on lines that are exactly "---" and parses
 * each. What precedes the first "---" must be comments. Returns 0 when
 * every document parsed. */
static int split_docs(ctx *c, const char *text, docs *out)
{
	const char *p = text, *start = NULL;
	int bad = 0;
	out->n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len == 3 && strncmp(p, "---", 3) == 0) {
			if (start && parse_doc(c, start, (size_t)(p - start), out) < 0)
				bad = 1;
			start = p + len + (nl ? 1 : 0);
		} else if (!start && len > 0) {
			CHECK(c, p[0] == '#',
			      "line before the first document is not a comment: %.*s", (int)len, p);
		}
		p += len + (nl ? 1 : 0);
	}
	if (start && parse_doc(c, start, (size_t)(p - start), out) < 0)
		bad = 1;
	/* No two objects of one kind share a name: kubectl apply would keep
	 * only the last. (A workload copy and its patch do: check_workloads.) */
	for (size_t i = 0; c->kind != GS_EMIT_WORKLOADS && i < out->n; i++)
		for (size_t j = 0; j < i; j++) {
			const char *ki = str(get(out->v[i], "kind")),
			           *kj = str(get(out->v[j], "kind"));
			const char *ni = str(at(out->v[i], "metadata", "name", NULL));
			const char *nj = str(at(out->v[j], "metadata", "name", NULL));
			if (ki && kj && ni && nj && strcmp(ki, kj) == 0)
				CHECK(c, strcmp(ni, nj) != 0,
				      "documents %zu and %zu are both %s '%s' (the second replaces "
				      "the first)",
				      j + 1, i + 1, ki, ni);
		}
	return bad ? -1 : 0;
}

/* Emits kind k and parses it; fails the check (and returns -1) on error. */
static int emit_docs(ctx *c, gs_emit_kind k, const gs_emit_opts *o, docs *out)
{
	char *text = NULL;
	gs_error err = clean_err();
	char buf[1024];
	int rc;
	out->n = 0;
	if (gs_emit(c->p, k, o, &text, &err) < 0) {
		CHECK(c, 0, "gs_emit(%s) failed: %s", gs_emit_kind_name(k),
		      gs_error_format(&err, buf, sizeof buf));
		return -1;
	}
	rc = split_docs(c, text, out);
	free(text);
	return rc;
}

/* ---- plan helpers ------------------------------------------------------------------ */

static int node_is_mig(const gs_plan_node *n)
{
	return n->mig_config != NULL;
}

static gs_strategy node_strategy(const gs_plan_node *n)
{
	return n->n_gpus ? n->gpus[0].strategy : GS_STRATEGY_DEDICATED;
}

static int node_is_aws(const gs_plan_node *n)
{
	return strcmp(n->instance->cloud, "aws") == 0;
}

static int plan_has_mig(const gs_plan *p)
{
	for (size_t i = 0; i < gs_plan_node_count(p); i++)
		if (node_is_mig(gs_plan_node_at(p, i)))
			return 1;
	return 0;
}

static int uses_dra(const ctx *c, const gs_emit_opts *o)
{
	return o->dra || c->fx->via_dra;
}

/* "nvidia.com/mig-1g.5gb" ('+' becomes '.'), plus ".shared" if asked. */
static void mig_resource(const gs_mig_profile *prof, int shared, char *buf, size_t n)
{
	size_t o = (size_t)snprintf(buf, n, "nvidia.com/mig-");
	for (const char *q = prof->name; *q && o + 1 < n; q++)
		buf[o++] = *q == '+' ? '.' : *q;
	buf[o] = '\0';
	if (shared)
		strncat(buf, ".shared", n - strlen(buf) - 1);
}

static const char *tenant_of(const gs_assignment *a)
{
	return a->workload->tenant ? a->workload->tenant : "default";
}

/* ---- device-plugin ConfigMap --------------------------------------------------------- */

/* The replicas the device plugin must advertise for each MIG resource of
 * the nodes with config `cfg` (instances with replicas >= 2). */
typedef struct migres {
	char name[96];
	int replicas;
	int conflict;
} migres;

static size_t mig_shared_resources(const gs_plan *p, const char *cfg, migres *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, i);
		if (strcmp(nd->config, cfg) != 0)
			continue;
		for (size_t g = 0; g < nd->n_gpus; g++)
			for (size_t m = 0; m < nd->gpus[g].n_mig; m++) {
				const gs_plan_mig *mi = &nd->gpus[g].mig[m];
				char name[96];
				size_t k;
				if (mi->replicas < 2)
					continue;
				mig_resource(mi->profile, 0, name, sizeof name);
				for (k = 0; k < n && strcmp(out[k].name, name) != 0; k++)
					;
				if (k == n && n < cap) {
					snprintf(out[n].name, sizeof out[n].name, "%s", name);
					out[n].replicas = mi->replicas;
					out[n++].conflict = 0;
				} else if (k < n && out[k].replicas != mi->replicas) {
					out[k].conflict = 1;
				}
			}
	}
	return n;
}

/* The device plugin hands out any replica of a shared resource of a node
 * to any pod that asks for it: every replica of one resource on one node
 * must belong to one tenant and none may be fault-isolated (the plan's
 * per-GPU placement is not what the kubelet sees). */
static void check_shared_pool(ctx *c, const gs_plan_node *nd, size_t ni, const char *res,
                              const gs_mig_profile *prof)
{
	const gs_assignment *first = NULL;
	size_t first_gpu = 0;
	int fault = 0, mixed = 0;
	for (size_t g = 0; g < nd->n_gpus; g++) {
		const gs_plan_gpu *pg = &nd->gpus[g];
		for (long m = prof ? 0 : -1; m < (prof ? (long)pg->n_mig : 0); m++) {
			const gs_assignment *a = m < 0 ? pg->assignments : pg->mig[m].assignments;
			size_t na = m < 0 ? pg->n_assignments : pg->mig[m].n_assignments;
			if (m >= 0 && pg->mig[m].profile != prof)
				continue;
			for (size_t k = 0; k < na; k++) {
				const gs_workload *w = a[k].workload;
				if (w->isolation_fault && !fault++)
					CHECK(c, 0,
					      "node %zu advertises %s as shared, but "
					      "fault-isolated %s/%d (gpu %zu) is in that pool",
					      ni + 1, res, w->name, a[k].replica, g);
				if (!first) {
					first = &a[k];
					first_gpu = g;
				} else if (strcmp(tenant_of(first), tenant_of(&a[k])) != 0 &&
				           !mixed++) {
					CHECK(c, 0,
					      "node %zu pools the replicas of %s of tenants %s "
					      "(%s/%d, gpu %zu) and %s (%s/%d, gpu %zu): the "
					      "device plugin gives any pod any replica",
					      ni + 1, res, tenant_of(first), first->workload->name,
					      first->replica, first_gpu, tenant_of(&a[k]), w->name,
					      a[k].replica, g);
				}
			}
		}
	}
}

static void check_dp_config(ctx *c, const gs_emit_opts *o, const char *key, const gs_node *cfg)
{
	static const char *const top_keys[] = { "version", "flags", "sharing", NULL };
	static const char *const block_keys[] = { "renameByDefault", "failRequestsGreaterThanOne",
		                                      "resources", NULL };
	const gs_plan *p = c->p;
	const gs_plan_node *first = NULL;
	const gs_node *sharing = get(cfg, "sharing"), *ts = get(sharing, "timeSlicing"),
	              *mps = get(sharing, "mps"), *block = ts ? ts : mps, *res;
	const char *bad;
	int mig = 0;

	for (size_t i = 0; i < gs_plan_node_count(p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(p, i);
		if (strcmp(nd->config, key) != 0)
			continue;
		if (!first) {
			first = nd;
			mig = node_is_mig(nd);
		}
		CHECK(c, node_is_mig(nd) == mig, "config %s is used by MIG and non-MIG nodes", key);
		CHECK(c, node_strategy(nd) == (mig ? GS_STRATEGY_MIG : node_strategy(first)),
		      "config %s: node %zu has another strategy", key, i + 1);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			CHECK(c, nd->gpus[g].strategy == node_strategy(first),
			      "config %s: node %zu gpu %zu has another strategy (one config per "
			      "node)",
			      key, i + 1, g);
			CHECK(c, mig || nd->gpus[g].replicas == first->gpus[0].replicas,
			      "config %s: node %zu gpu %zu has %d replicas, gpu 0 of node 1 %d",
			      key, i + 1, g, nd->gpus[g].replicas, first->gpus[0].replicas);
		}
	}
	CHECK(c, first || strcmp(key, "none") == 0, "key %s is no node's config", key);

	CHECK(c, is_map(cfg), "config %s is not a mapping", key);
	CHECK(c, str_eq(get(cfg, "version"), "v1"), "config %s: version is not v1", key);
	CHECK(c, !(bad = unknown_key(cfg, top_keys)),
	      "config %s: unknown key %s (the plugin ignores it)", key, bad);
	CHECK(c, str_eq(at(cfg, "flags", "migStrategy", NULL), mig ? "mixed" : "none"),
	      "config %s: flags.migStrategy is %s, want %s", key,
	      str(at(cfg, "flags", "migStrategy", NULL))
	              ? str(at(cfg, "flags", "migStrategy", NULL))
	              : "(none)",
	      mig ? "mixed" : "none");
	CHECK(c, !(ts && mps), "config %s: both sharing.timeSlicing and sharing.mps", key);
	CHECK(c, !sharing || (block && sharing->n == 1),
	      "config %s: sharing holds something other than one timeSlicing or mps block", key);
	CHECK(c, !(mig && mps), "config %s: MPS on a MIG node", key);

	/* What the plan needs. */
	if (!first || (!mig && node_strategy(first) == GS_STRATEGY_DEDICATED)) {
		CHECK(c, !sharing, "config %s: a sharing block on unshared nodes", key);
		return;
	}
	if (block) {
		CHECK(c, !(bad = unknown_key(block, block_keys)), "config %s: unknown key %s", key,
		      bad);
		CHECK(c, is_bool(get(block, "failRequestsGreaterThanOne"), 1),
		      "config %s: failRequestsGreaterThanOne is not true", key);
		if (o->rename_shared)
			CHECK(c, is_bool(get(block, "renameByDefault"), 1),
			      "config %s: renameByDefault is not true with rename_shared", key);
		else
			CHECK(c, !get(block, "renameByDefault") ||
			         is_bool(get(block, "renameByDefault"), 0),
			      "config %s: renameByDefault is true without rename_shared", key);
	}
	res = get(block, "resources");
	CHECK(c, !block || seq_len(res) > 0, "config %s: no resources", key);
	for (size_t r = 0; r < seq_len(res); r++) {
		long reps = 0;
		CHECK(c, int_of(get(res->items[r], "replicas"), &reps) && reps >= 2,
		      "config %s: resource %zu has replicas < 2 or not an integer", key, r);
		CHECK(c, str(get(res->items[r], "name")), "config %s: resource %zu has no name",
		      key, r);
	}

	if (!mig) {
		gs_strategy s = node_strategy(first);
		long reps = 0;
		CHECK(c, s == GS_STRATEGY_MPS ? mps != NULL : ts != NULL,
		      "config %s: the plan %s, the config has %s", key, gs_strategy_name(s),
		      ts ? "timeSlicing" : mps ? "mps" : "no sharing");
		CHECK(c, seq_len(res) == 1, "config %s: %zu resources, want nvidia.com/gpu only",
		      key, seq_len(res));
		if (seq_len(res) >= 1) {
			CHECK(c, str_eq(get(res->items[0], "name"), "nvidia.com/gpu"),
			      "config %s: resource is not nvidia.com/gpu", key);
			CHECK(c, int_of(get(res->items[0], "replicas"), &reps) &&
			             reps == first->gpus[0].replicas,
			      "config %s: replicas %ld, the plan's GPUs %d", key, reps,
			      first->gpus[0].replicas);
		}
		for (size_t i = 0; i < gs_plan_node_count(p) && !uses_dra(c, o); i++)
			if (strcmp(gs_plan_node_at(p, i)->config, key) == 0)
				check_shared_pool(c, gs_plan_node_at(p, i), i, "nvidia.com/gpu",
				                  NULL);
		return;
	}

	/* MIG: one resource per time-sliced profile, with its replicas. */
	{
		migres want[64];
		size_t nw = mig_shared_resources(p, key, want, 64);
		for (size_t k = 0; k < nw; k++)
			CHECK(c, !want[k].conflict,
			      "config %s: the plan gives %s two replica counts; one config cannot",
			      key, want[k].name);
		/* The config shares every instance of a listed profile. */
		for (size_t i = 0; i < gs_plan_node_count(p); i++) {
			const gs_plan_node *nd = gs_plan_node_at(p, i);
			if (strcmp(nd->config, key) != 0)
				continue;
			for (size_t g = 0; g < nd->n_gpus; g++)
				for (size_t m = 0; m < nd->gpus[g].n_mig; m++) {
					char name[96];
					if (nd->gpus[g].mig[m].replicas >= 2)
						continue;
					mig_resource(nd->gpus[g].mig[m].profile, 0, name,
					             sizeof name);
					for (size_t k = 0; k < nw; k++)
						CHECK(c, strcmp(want[k].name, name) != 0,
						      "config %s time-slices %s, but node %zu gpu "
						      "%zu has a dedicated instance of it",
						      key, name, i + 1, g);
				}
		}
		if (nw == 0) {
			CHECK(c, !sharing,
			      "config %s: sharing on a MIG node with nothing time-sliced", key);
			return;
		}
		CHECK(c, ts != NULL,
		      "config %s: time-sliced MIG instances but no sharing.timeSlicing", key);
		CHECK(c, seq_len(res) == nw, "config %s: %zu resources, the plan time-slices %zu",
		      key, seq_len(res), nw);
		for (size_t k = 0; k < nw; k++) {
			int found = 0;
			for (size_t r = 0; r < seq_len(res); r++) {
				long reps = 0;
				if (!str_eq(get(res->items[r], "name"), want[k].name))
					continue;
				found = 1;
				CHECK(c, int_of(get(res->items[r], "replicas"), &reps) &&
				         reps == want[k].replicas,
				      "config %s: %s has replicas %ld, the plan's instances %d",
				      key, want[k].name, reps, want[k].replicas);
			}
			CHECK(c, found, "config %s: %s is time-sliced in the plan but not listed",
			      key, want[k].name);
		}
		for (size_t i = 0; i < gs_plan_node_count(p) && !uses_dra(c, o); i++) {
			const gs_plan_node *nd = gs_plan_node_at(p, i);
			if (strcmp(nd->config, key) != 0)
				continue;
			for (size_t k = 0; k < nw; k++) {
				const gs_mig_profile *prof = NULL;
				for (size_t g = 0; g < nd->n_gpus && !prof; g++)
					for (size_t m = 0; m < nd->gpus[g].n_mig && !prof; m++) {
						char name[96];
						mig_resource(nd->gpus[g].mig[m].profile, 0, name,
						             sizeof name);
						if (strcmp(name, want[k].name) == 0)
							prof = nd->gpus[g].mig[m].profile;
					}
				if (prof)
					check_shared_pool(c, nd, i, want[k].name, prof);
			}
		}
	}
}

static void check_configmap_header(ctx *c, const gs_node *cm, const gs_emit_opts *o)
{
	CHECK(c, str_eq(get(cm, "apiVersion"), "v1"), "ConfigMap apiVersion is not v1");
	CHECK(c, str_eq(get(cm, "kind"), "ConfigMap"), "not a ConfigMap");
	CHECK(c, object_name_ok(str(at(cm, "metadata", "name", NULL))), "bad ConfigMap name");
	CHECK(c, str_eq(at(cm, "metadata", "namespace", NULL), o->namespace_),
	      "ConfigMap namespace is not %s", o->namespace_);
}

static void check_device_plugin(ctx *c, const gs_emit_opts *o, const docs *d)
{
	const gs_node *data;
	sset want = { { NULL }, 0 };
	if (d->n != 1) {
		CHECK(c, 0, "%zu documents, want one ConfigMap", d->n);
		return;
	}
	check_configmap_header(c, d->v[0], o);
	data = get(d->v[0], "data");
	CHECK(c, is_map(data), "no data");
	if (!is_map(data))
		return;
	sset_add(&want, "none");
	for (size_t i = 0; i < gs_plan_node_count(c->p); i++)
		sset_add(&want, gs_plan_node_at(c->p, i)->config);
	CHECK(c, data->n == want.n, "%zu data keys, want %zu (none + one per node config)", data->n,
	      want.n);
	for (size_t i = 0; i < want.n; i++)
		CHECK(c, get(data, want.v[i]) != NULL, "no data key for config %s", want.v[i]);
	for (size_t i = 0; i < data->n; i++) {
		const char *key = data->keys[i]->text;
		gs_node *cfg = NULL;
		gs_error err = clean_err();
		char buf[1024];
		CHECK(c, sset_has(&want, key), "data key %s is no node's config", key);
		CHECK(c, label_value_ok(key),
		      "data key '%s' (%zu chars) is not a valid label value", key, strlen(key));
		if (!str(data->items[i])) {
			CHECK(c, 0, "data[%s] is not a string", key);
			continue;
		}
		if (gs_yaml_read_buffer(key, data->items[i]->text, strlen(data->items[i]->text),
		                        &cfg, &err) < 0) {
			CHECK(c, 0, "data[%s] does not parse: %s", key,
			      gs_error_format(&err, buf, sizeof buf));
			continue;
		}
		check_dp_config(c, o, key, cfg);
		gs_node_free(cfg);
	}
}

/* ---- GPU Operator values ---------------------------------------------------------- */

static char *configmap_name(ctx *c, gs_emit_kind k, const gs_emit_opts *o)
{
	docs d;
	char *name = NULL;
	if (emit_docs(c, k, o, &d) == 0 && d.n == 1 && str(at(d.v[0], "metadata", "name", NULL)))
		name = strdup(str(at(d.v[0], "metadata", "name", NULL)));
	docs_free(&d);
	return name;
}

static void check_operator_values(ctx *c, const gs_emit_opts *o, const docs *d)
{
	const gs_node *v = d->n == 1 ? d->v[0] : NULL;
	char *dp = uses_dra(c, o) ? NULL : configmap_name(c, GS_EMIT_DEVICE_PLUGIN, o);
	CHECK(c, v != NULL, "%zu documents, want one", d->n);
	if (uses_dra(c, o)) {
		/* One stack: the operator's device plugin off, and nothing of
		 * its config. */
		const gs_node *dpv = get(v, "devicePlugin");
		CHECK(c, is_map(dpv) && dpv->n == 1 && is_bool(get(dpv, "enabled"), 0),
		      "devicePlugin is not exactly {enabled: false} under DRA");
	} else {
		CHECK(c, dp && str_eq(at(v, "devicePlugin", "config", "name", NULL), dp),
		      "devicePlugin.config.name is not the device-plugin ConfigMap's name %s",
		      dp ? dp : "?");
		CHECK(c, str_eq(at(v, "devicePlugin", "config", "default", NULL), "none"),
		      "devicePlugin.config.default is not none");
		CHECK(c, !get(get(v, "devicePlugin"), "enabled"),
		      "devicePlugin.enabled without DRA");
	}
	if (plan_has_mig(c->p)) {
		char *mig = configmap_name(c, GS_EMIT_MIG_PARTED, o);
		const gs_node *def = at(v, "migManager", "config", "default", NULL);
		CHECK(c, str_eq(at(v, "mig", "strategy", NULL), "mixed"),
		      "mig.strategy is not mixed");
		CHECK(c, mig && str_eq(at(v, "migManager", "config", "name", NULL), mig),
		      "migManager.config.name is not the mig-parted ConfigMap's name %s",
		      mig ? mig : "?");
		CHECK(c, !def || str_eq(def, "all-disabled") || str_eq(def, ""),
		      "migManager.config.default must be all-disabled or empty (§6)");
		/* The operator passes mig.strategy to every node's device plugin
		 * (env beats the file, §6), and the plugin refuses MPS with mixed
		 * (§1.3: "using --mig-strategy=mixed is not supported with MPS"). */
		for (size_t i = 0; i < gs_plan_node_count(c->p) && !uses_dra(c, o); i++)
			if (node_strategy(gs_plan_node_at(c->p, i)) == GS_STRATEGY_MPS &&
			    str_eq(at(v, "mig", "strategy", NULL), "mixed")) {
				CHECK(c, 0,
				      "mig.strategy mixed reaches the device plugin of MPS node "
				      "%zu (%s), which refuses to start: MIG and MPS nodes cannot "
				      "share these values",
				      i + 1, gs_plan_node_at(c->p, i)->config);
				break;
			}
		free(mig);
	} else {
		CHECK(c, !get(v, "mig"), "mig values without MIG nodes");
		CHECK(c, !get(v, "migManager"), "migManager values without MIG nodes");
	}
	free(dp);
}

/* ---- mig-parted -------------------------------------------------------------------- */

static void check_geometry(ctx *c, const gs_plan_node *nd, size_t ni, const gs_node *items)
{
	static const char *const item_keys[] = { "devices", "mig-enabled", "mig-devices",
		                                     "device-filter", NULL };
	int covered[64] = { 0 };
	const char *bad;
	CHECK(c, seq_len(items) > 0, "node %zu: mig config %s has no items", ni + 1,
	      nd->mig_config);
	for (size_t it = 0; it < seq_len(items); it++) {
		const gs_node *item = items->items[it], *devs = get(item, "devices"),
		              *en = get(item, "mig-enabled"), *md = get(item, "mig-devices");
		int enabled = is_bool(en, 1);
		size_t idx[64], nidx = 0;
		CHECK(c, !(bad = unknown_key(item, item_keys)), "%s item %zu: unknown key %s",
		      nd->mig_config, it, bad);
		CHECK(c, is_bool(en, 1) || is_bool(en, 0),
		      "%s item %zu: mig-enabled is not a boolean", nd->mig_config, it);
		if (str_eq(devs, "all")) {
			for (size_t g = 0; g < nd->n_gpus && nidx < 64; g++)
				idx[nidx++] = g;
		} else if (is_seq(devs)) {
			for (size_t k = 0; k < devs->n; k++) {
				long g = -1;
				CHECK(c, int_of(devs->items[k], &g) && g >= 0 &&
				         (size_t)g < nd->n_gpus,
				      "%s item %zu: device %zu is not a GPU index of node %zu",
				      nd->mig_config, it, k, ni + 1);
				if (g >= 0 && (size_t)g < nd->n_gpus && nidx < 64)
					idx[nidx++] = (size_t)g;
			}
		} else {
			CHECK(c, 0, "%s item %zu: devices is neither all nor a list",
			      nd->mig_config, it);
		}
		if (enabled)
			CHECK(c, is_map(md), "%s item %zu: mig-enabled without mig-devices",
			      nd->mig_config, it);
		else
			CHECK(c, !md || (is_map(md) && md->n == 0),
			      "%s item %zu: mig-devices on a MIG-disabled item", nd->mig_config,
			      it);
		for (size_t k = 0; k < nidx; k++) {
			const gs_plan_gpu *pg = &nd->gpus[idx[k]];
			const gs_mig_profile *list[64];
			size_t nl = 0, total = 0;
			gs_error err = clean_err();
			char buf[1024];
			if (idx[k] < 64)
				covered[idx[k]]++;
			if (!enabled) {
				CHECK(c, pg->n_mig == 0,
				      "%s: node %zu gpu %zu holds %zu MIG instances but is "
				      "MIG-disabled",
				      nd->mig_config, ni + 1, idx[k], pg->n_mig);
				continue;
			}
			for (size_t e = 0; is_map(md) && e < md->n; e++) {
				const char *pname = md->keys[e]->text;
				const gs_mig_profile *prof = gs_mig_profile_find(pg->model, pname);
				long count = -1;
				size_t planned = 0;
				CHECK(c, prof && strcmp(prof->name, pname) == 0,
				      "%s: '%s' is not a %s profile", nd->mig_config, pname,
				      pg->model->name);
				CHECK(c, int_of(md->items[e], &count) && count >= 0,
				      "%s: count of %s is not an integer", nd->mig_config, pname);
				if (!prof)
					continue;
				for (size_t m = 0; m < pg->n_mig; m++)
					planned += pg->mig[m].profile == prof;
				CHECK(c, count >= 0 && (size_t)count == planned,
				      "%s: node %zu gpu %zu gets %ld x %s, the plan has %zu",
				      nd->mig_config, ni + 1, idx[k], count, pname, planned);
				for (long x = 0; x < count && nl < 64; x++)
					list[nl++] = prof;
				total += count > 0 ? (size_t)count : 0;
			}
			CHECK(c, total == pg->n_mig,
			      "%s: node %zu gpu %zu gets %zu instances, the plan %zu",
			      nd->mig_config, ni + 1, idx[k], total, pg->n_mig);
			if (nl)
				CHECK(c, gs_mig_fit(pg->model, list, nl, NULL, &err) == 0,
				      "%s: node %zu gpu %zu: not a valid geometry: %s",
				      nd->mig_config, ni + 1, idx[k],
				      gs_error_format(&err, buf, sizeof buf));
		}
	}
	for (size_t g = 0; g < nd->n_gpus && g < 64; g++)
		CHECK(c, covered[g] == 1, "%s: node %zu gpu %zu is covered %d times, want once",
		      nd->mig_config, ni + 1, g, covered[g]);
}

static void check_mig_parted(ctx *c, const gs_emit_opts *o, const docs *d)
{
	static const char *const top_keys[] = { "version", "mig-configs", NULL };
	const gs_node *data, *mc, *off;
	gs_node *cfg = NULL;
	gs_error err = clean_err();
	char buf[1024];
	const char *bad;
	sset want = { { NULL }, 0 };

	if (d->n != 1) {
		CHECK(c, 0, "%zu documents, want one ConfigMap", d->n);
		return;
	}
	check_configmap_header(c, d->v[0], o);
	data = get(d->v[0], "data");
	CHECK(c, is_map(data) && data->n == 1 && str(get(data, "config.yaml")),
	      "data is not exactly the key config.yaml");
	if (!str(get(data, "config.yaml")))
		return;
	if (gs_yaml_read_buffer("config.yaml", str(get(data, "config.yaml")),
	                        strlen(str(get(data, "config.yaml"))), &cfg, &err) < 0) {
		CHECK(c, 0, "config.yaml does not parse: %s",
		      gs_error_format(&err, buf, sizeof buf));
		return;
	}
	CHECK(c, str_eq(get(cfg, "version"), "v1"), "version is not v1");
	CHECK(c, !(bad = unknown_key(cfg, top_keys)), "unknown top-level key %s", bad);
	mc = get(cfg, "mig-configs");
	sset_add(&want, "all-disabled");
	for (size_t i = 0; i < gs_plan_node_count(c->p); i++)
		sset_add(&want, gs_plan_node_at(c->p, i)->mig_config);
	CHECK(c, is_map(mc) && mc->n == want.n, "%zu mig-configs, want %zu", is_map(mc) ? mc->n : 0,
	      want.n);
	for (size_t i = 0; is_map(mc) && i < mc->n; i++) {
		CHECK(c, sset_has(&want, mc->keys[i]->text), "mig-config %s is no node's",
		      mc->keys[i]->text);
		CHECK(c, label_value_ok(mc->keys[i]->text),
		      "mig-config name '%s' is not a label value", mc->keys[i]->text);
	}
	off = get(mc, "all-disabled");
	CHECK(c, seq_len(off) == 1 && str_eq(get(off->items[0], "devices"), "all") &&
	             is_bool(get(off->items[0], "mig-enabled"), 0) &&
	             !get(off->items[0], "mig-devices"),
	      "all-disabled is not [{devices: all, mig-enabled: false}]");
	for (size_t i = 0; i < gs_plan_node_count(c->p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(c->p, i);
		if (!nd->mig_config)
			continue;
		CHECK(c, get(mc, nd->mig_config) != NULL, "no mig-config %s", nd->mig_config);
		if (get(mc, nd->mig_config))
			check_geometry(c, nd, i, get(mc, nd->mig_config));
	}
	gs_node_free(cfg);
}

/* ---- labels.sh ------------------------------------------------------------------- */

static int label_chars(const char *s, size_t n, const char *extra)
{
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr(extra, s[i]))
			return 0;
	return 1;
}

/* `kubectl label node "$NODE_<n>" 'KEY=VALUE'... --overwrite`: returns n and
 * the pairs (at most max), or 0 when the line has another shape. */
typedef struct label_pair {
	char key[96], value[96];
} label_pair;

static size_t label_line(const char *line, label_pair *out, size_t max, size_t *n_out)
{
	static const char head[] = "kubectl label node \"$NODE_";
	static const char tail[] = " --overwrite";
	const char *p = line, *end = line + strlen(line);
	size_t n = 0, k = 0;

	if (strncmp(p, head, sizeof head - 1) != 0 || (size_t)(end - p) < sizeof tail ||
	    strcmp(end - (sizeof tail - 1), tail) != 0)
		return 0;
	end -= sizeof tail - 1;
	p += sizeof head - 1;
	while (p < end && isdigit((unsigned char)*p))
		n = n * 10 + (size_t)(*p++ - '0');
	if (*p++ != '"')
		return 0;
	/* ' KEY=VALUE' each, single-quoted label characters only. */
	while (p < end) {
		const char *eq, *close;
		if (end - p < 3 || p[0] != ' ' || p[1] != '\'' || k == max)
			return 0;
		p += 2;
		if (!(close = memchr(p, '\'', (size_t)(end - p))) ||
		    !(eq = memchr(p, '=', (size_t)(close - p))) || (size_t)(eq - p) >= 96 ||
		    (size_t)(close - eq) > 96 || !label_chars(p, (size_t)(close - p), "=/_.-"))
			return 0;
		snprintf(out[k].key, sizeof out[k].key, "%.*s", (int)(eq - p), p);
		snprintf(out[k].value, sizeof out[k].value, "%.*s", (int)(close - eq - 1), eq + 1);
		k++;
		p = close + 1;
	}
	*n_out = k;
	return n;
}

/* `check N "$NODE_N" 'TYPE' 'PRODUCT'...`: the planned instance type (or
 * "-") and the GPU model's names as gpu.product values. */
static void check_node_check(ctx *c, const char *line, size_t n, const gs_plan_node *pn)
{
	char want[512], type[64], name[64];
	gs_label_value(pn->instance->type, type);
	gs_label_value(pn->instance->gpu->name, name);
	snprintf(want, sizeof want, "check %zu \"$NODE_%zu\" '%s' '%s'", n, n,
	         strcmp(type, pn->instance->type) == 0 ? type : "-", name);
	CHECK(c, strncmp(line, want, strlen(want)) == 0, "node %zu: '%s', want '%s...'", n, line,
	      want);
	CHECK(c, label_chars(line + strlen(want), strlen(line + strlen(want)), " '_.-"),
	      "node %zu: products are not label values: %s", n, line);
}

static void check_labels(ctx *c, const gs_emit_opts *eo, const char *text)
{
	int dra = uses_dra(c, eo);
	const gs_plan *p = c->p;
	size_t nn = gs_plan_node_count(p), set = 0, checked = 0, labelled = 0;
	const char *line = strstr(text, "\n# All set, and all different.\n");
	char twice[8192];
	size_t o;

	CHECK(c, strncmp(text, "#!/bin/sh\n", 10) == 0, "does not start with #!/bin/sh");
	CHECK(c, line != NULL, "no checks before the labels");
	if (!line)
		return;
	/* The one line that may substitute a command outside the fixed
	 * functions: it names every NODE_n, once. */
	o = (size_t)snprintf(twice, sizeof twice, "twice=$(printf '%%s\\n'");
	for (size_t i = 1; i <= nn && o < sizeof twice; i++)
		o += (size_t)snprintf(twice + o, sizeof twice - o, " \"$NODE_%zu\"", i);
	if (o < sizeof twice)
		snprintf(twice + o, sizeof twice - o, " | sort | uniq -d | head -n 1)");
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line), n = 0, k = 0;
		char copy[2048], head[64];
		label_pair pairs[4];
		int dp = 0, mig = 0, pool = 0;
		snprintf(copy, sizeof copy, "%.*s", (int)len, line);
		line += len + (nl ? 1 : 0);
		if (len == 0 || copy[0] == '#' || strcmp(copy, twice) == 0 ||
		    strncmp(copy, "[ -z \"$twice\" ] || fail \"", 25) == 0)
			continue;
		CHECK(c, !strstr(copy, "$(") && !strchr(copy, '`'),
		      "command substitution outside a comment: %s", copy);
		if (sscanf(copy, "[ -n \"${NODE_%zu:-}\" ] ||", &n) == 1) {
			snprintf(head, sizeof head, "[ -n \"${NODE_%zu:-}\" ] || fail "
			         "\"NODE_%zu ", n, n);
			CHECK(c, n == ++set && strncmp(copy, head, strlen(head)) == 0,
			      "unexpected set check: %s", copy);
			continue;
		}
		if (sscanf(copy, "check %zu ", &n) == 1) {
			CHECK(c, n == ++checked && set == nn, "check %zu out of order", n);
			if (n >= 1 && n <= nn)
				check_node_check(c, copy, n, gs_plan_node_at(p, n - 1));
			continue;
		}
		n = label_line(copy, pairs, 4, &k);
		CHECK(c, n >= 1 && n <= nn && n == ++labelled, "unexpected line: %s", copy);
		CHECK(c, checked == nn, "node %zu labelled before every node was checked", n);
		if (n < 1 || n > nn)
			continue;
		for (size_t i = 0; i < k; i++) {
			const gs_plan_node *pn = gs_plan_node_at(p, n - 1);
			const char *key = pairs[i].key, *value = pairs[i].value;
			CHECK(c, label_value_ok(value), "label value '%s' is not valid", value);
			if (strcmp(key, "nvidia.com/device-plugin.config") == 0) {
				CHECK(c, strcmp(value, pn->config) == 0,
				      "node %zu labelled %s, its config is %s", n, value,
				      pn->config);
				dp++;
			} else if (strcmp(key, "nvidia.com/mig.config") == 0) {
				CHECK(c, pn->mig_config && strcmp(value, pn->mig_config) == 0,
				      "node %zu gets mig.config=%s, want %s", n, value,
				      pn->mig_config ? pn->mig_config : "(no MIG)");
				mig++;
			} else if (strcmp(key, "gpushare.io/pool") == 0) {
				CHECK(c, pn->pool && strcmp(value, pn->pool) == 0,
				      "node %zu gets pool=%s, want %s", n, value,
				      pn->pool ? pn->pool : "(none)");
				pool++;
			} else {
				CHECK(c, 0, "unexpected label key %s", key);
			}
		}
		CHECK(c, dp == (dra ? 0 : 1), "node %zu has %d device-plugin.config labels, "
		      "want %d", n, dp, dra ? 0 : 1);
		CHECK(c, mig == (node_is_mig(gs_plan_node_at(p, n - 1)) ? 1 : 0),
		      "node %zu has %d mig.config labels", n, mig);
		CHECK(c, pool == 1, "node %zu has %d pool labels, want 1", n, pool);
	}
	CHECK(c, set == nn && checked == nn && labelled == nn,
	      "%zu nodes: %zu set checks, %zu node checks, %zu label lines", nn, set, checked,
	      labelled);
}

/* ---- DRA ---------------------------------------------------------------------------- */

static const char *api_name(gs_dra_api a)
{
	return a == GS_DRA_V1BETA1 ? "resource.k8s.io/v1beta1"
	       : a == GS_DRA_V1BETA2 ? "resource.k8s.io/v1beta2" : "resource.k8s.io/v1";
}

static const gs_node *claim_devices(const gs_node *doc)
{
	return str_eq(get(doc, "kind"), "ResourceClaimTemplate")
	           ? at(doc, "spec", "spec", "devices", NULL)
	           : at(doc, "spec", "devices", NULL);
}

static const gs_node *find_request(const gs_node *devices, const char *name)
{
	const gs_node *reqs = get(devices, "requests");
	for (size_t i = 0; i < seq_len(reqs); i++)
		if (str_eq(get(reqs->items[i], "name"), name))
			return reqs->items[i];
	return NULL;
}

/* The request's deviceClassName/selectors map, per API version. */
static const gs_node *request_body(const gs_node *req, gs_dra_api api)
{
	return api == GS_DRA_V1BETA1 ? req : get(req, "exactly");
}

/* The profile a MIG request's CEL selector names, into buf ("" if none). */
static void request_profile(const gs_node *body, char *buf, size_t n)
{
	static const char pre[] = "device.attributes['gpu.nvidia.com'].profile == '";
	const gs_node *sels = get(body, "selectors");
	const char *e;
	buf[0] = '\0';
	if (seq_len(sels) != 1 || !(e = str(at(sels->items[0], "cel", "expression", NULL))))
		return;
	if (strncmp(e, pre, sizeof pre - 1) == 0 && strlen(e) >= sizeof pre &&
	    e[strlen(e) - 1] == '\'')
		snprintf(buf, n, "%.*s", (int)(strlen(e) - sizeof pre), e + sizeof pre - 1);
}

/* Whether request `name` is covered by a config entry of this kind and
 * strategy. */
static const gs_node *config_for(const gs_node *devices, const char *name)
{
	const gs_node *cfgs = get(devices, "config");
	const gs_node *found = NULL;
	for (size_t i = 0; i < seq_len(cfgs); i++) {
		const gs_node *reqs = get(cfgs->items[i], "requests");
		for (size_t r = 0; r < seq_len(reqs); r++)
			if (str_eq(reqs->items[r], name))
				found = cfgs->items[i]; /* later entries win */
	}
	return found;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A claim's content as text: "mig:P[/ts],P..." (profiles sorted) or "gpu:ts",
 * "gpu:mps", "gpu:none". */
static void claim_signature(ctx *c, const gs_node *doc, gs_dra_api api, char *buf, size_t n)
{
	const gs_node *dev = claim_devices(doc), *reqs = get(dev, "requests");
	char parts[32][64];
	const char *sorted[32];
	size_t np = 0, o = 0;
	int mig = 0, gpu = 0;
	buf[0] = '\0';
	for (size_t r = 0; r < seq_len(reqs) && np < 32; r++) {
		const gs_node *body = request_body(reqs->items[r], api);
		const char *name = str(get(reqs->items[r], "name"));
		const gs_node *cfg = name ? config_for(dev, name) : NULL;
		const char *kind = str(at(cfg, "opaque", "parameters", "kind", NULL));
		const char *strat =
		        str(at(cfg, "opaque", "parameters", "sharing", "strategy", NULL));
		if (str_eq(get(body, "deviceClassName"), "mig.nvidia.com")) {
			char prof[48];
			mig = 1;
			request_profile(body, prof, sizeof prof);
			CHECK(c, prof[0], "MIG request %s has no profile selector",
			      name ? name : "?");
			CHECK(c, !cfg || (kind && strcmp(kind, "MigDeviceConfig") == 0),
			      "MIG request %s configured by a %s", name ? name : "?",
			      kind ? kind : "?");
			snprintf(parts[np], sizeof parts[np], "%s%s", prof,
			         strat && strcmp(strat, "TimeSlicing") == 0 ? "/ts" : "");
			sorted[np] = parts[np];
			np++;
		} else {
			gpu = 1;
			CHECK(c, !cfg || (kind && strcmp(kind, "GpuConfig") == 0),
			      "GPU request %s configured by a %s", name ? name : "?",
			      kind ? kind : "?");
			snprintf(buf, n, "gpu:%s",
			         !strat ? "none"
			         : strcmp(strat, "MPS") == 0 ? "mps"
			         : strcmp(strat, "TimeSlicing") == 0 ? "ts" : "?");
		}
	}
	CHECK(c, !(mig && gpu), "a claim mixes MIG and whole-GPU requests");
	if (gpu) {
		CHECK(c, seq_len(reqs) == 1, "a whole-GPU claim with %zu requests", seq_len(reqs));
		return;
	}
	qsort(sorted, np, sizeof *sorted, cmp_str);
	o = (size_t)snprintf(buf, n, "mig:");
	for (size_t i = 0; i < np && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "," : "", sorted[i]);
}

static void check_dra_config_entry(ctx *c, const char *claim, const gs_node *e,
                                   const gs_node *devices, gs_dra_api api)
{
	static const char *const param_keys[] = { "apiVersion", "kind", "sharing", NULL };
	const gs_node *params = at(e, "opaque", "parameters", NULL), *sh = get(params, "sharing"),
	              *reqs = get(e, "requests");
	const char *kind = str(get(params, "kind")), *strat = str(get(sh, "strategy")), *bad;
	CHECK(c, str_eq(at(e, "opaque", "driver", NULL), "gpu.nvidia.com"),
	      "%s: opaque driver is not gpu.nvidia.com", claim);
	CHECK(c, str_eq(get(params, "apiVersion"), "resource.nvidia.com/v1beta1"),
	      "%s: parameters apiVersion is not resource.nvidia.com/v1beta1", claim);
	CHECK(c, !(bad = unknown_key(params, param_keys)),
	      "%s: unknown parameter %s (strict decoder)", claim, bad);
	CHECK(c, kind && (strcmp(kind, "GpuConfig") == 0 || strcmp(kind, "MigDeviceConfig") == 0),
	      "%s: parameters kind %s", claim, kind ? kind : "(none)");
	CHECK(c, strat && (strcmp(strat, "TimeSlicing") == 0 || strcmp(strat, "MPS") == 0),
	      "%s: sharing.strategy %s", claim, strat ? strat : "(none)");
	CHECK(c, seq_len(reqs) > 0, "%s: a config entry for no request", claim);
	for (size_t r = 0; r < seq_len(reqs); r++) {
		const gs_node *req =
		        str(reqs->items[r]) ? find_request(devices, str(reqs->items[r])) : NULL;
		const gs_node *body = request_body(req, api);
		CHECK(c, req != NULL, "%s: config names an unknown request", claim);
		if (req && kind)
			CHECK(c, str_eq(get(body, "deviceClassName"),
			                strcmp(kind, "GpuConfig") == 0 ? "gpu.nvidia.com"
			                                               : "mig.nvidia.com"),
			      "%s: %s applied to a request of another device class", claim, kind);
	}
	if (kind && strcmp(kind, "MigDeviceConfig") == 0) {
		CHECK(c, !get(sh, "timeSlicingConfig"),
		      "%s: timeSlicingConfig in a MigDeviceConfig", claim);
		CHECK(c, !get(sh, "mpsConfig"), "%s: MPS on a MIG device", claim);
	}
	if (strat && strcmp(strat, "TimeSlicing") == 0) {
		const gs_node *tsc = get(sh, "timeSlicingConfig"), *iv = get(tsc, "interval");
		CHECK(c, !get(sh, "mpsConfig"), "%s: mpsConfig with TimeSlicing", claim);
		if (kind && strcmp(kind, "GpuConfig") == 0)
			CHECK(c, str_eq(iv, "Default") || str_eq(iv, "Short") ||
			             str_eq(iv, "Medium") || str_eq(iv, "Long"),
			      "%s: GpuConfig TimeSlicing without a valid "
			      "timeSlicingConfig.interval", claim);
	}
	if (strat && strcmp(strat, "MPS") == 0) {
		const gs_node *m = get(sh, "mpsConfig");
		const char *lim = str(get(m, "defaultPinnedDeviceMemoryLimit"));
		long threads = -1;
		size_t ll = lim ? strlen(lim) : 0;
		CHECK(c, !get(sh, "timeSlicingConfig"), "%s: timeSlicingConfig with MPS", claim);
		CHECK(c, int_of(get(m, "defaultActiveThreadPercentage"), &threads) &&
		             threads >= 1 && threads <= 100,
		      "%s: defaultActiveThreadPercentage %ld not in 1..100", claim, threads);
		CHECK(c, ll > 2 && strcmp(lim + ll - 2, "Mi") == 0 &&
		             label_chars(lim, ll - 2, "") && atol(lim) >= 1,
		      "%s: defaultPinnedDeviceMemoryLimit '%s' is not <N>Mi with N >= 1", claim,
		      lim ? lim : "(none)");
	}
}

/* The namespace of a workload's object (its claims are there). */
static const char *ns_of(const ctx *c, const gs_workload *w)
{
	return w->object.namespace_ ? w->object.namespace_
	                            : gs_scenario_namespace(c->ld->scn);
}

/* A MIG instance several pods share (a claim by name), not one pod's. */
static int mig_is_shared(const gs_plan_mig *mi)
{
	return mi->n_assignments > 1 || mi->strategy == GS_STRATEGY_TIME_SLICING;
}

/* What the plan needs, as signatures: "claim:NS:gpu:ts|mps" per shared GPU,
 * "claim:NS:mig:P[/ts]" per shared MIG instance, "tmpl:NS:gpushare-gpu:gpu"
 * once per namespace with whole GPUs of their own and
 * "tmpl:NS:gpushare-W-mig-P:mig:P" once per workload and MIG profile of
 * instances of its own. Returns the count. */
static size_t dra_wanted(ctx *c, char (*sig)[256], size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < gs_plan_node_count(c->p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(c->p, i);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *pg = &nd->gpus[g];
			char one[256];
			for (size_t m = 0; m < pg->n_mig; m++) {
				const gs_plan_mig *mi = &pg->mig[m];
				const gs_workload *w;
				if (!mi->n_assignments)
					continue;
				w = mi->assignments[0].workload;
				if (mig_is_shared(mi))
					snprintf(one, sizeof one, "claim:%s:mig:%s%s", ns_of(c, w),
					         mi->profile->name,
					         mi->strategy == GS_STRATEGY_TIME_SLICING ? "/ts"
					                                                  : "");
				else
					snprintf(one, sizeof one,
					         "tmpl:%s:gpushare-%s-mig-%s:mig:%s",
					         ns_of(c, w), w->name, mi->profile->name,
					         mi->profile->name);
				if (n < cap && (one[0] == 'c' || !sset_has_sig(sig, n, one)))
					snprintf(sig[n++], 256, "%s", one);
			}
			if (pg->n_mig || !pg->n_assignments)
				continue;
			if (pg->strategy == GS_STRATEGY_DEDICATED)
				snprintf(one, sizeof one, "tmpl:%s:gpushare-gpu:gpu",
				         ns_of(c, pg->assignments[0].workload));
			else
				snprintf(one, sizeof one, "claim:%s:gpu:%s",
				         ns_of(c, pg->assignments[0].workload),
				         pg->strategy == GS_STRATEGY_MPS ? "mps" : "ts");
			if (n < cap && (one[0] == 'c' || !sset_has_sig(sig, n, one)))
				snprintf(sig[n++], 256, "%s", one);
		}
	}
	return n;
}

/* From Kubernetes 1.34 (the default 1.35), a DeviceClass per MIG profile
 * of the plan maps nvidia.com/mig-P to a slice of that profile. */
static void check_device_class(ctx *c, const gs_node *doc, sset *classes)
{
	const char *name = str(at(doc, "metadata", "name", NULL));
	const gs_node *spec = get(doc, "spec"), *sels = get(spec, "selectors");
	const char *ext = str(get(spec, "extendedResourceName"));
	int found = 0;
	for (size_t i = 0; i < gs_plan_node_count(c->p) && !found; i++) {
		const gs_plan_node *nd = gs_plan_node_at(c->p, i);
		for (size_t g = 0; g < nd->n_gpus && !found; g++)
			for (size_t m = 0; m < nd->gpus[g].n_mig && !found; m++) {
				const gs_mig_profile *prof = nd->gpus[g].mig[m].profile;
				char want[96], res[96], cel[256];
				snprintf(want, sizeof want, "mig-%s.gpushare.io", prof->name);
				if (!name || strcmp(name, want) != 0)
					continue;
				found = 1;
				mig_resource(prof, 0, res, sizeof res);
				snprintf(cel, sizeof cel,
				         "device.driver == 'gpu.nvidia.com' && "
				         "device.attributes['gpu.nvidia.com'].type == 'mig' && "
				         "device.attributes['gpu.nvidia.com'].profile == '%s'",
				         prof->name);
				CHECK(c, ext && strcmp(ext, res) == 0,
				      "DeviceClass %s: extendedResourceName %s, want %s", name,
				      ext ? ext : "(none)", res);
				CHECK(c, seq_len(sels) == 1 &&
				             str_eq(at(sels->items[0], "cel", "expression", NULL),
				                    cel),
				      "DeviceClass %s: its selector is not the profile's", name);
			}
	}
	CHECK(c, found, "DeviceClass %s is no MIG profile of the plan", name ? name : "?");
	CHECK(c, !at(doc, "metadata", "namespace", NULL), "DeviceClass %s has a namespace",
	      name ? name : "?");
	CHECK(c, !name || !sset_has(classes, name), "DeviceClass %s twice", name ? name : "?");
	sset_add(classes, name);
}

static void check_dra(ctx *c, const gs_emit_opts *o, const docs *d)
{
	static char want[512][256], got[512][256];
	const char *wv[512], *gv[512];
	size_t nwant = dra_wanted(c, want, 512), ngot = 0, profiles = 0;
	sset classes = { { NULL }, 0 }, seen = { { NULL }, 0 };

	for (size_t i = 0; i < gs_plan_node_count(c->p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(c->p, i);
		for (size_t g = 0; g < nd->n_gpus; g++)
			for (size_t m = 0; m < nd->gpus[g].n_mig; m++)
				sset_add(&seen, nd->gpus[g].mig[m].profile->name);
	}
	profiles = seen.n;
	for (size_t i = 0; i < d->n; i++) {
		const gs_node *doc = d->v[i], *dev = claim_devices(doc),
		              *reqs = get(dev, "requests"), *cfgs = get(dev, "config");
		const char *kind = str(get(doc, "kind")),
		           *name = str(at(doc, "metadata", "name", NULL)),
		           *ns = str(at(doc, "metadata", "namespace", NULL));
		const char *cn = name ? name : "?";
		int tmpl = kind && strcmp(kind, "ResourceClaimTemplate") == 0;
		size_t nmig = 0;
		CHECK(c, str_eq(get(doc, "apiVersion"), api_name(o->dra_api)),
		      "document %zu: apiVersion %s, want %s", i + 1,
		      str(get(doc, "apiVersion")) ? str(get(doc, "apiVersion")) : "(none)",
		      api_name(o->dra_api));
		if (kind && strcmp(kind, "DeviceClass") == 0) {
			check_device_class(c, doc, &classes);
			continue;
		}
		CHECK(c, kind && (tmpl || strcmp(kind, "ResourceClaim") == 0),
		      "document %zu: kind %s", i + 1, kind ? kind : "(none)");
		CHECK(c, object_name_ok(name), "document %zu: bad name", i + 1);
		CHECK(c, ns != NULL, "%s has no namespace (a claim serves its own only)", cn);
		/* One request each: a claim is one GPU or one MIG instance. */
		CHECK(c, seq_len(reqs) == 1, "%s: %zu requests, want 1", cn, seq_len(reqs));
		for (size_t r = 0; r < seq_len(reqs); r++) {
			const gs_node *req = reqs->items[r], *body = request_body(req, o->dra_api);
			const char *rn = str(get(req, "name"));
			CHECK(c, rn && label_chars(rn, strlen(rn), "-"),
			      "%s: request %zu has a bad name", cn, r);
			if (o->dra_api == GS_DRA_V1BETA1)
				CHECK(c, !get(req, "exactly"), "%s: `exactly` under v1beta1", cn);
			else
				CHECK(c, is_map(get(req, "exactly")) &&
				             !get(req, "deviceClassName"),
				      "%s: request %s is not {name, exactly: {...}} under %s", cn,
				      rn ? rn : "?", api_name(o->dra_api));
			CHECK(c, str_eq(get(body, "deviceClassName"), "gpu.nvidia.com") ||
			             str_eq(get(body, "deviceClassName"), "mig.nvidia.com"),
			      "%s: request %s has no known deviceClassName", cn, rn ? rn : "?");
			nmig += str_eq(get(body, "deviceClassName"), "mig.nvidia.com");
		}
		for (size_t k = 0; k < seq_len(cfgs); k++)
			check_dra_config_entry(c, cn, cfgs->items[k], dev, o->dra_api);
		if (ngot == 512)
			continue;
		if (tmpl) {
			/* A template is a device of one pod's own: nothing shares it. */
			char prof[48] = "";
			CHECK(c, !cfgs, "%s: a sharing config in a template", cn);
			if (nmig && seq_len(reqs))
				request_profile(request_body(reqs->items[0], o->dra_api), prof,
				                sizeof prof);
			snprintf(got[ngot], sizeof got[ngot], "tmpl:%s:%s:%s%s", ns ? ns : "?", cn,
			         nmig ? "mig:" : "gpu", prof);
		} else {
			char sig[200];
			claim_signature(c, doc, o->dra_api, sig, sizeof sig);
			snprintf(got[ngot], sizeof got[ngot], "claim:%s:%s", ns ? ns : "?", sig);
		}
		gv[ngot] = got[ngot];
		ngot++;
	}
	CHECK(c, classes.n == (o->kube_minor >= 34 ? profiles : 0),
	      "%zu DeviceClasses, the plan has %zu MIG profiles (Kubernetes 1.%d)", classes.n,
	      profiles, o->kube_minor);
	for (size_t i = 0; i < nwant; i++)
		wv[i] = want[i];
	qsort(wv, nwant, sizeof *wv, cmp_str);
	qsort(gv, ngot, sizeof *gv, cmp_str);
	CHECK(c, ngot == nwant, "%zu claims and templates, the plan needs %zu", ngot, nwant);
	for (size_t i = 0; i < ngot && i < nwant; i++)
		CHECK(c, strcmp(gv[i], wv[i]) == 0, "claims and the plan differ: %s, want %s",
		      gv[i], wv[i]);
}

/* ---- workloads ------------------------------------------------------------------------ */

/* The replicas of one workload that land in one pool requesting one thing. */
typedef struct wplace {
	const gs_workload *w;
	const char *pool;
	char res[128];
	int want, got;
} wplace;

/* What a replica on this GPU (or MIG instance m) requests: a resource, or
 * under DRA "claim:gpu", "claim:mig:P", "template:gpu", "template:mig:P". */
static void expected_resource(const ctx *c, const gs_emit_opts *o, const gs_plan_gpu *g, long m,
                              char *buf, size_t n)
{
	if (uses_dra(c, o)) {
		if (m >= 0)
			snprintf(buf, n, "%s:mig:%s",
			         mig_is_shared(&g->mig[m]) ? "claim" : "template",
			         g->mig[m].profile->name);
		else
			snprintf(buf, n, "%s", g->strategy == GS_STRATEGY_DEDICATED ? "template:gpu"
			                                                          : "claim:gpu");
	} else if (m >= 0) {
		mig_resource(g->mig[m].profile, o->rename_shared && g->mig[m].replicas >= 2, buf,
		             n);
	} else {
		snprintf(buf, n, "nvidia.com/gpu%s",
		         o->rename_shared && g->strategy != GS_STRATEGY_DEDICATED ? ".shared" : "");
	}
}

static size_t expected_places(const ctx *c, const gs_emit_opts *o, wplace *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < gs_plan_node_count(c->p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(c->p, i);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *pg = &nd->gpus[g];
			for (long m = -1; m < (long)pg->n_mig; m++) {
				const gs_assignment *a =
				        m < 0 ? pg->assignments : pg->mig[m].assignments;
				size_t na = m < 0 ? pg->n_assignments : pg->mig[m].n_assignments;
				for (size_t k = 0; k < na; k++) {
					char res[128];
					size_t j;
					expected_resource(c, o, pg, m, res, sizeof res);
					/* Under DRA each shared GPU is a claim of its own. */
					if (uses_dra(c, o) && strncmp(res, "claim:", 6) == 0)
						snprintf(res + strlen(res),
						         sizeof res - strlen(res),
						         "@%zu/%zu/%ld", i, g, m);
					for (j = 0; j < n; j++)
						if (out[j].w == a[k].workload &&
						    strcmp(out[j].pool, nd->pool) == 0 &&
						    strcmp(out[j].res, res) == 0)
							break;
					if (j == n) {
						if (n == cap)
							return n;
						out[n].w = a[k].workload;
						out[n].pool = nd->pool;
						snprintf(out[n].res, sizeof out[n].res, "%s", res);
						out[n].want = out[n].got = 0;
						n++;
					}
					out[j].want++;
				}
			}
		}
	}
	return n;
}

/* The number of objects workload w needs: one per distinct request (and
 * pool, pinned). */
static size_t objects_needed(const ctx *c, const wplace *pl, size_t n, const gs_workload *w)
{
	int pinned = gs_scenario_placement(c->ld->scn) == GS_PLACEMENT_PINNED;
	size_t count = 0;
	for (size_t j = 0; j < n; j++) {
		int first = pl[j].w == w;
		for (size_t k = 0; k < j && first; k++)
			first = !(pl[k].w == w && strcmp(pl[k].res, pl[j].res) == 0 &&
			          (!pinned || strcmp(pl[k].pool, pl[j].pool) == 0));
		count += first;
	}
	return count;
}

/* The claim a DRA pod names, as expected_resource says it, with the
 * claim's GPU for a shared one: "claim:gpu@NODE/GPU/MIG" from the claim's
 * name gpushare-nN-gpuG[-migM]. */
static void claim_place(const char *claim, char *buf, size_t n)
{
	unsigned node = 0, gpu = 0, mig = 0;
	size_t o = strlen(buf);
	if (sscanf(claim, "gpushare-n%u-gpu%u-mig%u", &node, &gpu, &mig) == 3)
		snprintf(buf + o, n - o, "@%u/%u/%u", node - 1, gpu, mig);
	else if (sscanf(claim, "gpushare-n%u-gpu%u", &node, &gpu) == 2)
		snprintf(buf + o, n - o, "@%u/%u/-1", node - 1, gpu);
}

/* What a pod spec's container `ctr` requests, in expected_resource's terms.
 * real: the manifest's container (its nvidia.com/gpu must be deleted by
 * a null unless planned). */
static void pod_resource(ctx *c, const gs_emit_opts *o, const gs_node *spec, const gs_node *ctr,
                         const docs *dra, int real, char *buf, size_t n)
{
	const gs_node *limits = at(ctr, "resources", "limits", NULL);
	const gs_node *requests = at(ctr, "resources", "requests", NULL);
	const gs_node *claims = at(ctr, "resources", "claims", NULL);
	buf[0] = '\0';
	if (!uses_dra(c, o)) {
		long one = 0;
		const char *res;
		CHECK(c, !claims && !get(spec, "resourceClaims"), "resource claims without DRA");
		CHECK(c, is_map(limits) && limits->n >= 1, "no limits");
		if (!is_map(limits) || limits->n < 1)
			return;
		res = limits->keys[0]->text;
		CHECK(c, (int_of(limits->items[0], &one) || quantity_of(limits->items[0], &one)) &&
		             one == 1,
		      "limit of %s is not 1", res);
		/* The container asked for nvidia.com/gpu before (the manifest,
		 * or any unplanned GPU pod): a strategic merge keeps it unless
		 * the patch deletes it with null. */
		if (strcmp(res, "nvidia.com/gpu") == 0 || o->example_deployments) {
			/* (A complete example object has nothing to delete.) */
			CHECK(c, limits->n == 1, "limits hold %zu keys, want %s alone",
			      limits->n, res);
			CHECK(c, !requests, "requests beside a plain %s limit", res);
		} else {
			CHECK(c, limits->n == 2 && get(limits, "nvidia.com/gpu") &&
			             get(limits, "nvidia.com/gpu")->kind == GS_NODE_NULL,
			      "limits of %s do not delete nvidia.com/gpu (null) and nothing else",
			      res);
			if (real)
				CHECK(c, is_map(requests) && requests->n == 1 &&
				             get(requests, "nvidia.com/gpu") &&
				             get(requests, "nvidia.com/gpu")->kind == GS_NODE_NULL,
				      "requests do not delete the manifest's nvidia.com/gpu");
			else
				CHECK(c, !requests, "requests without a manifest");
		}
		snprintf(buf, n, "%s", res);
		return;
	}
	/* The manifest's nvidia.com/gpu is deleted (null): a pod that asks
	 * for it beside its claim waits for a device plugin DRA lacks. */
	if (real)
		CHECK(c, is_map(limits) && limits->n == 1 && is_map(requests) &&
		             requests->n == 1 && get(limits, "nvidia.com/gpu") &&
		             get(limits, "nvidia.com/gpu")->kind == GS_NODE_NULL &&
		             get(requests, "nvidia.com/gpu") &&
		             get(requests, "nvidia.com/gpu")->kind == GS_NODE_NULL,
		      "the manifest's nvidia.com/gpu is not deleted beside DRA claims");
	else
		CHECK(c, !limits && !requests,
		      "device-plugin limits or requests beside DRA claims");
	CHECK(c, seq_len(claims) == 1, "the container names %zu claims, want 1", seq_len(claims));
	if (seq_len(claims) != 1)
		return;
	{
		const char *cname = str(get(claims->items[0], "name"));
		const char *rq = str(get(claims->items[0], "request"));
		const gs_node *rcs = get(spec, "resourceClaims"), *rc = NULL, *doc = NULL, *req;
		const char *claim, *tname;
		for (size_t i = 0; cname && i < seq_len(rcs); i++)
			if (str_eq(get(rcs->items[i], "name"), cname))
				rc = rcs->items[i];
		CHECK(c, rc != NULL, "container claim %s is not in the pod's resourceClaims",
		      cname ? cname : "?");
		claim = str(get(rc, "resourceClaimName"));
		tname = str(get(rc, "resourceClaimTemplateName"));
		CHECK(c, rc == NULL || (!claim != !tname),
		      "pod claim %s needs exactly one of resourceClaimName and "
		      "resourceClaimTemplateName", cname ? cname : "?");
		for (size_t i = 0; dra && i < dra->n && (claim || tname); i++)
			if (str_eq(get(dra->v[i], "kind"),
			           claim ? "ResourceClaim" : "ResourceClaimTemplate") &&
			    str_eq(at(dra->v[i], "metadata", "name", NULL), claim ? claim : tname))
				doc = dra->v[i];
		CHECK(c, doc != NULL || !rc, "claim %s is not in the DRA output",
		      claim ? claim : tname ? tname : "?");
		if (!doc)
			return;
		req = rq ? find_request(claim_devices(doc), rq) : NULL;
		CHECK(c, req != NULL, "claim %s has no request %s", claim ? claim : tname,
		      rq ? rq : "?");
		if (!req)
			return;
		if (str_eq(get(request_body(req, o->dra_api), "deviceClassName"),
		           "mig.nvidia.com")) {
			char prof[48];
			request_profile(request_body(req, o->dra_api), prof, sizeof prof);
			snprintf(buf, n, "%s:mig:%s", claim ? "claim" : "template", prof);
		} else {
			snprintf(buf, n, "%s:gpu", claim ? "claim" : "template");
		}
		if (claim)
			claim_place(claim, buf, n);
	}
}

/* Whether a pod spec keeps the workload's pods on distinct nodes: a
 * required anti-affinity on kubernetes.io/hostname that selects the pods
 * by their gpushare.io/workload label. */
static int keeps_nodes_apart(const gs_node *pod, const char *workload)
{
	const gs_node *aa = at(pod, "affinity", "podAntiAffinity",
	                       "requiredDuringSchedulingIgnoredDuringExecution", NULL);
	for (size_t i = 0; i < seq_len(aa); i++)
		if (str_eq(get(aa->items[i], "topologyKey"), "kubernetes.io/hostname") &&
		    str_eq(at(aa->items[i], "labelSelector", "matchLabels", "gpushare.io/workload",
		              NULL), workload))
			return 1;
	return 0;
}

/* The pools a pod spec selects: nodeSelector gpushare.io/pool for one,
 * a required nodeAffinity gpushare.io/pool In [...] for several. */
static size_t selected_pools(ctx *c, const gs_node *pod, const char **out, size_t cap)
{
	const gs_node *sel = get(pod, "nodeSelector"),
	              *terms = at(pod, "affinity", "nodeAffinity",
	                          "requiredDuringSchedulingIgnoredDuringExecution",
	                          "nodeSelectorTerms", NULL);
	size_t n = 0;
	CHECK(c, !get(sel, "nvidia.com/device-plugin.config"),
	      "a nvidia.com/device-plugin.config selector: several pools carry one config");
	if (str(get(sel, "gpushare.io/pool"))) {
		CHECK(c, sel->n == 1 && !terms, "nodeSelector holds more than the pool, or "
		                                "a nodeAffinity beside it");
		out[n++] = str(get(sel, "gpushare.io/pool"));
		return n;
	}
	CHECK(c, !sel, "a nodeSelector without gpushare.io/pool");
	CHECK(c, seq_len(terms) == 1, "%zu nodeSelectorTerms, want 1", seq_len(terms));
	if (seq_len(terms) == 1) {
		const gs_node *ex = get(terms->items[0], "matchExpressions"), *vals;
		CHECK(c, seq_len(ex) == 1 && str_eq(get(ex->items[0], "key"), "gpushare.io/pool") &&
		             str_eq(get(ex->items[0], "operator"), "In"),
		      "the node affinity is not one gpushare.io/pool In expression");
		vals = seq_len(ex) ? get(ex->items[0], "values") : NULL;
		CHECK(c, seq_len(vals) >= 2, "gpushare.io/pool In with %zu values (one is a "
		                             "nodeSelector)", seq_len(vals));
		for (size_t i = 0; i < seq_len(vals) && n < cap; i++)
			out[n++] = str(vals->items[i]);
	}
	return n;
}

/* Where kind k keeps its pod template and its replica count. */
static const gs_node *pod_of(const gs_node *doc, const char *kind, const gs_node **tmeta,
                             const gs_node **count)
{
	const gs_node *spec = get(doc, "spec");
	*count = NULL;
	if (str_eq(get(doc, "kind"), "Pod") || (kind && strcmp(kind, "Pod") == 0)) {
		*tmeta = get(doc, "metadata");
		return spec;
	}
	if (kind && strcmp(kind, "CronJob") == 0)
		spec = at(spec, "jobTemplate", "spec", NULL);
	*count = get(spec, kind && (strcmp(kind, "Job") == 0 || strcmp(kind, "CronJob") == 0)
	                           ? "parallelism"
	                           : "replicas");
	*tmeta = at(spec, "template", "metadata", NULL);
	return at(spec, "template", "spec", NULL);
}

/* A complete copy of the workload's manifest, for a second placement: the
 * manifest renamed NAME-N, its pods labelled gpushare.io/copy: N (and its
 * selector, so the copies' pods are their own), the rest as it was. */
static void check_copy(ctx *c, const gs_node *doc, const gs_workload *w, const char *kind)
{
	const gs_node *tmeta, *count, *pod = pod_of(doc, kind, &tmeta, &count),
	              *ctrs = get(pod, "containers");
	const char *name = str(at(doc, "metadata", "name", NULL)),
	           *n = str(at(tmeta, "labels", "gpushare.io/copy", NULL));
	char want[128];
	snprintf(want, sizeof want, "%s-%s", object_name(w), n ? n : "?");
	CHECK(c, name && n && strcmp(name, want) == 0 && atoi(n) >= 2,
	      "copy %s of %s: not named NAME-N after its copy label", name ? name : "?",
	      object_name(w));
	CHECK(c, str_eq(at(tmeta, "labels", "app", NULL), object_name(w)),
	      "copy %s lost its template labels", name ? name : "?");
	if (strcmp(kind, "Deployment") == 0 || strcmp(kind, "StatefulSet") == 0)
		CHECK(c, n && str_eq(at(doc, "spec", "selector", "matchLabels", "gpushare.io/copy",
		                        NULL), n),
		      "copy %s: its selector does not name its copy label", name ? name : "?");
	CHECK(c, seq_len(ctrs) == 2 && str_eq(get(ctrs->items[0], "name"), SIDECAR) &&
	             str_eq(get(ctrs->items[1], "name"), object_container(w)) &&
	             str(get(ctrs->items[1], "image")),
	      "copy %s: its containers are not the manifest's", name ? name : "?");
}

static void check_workloads(ctx *c, const gs_emit_opts *o, const docs *d)
{
	static wplace want[1024];
	size_t nw = expected_places(c, o, want, 1024);
	docs dra = { { NULL }, 0 };
	sset names = { { NULL }, 0 };
	const gs_scenario *s = c->ld->scn;
	size_t *objs = calloc(gs_scenario_workload_count(s) + 1, sizeof *objs);

	if (uses_dra(c, o))
		emit_docs(c, GS_EMIT_DRA, o, &dra);
	for (size_t i = 0; objs && i < d->n; i++) {
		const gs_node *doc = d->v[i], *tmeta, *count, *pod, *ctrs, *ctr = NULL;
		const char *kind = str(get(doc, "kind")),
		           *name = str(at(doc, "metadata", "name", NULL)),
		           *ns = str(at(doc, "metadata", "namespace", NULL)), *wname, *pools[64];
		const gs_workload *w;
		char res[128];
		long reps = -1;
		size_t np, covered = 0;
		int sum = 0, is_copy = 0;
		/* A copy precedes its patch, which has its kind and name (and
		 * labels its pods with their workload). */
		if (!o->example_deployments && i + 1 < d->n &&
		    str_eq(get(d->v[i + 1], "kind"), kind) &&
		    str_eq(at(d->v[i + 1], "metadata", "name", NULL), name ? name : "")) {
			pod_of(d->v[i + 1], kind, &tmeta, &count);
			wname = str(at(tmeta, "labels", "gpushare.io/workload", NULL));
			w = wname ? gs_scenario_find(s, wname) : NULL;
			CHECK(c, w && o->manifests, "a copy of %s without manifests",
			      wname ? wname : "?");
			if (w)
				check_copy(c, doc, w, kind ? kind : "?");
			continue;
		}
		pod = pod_of(doc, kind, &tmeta, &count);
		wname = str(at(tmeta, "labels", "gpushare.io/workload", NULL));
		w = wname ? gs_scenario_find(s, wname) : NULL;
		CHECK(c, w != NULL, "document %zu: label gpushare.io/workload %s is no workload",
		      i + 1, wname ? wname : "(none)");
		if (!w)
			continue;
		is_copy = str(at(tmeta, "labels", "gpushare.io/copy", NULL)) != NULL;
		if (o->example_deployments) {
			const gs_node *ml = at(doc, "spec", "selector", "matchLabels", NULL);
			CHECK(c, str_eq(get(doc, "apiVersion"), "apps/v1") &&
			             kind && strcmp(kind, "Deployment") == 0,
			      "document %zu is not an apps/v1 Deployment", i + 1);
			CHECK(c, is_map(ml) && ml->n > 0, "Deployment %s has no selector",
			      name ? name : "?");
			for (size_t k = 0; is_map(ml) && k < ml->n; k++)
				CHECK(c, str(ml->items[k]) &&
				             str_eq(get(get(tmeta, "labels"), ml->keys[k]->text),
				                    str(ml->items[k])),
				      "Deployment %s: selector %s does not match the template "
				      "labels",
				      name ? name : "?", ml->keys[k]->text);
		} else {
			static const char *const patch_keys[] = { "apiVersion", "kind", "metadata",
				                                  "spec", NULL };
			static const char *const meta_keys[] = { "name", "namespace", NULL };
			static const char *const pod_meta_keys[] = { "name", "namespace", "labels",
				                                     NULL };
			const char *bad;
			gs_object_kind k = w->object.kind;
			CHECK(c, !(bad = unknown_key(doc, patch_keys)),
			      "patch %zu: unexpected key %s", i + 1, bad);
			CHECK(c, !(bad = unknown_key(get(doc, "metadata"),
			                             k == GS_OBJECT_POD ? pod_meta_keys
			                                                : meta_keys)),
			      "patch %zu: unexpected metadata key %s", i + 1, bad);
			CHECK(c, str_eq(get(doc, "kind"), gs_object_kind_name(k)),
			      "patch of %s: kind %s, its object is a %s", w->name,
			      kind ? kind : "?",
			      gs_object_kind_name(k));
			CHECK(c, str_eq(get(doc, "apiVersion"),
			                k == GS_OBJECT_POD ? "v1"
			                : k == GS_OBJECT_JOB || k == GS_OBJECT_CRONJOB ? "batch/v1"
			                                                               : "apps/v1"),
			      "patch of %s: apiVersion %s", w->name,
			      str(get(doc, "apiVersion")) ? str(get(doc, "apiVersion")) : "?");
			CHECK(c, ns && strcmp(ns, ns_of(c, w)) == 0,
			      "patch of %s: namespace %s, want %s", w->name, ns ? ns : "(none)",
			      ns_of(c, w));
		}
		/* The object's name: the workload's object, or a copy's NAME-N. */
		if (is_copy) {
			char want_name[128];
			snprintf(want_name, sizeof want_name, "%s-%s", object_name(w),
			         str(at(tmeta, "labels", "gpushare.io/copy", NULL)));
			CHECK(c, name && strcmp(name, want_name) == 0,
			      "document %zu: copy named %s, want %s", i + 1, name ? name : "?",
			      want_name);
			CHECK(c, o->manifests || o->example_deployments,
			      "a copy of %s without manifests", w->name);
		} else {
			CHECK(c, str_eq(at(doc, "metadata", "name", NULL), object_name(w)),
			      "document %zu: named %s, %s's object is %s", i + 1, name ? name : "?",
			      w->name, object_name(w));
		}
		CHECK(c, !sset_has(&names, name ? name : "?") || !o->example_deployments,
		      "two Deployments named %s", name ? name : "?");
		sset_add(&names, name);
		for (size_t k = 0; k < gs_scenario_workload_count(s); k++)
			if (gs_scenario_workload_at(s, k) == w)
				objs[k]++;
		/* Replicas where the kind keeps them; a Pod is one. */
		if (str_eq(get(doc, "kind"), "Pod"))
			reps = 1;
		else
			CHECK(c, int_of(count, &reps) && reps >= 1,
			      "document %zu: replicas or parallelism is not a positive integer",
			      i + 1);
		/* Rollouts: one pod at a time, no surge slot (Deployments only). */
		if (str_eq(get(doc, "kind"), "Deployment") && !o->example_deployments) {
			const gs_node *st = at(doc, "spec", "strategy", NULL);
			long surge = -1, unavail = -1;
			CHECK(c, str_eq(get(st, "type"), "RollingUpdate") &&
			             int_of(at(st, "rollingUpdate", "maxSurge", NULL), &surge) &&
			             surge == 0 &&
			             int_of(at(st, "rollingUpdate", "maxUnavailable", NULL),
			                    &unavail) &&
			             unavail == 1,
			      "Deployment %s: strategy is not RollingUpdate maxSurge 0 "
			      "maxUnavailable 1", name ? name : "?");
		} else if (!o->example_deployments) {
			CHECK(c, !at(doc, "spec", "strategy", NULL) &&
			             !at(doc, "spec", "updateStrategy", NULL),
			      "%s %s: a rollout strategy on a kind without Deployment's",
			      kind ? kind : "?", name ? name : "?");
		}
		/* Exactly one container, the object's: a strategic merge by name
		 * adds a container whose name the real object lacks. */
		ctrs = get(pod, "containers");
		CHECK(c, seq_len(ctrs) == 1, "document %zu: %zu containers, want 1", i + 1,
		      seq_len(ctrs));
		if (seq_len(ctrs))
			ctr = ctrs->items[0];
		CHECK(c, str_eq(get(ctr, "name"), object_container(w)),
		      "document %zu: container %s, %s's object has %s", i + 1,
		      str(get(ctr, "name")) ? str(get(ctr, "name")) : "(none)", w->name,
		      object_container(w));
		if (o->example_deployments)
			CHECK(c, str(get(ctr, "image")) != NULL,
			      "Deployment %zu: container without an image", i + 1);
		else
			CHECK(c, !get(ctr, "image"), "a patch sets the image of %s", w->name);
		CHECK(c, seq_len(get(pod, "tolerations")) == 1 &&
		             str_eq(get(get(pod, "tolerations")->items[0], "key"),
		                    "nvidia.com/gpu") &&
		             str_eq(get(get(pod, "tolerations")->items[0], "operator"), "Exists") &&
		             str_eq(get(get(pod, "tolerations")->items[0], "effect"), "NoSchedule"),
		      "document %zu: the pods do not tolerate the GPU taint", i + 1);
		np = selected_pools(c, pod, pools, 64);
		for (size_t k = 0; k < np; k++)
			CHECK(c, pools[k] && label_value_ok(pools[k]),
			      "document %zu: pool '%s' is not a label value", i + 1,
			      pools[k] ? pools[k] : "");
		/* spread: node survives only if the scheduler is told. */
		if (w->spread == GS_SPREAD_NODE && reps > 1)
			CHECK(c, keeps_nodes_apart(pod, w->name),
			      "document %zu: %ld replicas of %s (spread: node) with nothing "
			      "that keeps them on distinct nodes",
			      i + 1, reps, w->name);
		pod_resource(c, o, pod, ctr, &dra, o->manifests != NULL, res, sizeof res);
		if (!res[0] || reps < 0 || !np)
			continue;
		/* The replicas the plan puts in the selected pools requesting
		 * this are the object's, and no other object's. */
		for (size_t j = 0; j < nw; j++) {
			int in = 0;
			for (size_t k = 0; k < np && !in; k++)
				in = pools[k] && strcmp(pools[k], want[j].pool) == 0;
			if (want[j].w != w || strcmp(want[j].res, res) != 0)
				continue;
			CHECK(c, in, "%s: the plan puts %d replicas requesting %s in pool %s, "
			             "the object does not select it", w->name, want[j].want, res,
			      want[j].pool);
			if (!in)
				continue;
			covered++;
			sum += want[j].want;
			want[j].got += want[j].want;
		}
		CHECK(c, covered == np,
		      "%s: selects %zu pools, the plan has its replicas requesting %s in %zu",
		      w->name, np, res, covered);
		CHECK(c, sum == reps,
		      "%s: %ld replicas requesting %s, the plan has %d in its pools", w->name,
		      reps, res, sum);
	}
	for (size_t j = 0; j < nw; j++)
		CHECK(c, want[j].got == want[j].want,
		      "%s: %d replicas in %s requesting %s, the plan places %d there",
		      want[j].w->name, want[j].got, want[j].pool, want[j].res, want[j].want);
	for (size_t i = 0; objs && i < gs_scenario_workload_count(s); i++) {
		const gs_workload *w = gs_scenario_workload_at(s, i);
		int total = 0;
		for (size_t j = 0; j < nw; j++)
			if (want[j].w == w)
				total += want[j].got;
		CHECK(c, total == w->replicas, "%s: the documents add up to %d replicas, want %d",
		      w->name, total, w->replicas);
		CHECK(c, objs[i] == objects_needed(c, want, nw, w),
		      "%s: %zu objects, its replicas request %zu different things", w->name,
		      objs[i], objects_needed(c, want, nw, w));
	}
	free(objs);
	docs_free(&dra);
}

/* The workload whose objects need copies (several requests), which
 * without manifests must fail: the first in the plan's order, or NULL. */
static const gs_workload *needs_copies(const ctx *c, const gs_emit_opts *o)
{
	static wplace pl[1024];
	size_t n;
	if (o->manifests || o->example_deployments)
		return NULL;
	n = expected_places(c, o, pl, 1024);
	for (size_t i = 0; i < gs_plan_workload_count(c->p); i++) {
		const gs_workload *w = gs_plan_workload_at(c->p, i)->workload;
		if (objects_needed(c, pl, n, w) > 1)
			return w;
	}
	return NULL;
}

/* ---- Karpenter --------------------------------------------------------------------- */

static int same_pool(const gs_plan_node *a, const gs_plan_node *b)
{
	return strcmp(a->pool, b->pool) == 0 && a->instance == b->instance &&
	       strcmp(a->config, b->config) == 0 &&
	       ((!a->mig_config && !b->mig_config) ||
	        (a->mig_config && b->mig_config && strcmp(a->mig_config, b->mig_config) == 0));
}

static const gs_node *requirement(const gs_node *reqs, const char *key)
{
	for (size_t i = 0; i < seq_len(reqs); i++)
		if (str_eq(get(reqs->items[i], "key"), key))
			return reqs->items[i];
	return NULL;
}

static int values_have(const gs_node *req, const char *v)
{
	const gs_node *vals = get(req, "values");
	for (size_t i = 0; i < seq_len(vals); i++)
		if (str_eq(vals->items[i], v))
			return 1;
	return 0;
}

/* Whether a NodeOverlay's requirements select this node (keys it cannot
 * judge select every node). */
static int overlay_matches(ctx *c, const gs_node *reqs, const gs_plan_node *nd,
                           const char *pool)
{
	for (size_t i = 0; i < seq_len(reqs); i++) {
		const gs_node *r = reqs->items[i];
		const char *key = str(get(r, "key")), *val = NULL;
		CHECK(c, str_eq(get(r, "operator"), "In"),
		      "overlay requirement %s: operator is not In", key ? key : "?");
		if (!key)
			continue;
		if (strcmp(key, "node.kubernetes.io/instance-type") == 0)
			val = nd->instance->type;
		else if (strcmp(key, "nvidia.com/device-plugin.config") == 0)
			val = nd->config;
		else if (strcmp(key, "nvidia.com/mig.config") == 0)
			val = nd->mig_config ? nd->mig_config : "";
		else if (strcmp(key, "karpenter.sh/nodepool") == 0)
			val = pool;
		if (val && !values_have(r, val))
			return 0;
	}
	return 1;
}

static void check_karpenter(ctx *c, const gs_emit_opts *o, const docs *d)
{
	const gs_plan *p = c->p;
	size_t nn = gs_plan_node_count(p), pools = 0, nodeclasses = 0;
	const char *ncname = NULL;
	char **pool_of = calloc(nn + 1, sizeof *pool_of);
	int *covered = calloc(nn + 1, sizeof *covered);

	for (size_t i = 0; i < d->n; i++)
		if (str_eq(get(d->v[i], "kind"), "EC2NodeClass")) {
			const gs_node *spec = get(d->v[i], "spec");
			nodeclasses++;
			ncname = str(at(d->v[i], "metadata", "name", NULL));
			CHECK(c, str_eq(get(d->v[i], "apiVersion"), "karpenter.k8s.aws/v1"),
			      "EC2NodeClass is not karpenter.k8s.aws/v1");
			CHECK(c, seq_len(get(spec, "amiSelectorTerms")) > 0 &&
			             seq_len(get(spec, "subnetSelectorTerms")) > 0 &&
			             seq_len(get(spec, "securityGroupSelectorTerms")) > 0,
			      "EC2NodeClass lacks a required selector");
			CHECK(c, !get(spec, "role") != !get(spec, "instanceProfile"),
			      "EC2NodeClass needs exactly one of role and instanceProfile");
		}
	CHECK(c, nodeclasses == 1, "%zu EC2NodeClasses, want 1", nodeclasses);

	for (size_t i = 0; i < d->n; i++) {
		const gs_node *np = d->v[i], *tmpl = at(np, "spec", "template", NULL),
		              *labels = at(tmpl, "metadata", "labels", NULL),
		              *tspec = get(tmpl, "spec"), *reqs = get(tspec, "requirements"),
		              *types = requirement(reqs, "node.kubernetes.io/instance-type"),
		              *capt = requirement(reqs, "karpenter.sh/capacity-type");
		const char *name = str(at(np, "metadata", "name", NULL));
		const char *cfg = str(get(labels, "nvidia.com/device-plugin.config"));
		const char *mig = str(get(labels, "nvidia.com/mig.config"));
		const char *pool = str(get(labels, "gpushare.io/pool"));
		const char *pn = name ? name : "?";
		sset want_types = { { NULL }, 0 };
		long limit = -1, gpus = 0;
		int any = 0;
		if (!str_eq(get(np, "kind"), "NodePool"))
			continue;
		pools++;
		CHECK(c, str_eq(get(np, "apiVersion"), "karpenter.sh/v1"),
		      "%s: not karpenter.sh/v1", pn);
		CHECK(c, object_name_ok(name), "NodePool name %s is not a DNS subdomain", pn);
		CHECK(c, cfg && label_value_ok(cfg), "%s: no valid device-plugin.config label", pn);
		CHECK(c, pool && label_value_ok(pool),
		      "%s: no valid gpushare.io/pool label (the pods select it)", pn);
		CHECK(c, !mig || label_value_ok(mig), "%s: mig.config label is not a label value",
		      pn);
		CHECK(c, str_eq(at(tspec, "nodeClassRef", "group", NULL), "karpenter.k8s.aws") &&
		             str_eq(at(tspec, "nodeClassRef", "kind", NULL), "EC2NodeClass") &&
		             ncname && str_eq(at(tspec, "nodeClassRef", "name", NULL), ncname),
		      "%s: nodeClassRef is not {karpenter.k8s.aws, EC2NodeClass, %s}", pn,
		      ncname ? ncname : "?");
		CHECK(c, str_eq(get(types, "operator"), "In"),
		      "%s: instance-type operator is not In", pn);
		CHECK(c, capt &&
		             values_have(capt, gs_pricing_name(gs_plan_summary_get(p)->pricing)) &&
		             seq_len(get(capt, "values")) == 1,
		      "%s: capacity-type is not [%s]", pn,
		      gs_pricing_name(gs_plan_summary_get(p)->pricing));
		for (size_t n = 0; cfg && n < nn; n++) {
			const gs_plan_node *nd = gs_plan_node_at(p, n);
			if (!node_is_aws(nd) || strcmp(nd->config, cfg) != 0 ||
			    (!nd->mig_config != !mig) ||
			    (mig && strcmp(nd->mig_config, mig) != 0) ||
			    !pool || strcmp(nd->pool, pool) != 0)
				continue;
			any = 1;
			covered[n]++;
			pool_of[n] = (char *)name;
			/* What it advertises as nvidia.com/gpu: whole GPUs,
			 * MIG-disabled ones, time-slice/MPS replicas unless renamed. */
			for (size_t g = 0; g < nd->n_gpus; g++) {
				const gs_plan_gpu *pg = &nd->gpus[g];
				int sh = pg->strategy == GS_STRATEGY_TIME_SLICING ||
				         pg->strategy == GS_STRATEGY_MPS;
				if (gs_emit_wants_dra(p, o))
					gpus++; /* no extended resources: the GPUs */
				else if (!pg->n_mig && !(sh && o->rename_shared))
					gpus += sh ? pg->replicas : 1;
			}
			sset_add(&want_types, nd->instance->type);
		}
		CHECK(c, any, "%s: labels %s/%s match no AWS node of the plan", pn, cfg ? cfg : "?",
		      mig ? mig : "-");
		CHECK(c, seq_len(get(types, "values")) == want_types.n,
		      "%s: %zu instance types, the pool's nodes have %zu", pn,
		      seq_len(get(types, "values")), want_types.n);
		for (size_t k = 0; k < want_types.n; k++)
			CHECK(c, values_have(types, want_types.v[k]),
			      "%s: instance type %s is missing", pn, want_types.v[k]);
		if (!quantity_of(at(np, "spec", "limits", "nvidia.com/gpu", NULL), &limit))
			limit = 0;
		CHECK(c, limit == gpus,
		      "%s: limits nvidia.com/gpu %ld, the pool's nodes have %ld GPUs", pn, limit,
		      gpus);
	}
	{
		size_t distinct = 0;
		for (size_t n = 0; n < nn; n++) {
			const gs_plan_node *nd = gs_plan_node_at(p, n);
			int seen = 0;
			if (!node_is_aws(nd))
				continue;
			CHECK(c, covered[n] == 1,
			      "AWS node %zu (%s, %s) is in %d NodePools, want 1", n + 1, nd->config,
			      nd->mig_config ? nd->mig_config : "-", covered[n]);
			for (size_t m = 0; m < n && !seen; m++)
				seen = node_is_aws(gs_plan_node_at(p, m)) &&
				       same_pool(gs_plan_node_at(p, m), nd);
			distinct += !seen;
		}
		CHECK(c, pools == distinct,
		      "%zu NodePools, the plan has %zu distinct AWS node kinds", pools, distinct);
	}

	/* NodeOverlays: what renamed shared nodes advertise. */
	{
		size_t overlays = 0;
		int *ov = calloc(nn + 1, sizeof *ov);
		for (size_t i = 0; ov && i < d->n; i++) {
			const gs_node *doc = d->v[i], *reqs = at(doc, "spec", "requirements", NULL);
			const char *name = str(at(doc, "metadata", "name", NULL));
			long cap = -1;
			int wrong = 0;
			if (!str_eq(get(doc, "kind"), "NodeOverlay"))
				continue;
			overlays++;
			CHECK(c, str_eq(get(doc, "apiVersion"), "karpenter.sh/v1alpha1"),
			      "NodeOverlay %s is not karpenter.sh/v1alpha1", name ? name : "?");
			CHECK(c, object_name_ok(name), "NodeOverlay name is not a DNS subdomain");
			CHECK(c, quantity_of(at(doc, "spec", "capacity",
			                        o->rename_shared ? "nvidia.com/gpu.shared"
			                                         : "nvidia.com/gpu", NULL), &cap) ||
			             at(doc, "spec", "capacity", "nvidia.com/gpu", NULL),
			      "NodeOverlay %s: no capacity nvidia.com/gpu%s",
			      name ? name : "?", o->rename_shared ? ".shared" : "");
			for (size_t n = 0; n < nn; n++) {
				const gs_plan_node *nd = gs_plan_node_at(p, n);
				gs_strategy s = node_strategy(nd);
				long want = (long)nd->gpus[0].replicas * (long)nd->n_gpus;
				if (!node_is_aws(nd) || !overlay_matches(c, reqs, nd, pool_of[n]))
					continue;
				ov[n]++;
				if (nd->gpus[0].n_mig || s == GS_STRATEGY_MIG)
					continue; /* MIG capacity: tests/emit/karpenter_replay.py */
				CHECK(c, s == GS_STRATEGY_TIME_SLICING || s == GS_STRATEGY_MPS,
				      "NodeOverlay %s selects node %zu (%s), which shares nothing",
				      name ? name : "?", n + 1, nd->config);
				if (cap != want && !wrong++)
					CHECK(c, 0,
					      "NodeOverlay %s gives node %zu (%s, %s) "
					      "nvidia.com/gpu.shared %ld, it advertises %d x %zu = "
					      "%ld",
					      name ? name : "?", n + 1, nd->instance->type,
					      nd->config, cap, nd->gpus[0].replicas, nd->n_gpus,
					      want);
			}
		}
		if (gs_emit_wants_dra(p, o))
			CHECK(c, overlays == 0, "NodeOverlays under DRA");
		for (size_t n = 0; ov && !gs_emit_wants_dra(p, o) && n < nn; n++) {
			const gs_plan_node *nd = gs_plan_node_at(p, n);
			gs_strategy s = node_strategy(nd);
			if (node_is_aws(nd) &&
			    (s == GS_STRATEGY_TIME_SLICING || s == GS_STRATEGY_MPS))
				CHECK(c, ov[n] >= 1, "shared AWS node %zu (%s) has no NodeOverlay",
				      n + 1, nd->config);
		}
		free(ov);
	}
	free(pool_of);
	free(covered);
}

/* ---- DRA driver values ------------------------------------------------------------- */

/* The driver serves GPUs (not ComputeDomains), confirms the classic plugin
 * is off, and turns on exactly the gates its claims need: time-slicing
 * settings for a time-sliced GPU or a shared MIG instance, MPS for MPS. */
static void check_dra_driver(ctx *c, const gs_emit_opts *o, const docs *d)
{
	const gs_node *v = d->n == 1 ? d->v[0] : NULL, *gates = get(v, "featureGates");
	int ts = 0, mps = 0;
	(void)o;
	CHECK(c, v != NULL, "%zu documents, want one", d->n);
	for (size_t i = 0; i < gs_plan_node_count(c->p); i++) {
		const gs_plan_node *nd = gs_plan_node_at(c->p, i);
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *pg = &nd->gpus[g];
			if (!pg->n_mig && pg->n_assignments) {
				ts |= pg->strategy == GS_STRATEGY_TIME_SLICING;
				mps |= pg->strategy == GS_STRATEGY_MPS;
			}
			for (size_t m = 0; m < pg->n_mig; m++)
				ts |= pg->mig[m].n_assignments && mig_is_shared(&pg->mig[m]);
		}
	}
	CHECK(c, is_bool(get(v, "gpuResourcesEnabledOverride"), 1),
	      "gpuResourcesEnabledOverride is not true");
	CHECK(c, is_bool(at(v, "resources", "gpus", "enabled", NULL), 1),
	      "resources.gpus.enabled is not true");
	CHECK(c, is_bool(at(v, "resources", "computeDomains", "enabled", NULL), 0),
	      "resources.computeDomains.enabled is not false");
	CHECK(c, is_map(gates) && gates->n == (size_t)(ts + mps),
	      "%zu feature gates, the claims need %d", is_map(gates) ? gates->n : 0, ts + mps);
	CHECK(c, !ts || is_bool(get(gates, "TimeSlicingSettings"), 1),
	      "time-sliced claims without TimeSlicingSettings: true");
	CHECK(c, !mps || is_bool(get(gates, "MPSSupport"), 1),
	      "MPS claims without MPSSupport: true");
}

/* ---- the round trip -------------------------------------------------------------- */

static const char *not_wanted_msg(gs_emit_kind k)
{
	switch (k) {
	case GS_EMIT_DEVICE_PLUGIN:
		return "error: the plan has no device-plugin configuration (its stack is DRA, by "
		       "via: dra or --dra: claims configure sharing, and the device plugin must "
		       "not run beside the DRA driver)";
	case GS_EMIT_MIG_PARTED:
		return "error: the plan has no mig-config configuration (no MIG GPUs)";
	case GS_EMIT_DRA: return "error: the plan has no dra configuration (use --dra or via: dra)";
	case GS_EMIT_DRA_DRIVER:
		return "error: the plan has no dra-driver configuration (use --dra or via: dra)";
	case GS_EMIT_KARPENTER:
		return "error: the plan has no karpenter configuration "
		       "(Karpenter provisions AWS nodes only)";
	case GS_EMIT_HAMI:
		return "error: the plan has no hami configuration "
		       "(no GPU is a HAMi fraction; allow them with fractions: [hami])";
	default: return "(always wanted)";
	}
}

/* Without manifests, a workload whose replicas need several objects
 * fails, naming it, where it is written and what it needs. */
static void check_copies_refused(ctx *c, const gs_emit_opts *o, const gs_workload *w)
{
	char *text = NULL, want[512], buf[1024];
	gs_error err = clean_err();
	snprintf(want, sizeof want,
	         "%s:%zu:%zu: error: workload '%s': %s: give its manifest with --manifests",
	         c->fx->path, w->line, w->col, w->name,
	         gs_scenario_placement(c->ld->scn) == GS_PLACEMENT_PINNED
	                 ? "placement: pinned gives each placement a copy of the object"
	         : uses_dra(c, o) ? "its replicas share different GPUs, each through its own "
	                            "DRA claim, so they need copies of the object"
	                          : "its replicas request different resources, so they need "
	                            "copies of the object");
	CHECK(c, gs_emit(c->p, GS_EMIT_WORKLOADS, o, &text, &err) == GS_ESCHEMA,
	      "copies without manifests do not fail with GS_ESCHEMA");
	CHECK(c, text == NULL, "copies without manifests gave text");
	CHECK(c, strcmp(gs_error_format(&err, buf, sizeof buf), want) == 0,
	      "message '%s', want '%s'", buf, want);
	free(text);
}

typedef struct rt_case {
	size_t fixture;
	gs_emit_kind kind;
	char label[96];
} rt_case;

static void round_trip_one(ctx *c, const rt_case *t, const variant *v)
{
	gs_emit_opts o = opts_of(v, c->ld);
	char *text = NULL, *again = NULL, *other = NULL;
	gs_error err = clean_err();
	char buf[1024];
	docs d = { { NULL }, 0 };

	c->kind = t->kind;
	snprintf(c->where, sizeof c->where, "%s/%s/%s", fixtures[t->fixture].name,
	         gs_emit_kind_name(t->kind), v->name);
	if (!gs_emit_wanted(c->p, t->kind, &o)) {
		/* Only these kinds may be unwanted, and only for their reasons. */
		int mig = plan_has_mig(c->p), aws = 0;
		for (size_t i = 0; i < gs_plan_node_count(c->p); i++)
			aws |= node_is_aws(gs_plan_node_at(c->p, i));
		CHECK(c, (t->kind == GS_EMIT_MIG_PARTED && !mig) ||
		             (t->kind == GS_EMIT_DRA && !uses_dra(c, &o)) ||
		             (t->kind == GS_EMIT_DRA_DRIVER && !uses_dra(c, &o)) ||
		             (t->kind == GS_EMIT_DEVICE_PLUGIN && uses_dra(c, &o)) ||
		             (t->kind == GS_EMIT_KARPENTER && !aws) ||
		             t->kind == GS_EMIT_HAMI, /* no fixture has fractions */
		      "gs_emit_wanted says no");
		CHECK(c, gs_emit(c->p, t->kind, &o, &text, &err) == GS_EINVAL,
		      "an unwanted kind does not fail with GS_EINVAL");
		CHECK(c, text == NULL, "an unwanted kind gave text");
		CHECK(c, strcmp(gs_error_format(&err, buf, sizeof buf),
		                not_wanted_msg(t->kind)) == 0,
		      "message '%s', want '%s'", buf, not_wanted_msg(t->kind));
		free(text);
		return;
	}
	/* The kinds a DRA stack must not have are refused just above. */
	CHECK(c, !(t->kind == GS_EMIT_DEVICE_PLUGIN && uses_dra(c, &o)) &&
	             !(t->kind == GS_EMIT_DRA_DRIVER && !uses_dra(c, &o)),
	      "wanted on a %s stack", uses_dra(c, &o) ? "DRA" : "device-plugin");
	if (t->kind == GS_EMIT_WORKLOADS && needs_copies(c, &o)) {
		check_copies_refused(c, &o, needs_copies(c, &o));
		return;
	}
	if (gs_emit(c->p, t->kind, &o, &text, &err) < 0) {
		CHECK(c, 0, "gs_emit failed: %s", gs_error_format(&err, buf, sizeof buf));
		return;
	}
	/* Deterministic: the same plan, and the same file planned again. */
	CHECK(c, gs_emit(c->p, t->kind, &o, &again, NULL) == 0 && strcmp(text, again) == 0,
	      "a second gs_emit gave other text");
	CHECK(c, gs_emit(c->ld->plan2, t->kind, &o, &other, NULL) == 0 && strcmp(text, other) == 0,
	      "the same file planned again gave other text");
	CHECK(c, strlen(text) > 0 && text[strlen(text) - 1] == '\n', "does not end with a newline");
	if (t->kind == GS_EMIT_LABELS) {
		check_labels(c, &o, text);
	} else if (split_docs(c, text, &d) == 0) {
		switch (t->kind) {
		case GS_EMIT_DEVICE_PLUGIN: check_device_plugin(c, &o, &d); break;
		case GS_EMIT_OPERATOR_VALUES: check_operator_values(c, &o, &d); break;
		case GS_EMIT_MIG_PARTED: check_mig_parted(c, &o, &d); break;
		case GS_EMIT_WORKLOADS: check_workloads(c, &o, &d); break;
		case GS_EMIT_DRA: check_dra(c, &o, &d); break;
		case GS_EMIT_KARPENTER: check_karpenter(c, &o, &d); break;
		case GS_EMIT_DRA_DRIVER: check_dra_driver(c, &o, &d); break;
		default: break;
		}
	}
	docs_free(&d);
	free(text);
	free(again);
	free(other);
}

static void test_round_trip(void **state)
{
	const rt_case *t = *state;
	ctx c;
	memset(&c, 0, sizeof c);
	c.fx = &fixtures[t->fixture];
	c.ld = &plans[t->fixture];
	c.p = plans[t->fixture].plan;
	for (size_t v = 0; v < N_VARIANTS; v++)
		round_trip_one(&c, t, &variants[v]);
	if (c.failures)
		fail_msg("%s: %d checks failed (the first 40 are listed above)", t->label,
		         c.failures);
}

/* ---- names, refusals, headers ------------------------------------------------------- */

static void test_kind_names(void **state)
{
	static const char *const names[GS_EMIT_KIND_COUNT][2] = {
		{ "device-plugin", "device-plugin-config.yaml" },
		{ "gpu-operator-values", "gpu-operator-values.yaml" },
		{ "mig-config", "mig-config.yaml" },
		{ "labels", "labels.sh" },
		{ "workloads", "workloads.yaml" },
		{ "dra", "resourceclaims.yaml" },
		{ "karpenter", "karpenter.yaml" },
		{ "dra-driver", "dra-driver-values.yaml" },
		{ "hami", "hami-values.yaml" },
	};
	gs_emit_kind k = GS_EMIT_LABELS;
	(void)state;
	for (int i = 0; i < GS_EMIT_KIND_COUNT; i++) {
		assert_string_equal(gs_emit_kind_name((gs_emit_kind)i), names[i][0]);
		assert_string_equal(gs_emit_file_name((gs_emit_kind)i), names[i][1]);
		assert_int_equal(gs_emit_kind_parse(names[i][0], &k), 0);
		assert_int_equal(k, i);
	}
	k = GS_EMIT_LABELS;
	assert_int_equal(gs_emit_kind_parse("bogus", &k), GS_ENOTFOUND);
	assert_int_equal(gs_emit_kind_parse("Device-Plugin", &k), GS_ENOTFOUND);
	assert_int_equal(gs_emit_kind_parse("", &k), GS_ENOTFOUND);
	assert_int_equal(k, GS_EMIT_LABELS);
}

/* The refusals, pinned: examples/workloads.yaml has no MIG and no DRA;
 * examples/spot.yaml buys no AWS node. */
static void test_not_wanted(void **state)
{
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	const gs_plan *wl = plans[0].plan, *spot = plans[3].plan;
	gs_error err = clean_err();
	char *text = NULL;
	(void)state;

	assert_false(gs_emit_wanted(wl, GS_EMIT_MIG_PARTED, &o));
	assert_int_equal(gs_emit(wl, GS_EMIT_MIG_PARTED, &o, &text, &err), GS_EINVAL);
	assert_null(text);
	assert_int_equal(err.code, GS_EINVAL);
	assert_gs_error(&err, "error: the plan has no mig-config configuration (no MIG GPUs)");

	err = clean_err();
	assert_false(gs_emit_wanted(wl, GS_EMIT_DRA, &o));
	assert_int_equal(gs_emit(wl, GS_EMIT_DRA, &o, &text, &err), GS_EINVAL);
	assert_null(text);
	assert_gs_error(&err, "error: the plan has no dra configuration (use --dra or via: dra)");
	o.dra = 1;
	assert_true(gs_emit_wanted(wl, GS_EMIT_DRA, &o));
	o.dra = 0;

	err = clean_err();
	assert_false(gs_emit_wanted(spot, GS_EMIT_KARPENTER, &o));
	assert_int_equal(gs_emit(spot, GS_EMIT_KARPENTER, &o, &text, &err), GS_EINVAL);
	assert_null(text);
	assert_gs_error(&err, "error: the plan has no karpenter configuration "
	                      "(Karpenter provisions AWS nodes only)");
	assert_true(gs_emit_wanted(wl, GS_EMIT_KARPENTER, &o));

	/* One stack: the DRA driver's values only with DRA, the device
	 * plugin's ConfigMap only without. */
	err = clean_err();
	assert_false(gs_emit_wanted(wl, GS_EMIT_DRA_DRIVER, &o));
	assert_int_equal(gs_emit(wl, GS_EMIT_DRA_DRIVER, &o, &text, &err), GS_EINVAL);
	assert_null(text);
	assert_gs_error(&err, "error: the plan has no dra-driver configuration "
	                      "(use --dra or via: dra)");
	assert_true(gs_emit_wanted(wl, GS_EMIT_DEVICE_PLUGIN, &o));
	o.dra = 1;
	err = clean_err();
	assert_true(gs_emit_wanted(wl, GS_EMIT_DRA_DRIVER, &o));
	assert_false(gs_emit_wanted(wl, GS_EMIT_DEVICE_PLUGIN, &o));
	assert_int_equal(gs_emit(wl, GS_EMIT_DEVICE_PLUGIN, &o, &text, &err), GS_EINVAL);
	assert_null(text);
	assert_gs_error(&err, "error: the plan has no device-plugin configuration (its stack is "
	                      "DRA, by via: dra or --dra: claims configure sharing, and the "
	                      "device plugin must not run beside the DRA driver)");
	/* via: dra in the file does the same as --dra. */
	assert_false(gs_emit_wanted(plans[5].plan, GS_EMIT_DEVICE_PLUGIN, &o));
	o.dra = 0;
	assert_false(gs_emit_wanted(plans[5].plan, GS_EMIT_DEVICE_PLUGIN, &o));
	assert_true(gs_emit_wanted(plans[5].plan, GS_EMIT_DRA_DRIVER, &o));

	/* The always-wanted kinds. */
	for (int k = 0; k < GS_EMIT_KIND_COUNT; k++)
		if (k != GS_EMIT_MIG_PARTED && k != GS_EMIT_DRA && k != GS_EMIT_KARPENTER &&
		    k != GS_EMIT_DRA_DRIVER && k != GS_EMIT_HAMI)
			assert_true(gs_emit_wanted(spot, (gs_emit_kind)k, &o));

	/* A kind that does not exist. */
	err = clean_err();
	assert_int_equal(gs_emit(wl, (gs_emit_kind)GS_EMIT_KIND_COUNT, &o, &text, &err), GS_EINVAL);
	assert_null(text);
	assert_gs_error(&err, "error: unknown kind of configuration");
}

/* A hostile source name ends no comment and reaches no command. */
static void test_source_in_header(void **state)
{
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	const gs_plan *p = plans[4].plan; /* mig-ts-mps: every kind */
	(void)state;
	o.source = "evil\n---\nkind: Secret\r\n$(reboot) `id`\n#";
	o.rename_shared = 1;
	for (int k = 0; k < GS_EMIT_KIND_COUNT; k++) {
		char *text = NULL;
		gs_error err = clean_err();
		int named = 0, outside = 0;
		if (k == GS_EMIT_HAMI) /* wanted by HAMi fractions only */
			continue;
		/* Every kind but the device plugin's with DRA, which refuses it. */
		o.dra = k != GS_EMIT_DEVICE_PLUGIN;
		assert_true(gs_emit_wanted(p, (gs_emit_kind)k, &o));
		assert_gs_ok(gs_emit(p, (gs_emit_kind)k, &o, &text, &err), &err);
		named = strstr(text, "from evil?---?kind: Secret??$(reboot) `id`?# (") != NULL;
		/* Every line that holds a piece of the name is a comment. */
		for (const char *line = text; *line;) {
			const char *nl = strchr(line, '\n');
			size_t len = nl ? (size_t)(nl - line) : strlen(line);
			char copy[1024];
			snprintf(copy, sizeof copy, "%.*s", (int)len, line);
			if ((strstr(copy, "evil") || strstr(copy, "Secret") ||
			     strstr(copy, "reboot")) &&
			    copy[0] != '#')
				outside++;
			line += len + (nl ? 1 : 0);
		}
		free(text);
		assert_true(named);
		assert_int_equal(outside, 0);
	}
}

/* ---- main ---------------------------------------------------------------------- */

/* Each kind's line of help in the registry opens its file's header (after
 * the shebang of labels.sh), and no two kinds share a name or a file. */
static void test_help_in_header(void **state)
{
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	const gs_plan *p = plans[4].plan; /* mig-ts-mps: every kind */
	(void)state;
	for (int k = 0; k < GS_EMIT_KIND_COUNT; k++) {
		const char *help = gs_emit_help((gs_emit_kind)k), *line;
		char *text = NULL;
		gs_error err = clean_err();
		o.dra = k != GS_EMIT_DEVICE_PLUGIN;

		assert_non_null(help);
		assert_null(strchr(help, '\n'));
		for (int j = 0; j < k; j++) {
			assert_string_not_equal(gs_emit_kind_name((gs_emit_kind)j),
			                        gs_emit_kind_name((gs_emit_kind)k));
			assert_string_not_equal(gs_emit_file_name((gs_emit_kind)j),
			                        gs_emit_file_name((gs_emit_kind)k));
		}
		if (k == GS_EMIT_HAMI) /* wanted by HAMi fractions only */
			continue;
		assert_gs_ok(gs_emit(p, (gs_emit_kind)k, &o, &text, &err), &err);
		line = strncmp(text, "#!", 2) == 0 ? strchr(text, '\n') + 1 : text;
		assert_true(strncmp(line, "# ", 2) == 0);
		assert_true(strncmp(line + 2, help, strlen(help)) == 0);
		assert_int_equal(line[2 + strlen(help)], '\n');
		free(text);
	}
}

/* A source name with DEL, a C1 control, malformed UTF-8, and so long that
 * the comment is cut inside a 2-byte character: the header keeps whole,
 * valid characters only, and the file still reads as YAML. */
static void test_source_bytes_in_header(void **state)
{
	gs_emit_opts o = GS_EMIT_OPTS_INIT;
	const gs_plan *p = plans[0].plan;
	char source[600], *text = NULL, want[300];
	gs_node *doc = NULL;
	gs_error err = clean_err();
	size_t n = 0;
	(void)state;
	n += (size_t)snprintf(source, sizeof source, "a\x7f" "b\xc2\x85" "c\xff" "d\xe2\x82");
	while (n + 2 < sizeof source) { /* then "é" until full: 0xc3 0xa9 */
		source[n++] = (char)0xc3;
		source[n++] = (char)0xa9;
	}
	source[n] = '\0';
	o.source = source;
	assert_gs_ok(gs_emit(p, GS_EMIT_DEVICE_PLUGIN, &o, &text, &err), &err);
	/* 255 bytes of room: "a?b?c?d??" (9: the cut 0xe2 0x82 is two stray
	 * bytes) and then 123 whole "é" (246); the 124th does not fit whole. */
	n = (size_t)snprintf(want, sizeof want, "from a?b?c?d??");
	for (int i = 0; i < 123; i++)
		n += (size_t)snprintf(want + n, sizeof want - n, "\xc3\xa9");
	snprintf(want + n, sizeof want - n, " (");
	if (!strstr(text, want))
		fail_msg("header: %.300s", text);
	assert_gs_ok(gs_yaml_read_buffer("dp.yaml", text, strlen(text), &doc, &err), &err);
	gs_node_free(doc);
	free(text);
}

int main(void)
{
	static rt_case cases[N_FIXTURES * GS_EMIT_KIND_COUNT];
	static struct CMUnitTest tests[N_FIXTURES * GS_EMIT_KIND_COUNT + 9];
	size_t n = 0;
#define ADD(f) tests[n++] = (struct CMUnitTest)cmocka_unit_test(f)
	ADD(test_kind_names);
	ADD(test_not_wanted);
	ADD(test_source_in_header);
	ADD(test_source_bytes_in_header);
	ADD(test_help_in_header);
	for (size_t f = 0; f < N_FIXTURES; f++)
		for (int k = 0; k < GS_EMIT_KIND_COUNT; k++) {
			rt_case *t = &cases[f * GS_EMIT_KIND_COUNT + (size_t)k];
			t->fixture = f;
			t->kind = (gs_emit_kind)k;
			snprintf(t->label, sizeof t->label, "round trip %s %s", fixtures[f].name,
			         gs_emit_kind_name((gs_emit_kind)k));
			tests[n++] =
			        (struct CMUnitTest){ t->label, test_round_trip, NULL, NULL, t };
		}
#undef ADD
	return _cmocka_run_group_tests("test_emit", tests, n, group_setup, group_teardown);
}
