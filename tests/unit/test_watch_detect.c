/*
 * watch's online detector (reports/watch/watch_detect.h) and its ring: the
 * false-alarm rate on stationary log-normal noise, the delay to detect steps
 * of given sizes (printed, so a change of the method shows its price), a
 * recovery found as a change of its own, an outlier not a change, and the
 * ring's overwrite order.
 */
#include "reports/watch/watch_detect.h"
#include "reports/watch/watch_ring.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

static uint64_t rng;

static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* A value of level 100 x factor with log-normal noise of spread sigma. */
static double sample(double factor, double sigma)
{
	return 100 * factor * exp(sigma * normal());
}

static struct watch_detector detector(void)
{
	struct watch_detect_params p;
	struct watch_detector d;
	watch_detect_params_default(&p);
	cr_assert_eq(watch_detector_init(&d, &p), 0);
	return d;
}

/* Changes found in `values` values of stationary noise, summed over `series` series. */
static int false_alarms(int series, int values, double sigma)
{
	int found = 0;
	for (int s = 0; s < series; s++) {
		struct watch_detector d = detector();
		struct watch_change c;
		for (int i = 0; i < values; i++) {
			int rc = watch_detector_push(&d, i, sample(1, sigma), &c);
			cr_assert_geq(rc, 0);
			found += rc;
		}
		watch_detector_release(&d);
	}
	return found;
}

Test(watch_detect, false_alarm_rate_on_stationary_noise)
{
	rng = 11;
	const int series = 100, values = 300;
	int quiet = false_alarms(series, values, 0.05), noisy = false_alarms(series, values, 0.15);
	fprintf(stderr,
	        "watch_detect: false alarms in %d values of stationary noise: %d at sigma 0.05 "
	        "(%.4f per value), %d at sigma 0.15 (%.4f per value)\n",
	        series * values, quiet, (double)quiet / (series * values), noisy,
	        (double)noisy / (series * values));
	cr_expect_eq(quiet, 0);
	/*
	 * 15% noise: the step gate of 25% is about 2 sigma of the difference of a median of 4
	 * and one of 20, so the permutation test runs often and alpha decides
	 */
	cr_expect_leq(noisy, 3 * series * values / 1000);
}

/* The delay (values of the new level) to detect a step at index 40; 0 when never found. */
static size_t delay(double factor, double sigma, double *step)
{
	struct watch_detector d = detector();
	struct watch_change c;
	size_t found = 0;
	for (int i = 0; i < 80 && !found; i++)
		if (watch_detector_push(&d, i, sample(i >= 40 ? factor : 1, sigma), &c) == 1) {
			cr_expect_eq(c.t_s, 40, "step of %g found at %g", factor, c.t_s);
			found = c.delay_values;
			*step = c.step;
		}
	watch_detector_release(&d);
	return found;
}

/*
 * Steps well past the gate (1.5x either way and more) are found, each after
 * exactly confirm values; one near it (1.3x against the gate of 1.25x, at 5%
 * noise) mostly, a little later: its printed figures say how often.
 */
Test(watch_detect, delay_to_detect_a_step)
{
	static const double factors[] = {2.0, 0.5, 1.5, 1 / 1.5, 1.3};
	rng = 5;
	for (size_t k = 0; k < sizeof factors / sizeof factors[0]; k++) {
		double worst = 0, step = 0, total = 0;
		int runs = 20, found = 0;
		for (int r = 0; r < runs; r++) {
			size_t dl = delay(factors[k], 0.05, &step);
			if (!dl)
				continue;
			found++;
			worst = fmax(worst, (double)dl);
			total += (double)dl;
			cr_expect(fabs(log(step / factors[k])) < 0.15, "step %g for %g", step,
			          factors[k]);
		}
		fprintf(
		    stderr,
		    "watch_detect: a step of %.2fx at sigma 0.05: found in %d of %d runs, after "
		    "%.1f values on average, %.0f at worst (confirm %d)\n",
		    factors[k], found, runs, found ? total / found : NAN, worst,
		    WATCH_DEFAULT_CONFIRM);
		if (fabs(log(factors[k])) >= log(1.5) - 1e-9) {
			cr_expect_eq(found, runs, "%gx", factors[k]);
			cr_expect_eq(worst, WATCH_DEFAULT_CONFIRM, "%gx", factors[k]);
		} else {
			cr_expect_geq(found, runs * 3 / 4, "%gx", factors[k]);
		}
	}
}

Test(watch_detect, below_min_step_is_no_change)
{
	double step = 0;
	rng = 7;
	cr_expect_eq(delay(1.1, 0.01, &step), 0);
}

Test(watch_detect, slowdown_then_recovery_are_two_changes)
{
	struct watch_detector d = detector();
	struct watch_change c, got[4];
	int n = 0;
	rng = 3;
	for (int i = 0; i < 90; i++) {
		double f = i >= 30 && i < 60 ? 3 : 1;
		if (watch_detector_push(&d, 10.0 * i, sample(f, 0.05), &c) == 1 && n < 4)
			got[n++] = c;
	}
	watch_detector_release(&d);
	cr_assert_eq(n, 2);
	cr_expect_eq(got[0].t_s, 300);
	cr_expect_eq(got[1].t_s, 600);
	cr_expect_gt(got[0].step, 2.5);
	cr_expect_lt(got[1].step, 0.4);
	cr_expect_eq(got[0].detected_t_s, 300 + 10 * (WATCH_DEFAULT_CONFIRM - 1));
}

Test(watch_detect, outliers_are_no_change)
{
	struct watch_detector d = detector();
	struct watch_change c;
	int n = 0;
	rng = 9;
	for (int i = 0; i < 200; i++)
		n += watch_detector_push(&d, i, sample(i % 17 == 0 ? 10 : 1, 0.05), &c);
	/* a value not measured is not evidence */
	n += watch_detector_push(&d, 200, NAN, &c) + watch_detector_push(&d, 201, 0, &c);
	watch_detector_release(&d);
	cr_expect_eq(n, 0);
}

Test(watch_detect, bad_parameters)
{
	struct watch_detect_params p;
	struct watch_detector d;
	watch_detect_params_default(&p);
	p.window = 2 * p.confirm - 1;
	cr_expect_eq(watch_detector_init(&d, &p), -1);
	watch_detect_params_default(&p);
	p.alpha = 1;
	cr_expect_eq(watch_detector_init(&d, &p), -1);
}

Test(watch_ring, keeps_the_newest_in_order)
{
	struct watch_ring r;
	cr_assert_eq(watch_ring_init(&r, 3, sizeof(int)), 0);
	for (int i = 1; i <= 5; i++)
		*(int *)watch_ring_push(&r) = i;
	cr_expect_eq(r.n, 3);
	cr_expect_eq(r.dropped, 2);
	cr_expect_eq(*(int *)watch_ring_at(&r, 0), 3);
	cr_expect_eq(*(int *)watch_ring_at(&r, 2), 5);
	cr_expect_null(watch_ring_at(&r, 3));
	watch_ring_drop(&r, 2);
	cr_expect_eq(*(int *)watch_ring_at(&r, 0), 5);
	watch_ring_drop(&r, 9);
	cr_expect_eq(r.n, 0);
	watch_ring_release(&r);
	cr_expect_eq(watch_ring_init(&r, 0, 4), -1);
}
