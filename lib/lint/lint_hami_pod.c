/*
 * lint_hami_pod.c - what a workload's containers ask HAMi for:
 * nvidia.com/gpumem (MiB of GPU memory, a hard cap), nvidia.com/
 * gpumem-percentage (of the GPU's memory) and nvidia.com/gpucores (% of
 * its SMs). Each is read as HAMi reads it: from limits, else requests, as
 * a whole number; a gpumem larger than the GPU never schedules, a
 * percentage above 100 is no share of anything, and some combinations do
 * not mean what they seem.
 *
 * The GPU a gpumem is measured against: the pod's nvidia.com/gpu.product
 * node selector when the catalog knows it, else the largest model a
 * required node affinity on that label allows (when every term names known
 * ones), else --gpu, else the largest GPU of the catalog (no catalog: not
 * measured).
 *
 * Source: Project-HAMi/HAMi pkg/device/nvidia/device.go
 * (GenerateResourceRequests: limits before requests, a quantity's integer
 * value taken as MiB or percent, gpumem used and gpumem-percentage ignored
 * when both are set, neither: the scheduler's defaultMemory, or 100% of the
 * GPU's memory when that is 0, its default; Fit: gpucores above 100 cut to
 * 100, a request larger than the device's memory fits no device).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint/kit.h"

#define GPUMEM "nvidia.com/gpumem"
#define GPUMEM_PCT "nvidia.com/gpumem-percentage"
#define GPUCORES "nvidia.com/gpucores"
#define PRODUCT_LABEL "nvidia.com/gpu.product"

/* One resource of a container, where HAMi reads it. */
typedef struct hres {
	const gs_node *key, *v;  /* v NULL: not asked */
	long long n;
	int whole;               /* v is a whole number (n) */
} hres;

/* A whole number, as HAMi's AsInt64 takes one; more digits than fit are
 * held as the largest number. */
static int whole(const gs_node *v, long long *out)
{
	const char *s;
	size_t digits;
	int neg;

	if (!gs_lint_is_str(v))
		return 0;
	s = v->text;
	neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	digits = strspn(s, "0123456789");
	if (!digits || s[digits])
		return 0;
	*out = digits > 18 ? LLONG_MAX : strtoll(s, NULL, 10);
	if (neg)
		*out = -*out;
	return 1;
}

static void find_res(const gs_node *lim, const gs_node *req, const char *name, hres *r)
{
	gs_node *key = NULL;
	const gs_node *v = gs_lint_find(lim, name, &key);

	if (!key)
		v = gs_lint_find(req, name, &key);
	r->key = key;
	r->v = key ? (v ? v : key) : NULL;
	r->whole = key && whole(v, &r->n);
}

static const gs_node *at(const hres *r)
{
	return gs_lint_at_or(r->v, r->key);
}

/* "4Gi": a binary quantity, its bytes counted as MiB by HAMi. */
static int binary_mib(const char *text, long long *mib, long long *as_mib)
{
	static const char *const units[] = { "Ki", "Mi", "Gi", "Ti" };
	size_t digits = strspn(text, "0123456789");
	long long n;

	if (!digits || digits > 9)
		return 0;
	n = strtoll(text, NULL, 10);
	for (int k = 0; k < 4; k++)
		if (strcmp(text + digits, units[k]) == 0) {
			long long bytes = n << (10 * (k + 1));
			*as_mib = bytes;
			*mib = (bytes + (1 << 20) - 1) >> 20;
			return 1;
		}
	return 0;
}

static void not_whole(lint_ctx *c, const hres *r, const char *unit)
{
	char q[64];
	long long mib, as;
	int str = gs_lint_is_str(r->v);

	gs_lint_quote(r->v, q, sizeof q);
	if (strcmp(unit, "MiB") == 0 && str && binary_mib(r->v->text, &mib, &as))
		gs_lint_add(c, R_HAMI_RESOURCE_VALUE, at(r),
		            "%s is '%s', but HAMi takes the number as MiB, so it asks for %lld "
		            "MiB; write the MiB as a plain number: %lld", r->key->text, q, as, mib);
	else
		gs_lint_add(c, R_HAMI_RESOURCE_VALUE, at(r),
		            "%s is %s%s%s, not a whole number of %s: HAMi ignores it; write a "
		            "plain number", r->key->text, str ? "'" : "",
		            str ? q : gs_lint_kind_name(r->v), str ? "'" : "", unit);
}

/* The larger of g and the model `name` names (unknown: g). */
static const gs_gpu *larger(const gs_catalog *cat, const gs_gpu *g, const gs_node *name)
{
	const gs_gpu *x = gs_lint_is_str(name) ? gs_gpu_find(cat, name->text) : NULL;
	return x && (!g || x->memory_mib > g->memory_mib) ? x : g;
}

/* The largest GPU a required node affinity on the product label allows: the
 * terms are ORed, so every term must name known models (else NULL). */
static const gs_gpu *affinity_gpu(const gs_catalog *cat, const gs_node *spec)
{
	const gs_node *na = gs_lint_find(gs_lint_find(spec, "affinity", NULL), "nodeAffinity",
	                                 NULL);
	const gs_node *terms = gs_lint_find(
	    gs_lint_find(na, "requiredDuringSchedulingIgnoredDuringExecution", NULL),
	    "nodeSelectorTerms", NULL);
	const gs_gpu *best = NULL;

	for (size_t t = 0; terms && terms->kind == GS_NODE_SEQ && t < terms->n; t++) {
		const gs_node *ex = gs_lint_find(terms->items[t], "matchExpressions", NULL);
		const gs_gpu *term = NULL;
		for (size_t i = 0; ex && ex->kind == GS_NODE_SEQ && i < ex->n; i++) {
			const gs_node *e = ex->items[i], *vals = gs_lint_find(e, "values", NULL);
			if (!gs_lint_streq(gs_lint_find(e, "key", NULL), PRODUCT_LABEL) ||
			    !gs_lint_streq(gs_lint_find(e, "operator", NULL), "In") || !vals ||
			    vals->kind != GS_NODE_SEQ)
				continue;
			for (size_t v = 0; v < vals->n; v++)
				term = larger(cat, term, vals->items[v]);
		}
		if (!term)
			return NULL;
		best = best && best->memory_mib >= term->memory_mib ? best : term;
	}
	return best;
}

