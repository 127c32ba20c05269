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
#include "tournament.h"

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
