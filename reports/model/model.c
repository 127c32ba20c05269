/* See model.h. */
#include "reports/model/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { TERMS = 3 };

/*
 * A pivot below this, on columns scaled to unit length, means the columns
 * are dependent to within about 1e-4 radians: the coefficients would be
 * noise of opposite signs, so the subset is treated as singular.
 */
#define MODEL_PIVOT_MIN 1e-8

static double term(const struct model_terms *x, int j)
{
	return j == 0 ? x->messages : j == 1 ? x->bytes : x->reduced_bytes;
}

static bool usable(double t)
{
	return isfinite(t) && t > 0;
}

/*
 * Solves g z = b (k x k, k <= 3) by Gaussian elimination with partial
 * pivoting; -1 when a pivot is below MODEL_PIVOT_MIN (g has unit diagonal).
 */
static int solve(double g[TERMS][TERMS], double *b, int k, double *z)
{
	for (int c = 0; c < k; c++) {
		int p = c;
		for (int r = c + 1; r < k; r++)
			if (fabs(g[r][c]) > fabs(g[p][c]))
				p = r;
		if (fabs(g[p][c]) < MODEL_PIVOT_MIN)
			return -1;
		for (int j = 0; j < k; j++) {
			double t = g[c][j];
			g[c][j] = g[p][j];
			g[p][j] = t;
		}
		double t = b[c];
		b[c] = b[p];
		b[p] = t;
		for (int r = c + 1; r < k; r++) {
			double f = g[r][c] / g[c][c];
			for (int j = c; j < k; j++)
				g[r][j] -= f * g[c][j];
			b[r] -= f * b[c];
		}
	}
	for (int c = k - 1; c >= 0; c--) {
		double s = b[c];
		for (int j = c + 1; j < k; j++)
			s -= g[c][j] * z[j];
		z[c] = s / g[c][c];
	}
	return 0;
}

/* Weighted residual sum of squares of coefficients coef (relative errors). */
static double rss_of(const struct model_terms *x, const double *t, size_t n, const double *coef)
{
	double rss = 0;
	for (size_t i = 0; i < n; i++) {
		if (!usable(t[i]))
			continue;
		double m =
		    coef[0] * x[i].messages + coef[1] * x[i].bytes + coef[2] * x[i].reduced_bytes;
		rss += (m - t[i]) / t[i] * ((m - t[i]) / t[i]);
	}
	return rss;
}

/*
 * Unconstrained least squares on the columns of subset mask (bit j: term j),
 * rows weighted by 1 / t. Columns are scaled to unit length first so that
 * messages (tens) and bytes (millions) meet on equal terms. 0 with coef
 * filled (unused terms 0), -1 when a coefficient is negative, -2 when the
 * columns are dependent (or one is all zero).
 */
static int fit_subset(const struct model_terms *x, const double *t, size_t n, unsigned mask,
                      double *coef)
{
	int cols[TERMS], k = 0;
	double norm[TERMS], g[TERMS][TERMS] = {{0}}, b[TERMS] = {0}, z[TERMS];
	for (int j = 0; j < TERMS; j++)
		if (mask & (1u << j))
			cols[k++] = j;
	for (int a = 0; a < k; a++) {
		double s = 0;
		for (size_t i = 0; i < n; i++)
			if (usable(t[i]))
				s += term(&x[i], cols[a]) / t[i] * (term(&x[i], cols[a]) / t[i]);
		norm[a] = sqrt(s);
		if (!(norm[a] > 0) || !isfinite(norm[a]))
			return -2;
	}
	for (size_t i = 0; i < n; i++) {
		if (!usable(t[i]))
			continue;
		for (int a = 0; a < k; a++) {
			double xa = term(&x[i], cols[a]) / t[i] / norm[a];
			b[a] += xa; /* the target is 1: t_i / t_i */
			for (int c = 0; c < k; c++)
				g[a][c] += xa * (term(&x[i], cols[c]) / t[i] / norm[c]);
		}
	}
	if (solve(g, b, k, z) != 0)
		return -2;
	memset(coef, 0, TERMS * sizeof *coef);
	for (int a = 0; a < k; a++) {
		if (z[a] < 0)
			return -1;
		coef[cols[a]] = z[a] / norm[a];
	}
	return 0;
}

