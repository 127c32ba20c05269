/*
 * Round-robin tournament by the circle method: the pairs of n players laid
 * out in rounds, each round a matching in which no player appears twice, the
 * rounds together covering every unordered pair exactly once. Pure: no MPI,
 * no allocation.
 *
 * n even: n - 1 rounds of n / 2 pairs. n odd: n rounds of (n - 1) / 2 pairs,
 * and in each round one player sits out (the bye). n < 2: no rounds.
 */
#ifndef COLLSCOPE_TOURNAMENT_H
#define COLLSCOPE_TOURNAMENT_H

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

#endif
