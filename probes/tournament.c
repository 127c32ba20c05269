/*
 * The circle method (see tournament.h). With m = n rounded up to even, the
 * player m - 1 stays fixed and the others sit on a circle of m - 1 seats.
 * In round r the fixed player meets r, and for i = 1 .. m/2 - 1 the player
 * r + i meets r - i (mod m - 1). Across the m - 1 rounds every difference
 * (r + i) - (r - i) = 2i and every r appear once, which covers each pair
 * once. When n is odd, m - 1 = n is a phantom: whoever meets it has the bye.
 *
 * Trace, n = 4 (m = 4, circle of 3): round 0: 3-0, 1-2; round 1: 3-1, 2-0;
 * round 2: 3-2, 0-1. n = 3: the same rounds with player 3 a phantom, so
 * 0, 1 and 2 have the bye in rounds 0, 1 and 2.
 */
#include "probes/tournament.h"

static int seats(int n)
{
	return (n % 2 == 0 ? n : n + 1) - 1;
}

int probe_tournament_rounds(int n)
{
	return n < 2 ? 0 : seats(n);
}

int probe_tournament_pairs_per_round(int n)
{
	return n < 2 ? 0 : n / 2;
}

int probe_tournament_partner(int n, int r, int p)
{
	if (n < 2 || r < 0 || r >= seats(n) || p < 0 || p >= n)
		return -1;
	int c = seats(n), fixed = c; /* the fixed player is m - 1 = c */
	int partner;
	if (p == fixed)
		partner = r;
	else if (p == r)
		partner = fixed;
	else
		/* p = r + i meets r - i = 2r - p (mod c) */
		partner = ((2 * r - p) % c + 2 * c) % c;
	return partner < n ? partner : -1;
}

int probe_tournament_round(int n, int r, struct probe_pair *out)
{
	if (n < 2 || r < 0 || r >= seats(n))
		return -1;
	int k = 0;
	for (int p = 0; p < n; p++) {
		int q = probe_tournament_partner(n, r, p);
		if (q > p)
			out[k++] = (struct probe_pair){.a = p, .b = q};
	}
	return k;
}

int probe_shift_steps(int n)
{
	return n < 2 ? 0 : n - 1;
}

int probe_shift_dest(int n, int d, int p)
{
	if (n < 2 || d < 1 || d >= n || p < 0 || p >= n)
		return -1;
	return (p + d) % n;
}

int probe_shift_source(int n, int d, int p)
{
	if (n < 2 || d < 1 || d >= n || p < 0 || p >= n)
		return -1;
	return (p - d + n) % n;
}

void probe_pace_start(struct probe_pace *c, int iters, int warmup, int window, double budget_s,
                      double now_s)
{
	*c = (struct probe_pace){
	    .iters = iters > 0 ? iters : 0,
	    .warmup = warmup > 0 ? warmup : 0,
	    .window = window > 0 ? window : 1,
	    .budget_s = budget_s > 0 ? budget_s : 0,
	    .start_s = now_s,
	    .msgs = window > 0 ? window : 1,
	};
	/* a window of one message cannot shrink: nothing to size */
	c->sized = c->budget_s == 0 || c->window == 1;
}

static enum probe_window_kind hand_out(struct probe_pace *c, enum probe_window_kind k, int n,
                                       int *msgs)
{
	c->kind = k;
	*msgs = n;
	return k;
}

enum probe_window_kind probe_pace_next(struct probe_pace *c, double now_s, int *msgs)
{
	double spent = now_s - c->start_s;
	int least = c->iters < PROBE_PACE_MIN_WINDOWS ? c->iters : PROBE_PACE_MIN_WINDOWS;
	bool budget = c->budget_s > 0;
	if (!c->sized)
		return hand_out(c, PROBE_WINDOW_SIZING, 1, msgs);
	if (c->warm < c->warmup && (!budget || spent < c->budget_s / 4))
		return hand_out(c, PROBE_WINDOW_WARMUP, c->msgs, msgs);
	if (c->timed < c->iters &&
	    (c->timed < least || !budget || spent + c->last_s <= c->budget_s))
		return hand_out(c, PROBE_WINDOW_TIMED, c->msgs, msgs);
	c->stopped_by_time = c->timed < c->iters;
	return hand_out(c, PROBE_WINDOW_NONE, 0, msgs);
}

void probe_pace_done(struct probe_pace *c, double window_s)
{
	switch (c->kind) {
	case PROBE_WINDOW_SIZING: {
		if (c->sizings++ == 0 || window_s < c->fastest_s)
			c->fastest_s = window_s;
		if (c->sizings < PROBE_PACE_SIZING)
			break;
		/* room for the least timed windows and one more (a warm-up) */
		double each = c->budget_s / (PROBE_PACE_MIN_WINDOWS + 1), t1 = c->fastest_s;
		double fit = t1 > 0 ? each / t1 : (double)c->window;
		c->msgs = fit >= c->window ? c->window : fit >= 1 ? (int)fit : 1;
		c->last_s = t1 * c->msgs;
		c->sized = true;
		break;
	}
	case PROBE_WINDOW_WARMUP:
		c->warm++;
		c->last_s = window_s;
		break;
	case PROBE_WINDOW_TIMED:
		c->timed++;
		c->last_s = window_s;
		break;
	case PROBE_WINDOW_NONE: break;
	}
	c->kind = PROBE_WINDOW_NONE;
}
