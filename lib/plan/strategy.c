/* strategy.c - one row per sharing strategy (strategy.h). */
#include "plan/strategy.h"

static const gs_strategy_info rows[] = {
	{ GS_STRATEGY_DEDICATED, "dedicated", "dedicated", "s-ded", 0, 1, 1, "none" },
	{ GS_STRATEGY_TIME_SLICING, "time-slicing", "time-slicing", "s-ts", 1, 0, 0, "ts" },
	{ GS_STRATEGY_MPS, "mps", "MPS", "s-mps", 1, 1, 0, "mps" },
	{ GS_STRATEGY_MIG, "mig", "MIG", "s-mig", 1, 1, 1, "mig" },
	{ GS_STRATEGY_FRACTION, "fraction", "fraction", "s-frac", 1, 1, 0, "frac" },
};

static const char *const backends[] = { "none", "hami", "dra", "mps" }; /* as gs_backend */

_Static_assert(GS_ARRAY_LEN(rows) == GS_STRATEGY_COUNT, "one row per strategy");

static const gs_strategy_info unknown = {
	GS_STRATEGY_DEDICATED, "unknown", "unknown", "unused", 0, 0, 0, "unknown"
};

const gs_strategy_info *gs_strategy_info_get(gs_strategy s)
{
	for (size_t i = 0; i < GS_ARRAY_LEN(rows); i++)
		if (rows[i].strategy == s)
			return &rows[i];
	return &unknown;
}

const char *gs_strategy_name(gs_strategy s)
{
	return gs_strategy_info_get(s)->name;
}

const char *gs_backend_name(gs_backend b)
{
	return (unsigned)b < GS_ARRAY_LEN(backends) ? backends[b] : "unknown";
}

gs_ts_verdict gs_strategy_ts_check(const gs_workload *w)
{
	gs_ts_verdict v = { NULL, NULL, w->compute_ppm, 0 };
	switch (w->kind) {
	case GS_KIND_INFERENCE:
		v.subject = w->latency_critical ? "latency-critical inference"
		                                : "latency-tolerant inference";
		v.threshold_ppm = w->latency_critical ? GS_TS_LATENCY_HEAVY_PPM : 0;
		if (v.threshold_ppm && v.share_ppm >= v.threshold_ppm)
			v.rule = "latency-critical heavy inference";
		break;
	case GS_KIND_BATCH:
	case GS_KIND_TRAINING:
		v.subject = w->kind == GS_KIND_BATCH ? "batch jobs" : "training jobs";
		v.threshold_ppm = GS_TS_BATCH_HEAVY_PPM;
		if (v.share_ppm >= v.threshold_ppm)
			v.rule = "GPU-intensive batch";
		break;
	default:
		v.subject = w->kind == GS_KIND_NOTEBOOK ? "notebooks" : "CI jobs";
	}
	return v;
}

const char *gs_strategy_ts_rule(const gs_workload *w)
{
	return gs_strategy_ts_check(w).rule;
}
