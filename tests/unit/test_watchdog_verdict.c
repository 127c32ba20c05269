/*
 * The watchdog's verdict (cmd/run/watchdog_verdict.h) on made-up heartbeats:
 * who is hung, who is named, and what is said, without waiting for a real
 * timeout.
 */
#include "algorithms/progress.h"
#include "algorithms/variant.h"
#include "cmd/run/watchdog_verdict.h"

#include <criterion/criterion.h>
#include <string.h>

enum { N = 4 };
static const double T = 60, NOW = 1000;

/* Every rank connected, heard just now, inside ring's timed iteration 7 of 1 MiB. */
static void healthy(struct wd_view *v)
{
	int ring = ar_variant_index(ar_variant_find("ring"));
	for (int r = 0; r < N; r++)
		v[r] = (struct wd_view){.seen = true,
		                        .connected = r != 0,
		                        .heard_s = NOW - 0.5,
		                        .moved_s = NOW - 0.5,
		                        .ticks = 100,
		                        .variant = ring,
		                        .bytes = 1 << 20,
		                        .iteration = 7,
		                        .phase = PROGRESS_TIMED};
}

Test(watchdog_verdict, a_moving_job_is_not_hung)
{
	struct wd_view v[N];
	healthy(v);
	cr_expect(!wd_hung(v, N, NOW, T));
	v[2].moved_s = NOW - T + 1; /* slow, not over the timeout */
	cr_expect(!wd_hung(v, N, NOW, T));
}

Test(watchdog_verdict, a_rank_behind_is_named_and_the_others_wait)
{
	struct wd_view v[N];
	char text[2048];
	healthy(v);
	/* rank 2 stopped at iteration 3; the others wait for it inside iteration 4's call */
	for (int r = 0; r < N; r++)
		v[r].moved_s = NOW - T - 5;
	v[2].ticks = 96;
	v[2].iteration = 3;
	cr_assert(wd_hung(v, N, NOW, T));
	wd_describe(text, sizeof text, "allreduce", T, v, N, NOW);
	cr_expect(strstr(text, "hang in allreduce: no progress within the 60 s timeout"), "%s",
	          text);
	cr_expect(strstr(text, "rank 2 (answering but making no progress; last at ring, 1048576 "
	                       "bytes, timed iteration 3)"),
	          "%s", text);
	cr_expect(!strstr(text, "rank 1 ("), "only the rank behind is named: %s", text);
	cr_expect(strstr(text, "; rank 0 waits at ring, 1048576 bytes, timed iteration 7"), "%s",
	          text);
}

Test(watchdog_verdict, a_silent_rank_is_named_as_not_answering)
{
	struct wd_view v[N];
	char text[2048];
	healthy(v);
	v[3].heard_s = NOW - T - 20;
	cr_assert(wd_hung(v, N, NOW, T));
	wd_describe(text, sizeof text, "links", T, v, N, NOW);
	cr_expect(strstr(text, "rank 3 (not answering for 80 s: stopped, stuck or dead"), "%s",
	          text);
}

Test(watchdog_verdict, a_rank_stopped_just_after_its_last_step_is_not_answering)
{
	struct wd_view v[N];
	char text[2048];
	healthy(v);
	/* rank 2 stepped, beat once more, then stopped: the others stuck behind it a timeout
	   later, when it was last heard less than the timeout ago (CI of 9f9a76d) */
	for (int r = 0; r < N; r++)
		v[r].moved_s = NOW - T - 0.1;
	v[2].ticks = 96;
	v[2].heard_s = NOW - T + 0.3;
	cr_assert(wd_hung(v, N, NOW, T));
	wd_describe(text, sizeof text, "allreduce", T, v, N, NOW);
	cr_expect(strstr(text, "rank 2 (not answering for 60 s: stopped, stuck or dead; last at "
	                       "ring, 1048576 bytes, timed iteration 7)"),
	          "%s", text);
	cr_expect(!strstr(text, "answering but making no progress"), "%s", text);
}

Test(watchdog_verdict, idle_and_unwatched_ranks_are_never_hung)
{
	struct wd_view v[N];
	healthy(v);
	v[1].phase = PROGRESS_IDLE; /* outside scale's sub-communicator: it may wait */
	v[1].moved_s = NOW - 10 * T;
	v[3].seen = false; /* never said hello: runs unwatched */
	v[3].moved_s = NOW - 10 * T;
	v[3].heard_s = NOW - 10 * T;
	cr_expect(!wd_hung(v, N, NOW, T));
}

Test(watchdog_verdict, every_rank_in_one_operation_is_a_deadlock)
{
	struct wd_view v[N];
	char text[2048];
	healthy(v);
	for (int r = 0; r < N; r++)
		v[r].moved_s = NOW - T - 1;
	cr_assert(wd_hung(v, N, NOW, T));
	wd_describe(text, sizeof text, "allreduce", T, v, N, NOW);
	cr_expect(strstr(text, "none: every rank is inside the same operation"), "%s", text);
}

Test(watchdog_verdict, a_small_buffer_is_cut_not_overrun)
{
	struct wd_view v[N];
	char text[40];
	healthy(v);
	v[2].ticks = 1;
	int want = wd_describe(text, sizeof text, "allreduce", T, v, N, NOW);
	cr_expect_gt(want, (int)sizeof text);
	cr_expect_eq(strlen(text), sizeof text - 1);
}
