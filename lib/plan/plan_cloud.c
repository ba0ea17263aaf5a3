/*
 * plan_cloud.c - gs_plan_make: a plan lives in one cloud. The scenario's
 * cloud, or with `cloud: all` the cheapest single cloud: every cloud of
 * the catalog with an instance the scenario may buy gets an estimate (what
 * the workloads' cheapest shares of an instance cost there) and a lower
 * bound (the greater of that and the volume bound), the clouds are
 * planned in full from the lowest estimate up, each while its bound is
 * below the best plan so far, and the cheapest plan that holds every
 * workload is kept (ties: fewer GPUs, then fewer instances, then the
 * lower estimate). The plan lists every cloud with its estimate and its
 * cost, or why it has none; a summary (gs_plan_opts.summary_only) lists
 * none and sums a volume bound only where it may skip a cloud. Nodes of
 * one "cluster" in several clouds are not offered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"

/* Does the scenario's allow-lists leave some instance in this cloud? */
static int has_instances(const gs_scenario *s, const char *cloud)
{
	for (size_t i = 0; i < gs_catalog_instance_count(s->cat); i++)
		if (gs_scenario_instance_ok_in(s, cloud, gs_catalog_instance_at(s->cat, i)))
			return 1;
	return 0;
}

static int better(const gs_plan *a, const gs_plan *b)
{
	const gs_plan_summary *x = &a->sum, *y = &b->sum;
	if (x->after_per_hour != y->after_per_hour)
		return x->after_per_hour < y->after_per_hour;
	if (x->gpus_after != y->gpus_after)
		return x->gpus_after < y->gpus_after;
	return x->instances_after < y->instances_after;
}

typedef struct tried {
	gs_plan_cloud *v;    /* per cloud of the catalog, in its order */
	char **why;          /* owned copies of the reasons */
	size_t n;
	gs_micros bound;     /* the least lower bound of the clouds so far */
	/* A summary alone (gs_plan_how): a cloud's volume bound is summed
	 * only where its estimate does not already rule it out, and never
	 * for the first cloud planned, which nothing rules out. */
	int lazy;
} tried;

static void tried_free(tried *t)
{
	for (size_t i = 0; t->why && i < t->n; i++)
		free(t->why[i]);
	free(t->why);
	free(t->v);
}

static int set_why(tried *t, size_t i, const char *why)
{
	return (t->why[i] = gs_strdup(why)) ? 0 : -1;
}

/* A plan lives in one cloud: the best possible is the least over them. */
static void bound_at_most(tried *t, gs_micros b)
{
	if (b >= 0 && (t->bound < 0 || b < t->bound))
		t->bound = b;
}

/* Plans s in cloud i: the better plan goes to *best, the outcome to t. */
static int try_cloud(const gs_scenario *s, gs_plan_how how, size_t i, gs_plan **best, tried *t,
                     gs_error *err)
{
	gs_plan_cloud *c = &t->v[i];
	gs_plan *p = NULL;
	gs_error e;
	int rc = gs_plan_in(s, c->cloud, how, &p, &e);

	if (rc == GS_ENOFIT)
		return set_why(t, i, e.msg) < 0 ? gs_fail_nomem(err) : 0;
	if (rc < 0) {
		*err = e;
		return rc;
	}
	c->planned = 1;
	if (p->sum.lower_bound_per_hour > c->lower_bound_per_hour)
		c->lower_bound_per_hour = p->sum.lower_bound_per_hour;
	bound_at_most(t, c->lower_bound_per_hour);
	c->after_per_hour = p->sum.after_per_hour;
	c->gpus = p->sum.gpus_after;
	c->instances = p->sum.instances_after;
	if (!*best || better(p, *best)) {
		gs_plan_free(*best);
		*best = p;
	} else {
		gs_plan_free(p);
	}
	return 0;
}

/* Each cloud's estimate, and its volume bound unless t->lazy; a cloud
 * that cannot hold the workloads says why through the plan's own error. */
static int estimate_all(const gs_scenario *s, tried *t, gs_error *err)
{
	for (size_t i = 0; i < t->n; i++) {
		gs_plan_cloud *c = &t->v[i];
		gs_plan *p = NULL;
		gs_micros volume = -1;
		int rc;
		if (!has_instances(s, c->cloud))
			continue;
		rc = gs_plan_estimate(s, c->cloud, &c->estimate_per_hour,
		                      t->lazy ? NULL : &volume);
		c->lower_bound_per_hour = volume > c->estimate_per_hour ? volume
		                                                        : c->estimate_per_hour;
		if (rc == -1)
			return gs_fail_nomem(err);
		if (rc == -2) {
			gs_plan_how quick = { 1, 0, 1, NULL, 0, 0, 0 };
			gs_error e;
			c->estimate_per_hour = -1;
			c->lower_bound_per_hour = -1;
			if (gs_plan_in(s, c->cloud, quick, &p, &e) == GS_ENOFIT) {
				if (set_why(t, i, e.msg) < 0)
					return gs_fail_nomem(err);
			} else {
				gs_plan_free(p);
			}
		}
	}
	return 0;
}

