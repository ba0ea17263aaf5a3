/* strategy.c - one row per sharing strategy (strategy.h). */
#include "plan/strategy.h"

static const gs_strategy_info rows[] = {
	{ GS_STRATEGY_DEDICATED, "dedicated", "dedicated", "s-ded", 0, 1, 1, "none" },
	{ GS_STRATEGY_TIME_SLICING, "time-slicing", "time-slicing", "s-ts", 1, 0, 0, "ts" },
	{ GS_STRATEGY_MPS, "mps", "MPS", "s-mps", 1, 1, 0, "mps" },
	{ GS_STRATEGY_MIG, "mig", "MIG", "s-mig", 1, 1, 1, "mig" },
};

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

const char *gs_strategy_ts_rule(const gs_workload *w)
{
	if (w->kind == GS_KIND_INFERENCE && w->latency_critical &&
	    w->compute_ppm >= GS_TS_LATENCY_HEAVY_PPM)
		return "latency-critical heavy inference";
	if ((w->kind == GS_KIND_BATCH || w->kind == GS_KIND_TRAINING) &&
	    w->compute_ppm >= GS_TS_BATCH_HEAVY_PPM)
		return "GPU-intensive batch";
	return NULL;
}
