/*
 * plan_pools.c - the nodes' pools: nodes of one instance type and
 * configuration that hold the same set of workloads. A workload's pods
 * select exactly its pools, so a node admits only the workloads planned
 * on it, and robust placement (robust.h) needs to hold only their worst
 * case. The first pool of a configuration is named after it; the next
 * ones "<config>-p2", "-p3", ...: label values, unique by construction.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/strmap.h"
#include "plan/plan_internal.h"
#include "plan/planner.h"

static int by_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
	return (x > y) - (x < y);
}

/* The node's workloads, each once, in address order. */
static size_t node_workloads(const gs_plan_node *nd, uintptr_t **out)
{
	size_t n = 0, cap = 0, u = 0;
	uintptr_t *v = NULL;
	for (size_t g = 0; g < nd->n_gpus; g++) {
		const gs_plan_gpu *pg = &nd->gpus[g];
		size_t want = n + pg->n_assignments;
		for (size_t m = 0; m < pg->n_mig; m++)
			want += pg->mig[m].n_assignments;
		if (gs_grow(&v, &cap, want ? want : 1, sizeof *v) < 0)
			return SIZE_MAX;
		for (size_t k = 0; k < pg->n_assignments; k++)
			v[n++] = (uintptr_t)pg->assignments[k].workload;
		for (size_t m = 0; m < pg->n_mig; m++)
			for (size_t k = 0; k < pg->mig[m].n_assignments; k++)
				v[n++] = (uintptr_t)pg->mig[m]
				             .assignments[k]
				             .workload;
	}
	if (n)
		qsort(v, n, sizeof *v, by_ptr);
	for (size_t i = 0; i < n; i++)
		if (u == 0 || v[u - 1] != v[i])
			v[u++] = v[i];
	*out = v;
	return u;
}

/* Whether the node's workloads w[0..n) mix spans: replicas of several GPUs
 * beside replicas of another span. */
static int mixes_spans(const uintptr_t *w, size_t n)
{
	int lo = 0, hi = 0;
	for (size_t k = 0; k < n; k++) {
		int s = ((const gs_workload *)w[k])->gpus_per_replica;
		s = s > 1 ? s : 1;
		lo = !lo || s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	return hi > 1 && lo != hi;
}

/* What makes two nodes one pool, as text: under pinned placement each
 * node is a pool of its own, as its objects hold exactly its replicas; so
 * is a node that mixes spans, as in a pool of several such nodes smaller
 * pods landing first could leave none with a wide one's GPUs free. Nodes
 * of one span pool as others do: their free GPUs come in its multiples. */
/* x in hex (base 16) or decimal (10) onto b: a formatted print per
 * workload of every node was most of the pools' naming. */
static void put_num(gs_buf *b, uintmax_t x, unsigned base)
{
	char d[3 * sizeof x];
	size_t k = sizeof d;
	do {
		d[--k] = "0123456789abcdef"[x % base];
		x /= base;
	} while (x);
	gs_buf_add(b, d + k, sizeof d - k);
}

static int pool_key(const gs_plan *p, size_t i, gs_buf *b)
{
	const gs_plan_node *nd = &p->nodes[i];
	uintptr_t *w = NULL;
	size_t n = node_workloads(nd, &w);
	if (n == SIZE_MAX)
		return -1;
	gs_buf_release(b);
	gs_buf_puts(b, nd->instance->type);
	gs_buf_putc(b, '|');
	gs_buf_puts(b, nd->config);
	gs_buf_putc(b, '|');
	gs_buf_puts(b, nd->mig_config ? nd->mig_config : "");
	gs_buf_putc(b, '|');
	for (size_t k = 0; k < n; k++) {
		put_num(b, (uintmax_t)w[k], 16);
		gs_buf_putc(b, ',');
	}
	if (p->sum.placement == GS_PLACEMENT_PINNED || mixes_spans(w, n)) {
		gs_buf_putc(b, '|');
		put_num(b, i, 10);
	}
	free(w);
	return b->failed ? -1 : 0;
}

/* Where each configuration's search for a free name starts: names are
 * only ever added, so every earlier one of its names stays taken, and a
 * fleet's thousands of pools of one configuration are named in one pass
 * rather than each trying all the names before it. */
typedef struct starts {
	gs_strmap index;  /* configuration -> its entry of nth */
	int *nth;
	size_t n, cap;
} starts;

/* The entry of config in st, added at 1; NULL when out of memory. */
static int *start_of(starts *st, const char *config)
{
	size_t at = gs_strmap_find(&st->index, config);
	if (at != GS_STRMAP_NONE)
		return &st->nth[at];
	if (gs_grow(&st->nth, &st->cap, st->n + 1, sizeof *st->nth) < 0 ||
	    gs_strmap_put(&st->index, config, st->n) < 0)
		return NULL;
	st->nth[st->n] = 1;
	return &st->nth[st->n++];
}

/* "<config>", else "<config>-p2", "-p3", ...: the first free of every
 * name given so far. */
static int pool_name(gs_plan *p, const char *config, gs_strmap *names, starts *st,
                     const char **out)
{
	char buf[64], suffix[16];
	int *from = start_of(st, config), nth;
	if (!from)
		return -1;
	for (nth = *from;; nth++) {
		if (nth == 1)
			snprintf(buf, sizeof buf, "%s", config);
		else {
			snprintf(suffix, sizeof suffix, "-p%d", nth);
			snprintf(buf, sizeof buf, "%.*s%s",
			         (int)(63 - strlen(suffix)), config, suffix);
		}
		if (gs_strmap_find(names, buf) == GS_STRMAP_NONE)
			break;
	}
	*from = nth + 1;
	if (gs_strmap_put(names, buf, 0) < 0 ||
	    !(*out = gs_plan_strdup(p, buf)))
		return -1;
	return 0;
}

int gs_plan_name_pools(gs_plan *p)
{
	gs_strmap pools = GS_STRMAP_INIT, names = GS_STRMAP_INIT;
	starts st = { GS_STRMAP_INIT, NULL, 0, 0 };
	gs_buf key = GS_BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < p->n_nodes && rc == 0; i++) {
		gs_plan_node *nd = &p->nodes[i];
		size_t had;
		if ((rc = pool_key(p, i, &key)) < 0)
			break;
		if ((had = gs_strmap_find(&pools, key.data)) !=
		    GS_STRMAP_NONE) {
			nd->pool = p->nodes[had].pool;
			continue;
		}
		rc = gs_strmap_put(&pools, key.data, i) < 0 ||
		             pool_name(p, nd->config, &names, &st, &nd->pool) < 0
		         ? -1
		         : 0;
	}
	gs_buf_release(&key);
	gs_strmap_release(&pools);
	gs_strmap_release(&names);
	gs_strmap_release(&st.index);
	free(st.nth);
	return rc;
}

