/*
 * facts.c - the store behind facts.h: growing arrays of copied strings,
 * freed with the gs_lint.
 */
#include <stdlib.h>
#include <string.h>

#include "lint/facts.h"

/* A copy of s, or NULL for NULL; *bad is set when out of memory. */
static char *dup_or_null(const char *s, int *bad)
{
	char *d;
	if (!s)
		return NULL;
	if (!(d = gs_strdup(s)))
		*bad = 1;
	return d;
}

int gs_facts_conf(lint_facts *f, const char *key, const char *holder, int chart,
                  lint_where at)
{
	lint_dpconf *c;
	int bad = 0;

	if (gs_grow(&f->confs, &f->cap_confs, f->n_confs + 1,
	            sizeof *f->confs) < 0)
		return -1;
	c = &f->confs[f->n_confs];
	memset(c, 0, sizeof *c);
	c->key = dup_or_null(key, &bad);
	c->holder = dup_or_null(holder, &bad);
	c->chart = chart;
	c->at = at;
	c->first = f->n_shared;
	f->n_confs++;
	return bad ? -1 : 0;
}

int gs_facts_shared(lint_facts *f, const char *name, int rename, int mps,
                    int fail_gt1, lint_where at)
{
	lint_shared *s;
	size_t len = strlen(name);

	if (!f->n_confs || gs_grow(&f->shared, &f->cap_shared, f->n_shared + 1,
	                           sizeof *f->shared) < 0)
		return -1;
	s = &f->shared[f->n_shared];
	memset(s, 0, sizeof *s);
	if (!(s->name = gs_strdup(name)) ||
	    !(s->advertised = malloc(len + 8))) {
		free(s->name);
		return -1;
	}
	memcpy(s->advertised, name, len + 1);
	if (rename)
		memcpy(s->advertised + len, ".shared", 8);
	s->mps = mps;
	s->fail_gt1 = fail_gt1 || mps;
	s->at = at;
	f->n_shared++;
	f->confs[f->n_confs - 1].n++;
	return 0;
}

int gs_facts_label(lint_facts *f, const char *value, lint_use use,
                   lint_where at)
{
	lint_label *l;

	if (gs_grow(&f->labels, &f->cap_labels, f->n_labels + 1,
	            sizeof *f->labels) < 0)
		return -1;
	l = &f->labels[f->n_labels];
	if (!(l->value = gs_strdup(value)))
		return -1;
	l->use = use;
	l->at = at;
	f->n_labels++;
	return 0;
}

int gs_facts_pod(lint_facts *f, const char *what)
{
	lint_pod *p;

	if (gs_grow(&f->pods, &f->cap_pods, f->n_pods + 1, sizeof *f->pods) < 0)
		return -1;
	p = &f->pods[f->n_pods];
	memset(p, 0, sizeof *p);
	if (!(p->what = gs_strdup(what)))
		return -1;
	f->n_pods++;
	return 0;
}

int gs_facts_select(lint_facts *f, const char *value)
{
	lint_pod *p = f->n_pods ? &f->pods[f->n_pods - 1] : NULL;
	size_t cap = p ? p->n_sel : 0;
	char **sel;

	if (!p)
		return -1;
	/* n_sel is the capacity too: the lists are short. */
	if (!(sel = realloc(p->sel, (cap + 1) * sizeof *sel)))
		return -1;
	p->sel = sel;
	if (!(sel[p->n_sel] = gs_strdup(value)))
		return -1;
	p->n_sel++;
	p->selects = 1;
	return 0;
}

int gs_facts_select_pool(lint_facts *f, const char *pool)
{
	lint_pod *p = f->n_pods ? &f->pods[f->n_pods - 1] : NULL;
	char **v;

	if (!p || !(v = realloc(p->pools, (p->n_pools + 1) * sizeof *v)))
		return -1;
	p->pools = v;
	if (!(v[p->n_pools] = gs_strdup(pool)))
		return -1;
	p->n_pools++;
	return 0;
}

