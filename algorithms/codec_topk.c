/*
 * Top-k sparsification (codec.h states the format), and what the codecs
 * share: the scratch of an encode and error feedback's residual.
 *
 * The k-th largest magnitude is found on the magnitudes' bit patterns: for
 * non-negative floats the unsigned order is the float order, and a NaN's
 * pattern lies above infinity's, so NaN and infinities are selected first
 * without a special case. Usually from a sample's estimate and the values
 * above it (by_sample: one pass); else by a radix pass and quickselect
 * within one bucket (threshold: O(count) too). Then, in index order, every
 * value above that threshold and its first ties until there are k.
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

/*
 * The k-th largest magnitude of src[0..n): a radix pass first, a histogram
 * of the top RADIX_BITS of the magnitudes' patterns (the exponent and three
 * mantissa bits), finds the bucket that holds it; quickselect then runs on
 * that bucket's keys alone, gathered into key[]. Two streaming passes
 * instead of quickselect's many over everything. Zeros are not counted (an
 * all-gather re-encodes a chunk already sparse: mostly zeros, whose counter
 * would be one long chain of dependent increments), and the counts are
 * spread over HISTS histograms so neighbouring increments do not wait on
 * each other.
 */
enum { RADIX_BITS = 11, RADIX_SHIFT = 31 - RADIX_BITS, BUCKETS = 1 << RADIX_BITS, HISTS = 4 };

/*
 * The radix steps' last: the k-th largest overall is the (k - above)-th of
 * the m keys of its bucket, above keys lying in higher buckets; into
 * *greater how many keys exceed it. Reorders key.
 */
static uint32_t kth_in_bucket(uint32_t *key, size_t m, size_t k, size_t above, size_t *greater)
{
	uint32_t t = kth_largest(key, m, k - above);
	for (size_t i = 0; i < m; i++)
		above += key[i] > t;
	*greater = above;
	return t;
}

static uint32_t threshold(const float *src, size_t n, size_t k, uint32_t *hist, uint32_t *key,
                          size_t *greater)
{
	memset(hist, 0, sizeof *hist * BUCKETS * HISTS);
	for (size_t i = 0; i < n; i++) {
		uint32_t m = magnitude(src[i]);
		if (m)
			hist[(i % HISTS) * BUCKETS + (m >> RADIX_SHIFT)]++;
	}
	for (size_t h = 1; h < HISTS; h++)
		for (size_t b = 0; b < BUCKETS; b++)
			hist[b] += hist[h * BUCKETS + b];
	size_t above = 0;
	int b = BUCKETS - 1;
	while (b >= 0 && above + hist[b] < k)
		above += hist[b--];
	*greater = above;
	if (b < 0) /* fewer than k values are not zero: zeros fill the rest */
		return 0;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t v = magnitude(src[i]);
		if (v && v >> RADIX_SHIFT == (uint32_t)b)
			key[m++] = v;
	}
	return kth_in_bucket(key, m, k, above, greater);
}

KERNEL static uint32_t largest(const uint32_t *key, size_t n)
{
	uint32_t top = 0;
	for (size_t i = 0; i < n; i++)
		top = key[i] > top ? key[i] : top;
	return top;
}

/*
 * The radix step on keys already gathered: the bucket (top RADIX_BITS) of
 * the k-th largest of key[0..n) (1 <= k <= n), and into *above how many keys
 * lie in higher buckets. The histogram spans the buckets up to the largest
 * key's only.
 */
static size_t kth_bucket(const uint32_t *key, size_t n, size_t k, size_t *above)
{
	uint32_t hist[BUCKETS];
	size_t b = largest(key, n) >> RADIX_SHIFT, sum = 0;
	memset(hist, 0, (b + 1) * sizeof *hist);
	for (size_t i = 0; i < n; i++)
		hist[key[i] >> RADIX_SHIFT]++;
	while (sum + hist[b] < k) /* stops: the buckets up to b hold all n >= k keys */
		sum += hist[b--];
	*above = sum;
	return b;
}

/*
 * The k-th largest of key[0..n) (1 <= k <= n) and, into *greater, how many
 * keys exceed it; reorders key. Quickselect's branchy partitions (a
 * mispredicted branch per key) run on the keys of kth_bucket's bucket
 * alone, a few dozen here, instead of on all of them.
 */
static uint32_t kth_by_radix(uint32_t *key, size_t n, size_t k, size_t *greater)
{
	size_t above, b = kth_bucket(key, n, k, &above), m = 0;
	for (size_t i = 0; i < n; i++) { /* in place: m <= i */
		uint32_t v = key[i];
		key[m] = v;
		m += v >> RADIX_SHIFT == b;
	}
	return kth_in_bucket(key, m, k, above, greater);
}

size_t codec_work_bytes(size_t count)
{
	/* topk's histograms, then the keys of its bucket */
	return ((size_t)BUCKETS * HISTS + count) * sizeof(uint32_t);
}

/* The values of src[0..n) above t, and its first ties, into the wire (k in all). */
static void emit(const float *src, size_t n, size_t k, uint32_t t, size_t ties, uint32_t *idx,
                 float *val)
{
	size_t m = 0;
	for (size_t i = 0; i < n && m < k; i++) {
		uint32_t v = magnitude(src[i]);
		if (v > t || (v == t && ties && ties--)) {
			idx[m] = (uint32_t)i;
			val[m++] = src[i];
		}
	}
}

/*
 * emit for candidates, most of them taken (about k of 1.6 k): every one is
 * stored and m advances by the test, so no branch is mispredicted.
 */
