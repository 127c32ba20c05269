/* Who watches whom (cmd/run/watchdog_plan.h): hosts from every rank's leader. */
#include "cmd/run/watchdog_plan.h"

#include <criterion/criterion.h>
#include <string.h>

Test(watchdog_plan, hosts_from_leaders)
{
	/* three hosts: {0, 2, 5}, {1, 3}, {4}: ranks placed round-robin */
	const int leader_of[] = {0, 1, 0, 1, 4, 0};
	struct wd_hosts h;
	cr_assert_eq(wd_hosts_plan(leader_of, 6, &h), 0);
	cr_expect_eq(h.nhosts, 3);
	cr_expect_eq(h.leaders[0], 0);
	cr_expect_eq(h.leaders[1], 1);
	cr_expect_eq(h.leaders[2], 4);
	cr_expect_eq(h.count[0], 3);
	cr_expect_eq(h.count[1], 2);
	cr_expect_eq(h.count[2], 1);
	cr_expect_eq(h.host_of[5], 0);
	cr_expect_eq(h.host_of[3], 1);
	cr_expect_eq(h.host_of[4], 2);
	wd_hosts_release(&h);
}

Test(watchdog_plan, one_host_and_one_rank_per_host)
{
	int one[40], each[40];
	struct wd_hosts h;
	for (int r = 0; r < 40; r++) {
		one[r] = 0;
		each[r] = r;
	}
	cr_assert_eq(wd_hosts_plan(one, 40, &h), 0);
	cr_expect_eq(h.nhosts, 1, "40 ranks on one host: rank 0 holds no connection");
	cr_expect_eq(h.count[0], 40);
	wd_hosts_release(&h);
	cr_assert_eq(wd_hosts_plan(each, 40, &h), 0);
	cr_expect_eq(h.nhosts, 40, "a rank per host: a connection per other host");
	wd_hosts_release(&h);
}

Test(watchdog_plan, a_broken_plan_is_refused)
{
	struct wd_hosts h;
	const int not_lowest[] = {0, 2, 2};  /* rank 1's leader is above it */
	const int not_leading[] = {0, 0, 1}; /* rank 2's leader is led by rank 0 */
	const int root_led[] = {1, 1};       /* rank 0 leads no host */
	const int negative[] = {0, -1};
	cr_expect_eq(wd_hosts_plan(not_lowest, 3, &h), -1);
	cr_expect_eq(wd_hosts_plan(not_leading, 3, &h), -1);
	cr_expect_eq(wd_hosts_plan(root_led, 2, &h), -1);
	cr_expect_eq(wd_hosts_plan(negative, 2, &h), -1);
	cr_expect_eq(wd_hosts_plan(negative, 0, &h), -1);
	cr_expect_null(h.leaders, "nothing left allocated");
}

Test(watchdog_plan, the_test_hook_parses_strictly)
{
	int k = -1;
	cr_expect_eq(wd_host_ranks_parse(NULL, &k), 0);
	cr_expect_eq(k, 0);
	cr_expect_eq(wd_host_ranks_parse("", &k), 0);
	cr_expect_eq(wd_host_ranks_parse("4", &k), 0);
	cr_expect_eq(k, 4);
	cr_expect_eq(wd_host_ranks_parse("0", &k), -1);
	cr_expect_eq(wd_host_ranks_parse("2x", &k), -1);
	cr_expect_eq(wd_host_ranks_parse("-1", &k), -1);
	cr_expect_eq(wd_host_ranks_parse("99999999999", &k), -1);
}

Test(watchdog_plan, the_missing_hosts_are_named)
{
	int leader_of[40];
	bool arrived[40];
	char buf[512];
	struct wd_hosts h;
	for (int r = 0; r < 40; r++)
		leader_of[r] = r - r % 2; /* 20 hosts of 2 */
	cr_assert_eq(wd_hosts_plan(leader_of, 40, &h), 0);
	for (int i = 0; i < 20; i++)
		arrived[i] = true;
	cr_expect_eq(wd_hosts_missing(buf, sizeof buf, &h, arrived), 0);
	cr_expect_str_eq(buf, "");
	arrived[3] = arrived[7] = false;
	cr_expect_eq(wd_hosts_missing(buf, sizeof buf, &h, arrived), 2);
	cr_expect_str_eq(buf, "host(s) led by rank 6, rank 14 (4 ranks)");
	for (int i = 1; i < 20; i++)
		arrived[i] = false;
	cr_expect_eq(wd_hosts_missing(buf, sizeof buf, &h, arrived), 19);
	cr_expect(strstr(buf, "rank 32 and 3 more (38 ranks)"), "%s", buf);
	cr_expect_eq(wd_hosts_missing(buf, 10, &h, arrived), 19, "a small buffer: cut, counted");
	cr_expect_eq(strlen(buf), 9);
	wd_hosts_release(&h);
}
