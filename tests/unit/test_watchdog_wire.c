/*
 * The watchdog's messages (cmd/run/watchdog_wire.h) and its heartbeat slots
 * (cmd/run/watchdog_slot.h): round trips, and every way a frame can be cut
 * short or lie about itself.
 */
#include "cmd/run/watchdog_slot.h"
#include "cmd/run/watchdog_wire.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

enum { TOKEN = 0x1234567890abcdefULL };

static struct wd_beat beat(uint64_t rank, uint64_t nentries)
{
	struct wd_beat b = {.token = TOKEN,
	                    .rank = rank,
	                    .ticks = 40 + rank,
	                    .bytes = 1024,
	                    .variant = -2,
	                    .iteration = -7,
	                    .phase = 2,
	                    .seq = 9,
	                    .where = 0xfeedULL,
	                    .clock_ns = 123456789,
	                    .nentries = nentries};
	for (size_t i = 0; i < nentries * TRACE_WORDS; i++)
		b.entries[i] = 1000 * rank + i;
	return b;
}

static void expect_same(const struct wd_beat *a, const struct wd_beat *b)
{
	cr_expect_eq(a->rank, b->rank);
	cr_expect_eq(a->ticks, b->ticks);
	cr_expect_eq(a->variant, b->variant, "negative values survive");
	cr_expect_eq(a->iteration, b->iteration);
	cr_expect_eq(a->phase, b->phase);
	cr_expect_eq(a->where, b->where);
	cr_expect_eq(a->clock_ns, b->clock_ns);
	cr_expect_eq(a->nentries, b->nentries);
	cr_expect_eq(memcmp(a->entries, b->entries, a->nentries * TRACE_WORDS * 8), 0);
}

/* A frame of three records (no entries, all of them, one) in buf; its length. */
static size_t three(unsigned char *buf, size_t cap, struct wd_record rec[3])
{
	rec[0] = (struct wd_record){.silent_ms = 0, .beat = beat(4, 0)};
	rec[1] = (struct wd_record){
	    .silent_ms = 2500, .flags = WD_REC_DONE, .beat = beat(5, WD_FLIGHT_ENTRIES)};
	rec[2] = (struct wd_record){.silent_ms = 7, .beat = beat(6, 1)};
	return wd_frame_encode(TOKEN, 4, rec, 3, buf, cap);
}

Test(watchdog_wire, a_frame_round_trips)
{
	unsigned char buf[8192];
	struct wd_record in[3], out[3];
	size_t n = three(buf, sizeof buf, in), count = 0, used = 0;
	uint64_t sender = 0;
	cr_assert_gt(n, 0);
	cr_assert_eq(wd_frame_parse(buf, n, TOKEN, out, 3, &count, &sender, &used), 1);
	cr_expect_eq(count, 3);
	cr_expect_eq(sender, 4);
	cr_expect_eq(used, n);
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(out[i].silent_ms, in[i].silent_ms);
		cr_expect_eq(out[i].flags, in[i].flags);
		expect_same(&out[i].beat, &in[i].beat);
	}
}

Test(watchdog_wire, a_frame_arriving_in_pieces_waits_for_its_end)
{
	unsigned char buf[8192];
	struct wd_record in[3], out[3];
	size_t n = three(buf, sizeof buf, in), count, used;
	uint64_t sender;
	for (size_t len = 0; len < n; len++)
		cr_expect_eq(wd_frame_parse(buf, len, TOKEN, out, 3, &count, &sender, &used), 0,
		             "%zu of %zu bytes", len, n);
}

Test(watchdog_wire, two_frames_back_to_back_come_one_at_a_time)
{
	unsigned char buf[16384];
	struct wd_record in[3], out[3];
	size_t n = three(buf, sizeof buf, in), count, used;
	uint64_t sender;
	memcpy(buf + n, buf, n);
	cr_assert_eq(wd_frame_parse(buf, 2 * n, TOKEN, out, 3, &count, &sender, &used), 1);
	cr_expect_eq(used, n);
	cr_assert_eq(
	    wd_frame_parse(buf + used, 2 * n - used, TOKEN, out, 3, &count, &sender, &used), 1);
}