/* The GPU a gpumem must fit, and why that one. */
static const gs_gpu *pod_gpu(const lint_ctx *c, const gs_node *spec, const char **why)
{
	const gs_node *p = gs_lint_find(gs_lint_find(spec, "nodeSelector", NULL), PRODUCT_LABEL,
	                                NULL);
	const gs_catalog *cat = c->opts ? c->opts->catalog : NULL;
	const gs_gpu *g = NULL;

	if (cat && gs_lint_is_str(p) && (g = gs_gpu_find(cat, p->text))) {
		*why = "the pod's " PRODUCT_LABEL;
		return g;
	}
	if (cat && (g = affinity_gpu(cat, spec))) {
		*why = "the largest the pod's node affinity allows";
		return g;
	}
	if (c->opts && c->opts->gpu) {
		*why = "--gpu";
		return c->opts->gpu;
	}
	*why = "the largest GPU of the catalog";
	for (size_t i = 0; cat && i < gs_catalog_gpu_count(cat); i++) {
		const gs_gpu *x = gs_catalog_gpu_at(cat, i);
		if (!g || x->memory_mib > g->memory_mib)
			g = x;
	}
	return g;
}

static void check_mem(lint_ctx *c, const hres *m, const gs_gpu *g, const char *why)
{
	char q[64];

	if (!m->whole)
		not_whole(c, m, "MiB");
	else if (m->n < 0)
		gs_lint_add(c, R_HAMI_RESOURCE_VALUE, at(m), "%s is %lld, but a resource cannot "
		            "be negative; write the MiB the container needs", m->key->text, m->n);
	else if (g && m->n > g->memory_mib)
		gs_lint_add(c, R_HAMI_GPUMEM, at(m), "%s is %s MiB, more than the %lld MiB of one "
		            "%s (%s): HAMi finds no GPU for it and the pod stays Pending",
		            m->key->text, gs_lint_quote(m->v, q, sizeof q),
		            (long long)g->memory_mib, g->name, why);
}

static void check_pct(lint_ctx *c, const hres *p)
{
	if (!p->whole)
		not_whole(c, p, "percent");
	else if (p->n < 0 || p->n > 100)
		gs_lint_add(c, R_HAMI_RESOURCE_VALUE, at(p), "%s is %lld, outside 0 to 100: write "
		            "the percent of the GPU's memory the container needs", p->key->text,
		            p->n);
}

static void check_cores(lint_ctx *c, const hres *k)
{
	if (!k->whole)
		not_whole(c, k, "percent");
	else if (k->n < 0)
		gs_lint_add(c, R_HAMI_GPUCORES, at(k), "%s is %lld, but a resource cannot be "
		            "negative; write the percent of the GPU's SMs, 0 to 100", k->key->text,
		            k->n);
	else if (k->n > 100)
		gs_lint_add(c, R_HAMI_GPUCORES, at(k), "%s is %lld, above 100: HAMi cuts it to "
		            "100, which holds the whole GPU; write at most 100", k->key->text,
		            k->n);
}

static void check_container(lint_ctx *c, const gs_node *ctr, const gs_gpu *g, const char *why)
{
	const gs_node *res = gs_lint_find(ctr, "resources", NULL);
	const gs_node *lim = gs_lint_find(res, "limits", NULL);
	const gs_node *req = gs_lint_find(res, "requests", NULL);
	hres m, p, k;

	find_res(lim, req, GPUMEM, &m);
	find_res(lim, req, GPUMEM_PCT, &p);
	find_res(lim, req, GPUCORES, &k);
	if (m.v)
		check_mem(c, &m, g, why);
	if (p.v)
		check_pct(c, &p);
	if (k.v)
		check_cores(c, &k);
	if (m.v && p.v)
		gs_lint_add(c, R_HAMI_GPUMEM_BOTH, at(&p), "%s is ignored: HAMi uses %s when both "
		            "are given; keep one", GPUMEM_PCT, GPUMEM);
	if (k.v && !m.v && !p.v)
		gs_lint_add(c, R_HAMI_CORES_WITHOUT_MEMORY, at(&k),
		            "%s without %s or %s: HAMi gives the container the scheduler's "
		            "defaultMemory, by default all of the GPU's memory, so no other HAMi "
		            "pod fits beside it; add %s (MiB)", GPUCORES, GPUMEM, GPUMEM_PCT,
		            GPUMEM);
}

static void check_list(lint_ctx *c, const gs_node *list, const gs_gpu *g, const char *why)
{
	for (size_t i = 0; list && list->kind == GS_NODE_SEQ && i < list->n; i++)
		if (gs_lint_is_map(list->items[i]))
			check_container(c, list->items[i], g, why);
}

void gs_lint_hami_pod(lint_ctx *c, const gs_node *obj, const char *kind)
{
	const gs_node *spec = gs_lint_pod_spec(obj, kind);
	const char *why = NULL;
	const gs_gpu *g;

	if (!gs_lint_is_map(spec))
		return;
	g = pod_gpu(c, spec, &why);
	check_list(c, gs_lint_find(spec, "initContainers", NULL), g, why);
	check_list(c, gs_lint_find(spec, "containers", NULL), g, why);
}