static void emit_candidates(const float *src, const uint32_t *cand, size_t n, size_t k, uint32_t t,
                            size_t ties, uint32_t *idx, float *val)
{
	size_t m = 0;
	for (size_t j = 0; j < n && m < k; j++) {
		uint32_t i = cand[j], v = magnitude(src[i]);
		bool tie = (v == t) & (ties != 0);
		idx[m] = i;
		val[m] = src[i];
		m += (v > t) | tie;
		ties -= tie;
	}
}

/*
 * The candidates: the index of every value of src[0..n) whose magnitude is
 * at or above est, into cidx in index order. Blocks of GATHER_BLOCK values
 * are first tested by their largest magnitude (an unsigned max: vectorised);
 * only a block holding a candidate is walked, and that walk stores every
 * index and advances by the comparison, without a branch to mispredict.
 * It writes up to GATHER_BLOCK past the last candidate, so a block is taken
 * only with that much room: SIZE_MAX when the candidates may outgrow cap.
 */
enum { GATHER_BLOCK = 32 };

static inline size_t compact(const float *src, size_t from, size_t to, uint32_t est, uint32_t *cidx,
                             size_t c)
{
	for (size_t i = from; i < to; i++) {
		cidx[c] = (uint32_t)i;
		c += magnitude(src[i]) >= est;
	}
	return c;
}

KERNEL static size_t gather(const float *restrict src, size_t n, uint32_t est,
                            uint32_t *restrict cidx, size_t cap)
{
	size_t c = 0, i = 0;
	for (; i + GATHER_BLOCK <= n; i += GATHER_BLOCK) {
		uint32_t top = 0;
		for (size_t j = 0; j < GATHER_BLOCK; j++) {
			uint32_t v = magnitude(src[i + j]);
			top = v > top ? v : top;
		}
		if (top < est)
			continue;
		if (cap - c < GATHER_BLOCK)
			return SIZE_MAX;
		c = compact(src, i, i + GATHER_BLOCK, est, cidx, c);
	}
	if (cap - c < GATHER_BLOCK)
		return SIZE_MAX;
	return compact(src, i, n, est, cidx, c);
}

/*
 * The fast path: a threshold estimated from one value in SAMPLE_STRIDE,
 * set low enough that some more than k values reach it (with a margin),
 * then one pass gathering those candidates, the exact k-th largest among
 * them, and the emission from them alone: one pass over the message instead
 * of the radix path's three. Every value at or above the estimate is a
 * candidate, so with k of them or more the exact threshold is theirs; with
 * fewer, or too many for the scratch, the radix path decides. -1: not taken.
 */
enum { SAMPLE_STRIDE = 32, SAMPLE_RUN = 16, SAMPLE_MIN = 64 };

/*
 * ns magnitudes (a multiple of SAMPLE_RUN), runs of SAMPLE_RUN consecutive
 * values SAMPLE_RUN x SAMPLE_STRIDE apart: a run fills a cache line, so the
 * sample misses on one line in SAMPLE_STRIDE instead of one in two (the gather
 * streams the rest), and a line is one vector load, so many misses are in
 * flight at once.
 */
KERNEL static void sample(const float *restrict src, size_t ns, uint32_t *restrict key)
{
	for (size_t r = 0; r < ns; r += SAMPLE_RUN)
		for (size_t j = 0; j < SAMPLE_RUN; j++)
			key[r + j] = magnitude(src[r * SAMPLE_STRIDE + j]);
}

static int by_sample(const float *src, size_t count, size_t k, uint32_t *work, uint32_t *idx,
                     float *val)
{
	size_t ns = count / (SAMPLE_RUN * SAMPLE_STRIDE) * SAMPLE_RUN;
	/* the sample's rank of the estimate: half again k's share, and two more */
	size_t rank = (k * ns + count - 1) / count * 3 / 2 + 2;
	if (ns < SAMPLE_MIN || rank > ns)
		return -1;
	/* room for four times the candidates expected, within the scratch (a key and an index each)
	 */
	size_t want = (4 * k > 4 * rank * SAMPLE_STRIDE ? 4 * k : 4 * rank * SAMPLE_STRIDE) + 64;
	size_t room = (count + BUCKETS * HISTS) / 2, cap = want < room ? want : room;
	uint32_t *ckey = work, *cidx = work + cap;
	sample(src, ns, ckey);
	/* the estimate: the lower edge of the sample's rank-th largest's bucket (no quickselect) */
	size_t greater;
	uint32_t est = (uint32_t)kth_bucket(ckey, ns, rank, &greater) << RADIX_SHIFT;
	size_t c = gather(src, count, est, cidx, cap);
	if (c == SIZE_MAX || c < k)
		return -1;
	/* their keys read again (in cache): the walk above stores one word a value, not two */
	for (size_t j = 0; j < c; j++)
		ckey[j] = magnitude(src[cidx[j]]);
	uint32_t t = kth_by_radix(ckey, c, k, &greater);
	emit_candidates(src, cidx, c, k, t, k - greater, idx, val);
	return 0;
}

static size_t topk_enc(void *restrict wire, const float *restrict src, size_t count,
                       const struct codec_cfg *cfg, uint64_t seed, void *restrict work)
{
	(void)seed;
	size_t k = codec_topk_count(count, ratio_of(cfg));
	if (k == 0)
		return 0;
	uint32_t *idx = wire;
	float *val = (float *)(idx + k);
	if (by_sample(src, count, k, work, idx, val) == 0)
		return 8 * k;
	size_t greater;
	uint32_t *hist = work, t = threshold(src, count, k, hist, hist + BUCKETS * HISTS, &greater);
	emit(src, count, k, t, k - greater, idx, val); /* the first ties, by position */
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
