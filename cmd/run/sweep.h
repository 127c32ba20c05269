/*
 * The size x variant sweep that allreduce and scale share: buffers and their
 * memory check, one plan per variant, the measurement of a point on a
 * communicator (the whole job, or one of scale's), its record in the report,
 * the report's life (written after every point, completed at the end, left
 * with "complete": false on a hang) and the watchdog.
 *
 * What differs stays in the command: the order of the points, what rank 0
 * keeps of each (on_point), the summary (sweep_finish's callback).
 *
 * Every function is collective over ctx->comm unless it says rank 0.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_SWEEP_H
#define COLLSCOPE_CMD_SWEEP_H

#include "cmd/run/sweep_trace.h"
#include "reports/io/ar_report.h"
#include "algorithms/bench.h"
#include "algorithms/clock_sync.h"
#include "cmd/cmd.h"
#include "cmd/opts_common.h"
#include "cmd/run/partial.h"
#include "probes/topology.h"

/* One communicator of a sweep, as this rank sees it. */
struct sweep_comm {
	MPI_Comm comm; /* MPI_COMM_NULL: this rank is not a member (it idles) */
	int rank, nranks, hosts;
	bool whole;          /* the whole job (allreduce), not a sub-communicator (scale) */
	const int *world_of; /* communicator rank -> world rank; NULL: the same */
};

/*
 * The communicator's rank 0 (world rank 0 for allreduce and scale), under
 * the report's lock, after each point: r is the point (its
 * statistics derived), br its measurement or NULL when skipped, rec its
 * record in the report (NULL when the sweep has none: sweep_begin was not
 * called, as in accept). Returns 0, or -1 when out of memory.
 */
typedef int (*sweep_point_fn)(void *arg, int variant, const struct ar_record *r,
                              const struct bench_result *br, cJSON *rec);

struct sweep {
	struct cmd_ctx *ctx;
	const char *command; /* "allreduce", "scale": every message starts with it */
	const struct sweep_opts *o;
	bool in_place, quiet;
	sweep_point_fn on_point;
	void *on_point_arg;
	/* NULL, or the records' algorithm instead of the variant's name (tune: "mpi/ring") */
	const char *label;
	/*
	 * NULL, or the noise control that sweep_on_first_ranks_of measures on the
	 * whole job before every point (tune; allreduce runs its own)
	 */
	struct sweep_yardstick *yard;
	struct bench_bufs bufs;
	struct bench_cfg cfg;
	struct exec_plan plans[AR_MAX_VARIANTS];
	bool planned[AR_MAX_VARIANTS];
	struct report_context context;
	bool have_context;
	struct topo_map map;
	cJSON *root, *results;      /* rank 0 */
	struct run_partial report;  /* rank 0's root, written as it grows and on a hang */
	int done, total;            /* points, for the progress lines */
	uint64_t my_peak_pss_bytes; /* this rank's, sampled after every point; 0 when unknown */
	struct run_trace trace;     /* --trace: started by sweep_begin */
	/* every rank's clock against world rank 0's: synced by sweep_setup, redone by sweep_point
	 */
	struct clock_model clock;
	bool clock_synced;
	double clock_at_s;                 /* rank 0: when it was last synced (MPI_Wtime) */
	struct ctx_clock_sync clock_stats; /* rank 0: copied into the context */
};

/* Not collective: the sweep of o (borrowed, must outlive s). */
void sweep_init(struct sweep *s, struct cmd_ctx *ctx, const char *command,
                const struct sweep_opts *o, bool in_place, bool quiet);
/*
 * The memory check, buffers (shared ones too when a variant needs them), the
 * first clock sync over the whole job; total points.
 */
int sweep_setup(struct sweep *s, int total_points);
/*
 * The report context (placement in s->map), the report's skeleton with the
 * command's config (rank 0), its first write to out->output, the trace ring
 * (with --trace; the watchdog's flight recorder reads it) and the watchdog.
 * Returns an exit code, agreed.
 */
int sweep_begin(struct sweep *s, const struct cmd_spec *spec, const void *opts,
                const struct cmd_out *out, double timeout_s);
/*
 * One (variant v, size) point: c's members measure it (or everyone skips
 * it), c's rank 0 records it (on_point; and rewrites the report, on world
 * rank 0), then every rank of the job agrees on the worst status, which is
 * returned.
 */
int sweep_point(struct sweep *s, int v, uint64_t size_bytes, const struct sweep_comm *c);
/*
 * The parts of sweep_point, for a command that measures several
 * communicators at once (congestion). sweep_resync_if_old: every rank of
 * the job, before a point (rank 0 decides whether the clocks' last sync is
 * too old). sweep_record_init: not collective; r for point (v, size) on c,
 * skipped with the reason when v cannot run it; ticks this rank's progress.
 * sweep_measure: c's members, r from sweep_record_init and not skipped; an
 * exit code agreed among them, the samples on c's rank 0 (s->bufs).
 * sweep_agree: every rank of the job meets (napping while it waits) and
 * leaves with the worst status.
 */
int sweep_resync_if_old(struct sweep *s);
/* Not collective: the whole job as a sweep's communicator (its hosts from s->map). */
struct sweep_comm sweep_comm_whole(const struct sweep *s);
/* Not collective: s->plans[v] built for count elements on c (0, or -1 out of memory). */
int sweep_plan(struct sweep *s, int v, const struct sweep_comm *c, size_t count);
void sweep_record_init(const struct sweep *s, int v, uint64_t size_bytes,
                       const struct sweep_comm *c, struct ar_record *r);
int sweep_measure(struct sweep *s, int v, const struct sweep_comm *c, struct ar_record *r,
                  struct bench_result *br);
int sweep_agree(const struct sweep *s, int status);
/* Rank 0: summary.slow_hops and slow_ranks, and their lines unless quiet_text (--trace). */
int sweep_trace_summary(const struct sweep *s, cJSON *summary, bool quiet_text);
/* Not collective: the watchdog stops (a finished sweep is no hang). */
void sweep_end(struct sweep *s);
/*
 * Rank 0: summarize(arg, root) adds the summary and returns the verdict
 * (EXIT_OK, EXIT_CHECK_FAILED or EXIT_WRONG), or another exit code after
 * saying why; for a verdict, the finish time, "complete": true and the last
 * write follow. Returns the verdict, or the write's failure.
 */
int sweep_finish(struct sweep *s, int (*summarize)(void *arg, cJSON *root), void *arg);
void sweep_release(struct sweep *s);

#endif
