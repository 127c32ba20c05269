/*
 * Where a compressed variant starts to pay (issue 40, item 4): its p50
 * against an exact variant's (the ring's) at the sizes both measured. Pure:
 * no MPI, no I/O.
 */
#ifndef COLLSCOPE_CROSSOVER_H
#define COLLSCOPE_CROSSOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One measured point: the variant's index, the size, its p50. */
struct crossover_point {
	int variant;
	uint64_t bytes;
	double p50_us;
};

struct crossover {
	int sizes;             /* sizes both measured (0: nothing to compare) */
	uint64_t from_bytes;   /* the smallest size from which v is faster at every larger one; 0:
	                          not faster at the largest */
	uint64_t max_bytes;    /* the largest size both measured */
	double speedup_at_max; /* the reference's p50 / v's p50 there */
};

/*
 * v against ref over p[0..n) (any order; a size measured twice by a variant
 * counts its last point). A point without a positive p50 is left out.
 * Returns 0, or -1 when out of memory.
 */
int crossover_find(const struct crossover_point *p, size_t n, int v, int ref,
                   struct crossover *out);

#endif
