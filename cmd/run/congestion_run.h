/*
 * The run of `collscope congestion` (issue 31), shared by its two files:
 * congestion_run.c (the groups, the points alone and together, the load
 * that holds while a group measures) and congestion_where.c (a victim's host
 * x host matrix under that load and alone, judged by the classifier).
 * Collective over the whole job unless a function says otherwise.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_RUN_CONGESTION_RUN_H
#define COLLSCOPE_CMD_RUN_CONGESTION_RUN_H

#include "cmd/congestion_opts.h"
#include "cmd/run/run.h"
#include "probes/congestor.h"
#include "reports/io/congestion_report.h"

struct congestion_run {
	const struct congestion_opts *o;
	struct sweep sweep;
	int k, victims;     /* groups; groups 0 .. victims - 1 are victims */
	int *group_of_rank; /* every rank: its group */
	int *root_of_group; /* every rank: the group's rank 0, as a world rank */
	int my_group;
	struct sweep_comm group;    /* this rank's group */
	struct congestor congestor; /* aggressors */
	bool aggressor;
	/* what this rank's group runs to load the others: the last point it measured */
	int busy_variant;
	uint64_t busy_count;
	bool busy_ready;
	struct congestion_summary sum; /* rank 0 */
	const char **names;            /* rank 0: the hosts' names (borrowed from the context) */
	congestion_print_fn print;     /* rank 0, at the end */
};

/*
 * This rank's share of the load until every rank has entered `done` (an
 * MPI_Ibarrier of the job, posted by the caller): aggressors run congestor
 * rounds, a victim group its last all-reduce, and with `idle` (a group that
 * is measured, or when nothing may load) the rank waits, napping. Each
 * group leaves together (an all-reduce of "done seen" per round), so none is
 * left waiting. MPI_SUCCESS or the MPI error.
 */
int congestion_hold_load(struct congestion_run *run, MPI_Request *done, bool idle);

/* This rank's group's last point, as a call on the sweep's buffers (busy_ready). */
struct ar_call congestion_busy_call(const struct congestion_run *run);

/*
 * Group g's last point traced under the load and judged hop by hop; on rank
 * 0, w's trace (or trace_skipped). names: every host's, on every rank. An
 * exit code, agreed.
 */
int congestion_trace(struct congestion_run *run, int g, const char *const *names,
                     struct congestion_where *w);

/* summary.where: the victims that congestion_where_needed names. An exit code. */
int congestion_where(struct congestion_run *run);

#endif
