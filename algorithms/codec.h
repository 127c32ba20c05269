/*
 * Codecs of the compressed all-reduce variants (issue 40): what a float32
 * segment becomes on the wire, and back.
 *
 * Pure: no MPI, no I/O. Each codec turns count float32 values into at most
 * wire_bound(count) bytes and back; the receiver adds the decoded values to
 * a float32 left operand (every hop accumulates in float32). Formats and
 * what they guarantee, per value x of one encoding (u: the unit roundoff):
 *
 *   bf16   bfloat16, round to nearest even: |err| <= 2^-8 |x| + 2^-134.
 *   fp16   IEEE binary16, round to nearest even: |err| <= 2^-11 |x| + 2^-25.
 *          Both for |x| up to the format's largest finite value (bf16
 *          3.39e38, fp16 65504); beyond it IEEE rounding gives infinity, which
 *          no bound covers. Infinities stay infinities, a NaN stays a NaN.
 *   int8   blocks of at most CODEC_INT8_BLOCK values: one byte holding the
 *          block's power-of-two scale s = 2^e, e = ceil(log2(M / 127)) for
 *          the block's largest magnitude M, clamped to [-133, 121], then one
 *          int8 per value, q = x / s rounded to nearest even (or
 *          stochastically: floor(x / s + U[0,1)), unbiased) and clamped to
 *          +-127. |err| <= s/2 (stochastic: < s); s < 2M/127 + 2^-133. A
 *          power-of-two scale makes decoding exact and re-encoding a decoded
 *          block give it back bit for bit, so every rank ends with the same
 *          values. A block holding an infinity or a NaN decodes to NaN
 *          throughout: a non-finite value is never hidden.
 *   topk   the k = ceil(ratio x count) values of largest magnitude (ties by
 *          position), as k uint32 indices then k float32 values: dropped
 *          values are lost (|err| = |x| <= the k-th largest magnitude), kept
 *          ones are exact. NaN and infinities count as largest, so are sent.
 *
 * The kernels are vectorised (-O3, Makefile; on x86-64 cloned for AVX2 and
 * AVX-512 like the reduction kernels of dtype.c).
 */
#ifndef COLLSCOPE_CODEC_H
#define COLLSCOPE_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CODEC_INT8_BLOCK   256
#define CODEC_INT8_EXP_MIN (-133)
#define CODEC_INT8_EXP_MAX 121
/* --topk-ratio: above one half the indices make top-k larger than the values it drops. */
#define CODEC_TOPK_RATIO_MAX     0.5
#define CODEC_TOPK_RATIO_DEFAULT 0.01

struct codec_cfg {
	double topk_ratio;   /* topk: the share of values sent, (0, 0.5] */
	bool stochastic;     /* int8: stochastic rounding instead of nearest even */
	bool error_feedback; /* topk: what was dropped is added to the next call's input */
};

struct ar_codec {
	const char *name;
	/* The most bytes encode writes for count values (>= 1 for count >= 1). */
	size_t (*wire_bound)(size_t count, const struct codec_cfg *cfg);
	/*
	 * src[0..count) into wire; returns the bytes written. work holds
	 * codec_work_bytes(count) bytes (topk's selection); seed draws the
	 * stochastic rounding, a different one per call and segment.
	 */
	size_t (*encode)(void *restrict wire, const float *restrict src, size_t count,
	                 const struct codec_cfg *cfg, uint64_t seed, void *restrict work);
	/*
	 * out[i] = lhs[i] + decoded[i] (lhs NULL: out[i] = decoded[i]); out may
	 * be lhs. -1 when wire_bytes is not what an encoding of count values
	 * writes (or names an index outside them), else 0.
	 */
	int (*decode)(float *out, const float *lhs, const void *wire, size_t wire_bytes,
	              size_t count);
};

extern const struct ar_codec codec_bf16, codec_fp16, codec_int8, codec_topk;

/* Scratch of an encode of count values (the largest codec's). */
size_t codec_work_bytes(size_t count);

/* The single values, exposed for the tests and the bound check. */
uint16_t codec_fp16_from_float(float f);
float codec_fp16_to_float(uint16_t h);
/* The block's scale exponent for largest magnitude m (a NaN or infinity: CODEC_INT8_EXP_MAX + 1).
 */
int codec_int8_exponent(float m);
/* topk's k for count values: ceil(ratio x count), at least 1 when count >= 1. */
size_t codec_topk_count(size_t count, double ratio);

/*
 * x - decoded(encode(x)) into resid[0..count): what error feedback carries
 * to the next call. tmp holds count floats. Returns decode's status.
 */
int codec_residual(const struct ar_codec *c, float *resid, const float *x, const void *wire,
                   size_t wire_bytes, size_t count, float *tmp);

/*
 * The codec kernels' loops, built for the widest vector unit the machine has
 * (GCC picks a clone at load time); one build for every x86-64. Not under
 * AddressSanitizer, whose instrumentation the clones' resolver runs before.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                             \
    !defined(__SANITIZE_ADDRESS__)
#define KERNEL __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define KERNEL
#endif

#endif
