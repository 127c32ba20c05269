/*
 * --trace of `allreduce` and `scale` (issue 14): the trace ring of this
 * rank, the gather after each measured point (outside the timed region),
 * the slow-hop attribution (reports/diagnose/hops.h) into the point's record, and
 * the findings in the summary and on stdout.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_ALLREDUCE_TRACE_H
#define COLLSCOPE_CMD_ALLREDUCE_TRACE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd/cmd.h"
#include "reports/io/context.h"
#include "reports/diagnose/hops.h"
#include "algorithms/trace_gather.h"

struct topo_map;

struct run_trace {
	bool on;
	struct trace_ring ring;
	struct trace_entry *scratch; /* ring.cap entries: the gather's */
	struct trace_gathered got;   /* rank 0: the last point's */
	uint64_t collected;          /* entries written before the last gather */
	/* rank 0: names of the world's ranks, and the findings so far */
	const char **host_of_rank; /* borrowed names */
	int *host_index;           /* index of the host of each world rank, -1 unknown */
	int nworld;
	struct hops_finding *findings;
	size_t nfindings, cap;
	char (*halves)[160]; /* rank 0: a line per point with two halves */
	size_t nhalves, cap_halves;
	int points;
	struct run_trace_pending *pending; /* rank 0: the last point, while its suspects are re-measured */
	int nhosts;                        /* rank 0: of the world (host_index below it) */
	/* this rank: its host's NIC counters when the point began (probes/nic_bytes.h) */
	uint64_t nic_begin;
	bool nic_known;
	double nic_begin_s;
	/* this rank: how long it had waited for a core when the point began (probes/cpu_wait.h) */
	uint64_t wait_begin_ns;
	bool wait_known;
	/* rank 0: per rank of the last point's communicator, its host's NIC bytes during the
	   point (NAN: unknown), the share of the point it waited for a core (NAN: unknown), and
	   the longest rank's wall time of it */
	double *nic_bytes;
	double *cpu_wait_share;
	double *nic_gathered; /* the gather's: (bytes, wall seconds, share waited) per rank */
	int nic_cap;
	double nic_wall_s;
};

/*
 * Collective: with on, every rank allocates a ring of entries (published
 * for the watchdog's flight recorder) and its scratch; rc and map name the
 * hosts (rank 0). EXIT_OK, or EXIT_RUNTIME after naming the failure.
 */
int run_trace_start(struct run_trace *t, const struct cmd_ctx *ctx, const char *cmd, bool on,
                    uint64_t entries, const struct report_context *rc, const struct topo_map *map);
/* Withdraws the ring from the watchdog (call after watchdog_stop) and frees everything. */
void run_trace_stop(struct run_trace *t);

/*
 * Reads this rank's host's NIC counters as a traced point begins (nothing when not
 * tracing); run_trace_collect reads them again as it ends, so that run_trace_record can tell
 * another job's traffic from a slow hop (hops_clear_traffic).
 */
void run_trace_nic_begin(struct run_trace *t);
/* The ring for ar_call.trace: NULL when not tracing. */
struct trace_ring *run_trace_ring(struct run_trace *t);

/*
 * Collective over comm (the point's communicator, whose rank 0 is the
 * world's): gathers the timed iterations of (variant, bytes), and each rank's
 * NIC bytes since run_trace_nic_begin (read first, before the gather moves
 * anything). Returns an MPI error code.
 */
int run_trace_collect(struct run_trace *t, MPI_Comm comm, int variant, uint64_t bytes);
/*
 * Rank 0, after run_trace_collect: the attribution into rec ("trace") and
 * its findings kept for the summary. world_of maps the communicator's ranks
 * to the world's (NULL: the same). -1 when out of memory.
 */
int run_trace_record(struct run_trace *t, cJSON *rec, int variant, uint64_t bytes, int nranks,
                     const int *world_of);
/*
 * Suspect hops (hops.h, "Suspects"): a point whose analysis left suspects
 * is held by run_trace_record; the caller measures it again and, after
 * each run_trace_collect, calls run_trace_retest, while
 * run_trace_retest_wanted says so (rank 0; false on the others). Then
 * run_trace_settle names those every re-measurement found, writes the
 * point's hops again and keeps its findings. -1 when out of memory.
 */
bool run_trace_retest_wanted(const struct run_trace *t);
int run_trace_retest(struct run_trace *t);
int run_trace_settle(struct run_trace *t);
/* How many re-measurements the held point may take. */
int run_trace_retests(const struct run_trace *t);
/* "hop 3->4 (h2 -> h3) at 1.30x its peers" of the first suspect of the held point, for a progress line. */
void run_trace_suspect_name(const struct run_trace *t, char *buf, size_t len);
/*
 * The schedule steps of a gather, in microseconds from the earliest (owned;
 * NULL when out of memory), and the gather's largest clock error, in us.
 */
struct hops_step *run_trace_steps(const struct trace_gathered *g, size_t *n);
double run_trace_error_us(const struct trace_gathered *g);
/*
 * Rank 0: summary.slow_hops, summary.slow_ranks, and unless quiet_text a
 * line each on stdout ("# slow hops: none" when there are none). -1 when
 * out of memory; 0 also when not tracing (nothing added).
 */
int run_trace_summarize(const struct run_trace *t, cJSON *summary, bool quiet_text);

#endif
