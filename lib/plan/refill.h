/*
 * refill.h - the repair after packing (refill.c): the whole GPUs it may
 * empty or fill, their room, and the joins it makes and undoes
 * (refill_spots.c). refill.c empties GPUs one at a time (pinned) and
 * directs refill_whole.c, which moves workloads whole (robust). Only
 * lib/plan/refill*.c include it.
 */
#ifndef GS_PLAN_REFILL_H
#define GS_PLAN_REFILL_H

#include <stdint.h>

#include "plan/planner.h"

/* A whole GPU of the packing, as the refill sees it. */
typedef struct gs_spot {
	int m, i;      /* b->packs[m].gpus[i] */
	int64_t fill;  /* the larger of its memory and compute shares, ppm
	                * (below 2^32: shares of one GPU) */
	int tenant;
	int gone;      /* emptied */
	int touched;   /* its group changed */
	int mps_full;  /* its group refuses any replica MPS would seat
	                * (gs_rule_refuses_mps), until it changes */
	/* The room its sums leave, kept here so that a scan of the tenant's
	 * GPUs reads one array: usable bytes, and ppm below the target. */
	int64_t free_mem, free_comp;
} gs_spot;

/* A group's figures before a replica joined it, to put back. */
typedef struct gs_spot_saved {
	int s, n, no_ts;
	int64_t mem, comp, headroom;
} gs_spot_saved;

/* The most room among spots (refill_room.c): node i's largest free
 * memory (MiB, rounded up) and largest free compute (ppm), apart, over
 * the spots below it; spot s is leaf size + s, node i's children 2i and
 * 2i + 1. Four bytes each: at a million replicas the tree is 16 MiB. */
typedef struct gs_room_tree {
	int32_t *mem, *comp;
	size_t size;
} gs_room_tree;

typedef struct gs_filler {
	const gs_planner *pl;
	const gs_choice *c; /* whose candidates say where a workload may go */
	gs_built *b;
	gs_spot *v;
	int n;
	/* The spots are in lists, each fullest first: list l's are v[at[l] ..
	 * at[l + 1]), l the tenant, or with by_model (a workload moves to one
	 * model at a time) tenant x models + model. */
	int *at;
	size_t lists;
	int by_model;
	long checks;    /* rule checks left */
	long scans;     /* GPUs looked at left */
	int look_past;  /* a spot the tree passes over is a look too */
	gs_room_tree tree;  /* over v, once the lists are made */
	gs_spot_saved *log; /* the joins made, to undo */
	int nlog;
	size_t caplog;
} gs_filler;

/* The GPU of spot s. */
static inline gs_pgpu *gs_spot_gpu(const gs_filler *f, int s)
{
	return &f->b->packs[f->v[s].m].gpus[f->v[s].i];
}

/* The spots of f->b (f->pl, f->c, f->b and f->by_model set) in their
 * lists (refill_spots.c); -1 when out of memory. */
int gs_spots_init(gs_filler *f);
/* Whether spot s is gone; kept in the tree. */
void gs_spot_set_gone(gs_filler *f, int s, int gone);
/* Undoes the joins log[from..nlog), last first. */
void gs_spot_put_back(gs_filler *f, int from);
/* Replica r joins spot s, logged; -1 when out of memory. */
int gs_spot_join(gs_filler *f, int s, int r);
/* A spot of r's tenant, not gone, of a model in `only` (bits of model
 * indices) and among its workload's candidates, that r may join, fullest
 * first (by model first, with by_model); -1: none (or the checks ran
 * out). */
int gs_spot_host(gs_filler *f, int r, uint64_t only);
/* The tree over f->v as the spots stand, and its release (both
 * refill_room.c); gs_room_init returns -1 when out of memory. */
int gs_room_init(gs_filler *f);
void gs_room_free(gs_filler *f);
/* Spot s's room or whether it is gone changed: the tree learns it. */
void gs_room_set(gs_filler *f, int s);
/* The first spot from s on, before end, that the tree does not show to
 * lack `bytes` or `comp` ppm: every spot before the one returned lacks
 * one or is gone; end when none. */
int gs_room_next(const gs_filler *f, int s, int end, int64_t bytes, int64_t comp);
/* Robust placement: moves whole workloads whose every replica sits alone
 * with its own onto other models' GPUs of their tenant (refill_whole.c);
 * how many GPUs it emptied, or -1 when out of memory. */
int gs_refill_workloads(gs_filler *f);

#endif
