/*
 * savings_frac.c - `savings --strategy fraction --backend B`: W workloads
 * that each hold a whole GPU today, as equal fractions of one GPU, each with
 * a hard memory cap and (HAMi, MPS) an SM % limit. As many fit one GPU as
 * every packing rule of the fraction backends allows (savings_frac.h):
 * the caps add up to at most the usable memory (caps are enforced, so no
 * headroom), the peaks to at most targetUtilization, the SM limits to at
 * most 100%, and the clients to at most the backend's maximum.
 */
#include <stdio.h>
#include <string.h>

#include "doc/fields.h"
#include "plan/savings_frac.h"
#include "plan/share_rule.h"
#include "plan/strategy.h"

/* One GPU of the instance and one fraction of it. */
typedef struct frac {
	const gs_gpu *gpu;
	gs_backend backend;
	int64_t usable_mib;
	int64_t cap_mib;  /* each fraction's memory cap */
	int max_clients;  /* 0: the backend sets none (DRA) */
	int limits_sm;    /* HAMi and MPS limit SM %; DRA time-slices */
} frac;

/* The rules, in the order they are checked and named. */
enum { R_MEMORY, R_COMPUTE, R_SM, R_CLIENTS, R_COUNT };
static const char *const rule_names[R_COUNT] = { "memory", "compute", "sm", "clients" };

/* A rule that does not bound: more than any GPU holds. */
#define NO_BOUND 1000000

/* MiB as GiB with two decimals, as the CLI prints memory. */
static char *gib(int64_t mib, char *buf, size_t size)
{
	int64_t h = (mib * 100 + 512) / 1024;
	snprintf(buf, size, "%lld.%02lld GiB", (long long)(h / 100), (long long)(h % 100));
	return buf;
}

/* One fraction's SM % limit: its compute share rounded up, at least 1. */
static int sm_percent(int64_t comp_ppm)
{
	int64_t p = gs_div_ceil(comp_ppm, 10000);
	return p < 1 ? 1 : (int)p;
}

static const char *label(gs_backend b)
{
	return b == GS_BACKEND_HAMI ? "HAMi" : b == GS_BACKEND_DRA ? "DRA" : "MPS";
}

static int read_cap(const gs_savings_opts *o, frac *f, gs_error *err)
{
	char cap[32], have[32];
	int64_t bytes;

	if (!o->memory) {
		if (!o->replicas)
			return gs_fail(err, GS_EINVAL,
			               "the fraction strategy needs each workload's memory or a "
			               "replica count");
		f->cap_mib = f->usable_mib / o->replicas;
		if (f->cap_mib < 1)
			return gs_fail(err, GS_ENOFIT, "%s has no usable memory to split",
			               f->gpu->name);
		return 0;
	}
	if (gs_parse_bytes(o->memory, &bytes, err) < 0)
		return GS_EINVAL;
	if (bytes <= 0)
		return gs_fail(err, GS_EINVAL, "memory must be above 0, not '%s'", o->memory);
	f->cap_mib = gs_div_ceil(bytes, INT64_C(1) << 20);
	if (f->cap_mib > f->usable_mib)
		return gs_fail(err, GS_ENOFIT, "a fraction capped at %s does not fit the %s "
		               "usable memory of one %s", gib(f->cap_mib, cap, sizeof cap),
		               gib(f->usable_mib, have, sizeof have), f->gpu->name);
	return 0;
}

static int setup(const gs_instance *in, const gs_savings_opts *o, frac *f, gs_error *err)
{
	f->gpu = in->gpu;
	f->backend = o->backend;
	f->usable_mib = in->gpu->usable_memory_mib;
	f->max_clients = 0;
	f->limits_sm = o->backend != GS_BACKEND_DRA;
	if (o->backend == GS_BACKEND_HAMI)
		f->max_clients = GS_HAMI_SPLIT_DEFAULT;
	else if (o->backend == GS_BACKEND_MPS)
		f->max_clients = in->gpu->mps_max_clients;
	else if (o->backend != GS_BACKEND_DRA)
		return gs_fail(err, GS_EINVAL, "the fraction strategy needs a backend: hami, dra "
		                               "or mps");
	if (o->backend == GS_BACKEND_MPS && !f->max_clients)
		return gs_fail(err, GS_EINVAL, "%s does not support MPS", in->gpu->name);
	if (o->replicas == 1)
		return gs_fail(err, GS_EINVAL, "replicas must be at least 2 to share a GPU");
	if (o->replicas < 0 || o->replicas > 1000)
		return gs_fail(err, GS_EINVAL, "replicas must be at most 1000");
	return read_cap(o, f, err);
}

