/*
 * inventory.c - the inventory every reader fills: its warnings, the names
 * the readers key and write it by (DNS labels, pod keys), its accessors
 * and its release. It calls none of the readers: the loader (import.c)
 * calls the readers, the readers call this file, and nothing calls back.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "import/import.h"

/* ---- warnings ------------------------------------------------------------- */

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

/* ---- names ---------------------------------------------------------------- */

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

const char *gs_import_pod_key(char buf[GS_IMPORT_POD_KEY], const char *ns,
                              const char *name)
{
	snprintf(buf, GS_IMPORT_POD_KEY, "%.280s/%.280s", ns, name);
	return buf;
}

/* ---- release and accessors ------------------------------------------------ */

static void node_release(inode *n)
{
	for (size_t g = 0; n->m && g < n->pub.n_gpus * M_COUNT; g++)
		free(n->m[g].v);
	for (size_t g = 0; n->raw && g < n->pub.n_gpus * M_COUNT; g++)
		free(n->raw[g].r);
	for (size_t i = 0; i < n->n_migs; i++) {
		for (int k = 0; k < M_COUNT; k++)
			free(n->migs[i].raw[k].r);
		free(n->migs[i].id);
		free(n->migs[i].profile);
	}
	free(n->migs);
	free(n->raw);
	free(n->bad);
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
	for (size_t v = 0; v < p->n_vgpus; v++)
		free(p->vgpus[v].id);
	free(p->vgpus);
	free(p->on_gpu);
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
	for (size_t i = 0; i < inv->n_cpods; i++)
		pod_release(&inv->cpods[i]);
	free(inv->cpods);
	gs_strmap_release(&inv->cpod_ix);
	gs_import_holds_release(inv);
	gs_strmap_release(&inv->node_ix);
	gs_strmap_release(&inv->pod_ix);
	gs_strmap_release(&inv->wl_ix);
	gs_strmap_release(&inv->left_out);
	free(inv->warnings);
	free(inv->nodes);
	free(inv->pods);
	free(inv->wls);
	free(inv);
}

const gs_import_summary *gs_import_summary_get(const gs_inventory *inv)
{
	return &inv->sum;
}

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
