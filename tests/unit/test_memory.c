/* The proportional set size, read from the kernel's smaps_rollup. */
#include <criterion/criterion.h>

#include "probes/memory.h"

static const char rollup[] = "562df2bb6000-7ffed1951000 ---p 00000000 00:00 0    [rollup]\n"
                             "Rss:                1744 kB\n"
                             "Pss:                 349 kB\n"
                             "Pss_Dirty:           112 kB\n"
                             "Pss_Anon:            112 kB\n"
                             "Shared_Clean:       1592 kB\n";

Test(memory, reads_the_pss_line_in_bytes)
{
	uint64_t bytes = 0;
	cr_assert(probe_memory_parse_pss(rollup, &bytes));
	cr_assert_eq(bytes, 349u * 1024u);
}

Test(memory, no_pss_line_is_no_answer)
{
	uint64_t bytes = 7;
	cr_assert(!probe_memory_parse_pss("Rss: 1744 kB\nPss_Anon: 112 kB\n", &bytes),
	          "Pss_Anon is not Pss");
	cr_assert(!probe_memory_parse_pss("", &bytes));
	cr_assert(!probe_memory_parse_pss("Pss: lots\n", &bytes), "no number");
	cr_assert(!probe_memory_parse_pss("Pss: 12 pages\n", &bytes), "not in kB");
	cr_assert_eq(bytes, 7, "a failed parse leaves the answer alone");
}

Test(memory, this_process_has_a_pss)
{
	uint64_t bytes = 0;
	cr_assert(probe_memory_pss_bytes(&bytes), "Linux since 4.14 has /proc/self/smaps_rollup");
	cr_assert_gt(bytes, 0);
}
