/*
 * share_rule.h - how many replicas share one whole GPU under
 * targetUtilization: the one rule that `plan` packs by (pack_share.c) and
 * `savings` counts by (savings.c), and the sentences that name it, so that
 * both commands state the same figure the same way (share_rule.c).
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_SHARE_RULE_H
#define GS_PLAN_SHARE_RULE_H

#include "base/base.h"

/* Replicas whose peak compute adds up to sum_ppm may share a whole GPU
 * when the sum is at most the target. (A replica alone may use all of
 * it: the target caps sharing, not a GPU.) */
static inline int gs_share_within(int64_t sum_ppm, int64_t target_ppm)
{
	return sum_ppm <= target_ppm;
}

/* How many replicas of comp_ppm each one GPU's target leaves room for
 * (0 when one alone is over it); a large number when comp_ppm is 0. */
int gs_share_room(int64_t target_ppm, int64_t comp_ppm);
/* The targetUtilization, in whole percent (as ppm), that fits n replicas
 * of comp_ppm together; above GS_PPM when none does. */
int64_t gs_share_target_for(int n, int64_t comp_ppm);

/* A share in ppm as a percentage with at most two decimals, rounded down
 * and without trailing zeros: "22.5%", "90%". */
char *gs_share_pct(int64_t ppm, char *buf, size_t size);

/* What the target does to `want` replicas of comp_ppm on one GPU: "4 of
 * these at 20% use 80% of one GPU, within targetUtilization 90%", or
 * "targetUtilization 90% leaves room for 3 of these on one GPU; set
 * targetUtilization: 100% to fit 4". */
void gs_share_rule_text(char *buf, size_t size, int64_t target_ppm, int64_t comp_ppm,
                        int want);
/* What `savings` assumes when no compute is given: "assumes each workload
 * peaks at or below 22.5% of a GPU: targetUtilization 90% / 4 replicas". */
void gs_share_assume_text(char *buf, size_t size, int64_t target_ppm, int replicas);

#endif
