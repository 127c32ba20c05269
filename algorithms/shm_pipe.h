/*
 * The shm variant's all-reduce across hosts for large messages: one leader
 * per host (its first rank) carries the host's sum, segment by segment,
 * while the host sums the next segments.
 *
 * Per segment, among the H leaders: a direct reduce-scatter (leader h owns
 * chunk h of the segment: every other leader sends it that chunk, and it
 * combines the H chunks in host order, so every host gets the same bits),
 * then a direct all-gather of the owned chunks. Every host link carries
 * 2(H-1)/H of the message each way, the least an all-reduce can, and only
 * the leader's flow is on it. All of it is nonblocking point-to-point driven
 * by MPI_Testall, so the network never waits for the host's work.
 *
 * Why so little in flight: a chunk is SHM_PIPE_CHUNK_BYTES, one message below
 * the eager limit of the MPI libraries' TCP transports (Open MPI's is 64 KiB
 * with its header), so no chunk waits for a rendezvous handshake; and only
 * SHM_PIPE_DEPTH segments are in flight, so the link's queue stays short and
 * each direction's acknowledgements do not wait behind the other's data. On
 * the virtual cluster of `make bench` (2 hosts of 2 ranks, 1 Gbit/s per
 * host, tbf queues of 50 ms) at 64 MiB, side by side: chunks of 60000 B and
 * 2 segments in flight 0.92 of the bound (three runs of 0.92); 4 in flight
 * 0.81; 16 segments of 1 MiB (chunks of 512 KiB, rendezvous) 0.62-0.75;
 * chunks of 64 KiB (just past the eager limit) 0.76-0.78; Open MPI's coll/han
 * in the same minutes 0.66-0.93.
 *
 * The host's side is the caller's: `ready` says whether the host's sum of a
 * segment is in buf (polled, so the leader keeps the network moving while it
 * waits), `done` is told when a segment is final there.
 */
#include <mpi.h>

#ifndef COLLSCOPE_SHM_PIPE_H
#define COLLSCOPE_SHM_PIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "algorithms/dtype.h"

enum {
	/* From this many bytes a message crosses hosts through the leaders' pipeline. */
	SHM_PIPE_MIN_BYTES = 1 << 20,
	/* A chunk: one message, a whole number of elements of every dtype (2, 4, 8 B). */
	SHM_PIPE_CHUNK_BYTES = 60000,
	/* Segments in flight at once. */
	SHM_PIPE_DEPTH = 2,
};

/* Elements per segment (a chunk per host) for elements of w bytes, across hosts hosts. */
size_t shm_pipe_segment_count(size_t w, int hosts);
/* Segments of a message of count elements of w bytes. */
size_t shm_pipe_segments(size_t count, size_t w, int hosts);
/* Elements of segment k (it starts at k x seg_n) of a message of count elements. */
size_t shm_pipe_segment_len(size_t count, size_t seg_n, size_t k);

struct shm_pipe_hooks {
	bool (*ready)(void *ctx, size_t segment); /* the host's sum of segment is in buf */
	void (*done)(void *ctx, size_t segment);  /* segment is final in buf */
	void *ctx;
};

/* What the pipeline keeps between calls: receive buffers and requests, grown on demand. */
struct shm_pipe_scratch {
	void *buf;
	size_t bytes;
	MPI_Request *req;
	size_t nreq;
};
void shm_pipe_scratch_release(struct shm_pipe_scratch *s);

/*
 * buf (count elements) all-reduced in place over comm (the leaders, one per
 * host), segment by segment as `ready` allows. Every segment is passed to
 * `done`, also after an error (so the host's peers never wait for ever).
 * Returns an MPI error code.
 */
int shm_pipe_allreduce(void *buf, size_t count, enum ar_dtype t, enum ar_op op, MPI_Comm comm,
                       const struct shm_pipe_hooks *hooks, struct shm_pipe_scratch *scratch);

#endif
