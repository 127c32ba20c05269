/* Window timing, dropped late starts and the straggler's cause, on synthetic stamps (algorithms/timing.c). */
#include <criterion/criterion.h>
#include <math.h>

#include "algorithms/timing.h"

enum { R = 3, N = 4 };

Test(timing, names_parse_both_ways)
{
	enum timing_method m;
	for (int i = 0; i < TIMING_METHOD_COUNT; i++) {
		cr_assert_eq(timing_method_parse(timing_method_name((enum timing_method)i), &m), 0);
		cr_expect_eq((int)m, i);
	}
	cr_expect_eq(timing_method_parse("windowed", &m), -1);
	cr_expect_eq(timing_method_parse(NULL, &m), -1);
	cr_expect_str_eq(timing_cause_name(TIMING_CAUSE_LATE_ARRIVAL), "late_arrival");
	cr_expect_str_eq(timing_cause_name(TIMING_CAUSE_SLOW_INSIDE), "slow_inside");
	cr_expect_null(timing_cause_name(TIMING_CAUSE_NONE));
	cr_expect_str_eq(timing_from_name(TIMING_FROM_START), "start");
	cr_expect_str_eq(timing_from_name(TIMING_FROM_LAST_ARRIVAL), "last_arrival");
	cr_expect_null(timing_from_name(TIMING_FROM_NONE));
}

/* Late starts are dropped while they are at most half; past that they are the finding. */
Test(timing, window_retimes_only_when_most_starts_are_late)
{
	cr_expect_not(timing_window_retime(0, 0), "no attempt, nothing to retime");
	cr_expect_not(timing_window_retime(0, 200));
	cr_expect_not(timing_window_retime(1, 2), "half late: the other half is kept");
	cr_expect_not(timing_window_retime(100, 200));
	cr_expect(timing_window_retime(101, 200));
	cr_expect(timing_window_retime(2, 3));
	cr_expect(timing_window_retime(1, 1), "one attempt, late: kept, not lost");
	cr_expect(timing_window_retime(200, 200));
}

Test(timing, pipelined_batches_and_the_lead)
{
	cr_expect_eq(timing_pipe_calls(10), 1);
	cr_expect_eq(timing_pipe_calls(160), 10);
	cr_expect_eq(timing_pipe_calls(100000), TIMING_PIPE_MAX_CALLS);
}

/* A batch of 8 attempts' least slacks: `missed` of them at -1 us, the rest at `spare` us. */
static double lead_after(double lead, int missed, double spare)
{
	double slack[8];
	for (int i = 0; i < 8; i++)
		slack[i] = i < missed ? -1 : spare;
	return timing_next_lead_us(lead, slack, 8);
}

Test(timing, the_lead_grows_on_misses_and_shrinks_with_room_to_spare)
{
	cr_expect_float_eq(lead_after(20, 3, 5), 20, 1e-12, "3 of 8 missed: kept");
	cr_expect_float_eq(lead_after(20, 4, 5), 40, 1e-12, "half missed: doubled");
	cr_expect_float_eq(lead_after(TIMING_LEAD_MAX_US, 8, 0), TIMING_LEAD_MAX_US, 1e-12);
	cr_expect_float_eq(lead_after(20, 0, 10.5), 10, 1e-12, "all over half spare: halved");
	cr_expect_float_eq(lead_after(20, 0, 9.5), 20, 1e-12, "one under half spare: kept");
	cr_expect_float_eq(lead_after(20, 1, 15), 20, 1e-12, "one missed: never halved");
	cr_expect_float_eq(lead_after(3, 0, 2.9), TIMING_LEAD_MIN_US, 1e-12, "down to the least");
	cr_expect_float_eq(lead_after(TIMING_LEAD_MIN_US, 0, 1.9), TIMING_LEAD_MIN_US, 1e-12);
	double none[1] = {0};
	cr_expect_float_eq(timing_next_lead_us(20, none, 0), 20, 1e-12, "no attempt: kept");
	/* from the first lead, room to spare every batch reaches the least in a few batches */
	double lead = TIMING_LEAD_FIRST_US;
	for (int b = 0; b < 4; b++)
		lead = lead_after(lead, 0, lead);
	cr_expect_float_eq(lead, TIMING_LEAD_MIN_US, 1e-12);
}

