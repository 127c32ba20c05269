/* The fault-injection switch (testing only) parses strictly and flips exactly one bit. */
#include <criterion/criterion.h>
#include <string.h>
#include <time.h>

#include "algorithms/fault.h"

Test(fault, parses_each_kind)
{
	struct fault f;
	const char *why = NULL;
	cr_expect_eq(fault_parse("flip:rank=3", &f, &why), 0);
	cr_expect(f.kind == FAULT_FLIP && f.rank == 3);
	cr_expect_eq(fault_parse("stall:rank=1,after=20", &f, &why), 0);
	cr_expect(f.kind == FAULT_STALL && f.rank == 1 && f.after == 20);
	cr_expect_eq(fault_parse("nomem:rank=0", &f, &why), 0);
	cr_expect(f.kind == FAULT_NOMEM);
	cr_expect_eq(fault_parse("delay:rank=2,us=2000", &f, &why), 0);
	cr_expect(f.kind == FAULT_DELAY && f.rank == 2 && f.us == 2000);
	cr_expect_eq(fault_parse("slow:us=500,rank=0", &f, &why), 0);
	cr_expect(f.kind == FAULT_SLOW && f.rank == 0 && f.us == 500 && f.pct == 0);
	cr_expect_eq(fault_parse("slow:rank=1,pct=25", &f, &why), 0);
	cr_expect(f.kind == FAULT_SLOW && f.rank == 1 && f.pct == 25 && f.us == 0);
	cr_expect_eq(fault_parse("slow:rank=all,pct=35", &f, &why), 0);
	cr_expect(f.kind == FAULT_SLOW && f.rank == FAULT_EVERY_RANK && f.pct == 35);
	ar_fault = f; /* every rank is the faulty one */
	cr_expect(fault_is(FAULT_SLOW, 0) && fault_is(FAULT_SLOW, 7) && !fault_is(FAULT_DELAY, 0));
	ar_fault = (struct fault){.kind = FAULT_NONE, .rank = -1};
	cr_expect_eq(fault_parse("compute:rank=2,pct=50", &f, &why), 0);
	cr_expect(f.kind == FAULT_COMPUTE && f.rank == 2 && f.pct == 50 && f.us == 0);
	cr_expect_eq(fault_parse("", &f, &why), 0);
	cr_expect(f.kind == FAULT_NONE);
	cr_expect_eq(fault_parse(NULL, &f, &why), 0);
}

Test(fault, rejects_bad_specs)
{
	const char *bad[] = {"flip",          "flip:",          "flip:rank=",  "flip:rank=-1",
	                     "stall:rank=1", "melt:rank=1",    "flip:node=1", "flip:rank=1,after=2",
	                     "flip:rank=1x", "stall:after=3", "flip:rank=99999999999",
	                     "delay:rank=1", "slow:rank=1,us=", "flip:rank=1,us=5", "delay:us=5",
	                     "slow:rank=1",  "slow:rank=1,us=5,pct=5", "delay:rank=1,pct=5",
	                     "compute:rank=1", "compute:rank=1,us=5", "compute:pct=5",
	                     "flip:rank=all", "delay:rank=all,us=5", "slow:rank=al,pct=5"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct fault f;
		const char *why = NULL;
		cr_expect_eq(fault_parse(bad[i], &f, &why), -1, "%s", bad[i]);
		cr_expect(why != NULL, "%s has a reason", bad[i]);
		cr_expect(f.kind == FAULT_NONE);
	}
}

/* A slow core is busy, not asleep: the spin lasts at least what it was asked. */
Test(fault, spins_at_least_the_time_asked)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fault_spin_ns(2000000);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
	cr_expect_geq(ns, 2e6);
}

Test(fault, flips_one_bit_of_the_middle_element)
{
	for (size_t w = 2; w <= 8; w *= 2) {
		unsigned char buf[10 * 8] = {0}, orig[10 * 8] = {0};
		fault_flip(buf, 10, w);
		int bits = 0;
		for (size_t i = 0; i < sizeof buf; i++) {
			bits += __builtin_popcount(buf[i] ^ orig[i]);
			if (buf[i] != orig[i])
				cr_expect(i >= 5 * w && i < 6 * w, "width %zu: byte %zu is in element 5", w, i);
		}
		cr_expect_eq(bits, 1);
	}
	fault_flip(NULL, 0, 4); /* count 0: nothing to flip, no crash */
}
