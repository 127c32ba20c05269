/* The progress record's "where" word: packing, and its description. */
#include "algorithms/progress.h"

#include <criterion/criterion.h>
#include <string.h>

Test(progress, where_round_trips)
{
	static const struct {
		int step, peer;
		enum progress_wait kind;
	} cases[] = {{0, 0, PROGRESS_WAIT_RECV},
	             {5, 2, PROGRESS_WAIT_SEND},
	             {-1, -1, PROGRESS_WAIT_NONE},
	             {-1, -1, PROGRESS_WAIT_CALL},
	             {262143, 16777213, PROGRESS_WAIT_RECV}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int step, peer;
		enum progress_wait kind;
		progress_where_unpack(
		    progress_where_pack(cases[i].step, cases[i].peer, cases[i].kind), &step, &peer,
		    &kind);
		cr_assert_eq(step, cases[i].step, "case %zu", i);
		cr_assert_eq(peer, cases[i].peer, "case %zu", i);
		cr_assert_eq(kind, cases[i].kind, "case %zu", i);
	}
}

Test(progress, where_is_stored_and_described)
{
	char buf[96];
	progress_waiting(5, 2, PROGRESS_WAIT_RECV);
	progress_describe_where(buf, sizeof buf, atomic_load(&ar_progress.where));
	cr_assert_str_eq(buf, "step 5, waiting to receive from rank 2");
	progress_waiting(7, 3, PROGRESS_WAIT_SEND);
	progress_describe_where(buf, sizeof buf, atomic_load(&ar_progress.where));
	cr_assert_str_eq(buf, "step 7, waiting to send to rank 3");
	progress_waiting(4, -1, PROGRESS_WAIT_SEND);
	progress_describe_where(buf, sizeof buf, atomic_load(&ar_progress.where));
	cr_assert_str_eq(buf, "step 4", "a step without that half");
	progress_describe_where(buf, sizeof buf, progress_where_pack(-1, -1, PROGRESS_WAIT_CALL));
	cr_assert_str_eq(buf, "inside the call (no steps)");
	progress_describe_where(buf, sizeof buf, progress_where_pack(-1, -1, PROGRESS_WAIT_NONE));
	cr_assert_str_eq(buf, "");
}
