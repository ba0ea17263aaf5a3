/* plan_nodes.h - buying instances for packed GPUs. */
#ifndef GS_PLAN_NODES_H
#define GS_PLAN_NODES_H

#include "plan/plan.h"

/* The cheapest way to buy at least n GPUs of one model: cost, then fewer
 * GPUs, then fewer instances. counts[i] is how many of insts[i]. */
typedef struct buy {
	gs_micros cost;
	int gpus, instances;
} buy;

typedef struct shop {
	const gs_instance *insts[64];
	gs_micros price[64];
	int n;
	buy *memo;       /* memo[x]: best way to get >= x GPUs */
	int *choice;     /* memo's last instance bought */
	int known;       /* memo is filled for 0..known */
} shop;

int shop_init(shop *sh, const gs_scenario *s, const gs_gpu *g);
void shop_free(shop *sh);
/* Fills memo up to n; returns the best buy or cost -1 when no instance
 * sells this model. */
int shop_best(shop *sh, int n, buy *out);
/* counts must hold sh->n ints. */
int shop_counts(shop *sh, int n, int *counts);

#endif
