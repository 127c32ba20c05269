/*
 * The trace ring: capacity bounds, order and wrap-around of snapshots, the
 * packing of an entry (negative peers and steps survive), the selection of
 * one operation, and a snapshot taken while another thread writes never
 * returns a torn entry.
 */
#include "algorithms/trace.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>

/* Entry number i: every field a function of i, so a torn copy is detectable. */
static struct trace_entry entry_of(uint64_t i)
{
	return (struct trace_entry){
	    .variant = (int)(i % 7),
	    .phase = 2,
	    .iteration = (int64_t)(i / 10),
	    .bytes = i * 3,
	    .step = (int)(i % 10) - 1,
	    .send_peer = (int)(i % 5) - 1,
	    .recv_peer = (int)(i % 3) - 1,
	    .send_bytes = i * 5,
	    .recv_bytes = i * 7,
	    .start_ns = i * 11,
	    .recv_done_ns = i * 13,
	    .reduced_ns = i * 17,
	    .end_ns = i * 19,
	};
}

static void assert_entry(const struct trace_entry *e, uint64_t i)
{
	struct trace_entry want = entry_of(i);
	cr_assert_eq(e->variant, want.variant, "entry %llu", (unsigned long long)i);
	cr_assert_eq(e->phase, want.phase);
	cr_assert_eq(e->iteration, want.iteration);
	cr_assert_eq(e->bytes, want.bytes);
	cr_assert_eq(e->step, want.step);
	cr_assert_eq(e->send_peer, want.send_peer);
	cr_assert_eq(e->recv_peer, want.recv_peer);
	cr_assert_eq(e->send_bytes, want.send_bytes);
	cr_assert_eq(e->recv_bytes, want.recv_bytes);
	cr_assert_eq(e->start_ns, want.start_ns);
	cr_assert_eq(e->recv_done_ns, want.recv_done_ns);
	cr_assert_eq(e->reduced_ns, want.reduced_ns);
	cr_assert_eq(e->end_ns, want.end_ns);
}

Test(trace, capacity_is_bounded)
{
	struct trace_ring t;
	cr_assert_eq(trace_ring_init(&t, TRACE_MIN_ENTRIES - 1), -1);
	cr_assert_null(t.slots);
	cr_assert_eq(trace_ring_init(&t, (size_t)TRACE_MAX_ENTRIES + 1), -1);
	cr_assert_eq(trace_ring_init(&t, TRACE_MIN_ENTRIES), 0);
	cr_assert_eq(trace_written(&t), 0);
	struct trace_entry e;
	cr_assert_eq(trace_snapshot(&t, &e, 1), 0, "nothing written yet");
	trace_ring_release(&t);
	trace_ring_release(&t); /* twice is harmless */
}

Test(trace, pack_keeps_negative_fields)
{
	struct trace_entry e = {.variant = -1,
	                        .phase = 6,
	                        .iteration = -3,
	                        .step = TRACE_WHOLE_CALL,
	                        .send_peer = -1,
	                        .recv_peer = 70000,
	                        .bytes = UINT64_MAX,
	                        .reduce_busy_ns = 123456789};
	uint64_t w[TRACE_WORDS];
	struct trace_entry back;
	trace_pack(&e, w);
	trace_unpack(w, &back);
	cr_assert_eq(back.variant, -1);
	cr_assert_eq(back.phase, 6);
	cr_assert_eq(back.iteration, -3);
	cr_assert_eq(back.step, TRACE_WHOLE_CALL);
	cr_assert_eq(back.send_peer, -1);
	cr_assert_eq(back.recv_peer, 70000);
	cr_assert_eq(back.bytes, UINT64_MAX);
	cr_assert_eq(back.reduce_busy_ns, 123456789, "the reduction's time on the core travels too");
}

Test(trace, snapshot_keeps_the_last_entries_oldest_first)
{
	struct trace_ring t;
	struct trace_entry out[64];
	cr_assert_eq(trace_ring_init(&t, 16), 0);
	for (uint64_t i = 0; i < 5; i++) {
		struct trace_entry e = entry_of(i);
		trace_write(&t, &e);
	}
	cr_assert_eq(trace_snapshot(&t, out, 64), 5);
	for (uint64_t i = 0; i < 5; i++)
		assert_entry(&out[i], i);
	cr_assert_eq(trace_snapshot(&t, out, 2), 2, "the last two only");
	assert_entry(&out[0], 3);
	assert_entry(&out[1], 4);
	/* past the capacity: the oldest are overwritten, the last 16 remain */
	for (uint64_t i = 5; i < 100; i++) {
		struct trace_entry e = entry_of(i);
		trace_write(&t, &e);
	}
	cr_assert_eq(trace_written(&t), 100);
	cr_assert_eq(trace_snapshot(&t, out, 64), 16);
	for (uint64_t i = 0; i < 16; i++)
		assert_entry(&out[i], 84 + i);
	trace_ring_release(&t);
}

Test(trace, select_keeps_one_operation_in_order)
{
	struct trace_entry e[6];
	for (int i = 0; i < 6; i++)
		e[i] = (struct trace_entry){.variant = i % 2, .bytes = 64, .phase = 2, .step = i};
	e[4].phase = 1; /* a warm-up call of the same point */
	cr_assert_eq(trace_select(e, 6, 0, 64, 2), 2);
	cr_assert_eq(e[0].step, 0);
	cr_assert_eq(e[1].step, 2);
	cr_assert_eq(trace_select(e, 2, 0, 128, 2), 0, "another size");
}

Test(trace, published_ring)
{
	struct trace_ring t = {0};
	cr_assert_null(trace_published());
	trace_publish(&t);
	cr_assert_eq(trace_published(), &t);
	trace_publish(NULL);
	cr_assert_null(trace_published());
}

enum { WRITES = 400000 };

static void *writer(void *arg)
{
	struct trace_ring *t = arg;
	for (uint64_t i = 0; i < WRITES; i++) {
		struct trace_entry e = entry_of(i);
		trace_write(t, &e);
	}
	return NULL;
}

/* The flight recorder's case: the watchdog's thread reads while the executor writes. */
Test(trace, snapshot_while_writing_is_never_torn)
{
	struct trace_ring t;
	struct trace_entry out[32];
	pthread_t th;
	size_t snapshots = 0, entries = 0;
	cr_assert_eq(trace_ring_init(&t, 32), 0);
	cr_assert_eq(pthread_create(&th, NULL, writer, &t), 0);
	while (trace_written(&t) < WRITES) {
		size_t n = trace_snapshot(&t, out, 32);
		for (size_t k = 0; k < n; k++) {
			/* entry i has bytes 3i: recover i, then every field must agree */
			uint64_t i = out[k].bytes / 3;
			assert_entry(&out[k], i);
			if (k)
				cr_assert_gt(out[k].bytes, out[k - 1].bytes, "oldest first");
		}
		snapshots++;
		entries += n;
	}
	pthread_join(th, NULL);
	cr_assert_gt(snapshots, 0);
	cr_assert_eq(trace_snapshot(&t, out, 32), 32, "once the writer is done, all are whole");
	assert_entry(&out[31], WRITES - 1);
	cr_log_info("%zu snapshots, %zu entries read while writing", snapshots, entries);
	trace_ring_release(&t);
}
