/* Offset and drift from synthetic ping-pong timestamps (algorithms/clock_model.c). */
#include <criterion/criterion.h>
#include <math.h>

#include "algorithms/clock_model.h"

/* A rank whose clock reads local = (ref - off0) / (1 + d): ref = local + off0 + d local. */
struct fake_clock {
	double off0, drift;
};

static double ref_of(const struct fake_clock *c, double local) { return local + c->off0 + c->drift * local; }

/* A ping-pong sent at local time t with one-way trips up and down (seconds). */
static struct clock_pingpong pp(const struct fake_clock *c, double t, double up, double down)
{
	return (struct clock_pingpong){.send_s = t, .ref_s = ref_of(c, t + up), .recv_s = t + up + down};
}

Test(clock_model, best_of_a_round_is_the_shortest_round_trip)
{
	struct fake_clock c = {.off0 = 0.25};
	struct clock_pingpong p[] = {pp(&c, 1.0, 3e-6, 5e-6), pp(&c, 1.001, 0.4e-6, 0.4e-6),
	                             pp(&c, 1.002, 2e-6, 0.5e-6)};
	struct clock_point best;
	cr_assert_eq(clock_best(p, 3, &best), 0);
	cr_expect_float_eq(best.rtt_s, 0.8e-6, 1e-12);
	cr_expect_float_eq(best.offset_s, 0.25, 1e-12, "symmetric trips: the exact offset");
	cr_expect_eq(clock_best(p, 0, &best), -1);
}

Test(clock_model, asymmetric_trip_errs_by_at_most_half_the_round_trip)
{
	struct fake_clock c = {.off0 = -3.5};
	struct clock_pingpong p = pp(&c, 10.0, 0.2e-6, 1.8e-6);
	struct clock_point best;
	cr_assert_eq(clock_best(&p, 1, &best), 0);
	double err = fabs(best.offset_s - c.off0);
	cr_expect(err <= best.rtt_s / 2 + 1e-12, "error %g within rtt/2 %g", err, best.rtt_s / 2);
	cr_expect_float_eq(err, 0.8e-6, 1e-12);
}

Test(clock_model, burst_takes_the_median_offset)
{
	struct clock_point pts[] = {{1.0, 5e-6, 1e-6}, {1.1, 7e-6, 2e-6}, {1.2, 100e-6, 0.9e-6},
	                            {1.3, 6e-6, 1e-6}, {1.4, 5.5e-6, 3e-6}};
	struct clock_point est;
	cr_assert_eq(clock_burst(pts, 5, &est), 0);
	cr_expect_float_eq(est.offset_s, 6e-6, 1e-15, "one preempted round does not move it");
	cr_expect_float_eq(est.local_s, 1.2, 1e-12);
	cr_expect_float_eq(est.rtt_s, 0.9e-6, 1e-15);
	cr_expect_eq(clock_burst(pts, 0, &est), -1);
}

Test(clock_model, line_fit_recovers_slope_and_intercept)
{
	double x[5] = {1000, 1001, 1002, 1003, 1004}, y[5], a, b, xm;
	for (int i = 0; i < 5; i++)
		y[i] = 2e-3 + 4e-6 * (x[i] - 1000);
	cr_assert_eq(clock_fit_line(x, y, 5, &a, &b, &xm), 0);
	cr_expect_float_eq(b, 4e-6, 1e-15);
	cr_expect_float_eq(xm, 1002, 1e-9);
	cr_expect_float_eq(a, 2e-3 + 8e-6, 1e-15);
	double same[3] = {5, 5, 5};
	cr_expect_eq(clock_fit_line(same, y, 3, &a, &b, &xm), -1, "no spread in x");
	cr_expect_eq(clock_fit_line(x, y, 1, &a, &b, &xm), -1);
}

/* Syncs every 2 s of a clock drifting 10 ppm, each a burst of noisy rounds. */
Test(clock_model, drift_comes_from_the_history_of_syncs)
{
	struct fake_clock c = {.off0 = 0.125, .drift = 10e-6};
	struct clock_model m;
	clock_model_init(&m);
	cr_expect_float_eq(clock_to_ref(&m, 3.0), 3.0, 1e-15, "identity before a sync");
	unsigned seed = 7;
	double jump = 0;
	for (int s = 0; s < 6; s++) {
		struct clock_point pts[10];
		for (int k = 0; k < 10; k++) {
			struct clock_pingpong round[8];
			for (int j = 0; j < 8; j++) {
				seed = seed * 1103515245u + 12345u;
				double up = 0.3e-6 + (seed >> 16) % 1000 * 1e-9; /* 0.3-1.3 us */
				seed = seed * 1103515245u + 12345u;
				double down = 0.3e-6 + (seed >> 16) % 1000 * 1e-9;
				round[j] = pp(&c, 2.0 * s + k * 1e-4 + j * 1e-5, up, down);
			}
			cr_assert_eq(clock_best(round, 8, &pts[k]), 0);
		}
		struct clock_point est;
		cr_assert_eq(clock_burst(pts, 10, &est), 0);
		clock_model_update(&m, &est, 1.0, &jump);
		if (s == 0) {
			cr_expect(isnan(jump), "no jump on the first sync");
			cr_expect_eq(m.drift, 0, "one burst gives no drift");
		} else if (s >= 2) {
			/* the previous model, drift included, predicted this offset closely */
			cr_expect(jump < 0.6e-6, "sync %d: the old model was %g s off", s, jump);
		}
	}
	cr_expect(fabs(m.drift - 10e-6) < 0.5e-6, "drift %g, expected 1e-5", m.drift);
	cr_expect_eq(m.syncs, 6);
	/* 10 s after the last sync the model still maps within a microsecond */
	double t = 20.0;
	cr_expect(fabs(clock_to_ref(&m, t) - ref_of(&c, t)) < 5e-6, "error %g",
	          fabs(clock_to_ref(&m, t) - ref_of(&c, t)));
	struct clock_point check = {.local_s = 11.0, .offset_s = ref_of(&c, 11.0) - 11.0, .rtt_s = 1e-6};
	cr_expect(clock_residual(&m, &check) < 1e-6);
	/* a check knows the offset within half its round trip: only the excess is the model's error */
	struct clock_model id;
	clock_model_init(&id);
	struct clock_point far = {.local_s = 1.0, .offset_s = 5e-6, .rtt_s = 4e-6};
	cr_expect_float_eq(clock_residual(&id, &far), 3e-6, 1e-12);
	far.offset_s = -1.5e-6;
	cr_expect_float_eq(clock_residual(&id, &far), 0, 1e-12, "within the check's own uncertainty");
}

Test(clock_model, history_keeps_the_last_syncs)
{
	struct clock_model m;
	clock_model_init(&m);
	for (int s = 0; s < CLOCK_HISTORY + 3; s++) {
		struct clock_point est = {.local_s = s, .offset_s = 1e-3, .rtt_s = 1e-6};
		clock_model_update(&m, &est, 0.5, NULL);
	}
	cr_expect_eq(m.nhist, CLOCK_HISTORY);
	cr_expect_float_eq(m.hist[0].local_s, 3.0, 1e-12);
	cr_expect_float_eq(m.drift, 0, 1e-15);
	cr_expect_float_eq(clock_to_ref(&m, 100.0), 100.001, 1e-12);
}
