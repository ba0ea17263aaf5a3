/*
 * savings_frac.h - `savings --strategy fraction`: how many equal fractions
 * (a hard memory cap each, and an SM % limit where the backend enforces
 * one) fit one whole GPU, by the packing rules of the fraction backends.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_SAVINGS_FRAC_H
#define GS_PLAN_SAVINGS_FRAC_H

#include "base/base.h"

/* The HAMi device plugin's default deviceSplitCount: clients per GPU. */
#define GS_HAMI_SPLIT_DEFAULT 10

/* Fills s->replicas, replicas_asked, the rule and what each workload gives
 * up, for o->strategy == GS_STRATEGY_FRACTION on one GPU of `in`. Expects
 * s->target_ppm, compute_ppm and compute_given set (read_rule). */
int gs_savings_fraction(const gs_instance *in, const gs_savings_opts *o, gs_savings *s,
                        gs_error *err);

#endif
