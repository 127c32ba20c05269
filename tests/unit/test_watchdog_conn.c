/*
 * The watchdog's connections (cmd/run/watchdog_conn.h) over a socketpair: frames
 * arrive whole however the bytes come, and a peer that stops reading never
 * blocks the sender (the thread that is to name it).
 */
#include "cmd/run/watchdog_conn.h"

#include <criterion/criterion.h>
#include <sys/socket.h>
#include <unistd.h>

enum { TOKEN = 77 };

static void pair(struct wd_conn *a, struct wd_conn *b, size_t records)
{
	int sv[2];
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(wd_conn_init(a, sv[0], records, records), 0);
	cr_assert_eq(wd_conn_init(b, sv[1], records, records), 0);
}

Test(watchdog_conn, frames_cross_whole)
{
	struct wd_conn a, b;
	struct wd_record rec[2] = {{.silent_ms = 5, .beat = {.rank = 2, .ticks = 9}},
	                           {.flags = WD_REC_DONE, .beat = {.rank = 3, .nentries = 1}}};
	struct wd_record got[2];
	size_t n = 0;
	uint64_t sender = 0;
	pair(&a, &b, 2);
	cr_expect_eq(wd_conn_frame(&b, TOKEN, got, &n, &sender), 0, "nothing yet");
	cr_assert_eq(wd_conn_send(&a, TOKEN, 2, rec, 2), 0);
	cr_assert_eq(wd_conn_send(&a, TOKEN, 2, rec, 1), 0);
	cr_assert_eq(wd_conn_read(&b), 0);
	cr_assert_eq(wd_conn_frame(&b, TOKEN, got, &n, &sender), 1);
	cr_expect_eq(n, 2);
	cr_expect_eq(sender, 2);
	cr_expect_eq(got[0].beat.ticks, 9);
	cr_expect_eq(got[1].flags, WD_REC_DONE);
	cr_assert_eq(wd_conn_frame(&b, TOKEN, got, &n, &sender), 1, "the second, kept for later");
	cr_expect_eq(n, 1);
	cr_expect_eq(wd_conn_frame(&b, TOKEN, got, &n, &sender), 0);
	wd_conn_release(&a);
	cr_expect_eq(wd_conn_read(&b), -1, "the peer closed");
	wd_conn_release(&b);
}

Test(watchdog_conn, a_peer_that_does_not_read_never_blocks_the_sender)
{
	struct wd_conn a, b;
	struct wd_record rec[4] = {{.beat = {.rank = 1, .nentries = WD_FLIGHT_ENTRIES}}};
	pair(&a, &b, 4);
	/* far more than any socket buffer holds: each call returns, the excess is dropped */
	for (int i = 0; i < 20000; i++)
		cr_assert_eq(wd_conn_send(&a, TOKEN, 1, rec, 4), 0);
	cr_expect(wd_conn_pending(&a), "a frame waits to leave");
	/* the reader then gets whole frames only: no frame was cut by a dropped one */
	struct wd_record got[4];
	size_t n, frames = 0;
	uint64_t sender;
	int rc;
	for (int round = 0; round < 100000; round++) {
		cr_assert_eq(wd_conn_read(&b), 0);
		while ((rc = wd_conn_frame(&b, TOKEN, got, &n, &sender)) == 1)
			frames++;
		cr_assert_eq(rc, 0, "never a broken frame");
		if (wd_conn_flush(&a) != 0 || !wd_conn_pending(&a))
			break;
	}
	cr_assert_eq(wd_conn_read(&b), 0);
	while (wd_conn_frame(&b, TOKEN, got, &n, &sender) == 1)
		frames++;
	cr_expect_gt(frames, 0);
	cr_expect_lt(frames, 20000, "the frames that found no room were dropped");
	wd_conn_release(&a);
	wd_conn_release(&b);
}