/* Every rank arrives at the start (0) and ends at end[r]; attempt 2 has rank 1 arrive 5 us late. */
Test(timing, window_drops_late_starts_and_times_from_the_start)
{
	double arrive[R * N] = {0}, end[R * N], samples[N], late[R], inside[R];
	for (int r = 0; r < R; r++)
		for (int i = 0; i < N; i++)
			end[r * N + i] = 2.0 + r * 0.1 + i;
	arrive[1 * N + 2] = 5.0;
	end[1 * N + 2] = 6.0;
	struct timing_input in = {.method = TIMING_WINDOW, .nranks = R, .attempts = N,
	                          .arrive_us = arrive, .end_us = end, .calls = 1, .synced = true,
	                          .slack_us = TIMING_LATE_SLACK_US};
	struct timing_result out;
	double blame[2 * R];
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_eq(out.late_starts, 1);
	cr_expect_eq(out.late_retimed, 0, "one late start of four is dropped, not retimed");
	cr_expect_eq(out.from, TIMING_FROM_START);
	cr_assert_eq(out.nsamples, 3);
	/* the latest end (rank 2's) minus the common start */
	cr_expect_float_eq(samples[0], 2.2, 1e-12);
	cr_expect_float_eq(samples[1], 3.2, 1e-12);
	cr_expect_float_eq(samples[2], 5.2, 1e-12);
	cr_expect_float_eq(late[1], 5.0 / N, 1e-12);
	cr_expect_float_eq(late[0], 0, 1e-12);
	cr_expect_float_eq(inside[0], (2 + 3 + 4 + 5) / 4.0, 1e-12);
}

Test(timing, barrier_takes_the_longest_own_call)
{
	double arrive[2 * 2] = {0, 10, 0.4, 10.3}, end[2 * 2] = {1.0, 11.5, 1.2, 11.6};
	double samples[2], late[2], inside[2];
	struct timing_input in = {.method = TIMING_BARRIER, .nranks = 2, .attempts = 2,
	                          .arrive_us = arrive, .end_us = end, .calls = 1, .synced = true};
	struct timing_result out;
	double blame[2 * R];
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_eq(out.late_starts, 0, "only window drops");
	cr_expect_eq(out.from, TIMING_FROM_NONE, "each rank's own call, no common origin");
	cr_assert_eq(out.nsamples, 2);
	cr_expect_float_eq(samples[0], 1.0, 1e-12);
	cr_expect_float_eq(samples[1], 1.5, 1e-12);
	cr_expect_float_eq(late[1], 0.35, 1e-12, "after the first arrival: 0.4 and 0.3");
}

Test(timing, pipelined_divides_by_the_calls)
{
	double arrive[2] = {0, 0.1}, end[2] = {64.0, 60.0}, samples[1], late[2], inside[2];
	struct timing_input in = {.method = TIMING_PIPELINED, .nranks = 2, .attempts = 1,
	                          .arrive_us = arrive, .end_us = end, .calls = 64, .synced = true};
	struct timing_result out;
	double blame[2 * R];
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_float_eq(samples[0], 1.0, 1e-12);
	cr_expect_float_eq(inside[0], 1.0, 1e-12);
}

/* Rank 2 reaches its call 2 ms after the others, every attempt: it is late, not slow. */
Test(timing, a_late_rank_is_named_late_arrival)
{
	for (int m = 0; m < TIMING_METHOD_COUNT; m++) {
		double arrive[R * N], end[R * N], samples[N], late[R], inside[R];
		for (int r = 0; r < R; r++)
			for (int i = 0; i < N; i++) {
				arrive[r * N + i] = r == 2 ? 2000.0 + i * 0.01 : 0.1 * r;
				end[r * N + i] = 2001.0 + 0.05 * ((r + i) % R); /* ends mix up */
			}
		struct timing_input in = {.method = (enum timing_method)m, .nranks = R, .attempts = N,
		                          .arrive_us = arrive, .end_us = end, .calls = 1,
		                          .synced = true, .slack_us = TIMING_LATE_SLACK_US};
		struct timing_result out;
	double blame[2 * R];
		cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
		cr_expect_eq(out.straggler_rank, 2, "%s", timing_method_name(in.method));
		cr_expect_eq(out.cause, TIMING_CAUSE_LATE_ARRIVAL, "%s", timing_method_name(in.method));
		cr_expect(out.straggler_us > 1999 && out.straggler_us < 2001);
		if (m != TIMING_WINDOW)
			continue;
		/* the late rank is the finding: every attempt kept, timed from its last arrival */
		cr_expect_eq(out.late_starts, 0, "nothing dropped");
		cr_expect_eq(out.late_retimed, N);
		cr_expect_eq(out.from, TIMING_FROM_LAST_ARRIVAL);
		cr_assert_eq(out.nsamples, N);
		for (int i = 0; i < N; i++) {
			double last_end = 0;
			for (int r = 0; r < R; r++)
				last_end = fmax(last_end, end[r * N + i]);
			cr_expect_float_eq(samples[i], last_end - (2000.0 + i * 0.01), 1e-9,
			                   "attempt %d: from rank 2's arrival to the last end", i);
			cr_expect(samples[i] > 0 && samples[i] < 2, "not the 2 ms of lateness");
		}
	}
}

