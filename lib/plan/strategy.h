/*
 * strategy.h - what each sharing strategy is, stated once: its names, the
 * report's colour, whether it shares a GPU, what it isolates, and the
 * study's rules for when a workload must not be time-sliced.
 *
 * Not the packer's header: the report, the emitters and the advisor read
 * it too. Adding a strategy is one row in strategy.c.
 */
#ifndef GS_STRATEGY_H
#define GS_STRATEGY_H

#include "base/base.h"

typedef struct gs_strategy_info {
	gs_strategy strategy;
	const char *name;     /* the JSON contract's name: "mps" */
	const char *label;    /* for people: "MPS" */
	const char *css;      /* the report's colour class: "s-mps" */
	int shares;           /* several replicas may hold one GPU */
	int memory_isolated;  /* each replica's memory is capped */
	int fault_isolated;   /* one replica's fault spares the others */
	const char *config;   /* in device-plugin config names: "-mps4" */
} gs_strategy_info;

/* How many strategies gs_strategy has: arrays indexed by strategy. */
#define GS_STRATEGY_COUNT 5

/* The row of s; an unknown value gets a row named "unknown". Static. */
const gs_strategy_info *gs_strategy_info_get(gs_strategy s);

/* The benchmark study's rules (KubeCon NA 2024, "Which GPU Sharing
 * Strategy Is Right for You?"): time-slicing degrades latency-critical
 * inference at or above this share of a GPU, and GPU-intensive batch or
 * training at or above this one. */
#define GS_TS_LATENCY_HEAVY_PPM 500000
#define GS_TS_BATCH_HEAVY_PPM 700000

/* The study's rule that rules time-slicing out for w ("latency-critical
 * heavy inference", "GPU-intensive batch"), or NULL. Static text. */
const char *gs_strategy_ts_rule(const gs_workload *w);

/* The same rules with what they compared, so that a text about w says
 * what the rule said: `rule` as above (NULL when time-slicing is allowed),
 * `subject` what w is to the rules ("latency-critical inference", "batch
 * jobs", "notebooks"), `share_ppm` its compute as written (of measuredOn),
 * and `threshold_ppm` the rule's threshold, 0 where no rule applies to
 * its kind and latency. gs_strategy_ts_rule is this verdict's rule. */
typedef struct gs_ts_verdict {
	const char *rule;
	const char *subject;
	int64_t share_ppm;
	int64_t threshold_ppm;
} gs_ts_verdict;

gs_ts_verdict gs_strategy_ts_check(const gs_workload *w);

#endif
