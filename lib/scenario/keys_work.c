/*
 * keys_work.c - the workload keys `throughput` and `retention`: how much
 * work one replica does on a dedicated GPU ("1200 tokens/s", "30
 * requests/s"), and the share of it the user measured it keeps when it
 * shares one (a scalar for every shared strategy, or a map per strategy).
 * The plan prices a unit of work from them (lib/plan/retention.c).
 */
#include <stdio.h>
#include <string.h>

#include "scenario/keys.h"
#include "scenario/values.h"

static const char *const units[] = { "none", "tokens/s", "requests/s" }; /* gs_work_unit */

/* The strategies a map may name: those that share, as gs_strategy. */
static const char *const shared_names[] = { NULL, "time-slicing", "mps", "mig", "fraction" };

const char *gs_work_unit_name(gs_work_unit u)
{
	return (unsigned)u < GS_ARRAY_LEN(units) ? units[u] : "unknown";
}

/* Below 10^12 units a second, so that prices per unit stay exact. */
#define MOST_MILLI INT64_C(1000000000000000)

static int bad_throughput(gs_ctx *c, const gs_node *v)
{
	return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
	                    "throughput must be a number above 0 and a unit, tokens/s or "
	                    "requests/s (e.g. '1200 tokens/s'), not '%s'",
	                    v->kind == GS_NODE_STRING ? v->text : "a list or map");
}

int gs_key_read_throughput(const gs_key_dst *d, const gs_node *v)
{
	const char *sp;
	char num[40];
	int64_t x;
	int u;

	if (v->kind == GS_NODE_NULL) {
		d->w->pub.throughput_milli = 0;
		d->w->pub.work_unit = GS_WORK_NONE;
		return 0;
	}
	if (v->kind != GS_NODE_STRING || !(sp = strchr(v->text, ' ')) ||
	    (size_t)(sp - v->text) >= sizeof num)
		return bad_throughput(d->c, v);
	snprintf(num, sizeof num, "%.*s", (int)(sp - v->text), v->text);
	while (*sp == ' ')
		sp++;
	for (u = GS_WORK_TOKENS; u <= GS_WORK_REQUESTS; u++)
		if (strcmp(sp, units[u]) == 0)
			break;
	if (u > GS_WORK_REQUESTS || gs_parse_fixed(num, 1000, &x) < 0 || x <= 0 ||
	    x >= MOST_MILLI)
		return bad_throughput(d->c, v);
	d->w->pub.throughput_milli = x;
	d->w->pub.work_unit = (gs_work_unit)u;
	return 0;
}

/* "1200 tokens/s", "12.5 requests/s": the reader takes it back. */
int gs_key_write_throughput(const gs_key_src *s, gs_node *map, const char *key)
{
	const gs_workload *w = &s->w->pub;
	char buf[64];
	int n;

	if (w->work_unit == GS_WORK_NONE)
		return 0;
	n = snprintf(buf, sizeof buf, "%lld.%03lld", (long long)(w->throughput_milli / 1000),
	             (long long)(w->throughput_milli % 1000));
	while (buf[n - 1] == '0')
		buf[--n] = '\0';
	if (buf[n - 1] == '.')
		buf[--n] = '\0';
	snprintf(buf + n, sizeof buf - (size_t)n, " %s", units[w->work_unit]);
	return gs_node_put(map, key, gs_node_str(buf));
}

/* One measured share: more than 0%, at most 100% of the dedicated figure. */
static int retention_value(gs_ctx *c, const gs_node *v, int64_t *out)
{
	int rc = gs_scalar_share(c, v, out);
	if (rc == 0 && (*out <= 0 || *out > GS_PPM))
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                  "retention must be more than 0%% and at most 100%% of the "
		                  "dedicated throughput, not '%s'", v->text);
	return rc;
}

/* {time-slicing: 70%, mps: 85%, ...}: the strategies it names change, a
 * null one goes back to the profile's range. */
static int retention_map(const gs_key_dst *d, const gs_node *v)
{
	static const char *const keys[] = { "time-slicing", "mps", "mig", "fraction",
		                                "dedicated" };
	int64_t *r = d->w->pub.retention_ppm;
	int rc;

	if ((rc = gs_check_keys(d->c, v, keys, GS_ARRAY_LEN(keys))) < 0)
		return rc;
	if (gs_node_get(v, "dedicated"))
		return gs_fail_node(d->c->err, GS_ESCHEMA, d->c->file, gs_node_get(v, "dedicated"),
		                    "a dedicated GPU keeps all of its throughput: retention "
		                    "names shared strategies only");
	for (int s = GS_STRATEGY_TIME_SLICING; s <= GS_STRATEGY_FRACTION; s++) {
		const gs_node *x = gs_node_get(v, shared_names[s]);
		int64_t ppm;
		if (!x)
			continue;
		if (x->kind == GS_NODE_NULL)
			ppm = -1;
		else if ((rc = retention_value(d->c, x, &ppm)) < 0)
			return rc;
		r[s] = ppm;
	}
	d->w->retention_scalar = 0;
	return 0;
}

int gs_key_read_retention(const gs_key_dst *d, const gs_node *v)
{
	int64_t *r = d->w->pub.retention_ppm, x = -1;
	int rc;

	if (v->kind == GS_NODE_MAP)
		return retention_map(d, v);
	if (v->kind != GS_NODE_NULL && (rc = retention_value(d->c, v, &x)) < 0)
		return rc;
	for (int s = GS_STRATEGY_TIME_SLICING; s <= GS_STRATEGY_FRACTION; s++)
		r[s] = x;
	d->w->retention_scalar = x >= 0;
	return 0;
}

/* A scalar as it was read, else the map of the strategies set. */
int gs_key_write_retention(const gs_key_src *s, gs_node *map, const char *key)
{
	const int64_t *r = s->w->pub.retention_ppm;
	gs_node *m;
	int rc = 0, any = 0;

	if (s->w->retention_scalar)
		return gs_node_put(map, key, gs_share_node(r[GS_STRATEGY_TIME_SLICING]));
	for (int k = GS_STRATEGY_TIME_SLICING; k <= GS_STRATEGY_FRACTION; k++)
		any |= r[k] >= 0;
	if (!any)
		return 0;
	m = gs_node_new(GS_NODE_MAP, NULL);
	for (int k = GS_STRATEGY_TIME_SLICING; k <= GS_STRATEGY_FRACTION; k++)
		if (r[k] >= 0)
			rc |= gs_node_put(m, shared_names[k], gs_share_node(r[k]));
	rc |= gs_node_put(map, key, m);
	return rc;
}
