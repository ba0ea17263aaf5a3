/* rng.h - the benchmarks' PRNG (xorshift64*): seeded, so generated fleets
 * and clusters are the same on every run and do not depend on libc. */
#ifndef GS_BENCH_RNG_H
#define GS_BENCH_RNG_H

#include <stdint.h>

typedef struct rng {
	uint64_t s;
} rng;

static inline uint64_t rng_next(rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * UINT64_C(2685821657736338717);
}

#endif
