/*
 * Block-wise int8 quantisation (codec.h states the format and its bound).
 *
 * Wire: the blocks' exponent bytes first (e + 133, or 255 for a block with
 * a non-finite value), then one int8 per value: count + ceil(count / 256)
 * bytes, 3.98x smaller than float32. Exponents before values keep the
 * value loops contiguous, so they vectorise; built with -O3 (Makefile).
 */
#include "algorithms/codec.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* every byte is an exponent but the last (121 + 133 = 254) */
enum { EXP_BIAS = -CODEC_INT8_EXP_MIN, NONFINITE = 255 };

static size_t nblocks(size_t count)
{
	return (count + CODEC_INT8_BLOCK - 1) / CODEC_INT8_BLOCK;
}

int codec_int8_exponent(float m)
{
	if (!(m <= FLT_MAX))
		return CODEC_INT8_EXP_MAX + 1;
	if (m == 0)
		return CODEC_INT8_EXP_MIN;
	int k;
	float mant = frexpf(m / 127.0f, &k); /* m / 127 = mant 2^k, mant in [0.5, 1) */
	int e = mant == 0.5f ? k - 1 : k;
	return e < CODEC_INT8_EXP_MIN   ? CODEC_INT8_EXP_MIN
	       : e > CODEC_INT8_EXP_MAX ? CODEC_INT8_EXP_MAX
	                                : e;
}

/*
 * The block's largest magnitude, and whether it holds an infinity or a NaN.
 * On the magnitudes' bit patterns: their unsigned order is the float order,
 * infinity and NaN lie above every finite value, and an integer maximum
 * vectorises where a float one (NaN rules) does not.
 */
KERNEL static float block_max(const float *restrict x, size_t n, bool *nonfinite)
{
	uint32_t m = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t b;
		memcpy(&b, &x[i], sizeof b);
		b &= 0x7fffffffu;
		m = b > m ? b : m;
	}
	*nonfinite = m >= 0x7f800000u;
	float f;
	memcpy(&f, &m, sizeof f);
	return f;
}

static inline float clamp127(float r)
{
	return r > 127.0f ? 127.0f : r < -127.0f ? -127.0f : r;
}

/* y = x * hi * lo, both powers of two, so exact: hi alone cannot reach 2^133. */
KERNEL static void quantise_nearest(int8_t *restrict q, const float *restrict x, size_t n, float hi,
                                    float lo)
{
	for (size_t i = 0; i < n; i++) {
		float y = (x[i] * hi) * lo;
		/* adding and taking away 1.5 x 2^23 rounds |y| < 2^22 to nearest even */
		float r = (y + 0x1.8p23f) - 0x1.8p23f;
		q[i] = (int8_t)clamp127(r);
	}
}

static inline uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* floor(y + u), u uniform in [0, 1) from a hash of (seed, position): E[q] = y. */
KERNEL static void quantise_stochastic(int8_t *restrict q, const float *restrict x, size_t n,
                                       float hi, float lo, uint32_t seed, uint32_t base)
{
	for (size_t i = 0; i < n; i++) {
		float y = (x[i] * hi) * lo;
		uint32_t h = mix32(seed ^ ((base + (uint32_t)i) * 0x9e3779b9u));
		float u = (float)(int32_t)(h >> 8) * 0x1p-24f;
		/* y >= -128: +256 makes the truncation a floor */
		float r = (float)((int32_t)(y + u + 256.0f) - 256);
		q[i] = (int8_t)clamp127(r);
	}
}

static size_t int8_bound(size_t count, const struct codec_cfg *cfg)
{
	(void)cfg;
	return count + nblocks(count);
}

static size_t int8_enc(void *restrict wire, const float *restrict src, size_t count,
                       const struct codec_cfg *cfg, uint64_t seed, void *restrict work)
{
	(void)work;
	uint8_t *exps = wire;
	int8_t *q = (int8_t *)wire + nblocks(count);
	for (size_t b = 0, off = 0; off < count; b++, off += CODEC_INT8_BLOCK) {
		size_t n = count - off < CODEC_INT8_BLOCK ? count - off : CODEC_INT8_BLOCK;
		bool nonfinite;
		int e = codec_int8_exponent(block_max(src + off, n, &nonfinite));
		if (nonfinite) {
			exps[b] = NONFINITE;
			memset(q + off, 0, n);
			continue;
		}
		exps[b] = (uint8_t)(e + EXP_BIAS);
		/* 2^-e in two factors: 2^133 is no float */
		float hi = -e > 126 ? 0x1p126f : ldexpf(1.0f, -e);
		float lo = -e > 126 ? ldexpf(1.0f, -e - 126) : 1.0f;
		if (cfg && cfg->stochastic)
			quantise_stochastic(q + off, src + off, n, hi, lo,
			                    (uint32_t)(seed ^ (seed >> 32)), (uint32_t)off);
		else
			quantise_nearest(q + off, src + off, n, hi, lo);
	}
	return count + nblocks(count);
}

KERNEL static void dequantise(float *restrict out, const float *restrict lhs,
                              const int8_t *restrict q, size_t n, float s)
{
	for (size_t i = 0; i < n; i++)
		out[i] = lhs[i] + (float)q[i] * s;
}

KERNEL static void dequantise_acc(float *restrict out, const int8_t *restrict q, size_t n, float s)
{
	for (size_t i = 0; i < n; i++)
		out[i] += (float)q[i] * s;
}

KERNEL static void dequantise_set(float *restrict out, const int8_t *restrict q, size_t n, float s)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (float)q[i] * s;
}

static int int8_dec(float *out, const float *lhs, const void *wire, size_t bytes, size_t count)
{
	if (bytes != count + nblocks(count))
		return -1;
	const uint8_t *exps = wire;
	const int8_t *q = (const int8_t *)wire + nblocks(count);
	for (size_t b = 0, off = 0; off < count; b++, off += CODEC_INT8_BLOCK) {
		size_t n = count - off < CODEC_INT8_BLOCK ? count - off : CODEC_INT8_BLOCK;
		/* q x 2^e is exact: 7 significant bits, 2^-133 is a float (subnormal);
		   NaN x 0 is NaN, so a non-finite block says so throughout */
		float s = exps[b] == NONFINITE ? NAN : ldexpf(1.0f, (int)exps[b] - EXP_BIAS);
		if (!lhs)
			dequantise_set(out + off, q + off, n, s);
		else if (lhs == out)
			dequantise_acc(out + off, q + off, n, s);
		else
			dequantise(out + off, lhs + off, q + off, n, s);
	}
	return 0;
}

const struct ar_codec codec_int8 = {"int8", int8_bound, int8_enc, int8_dec};