/*
 * Three attempts of five late (rank 1, 300 us): more than half, so all five
 * are kept, the on-time ones too, each from its last arrival; two of five
 * late are dropped instead.
 */
Test(timing, window_with_a_mostly_late_rank_keeps_every_attempt)
{
	enum { A = 5 };
	double arrive[2 * A] = {0}, end[2 * A], samples[A], late[2], inside[2], blame[4];
	for (int i = 0; i < A; i++) {
		arrive[A + i] = i < 3 ? 300.0 : 0.2;
		end[i] = end[A + i] = arrive[A + i] + 10.0;
	}
	struct timing_input in = {.method = TIMING_WINDOW, .nranks = 2, .attempts = A,
	                          .arrive_us = arrive, .end_us = end, .calls = 1, .synced = true,
	                          .slack_us = TIMING_LATE_SLACK_US};
	struct timing_result out;
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_eq(out.from, TIMING_FROM_LAST_ARRIVAL);
	cr_expect_eq(out.late_retimed, 3);
	cr_expect_eq(out.late_starts, 0);
	cr_assert_eq(out.nsamples, A);
	for (int i = 0; i < A; i++)
		cr_expect_float_eq(samples[i], 10.0, 1e-9, "attempt %d", i);
	cr_expect_eq(out.straggler_rank, 1);
	cr_expect_eq(out.cause, TIMING_CAUSE_LATE_ARRIVAL);
	arrive[A + 2] = 0.2; /* now two of five late: dropped, the rest from the start */
	end[2] = end[A + 2] = 10.2;
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_eq(out.from, TIMING_FROM_START);
	cr_expect_eq(out.late_starts, 2);
	cr_expect_eq(out.late_retimed, 0);
	cr_assert_eq(out.nsamples, 3);
	cr_expect_float_eq(samples[0], 10.2, 1e-9, "from the start: the slack's 0.2 us included");
}

/* Every rank arrives together; rank 0 ends 2 ms after the others: slow inside its call. */
Test(timing, a_slow_rank_is_named_slow_inside)
{
	double arrive[R * N], end[R * N], samples[N], late[R], inside[R];
	for (int r = 0; r < R; r++)
		for (int i = 0; i < N; i++) {
			arrive[r * N + i] = 0.02 * ((r + i) % R); /* arrivals mix up, within the slack */
			end[r * N + i] = r == 0 ? 2003.0 : 3.0 + 0.1 * r;
		}
	struct timing_input in = {.method = TIMING_WINDOW, .nranks = R, .attempts = N,
	                          .arrive_us = arrive, .end_us = end, .calls = 1, .synced = true,
	                          .slack_us = TIMING_LATE_SLACK_US};
	struct timing_result out;
	double blame[2 * R];
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_eq(out.late_starts, 0);
	cr_expect_eq(out.straggler_rank, 0);
	cr_expect_eq(out.cause, TIMING_CAUSE_SLOW_INSIDE);
	cr_expect_float_eq(out.straggler_us, 2003.0 - 3.2, 1e-9);
}

Test(timing, without_synchronised_clocks_the_least_time_inside)
{
	double arrive[2] = {0, 0}, end[2] = {5.0, 1.0}, samples[1], late[2], inside[2];
	struct timing_input in = {.method = TIMING_BARRIER, .nranks = 2, .attempts = 1,
	                          .arrive_us = arrive, .end_us = end, .calls = 1, .synced = false};
	struct timing_result out;
	double blame[2 * R];
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_eq(out.straggler_rank, 1);
	cr_expect_eq(out.cause, TIMING_CAUSE_NONE);
	cr_expect(isnan(out.straggler_us));
	in.nranks = 1;
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_eq(out.straggler_rank, 0, "one rank is its own straggler");
	in.nranks = 0;
	cr_expect_eq(timing_analyze(&in, samples, late, inside, blame, &out), -1);
}