static void fill_errors(const struct model_terms *x, const double *t, size_t n, struct model_fit *f)
{
	double sum = 0, worst = 0;
	for (size_t i = 0; i < n; i++) {
		if (!usable(t[i]))
			continue;
		double e = fabs(model_time_us(f, &x[i]) - t[i]) / t[i];
		sum += e * e;
		worst = e > worst ? e : worst;
	}
	f->rms_error = sqrt(sum / (double)f->npoints);
	f->max_error = worst;
}

int model_fit_abg(const struct model_terms *x, const double *time_us, size_t n,
                  struct model_fit *out)
{
	/* all three first, then pairs, then one: on a near tie the earlier subset stays */
	static const unsigned subsets[] = {7, 3, 5, 6, 1, 2, 4};
	double best[TERMS] = {0}, coef[TERMS];
	double best_rss = INFINITY;
	*out = (struct model_fit){NAN, NAN, NAN, NAN, NAN, 0, false};
	for (size_t i = 0; i < n; i++)
		out->npoints += usable(time_us[i]);
	if (out->npoints == 0)
		return -1;
	best_rss = rss_of(x, time_us, n, best); /* all zero: always feasible */
	for (size_t s = 0; s < sizeof subsets / sizeof subsets[0]; s++) {
		int rc = fit_subset(x, time_us, n, subsets[s], coef);
		if (subsets[s] == 7)
			out->degenerate = rc == -2;
		if (rc != 0)
			continue;
		double rss = rss_of(x, time_us, n, coef);
		/*
		 * Replace only when clearly better: when terms are (nearly) dependent,
		 * several subsets fit alike and the earlier one, which keeps beta (the
		 * wire) rather than gamma, should stay.
		 */
		if (rss < best_rss * (1 - 1e-3)) {
			best_rss = rss;
			memcpy(best, coef, sizeof best);
		}
	}
	out->alpha_us = best[0];
	out->beta_us_per_byte = best[1];
	out->gamma_us_per_byte = best[2];
	fill_errors(x, time_us, n, out);
	return 0;
}

double model_time_us(const struct model_fit *f, const struct model_terms *x)
{
	return f->alpha_us * x->messages + f->beta_us_per_byte * x->bytes +
	       f->gamma_us_per_byte * x->reduced_bytes;
}

double model_exposed_us(double tar_us, double overlap, double compute_us)
{
	double hidden = overlap * tar_us;
	if (hidden > compute_us)
		hidden = compute_us;
	return tar_us - (hidden > 0 ? hidden : 0);
}

static bool step_args_ok(double compute_us, double tar_us, double overlap)
{
	return compute_us > 0 && isfinite(compute_us) && tar_us >= 0 && isfinite(tar_us) &&
	       overlap >= 0 && overlap <= 1;
}

double model_weak_efficiency(double compute_us, double tar_us, double overlap)
{
	if (!step_args_ok(compute_us, tar_us, overlap))
		return NAN;
	return compute_us / (compute_us + model_exposed_us(tar_us, overlap, compute_us));
}

double model_weak_speedup(int nranks, double compute_us, double tar_us, double overlap)
{
	if (nranks < 1)
		return NAN;
	return nranks * model_weak_efficiency(compute_us, tar_us, overlap);
}

double model_strong_speedup(int nranks, double compute_us, double tar_us, double overlap)
{
	if (nranks < 1 || !step_args_ok(compute_us, tar_us, overlap))
		return NAN;
	double per_rank = compute_us / nranks;
	return compute_us / (per_rank + model_exposed_us(tar_us, overlap, per_rank));
}

long model_sweet_spot(const double *speedup, size_t n, bool *at_edge)
{
	long best = -1, last = -1;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(speedup[i]))
			continue;
		last = (long)i;
		if (best < 0 || speedup[i] > speedup[best])
			best = (long)i;
	}
	*at_edge = best >= 0 && best == last;
	return best;
}
