/* plan_nodes.h - buying instances for packed GPUs. */
#ifndef GS_PLAN_NODES_H
#define GS_PLAN_NODES_H

#include "plan/plan.h"

/* The cheapest way to buy at least n GPUs of one model: cost, then fewer
 * GPUs, then fewer instances. counts[i] is how many of insts[i]. */
typedef struct gs_buy {
	gs_micros cost;
	int gpus, instances;
} gs_buy;

typedef struct gs_shop {
	const gs_instance *insts[64];
	gs_micros price[64];
	int n;
	gs_buy *memo;       /* memo[x]: best way to get >= x GPUs */
	int *choice;     /* memo's last instance bought */
	int known;       /* memo is filled for 0..known */
} gs_shop;

int gs_shop_init(gs_shop *sh, const gs_scenario *s, const gs_gpu *g);
void gs_shop_free(gs_shop *sh);
/* Fills memo up to n; returns the best buy or cost -1 when no instance
 * sells this model. */
int gs_shop_best(gs_shop *sh, int n, gs_buy *out);
/* counts must hold sh->n ints. */
int gs_shop_counts(gs_shop *sh, int n, int *counts);

#endif
