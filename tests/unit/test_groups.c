/* Splits of a job into groups (probes/groups.c) and the interference factors. */
#include "probes/groups.h"
#include "reports/diagnose/interference.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static void sizes_of(const int *g, int n, int k, int *size)
{
	memset(size, 0, (size_t)k * sizeof *size);
	for (int u = 0; u < n; u++) {
		cr_assert(g[u] >= 0 && g[u] < k, "unit %d in group %d of %d", u, g[u], k);
		size[g[u]]++;
	}
}

Test(groups, packed_blocks_balanced)
{
	int g[7], size[3];
	cr_assert_eq(groups_split_units(GROUPS_PACKED, 3, 7, 0, g), 0);
	int want[7] = {0, 0, 0, 1, 1, 2, 2};
	for (int u = 0; u < 7; u++)
		cr_expect_eq(g[u], want[u], "unit %d: %d", u, g[u]);
	sizes_of(g, 7, 3, size);
	for (int i = 0; i < 3; i++)
		cr_expect(size[i] == 2 || size[i] == 3);
}

Test(groups, strided_spreads_over_racks)
{
	/* 8 hosts dealt 4 to a rack: 2 strided groups each hold 2 hosts of each rack */
	int g[8];
	cr_assert_eq(groups_split_units(GROUPS_STRIDED, 2, 8, 0, g), 0);
	for (int grp = 0; grp < 2; grp++) {
		int rack0 = 0, rack1 = 0;
		for (int u = 0; u < 8; u++)
			if (g[u] == grp)
				*(u < 4 ? &rack0 : &rack1) += 1;
		cr_expect_eq(rack0, 2);
		cr_expect_eq(rack1, 2);
	}
}

Test(groups, random_is_a_balanced_permutation_and_repeatable)
{
	enum { N = 33, K = 4 };
	int a[N], b[N], c[N], size[K];
	cr_assert_eq(groups_split_units(GROUPS_RANDOM, K, N, 7, a), 0);
	cr_assert_eq(groups_split_units(GROUPS_RANDOM, K, N, 7, b), 0);
	cr_assert_eq(groups_split_units(GROUPS_RANDOM, K, N, 8, c), 0);
	cr_expect_arr_eq(a, b, sizeof a, "the same seed gives the same split");
	cr_expect(memcmp(a, c, sizeof a) != 0, "another seed, another split");
	sizes_of(a, N, K, size);
	for (int i = 0; i < K; i++)
		cr_expect(size[i] == N / K || size[i] == N / K + 1, "group %d: %d", i, size[i]);
}

Test(groups, bad_arguments)
{
	int g[4];
	cr_expect_eq(groups_split_units(GROUPS_PACKED, 5, 4, 0, g), -1, "more groups than units");
	cr_expect_eq(groups_split_units(GROUPS_PACKED, 0, 4, 0, g), -1);
	cr_expect_eq(groups_split_units(GROUPS_GIVEN, 2, 4, 0, g), -1);
}

Test(groups, given_list)
{
	int g[4], k = 0;
	char why[128];
	cr_assert_eq(groups_parse_given("1,0,1,0", 4, "host", g, &k, why, sizeof why), 0, "%s",
	             why);
	cr_expect_eq(k, 2);
	cr_expect_eq(g[0], 1);
	cr_expect_eq(g[3], 0);
}

Test(groups, given_list_errors_name_the_item)
{
	int g[4], k = 0;
	char why[128];
	cr_expect_eq(groups_parse_given("0,x,1,1", 4, "host", g, &k, why, sizeof why), -1);
	cr_expect(strstr(why, "item 2 'x'"), "%s", why);
	cr_expect_eq(groups_parse_given("0,1,1", 4, "host", g, &k, why, sizeof why), -1);
	cr_expect(strstr(why, "3 group indices for 4 hosts"), "%s", why);
	cr_expect_eq(groups_parse_given("0,2,2,0", 4, "rank", g, &k, why, sizeof why), -1);
	cr_expect(strstr(why, "group 1 has no rank"), "%s", why);
	cr_expect_eq(groups_parse_given("0,-1,0,0", 4, "host", g, &k, why, sizeof why), -1);
	cr_expect_eq(groups_parse_given("0,0,0,0,1", 4, "host", g, &k, why, sizeof why), -1);
	cr_expect(strstr(why, "5 group indices for 4 hosts"), "%s", why);
}

Test(groups, ranks_follow_their_host)
{
	const int host_of_rank[6] = {0, 0, 1, 1, 2, 2};
	const int unit_group[3] = {0, 1, 1};
	int group[6];
	cr_expect_eq(groups_of_ranks(unit_group, true, host_of_rank, 6, 2, group), 2);
	int want[6] = {0, 0, 1, 1, 1, 1};
	cr_expect_arr_eq(group, want, sizeof want);
	const int by_rank[6] = {0, 1, 1, 1, 1, 1};
	cr_expect_eq(groups_of_ranks(by_rank, false, host_of_rank, 6, 2, group), 1,
	             "the smallest group has one rank");
}

Test(interference, factors_point_the_same_way)
{
	struct interference_figures alone = {10, 10, 20, 4}, together = {20, 15, 80, 2};
	struct interference_factors f;
	interference_factors_of(&alone, &together, &f);
	cr_expect_float_eq(f.busbw, 2.0, 1e-12);
	cr_expect_float_eq(f.mean, 2.0, 1e-12);
	cr_expect_float_eq(f.p50, 1.5, 1e-12);
	cr_expect_float_eq(f.p99, 4.0, 1e-12);
	cr_expect(interference_degraded(&f, 0.25));
	cr_expect(!interference_degraded(&f, 1.5), "mean 2.0 < 2.5");
}

Test(interference, unknown_never_accuses)
{
	struct interference_figures alone = {NAN, 10, NAN, 0}, together = {20, NAN, 30, 2};
	struct interference_factors f;
	interference_factors_of(&alone, &together, &f);
	cr_expect(isnan(f.busbw) && isnan(f.mean) && isnan(f.p50) && isnan(f.p99));
	cr_expect(!interference_degraded(&f, 0.1));
}

Test(interference, no_change_is_one)
{
	struct interference_figures x = {5, 5, 9, 1.2};
	struct interference_factors f;
	interference_factors_of(&x, &x, &f);
	cr_expect_float_eq(f.p99, 1.0, 1e-12);
	cr_expect(!interference_degraded(&f, 0.0001));
}

Test(interference, ratio_needs_two_positive_finite_figures)
{
	cr_expect_float_eq(interference_ratio(3, 1.5), 2.0, 1e-12);
	cr_expect(isnan(interference_ratio(3, 0)));
	cr_expect(isnan(interference_ratio(NAN, 1)));
	cr_expect(isnan(interference_ratio(INFINITY, 1)));
	cr_expect(isnan(interference_ratio(-1, 1)));
}
