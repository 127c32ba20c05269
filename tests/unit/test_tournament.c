/* The round-robin tournament of probes/tournament.c. */
#include "tournament.h"

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
