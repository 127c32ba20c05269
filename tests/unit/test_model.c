/*
 * The models of `collscope scale` (reports/model/model.h): the non-negative fit
 * recovers known coefficients from synthetic points, the step model gives
 * the efficiency, speedup and sweet spot of curves known in closed form.
 */
#include "algorithms/cost.h"
#include "reports/model/model.h"

#include <criterion/criterion.h>
#include <math.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static bool close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want) + 1e-15;
}

/* Points whose three terms vary independently: all three coefficients come back. */
Test(model, fit_recovers_alpha_beta_gamma)
{
	const struct model_terms x[] = {
	    {2, 8, 4}, {6, 1000, 100}, {4, 1 << 20, 1 << 18}, {14, 1 << 22, 1 << 22}, {30, 64, 64},
	};
	const double alpha = 3.5, beta = 2e-4, gamma = 7e-5;
	double t[N_OF(x)];
	struct model_fit f;
	for (size_t i = 0; i < N_OF(x); i++)
		t[i] = alpha * x[i].messages + beta * x[i].bytes + gamma * x[i].reduced_bytes;
	cr_assert_eq(model_fit_abg(x, t, N_OF(x), &f), 0);
	cr_expect(close_to(f.alpha_us, alpha, 1e-9), "alpha %g", f.alpha_us);
	cr_expect(close_to(f.beta_us_per_byte, beta, 1e-9), "beta %g", f.beta_us_per_byte);
	cr_expect(close_to(f.gamma_us_per_byte, gamma, 1e-9), "gamma %g", f.gamma_us_per_byte);
	cr_expect_lt(f.rms_error, 1e-9);
	cr_expect_lt(f.max_error, 1e-9);
	cr_expect_eq(f.npoints, N_OF(x));
	cr_expect_not(f.degenerate);
}

/*
 * The check: points made from the ring's own schedule at 2..16 ranks
 * and 3 sizes with known alpha and beta give alpha and beta back. The ring
 * reduces half of what it moves, so gamma cannot be told from beta: it is 0
 * and the fit says the terms are dependent.
 */
Test(model, fit_recovers_alpha_beta_from_ring_points)
{
	const double alpha = 12.0, beta = 1.0 / 8000; /* 8 GB/s */
	struct model_terms x[30];
	double t[30];
	size_t k = 0;
	struct model_fit f;
	for (int n = 2; n <= 16; n += 3)
		for (size_t count = 16; count <= (size_t)16 << 20; count <<= 10) {
			struct cost_path c;
			cr_assert_eq(cost_walk(ar_variant_find("ring"), n, count * (size_t)n, 4,
			                       (size_t)1 << 30, 0, &c),
			             0);
			x[k] = (struct model_terms){(double)c.messages, (double)c.bytes,
			                            (double)c.reduced_bytes};
			t[k] = alpha * x[k].messages + beta * x[k].bytes;
			k++;
		}
	cr_assert_eq(model_fit_abg(x, t, k, &f), 0);
	cr_expect(close_to(f.alpha_us, alpha, 1e-6), "alpha %g", f.alpha_us);
	cr_expect(close_to(f.beta_us_per_byte, beta, 1e-6), "beta %g", f.beta_us_per_byte);
	cr_expect_eq(f.gamma_us_per_byte, 0);
	cr_expect(f.degenerate);
	cr_expect_lt(f.max_error, 1e-6);
}

/* 2 % noise of alternating sign: the coefficients within a few percent, the error reported. */
Test(model, fit_with_noise_reports_its_error)
{
	const double alpha = 5, beta = 1e-3;
	struct model_terms x[12];
	double t[12];
	struct model_fit f;
	for (int i = 0; i < 12; i++) {
		x[i] = (struct model_terms){2.0 * (i % 4 + 1), (double)(1u << (2 * i)), 0};
		t[i] = (alpha * x[i].messages + beta * x[i].bytes) * (i % 2 ? 1.02 : 0.98);
	}
	cr_assert_eq(model_fit_abg(x, t, 12, &f), 0);
	cr_expect(close_to(f.alpha_us, alpha, 0.05), "alpha %g", f.alpha_us);
	cr_expect(close_to(f.beta_us_per_byte, beta, 0.05), "beta %g", f.beta_us_per_byte);
	cr_expect(f.rms_error > 0.005 && f.rms_error < 0.03, "rms %g", f.rms_error);
	cr_expect(f.max_error >= f.rms_error && f.max_error < 0.05, "max %g", f.max_error);
}

/* Times that fall as bytes grow want a negative beta: the fit keeps it at 0. */
Test(model, fit_is_non_negative)
{
	const struct model_terms x[] = {{1, 100, 0}, {1, 200, 0}, {1, 400, 0}};
	const double t[] = {10, 9, 8};
	struct model_fit f;
	cr_assert_eq(model_fit_abg(x, t, 3, &f), 0);
	cr_expect_geq(f.alpha_us, 0);
	cr_expect_eq(f.beta_us_per_byte, 0);
	cr_expect_eq(f.gamma_us_per_byte, 0);
	cr_expect(close_to(f.alpha_us, 8.9, 0.05), "alpha %g", f.alpha_us);
}