/* The next cloud to plan: the lowest estimate not yet tried; -1 when none. */
static long next_cloud(const gs_scenario *s, const tried *t, const char *done)
{
	long k = -1;
	for (size_t i = 0; i < t->n; i++) {
		const gs_plan_cloud *c = &t->v[i];
		if (done[i] || c->estimate_per_hour < 0 || !has_instances(s, c->cloud))
			continue;
		if (k < 0 || c->estimate_per_hour < t->v[k].estimate_per_hour)
			k = (long)i;
	}
	return k;
}

/* Why cloud c is not planned: its estimate or, where that is higher,
 * its volume bound is not below the best plan. */
static void why_skipped(const gs_plan_cloud *c, const gs_plan *best, char *why, size_t n)
{
	char a[32], b[32];
	int by_volume = c->lower_bound_per_hour > c->estimate_per_hour;
	gs_micros_format(c->lower_bound_per_hour, 2, a, sizeof a);
	gs_micros_format(best->sum.after_per_hour, 2, b, sizeof b);
	snprintf(why, n, "not planned: its %s, $%s/h, is not below the plan in %s ($%s/h)",
	         by_volume ? "lower bound" : "estimate", a, best->sum.cloud, b);
}

/* Cloud c's volume bound where estimate_all left it out (t->lazy), for
 * a cloud whose estimate is below the best plan so far: the bound may
 * still rule it out, as it would have there. */
static int volume_now(const gs_scenario *s, const tried *t, gs_plan_cloud *c, gs_error *err)
{
	gs_micros estimate, volume;
	if (!t->lazy)
		return 0;
	if (gs_plan_estimate(s, c->cloud, &estimate, &volume) == -1)
		return gs_fail_nomem(err);
	if (volume > c->lower_bound_per_hour)
		c->lower_bound_per_hour = volume;
	return 0;
}

/* Plans the clouds by estimate, skipping those the best plan already
 * beats: an estimate is what the shares alone cost, and packing and
 * buying whole instances only add to it; the volume bound holds every
 * plan there too, and is often the higher (bench.c's fleet of 10,000
 * replicas: $7,048.75/h in gcp, whose estimate is lower, against the
 * plan in aws at $7,018.71/h). */
static int plan_clouds(const gs_scenario *s, gs_plan_how how, tried *t, gs_plan **best,
                       gs_error *err)
{
	char *done = calloc(t->n ? t->n : 1, 1), why[256];
	long k;
	int rc = done ? 0 : gs_fail_nomem(err);

	while (rc == 0 && (k = next_cloud(s, t, done)) >= 0) {
		gs_plan_cloud *c = &t->v[k];
		done[k] = 1;
		if (*best && c->lower_bound_per_hour < (*best)->sum.after_per_hour &&
		    (rc = volume_now(s, t, c, err)) < 0)
			break;
		if (!*best || c->lower_bound_per_hour < (*best)->sum.after_per_hour) {
			rc = try_cloud(s, how, (size_t)k, best, t, err);
			continue;
		}
		why_skipped(c, *best, why, sizeof why);
		c->planned = -1;
		bound_at_most(t, c->lower_bound_per_hour);
		if (set_why(t, (size_t)k, why) < 0)
			rc = gs_fail_nomem(err);
	}
	free(done);
	return rc;
}

/* Copies what each cloud would cost into the chosen plan. */
static int keep_tried(const gs_scenario *s, gs_plan *p, const tried *t)
{
	if (!(p->clouds = gs_plan_alloc(p, t->n, sizeof *p->clouds)))
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		gs_plan_cloud *c = &p->clouds[p->n_clouds];
		if (!has_instances(s, t->v[i].cloud))
			continue;
		*c = t->v[i];
		if (!(c->cloud = gs_plan_strdup(p, t->v[i].cloud)) ||
		    (t->why[i] && !(c->why = gs_plan_strdup(p, t->why[i]))))
			return -1;
		p->n_clouds++;
	}
	return 0;
}