/* n attempts of 4 ranks timed by method; rank `late` arrives `by` us late in `times` of them. */
static void persistent_case(enum timing_method method, int n, int late, double by, int times,
                            struct timing_result *out)
{
	enum { RR = 4, NN = 40 };
	double arrive[RR * NN], end[RR * NN], samples[NN], lat[RR], inside[RR], blame[2 * RR];
	cr_assert(n <= NN);
	for (int r = 0; r < RR; r++)
		for (int i = 0; i < n; i++) {
			/* the others' arrivals a little apart, rotating who is last among them */
			arrive[r * n + i] = ((r + i) % RR) * 0.5 + (r == late && i < times ? by : 0);
			/* everyone ends when the late rank's data has gone round */
			end[r * n + i] = 100.0 + (i < times ? by : 0) + r * 0.01;
		}
	struct timing_input in = {.method = method, .nranks = RR, .attempts = n,
	                          .arrive_us = arrive, .end_us = end, .calls = 1, .synced = true,
	                          .slack_us = 1};
	cr_assert_eq(timing_analyze(&in, samples, lat, inside, blame, out), 0);
}

/* A rank late to every call is the finding; one late now and then is noise. */
Test(timing, a_persistent_late_rank_is_named_with_its_chance)
{
	struct timing_result t;
	persistent_case(TIMING_WINDOW, 20, 2, 30, 20, &t);
	cr_assert_eq(t.straggler_rank, 2);
	cr_assert_eq(t.cause, TIMING_CAUSE_LATE_ARRIVAL);
	cr_assert_eq(t.straggler_count, 20);
	/* 4 x 0.25^20 */
	cr_assert_float_eq(t.straggler_p, 4 * pow(0.25, 20), 1e-20);
	cr_assert(timing_straggler_persistent(&t, 130), "30 us of a 130 us call, every time");
	cr_assert(timing_straggler_persistent(&t, 600), "5%% of the p50: the job's problem");
	cr_assert_not(timing_straggler_persistent(&t, 4000), "0.75%% of the p50: not the job's problem");
	/* the others' start error: 0 to 1.5 us late (median 0.75), so 30 us stands out; 2 does not */
	cr_assert_float_eq(t.others_late_us, 0.75, 1e-9);
	persistent_case(TIMING_WINDOW, 20, 2, 2, 20, &t);
	cr_assert_eq(t.straggler_rank, 2);
	cr_assert(t.straggler_p <= TIMING_STRAGGLER_ALPHA);
	cr_assert_not(timing_straggler_persistent(&t, 100), "%g us against the others' %g",
	              t.straggler_us, t.others_late_us);
	/* late in 6 of 20 calls, the others' share: chance (4 x P(X >= 6), X ~ Bin(20, 1/4)) */
	persistent_case(TIMING_WINDOW, 20, 2, 30, 6, &t);
	cr_assert(t.straggler_p > TIMING_STRAGGLER_ALPHA, "p %g", t.straggler_p);
	cr_assert_not(timing_straggler_persistent(&t, 130));
	/* after a barrier the arrivals are its exit order: counted, not judged */
	persistent_case(TIMING_BARRIER, 20, 2, 30, 20, &t);
	cr_assert_eq(t.straggler_rank, 2);
	cr_assert_eq(t.straggler_count, 20);
	cr_assert(isnan(t.straggler_p));
	cr_assert_not(timing_straggler_persistent(&t, 130));
}

/*
 * Four ranks, twenty calls: the others' arrivals a little apart, rotating who is last among
 * them, plus extra[r][i]; every end at 300 us plus end_extra[r]. t from method's analysis; lat:
 * each rank's mean lateness.
 */
enum { RR4 = 4, NN20 = 20 };
static void analyze4(enum timing_method method, const double extra[RR4][NN20],
                     const double end_extra[RR4], struct timing_result *t, double *lat)
{
	double arrive[RR4 * NN20], end[RR4 * NN20], samples[NN20], inside[RR4], blame[2 * RR4];
	for (int r = 0; r < RR4; r++)
		for (int i = 0; i < NN20; i++) {
			arrive[r * NN20 + i] = ((r + i) % RR4) * 0.5 + extra[r][i];
			end[r * NN20 + i] = 300.0 + end_extra[r] + r * 0.01;
		}
	struct timing_input in = {.method = method, .nranks = RR4, .attempts = NN20,
	                          .arrive_us = arrive, .end_us = end, .calls = 1, .synced = true,
	                          .slack_us = 1};
	cr_assert_eq(timing_analyze(&in, samples, lat, inside, blame, t), 0);
}