Test(watchdog_wire, lies_are_refused)
{
	unsigned char buf[8192], bad[8192];
	struct wd_record in[3], out[3];
	size_t n = three(buf, sizeof buf, in), count, used;
	uint64_t sender;
	cr_expect_eq(wd_frame_parse(buf, n, TOKEN + 1, out, 3, &count, &sender, &used), -1,
	             "another job's token");
	cr_expect_eq(wd_frame_parse(buf, n, TOKEN, out, 2, &count, &sender, &used), -1,
	             "more records than the host has");
	memcpy(bad, buf, n);
	bad[7] = 3; /* a length that is not whole words */
	cr_expect_eq(wd_frame_parse(bad, n, TOKEN, out, 3, &count, &sender, &used), -1);
	memset(bad, 0xff, 8); /* a length past any frame */
	cr_expect_eq(wd_frame_parse(bad, n, TOKEN, out, 3, &count, &sender, &used), -1);
	memset(bad, 0, 8); /* shorter than its head */
	cr_expect_eq(wd_frame_parse(bad, n, TOKEN, out, 3, &count, &sender, &used), -1);
	memcpy(bad, buf, n);
	bad[31] = 2; /* two records said, three there: they do not fill the frame */
	cr_expect_eq(wd_frame_parse(bad, n, TOKEN, out, 3, &count, &sender, &used), -1);
	memcpy(bad, buf, n);
	bad[31] = 4; /* four said, three there: the fourth runs past the end */
	cr_expect_eq(wd_frame_parse(bad, n, TOKEN, out, 4, &count, &sender, &used), -1);
	memcpy(bad, buf, n);
	/* the first record's entry count (its beat's word 10) says 9 */
	bad[(WD_FRAME_HEAD_WORDS + WD_REC_HEAD_WORDS + 10) * 8 + 7] = WD_FLIGHT_ENTRIES + 1;
	cr_expect_eq(wd_frame_parse(bad, n, TOKEN, out, 3, &count, &sender, &used), -1);
}

Test(watchdog_wire, an_empty_frame_and_one_that_does_not_fit)
{
	unsigned char buf[64];
	struct wd_record rec = {.beat = beat(1, WD_FLIGHT_ENTRIES)}, out[1];
	size_t n = wd_frame_encode(TOKEN, 0, NULL, 0, buf, sizeof buf), count = 9, used;
	uint64_t sender;
	cr_expect_eq(n, WD_FRAME_HEAD_WORDS * 8);
	cr_expect_eq(wd_frame_parse(buf, n, TOKEN, out, 1, &count, &sender, &used), 1);
	cr_expect_eq(count, 0);
	cr_expect_eq(wd_frame_encode(TOKEN, 0, &rec, 1, buf, sizeof buf), 0, "no room: nothing");
	cr_expect_eq(wd_frame_max_bytes(1),
	             (WD_FRAME_HEAD_WORDS + WD_REC_HEAD_WORDS + WD_BEAT_MAX_WORDS) * 8);
}

Test(watchdog_wire, random_bytes_never_read_past_the_end)
{
	/* the parser sees only len bytes: a copy of exactly len on the heap (ASan sees overruns) */
	struct wd_record out[4];
	size_t count, used;
	uint64_t sender;
	srand(7);
	for (int round = 0; round < 2000; round++) {
		size_t len = (size_t)(rand() % 200);
		unsigned char *b = malloc(len + 1);
		for (size_t i = 0; i < len; i++)
			b[i] = (unsigned char)rand();
		if (len >= 8) { /* a plausible length half the time */
			memset(b, 0, 8);
			b[7] = (unsigned char)(len & ~7u);
		}
		int rc = wd_frame_parse(b, len, TOKEN, out, 4, &count, &sender, &used);
		cr_expect(rc >= -1 && rc <= 1);
		if (rc == 1)
			cr_expect_leq(used, len);
		free(b);
	}
}

Test(watchdog_slot, a_beat_round_trips_and_seq_moves)
{
	struct wd_slot *s = calloc(1, sizeof *s);
	struct wd_beat in = beat(3, 2), out;
	uint64_t seq = 0, seq2 = 0;
	cr_expect(!wd_slot_read(s, &out, &seq), "never written: nothing to read");
	wd_slot_write(s, &in);
	cr_assert(wd_slot_read(s, &out, &seq));
	expect_same(&out, &in);
	wd_slot_write(s, &in);
	cr_assert(wd_slot_read(s, &out, &seq2));
	cr_expect_neq(seq, seq2, "a new heartbeat is heard even when the beat is the same");
	cr_expect(!wd_slot_is_done(s));
	wd_slot_done(s);
	cr_expect(wd_slot_is_done(s));
	free(s);
}

Test(watchdog_slot, half_a_write_is_not_read)
{
	struct wd_slot *s = calloc(1, sizeof *s);
	struct wd_beat in = beat(3, 0), out;
	uint64_t seq = 0;
	wd_slot_write(s, &in);
	/* the writer stopped in the middle of its next write (SIGSTOP): seq odd */
	atomic_fetch_add(&s->seq, 1);
	cr_expect(!wd_slot_read(s, &out, &seq));
	free(s);
}
