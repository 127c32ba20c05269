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
 * Each latency phase runs `warmup` untimed iterations first, within a time
 * budget too (lat_time_s: at least 3 round trips, then as many as fit, and
 * the starter's last ping has a tag of its own). A bandwidth
 * phase is paced by struct probe_pace (tournament.h): sizing windows of one
 * message when there is a budget (bw_time_s), warm-up windows, then timed
 * windows until bw_iters or the budget, whichever comes first. One side keeps
 * the clock (the sender; lo in phase 5) and, before every window, sends the
 * other an int: the window's message count, or 0 when the phase is over, so
 * both sides always agree how many windows there are. A window of fewer than
 * `window` messages (a slow link) has its time scaled up to a full window:
 * every window time means the same bytes, and the counts say what ran.
 * The messages of a window share one send and one receive buffer (as osu_bw
 * does): contents are not checked, and bytes are what is measured.
 *
 * Concurrent mode: every pair of a tournament round runs at once, with a
 * barrier of all ranks between phases, so all pairs are in the same phase
 * (the rank with the bye of an odd round only joins the barriers).
 * Isolated mode: one pair at a time while the other ranks wait in a barrier.
 *
 * Shift pattern (probe_links_shift, mpiGraph's): in step d every rank posts
 * a window of receives from rank - d and a window of sends to rank + d at
 * once and notes when its sends and when its receives completed. Rank 0
 * paces the step for all: it gathers every rank's window time, the slowest
 * is the step's, and broadcasts before every window its kind and each rank's
 * message count (sized from each rank's own sends in the sizing windows, so a healthy
 * pair keeps full windows beside a slow one).
 */
#include <mpi.h>

#ifndef COLLSCOPE_LINKS_H
#define COLLSCOPE_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "probes/probe_opts.h"

/* How one bandwidth phase went: timed windows and messages in each. */
struct probe_windows {
	int windows;          /* timed windows */
	int msgs;             /* messages in each of them */
	bool stopped_by_time; /* fewer than bw_iters: the budget ran out */
};

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
	int *done;                 /* 2 x window: indices of completed requests */
	int peer;                  /* the pair measured last, or -1 */
	double *lat_us;            /* lat_iters one-way latencies rank -> peer */
	int lat_count;             /* how many of them were measured (the budget may stop it) */
	double *window_us;         /* bw_iters times of one window rank -> peer */
	double *bidir_us;          /* bw_iters times of a window each way at once */
	struct probe_windows one_way, bidir; /* how many of window_us, bidir_us hold samples */
	double cpu_wait_share;     /* of the last pair's time, waiting for a CPU; NAN unknown */
	double cpu_wait_share_lat; /* the same of its ping-pongs alone: what a latency suffers */
	/* what this host's NICs carried besides the pair during its one-way bandwidth
	   phases, in GB/s (probes/nic_bytes.h); NAN unknown, and in concurrent rounds
	   unless nic_in_rounds */
	double nic_other_gbps;
	/* the same of what the NICs sent and what they received (another job's stream
	   out of a host takes its sending side only) */
	double nic_other_sent_gbps, nic_other_received_gbps;
	/* set by the caller when every host has one rank of comm: a concurrent round's
	   pairs are then on distinct hosts, and the counters read around a pair see its
	   own bytes and another job's only, as a pair alone does (false after init) */
	bool nic_in_rounds;
	/* payload this rank sent and received in those phases */
	uint64_t bw_sent_bytes, bw_received_bytes;
	/* the shift step measured last (probe_links_shift): */
	int shift_dest, shift_source;   /* -1 before any */
	double *shift_send_us;          /* bw_iters: until this rank's sends completed */
	double *shift_recv_us;          /* bw_iters: until its receives completed */
	struct probe_windows shift;     /* how many of those hold samples */
	double *shift_times;            /* 3 x nranks: rank 0 gathers each window's times */
	double *shift_fastest;          /* nranks: rank 0, each rank's fastest sizing window */
	int *shift_counts;              /* nranks: the messages each rank sends a window */
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
 * Collective: round `round` of plan (probes/plan.h, built for the ranks of
 * p's communicator), as probe_links_round does the tournament's.
 */
struct probe_plan;
int probe_links_plan_round(struct probe_links *p, const struct probe_plan *plan, int round,
                           enum probe_mode mode);

/*
 * Collective: the pair (a, b), a != b, measured while every other rank waits
 * in a barrier. On a and b, p->peer is the other and the samples are filled;
 * elsewhere p->peer is -1.
 */
int probe_links_isolated(struct probe_links *p, int a, int b);

/*
 * Collective: every rank with its partner peer (-1: none; the partners
 * agree), all pairs at once with a barrier of all ranks between phases, as a
 * concurrent round (a re-test of pairs that share a path). The pairs are on
 * distinct hosts, as a re-test step's are: each reads its hosts' interface
 * counters (nic_other_gbps) as a pair alone does.
 */
int probe_links_matched(struct probe_links *p, int peer);

/*
 * Collective: step d (1 <= d < nranks) of the shift pattern. Afterwards
 * shift_dest and shift_source are this rank's partners and shift_send_us,
 * shift_recv_us hold shift.windows window times (scaled to full windows).
 */
int probe_links_shift(struct probe_links *p, int d);

#endif
