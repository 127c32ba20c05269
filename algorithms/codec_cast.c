/*
 * The 16-bit casts on the wire: bfloat16 and IEEE binary16, both rounded to
 * nearest even (codec.h states their bounds). Branch-free bit arithmetic so
 * the loops vectorise; built with -O3 (Makefile). The binary16 conversions
 * are Marat Dukhan's (the FP16 library, MIT licence): the rounding is done
 * by one float addition in the default rounding mode.
 */
#include "algorithms/codec.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                             \
    !defined(__SANITIZE_ADDRESS__)
#define KERNEL __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define KERNEL
#endif

static inline uint32_t bits_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static inline float float_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint16_t bf16_of(float f)
{
	uint32_t b = bits_of(f);
	uint32_t rounded = (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;
	/* a NaN stays a NaN, quiet: rounding could carry its payload into infinity */
	uint32_t nan = (b >> 16) | 0x0040u;
	/* a mask, not a branch: the loop stays vectorised (4x faster here) */
	uint32_t is_nan = 0u - (uint32_t)((b & 0x7fffffffu) > 0x7f800000u);
	return (uint16_t)((nan & is_nan) | (rounded & ~is_nan));
}

uint16_t codec_fp16_from_float(float f)
{
	/* scaling by 2^112 then 2^-110 rounds away the bits binary16 cannot hold */
	float base = (fabsf(f) * 0x1.0p+112f) * 0x1.0p-110f;
	uint32_t w = bits_of(f), shl1_w = w + w, sign = w & 0x80000000u;
	uint32_t bias = shl1_w & 0xff000000u;
	bias = bias < 0x71000000u ? 0x71000000u : bias;
	base = float_of((bias >> 1) + 0x07800000u) + base;
	uint32_t b = bits_of(base);
	uint32_t nonsign = ((b >> 13) & 0x00007c00u) + (b & 0x00000fffu);
	return (uint16_t)((sign >> 16) | (shl1_w > 0xff000000u ? 0x7e00u : nonsign));
}

float codec_fp16_to_float(uint16_t h)
{
	uint32_t w = (uint32_t)h << 16, sign = w & 0x80000000u, two_w = w + w;
	float normal = float_of((two_w >> 4) + (0xe0u << 23)) * 0x1.0p-112f;
	float subnormal = float_of((two_w >> 17) | (126u << 23)) - 0.5f;
	uint32_t mag = two_w < (1u << 27) ? bits_of(subnormal) : bits_of(normal);
	return float_of(sign | mag);
}

KERNEL static void bf16_encode(uint16_t *restrict out, const float *restrict src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = bf16_of(src[i]);
}

KERNEL static void fp16_encode(uint16_t *restrict out, const float *restrict src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = codec_fp16_from_float(src[i]);
}

/* Two shapes, as dtype.c's kernels: in place (out == lhs) and out of place. */
#define DECODE(NAME, TO_FLOAT)                                                                     \
	KERNEL static void NAME##_set(float *restrict out, const uint16_t *restrict w, size_t n)   \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] = TO_FLOAT(w[i]);                                                   \
	}                                                                                          \
	KERNEL static void NAME##_acc(float *restrict out, const uint16_t *restrict w, size_t n)   \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] += TO_FLOAT(w[i]);                                                  \
	}                                                                                          \
	KERNEL static void NAME##_add(float *restrict out, const float *restrict lhs,              \
	                              const uint16_t *restrict w, size_t n)                        \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] = lhs[i] + TO_FLOAT(w[i]);                                          \
	}

static inline float bf16_to_float(uint16_t v)
{
	return float_of((uint32_t)v << 16);
}

DECODE(bf16_dec, bf16_to_float)
DECODE(fp16_dec, codec_fp16_to_float)

static size_t cast_bound(size_t count, const struct codec_cfg *cfg)
{
	(void)cfg;
	return 2 * count;
}

static size_t bf16_enc(void *restrict wire, const float *restrict src, size_t count,
                       const struct codec_cfg *cfg, uint64_t seed, void *restrict work)
{
	(void)cfg, (void)seed, (void)work;
	bf16_encode(wire, src, count);
	return 2 * count;
}

static size_t fp16_enc(void *restrict wire, const float *restrict src, size_t count,
                       const struct codec_cfg *cfg, uint64_t seed, void *restrict work)
{
	(void)cfg, (void)seed, (void)work;
	fp16_encode(wire, src, count);
	return 2 * count;
}

static int bf16_dec(float *out, const float *lhs, const void *wire, size_t bytes, size_t count)
{
	if (bytes != 2 * count)
		return -1;
	if (!lhs)
		bf16_dec_set(out, wire, count);
	else if (lhs == out)
		bf16_dec_acc(out, wire, count);
	else
		bf16_dec_add(out, lhs, wire, count);
	return 0;
}

static int fp16_dec(float *out, const float *lhs, const void *wire, size_t bytes, size_t count)
{
	if (bytes != 2 * count)
		return -1;
	if (!lhs)
		fp16_dec_set(out, wire, count);
	else if (lhs == out)
		fp16_dec_acc(out, wire, count);
	else
		fp16_dec_add(out, lhs, wire, count);
	return 0;
}

const struct ar_codec codec_bf16 = {"bf16", cast_bound, bf16_enc, bf16_dec};
const struct ar_codec codec_fp16 = {"fp16", cast_bound, fp16_enc, fp16_dec};