/* The workload a reason names ("workload 'x' ..."), into buf. */
static const char *named(const char *why, char *buf, size_t n)
{
	const char *a = strchr(why, '\''), *b = a ? strchr(a + 1, '\'') : NULL;
	if (!b || (size_t)(b - a) >= n)
		return NULL;
	memcpy(buf, a + 1, (size_t)(b - a - 1));
	buf[b - a - 1] = '\0';
	return buf;
}

/* No cloud holds every workload: which workload each cloud cannot hold,
 * then the first cloud's reason in full. */
static int none_holds(const gs_scenario *s, const tried *t, gs_error *err)
{
	char msg[GS_ERROR_MSG_MAX], name[128];
	size_t o = 0, first = t->n;
	o += (size_t)snprintf(msg, sizeof msg, "no single cloud holds every workload (a plan "
	                                       "lives in one cloud):");
	for (size_t i = 0, k = 0; i < t->n && o < sizeof msg; i++) {
		if (!t->why[i])
			continue;
		first = first < t->n ? first : i;
		if (named(t->why[i], name, sizeof name))
			o += (size_t)snprintf(msg + o, sizeof msg - o, "%s %s cannot hold '%s'",
			                      k++ ? "," : "", t->v[i].cloud, name);
		else
			o += (size_t)snprintf(msg + o, sizeof msg - o, "%s %s cannot",
			                      k++ ? "," : "", t->v[i].cloud);
	}
	if (first < t->n && o < sizeof msg)
		snprintf(msg + o, sizeof msg - o, "; in %s: %s", t->v[first].cloud, t->why[first]);
	return gs_fail_at(err, GS_ENOFIT, s->file, 0, 0, "%s", msg);
}

static int cheapest_cloud(const gs_scenario *s, gs_plan_how how, gs_plan **out, gs_error *err)
{
	size_t nc = gs_catalog_cloud_count(s->cat);
	tried t = { calloc(nc ? nc : 1, sizeof *t.v), calloc(nc ? nc : 1, sizeof *t.why), nc, -1,
		    how.summary_only };
	gs_plan *best = NULL;
	int rc = t.v && t.why ? 0 : gs_fail_nomem(err);

	for (size_t i = 0; rc == 0 && i < nc; i++) {
		t.v[i].cloud = gs_catalog_cloud_at(s->cat, i);
		t.v[i].after_per_hour = -1;
		t.v[i].lower_bound_per_hour = -1;
	}
	if (rc == 0 && (rc = estimate_all(s, &t, err)) == 0)
		rc = plan_clouds(s, how, &t, &best, err);
	if (rc == 0 && !best)
		rc = none_holds(s, &t, err);
	/* A summary has no clouds and no bound (gs_plan_opts). */
	if (rc == 0 && !t.lazy && keep_tried(s, best, &t) < 0)
		rc = gs_fail_nomem(err);
	if (rc == 0 && !t.lazy)
		gs_plan_bound_set(best, t.bound);
	tried_free(&t);
	if (rc < 0) {
		gs_plan_free(best);
		return rc;
	}
	*out = best;
	return 0;
}

int gs_plan_make(const gs_scenario *s, const gs_plan_opts *opts, gs_plan **out,
                 gs_error *err)
{
	gs_plan_how how = { 0, GS_PLAN_TIME_LIMIT_MS / 1000.0, 0, NULL, 0, 0, 0 };
	int later = opts && (opts->texts_later || opts->summary_only);
	int all = strcmp(s->cloud, "all") == 0, rc;

	if (opts && (rc = gs_check_version(opts->version, GS_PLAN_OPTS_VERSION,
	                                   "gs_plan_opts", err)) < 0)
		return rc;
	if ((rc = gs_scenario_validate(s, err)) < 0)
		return rc;
	if (opts && opts->time_limit_ms > 0)
		how.seconds = opts->time_limit_ms / 1000.0;
	how.solo = opts && opts->threads == 1;
	how.cache = opts ? opts->cache : NULL;
	how.summary_only = opts && opts->summary_only;
	/* Of several clouds, each plan is finished before the next begins. */
	how.finish_later = opts && opts->finish_later && !all;
	if (how.cache && gs_plan_cache_age(how.cache) < 0)
		return gs_fail_nomem(err);
	/* Of several clouds, only the one kept is written. */
	how.texts_now = !later && !all;
	rc = all ? cheapest_cloud(s, how, out, err) : gs_plan_in(s, s->cloud, how, out, err);
	if (rc == 0 && !later && (rc = gs_plan_texts(*out, err)) < 0) {
		gs_plan_free(*out);
		*out = NULL;
	}
	return rc;
}