/* How many fractions each rule leaves room for on one GPU. Without a given
 * compute, compute and SM % do not bound: the peak is assumed from the count. */
static void rooms(const frac *f, const gs_savings *s, int room[R_COUNT])
{
	int64_t mem = f->usable_mib / f->cap_mib;
	room[R_MEMORY] = mem > NO_BOUND ? NO_BOUND : (int)mem;
	room[R_COMPUTE] = s->compute_given ? gs_share_room(s->target_ppm, s->compute_ppm)
	                                   : NO_BOUND;
	room[R_SM] = s->compute_given && f->limits_sm ? 100 / sm_percent(s->compute_ppm)
	                                              : NO_BOUND;
	room[R_CLIENTS] = f->max_clients ? f->max_clients : NO_BOUND;
}

static int refuse_clients(const frac *f, int n, gs_error *err)
{
	if (f->backend == GS_BACKEND_HAMI)
		return gs_fail(err, GS_ENOFIT, "HAMi's deviceSplitCount (%d by default) allows at "
		               "most %d clients per GPU, not %d", GS_HAMI_SPLIT_DEFAULT,
		               f->max_clients, n);
	return gs_fail(err, GS_ENOFIT, "MPS on %s allows at most %d clients per GPU, not %d",
	               f->gpu->name, f->max_clients, n);
}

/* The error for n asked when rule r leaves room for fewer. */
static int refuse(const frac *f, const gs_savings *s, int r, int n, int room, gs_error *err)
{
	char a[32], b[32], c[32], t[16];
	int sm = sm_percent(s->compute_ppm);

	if (r == R_MEMORY)
		return gs_fail(err, GS_ENOFIT, "%d caps of %s need %s, over the %s usable memory "
		               "of one %s: room for %d", n, gib(f->cap_mib, a, sizeof a),
		               gib(f->cap_mib * n, b, sizeof b), gib(f->usable_mib, c, sizeof c),
		               f->gpu->name, room);
	if (r == R_COMPUTE && room == 0)
		return gs_fail(err, GS_ENOFIT, "targetUtilization %s leaves room for none of these "
		               "at %s to share a GPU", gs_share_pct(s->target_ppm, t, sizeof t),
		               gs_share_pct(s->compute_ppm, a, sizeof a));
	if (r == R_COMPUTE)
		return gs_fail(err, GS_ENOFIT, "%d of these at %s need %s of one GPU, over "
		               "targetUtilization %s: room for %d", n,
		               gs_share_pct(s->compute_ppm, a, sizeof a),
		               gs_share_pct(s->compute_ppm * n, b, sizeof b),
		               gs_share_pct(s->target_ppm, t, sizeof t), room);
	if (r == R_SM)
		return gs_fail(err, GS_ENOFIT, "%s limits each fraction to %d%% of the SMs (%s "
		               "rounded up): %d need %d%%, over 100%%: room for %d",
		               label(f->backend), sm, gs_share_pct(s->compute_ppm, a, sizeof a), n,
		               sm * n, room);
	return refuse_clients(f, n, err);
}

/* The sentence for a count that rule r set. */
static size_t say_bound(const frac *f, const gs_savings *s, int r, int n, char *buf,
                        size_t size)
{
	char a[32], b[32], c[32];

	if (r == R_MEMORY)
		return (size_t)snprintf(buf, size, "memory bounds it: %d %s of %s %s the %s usable "
		                        "memory of one %s; %d would need %s", n,
		                        n == 1 ? "cap" : "caps", gib(f->cap_mib, a, sizeof a),
		                        n == 1 ? "fits" : "fit", gib(f->usable_mib, b, sizeof b),
		                        f->gpu->name, n + 1,
		                        gib(f->cap_mib * (n + 1), c, sizeof c));
	if (r == R_COMPUTE) {
		size_t o = (size_t)snprintf(buf, size, "compute bounds it: ");
		gs_share_rule_text(buf + o, size - o, s->target_ppm, s->compute_ppm, n > 1 ? n : 2);
		return strlen(buf);
	}
	if (r == R_SM)
		return (size_t)snprintf(buf, size, "SM limits bound it: %s gives each %d%% of the "
		                        "SMs (%s rounded up), so %d fit in 100%%",
		                        label(f->backend), sm_percent(s->compute_ppm),
		                        gs_share_pct(s->compute_ppm, a, sizeof a), n);
	if (f->backend == GS_BACKEND_HAMI)
		return (size_t)snprintf(buf, size, "clients bound it: HAMi's deviceSplitCount "
		                        "(%d by default) allows %d per GPU", GS_HAMI_SPLIT_DEFAULT,
		                        n);
	return (size_t)snprintf(buf, size, "clients bound it: MPS on %s allows %d per GPU",
	                        f->gpu->name, n);
}

