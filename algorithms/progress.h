/*
 * Where this rank is: written by the measuring code at every iteration
 * (a few relaxed atomic stores, outside the timed region), read by the
 * watchdog thread (cmd/run/watchdog.c), which tells the other ranks.
 * `ticks` counts the operations this rank has started; every rank runs the
 * same sequence of collective operations, so ticks compare across ranks: the
 * ranks with the fewest are the ones that have not arrived.
 * `where` is finer: inside a call, the executor stores the schedule step it
 * is at and the peer it waits for, twice per step (one relaxed atomic store
 * each: a plain mov on x86-64), with or without --trace, so the watchdog's
 * flight recorder always knows whom each rank waits on.
 */
#ifndef COLLSCOPE_PROGRESS_H
#define COLLSCOPE_PROGRESS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum progress_phase {
	PROGRESS_START,  /* before the first point */
	PROGRESS_WARMUP, /* iteration counts warm-up calls */
	PROGRESS_TIMED,  /* iteration counts timed calls */
	PROGRESS_VERIFY, /* checking and gathering results */
	PROGRESS_DONE,   /* finishing: summary, report */
	PROGRESS_CHECK,  /* iteration counts correctness checks (verify) */
	PROGRESS_IDLE,   /* not in the current sub-communicator: waiting, never late */
};

/*
 * Operations that are not an all-reduce variant take a negative "variant":
 * heartbeats carry numbers only, and every rank can name these.
 */
enum progress_activity {
	PROGRESS_NONE = -1,
	PROGRESS_LINKS_ROUND = -2, /* links: a tournament round; iteration = round */
	PROGRESS_LINKS_AGAIN = -3, /* links: a suspect measured again; iteration = which */
	PROGRESS_SCALE_GROUP = -4, /* scale: forming a sub-communicator */
};

/* What a rank inside a call waits for (progress.where). */
enum progress_wait {
	PROGRESS_WAIT_NONE, /* not inside a call: between calls, in a barrier, in the harness */
	PROGRESS_WAIT_RECV, /* a schedule step's receive from peer */
	PROGRESS_WAIT_SEND, /* a schedule step's send to peer (its receiver must take it) */
	PROGRESS_WAIT_CALL, /* inside a direct variant's call (MPI_Allreduce, shm): no steps */
};

struct progress {
	_Atomic uint64_t ticks;
	_Atomic int variant; /* index into ar_variants, -1 for none */
	_Atomic uint64_t bytes;
	_Atomic int64_t iteration;
	_Atomic int phase;
	_Atomic uint64_t where; /* progress_where_pack(step, peer, kind): one word, never torn */
};

/* The one progress record of this process. */
extern struct progress ar_progress;

/* kind in bits 56..63, peer + 1 in bits 32..55 (ranks below 2^24 - 1), step in bits 0..31. */
static inline uint64_t progress_where_pack(int step, int peer, enum progress_wait kind)
{
	return (uint64_t)(uint8_t)kind << 56 | (uint64_t)((uint32_t)(peer + 1) & 0xffffffu) << 32 |
	       (uint32_t)step;
}
void progress_where_unpack(uint64_t where, int *step, int *peer, enum progress_wait *kind);

/* The executor: at step, waiting on peer (-1: none) for kind. */
static inline void progress_waiting(int step, int peer, enum progress_wait kind)
{
	atomic_store_explicit(&ar_progress.where, progress_where_pack(step, peer, kind),
	                      memory_order_relaxed);
}

void progress_point(int variant, uint64_t bytes);
void progress_step(enum progress_phase phase, int64_t iteration);

/* "ring, 1048576 bytes, timed iteration 17" (buf of at least 128 bytes). */
void progress_describe(char *buf, size_t len, int variant, uint64_t bytes, int phase,
                       int64_t iteration);
/* "step 5, waiting to receive from rank 2", "inside the call", "" for NONE (buf >= 64 bytes). */
void progress_describe_where(char *buf, size_t len, uint64_t where);

#endif
