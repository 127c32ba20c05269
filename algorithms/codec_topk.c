/*
 * Top-k sparsification (codec.h states the format), and what the codecs
 * share: the scratch of an encode and error feedback's residual.
 *
 * The k-th largest magnitude is found by quickselect over the magnitudes'
 * bit patterns (O(count)): for non-negative floats the unsigned order is the
 * float order, and a NaN's pattern lies above infinity's, so NaN and
 * infinities are selected first without a special case. Then one pass takes
 * every value above that threshold in index order and a second the ties
 * until there are k.
 */
#include "algorithms/codec.h"

#include <math.h>
#include <string.h>

size_t codec_topk_count(size_t count, double ratio)
{
	if (count == 0)
		return 0;
	double k = ceil(ratio * (double)count);
	return k < 1 ? 1 : k > (double)count ? count : (size_t)k;
}

size_t codec_work_bytes(size_t count)
{
	return count * sizeof(uint32_t);
}

static double ratio_of(const struct codec_cfg *cfg)
{
	return cfg && cfg->topk_ratio > 0 ? cfg->topk_ratio : CODEC_TOPK_RATIO_DEFAULT;
}

static size_t topk_bound(size_t count, const struct codec_cfg *cfg)
{
	return 8 * codec_topk_count(count, ratio_of(cfg));
}

static void swap(uint32_t *a, uint32_t *b)
{
	uint32_t t = *a;
	*a = *b;
	*b = t;
}

/* The k-th largest of key[0..n) (1 <= k <= n); reorders key. */
static uint32_t kth_largest(uint32_t *key, size_t n, size_t k)
{
	size_t lo = 0, hi = n, want = k - 1; /* position in descending order */
	while (hi - lo > 1) {
		/* median of three as the pivot, then a three-way partition: > | == | < */
		uint32_t a = key[lo], b = key[lo + (hi - lo) / 2], c = key[hi - 1];
		uint32_t pivot = a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
		size_t gt = lo, i = lo, lt = hi;
		while (i < lt) {
			if (key[i] > pivot)
				swap(&key[gt++], &key[i++]);
			else if (key[i] < pivot)
				swap(&key[i], &key[--lt]);
			else
				i++;
		}
		if (want < gt)
			hi = gt;
		else if (want >= lt)
			lo = lt;
		else
			return pivot;
	}
	return key[lo];
}

static inline uint32_t magnitude(float x)
{
	uint32_t b;
	memcpy(&b, &x, sizeof b);
	return b & 0x7fffffffu;
}

static size_t topk_enc(void *restrict wire, const float *restrict src, size_t count,
                       const struct codec_cfg *cfg, uint64_t seed, void *restrict work)
{
	(void)seed;
	size_t k = codec_topk_count(count, ratio_of(cfg));
	if (k == 0)
		return 0;
	uint32_t *key = work, *idx = wire;
	float *val = (float *)(idx + k);
	for (size_t i = 0; i < count; i++)
		key[i] = magnitude(src[i]);
	uint32_t t = kth_largest(key, count, k);
	size_t m = 0;
	for (size_t i = 0; i < count && m < k; i++)
		if (magnitude(src[i]) > t) {
			idx[m] = (uint32_t)i;
			val[m++] = src[i];
		}
	for (size_t i = 0; i < count && m < k; i++)
		if (magnitude(src[i]) == t) {
			idx[m] = (uint32_t)i;
			val[m++] = src[i];
		}
	return 8 * k;
}

static int topk_dec(float *out, const float *lhs, const void *wire, size_t bytes, size_t count)
{
	size_t k = bytes / 8;
	if (bytes % 8 || k > count)
		return -1;
	const uint32_t *idx = wire;
	const float *val = (const float *)(idx + k);
	for (size_t j = 0; j < k; j++)
		if (idx[j] >= count)
			return -1;
	if (!lhs)
		memset(out, 0, count * sizeof *out);
	else if (lhs != out)
		memcpy(out, lhs, count * sizeof *out);
	for (size_t j = 0; j < k; j++)
		out[idx[j]] += val[j];
	return 0;
}

const struct ar_codec codec_topk = {"topk", topk_bound, topk_enc, topk_dec};

int codec_residual(const struct ar_codec *c, float *resid, const float *x, const void *wire,
                   size_t wire_bytes, size_t count, float *tmp)
{
	if (c->decode(tmp, NULL, wire, wire_bytes, count) != 0)
		return -1;
	for (size_t i = 0; i < count; i++)
		resid[i] = x[i] - tmp[i];
	return 0;
}
