/*
 * holders.c - what each pod holds, and where (holders.h): the holds the
 * pod and claim readers record, and the accessors chargeback reads them
 * and the nodes' devices and samples through.
 */
#include <stdlib.h>

#include "import/holders.h"
#include "import/import.h"

int gs_import_hold_add(gs_inventory *inv, size_t pi, size_t ni, int64_t n, const ires *u)
{
	gs_hold *h;
	if (gs_grow(&inv->holds, &inv->cap_holds, inv->n_holds + 1, sizeof *inv->holds) < 0)
		return gs_fail_nomem(inv->err);
	h = &inv->holds[inv->n_holds++];
	*h = (gs_hold){ .pod = pi, .node = ni, .units = n, .mig = u->mig, .consumers = 1,
		            .per_device = u->replicas > 1 ? u->replicas : 1 };
	return 0;
}

void gs_import_holds_release(gs_inventory *inv)
{
	free(inv->holds);
	inv->holds = NULL;
	inv->n_holds = inv->cap_holds = 0;
}

size_t gs_hold_count(const gs_inventory *inv) { return inv->n_holds; }

const gs_hold *gs_hold_at(const gs_inventory *inv, size_t i)
{
	return i < inv->n_holds ? &inv->holds[i] : NULL;
}

size_t gs_hold_pod_count(const gs_inventory *inv) { return inv->n_pods + inv->n_cpods; }

/* The mean of the first activity field with samples (the preference of
 * measure.c); 0 when none has any. */
static int mean_activity(const samples *m, double *out)
{
	for (int k = M_SM; k <= M_UTIL; k++) {
		double sum = 0;
		if (!m[k].n)
			continue;
		for (size_t i = 0; i < m[k].n; i++)
			sum += m[k].v[i];
		*out = sum / (double)m[k].n;
		return 1;
	}
	*out = 0;
	return 0;
}

void gs_hold_pod_at(const gs_inventory *inv, size_t i, gs_hold_pod *out)
{
	const ipod *p = i < inv->n_pods ? &inv->pods[i] : &inv->cpods[i - inv->n_pods];
	*out = (gs_hold_pod){ p->ns, p->name, p->kind, p->owner, p->team, 0, 0 };
	out->measured = mean_activity(p->m, &out->activity);
}

size_t gs_hold_dev_count(const gs_inventory *inv, size_t node)
{
	return inv->nodes[node].n_res;
}

void gs_hold_dev_at(const gs_inventory *inv, size_t node, size_t i, gs_hold_dev *out)
{
	const ires *r = &inv->nodes[node].res[i];
	*out = (gs_hold_dev){ r->name, r->capacity, r->replicas > 1 ? r->replicas : 1, r->mig };
}

size_t gs_hold_pod_samples(const gs_inventory *inv, size_t i, const double **v)
{
	const ipod *p = i < inv->n_pods ? &inv->pods[i] : &inv->cpods[i - inv->n_pods];
	for (int k = M_SM; k <= M_UTIL; k++)
		if (p->m[k].n) {
			*v = p->m[k].v;
			return p->m[k].n;
		}
	*v = NULL;
	return 0;
}
