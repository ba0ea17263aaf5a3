/*
 * shop.h - buying instances: the cheapest set of instances that gives n
 * GPUs of one model (shop.c).
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_SHOP_H
#define GS_PLAN_SHOP_H

#include "base/base.h"

/* At most this many instance types sell one model. */
#define GS_SHOP_MAX 64

/* A way to buy at least n GPUs of one model; the best has the lowest cost,
 * then fewer GPUs, then fewer instances. */
typedef struct gs_buy {
	gs_micros cost;
	int gpus, instances;
} gs_buy;

/* The instances that sell one model, with a memo of the best buys. */
typedef struct gs_shop {
	const gs_instance *insts[GS_SHOP_MAX];
	gs_micros price[GS_SHOP_MAX];
	int64_t cpu[GS_SHOP_MAX], mem[GS_SHOP_MAX]; /* allocatable (host.h) */
	int n;
	gs_buy *memo;    /* memo[x]: best way to get >= x GPUs */
	int *choice;     /* memo's last instance bought */
	int known;       /* memo is filled for 0..known */
	/* The shop this one copies (gs_shop_copy), NULL when it is none: the
	 * planner's memo names a shop by its original, so that a copy on
	 * another thread finds what the original computed (fork.h). */
	const struct gs_shop *origin;
} gs_shop;

/* The instances of model g with CPUs of `arch` that scenario s may buy
 * in `cloud`, at its prices. */
int gs_shop_init(gs_shop *sh, const gs_scenario *s, const char *cloud, const gs_gpu *g,
                 gs_arch arch);
void gs_shop_release(gs_shop *sh);
/* to becomes a copy of from with a memo of its own; -1 when out of
 * memory (to is then empty). Release each. */
int gs_shop_copy(gs_shop *to, const gs_shop *from);
/* What names shop sh in a memo key: its original's address. */
int64_t gs_shop_key(const gs_shop *sh);
/* Fills memo up to n; returns the best buy or cost -1 when no instance
 * sells this model. */
int gs_shop_best(gs_shop *sh, int n, gs_buy *out);
/* How many of each instance the best buy of n GPUs takes: counts[i] of
 * insts[i]; counts must hold sh->n ints. */
int gs_shop_counts(gs_shop *sh, int n, int *counts);

#endif
