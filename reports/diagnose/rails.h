/*
 * A slow rail: one NIC of a host wired with a NIC per rank (issue 28). Pure:
 * no MPI, no I/O.
 *
 * On a rail-optimised cluster the k-th rank of every host reaches the
 * others' k-th ranks through its own NIC and its own switch (links
 * --rails measures those pairs). One slow NIC is then one rank's links
 * across hosts, not its host's: among 2 rails the host's median cell reads
 * 0.75x and the classifier names the whole host; among 8 the median does not
 * move and only the rank's links are named, one by one. Neither says which
 * NIC to replace.
 *
 * The method: each rail's host x host matrix (the pairs between the k-th
 * ranks of two hosts) is classified as classify_hosts does. A host that some
 * of its rails name, whose every other judged rail runs the same way within
 * the tolerance of that rail's reference, or a third of the named rails' way
 * down at most (in logs), has slow rails (so not a whole host 10-30% slow that
 * noise named on one rail only): each rail that
 * names it becomes a host suspect with rail and rail_rank set, and the suspects that
 * rail explains are dropped: the host's own cross-host bandwidth verdicts and
 * the rail rank's links to other hosts. A host that every judged rail names
 * keeps its verdict: the host, not a NIC, is slow.
 */
#ifndef COLLSCOPE_RAILS_H
#define COLLSCOPE_RAILS_H

#include "reports/diagnose/detect.h"

/* The fewest judged rails of a host for a rail verdict: one to name, one to clear. */
#define RAILS_MIN_JUDGED 2

/* Writes rail k's host matrix (nhosts x nhosts, NAN unknown) into out: 0, or -1. */
typedef int (*rails_cells_fn)(void *arg, int rail, double *out);

/*
 * cells(arg, k, out): rail k's host matrix, asked for once per rail (one
 * matrix is held at a time: 8 rails of 4,096 hosts are 1 GiB of cells);
 * rank_at[h * nrails + k]: the rank at position k of host h, -1 none.
 * Appends the rail verdicts to r (kind host, rail and rail_rank set; metric
 * bandwidth, class cross_host, not loaded) and drops from all of r the
 * suspects they explain (see above). Returns the number of rail verdicts,
 * or -1 for bad arguments, a failed cells() or no memory (r then as it was,
 * or with some suspects dropped and no rail verdict added).
 */
int rails_classify(rails_cells_fn cells, void *arg, int nrails, int nhosts, const int *rank_at,
                   const struct detect_params *p, struct detect_result *r);

#endif