/* The sentence for n asked that every rule allows. */
static size_t say_asked(const frac *f, const gs_savings_opts *o, const gs_savings *s, int n,
                        char *buf, size_t size)
{
	char a[32], b[32], c[32];
	size_t len;

	gib(f->cap_mib, a, sizeof a);
	gib(f->usable_mib, c, sizeof c);
	if (!o->memory)
		return (size_t)snprintf(buf, size, "%d equal caps of %s split the %s usable memory "
		                        "of one %s", n, a, c, f->gpu->name);
	len = (size_t)snprintf(buf, size, "%d caps of %s use %s of the %s usable memory of one "
	                       "%s", n, a, gib(f->cap_mib * n, b, sizeof b), c, f->gpu->name);
	if (s->compute_given && len < size)
		len += (size_t)snprintf(buf + len, size - len, "; %d at %s use %s of one GPU", n,
		                        gs_share_pct(s->compute_ppm, a, sizeof a),
		                        gs_share_pct(s->compute_ppm * n, b, sizeof b));
	return len;
}

/* Without a given compute: the peak that n fractions on one GPU assume,
 * lowered to a whole SM % that n of can add up to 100% where it is limited. */
static void assume(const frac *f, gs_savings *s, int n, size_t len)
{
	char each[16], t[16];
	size_t size = sizeof s->rule;

	s->compute_ppm = s->target_ppm / n;
	if (f->limits_sm && (int64_t)sm_percent(s->compute_ppm) * n > 100) {
		s->compute_ppm = (int64_t)(100 / n) * 10000;
		if (len < size)
			snprintf(s->rule + len, size - len, "; assumes each workload peaks at or "
			         "below %s of a GPU: %s gives each of %d fractions 100 / %d = %d%% "
			         "of the SMs",
			         gs_share_pct(s->compute_ppm, each, sizeof each), label(f->backend),
			         n, n, 100 / n);
		return;
	}
	if (len < size)
		snprintf(s->rule + len, size - len, "; assumes each workload peaks at or below %s "
		         "of a GPU: targetUtilization %s / %d",
		         gs_share_pct(s->compute_ppm, each, sizeof each),
		         gs_share_pct(s->target_ppm, t, sizeof t), n);
}

/* The fewest any rule leaves room for, and the first rule that says so. */
static int tightest(const int room[R_COUNT], int *which)
{
	*which = R_MEMORY;
	for (int r = 1; r < R_COUNT; r++)
		if (room[r] < room[*which])
			*which = r;
	return room[*which];
}

/* What each of the n fractions gets and gives up. */
static void describe(const frac *f, gs_savings *s, int n)
{
	const gs_strategy_info *si = gs_strategy_info_get(GS_STRATEGY_FRACTION);

	s->replicas = n;
	s->backend = f->backend;
	s->max_clients = f->max_clients;
	s->memory_mib = f->cap_mib;
	s->thread_percent = f->limits_sm ? sm_percent(s->compute_ppm) : 0;
	/* DRA limits no compute: like time-slicing, 1/n of the time when all
	 * are busy; HAMi and MPS cap each at its SM %. */
	s->compute_permille = f->limits_sm ? s->thread_percent * 10
	                                   : (int)gs_div_round(1000, n);
	s->memory_isolated = si->memory_isolated;
	s->fault_isolated = si->fault_isolated;
}

int gs_savings_fraction(const gs_instance *in, const gs_savings_opts *o, gs_savings *s,
                        gs_error *err)
{
	int room[R_COUNT], which, n, rc;
	size_t len;
	frac f = { 0 };

	if ((rc = setup(in, o, &f, err)) < 0)
		return rc;
	rooms(&f, s, room);
	if (o->replicas) {
		n = o->replicas;
		for (int r = 0; r < R_COUNT; r++)
			if (n > room[r])
				return refuse(&f, s, r, n, room[r], err);
		s->bound_by = "asked";
		len = say_asked(&f, o, s, n, s->rule, sizeof s->rule);
	} else {
		n = tightest(room, &which);
		/* Alone, a workload may use all of a GPU: one is always allowed. */
		n = n < 1 ? 1 : n;
		s->bound_by = rule_names[which];
		len = say_bound(&f, s, which, n, s->rule, sizeof s->rule);
	}
	if (!s->compute_given && n == 1)
		s->compute_ppm = s->target_ppm;
	else if (!s->compute_given)
		assume(&f, s, n, len);
	s->replicas_asked = n;
	describe(&f, s, n);
	return 0;
}
