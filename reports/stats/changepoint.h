/*
 * Change points of a series: where its level stepped. Pure: no I/O; the
 * permutations come from a seeded generator, so a series always gives the
 * same answer.
 *
 * Method: E-divisive means (Matteson and James, "A nonparametric approach
 * for multiple change point analysis of multivariate data", JASA 2014),
 * with the energy distance of exponent 1, on the values as given (trend
 * passes logarithms, so a step is a factor). For a segment X | Y of sizes
 * m and k the statistic is
 *   Q = m k / (m + k) x (2 mean|x - y| - mean|x - x'| - mean|y - y'|),
 * maximised over the split; binary segmentation takes the segment whose
 * best split has the largest Q and tests it by permutation: p is the share
 * of `permutations` random orders (each segment shuffled within itself,
 * the best split taken over every segment, so that searching several
 * segments is part of the test; the observed order counts as one) whose
 * best split reaches Q. A split with p < alpha is a change point, and the
 * search goes on over the new segments; otherwise it stops. Each segment
 * keeps at least min_segment values, so one outlier alone is not a step
 * (and a step in the last min_segment - 1 values cannot be seen yet).
 * The energy distance compares whole distributions, so a few wild values
 * do not make a step the way they move a mean.
 */
#ifndef COLLSCOPE_CHANGEPOINT_H
#define COLLSCOPE_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#define CP_DEFAULT_ALPHA        0.05
#define CP_DEFAULT_PERMUTATIONS 499
#define CP_DEFAULT_MIN_SEGMENT  2

struct cp_options {
	double alpha;        /* significance of the permutation test, 0 < alpha < 1 */
	size_t permutations; /* >= 1 */
	size_t min_segment;  /* values on each side of a change, >= 1 */
	uint64_t seed;       /* of the permutations */
};

void cp_options_init(struct cp_options *o);

struct cp_change {
	size_t index; /* the first value of the new level */
	double statistic, p_value;
};

/*
 * The change points of x[0..n), by index ascending, into out (room for max;
 * n / min_segment is always enough); *found is how many. Values must be
 * finite. Returns 0, or -1 for bad options, a non-finite value, NULL
 * arguments or no memory. Fewer than 2 min_segment values: none found.
 */
int cp_find(const double *x, size_t n, const struct cp_options *o, struct cp_change *out,
            size_t max, size_t *found);

/*
 * The statistic Q of the best split of x[0..n) with min_segment values a
 * side, and the split (the first index of the right side) into *at; 0 and
 * *at = 0 when no split is possible. For tests and diagnostics.
 */
double cp_best_split(const double *x, size_t n, size_t min_segment, size_t *at);

#endif
