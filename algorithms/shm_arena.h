/*
 * Buffers that the ranks of one host can all read: one MPI shared-memory
 * window (MPI_Win_allocate_shared) per arena, each rank's segment on its own
 * pages, touched once by its owner. The `shm` variant reduces straight from
 * its host peers' buffers; it finds them by looking up the arena that holds
 * the buffers it was given. Direct loads and stores need no RMA epoch (MPI's
 * unified memory model): their users order them with C11 atomics (shm_sync.h).
 *
 * Only variants that need it get arena buffers: the MPI library moves data
 * from private memory somewhat faster than from a shared window (5-15% here),
 * and every other variant is measured on the private buffers a user's
 * application would pass.
 */
#include <mpi.h>

#ifndef COLLSCOPE_SHM_ARENA_H
#define COLLSCOPE_SHM_ARENA_H

#include <stddef.h>

struct shm_arena;

/*
 * Collective over comm: every rank gets `bytes` bytes (zeroed) that its host
 * peers can read, starting on a page boundary. Returns MPI_SUCCESS or an MPI
 * error code; on success the caller owns *out (shm_arena_free, collective).
 */
int shm_arena_new(MPI_Comm comm, size_t bytes, struct shm_arena **out);
void shm_arena_free(struct shm_arena **a);

/* This rank's segment. */
void *shm_arena_base(const struct shm_arena *a);

/* The arena whose segment on this rank holds [p, p + bytes), or NULL. */
const struct shm_arena *shm_arena_find(const void *p, size_t bytes);

/* The communicator the arena was made on (owned by the arena). */
MPI_Comm shm_arena_comm(const struct shm_arena *a);

/* Rank r's segment (r a rank of shm_arena_comm), or NULL when r is on another host. */
char *shm_arena_peer(const struct shm_arena *a, int r);

#endif
