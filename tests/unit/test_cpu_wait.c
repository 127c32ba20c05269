/* The run delay of /proc/thread-self/schedstat, and its share of a wall time. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

#include "probes/cpu_wait.h"

Test(cpu_wait, parses_the_kernels_line)
{
	uint64_t w = 0;
	cr_assert(probe_cpu_wait_parse("2385085 567034 1\n", &w));
	cr_expect_eq(w, 567034);
	cr_assert(probe_cpu_wait_parse("18446744073709551615 18446744073709551614 3", &w));
	cr_expect_eq(w, UINT64_MAX - 1);
}

Test(cpu_wait, refuses_what_is_not_the_line)
{
	uint64_t w = 7;
	cr_expect(!probe_cpu_wait_parse("", &w));
	cr_expect(!probe_cpu_wait_parse("1 2", &w));
	cr_expect(!probe_cpu_wait_parse("1 2 3 4", &w));
	cr_expect(!probe_cpu_wait_parse("a b c", &w));
	cr_expect_eq(w, 7, "a refused line leaves the value alone");
}

Test(cpu_wait, share_of_the_wall_time)
{
	cr_expect_float_eq(probe_cpu_wait_share(250000000, 1.0), 0.25, 1e-12);
	cr_expect_float_eq(probe_cpu_wait_share(0, 0.5), 0.0, 1e-12);
	/* clocks read at slightly different moments: never more than all of it */
	cr_expect_float_eq(probe_cpu_wait_share(1100000000, 1.0), 1.0, 1e-12);
	cr_expect(isnan(probe_cpu_wait_share(5, 0.0)));
	cr_expect(isnan(probe_cpu_wait_share(5, NAN)));
}

Test(cpu_wait, this_thread_on_linux)
{
	uint64_t a = 0, b = 0;
	if (!probe_cpu_wait_ns(&a))
		cr_skip_test("the kernel keeps no schedstat here");
	cr_assert(probe_cpu_wait_ns(&b));
	cr_expect_geq(b, a, "run delay only grows");
}
