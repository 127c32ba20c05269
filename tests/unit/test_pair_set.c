/* The set of rank pairs a re-test measures again (reports/diagnose/pair_set.h). */
#include "reports/diagnose/pair_set.h"

#include <criterion/criterion.h>
#include <stdlib.h>

Test(pair_set, holds_unordered_pairs_once)
{
	struct pair_set s;
	pair_set_init(&s);
	cr_assert(!pair_set_has(&s, 1, 2), "empty");
	cr_assert_eq(pair_set_add(&s, 2, 1), 1);
	cr_assert_eq(pair_set_add(&s, 1, 2), 0, "the same pair either way");
	cr_assert_eq(pair_set_add(&s, 3, 3), 0, "no pair of one rank");
	cr_assert_eq(pair_set_add(&s, -1, 3), 0);
	cr_assert(pair_set_has(&s, 1, 2) && pair_set_has(&s, 2, 1));
	cr_assert(!pair_set_has(&s, 1, 3));
	cr_assert_eq(s.count, 1);
	cr_assert(pair_set_remove(&s, 2, 1));
	cr_assert(!pair_set_remove(&s, 2, 1));
	cr_assert_eq(s.count, 0);
	pair_set_release(&s);
}

/*
 * Every pair of 300 ranks but those of rank 7, added in a scrambled order,
 * then every third one removed: the rest is found, in order, and the slots
 * stay proportional to what it holds (8,192 ranks' 33.5M possible pairs are
 * never allocated).
 */
Test(pair_set, grows_removes_and_lists_in_order)
{
	enum { N = 300 };
	struct pair_set s;
	pair_set_init(&s);
	size_t want = 0;
	for (int i = 0; i < N * N; i++) {
		int x = (int)(((long)i * 7919) % (N * N)), a = x / N, b = x % N;
		if (a < b && a != 7 && b != 7) {
			cr_assert_eq(pair_set_add(&s, b, a), 1);
			want++;
		}
	}
	cr_assert_eq(s.count, want);
	cr_assert_leq(s.cap, 4 * want, "%zu slots for %zu pairs", s.cap, want);
	size_t removed = 0;
	for (int a = 0; a < N; a++)
		for (int b = a + 1; b < N; b++)
			if ((a + b) % 3 == 0 && a != 7 && b != 7) {
				cr_assert(pair_set_remove(&s, a, b));
				removed++;
			}
	cr_assert_eq(s.count, want - removed);
	for (int a = 0; a < N; a++)
		for (int b = a + 1; b < N; b++)
			cr_assert_eq(pair_set_has(&s, a, b), (a + b) % 3 != 0 && a != 7 && b != 7,
			             "%d %d", a, b);
	int(*list)[2] = malloc((s.count + 1) * sizeof *list);
	cr_assert_eq(pair_set_sorted(&s, list), s.count);
	for (size_t i = 0; i < s.count; i++) {
		cr_assert_lt(list[i][0], list[i][1]);
		if (i)
			cr_assert(list[i - 1][0] < list[i][0] ||
			          (list[i - 1][0] == list[i][0] && list[i - 1][1] < list[i][1]));
	}
	pair_set_clear(&s);
	cr_assert(s.count == 0 && !pair_set_has(&s, 0, 1));
	free(list);
	pair_set_release(&s);
}
