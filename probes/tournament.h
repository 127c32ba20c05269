/*
 * Round-robin tournament by the circle method: the pairs of n players laid
 * out in rounds, each round a matching in which no player appears twice, the
 * rounds together covering every unordered pair exactly once; the shift
 * pattern; and the pace of a bandwidth measurement. Pure: no MPI,
 * no allocation.
 *
 * n even: n - 1 rounds of n / 2 pairs. n odd: n rounds of (n - 1) / 2 pairs,
 * and in each round one player sits out (the bye). n < 2: no rounds.
 */
#ifndef COLLSCOPE_TOURNAMENT_H
#define COLLSCOPE_TOURNAMENT_H

#include <stdbool.h>

struct probe_pair {
	int a, b; /* a < b */
};

/* The number of rounds for n players (0 when n < 2). */
int probe_tournament_rounds(int n);

/* The number of pairs in every round: n / 2 (0 when n < 2). */
int probe_tournament_pairs_per_round(int n);

/*
 * The partner of player p in round r (0 <= r < rounds), or -1 when p has the
 * bye in that round or when the arguments are out of range.
 */
int probe_tournament_partner(int n, int r, int p);

/*
 * Writes the pairs of round r into out (room for
 * probe_tournament_pairs_per_round(n) entries), ordered by their lower
 * player; returns the count, or -1 when r or n is out of range.
 */
int probe_tournament_round(int n, int r, struct probe_pair *out);

/*
 * The shift pattern (mpiGraph's): in step d, 1 <= d < n, every player p sends
 * to (p + d) mod n and receives from (p - d) mod n, all at once, so every
 * player sends and receives in every step. The n - 1 steps cover every
 * ordered pair once. -1 when an argument is out of range.
 */
int probe_shift_steps(int n);
int probe_shift_dest(int n, int d, int p);
int probe_shift_source(int n, int d, int p);

/*
 * The pace of one bandwidth measurement: how many windows, of how many
 * messages, within a count and a time budget. Pure: the caller reads the
 * clock and runs the windows.
 *
 * With a budget, the first PROBE_PACE_SIZING windows are single messages
 * (sizing): from the fastest of them, t1, the windows that follow get
 * floor(budget / (PROBE_PACE_MIN_WINDOWS + 1) / t1) messages, at most
 * `window` and at least 1 (one descheduled message does not shrink the
 * windows of a healthy link, the fastest of two must be slow), so that a slow link still
 * fits PROBE_PACE_MIN_WINDOWS windows in the budget. Then up to `warmup`
 * untimed windows, while less than a quarter of the budget has gone; then
 * timed windows: at least min(PROBE_PACE_MIN_WINDOWS, iters), then as many as
 * fit (the time so far plus the last window's within the budget), at most
 * iters. Without a budget (0): no sizing, warmup then iters windows of
 * `window` messages, as before.
 */
#define PROBE_PACE_MIN_WINDOWS 3
#define PROBE_PACE_SIZING 2

enum probe_window_kind { PROBE_WINDOW_NONE, PROBE_WINDOW_SIZING, PROBE_WINDOW_WARMUP, PROBE_WINDOW_TIMED };

struct probe_pace {
	int iters, warmup, window; /* limits, as given */
	double budget_s;           /* 0: count only */
	double start_s;            /* the clock at probe_pace_start */
	int msgs;                  /* messages of every window after the sizing one */
	int warm, timed;           /* windows run so far */
	double last_s;             /* the time of the last window (after sizing: the forecast) */
	bool sized;                /* the sizing windows have run (or none are needed) */
	int sizings;               /* sizing windows run so far */
	double fastest_s;          /* the fastest of them */
	bool stopped_by_time;      /* fewer than iters timed windows: the budget ran out */
	enum probe_window_kind kind; /* the window probe_pace_next handed out last */
};

void probe_pace_start(struct probe_pace *c, int iters, int warmup, int window, double budget_s,
                      double now_s);
/*
 * The next window at time now_s: its kind and, in *msgs, its message count;
 * PROBE_WINDOW_NONE (and *msgs 0) when the measurement is over.
 */
enum probe_window_kind probe_pace_next(struct probe_pace *c, double now_s, int *msgs);
/* The window handed out last took window_s seconds. */
void probe_pace_done(struct probe_pace *c, double window_s);

#endif
