/* The interface counters of /proc/net/dev, and what else they carried beside a pair. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

#include "probes/nic_bytes.h"

static const char DEV[] =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
    "drop fifo colls carrier compressed\n"
    "    lo: 159949547 1379102    0    0    0     0          0         0 159949547 1379102    0 "
    "   0    0     0       0          0\n"
    "  eth0: 1000 10 0 0 0 0 0 0 250 5 0 0 0 0 0 0\n"
    "  ib0:7 1 0 0 0 0 0 0 3 1 0 0 0 0 0 0\n";

Test(nic_bytes, adds_every_interface_but_loopback_both_ways)
{
	uint64_t b = 0;
	cr_assert(probe_nic_bytes_parse(DEV, &b));
	cr_assert_eq(b, 1000 + 250 + 7 + 3, "%llu", (unsigned long long)b);
}

Test(nic_bytes, headers_alone_or_garbage_are_no_reading)
{
	uint64_t b = 42;
	cr_expect(!probe_nic_bytes_parse("Inter-|   Receive\n face |bytes\n", &b));
	cr_expect(!probe_nic_bytes_parse("", &b));
	cr_expect(!probe_nic_bytes_parse(NULL, &b));
	cr_expect(!probe_nic_bytes_parse("eth0: 1 2 3\n", &b), "too few columns");
	cr_expect_eq(b, 42, "untouched when there is no reading");
	/* loopback alone is a reading of zero: the host has no other interface */
	cr_assert(probe_nic_bytes_parse("  lo: 5 1 0 0 0 0 0 0 5 1 0 0 0 0 0 0\n", &b));
	cr_assert_eq(b, 0);
}

Test(nic_bytes, this_hosts_counters_are_readable)
{
	uint64_t b;
	cr_assert(probe_nic_bytes(&b), "/proc/net/dev is there on Linux");
}

Test(nic_bytes, other_traffic_is_what_exceeds_our_own_frames)
{
	/* 1 GB of our own in 1 s, counted as 1.05 GB of frames: nothing else */
	cr_assert_float_eq(probe_nic_other_gbps(1050000000, 1000000000, 1.0), 0, 1e-12);
	/* 1.6 GB counted: 1.6 - 1.1 x 1 = 0.5 GB in 2 s */
	cr_assert_float_eq(probe_nic_other_gbps(1600000000, 1000000000, 2.0), 0.25, 1e-9);
	/* nothing of ours through the NIC (shared memory): all of it is other */
	cr_assert_float_eq(probe_nic_other_gbps(300000000, 0, 1.0), 0.3, 1e-9);
	cr_assert(isnan(probe_nic_other_gbps(1, 1, 0)));
}

Test(nic_bytes, each_way_apart)
{
	struct probe_nic_count c = {0, 0};
	cr_assert(probe_nic_count_parse(DEV, &c));
	cr_assert_eq(c.rx, 1000 + 7);
	cr_assert_eq(c.tx, 250 + 3);
	cr_assert(probe_nic_count(&c), "/proc/net/dev is there on Linux");
	/* 1 GB sent in 1 s, 1.2 GB counted out while 1 GB came in: 1.2 - 1.1 - 0.1 = 0 */
	cr_assert_float_eq(probe_nic_other_way_gbps(1200000000, 1000000000, 1000000000, 1.0), 0,
	                   1e-9);
	/* a stream of 0.3 GB/s out beside it */
	cr_assert_float_eq(probe_nic_other_way_gbps(1500000000, 1000000000, 1000000000, 1.0), 0.3,
	                   1e-9);
	/* receiving only: our acknowledgements out are no one else's */
	cr_assert_float_eq(probe_nic_other_way_gbps(50000000, 0, 1000000000, 1.0), 0, 1e-9);
	cr_assert(isnan(probe_nic_other_way_gbps(1, 1, 1, 0)));
}
