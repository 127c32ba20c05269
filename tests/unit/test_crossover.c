/* Where a compressed variant starts to pay (reports/model/crossover.h). */
#include "reports/model/crossover.h"

#include <criterion/criterion.h>

enum { V = 1, RING = 0 };

Test(crossover, the_smallest_size_from_which_it_stays_faster)
{
	/* faster at 1K (by chance), slower at 4K, then faster from 16K on */
	const struct crossover_point p[] = {
	    {RING, 1024, 10},  {V, 1024, 9},   {RING, 4096, 20}, {V, 4096, 25},
	    {RING, 16384, 50}, {V, 16384, 40}, {V, 65536, 60},   {RING, 65536, 150},
	    {V, 262144, 100}, /* ring not measured there: not compared */
	};
	struct crossover c;
	cr_assert_eq(crossover_find(p, sizeof p / sizeof p[0], V, RING, &c), 0);
	cr_expect_eq(c.sizes, 4);
	cr_expect_eq(c.from_bytes, 16384);
	cr_expect_eq(c.max_bytes, 65536);
	cr_expect_float_eq(c.speedup_at_max, 2.5, 1e-12);
}

Test(crossover, never_faster_at_the_largest_and_nothing_to_compare)
{
	const struct crossover_point p[] = {
	    {RING, 1024, 10}, {V, 1024, 5}, {RING, 4096, 20}, {V, 4096, 40}, {2, 8192, 1}};
	struct crossover c;
	cr_assert_eq(crossover_find(p, 5, V, RING, &c), 0);
	cr_expect_eq(c.sizes, 2);
	cr_expect_eq(c.from_bytes, 0, "slower at the largest size: no crossover");
	cr_expect_float_eq(c.speedup_at_max, 0.5, 1e-12);
	cr_assert_eq(crossover_find(p, 5, 2, RING, &c), 0);
	cr_expect_eq(c.sizes, 0);
	cr_expect_eq(c.from_bytes, 0);
	cr_assert_eq(crossover_find(NULL, 0, V, RING, &c), 0);
	cr_expect_eq(c.sizes, 0);
}

Test(crossover, a_size_measured_twice_counts_its_last_point_and_no_time_is_left_out)
{
	const struct crossover_point p[] = {
	    {RING, 1024, 10}, {V, 1024, 20}, {V, 1024, 5}, {RING, 2048, 0}, {V, 2048, 1}};
	struct crossover c;
	cr_assert_eq(crossover_find(p, 5, V, RING, &c), 0);
	cr_expect_eq(c.sizes, 1, "the ring's 2048 has no time");
	cr_expect_eq(c.from_bytes, 1024, "the later 5 us point, not the 20");
	cr_expect_float_eq(c.speedup_at_max, 2.0, 1e-12);
}
