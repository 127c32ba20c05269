/* The round-robin tournament of probes/tournament.c. */
#include "probes/tournament.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdbool.h>
#include <stdlib.h>

ParameterizedTestParameters(tournament, covers_every_pair_once)
{
	static int sizes[33];
	for (int i = 0; i < 33; i++)
		sizes[i] = i + 1;
	return cr_make_param_array(int, sizes, 33);
}

ParameterizedTest(int *np, tournament, covers_every_pair_once)
{
	int n = *np;
	int rounds = probe_tournament_rounds(n), per = probe_tournament_pairs_per_round(n);
	int *seen = calloc((size_t)n * (size_t)n, sizeof *seen);
	bool *busy = calloc((size_t)n, sizeof *busy);
	struct probe_pair *pairs = calloc((size_t)(per > 0 ? per : 1), sizeof *pairs);
	cr_assert(seen && busy && pairs);
	cr_assert_eq(rounds, n < 2 ? 0 : (n % 2 ? n : n - 1), "n %d: %d rounds", n, rounds);
	for (int r = 0; r < rounds; r++) {
		int k = probe_tournament_round(n, r, pairs);
		cr_assert_eq(k, n / 2, "n %d round %d: %d pairs", n, r, k);
		for (int p = 0; p < n; p++)
			busy[p] = false;
		for (int i = 0; i < k; i++) {
			int a = pairs[i].a, b = pairs[i].b;
			cr_assert(0 <= a && a < b && b < n, "n %d round %d: bad pair %d-%d", n, r,
			          a, b);
			cr_assert(!busy[a] && !busy[b], "n %d round %d: a rank plays twice", n, r);
			busy[a] = busy[b] = true;
			seen[a * n + b]++;
			cr_assert_eq(probe_tournament_partner(n, r, a), b);
			cr_assert_eq(probe_tournament_partner(n, r, b), a);
		}
		for (int p = 0; p < n; p++)
			if (!busy[p])
				cr_assert_eq(probe_tournament_partner(n, r, p), -1,
				             "n %d: bye of %d", n, p);
	}
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			cr_assert_eq(seen[a * n + b], 1, "n %d: pair %d-%d met %d times", n, a, b,
			             seen[a * n + b]);
	free(seen);
	free(busy);
	free(pairs);
}

Test(tournament, odd_n_gives_each_player_one_bye)
{
	for (int n = 3; n <= 33; n += 2) {
		int *byes = calloc((size_t)n, sizeof *byes);
		for (int r = 0; r < probe_tournament_rounds(n); r++)
			for (int p = 0; p < n; p++)
				byes[p] += probe_tournament_partner(n, r, p) < 0;
		for (int p = 0; p < n; p++)
			cr_assert_eq(byes[p], 1, "n %d: player %d has %d byes", n, p, byes[p]);
		free(byes);
	}
}

Test(tournament, out_of_range)
{
	struct probe_pair pairs[4];
	cr_assert_eq(probe_tournament_rounds(0), 0);
	cr_assert_eq(probe_tournament_rounds(1), 0);
	cr_assert_eq(probe_tournament_round(1, 0, pairs), -1);
	cr_assert_eq(probe_tournament_round(4, 3, pairs), -1);
	cr_assert_eq(probe_tournament_round(4, -1, pairs), -1);
	cr_assert_eq(probe_tournament_partner(4, 0, 4), -1);
	cr_assert_eq(probe_tournament_partner(2, 0, 0), 1);
}

Test(shift, every_ordered_pair_once_and_every_rank_busy_each_step)
{
	for (int n = 1; n <= 17; n++) {
		int *seen = calloc((size_t)n * (size_t)n, sizeof *seen);
		cr_assert(seen);
		cr_assert_eq(probe_shift_steps(n), n < 2 ? 0 : n - 1);
		for (int d = 1; d <= probe_shift_steps(n); d++)
			for (int p = 0; p < n; p++) {
				int to = probe_shift_dest(n, d, p), from = probe_shift_source(n, d, p);
				cr_assert(to >= 0 && to != p && from >= 0 && from != p);
				cr_assert_eq(probe_shift_source(n, d, to), p, "n %d d %d", n, d);
				seen[p * n + to]++;
			}
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++)
				cr_assert_eq(seen[a * n + b], a != b, "n %d: %d->%d", n, a, b);
		free(seen);
	}
	cr_assert_eq(probe_shift_dest(4, 0, 1), -1);
	cr_assert_eq(probe_shift_dest(4, 4, 1), -1);
	cr_assert_eq(probe_shift_source(4, 1, 4), -1);
}

