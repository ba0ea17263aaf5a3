/*
 * radix.c - the packer's radix sort (radix.h).
 */
#include <string.h>

#include "plan/radix.h"

void gs_radix_sort(gs_keyed *v, gs_keyed *tmp, size_t n)
{
	uint64_t any = 0, all = ~(uint64_t)0;
	for (size_t i = 0; i < n; i++) {
		any |= v[i].key;
		all &= v[i].key;
	}
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };
		if (!(((any ^ all) >> shift) & 0xff))
			continue;
		for (size_t i = 0; i < n; i++)
			count[((v[i].key >> shift) & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i].key >> shift) & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof *v);
	}
}
