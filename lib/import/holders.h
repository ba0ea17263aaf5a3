/*
 * holders.h - what each pod of an inventory holds, and where (internal):
 * the raw facts chargeback (lib/cost) splits a node's price by. These are
 * the pods' requests and claims as Kubernetes states them, not the
 * workload figures import derives from them, so a change in how import
 * measures workloads does not change who pays for what.
 *
 * Pods are numbered from 0: first the pods that request GPU resources
 * (as import counts them), then those that hold GPUs only through DRA
 * claims, and the claims reserved for no pod. Nodes are numbered as
 * gs_import_node_at numbers them.
 */
#ifndef GS_HOLDERS_H
#define GS_HOLDERS_H

#include "base/base.h"

/* One pod's hold on one node: `units` of a resource of which `per_device`
 * make one device (a GPU, or a MIG slice when mig is set). */
typedef struct ihold {
	size_t pod, node;
	int64_t units;
	int per_device;            /* time-slicing or MPS replicas; 1 */
	const gs_mig_profile *mig; /* NULL: the device is a whole GPU */
	int64_t memory_mib;        /* > 0: only this much of the device's memory
	                              (a DRA claim's consumedCapacity) */
	int consumers;             /* pods that share the hold equally (>= 1) */
	int dra;                   /* allocated through a ResourceClaim */
} gs_hold;

typedef struct gs_hold_pod {
	const char *ns, *name, *kind, *owner, *team;
	int measured;              /* it has activity samples of its own */
	double activity;           /* their mean, as a share of one whole GPU */
} gs_hold_pod;

/* The devices a node advertises: capacity of one nvidia.com resource. */
typedef struct gs_hold_dev {
	const char *resource;
	int64_t units;
	int per_device;
	const gs_mig_profile *mig;
} gs_hold_dev;

size_t gs_hold_count(const gs_inventory *inv);
const gs_hold *gs_hold_at(const gs_inventory *inv, size_t i);

size_t gs_hold_pod_count(const gs_inventory *inv);
void gs_hold_pod_at(const gs_inventory *inv, size_t i, gs_hold_pod *out);

size_t gs_hold_dev_count(const gs_inventory *inv, size_t node);
void gs_hold_dev_at(const gs_inventory *inv, size_t node, size_t i, gs_hold_dev *out);

/* The activity samples of pod i that its mean is of, in the order read:
 * how many, and *v (borrowed); 0 when it has none. */
size_t gs_hold_pod_samples(const gs_inventory *inv, size_t i, const double **v);

#endif
