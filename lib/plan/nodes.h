/*
 * nodes.h - packed GPUs placed on bought instances: the nodes that the
 * plan's records are built from. nodeset.c holds the data, plan_nodes.c
 * buys by GPU count, nodes_host.c where replicas request host CPU or RAM.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_NODES_H
#define GS_PLAN_NODES_H

#include "plan/pack.h"
#include "plan/shop.h"

/* One node being built: an instance and the packed GPUs on it. */
typedef struct gs_bnode {
	const gs_instance *inst;
	gs_micros price;
	gs_strategy strategy;  /* one sharing configuration per node */
	int k;                 /* MPS clients per GPU */
	const gs_pgpu **gpus;
	int n;
	int *spread_wl;        /* workloads with spread: node on it */
	int nsw;
	int64_t cpu, mem;      /* host CPU (millicores) and RAM (bytes) its
	                          replicas request */
	/* Its GPUs' gs_robust_mig_masks, or'ed; mig_slow when one had none. */
	uint64_t mig_twice, mig_asked;
	int mig_slow;
} gs_bnode;

/* What placing one GPU asks of every node it tries, found once. */
typedef struct gs_pgpu_facts {
	int spreads;           /* some replica keeps its workload to distinct nodes */
	uint64_t mig_twice, mig_asked;
	int mig_slow;
} gs_pgpu_facts;

/* GPUs whose replicas' host requests made the plan buy more than their
 * GPU count alone would: what the count would have cost, and what was
 * bought. */
typedef struct gs_host_note {
	const gs_gpu *model;
	int gpus;           /* of the model and node kind */
	int moved;          /* of them, on other instance types than `small` */
	gs_micros by_count, bought;
	const gs_instance *small;   /* the count's choice that was too small */
} gs_host_note;

typedef struct gs_nodeset {
	gs_bnode *v;
	int n, cap;
	gs_host_note *notes;
	int nnotes, capnotes;
	/* The nodes' GPU arrays, cut from blocks that never move (v does, as
	 * it grows) and freed with the set. */
	void **blocks;
	int nblocks;
	size_t capblocks;
	char *room;
	size_t left;
} gs_nodeset;

/* Buys instances for the GPUs of one model and one node kind, keeping
 * replicas of spread: node workloads on distinct nodes, and each node's
 * host requests within what it leaves its pods. -2 when some GPU's host
 * requests fit no instance of the shop. */
int gs_nodes_buy(const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus, int n,
                 gs_strategy st, int k, gs_nodeset *out);
/* The same for GPUs some of whose replicas request host CPU or RAM, or
 * some of which are replicas of several GPUs (span above 1). */
int gs_nodes_buy_host(const gs_planner *pl, gs_shop *sh, const gs_pgpu **gpus, int n,
                      gs_strategy st, int k, gs_nodeset *out);

/* ---- the nodes' data (nodeset.c) ----------------------------------------- */

void gs_nodeset_release(gs_nodeset *ns);
/* A new empty node at the end of ns; NULL when out of memory. */
gs_bnode *gs_bnode_new(gs_nodeset *ns, const gs_instance *in, gs_micros price,
                       gs_strategy st, int k);
/* g's facts for gs_bnode_clash. */
void gs_pgpu_facts_of(const gs_planner *pl, const gs_pgpu *g, gs_pgpu_facts *f);
/* Would g (its facts f) put two replicas of a spread: node workload on b,
 * or break a rule of the device plugin or robust placement for a node? */
int gs_bnode_clash(const gs_planner *pl, const gs_bnode *b, const gs_pgpu *g,
                   const gs_pgpu_facts *f);
/* Puts g (its facts f) on b (which has a free slot, or as many as g's
 * span; its GPUs then hold g that many times in a row). */
int gs_bnode_take(const gs_planner *pl, gs_bnode *b, const gs_pgpu *g,
                  const gs_pgpu_facts *f);
/* The shop's best buy of n GPUs as empty nodes, big instances first. */
int gs_nodeset_buy_best(gs_shop *sh, int n, gs_strategy st, int k, gs_nodeset *out);
/* Drops the nodes from `first` on that hold no GPU. */
void gs_nodeset_drop_empty(gs_nodeset *out, int first);
/* Each node from `first` on becomes the cheapest instance type of sh that
 * still holds it, where that costs less: its GPUs, its host requests and
 * (where it mixes spans) all its workloads (robust_span.c). -1 when out of
 * memory. */
int gs_nodeset_downsize(const gs_planner *pl, const gs_shop *sh, gs_nodeset *out,
                        int first);
/* Node j, when partly empty, of GPUs of one GPU each without host
 * requests, becomes the shop's best buy of its GPU count where that costs
 * less: its GPUs go on nodes appended to out, and j is left empty for the
 * caller to drop. Any part of such a node holds where the node did:
 * spread keeps to distinct nodes, and a worst case over fewer replicas is
 * no larger. -1 when out of memory. */
int gs_nodeset_split(const gs_planner *pl, gs_shop *sh, gs_nodeset *out, int j);

#endif
