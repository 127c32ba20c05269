/*
 * What options cost in memory (cmd/opts_memory.h): the defaults fit the
 * budget at every rank count a job here could have, and each option that
 * sizes memory is refused past it, the message naming the option, what it
 * would take and its limit.
 */
#include "cmd/exit_codes.h"
#include "cmd/opts_memory.h"

#include <criterion/criterion.h>
#include <string.h>

static struct sweep_opts defaults(void)
{
	struct sweep_opts o = {.max_bytes = 64u << 20, .segment_bytes = 256u << 10,
	                       .trace_entries = 8192, .iters = 0};
	o.sizes[0] = o.max_bytes;
	o.nsizes = 1;
	return o;
}

Test(opts_memory, defaults_fit)
{
	struct sweep_opts o = defaults();
	char err[512];
	o.trace = true;
	cr_expect_eq(opts_memory_check_sweep("allreduce", &o, 1, err, sizeof err), EXIT_OK);
	cr_expect_eq(opts_memory_check_sweep("allreduce", &o, 64, err, sizeof err), EXIT_OK);
}

Test(opts_memory, trace_entries_named_with_limit)
{
	struct sweep_opts o = defaults();
	char err[512] = "";
	o.trace = true;
	o.trace_entries = 4194304;
	cr_assert_eq(opts_memory_check_sweep("allreduce", &o, 8, err, sizeof err), EXIT_USAGE);
	cr_expect(strstr(err, "--trace-entries 4194304 would take") != NULL, "%s", err);
	cr_expect(strstr(err, "the limit at 8 ranks is --trace-entries") != NULL, "%s", err);
	/* without --trace, no trace is allocated: nothing to refuse */
	o.trace = false;
	cr_expect_eq(opts_memory_check_sweep("allreduce", &o, 8, err, sizeof err), EXIT_OK);
}

Test(opts_memory, segment_bytes_named_with_limit)
{
	struct sweep_opts o = defaults();
	char err[512] = "";
	o.segment_bytes = 4;
	cr_assert_eq(opts_memory_check_sweep("scale", &o, 4, err, sizeof err), EXIT_USAGE);
	cr_expect(strstr(err, "scale: --segment-bytes 4 would take") != NULL, "%s", err);
	cr_expect(strstr(err, "--segment-bytes 1024 or more") != NULL, "%s", err);
	/* the limit it names fits */
	o.segment_bytes = 1024;
	cr_expect_eq(opts_memory_check_sweep("scale", &o, 4, err, sizeof err), EXIT_OK);
}

Test(opts_memory, iterations_against_rank_count)
{
	struct sweep_opts o = defaults();
	char err[512] = "";
	o.iters = 100000;
	cr_expect_eq(opts_memory_check_sweep("allreduce", &o, 8, err, sizeof err), EXIT_OK);
	cr_assert_eq(opts_memory_check_sweep("allreduce", &o, 1024, err, sizeof err), EXIT_USAGE);
	cr_expect(strstr(err, "-n 100000 would take") != NULL, "%s", err);
	cr_expect(strstr(err, "the limit at 1024 ranks is -n") != NULL, "%s", err);
}
