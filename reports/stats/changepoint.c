/* E-divisive means with a permutation test (see changepoint.h). */
#include "reports/stats/changepoint.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void cp_options_init(struct cp_options *o)
{
	o->alpha = CP_DEFAULT_ALPHA;
	o->permutations = CP_DEFAULT_PERMUTATIONS;
	o->min_segment = CP_DEFAULT_MIN_SEGMENT;
	o->seed = 0x636f6c6c73636f70ULL; /* "collscop" */
}

/* splitmix64 */
static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform index below n (n >= 1), without modulo bias worth speaking of for n << 2^64. */
static size_t below(uint64_t *state, size_t n)
{
	return (size_t)(((unsigned __int128)next(state) * n) >> 64);
}

/*
 * The best split of x[0..n), in O(n^2): for each split t the sums of
 * distances between the sides and within each side are updated from the
 * previous split by the distances of x[t] to its left and its right.
 * scratch holds 2n doubles.
 */
static double best_split(const double *x, size_t n, size_t min_seg, size_t *at, double *scratch)
{
	double *left = scratch, *right = scratch + n; /* sum |x[t] - x[i]| over i < t, i > t */
	double between = 0, within_l = 0, within_r = 0, best = 0;

	*at = 0;
	if (n < 2 * min_seg || min_seg < 1)
		return 0;
	for (size_t t = 0; t < n; t++) {
		left[t] = right[t] = 0;
		for (size_t i = 0; i < t; i++)
			left[t] += fabs(x[t] - x[i]);
		for (size_t i = t + 1; i < n; i++)
			right[t] += fabs(x[t] - x[i]);
	}
	/* split 0: X empty, every pair within Y */
	for (size_t t = 0; t < n; t++)
		within_r += right[t];
	for (size_t t = 0; t + min_seg <= n; t++) {
		size_t m = t, k = n - t;
		if (m >= min_seg) {
			double q, mm = (double)m, kk = (double)k;
			double wl = m > 1 ? within_l / (mm * (mm - 1) / 2) : 0;
			double wr = k > 1 ? within_r / (kk * (kk - 1) / 2) : 0;
			q = mm * kk / (mm + kk) * (2 * between / (mm * kk) - wl - wr);
			if (q > best) {
				best = q;
				*at = t;
			}
		}
		/* x[t] moves from Y to X */
		between += right[t] - left[t];
		within_l += left[t];
		within_r -= right[t];
	}
	return best;
}

double cp_best_split(const double *x, size_t n, size_t min_segment, size_t *at)
{
	double *scratch = malloc((2 * n + 1) * sizeof *scratch), q;

	*at = 0;
	if (!scratch)
		return NAN;
	q = best_split(x, n, min_segment, at, scratch);
	free(scratch);
	return q;
}

/*
 * The share of random orders whose best split, over every segment, reaches
 * q (the observed order counts as one): each permutation shuffles every
 * segment within itself, as the E-divisive test does, so the search over
 * several segments is part of the null distribution.
 */
static double permutation_p(const double *x, const size_t *bounds, size_t nb, double q,
                            const struct cp_options *o, uint64_t *state, double *perm,
                            double *scratch)
{
	size_t reached = 1, at, n = bounds[nb];

	memcpy(perm, x, n * sizeof *perm);
	for (size_t r = 0; r < o->permutations; r++) {
		double best = 0;
		for (size_t s = 0; s < nb; s++) {
			double *seg = perm + bounds[s];
			size_t len = bounds[s + 1] - bounds[s];
			for (size_t i = len; i-- > 1;) {
				size_t j = below(state, i + 1);
				double t = seg[i];
				seg[i] = seg[j];
				seg[j] = t;
			}
			best = fmax(best, best_split(seg, len, o->min_segment, &at, scratch));
		}
		/* a hair of slack: an order equal to the observed one must count as reaching it */
		reached += best >= q * (1 - 1e-12);
	}
	return (double)reached / (double)(o->permutations + 1);
}

static int by_index(const void *pa, const void *pb)
{
	const struct cp_change *a = pa, *b = pb;

	return (a->index > b->index) - (a->index < b->index);
}

int cp_find(const double *x, size_t n, const struct cp_options *o, struct cp_change *out,
            size_t max, size_t *found)
{
	/* bounds[0..nb) are the segment starts, bounds[nb] = n */
	size_t *bounds = NULL, nb = 1;
	double *perm = NULL, *scratch = NULL;
	uint64_t state;
	int rc = -1;

	if (!x || !o || !found || (max && !out) || !(o->alpha > 0 && o->alpha < 1) ||
	    o->permutations < 1 || o->min_segment < 1)
		return -1;
	*found = 0;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -1;
	bounds = malloc((n + 2) * sizeof *bounds);
	perm = malloc((n + 1) * sizeof *perm);
	scratch = malloc((2 * n + 1) * sizeof *scratch);
	if (!bounds || !perm || !scratch)
		goto out;
	state = o->seed;
	bounds[0] = 0;
	bounds[1] = n;
	while (*found < max) {
		size_t seg = 0, at = 0, best_at = 0;
		double best = 0;
		for (size_t s = 0; s < nb; s++) {
			double q = best_split(x + bounds[s], bounds[s + 1] - bounds[s],
			                      o->min_segment, &at, scratch);
			if (q > best) {
				best = q;
				best_at = bounds[s] + at;
				seg = s;
			}
		}
		if (!(best > 0))
			break;
		double p = permutation_p(x, bounds, nb, best, o, &state, perm, scratch);
		if (!(p < o->alpha))
			break;
		out[(*found)++] = (struct cp_change){best_at, best, p};
		memmove(&bounds[seg + 2], &bounds[seg + 1], (nb - seg) * sizeof *bounds);
		bounds[seg + 1] = best_at;
		nb++;
	}
	qsort(out, *found, sizeof *out, by_index);
	rc = 0;
out:
	free(bounds);
	free(perm);
	free(scratch);
	return rc;
}
