/*
 * The shm variant's all-reduce across hosts, on one rail (the ranks of the
 * same local index on each host): a ring of whole chunks. With H ranks on
 * the rail the slice is cut into H chunks; H - 1 steps of reduce-scatter and
 * H - 1 of all-gather, each one MPI_Sendrecv of a whole chunk to the next
 * rank and from the previous one, so every host link carries 2(H-1)/H of the
 * slice, the least an all-reduce can, and each transfer is one long message,
 * which TCP streams at the link's rate. The library's MPI_Allreduce on the
 * same rails (Open MPI 4.1's choice for 2 ranks) reached 0.4 of a shaped
 * link on the virtual cluster; the L rails of a host run at once and share
 * its link, so one rail's reduction overlaps another's transfer.
 *
 * Commutative operators (chunk c is reduced starting at rank c + 1); each
 * chunk is reduced by one rank and copied to the others, so every rank gets
 * the same bits.
 */
#include <mpi.h>

#ifndef COLLSCOPE_SHM_RAIL_H
#define COLLSCOPE_SHM_RAIL_H

#include <stddef.h>

#include "dtype.h"

/* From this many bytes per rail the ring of whole chunks pays; below, the library's latency wins.
 */
enum { SHM_RAIL_RING_MIN_BYTES = 1 << 20 };

/* A receive buffer for a chunk, grown on demand and kept (shm_rail_scratch_release). */
struct shm_rail_scratch {
	void *buf;
	size_t bytes;
};
void shm_rail_scratch_release(struct shm_rail_scratch *s);

/* buf (count elements) all-reduced in place over comm. Returns an MPI error code. */
int shm_rail_allreduce(void *buf, size_t count, enum ar_dtype t, enum ar_op op, MPI_Comm comm,
                       struct shm_rail_scratch *scratch);

#endif
