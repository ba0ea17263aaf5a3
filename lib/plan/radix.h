/*
 * radix.h - a stable byte-wise radix sort of (key, value) pairs, for the
 * packer's hot sorts: thousands of GPUs or instances per packing tried,
 * where a comparator call per step cost more than the packing.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_RADIX_H
#define GS_PLAN_RADIX_H

#include <stddef.h>
#include <stdint.h>

typedef struct gs_keyed {
	uint64_t key;
	size_t val;
} gs_keyed;

/* Sorts v[0..n) by key, keeping the order of equal keys, a byte at a time
 * through tmp[0..n), skipping the bytes every key shares. */
void gs_radix_sort(gs_keyed *v, gs_keyed *tmp, size_t n);

#endif
