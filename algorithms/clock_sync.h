/*
 * Clock synchronisation over MPI (the math is algorithms/clock_model.c):
 * every rank's clock (CLOCK_MONOTONIC, clock_id.h) against rank 0's of a
 * communicator, by ping-pongs, one rank at a time (rank 0 answers; the
 * others wait their turn napping, so they leave the cores to the pair that
 * measures). Then a check: fresh ping-pongs against the new model, whose
 * residual is the measured error. A rank that reads rank 0's very clock (one
 * kernel: clock_id) keeps the identity, offset exactly 0, and only checks it:
 * a measured offset would carry the ping-pong's asymmetry, up to half a
 * round trip (0.1-0.3 us on shared memory), into every window's start.
 * Likewise only the first rank of each other clock is measured, and the
 * other ranks of its host take its model: one sync per host, not per rank
 * (1,024 hosts of 8 ranks: 1,023 in turn instead of 8,191), and the ranks
 * of a host agree exactly.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CLOCK_SYNC_H
#define COLLSCOPE_CLOCK_SYNC_H

#include "algorithms/clock_model.h"

/* Rounds of a sync, ping-pongs per round (the shortest kept), check rounds after. */
enum { CLOCK_SYNC_ROUNDS = 10, CLOCK_SYNC_PINGS = 8, CLOCK_SYNC_CHECKS = 5 };
/* The history must span this long before its slope is taken for the drift. */
#define CLOCK_MIN_DRIFT_SPAN_S 1.0

/* One sync, over the ranks (rank 0 of the communicator holds it). */
struct clock_sync_stats {
	double error_us;      /* the largest check residual of any rank */
	double bound_us;      /* the largest half round trip: the error if a path were one-sided */
	double max_offset_us; /* the largest |offset| to rank 0 */
	double max_drift_ppm; /* the largest |drift|, in parts per million */
	double jump_us;       /* the largest error the previous model had accrued; NAN the first time */
	double duration_us;   /* how long the sync took */
	int shared_ranks;     /* ranks reading rank 0's own clock, rank 0 included */
	int measured_ranks;   /* ranks measured by ping-pong: one per other clock */
};

/*
 * Collective over comm: m (this rank's model; rank 0's stays the identity)
 * updated from a new sync; *out filled on rank 0. Returns an MPI error code.
 */
int clock_sync_run(MPI_Comm comm, int rank, int nranks, struct clock_model *m,
                   struct clock_sync_stats *out);

#endif