int gs_facts_pool(lint_facts *f, const char *pool, const char *config)
{
	lint_pool *l;

	if (gs_grow(&f->pools, &f->cap_pools, f->n_pools + 1, sizeof *f->pools) < 0)
		return -1;
	l = &f->pools[f->n_pools];
	l->pool = gs_strdup(pool);
	l->config = gs_strdup(config);
	if (!l->pool || !l->config) {
		free(l->pool);
		free(l->config);
		return -1;
	}
	f->n_pools++;
	return 0;
}

int gs_facts_request(lint_facts *f, const char *resource, long long qty,
                     lint_where at)
{
	lint_request *r;

	if (!f->n_pods ||
	    gs_grow(&f->reqs, &f->cap_reqs, f->n_reqs + 1, sizeof *f->reqs) < 0)
		return -1;
	r = &f->reqs[f->n_reqs];
	if (!(r->resource = gs_strdup(resource)))
		return -1;
	r->pod = f->n_pods - 1;
	r->qty = qty;
	r->at = at;
	f->n_reqs++;
	return 0;
}

int gs_facts_cmref(lint_facts *f, const char *name, lint_where at)
{
	lint_cmref *r;

	if (gs_grow(&f->cmrefs, &f->cap_cmrefs, f->n_cmrefs + 1,
	            sizeof *f->cmrefs) < 0)
		return -1;
	r = &f->cmrefs[f->n_cmrefs];
	if (!(r->name = gs_strdup(name)))
		return -1;
	r->at = at;
	f->n_cmrefs++;
	return 0;
}

static int add_gate(lint_gate **arr, size_t *n, size_t *cap, const char *name,
                    lint_where at)
{
	if (gs_grow(arr, cap, *n + 1, sizeof **arr) < 0 || !((*arr)[*n].name = gs_strdup(name)))
		return -1;
	(*arr)[*n].at = at;
	(*n)++;
	return 0;
}

int gs_facts_gate(lint_facts *f, const char *name, lint_where at)
{
	return add_gate(&f->gates_on, &f->n_gates_on, &f->cap_gates_on, name, at);
}

int gs_facts_gate_need(lint_facts *f, const char *name, lint_where at)
{
	return add_gate(&f->gate_needs, &f->n_gate_needs, &f->cap_gate_needs, name, at);
}

/* Copies n items of size from src to the end of the array dst of *n_dst
 * items, whose room gs_grow made. */
static void append(void *dst, size_t *n_dst, const void *src, size_t n,
                   size_t size)
{
	char **d = dst;
	if (n)
		memcpy(*d + *n_dst * size, src, n * size);
	*n_dst += n;
}