/* A start another rank missed once (a stall) does not raise the bar a late rank must pass. */
Test(timing, a_missed_start_of_another_rank_does_not_hide_a_late_one)
{
	double extra[RR4][NN20] = {{0}}, end_extra[RR4] = {0}, lat[RR4];
	struct timing_result t;
	for (int i = 0; i < NN20; i++)
		extra[2][i] = 60;
	extra[1][7] = 1000;
	analyze4(TIMING_WINDOW, extra, end_extra, &t, lat);
	cr_assert_eq(t.straggler_rank, 2);
	cr_assert_gt(lat[1], 50, "rank 1's mean: %g us", lat[1]);
	cr_assert_leq(t.others_late_us, 1.5, "its median: %g us", t.others_late_us);
	cr_assert(timing_straggler_persistent(&t, 300));
}

/*
 * A rank late to every call is the straggler even where another rank ends last by more (the
 * receiver of a hop another job's stream slows): the last to end is never the finding.
 */
Test(timing, a_persistent_late_rank_outranks_a_later_end)
{
	double extra[RR4][NN20] = {{0}}, end_extra[RR4] = {0, 200, 0, 0}, lat[RR4];
	struct timing_result t;
	for (int i = 0; i < NN20; i++)
		extra[2][i] = 60;
	analyze4(TIMING_WINDOW, extra, end_extra, &t, lat);
	cr_assert_eq(t.straggler_rank, 2);
	cr_assert_eq(t.cause, TIMING_CAUSE_LATE_ARRIVAL);
	cr_assert_eq(t.straggler_count, NN20);
	cr_assert(timing_straggler_persistent(&t, 500));
	/* after a barrier no arrival is judged: the later end stays the straggler */
	analyze4(TIMING_BARRIER, extra, end_extra, &t, lat);
	cr_assert_eq(t.straggler_rank, 1);
	cr_assert_eq(t.cause, TIMING_CAUSE_SLOW_INSIDE);
	/* a rank a few us late to every call, under 1% of the p50, does not take it from a rank
	   2 ms slow inside each call (CI's timing suite under load, 2 ranks) */
	double few[RR4][NN20] = {{0}}, slow2ms[RR4] = {0, 2000, 0, 0};
	for (int i = 0; i < NN20; i++)
		few[2][i] = 6;
	analyze4(TIMING_WINDOW, few, slow2ms, &t, lat);
	cr_assert_eq(t.straggler_rank, 1);
	cr_assert_eq(t.cause, TIMING_CAUSE_SLOW_INSIDE);
	/* a late rank that is not persistent (late in 3 calls of 20) does not take it */
	for (int i = 3; i < NN20; i++)
		extra[2][i] = 0;
	analyze4(TIMING_WINDOW, extra, end_extra, &t, lat);
	cr_assert_eq(t.straggler_rank, 1);
	cr_assert_eq(t.cause, TIMING_CAUSE_SLOW_INSIDE);
}

/* The last to end is a schedule's shape as often as a fault: never persistent. */
Test(timing, the_last_to_end_is_not_judged_persistent)
{
	struct timing_result t = {.straggler_rank = 1, .cause = TIMING_CAUSE_SLOW_INSIDE,
	                          .straggler_us = 50, .straggler_count = 100, .straggler_p = 1e-40,
	                          .others_late_us = 1};
	cr_assert_not(timing_straggler_persistent(&t, 100));
	t.cause = TIMING_CAUSE_LATE_ARRIVAL;
	cr_assert(timing_straggler_persistent(&t, 100));
	t.straggler_rank = -1;
	cr_assert_not(timing_straggler_persistent(&t, 100));
}

/*
 * The start error: each rank's median arrival after the common start, the latest of them, in
 * the same calls. A persistent late rank is the finding, not the start's error: it is left out.
 */
