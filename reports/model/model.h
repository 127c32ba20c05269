/*
 * The models of `collscope scale`: the alpha-beta-gamma cost model fitted to
 * measured all-reduce times, and the data-parallel step model (reports/model/README.md:
 * weak and strong scaling, the sweet spot). Pure: libc and libm,
 * no MPI, no I/O.
 *
 * Cost model: time = alpha x messages + beta x bytes + gamma x reduced
 * bytes, where the three terms are counted on the critical path of the
 * variant's schedule (algorithms/cost.h) and alpha, beta, gamma >= 0 are
 * the machine's seconds per message, per byte on the wire and per byte
 * reduced (here in microseconds).
 */
#ifndef COLLSCOPE_MODEL_H
#define COLLSCOPE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

/* The three terms of one point (as doubles: they only multiply). */
struct model_terms {
	double messages, bytes, reduced_bytes;
};

struct model_fit {
	double alpha_us, beta_us_per_byte, gamma_us_per_byte;
	double rms_error, max_error; /* relative (0.05 = 5 %), over the fitted points */
	size_t npoints;
	/*
	 * The terms of the points were linearly dependent (or fewer than three
	 * points), so some coefficient cannot be told apart from another: a
	 * ring's reduced bytes are always half its bytes, so gamma is folded
	 * into beta and reported as 0. Predictions stay valid for points of the
	 * same shape; the split between the coefficients is arbitrary.
	 */
	bool degenerate;
};

/*
 * Non-negative least squares of the relative error: minimises
 * sum ((model(x_i) - t_i) / t_i)^2 over alpha, beta, gamma >= 0, so a point
 * of 10 us counts as much as one of 100 ms. With three unknowns the exact
 * solution is found by solving every subset of free coefficients and
 * keeping the best one whose coefficients are all non-negative. Points whose
 * time is not positive and finite are ignored. Returns 0, or -1 when no
 * point is usable (then *out holds NANs and npoints 0).
 */
int model_fit_abg(const struct model_terms *x, const double *time_us, size_t n,
                  struct model_fit *out);

/* alpha x messages + beta x bytes + gamma x reduced bytes, in microseconds. */
double model_time_us(const struct model_fit *f, const struct model_terms *x);

/*
 * The all-reduce time that is not hidden behind compute: a fraction
 * overlap (0..1) of tar_us runs during the compute of the step, but never
 * more than that compute lasts: tar - min(overlap x tar, compute_us).
 */
double model_exposed_us(double tar_us, double overlap, double compute_us);

/*
 * Weak scaling (a fixed batch per rank): E(n) = Tc / (Tc + exposed Tar(n)),
 * and the speedup n E(n). NAN for a compute time that is not positive or an
 * all-reduce time that is negative or not a number.
 */
double model_weak_efficiency(double compute_us, double tar_us, double overlap);
double model_weak_speedup(int nranks, double compute_us, double tar_us, double overlap);

/*
 * Strong scaling (a fixed global batch, so each rank computes Tc / n):
 * S(n) = Tc / (Tc / n + exposed Tar(n)), which peaks and then falls.
 * NAN as above or for nranks < 1.
 */
double model_strong_speedup(int nranks, double compute_us, double tar_us, double overlap);

/*
 * The sweet spot: the index of the largest finite value of speedup[0..n)
 * (the first of equal ones), or -1 when none is finite. The caller passes
 * the speedups in ascending order of rank count; *at_edge is set when the
 * maximum is the last finite value, i.e. the curve may still rise past it.
 */
long model_sweet_spot(const double *speedup, size_t n, bool *at_edge);

#endif
