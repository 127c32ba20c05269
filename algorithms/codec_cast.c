/*
 * The 16-bit casts on the wire: bfloat16 and IEEE binary16, both rounded to
 * nearest even (codec.h states their bounds). Branch-free bit arithmetic so
 * the loops vectorise; built with -O3 (Makefile). Both rely on the default
 * rounding mode (to nearest even), as the float additions that round do.
 */
#include "algorithms/codec.h"

#include <math.h>
#include <string.h>

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
	uint32_t x = bits_of(f), sign = (x >> 16) & 0x8000u, mag = x & 0x7fffffffu;
	/* binary16's normal range: the exponent rebased from 127 to 15 (112 << 23 less), the
	 * 13 mantissa bits it drops rounded to nearest even; a carry steps the exponent */
	uint32_t rebased = mag - (112u << 23);
	uint32_t normal = (rebased + 0x0fffu + ((rebased >> 13) & 1u)) >> 13;
	/* below 2^-14, units of 2^-24: adding 0.5, whose last bit is worth 2^-24, makes the
	 * float addition itself round the value to a whole number of them, to nearest even */
	uint32_t tiny = bits_of(float_of(mag) + 0.5f) - bits_of(0.5f);
	/* 65520 and up round to infinity; a NaN stays a quiet NaN */
	uint32_t out = mag > 0x7f800000u    ? 0x7e00u
	               : mag >= 0x477ff000u ? 0x7c00u
	               : mag >= 0x38800000u ? normal
	                                    : tiny;
	return (uint16_t)(sign | out);
}

float codec_fp16_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, frac = h & 0x3ffu;
	/* normal: the exponent rebased from 15 to 127; all ones: infinity or NaN, payload kept;
	 * zero exponent: frac units of 2^-24, exact in a float */
	uint32_t normal = ((exp + 112u) << 23) | (frac << 13);
	uint32_t special = 0x7f800000u | (frac << 13);
	uint32_t small = bits_of((float)(int32_t)frac * 0x1.0p-24f);
	/* masks, not branches: the decode loops stay vectorised */
	uint32_t is_special = 0u - (uint32_t)(exp == 0x1fu), is_small = 0u - (uint32_t)(exp == 0);
	uint32_t mag = (special & is_special) | (small & is_small) | (normal & ~(is_special | is_small));
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