Test(timing, the_start_error_is_the_latest_median_arrival_but_a_persistent_late_rank)
{
	enum { A = 40 };
	double arrive[3 * A], end[3 * A], samples[A], late[3], inside[3], blame[2 * 3];
	for (int i = 0; i < A; i++) {
		arrive[0 * A + i] = 0.02 + (i == 7 ? 50 : 0); /* one stall: the median ignores it */
		arrive[1 * A + i] = 0.03;
		arrive[2 * A + i] = 0.01;
		for (int r = 0; r < 3; r++)
			end[r * A + i] = 1.0 + arrive[r * A + i];
	}
	struct timing_input in = {.method = TIMING_WINDOW, .nranks = 3, .attempts = A,
	                          .arrive_us = arrive, .end_us = end, .calls = 1, .synced = true,
	                          .slack_us = TIMING_LATE_SLACK_US};
	struct timing_result out;
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect_float_eq(out.start_error_us, 0.03, 1e-12, "no persistent straggler: every rank");
	for (int i = 0; i < A; i++) {
		arrive[2 * A + i] = 300;
		end[2 * A + i] = 301;
	}
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_assert(timing_straggler_persistent(&out, samples[0]), "rank 2, 300 us late every call");
	cr_expect_eq(out.straggler_rank, 2);
	cr_expect_float_eq(out.start_error_us, 0.03, 1e-12, "the late rank is not the start's error");
	in.method = TIMING_BARRIER;
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect(isnan(out.start_error_us), "only a window has a common start");
	in.method = TIMING_WINDOW;
	in.nranks = 1;
	cr_assert_eq(timing_analyze(&in, samples, late, inside, blame, &out), 0);
	cr_expect(isnan(out.start_error_us), "one rank waits for nobody");
}

/*
 * Five ranks, ten window calls of 80 ms, the others 100-180 us late (a busy host's spin):
 * rank 0 learns each start 1.3 ms after it in 8 of 10 calls (the MPI_Allreduce that agrees
 * on it reaches rank 0 last) and arrives then; rank 3 learns it in time and arrives 1.3 ms
 * late in 8 of 10 (a late start of its own). Without learnt_us both look the same; with it
 * only rank 3 is late.
 */
static void learnt_case(int late_rank, bool learnt_late, bool known, struct timing_result *t)
{
	enum { R5 = 5, N10 = 10 };
	double arrive[R5 * N10], end[R5 * N10], learnt[R5 * N10], samples[N10], lat[R5],
	    inside[R5], blame[2 * R5];
	for (int r = 0; r < R5; r++)
		for (int i = 0; i < N10; i++) {
			bool late = r == late_rank && i < 8;
			arrive[r * N10 + i] = late ? 1300.0 + 10 * i : 100.0 + 20 * ((r + i) % R5);
			learnt[r * N10 + i] = late && learnt_late ? arrive[r * N10 + i] - 0.5 : -20.0;
			end[r * N10 + i] = 80000.0 + (i < 8 ? 1300.0 : 0) + r * 0.01;
		}
	struct timing_input in = {.method = TIMING_WINDOW, .nranks = R5, .attempts = N10,
	                          .arrive_us = arrive, .end_us = end,
	                          .learnt_us = known ? learnt : NULL, .calls = 1, .synced = true,
	                          .slack_us = TIMING_LATE_SLACK_US};
	cr_assert_eq(timing_analyze(&in, samples, lat, inside, blame, t), 0);
	cr_assert_gt(lat[late_rank], 1000, "its arrivals are late either way: %g us", lat[late_rank]);
	double learnt_mean[R5];
	timing_rank_learnt_late(&in, learnt_mean);
	for (int r = 0; r < R5; r++) /* 8 of 10 at 1300 + 10 i - 0.5 us (i < 8): 1067.6 */
		cr_expect_float_eq(learnt_mean[r],
		                   r == late_rank && learnt_late && known ? 0.8 * 1334.5 : 0, 1e-9,
		                   "rank %d: %g us", r, learnt_mean[r]);
}

Test(timing, a_rank_that_learnt_the_start_after_it_is_not_late)
{
	struct timing_result t;
	learnt_case(0, true, false, &t);
	cr_assert_eq(t.straggler_rank, 0, "unknown when it learnt: the arrivals alone");
	cr_assert(timing_straggler_persistent(&t, 80000), "named late: the false accusation");
	learnt_case(0, true, true, &t);
	cr_assert_not(t.straggler_rank == 0 && t.cause == TIMING_CAUSE_LATE_ARRIVAL,
	              "rank 0 arrived as soon as it learnt the start");
	cr_assert_not(timing_straggler_persistent(&t, 80000));
	cr_assert_gt(t.start_error_us, 1000, "the start's error still shows it: %g us",
	             t.start_error_us);
	learnt_case(3, false, true, &t);
	cr_assert_eq(t.straggler_rank, 3, "knew the start in time and came 1.3 ms after it");
	cr_assert_eq(t.cause, TIMING_CAUSE_LATE_ARRIVAL);
	cr_assert_eq(t.straggler_count, 8);
	cr_assert(timing_straggler_persistent(&t, 80000));
}
