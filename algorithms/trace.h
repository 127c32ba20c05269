/*
 * The per-step trace of the all-reduce a rank runs (issue 14): a ring of
 * fixed-capacity entries, one per step of a schedule (or one per call of a
 * direct variant such as `mpi`), written by the executor while it runs and
 * read by the gather after a point and by the watchdog's thread at any time.
 * Pure: no MPI, no I/O.
 *
 * One writer, any readers. The storage is allocated once (trace_ring_init):
 * trace_write allocates nothing, takes no lock and never blocks. Each slot is
 * a seqlock (Boehm, "Can seqlocks get along with programming language memory
 * models?", MSPC 2012): the writer stores the odd sequence 2i+1 of entry i,
 * a release fence, the entry's words as relaxed atomics, then the even
 * sequence 2i+2 with release; a reader loads the sequence with acquire, the
 * words relaxed, an acquire fence, the sequence again, and keeps the entry
 * only when both loads saw 2i+2. So every word is an atomic (no data race in
 * C11 terms), a reader never waits for the writer, and a torn or overwritten
 * entry is dropped, never returned half old and half new. On x86-64 every
 * store here is a plain mov and the fences cost nothing.
 *
 * Times are CLOCK_MONOTONIC nanoseconds of this rank's clock; the gather
 * (trace_gather.h) moves them onto rank 0's.
 */
#ifndef COLLSCOPE_TRACE_H
#define COLLSCOPE_TRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define TRACE_WHOLE_CALL      (-1) /* the step of a direct variant's one record per call */
#define TRACE_MIN_ENTRIES     16
#define TRACE_MAX_ENTRIES     (1u << 22)
#define TRACE_DEFAULT_ENTRIES 8192
#define TRACE_WORDS           11 /* 64-bit words of one entry, in memory and on the wire */

/* A step of a reduce-scatter then all-gather schedule (sched.halves), or neither. */
enum trace_half { TRACE_HALF_NONE, TRACE_HALF_REDUCE_SCATTER, TRACE_HALF_ALLGATHER };

/*
 * One step of one call. The step begins (start_ns) when this rank posts its
 * receive (unless it was posted ahead, during the step before) and its send;
 * recv_done_ns is when the wait for the receive returned (start_ns without a
 * receive): recv_done_ns - start_ns is the time it waited on its receive,
 * posting included. reduced_ns is when the received segment was reduced
 * (recv_done_ns for a copy), end_ns when the send was complete too: the next
 * step's start_ns. reduce_busy_ns is the reduction's time on the core
 * (reduce_timed.h: what the core's absence added to reduced_ns - recv_done_ns
 * left out), 0 for none.
 */
struct trace_entry {
	int variant;              /* index into ar_variants; -1 unknown */
	int phase;                /* enum progress_phase when the call began */
	int64_t iteration;        /* progress' iteration when the call began */
	uint64_t bytes;           /* the call's message size */
	int step;                 /* index into the schedule, or TRACE_WHOLE_CALL */
	int half;                 /* enum trace_half: which half of a two-halves schedule */
	int send_peer, recv_peer; /* -1: none */
	uint64_t send_bytes, recv_bytes;
	uint64_t start_ns, recv_done_ns, reduced_ns, end_ns;
	uint64_t reduce_busy_ns;
};

struct trace_slot {
	_Atomic uint64_t seq; /* 2i+1 while entry i is written, 2i+2 once it is whole */
	_Atomic uint64_t w[TRACE_WORDS];
};

/* Embedded (trace_ring_init / trace_ring_release); the ring owns its slots. */
struct trace_ring {
	struct trace_slot *slots;
	size_t cap;
	size_t next;           /* the writer's: the slot of the next entry */
	_Atomic uint64_t head; /* entries written so far */
};

/* cap entries, TRACE_MIN_ENTRIES .. TRACE_MAX_ENTRIES. 0, or -1 (bad cap or no memory). */
int trace_ring_init(struct trace_ring *t, size_t cap);
void trace_ring_release(struct trace_ring *t);

/* Entries written so far (any thread). */
uint64_t trace_written(const struct trace_ring *t);

/*
 * Copies the last max entries (or fewer), oldest first, into out: whole
 * entries only (one being written or already overwritten is left out).
 * Any thread, concurrently with the writer. Returns how many were copied.
 */
size_t trace_snapshot(const struct trace_ring *t, struct trace_entry *out, size_t max);

/* Keeps the entries of (variant, bytes, phase), in order, at the front of e; returns their count.
 */
size_t trace_select(struct trace_entry *e, size_t n, int variant, uint64_t bytes, int phase);

/* The wire and slot form of an entry, and back. */
void trace_unpack(const uint64_t w[TRACE_WORDS], struct trace_entry *e);

/*
 * The ring the watchdog's flight recorder reads: published by the command
 * that traces, before the watchdog starts, and withdrawn (NULL) before the
 * ring is released. NULL when nothing is traced.
 */
void trace_publish(struct trace_ring *t);
struct trace_ring *trace_published(void);

static inline uint64_t trace_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void trace_pack(const struct trace_entry *e, uint64_t w[TRACE_WORDS])
{
	w[0] = e->bytes;
	w[1] = (uint64_t)e->iteration;
	w[2] = (uint64_t)(uint16_t)e->variant << 48 | (uint64_t)(uint8_t)e->phase << 40 |
	       (uint64_t)(uint8_t)e->half << 32 | (uint32_t)e->step;
	w[3] = (uint64_t)(uint32_t)e->send_peer << 32 | (uint32_t)e->recv_peer;
	w[4] = e->send_bytes;
	w[5] = e->recv_bytes;
	w[6] = e->start_ns;
	w[7] = e->recv_done_ns;
	w[8] = e->reduced_ns;
	w[9] = e->end_ns;
	w[10] = e->reduce_busy_ns;
}

/* The writer (one thread only): no allocation, no lock, no wait. */
static inline void trace_write(struct trace_ring *t, const struct trace_entry *e)
{
	uint64_t w[TRACE_WORDS];
	uint64_t i = atomic_load_explicit(&t->head, memory_order_relaxed);
	struct trace_slot *s = &t->slots[t->next];
	trace_pack(e, w);
	atomic_store_explicit(&s->seq, 2 * i + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	for (int k = 0; k < TRACE_WORDS; k++)
		atomic_store_explicit(&s->w[k], w[k], memory_order_relaxed);
	atomic_store_explicit(&s->seq, 2 * i + 2, memory_order_release);
	atomic_store_explicit(&t->head, i + 1, memory_order_release);
	t->next = t->next + 1 == t->cap ? 0 : t->next + 1;
}

#endif
