/*
 * offer.h - what one GPU of a model offers the replicas placed on it: the
 * one rule for how much device memory they may plan to hold (offer.c).
 * The packer, the model choice, the workload checks and the plan's records
 * all ask it, so they cannot disagree.
 */
#ifndef GS_CATALOG_OFFER_H
#define GS_CATALOG_OFFER_H

#include "base/base.h"

/* Bytes of device memory that one GPU of model g offers the replicas
 * placed on it, or one MIG instance of profile p when p is not NULL, used
 * under strategy st:
 *  - alone (GS_STRATEGY_DEDICATED) or under MPS, whose per-client limits
 *    the driver enforces: all of its usable memory, that is what the
 *    driver reports less its own reserve (a MIG instance: the profile's
 *    memory);
 *  - shared by time-slicing, which isolates no memory: that less the
 *    share headroom_ppm, so that a replica that grows past its gpuMemory
 *    does not at once take what the others hold.
 * Σ gpuMemory of the replicas must be at most this. */
int64_t gs_memory_offer(const gs_gpu *g, const gs_mig_profile *p, gs_strategy st,
                        int64_t headroom_ppm);

/* The usable memory of a GPU of model g in bytes: the offer to one replica. */
int64_t gs_usable_bytes(const gs_gpu *g);

#endif