/* Each workload's first pool, and whether it spans more, by name. */
typedef struct span {
	const char *first;
	const char *second;
} span;

static void note_pool(span *sp, const char *pool)
{
	if (!sp->first)
		sp->first = pool;
	else if (!sp->second && strcmp(sp->first, pool) != 0)
		sp->second = pool;
}

static size_t at(const gs_strmap *index, const gs_assignment *a)
{
	return gs_strmap_find(index, a->workload->name);
}

static int spans_of(gs_plan *p, span *sp, gs_strmap *index)
{
	for (size_t i = 0; i < p->n_wls; i++)
		if (gs_strmap_put(index, p->wls[i].workload->name, i) < 0)
			return -1;
	for (size_t i = 0; i < p->n_nodes; i++) {
		const gs_plan_node *nd = &p->nodes[i];
		for (size_t g = 0; g < nd->n_gpus; g++) {
			const gs_plan_gpu *pg = &nd->gpus[g];
			for (size_t k = 0; k < pg->n_assignments; k++)
				note_pool(sp + at(index, &pg->assignments[k]), nd->pool);
			for (size_t m = 0; m < pg->n_mig; m++)
				for (size_t k = 0; k < pg->mig[m].n_assignments; k++)
					note_pool(sp + at(index, &pg->mig[m].assignments[k]),
					          nd->pool);
		}
	}
	return 0;
}

int gs_plan_pool_note(gs_plan *p)
{
	span *sp = calloc(p->n_wls ? p->n_wls : 1, sizeof *sp);
	gs_strmap index = GS_STRMAP_INIT;
	gs_buf names = GS_BUF_INIT;
	int n = 0, rc = sp && spans_of(p, sp, &index) == 0 ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < p->n_wls; i++) {
		if (!sp[i].second)
			continue;
		if (n++ < 3)
			gs_buf_printf(&names, "%s%s in %s, %s", n > 1 ? "; " : "",
			              p->wls[i].workload->name, sp[i].first, sp[i].second);
	}
	if (rc == 0 && n > 0 && !names.failed)
		rc = gs_plan_warn(p, "%d workload%s span%s several node pools: %s%s. %s pods "
		                  "may take slots planned for other workloads of those pools, "
		                  "which then wait (Pending) for a slot; every placement keeps the "
		                  "plan's rules. placement: pinned (with --manifests) keeps each "
		                  "replica to its own pool",
		                  n, n == 1 ? "" : "s", n == 1 ? "s" : "", names.data,
		                  n > 3 ? "; ..." : "", n == 1 ? "Its" : "Their");
	gs_buf_release(&names);
	gs_strmap_release(&index);
	free(sp);
	return rc;
}