Test(model, fit_ignores_unusable_points)
{
	const struct model_terms x[] = {{2, 0, 0}, {4, 0, 0}, {6, 0, 0}};
	const double bad[] = {NAN, 0, -1};
	const double some[] = {NAN, 20, INFINITY};
	struct model_fit f;
	cr_expect_eq(model_fit_abg(x, bad, 3, &f), -1);
	cr_expect_eq(f.npoints, 0);
	cr_expect(isnan(f.alpha_us));
	cr_assert_eq(model_fit_abg(x, some, 3, &f), 0);
	cr_expect_eq(f.npoints, 1);
	cr_expect(close_to(f.alpha_us, 5, 1e-12));
}

/* Tc = 100, Tar = 25: E = 0.8 and the speedup 0.8 n, overlapped or not. */
Test(model, weak_scaling)
{
	cr_expect(close_to(model_weak_efficiency(100, 25, 0), 0.8, 1e-12));
	cr_expect(close_to(model_weak_speedup(256, 100, 25, 0), 204.8, 1e-12));
	/* half the all-reduce hidden: 12.5 exposed */
	cr_expect(close_to(model_weak_efficiency(100, 25, 0.5), 100 / 112.5, 1e-12));
	cr_expect(close_to(model_weak_efficiency(100, 0, 0), 1, 1e-12));
	cr_expect(isnan(model_weak_efficiency(0, 25, 0)));
	cr_expect(isnan(model_weak_efficiency(100, NAN, 0)));
	cr_expect(isnan(model_weak_efficiency(100, 25, 1.5)));
	cr_expect(isnan(model_weak_speedup(0, 100, 25, 0)));
}

Test(model, overlap_never_hides_more_than_the_compute)
{
	cr_expect(close_to(model_exposed_us(10, 0.5, 100), 5, 1e-12));
	cr_expect(close_to(model_exposed_us(10, 0.5, 3), 7, 1e-12));
	cr_expect(close_to(model_exposed_us(10, 1, 100), 0, 1e-12));
	cr_expect(close_to(model_exposed_us(10, 0, 100), 10, 1e-12));
}

/*
 * Strong scaling with Tar(n) = a n: S(n) = Tc / (Tc / n + a n) peaks at
 * n = sqrt(Tc / a). Tc = 100, a = 1: the sweet spot is 10 ranks, S = 5.
 */
Test(model, strong_scaling_sweet_spot)
{
	double s[64];
	bool edge;
	for (int n = 1; n <= 64; n++)
		s[n - 1] = model_strong_speedup(n, 100, 1.0 * n, 0);
	cr_expect(close_to(s[0], 100.0 / 101, 1e-12));
	cr_expect(close_to(s[9], 5, 1e-12));
	long best = model_sweet_spot(s, 64, &edge);
	cr_expect_eq(best, 9, "sweet spot at %ld ranks", best + 1);
	cr_expect_not(edge);
	/* with no all-reduce at all the speedup is ideal and rises to the last count */
	for (int n = 1; n <= 64; n++)
		s[n - 1] = model_strong_speedup(n, 100, 0, 0);
	cr_expect(close_to(s[63], 64, 1e-12));
	cr_expect_eq(model_sweet_spot(s, 64, &edge), 63);
	cr_expect(edge);
	cr_expect(isnan(model_strong_speedup(0, 100, 1, 0)));
}

/* Overlap moves the sweet spot out: hidden communication costs nothing while compute lasts. */
Test(model, overlap_moves_the_sweet_spot)
{
	double plain[256], hidden[256];
	bool edge;
	for (int n = 1; n <= 256; n++) {
		plain[n - 1] = model_strong_speedup(n, 1000, 0.1 * n, 0);
		hidden[n - 1] = model_strong_speedup(n, 1000, 0.1 * n, 0.5);
	}
	long a = model_sweet_spot(plain, 256, &edge), b = model_sweet_spot(hidden, 256, &edge);
	cr_expect_eq(a + 1, 100, "plain sweet spot %ld", a + 1);
	cr_expect_gt(b, a, "overlapped %ld, plain %ld", b + 1, a + 1);
	cr_expect_gt(hidden[b], plain[a]);
}

Test(model, sweet_spot_skips_what_is_not_a_number)
{
	const double s[] = {NAN, 2, 3, NAN};
	const double none[] = {NAN, NAN};
	bool edge;
	cr_expect_eq(model_sweet_spot(s, 4, &edge), 2);
	cr_expect(edge, "3 is the last finite value");
	cr_expect_eq(model_sweet_spot(none, 2, &edge), -1);
	cr_expect_not(edge);
	cr_expect_eq(model_sweet_spot(s, 0, &edge), -1);
}
