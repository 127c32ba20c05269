/* probes/proc_file.c: a small file read whole, always terminated. */
#include <criterion/criterion.h>
#include <string.h>

#include "probes/proc_file.h"

Test(proc_file, reads_and_terminates_within_the_buffer)
{
	char buf[8];
	memset(buf, 'x', sizeof buf);
	cr_assert(probe_read_file("/proc/self/stat", buf, sizeof buf));
	cr_assert_eq(strlen(buf), sizeof buf - 1, "cut at the buffer, terminated: '%s'", buf);
}

Test(proc_file, a_missing_file_or_no_room_is_false)
{
	char buf[4] = "abc";
	cr_assert_not(probe_read_file("/proc/self/no-such-file", buf, sizeof buf));
	cr_assert_str_eq(buf, "abc", "untouched");
	cr_assert_not(probe_read_file("/proc/self/stat", buf, 0));
}
