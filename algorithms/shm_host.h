/*
 * The ranks of one host, as the shm variant and its halves see them: the
 * host's communicator, its barrier on shared-memory flags (shm_sync.h), every
 * peer's buffers of the current call (published through the barrier's
 * slots), and the sum of a range of the host's inputs, block by block in
 * cache. Made on a communicator's first call and cached on it, so a timed
 * call pays none of it. algorithms/ar_shm.c says how the all-reduce uses it,
 * algorithms/shm_halves.c the reduce-scatter and all-gather.
 */
#ifndef COLLSCOPE_SHM_HOST_H
#define COLLSCOPE_SHM_HOST_H

#include <mpi.h>

#include "algorithms/executor.h"
#include "algorithms/shm_arena.h"
#include "algorithms/shm_pipe.h"
#include "algorithms/shm_small.h"
#include "algorithms/shm_sync.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Reduce in blocks this big, in a private buffer that stays in the core's
 * cache, then copy each finished block to the shared results in one pass,
 * so no line of the shared window is written twice. Side by side at 2 ranks,
 * with the copy streaming (stream_copy.h), this took 64 KiB from 9.1 to 5.3
 * us, 1 MiB from 75 to 50 us and 16 MiB from 1.32 to 0.98-1.11 ms against
 * reducing in place in the window with ordinary stores; copying with
 * ordinary stores wherever the buffers fit in the cache then took 64 KiB to
 * 2.6 us and 1 MiB to 29 us.
 */
enum { SHM_BLOCK_BYTES = 64 * 1024 };

/* What a call on one communicator needs, made on its first call and cached on it. */
struct shm_state {
	MPI_Comm node;   /* the communicator's ranks on this host */
	MPI_Comm across; /* this rank's rail, or the hosts' first ranks; else MPI_COMM_NULL */
	int local, nlocal;
	bool uniform; /* every host has nlocal ranks: rails */
	int hosts;
	int *arena_rank;               /* node rank -> rank in the arena's communicator */
	const struct shm_arena *arena; /* peer[] was looked up in it */
	char **peer;                   /* node rank -> its arena segment */
	char *block;                   /* SHM_BLOCK_BYTES: a block's partial result, in cache */
	bool stream;                   /* this call's results are written with streaming stores */
	/* the host's barrier (shm_sync.h): a slot per rank in a window of their own */
	struct shm_arena *control;
	struct shm_slot **slot; /* node rank -> its slot, with this call's buffers */
	uint64_t barriers;      /* reached so far */
	bool crowded;           /* more ranks on the host than cores: waits yield */
	/* small messages (shm_small.h): two slots per rank after its barrier slot */
	void **small_region; /* node rank -> its slots */
	struct shm_small small;
	uint64_t small_calls;         /* made so far */
	struct shm_pipe_scratch pipe; /* the leaders' pipeline, on the host's first rank */
	uint64_t segments;            /* pipeline segments so far, alike on the host's ranks */
};

/* The state cached on comm, made on first use (collective: every rank calls at once). */
int shm_state_of(MPI_Comm comm, struct shm_state **out);

/* The host's stores before it are seen by every rank of it after. */
void shm_host_barrier(struct shm_state *st);

/*
 * Publish this call's buffers and learn every host peer's (ends with a
 * host barrier: every input is ready after it); MPI_ERR_BUFFER on every
 * rank of the host when any is not in an arena.
 */
int shm_gather_offsets(struct shm_state *st, const struct ar_call *c, size_t bytes);

/* Rank i's buffers of this call: valid from the entry barrier to the last one. */
static inline const char *shm_input_of(const struct shm_state *st, int i)
{
	return st->peer[i] + st->slot[i]->input;
}

static inline char *shm_result_of(const struct shm_state *st, int i)
{
	return st->peer[i] + st->slot[i]->result;
}

/*
 * Elements [first, first + n) of the host's inputs combined, rank lead's
 * first, block by block in cache; each block is stored into the result of
 * rank `to`, or of every rank of the host when to < 0. A float32 sum whose
 * results stream takes one pass instead, no block (stream_sum.h).
 */
void shm_sum_range(const struct shm_state *st, const struct ar_call *c, size_t first, size_t n,
                   int lead, int to);

#endif
