/*
 * Input patterns and their closed-form expected results.
 *
 * Every rank's input is a small integer (|v| <= 6) chosen per operator so
 * that every partial result of any summation order is an integer that every
 * dtype (bfloat16 included: 8 significant bits) holds exactly: past 64 ranks
 * only one rank in ceil(nranks / 64) contributes a non-zero (sum) or
 * non-one (prod) value at each index. So results are compared exactly, bit
 * for bit, and the expected value depends only on (op, nranks, index mod a
 * short period).
 * Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_PATTERN_H
#define COLLSCOPE_PATTERN_H

#include <stdint.h>

#include "algorithms/dtype.h"
#include "algorithms/variant.h"

/* The integer rank contributes at element index for op. */
int64_t ar_pattern_value(enum ar_op op, int rank, int nranks, size_t index);
/* The exact all-reduce of ar_pattern_value over ranks 0..nranks-1. */
int64_t ar_pattern_expected(enum ar_op op, int nranks, size_t index);

/* Fill buf[0..count) with rank's input. */
void ar_pattern_fill(void *buf, enum ar_dtype t, enum ar_op op, int rank, int nranks, size_t count);

struct ar_mismatch {
	size_t index;
	uint64_t got_bits, expected_bits; /* raw element bits, zero-extended */
	double got, expected;
};

/*
 * Count the elements of buf that differ from the expected result; the first
 * one is described in *first (when non-NULL and the count is not 0).
 * SIZE_MAX when the small table of expected values cannot be allocated.
 */
size_t ar_pattern_check(const void *buf, enum ar_dtype t, enum ar_op op, int nranks, size_t count,
                        struct ar_mismatch *first);

/*
 * The check of a collective (variant.h): the all-reduce's as above; a
 * reduce-scatter's on rank's block alone (sched_part_offset's balanced
 * split), against the all-reduce's values at those indices; an all-gather's
 * on every element, against the value of the rank whose block holds it
 * (ar_pattern_value). first->index is into the whole buffer.
 */
size_t ar_pattern_check_collective(const void *buf, enum ar_dtype t, enum ar_op op, int rank,
                                   int nranks, size_t count, enum ar_collective c,
                                   struct ar_mismatch *first);

#endif
