/*
 * A set of unordered pairs of ranks {a, b}, a != b: the pairs a re-test
 * measures again (retest.h, detect.h). It grows with what it holds: a
 * flag per possible pair was nranks^2 bytes on rank 0 (67 MB at 8,192 ranks)
 * for the few hundred pairs a re-test measures. Open addressing with linear
 * probing; a pair is the key (min << 32 | max) + 1, so 0 marks a free slot.
 * Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_PAIR_SET_H
#define COLLSCOPE_PAIR_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pair_set {
	uint64_t *slots; /* cap of them, a power of two (0 before the first add) */
	size_t cap, count;
};

void pair_set_init(struct pair_set *s);
void pair_set_release(struct pair_set *s);
/* Empties s, keeping its memory. */
void pair_set_clear(struct pair_set *s);
/* Adds {a, b}: 1 when new, 0 when held already (or a == b, or one is negative), -1 no memory. */
int pair_set_add(struct pair_set *s, int a, int b);
bool pair_set_has(const struct pair_set *s, int a, int b);
/* Takes {a, b} out; whether it was in. */
bool pair_set_remove(struct pair_set *s, int a, int b);
/*
 * The pairs into out[0 .. count - 1] (room for s->count), ordered by their
 * smaller rank, then the larger, each as {min, max}; returns the count.
 */
size_t pair_set_sorted(const struct pair_set *s, int (*out)[2]);

#endif
