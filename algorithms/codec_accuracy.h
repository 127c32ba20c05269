/*
 * What a compressed all-reduce costs in accuracy (issue 40, item 3): its
 * inputs, the bound its format guarantees per element, and the figures.
 *
 * Inputs are gradient-like: heavy-tailed (a ratio of uniforms, |t| <= 10),
 * 1 in 64 exactly zero, five scales 10^-3 .. 10 cycling every 1024
 * elements, seeded by (rank, index): deterministic, and any rank can make
 * any other's. Every |x| <= 200, so a sum of up to 327 ranks stays inside
 * binary16's range.
 *
 * The bound of element i, for rank j's input x_j (its residual added under
 * error feedback), X = sum_j x_j in float64 and R the result:
 *   E1 = sum_j share_j(i), what the way to the chunk's owner may cost:
 *     bf16/fp16  u |x_j| + eta            (codec.h's u and eta)
 *     int8       W_j / 127 + 2^-134       (stochastic: 2 W_j / 127 + 2^-133)
 *     topk       |x_j|
 *   each plus n 2^-23 |x_j| for float32's accumulation over n ranks; W_j is
 *   the largest |x_j| within 255 elements of i, which covers every block of
 *   256 holding i however the messages cut the buffer.
 *   E2, what the way back may cost:
 *     bf16/fp16  u (|X| + E1) + eta
 *     int8       W_R / 126 + 2^-134       (stochastic: 2 W_R / 125 + 2^-133)
 *     topk       |X| + E1 where R is 0 (dropped), else 0 (sent exactly)
 *   (int8: the block's largest |sum| M has s/2 < M/127 and the rounded M_R
 *   >= M - s/2, so s/2 < M_R/126.) |R - X| beyond E1 + E2 is wrong.
 * Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_CODEC_ACCURACY_H
#define COLLSCOPE_CODEC_ACCURACY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algorithms/codec.h"

/* Elements per slice of the check: a multiple of the int8 block. */
#define CODEC_CHECK_SLICE ((size_t)65536)

struct codec_accuracy {
	double max_abs_error;
	double sum_sq_error, sum_sq_exact; /* relative L2 error = sqrt of their ratio */
	uint64_t beyond, checked;          /* elements outside the bound, and checked */
	bool have_first;                   /* the first element beyond: */
	size_t first_index;
	float first_got;
	double first_expected, first_bound;
};

/* rank's gradient-like input, x[0..count). */
void codec_input_fill(float *x, int rank, size_t count);

/*
 * share[0..n) for x[at..at+n) of a buffer of total elements (n <= CODEC_CHECK_SLICE,
 * at a multiple of CODEC_INT8_BLOCK): this rank's part of E1.
 */
void codec_bound_share(const struct ar_codec *c, const struct codec_cfg *cfg, int nranks,
                       const float *x, size_t total, size_t at, size_t n, double *share);

/*
 * Check got[at..at+n) against exact[0..n) with e1[0..n) the sum of the
 * ranks' shares; accumulated into *acc.
 */
void codec_check_slice(const struct ar_codec *c, const struct codec_cfg *cfg, const float *got,
                       size_t total, size_t at, size_t n, const double *exact, const double *e1,
                       struct codec_accuracy *acc);

/* sqrt(sum_sq_error / sum_sq_exact): 0 for an exact result, NAN when the sum is all zero. */
double codec_rel_l2(const struct codec_accuracy *acc);

#endif
