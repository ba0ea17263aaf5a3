/*
 * values.c - reading one value of a workload file (a choice, a GPU model,
 * a label) with an error at its position, and writing values back in the
 * form the reader takes again.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/values.h"

int gs_str_assign(char **dst, const char *v)
{
	char *p = NULL;
	if (v && !(p = gs_strdup(v)))
		return -1;
	free(*dst);
	*dst = p;
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

/* "a, b or c", for a message. */
void gs_names_list(const char *const *names, size_t n, char *list, size_t size)
{
	size_t o = 0;
	list[0] = '\0';
	for (size_t i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(list + o, size - o, "%s%s",
		                      i ? (i + 1 == n ? " or " : ", ") : "", names[i]);
}

int gs_read_choice(gs_ctx *c, const gs_node *v, const char *key,
                   const char *const *names, size_t n, int *out)
{
	const char *near;
	char list[256];

	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'%s' must be a string", key);
	for (size_t i = 0; i < n; i++)
		if (strcmp(v->text, names[i]) == 0)
			return *out = (int)i, 0;
	near = gs_suggest(v->text, names, n);
	if (near)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "invalid %s '%s' (did you mean '%s'?)", key,
		                    v->text, near);
	gs_names_list(names, n, list, sizeof list);
	return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
	                    "invalid %s '%s' (expected %s)", key, v->text, list);
}

int gs_read_gpu(gs_ctx *c, const gs_catalog *cat, const gs_node *v,
                const gs_gpu **out)
{
	const char *near;
	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "a GPU model must be a string");
	if ((*out = gs_gpu_find(cat, v->text)))
		return 0;
	near = gs_gpu_suggest(cat, v->text);
	if (near)
		return gs_fail_node(c->err, GS_ENOTFOUND, c->file, v,
		                    "unknown GPU '%s' (did you mean '%s'?)", v->text, near);
	return gs_fail_node(c->err, GS_ENOTFOUND, c->file, v,
	                    "unknown GPU '%s' (see 'gpushare gpus')", v->text);
}

int gs_read_gpu_list(gs_ctx *c, const gs_catalog *cat, const gs_node *v,
                     const gs_gpu ***out, size_t *n)
{
	const gs_gpu **list;
	int rc;
	if ((rc = gs_need_kind(c, v, GS_NODE_SEQ, "'gpus'")) < 0)
		return rc;
	if (!(list = calloc(v->n ? v->n : 1, sizeof *list)))
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < v->n; i++)
		if ((rc = gs_read_gpu(c, cat, v->items[i], &list[i])) < 0) {
			free(list);
			return rc;
		}
	free(*out);
	*out = list;
	*n = v->n;
	return 0;
}

int gs_read_label(gs_ctx *c, const gs_node *v, const char *key, char **dst)
{
	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'%s' must be a string", key);
	if (!gs_is_dns_label(v->text))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "%s '%s' must be a DNS-1123 label: " GS_DNS_LABEL_RULE,
		                    key, v->text);
	return gs_str_assign(dst, v->text) ? gs_fail_nomem(c->err) : 0;
}

/* ---- writing ------------------------------------------------------------ */

gs_node *gs_bytes_node(int64_t b)
{
	char buf[64];
	if (b % (INT64_C(1) << 30) == 0)
		snprintf(buf, sizeof buf, "%lldGiB", (long long)(b >> 30));
	else if (b % (1 << 20) == 0)
		snprintf(buf, sizeof buf, "%lldMiB", (long long)(b >> 20));
	else if (b % 1000000 == 0)
		snprintf(buf, sizeof buf, "%lldMB", (long long)(b / 1000000));
	else
		snprintf(buf, sizeof buf, "%lld.%06lldMB", (long long)(b / 1000000),
		         (long long)(b % 1000000));
	return gs_node_str(buf);
}

gs_node *gs_share_node(int64_t ppm)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%lld.%04lld", (long long)(ppm / 10000),
	                 (long long)(ppm % 10000));
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	snprintf(buf + n, sizeof buf - (size_t)n, "%%");
	return gs_node_str(buf);
}

gs_node *gs_gpus_node(const gs_gpu *const *g, size_t n)
{
	gs_node *seq = gs_node_new(GS_NODE_SEQ, NULL);
	int rc = 0;
	for (size_t i = 0; i < n; i++)
		rc |= gs_node_push(seq, gs_node_str(g[i]->name));
	return gs_node_done(seq, rc);
}
