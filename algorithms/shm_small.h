/*
 * The shm variant's path for small messages: no buffers of the peers, no
 * barrier, no MPI call. Every rank has two slots in shared memory, and a
 * slot is whole cache lines, each carrying SHM_LINE_DATA_BYTES of data and,
 * in its last 8 bytes, a flag: the call the data is of, and whether that
 * call's buffers were valid on its rank. A call copies its input into the
 * slot of the call's parity line by line, each line's flag stored after its
 * data (release); then waits until every line of every peer's slot of that
 * parity shows the call (acquire), and reduces all the slots, in rank
 * order, into its own result. Flag and data share their line, so a reader
 * fetches each line once, and the lines of a slot arrive in parallel, not
 * one after the other behind a flag of their own. At 8 B a call moves one
 * line each way; the two-barrier path moves four and reads the peers'
 * buffers besides.
 *
 * Why two slots are enough: a rank writes its slot of parity p again at call
 * k + 2 only after it has seen every peer's call k + 1, and a peer publishes
 * k + 1 only after it has read everything of call k (its release stores
 * order those reads before them). So nobody reads a slot while its owner
 * rewrites it, and no reader sees half of one call and half of another.
 * The same ordering means the result needs no barrier at the end: nothing of
 * a rank's own buffers is read by its peers.
 *
 * Every rank reduces the same slots in the same order, so all ranks get the
 * same bits, whatever the operator.
 *
 * How close to the machine (2026-12-07, 2 ranks on this 2-core VM, window
 * timing). The floor is one cache line each way from a common start: 0.33
 * us p50 in C outside MPI (threads or processes alike, 20,000 starts), 0.47-
 * 0.51 us for 2-5 lines; the library's 8 B call takes 0.64-0.70 us, ours
 * 0.55-0.62 us, stamped with the TSC inside the call: 0.07 us from the
 * harness to the first store, then the exchange, 0.29 us one way and 0.45
 * the other (rank 0's line reaches rank 1 later, run after run), then 0.03
 * to reduce. Tried and dropped, no gain in place of the micro-benchmark's:
 * looking at every line of a slot on each spin (2-5 lines 0.35-0.38 us
 * there), and reducing this rank's operand from its input instead of its
 * slot (a peer pulling the slot made rank 0's read of it wait 0.16 us, but
 * the call ends with the slower direction). The vCPUs' placement moves: in
 * some minutes the same exchange takes 0.13 us and every figure halves.
 *
 * No MPI: unit-tested with threads in place of ranks.
 */
#ifndef COLLSCOPE_SHM_SMALL_H
#define COLLSCOPE_SHM_SMALL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algorithms/dtype.h"

enum {
	SHM_LINE_BYTES = 64,
	/* a line's data: a whole number of elements of every dtype (2, 4 and 8 B) */
	SHM_LINE_DATA_BYTES = SHM_LINE_BYTES - 8,
	/*
	 * Largest message that takes this path. Side by side with the
	 * two-barrier path (p50, medians of 6 runs at 2 ranks, 4 at 4): at 2 ranks 8 B took 0.46
	 * us against 0.60, 256 B 0.51 against 0.62, 512 B 0.68 against 0.62,
	 * 1 KiB 1.01 against 0.62; at 4 ranks on 2 cores 8 B 3.9 us against
	 * 5.2, 512 B 5.0 against 8.0, 1 KiB 6.0 against 7.6, 4 KiB 11.6
	 * against 7.9. Past a few lines the copy into the slot, which every
	 * call's peers then pull across, costs more than two barriers: the
	 * other path reads its peers' inputs where they are, and a benchmark's
	 * input, unchanged from call to call, stays in both cores' caches.
	 * At 512 B the two-barrier path is ahead at 2 ranks (again in a later
	 * round: p50 against the library's, medians of 8 alternating runs, 384
	 * B 0.77 against 0.61, 512 B 0.66 against 0.61; make bench's median of
	 * 5 had this path at 1.30x the library at 512 B), and at 4 ranks it
	 * still beats the library (8.0 us against 17 there), so the path ends
	 * at 256 B, where it was ahead.
	 */
	SHM_SMALL_MAX_BYTES = 256,
};

/* Lines that carry bytes of data: at least one, whose flag a call of 0 B still sets. */
size_t shm_small_lines(size_t bytes);
/* Bytes one rank needs for its two slots, for messages of up to capacity_bytes. */
size_t shm_small_rank_bytes(size_t capacity_bytes);

/* The ranks of a host, as one rank sees them; the regions are the caller's. */
struct shm_small {
	void *const
	    *region; /* per rank, line-aligned: shm_small_rank_bytes(capacity_bytes), zeroed */
	int count, me;
	size_t capacity_bytes;
	bool crowded; /* more ranks than cores: waits yield from the first look */
};

/*
 * Call seq (1, 2, ... on every rank alike): publish count elements of input
 * and ok, wait for every peer's call seq, reduce all into result (which may
 * be input). count x its size must be at most capacity_bytes. Returns
 * whether every rank's ok was true; result is written only then.
 */
bool shm_small_allreduce(const struct shm_small *h, uint64_t seq, bool ok, const void *input,
                         void *result, size_t count, enum ar_dtype t, enum ar_op op);

#endif
