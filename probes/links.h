/*
 * Point-to-point latency and bandwidth between pairs of ranks. Collective
 * calls over the communicator given to probe_links_init; nothing is printed.
 *
 * For a pair (lo, hi) the phases are, in this order:
 *   1. ping-pong started by lo, 2. ping-pong started by hi: lat_bytes each
 *      way; the starter times every round trip and keeps half of it, the
 *      one-way latency of starter -> other;
 *   3. lo sends to hi, 4. hi sends to lo: a window of `window` non-blocking
 *      sends of bw_bytes, then the receiver acknowledges with an empty
 *      message; the sender times window and acknowledgement;
 *   5. both send a window to each other at once, then swap empty
 *      acknowledgements; each side times the whole exchange.
 * Each phase runs `warmup` untimed iterations first. The messages of a
 * window share one send and one receive buffer (as osu_bw does): contents
 * are not checked, and bytes are what is measured.
 *
 * Concurrent mode: every pair of a tournament round runs at once, with a
 * barrier of all ranks between phases, so all pairs are in the same phase
 * (the rank with the bye of an odd round only joins the barriers).
 * Isolated mode: one pair at a time while the other ranks wait in a barrier.
 */
#include <mpi.h>

#ifndef COLLSCOPE_LINKS_H
#define COLLSCOPE_LINKS_H

#include <stddef.h>

#include "probe_opts.h"

/*
 * The workspace of one rank, and after each measurement the samples of the
 * ordered pair rank -> peer, which this rank timed. All owned, allocated
 * once by probe_links_init (buffers touched), freed by probe_links_release.
 */
struct probe_links {
	struct probe_link_opts opts;
	MPI_Comm comm;
	int rank, nranks;
	char *send_buf, *recv_buf; /* max(lat_bytes, bw_bytes) each */
	MPI_Request *reqs;         /* 2 x window */
	int peer;                  /* the pair measured last, or -1 */
	double *lat_us;            /* lat_iters one-way latencies rank -> peer */
	double *window_us;         /* bw_iters times of one window rank -> peer */
	double *bidir_us;          /* bw_iters times of a window each way at once */
	double cpu_wait_share;     /* of the last pair's time, waiting for a CPU; NAN unknown */
};

/*
 * Collective over comm (borrowed, must outlive p). Returns MPI_SUCCESS or
 * MPI_ERR_NO_MEM on this rank (the caller agrees across ranks).
 */
int probe_links_init(struct probe_links *p, MPI_Comm comm, const struct probe_link_opts *o);
void probe_links_release(struct probe_links *p);

/*
 * Collective: round `round` of the tournament over all ranks, in mode.
 * Afterwards p->peer is this rank's partner of the round (-1 for a bye) and
 * the sample arrays hold rank -> peer. Every rank makes the same barrier
 * calls even after an error, so none is left waiting; returns the first MPI
 * error of this rank.
 */
int probe_links_round(struct probe_links *p, int round, enum probe_mode mode);

/*
 * Collective: the pair (a, b), a != b, measured while every other rank waits
 * in a barrier. On a and b, p->peer is the other and the samples are filled;
 * elsewhere p->peer is -1.
 */
int probe_links_isolated(struct probe_links *p, int a, int b);

#endif