int gs_facts_merge(lint_facts *dst, lint_facts *src)
{
	size_t shared = dst->n_shared, pods = dst->n_pods;
	size_t confs = dst->n_confs, reqs = dst->n_reqs;

	/* Room first, so that nothing is moved when one fails. */
	if (gs_grow(&dst->confs, &dst->cap_confs, confs + src->n_confs,
	            sizeof *dst->confs) < 0 ||
	    gs_grow(&dst->shared, &dst->cap_shared, shared + src->n_shared,
	            sizeof *dst->shared) < 0 ||
	    gs_grow(&dst->labels, &dst->cap_labels,
	            dst->n_labels + src->n_labels, sizeof *dst->labels) < 0 ||
	    gs_grow(&dst->pods, &dst->cap_pods, pods + src->n_pods,
	            sizeof *dst->pods) < 0 ||
	    gs_grow(&dst->reqs, &dst->cap_reqs, reqs + src->n_reqs,
	            sizeof *dst->reqs) < 0 ||
	    gs_grow(&dst->cmrefs, &dst->cap_cmrefs,
	            dst->n_cmrefs + src->n_cmrefs, sizeof *dst->cmrefs) < 0 ||
	    gs_grow(&dst->gates_on, &dst->cap_gates_on, dst->n_gates_on + src->n_gates_on,
	            sizeof *dst->gates_on) < 0 ||
	    gs_grow(&dst->gate_needs, &dst->cap_gate_needs,
	            dst->n_gate_needs + src->n_gate_needs, sizeof *dst->gate_needs) < 0 ||
	    gs_grow(&dst->pools, &dst->cap_pools, dst->n_pools + src->n_pools,
	            sizeof *dst->pools) < 0) {
		gs_facts_free(src);
		return -1;
	}
	append(&dst->confs, &dst->n_confs, src->confs, src->n_confs,
	       sizeof *src->confs);
	append(&dst->shared, &dst->n_shared, src->shared, src->n_shared,
	       sizeof *src->shared);
	append(&dst->labels, &dst->n_labels, src->labels, src->n_labels,
	       sizeof *src->labels);
	append(&dst->pods, &dst->n_pods, src->pods, src->n_pods,
	       sizeof *src->pods);
	append(&dst->reqs, &dst->n_reqs, src->reqs, src->n_reqs,
	       sizeof *src->reqs);
	append(&dst->cmrefs, &dst->n_cmrefs, src->cmrefs, src->n_cmrefs,
	       sizeof *src->cmrefs);
	append(&dst->gates_on, &dst->n_gates_on, src->gates_on, src->n_gates_on,
	       sizeof *src->gates_on);
	append(&dst->gate_needs, &dst->n_gate_needs, src->gate_needs, src->n_gate_needs,
	       sizeof *src->gate_needs);
	append(&dst->pools, &dst->n_pools, src->pools, src->n_pools, sizeof *src->pools);
	for (size_t i = confs; i < dst->n_confs; i++)
		dst->confs[i].first += shared;
	for (size_t i = reqs; i < dst->n_reqs; i++)
		dst->reqs[i].pod += pods;
	dst->nodes += src->nodes;
	dst->dra_values += src->dra_values;
	dst->operator_values |= src->operator_values;
	free(src->confs);
	free(src->shared);
	free(src->labels);
	free(src->pods);
	free(src->reqs);
	free(src->cmrefs);
	free(src->gates_on);
	free(src->gate_needs);
	free(src->pools);
	memset(src, 0, sizeof *src);
	return 0;
}

void gs_facts_free(lint_facts *f)
{
	for (size_t i = 0; i < f->n_confs; i++) {
		free(f->confs[i].key);
		free(f->confs[i].holder);
	}
	for (size_t i = 0; i < f->n_shared; i++) {
		free(f->shared[i].name);
		free(f->shared[i].advertised);
	}
	for (size_t i = 0; i < f->n_labels; i++)
		free(f->labels[i].value);
	for (size_t i = 0; i < f->n_pods; i++) {
		for (size_t j = 0; j < f->pods[i].n_sel; j++)
			free(f->pods[i].sel[j]);
		free(f->pods[i].sel);
		for (size_t j = 0; j < f->pods[i].n_pools; j++)
			free(f->pods[i].pools[j]);
		free(f->pods[i].pools);
		free(f->pods[i].what);
	}
	for (size_t i = 0; i < f->n_pools; i++) {
		free(f->pools[i].pool);
		free(f->pools[i].config);
	}
	free(f->pools);
	for (size_t i = 0; i < f->n_reqs; i++)
		free(f->reqs[i].resource);
	for (size_t i = 0; i < f->n_cmrefs; i++)
		free(f->cmrefs[i].name);
	for (size_t i = 0; i < f->n_gates_on; i++)
		free(f->gates_on[i].name);
	for (size_t i = 0; i < f->n_gate_needs; i++)
		free(f->gate_needs[i].name);
	free(f->gates_on);
	free(f->gate_needs);
	free(f->confs);
	free(f->shared);
	free(f->labels);
	free(f->pods);
	free(f->reqs);
	free(f->cmrefs);
	memset(f, 0, sizeof *f);
}