/* Runs a pace where every message takes msg_s; returns the time spent, fills the counts. */
static double run_pace(struct probe_pace *c, int iters, int warmup, int window, double budget,
                       double msg_s, int *sizing, int *warm, int *timed)
{
	double now = 100;
	int msgs;
	enum probe_window_kind k;
	*sizing = *warm = *timed = 0;
	probe_pace_start(c, iters, warmup, window, budget, now);
	while ((k = probe_pace_next(c, now, &msgs)) != PROBE_WINDOW_NONE) {
		cr_assert(msgs >= 1 && msgs <= window);
		*sizing += k == PROBE_WINDOW_SIZING;
		*warm += k == PROBE_WINDOW_WARMUP;
		*timed += k == PROBE_WINDOW_TIMED;
		now += msgs * msg_s;
		probe_pace_done(c, msgs * msg_s);
	}
	cr_assert_eq(msgs, 0);
	return now - 100;
}

Test(pace, a_fast_link_gets_every_window_in_full)
{
	struct probe_pace c;
	int s, w, t;
	double spent = run_pace(&c, 10, 2, 16, 1.0, 0.0005, &s, &w, &t);
	cr_assert_eq(s, PROBE_PACE_SIZING, "the sizing windows");
	cr_assert_eq(w, 2);
	cr_assert_eq(t, 10);
	cr_assert_eq(c.msgs, 16);
	cr_assert(!c.stopped_by_time);
	cr_assert(spent < 0.2, "%g s", spent);
}

Test(pace, without_a_budget_the_count_alone_decides)
{
	struct probe_pace c;
	int s, w, t;
	run_pace(&c, 7, 3, 16, 0, 10.0, &s, &w, &t);
	cr_assert(s == 0 && w == 3 && t == 7 && c.msgs == 16 && !c.stopped_by_time);
}

Test(pace, a_slow_link_shrinks_its_windows_and_stops_on_time)
{
	struct probe_pace c;
	int s, w, t;
	/* one message takes 0.1 s: 16 of them would take 1.6 s a window */
	double spent = run_pace(&c, 10, 2, 16, 1.0, 0.1, &s, &w, &t);
	cr_assert_eq(c.msgs, 2, "0.25 s a window: %d messages", c.msgs);
	cr_assert_eq(s, PROBE_PACE_SIZING);
	cr_assert_eq(w, 1, "warm-up stops after a quarter of the budget: %d", w);
	cr_assert(t >= PROBE_PACE_MIN_WINDOWS && t < 10, "%d timed windows", t);
	cr_assert(c.stopped_by_time);
	cr_assert(spent <= 1.0 + 1e-9, "%g s within the budget", spent);
}

Test(pace, a_dead_slow_link_still_gets_the_least_windows)
{
	struct probe_pace c;
	int s, w, t;
	/* one message alone takes 3 s, longer than the whole budget */
	double spent = run_pace(&c, 10, 2, 16, 1.0, 3.0, &s, &w, &t);
	cr_assert_eq(c.msgs, 1);
	cr_assert_eq(w, 0);
	cr_assert_eq(t, PROBE_PACE_MIN_WINDOWS);
	cr_assert(c.stopped_by_time);
	cr_assert_float_eq(spent, 3.0 * (PROBE_PACE_SIZING + PROBE_PACE_MIN_WINDOWS), 1e-9);
	/* and never more than iters, when iters is below the least */
	run_pace(&c, 2, 0, 16, 1.0, 3.0, &s, &w, &t);
	cr_assert_eq(t, 2);
}

/* One descheduled sizing message does not shrink a healthy link's windows. */
Test(pace, the_fastest_sizing_window_decides)
{
	struct probe_pace c;
	int msgs;
	probe_pace_start(&c, 10, 0, 16, 1.0, 0);
	cr_assert_eq(probe_pace_next(&c, 0, &msgs), PROBE_WINDOW_SIZING);
	probe_pace_done(&c, 0.5); /* preempted */
	cr_assert_eq(probe_pace_next(&c, 0.5, &msgs), PROBE_WINDOW_SIZING);
	probe_pace_done(&c, 0.001);
	cr_assert_eq(probe_pace_next(&c, 0.501, &msgs), PROBE_WINDOW_TIMED);
	cr_assert_eq(msgs, 16);
}

Test(pace, one_message_windows_need_no_sizing)
{
	struct probe_pace c;
	int s, w, t;
	run_pace(&c, 5, 1, 1, 1.0, 0.001, &s, &w, &t);
	cr_assert(s == 0 && w == 1 && t == 5);
}
