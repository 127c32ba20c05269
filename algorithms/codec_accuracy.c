/* Inputs, bounds and figures of the compressed variants: see codec_accuracy.h. */
#include "algorithms/codec_accuracy.h"

#include <math.h>

enum { BLOCK = CODEC_INT8_BLOCK, SLICE_BLOCKS = CODEC_CHECK_SLICE / CODEC_INT8_BLOCK + 2 };

static uint64_t splitmix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15u;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void codec_input_fill(float *x, int rank, size_t count)
{
	static const float scales[] = {1e-3f, 1e-2f, 1e-1f, 1.0f, 10.0f};
	for (size_t i = 0; i < count; i++) {
		uint64_t h = splitmix64(((uint64_t)(unsigned)rank << 40) ^ (uint64_t)i);
		float u1 = (float)((h >> 8) & 0xffffffu) * 0x1p-24f;
		float u2 = (float)((h >> 32) & 0xffffffu) * 0x1p-24f;
		/* a ratio of uniforms: most values small, a tail falling as 1/t^2 */
		float t = (u1 - 0.5f) / (u2 + 0.05f);
		x[i] = (h & 63) == 0 ? 0.0f : 2.0f * t * scales[(i / 1024) % 5];
	}
}

static bool is_int8(const struct ar_codec *c)
{
	return c == &codec_int8;
}

static bool is_topk(const struct ar_codec *c)
{
	return c == &codec_topk;
}

/* The casts' unit roundoff and absolute floor (codec.h). */
static void cast_terms(const struct ar_codec *c, double *u, double *eta)
{
	*u = c == &codec_fp16 ? 0x1p-11 : 0x1p-8;
	*eta = c == &codec_fp16 ? 0x1p-25 : 0x1p-134;
}

/*
 * m[b - first] = the largest |x| of aligned block b, for the blocks of
 * [at, at+n) and one on each side (clipped to the buffer); first = at/256 - 1.
 */
static void block_maxima(const float *x, size_t total, size_t at, size_t n, double *m)
{
	size_t first = at / BLOCK, nb = (n + BLOCK - 1) / BLOCK + 2;
	for (size_t k = 0; k < nb; k++) {
		m[k] = 0;
		if (first + k == 0 || (first + k - 1) * BLOCK >= total)
			continue;
		size_t lo = (first + k - 1) * BLOCK, hi = lo + BLOCK < total ? lo + BLOCK : total;
		for (size_t i = lo; i < hi; i++)
			m[k] = fmax(m[k], fabs((double)x[i]));
	}
}

/* The largest |x| within 255 elements of at + i: blocks b-1, b, b+1 (m as above). */
static double window(const double *m, size_t i)
{
	size_t k = i / BLOCK + 1;
	return fmax(m[k - 1], fmax(m[k], m[k + 1]));
}

void codec_bound_share(const struct ar_codec *c, const struct codec_cfg *cfg, int nranks,
                       const float *x, size_t total, size_t at, size_t n, double *share)
{
	double m[SLICE_BLOCKS + 1], u, eta, acc = nranks * 0x1p-23;
	bool sr = cfg && cfg->stochastic;
	cast_terms(c, &u, &eta);
	if (is_int8(c))
		block_maxima(x, total, at, n, m);
	for (size_t i = 0; i < n; i++) {
		double a = fabs((double)x[at + i]);
		if (is_int8(c))
			share[i] = (sr ? 2 * window(m, i) / 127 + 0x1p-133
			               : window(m, i) / 127 + 0x1p-134);
		else if (is_topk(c))
			share[i] = a;
		else
			share[i] = u * a + eta;
		share[i] += acc * a;
	}
}

void codec_check_slice(const struct ar_codec *c, const struct codec_cfg *cfg, const float *got,
                       size_t total, size_t at, size_t n, const double *exact, const double *e1,
                       struct codec_accuracy *acc)
{
	double m[SLICE_BLOCKS + 1], u, eta;
	bool sr = cfg && cfg->stochastic;
	cast_terms(c, &u, &eta);
	if (is_int8(c))
		block_maxima(got, total, at, n, m);
	for (size_t i = 0; i < n; i++) {
		double r = got[at + i], x = exact[i], e2;
		if (is_int8(c))
			e2 = sr ? 2 * window(m, i) / 125 + 0x1p-133 : window(m, i) / 126 + 0x1p-134;
		else if (is_topk(c))
			e2 = r == 0 ? fabs(x) + e1[i] : 0;
		else
			e2 = u * (fabs(x) + e1[i]) + eta;
		/* a hair of slack for the float64 sums themselves */
		double bound = (e1[i] + e2) * (1 + 0x1p-20), err = fabs(r - x);
		acc->max_abs_error = fmax(acc->max_abs_error, isnan(err) ? INFINITY : err);
		acc->sum_sq_error += err * err;
		acc->sum_sq_exact += x * x;
		acc->checked++;
		if (err <= bound)
			continue;
		if (!acc->have_first)
			*acc = (struct codec_accuracy){acc->max_abs_error,
			                               acc->sum_sq_error,
			                               acc->sum_sq_exact,
			                               acc->beyond,
			                               acc->checked,
			                               true,
			                               at + i,
			                               (float)r,
			                               x,
			                               bound};
		acc->beyond++;
	}
}

double codec_rel_l2(const struct codec_accuracy *acc)
{
	if (!(acc->sum_sq_exact > 0))
		return acc->sum_sq_error > 0 ? INFINITY : NAN;
	return sqrt(acc->sum_sq_error / acc->sum_sq_exact);
}
