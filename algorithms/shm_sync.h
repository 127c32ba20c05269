/*
 * The barrier of the shm variant's host: every rank has a slot of its own in
 * shared memory (a cache line, written by its owner alone), counts the
 * barriers it has reached there, and waits until every peer's count has
 * caught up. No atomic read-modify-write and no shared counter, so nobody
 * queues on one line; about 0.1-0.2 us at 2 ranks, where an MPI_Barrier of
 * the host costs 0.4-0.5 us. The slot also carries what a rank publishes
 * before a barrier (its buffers of the call), which its peers read after it.
 *
 * Waiting (shm_sync_wait) spins a bounded number of looks and then gives the
 * core up (sched_yield) on every further look: a peer that the scheduler has
 * taken off its core (another job's, or a run with more ranks than cores)
 * gets it back instead of watching us spin out our time slice. With more
 * ranks on the host than cores it yields from the first look, since the peer
 * it waits for may need this very core.
 *
 * No MPI: unit-tested with threads in place of ranks.
 */
#ifndef COLLSCOPE_SHM_SYNC_H
#define COLLSCOPE_SHM_SYNC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct shm_slot {
	_Atomic uint64_t reached; /* barriers this rank has reached */
	/* across hosts (shm_pipe.h), counted over calls: segments this rank has summed, or,
	 * the host's leader, has final */
	_Atomic uint64_t segments;
	uint64_t input, result; /* published: the call's buffers, offsets in the rank's segment */
	int32_t ok;             /* published: the buffers are in a shared arena */
	char pad[64 - 4 * sizeof(uint64_t) - sizeof(int32_t)];
};
_Static_assert(sizeof(struct shm_slot) == 64, "a slot is one cache line");

/*
 * Looks at a flag before the first sched_yield, when the host has a core per
 * rank: a few microseconds, longer than a peer a cache line away needs to
 * arrive (0.1-0.3 us here), shorter than a time slice.
 */
enum { SHM_SPIN_LOOKS = 2048 };

/*
 * Return once *v >= n (acquire: what its writer stored before its release
 * store of n is seen after). crowded: yield from the first look.
 */
void shm_sync_wait(_Atomic uint64_t *v, uint64_t n, bool crowded);

/*
 * shm_sync_wait for a wait that may be long (the network's): spins, then
 * yields for SHM_YIELD_US, then sleeps SHM_NAP_US at a time, so that a rank
 * waiting for another host leaves its core to the ranks and the kernel's
 * network work that it waits for.
 */
enum { SHM_YIELD_US = 200, SHM_NAP_US = 20 };
void shm_sync_wait_long(_Atomic uint64_t *v, uint64_t n);

/*
 * Reach barrier n (1, 2, ... in every rank's own count) in slot[me], and
 * return once every one of the count slots has reached it. Every store this
 * rank made before is seen by its peers after they return, and theirs by it.
 */
void shm_sync_barrier(struct shm_slot *const *slot, int count, int me, uint64_t n, bool crowded);

#endif
