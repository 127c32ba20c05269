/*
 * After a point, outside the timed region: every rank's trace entries of
 * that point to rank 0, their times moved onto rank 0's clock.
 *
 * Clocks. Each rank stamps its entries with its own CLOCK_MONOTONIC, which
 * on another host has another origin. Rank 0 measures each rank's offset the
 * way NTP's client does (Cristian): it sends a message at t1, the rank
 * answers with its clock t, rank 0 receives the answer at t2; then
 * offset = t - (t1 + t2) / 2, wrong by at most (t2 - t1) / 2. The best of
 * TRACE_CLOCK_ROUNDS round trips is kept, and its half round trip reported
 * as the error. Ranks that read rank 0's very clock (the same kernel boot id
 * and time-namespace offset: one machine, whatever its containers or network
 * namespaces) are not measured: their offset is 0 and exact. Drift over one
 * point (a second or so, tens of ppm) is far below the transfer times that
 * the attribution compares.
 */
#include <mpi.h>

#ifndef COLLSCOPE_TRACE_GATHER_H
#define COLLSCOPE_TRACE_GATHER_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/trace.h"

#define TRACE_CLOCK_ROUNDS 8

/* What rank 0 holds after a gather; owned, trace_gathered_release frees it. */
struct trace_gathered {
	int nranks;
	struct trace_entry *entries; /* every rank's, rank by rank, in trace order */
	int *rank_of;                /* the rank of each entry */
	size_t n;
	double *offset_ns; /* per rank: its clock minus rank 0's (rank 0: 0) */
	double *error_ns;  /* per rank: the bound on that offset's error (0: rank 0's own clock) */
	size_t dropped;    /* entries left out to keep the gather's counts within an int */
};

void trace_gathered_init(struct trace_gathered *g);
void trace_gathered_release(struct trace_gathered *g);

/*
 * Collective over comm. Each rank keeps, of the entries its ring still holds
 * from entry number since on (trace_written before the point), those of
 * (variant, bytes, phase), using scratch (ring->cap entries, allocated by
 * the caller once, so a point allocates nothing on ranks other than 0), and
 * rank 0 gets them all in out, on its own clock. Returns MPI_SUCCESS or an
 * MPI error code (MPI_ERR_NO_MEM on every rank when rank 0 cannot hold them).
 */
int trace_gather(const struct trace_ring *ring, uint64_t since, struct trace_entry *scratch,
                 MPI_Comm comm, int variant, uint64_t bytes, int phase, struct trace_gathered *out);

#endif
