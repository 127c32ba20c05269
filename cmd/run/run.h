/*
 * The run layer: what a command measures, and how. The one header that the
 * commands (cmd/<name>.c) include to run anything: the MPI session, the
 * agreement of the ranks, the report's context and its atomic writes, the
 * sweep of all-reduce points (sweep.h), the links run, the verify run,
 * accept's measurement, and the watchdog. Its files may call MPI and print
 * (they are part of the command layer); what is pure lives in algorithms/,
 * probes/ and reports/, which they compose.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_RUN_RUN_H
#define COLLSCOPE_CMD_RUN_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "cmd/opts_common.h"
#include "cmd/run/partial.h"
#include "cmd/run/sweep.h"
#include "cmd/run/sweep_yardstick.h"
#include "cmd/run/tune_run.h"
#include "cmd/run/watchdog.h"
#include "reports/diagnose/detect.h"
#include "reports/io/context.h"
#include "reports/io/links_report.h"
#include "reports/io/report_io.h"

struct bench_bufs;
struct topo_map;
struct accept_opts;
struct links_opts;

/*
 * The MPI session of a command that needs one (cmd/run/session.c):
 * run_mpi_start initialises MPI (with threads: asking for
 * MPI_THREAD_SERIALIZED, ctx->thread_level what was provided), duplicates
 * MPI_COMM_WORLD into ctx->comm with errors returned, and fills the rank
 * and size; -1 after printing why.
 * run_mpi_finish returns the worst status of all ranks, the same on each,
 * after freeing the communicator and finalising.
 */
int run_mpi_start(struct cmd_ctx *ctx, int *argc, char ***argv, bool threads);
int run_mpi_finish(struct cmd_ctx *ctx, int status);

/* The text of an MPI error code. */
const char *run_mpi_error_text(int rc, char *buf, int len);
/* True on every rank when any rank passes true (all-reduce MAX): ranks agree before they decide. */
bool run_any(const struct cmd_ctx *ctx, bool mine);
/*
 * Reports (cmd/run/context_capture.c). run_context_begin is collective: it records the
 * tool, argv, start time, placement (map may be NULL) and environment
 * allow-list; -1 after printing why. run_report_new creates a root with
 * schema_version, command and context, owned by the caller. run_report_write
 * writes it from rank 0 (atomically) and returns an exit code.
 */
int run_context_begin(const struct cmd_ctx *ctx, struct report_context *c, struct topo_map *map);
void run_context_end(struct report_context *c);
cJSON *run_report_new(const char *command, const struct report_context *c);
int run_report_write(const struct cmd_ctx *ctx, const char *path, const cJSON *root, bool force);
/* run_report_write, or for path "-" the JSON alone on stdout (compare, trend); an exit code. */
int run_report_write_or_print(const struct cmd_ctx *ctx, const char *cmd, const char *path,
                              const cJSON *root, bool force);
/*
 * Before anything is measured: rank 0 checks that out->output can be
 * written (a missing directory, an existing file without --force); all
 * agree. EXIT_OK, or EXIT_USAGE after naming the path.
 */
int run_check_output(const struct cmd_ctx *ctx, const char *cmd, const struct cmd_out *out);

/*
 * Refuse, before allocating anything, a sweep whose buffers cannot fit in the
 * memory of the host (all ranks of the host together): an OOM kill halfway
 * through helps nobody. Collective; EXIT_USAGE after naming the byte counts.
 */
int run_check_memory(const struct cmd_ctx *ctx, const char *cmd, uint64_t max_bytes,
                     uint64_t segment_bytes, bool shared, uint64_t *need);

/* Collective: more ranks on this rank's host than it has online CPUs. */
bool run_host_oversubscribed(const struct cmd_ctx *ctx);

/* Does any selected variant (selected[i] for ar_variants[i]) need shared buffers? */
bool run_needs_shared(const bool *selected);

/*
 * Collective: when a selected variant needs them, the shared-memory input and
 * result of b (bench_bufs_alloc_shared). EXIT_OK, or EXIT_RUNTIME after
 * naming the failure.
 */
int run_alloc_shared(const struct cmd_ctx *ctx, const char *cmd, const bool *selected,
                     struct bench_bufs *b);

/*
 * "wrong result: variant ..., N bytes ... on N ranks: ... rank R, first bad
 * index I: got ..., expected ..., differing bits ..." (rank 0 prints it).
 */
struct ar_record;
struct bench_result;
void run_describe_wrong(const struct cmd_ctx *ctx, const struct ar_record *r,
                        const struct bench_result *br);
/*
 * Rank 0: fill a record from a measured point (its samples stay in b, borrowed
 * until the next point) and derive its statistics; -1 when out of memory.
 */
struct bench_bufs;
int run_record_measured(struct ar_record *r, const struct bench_result *br,
                        const struct bench_bufs *b, bool checked);

/*
 * verify inside another command (accept): o's matrix on ctx, no watchdog of
 * its own; tally[i] for ar_variants[i] (AR_MAX_VARIANTS of them), the same on
 * every rank; print: the lines `collscope verify` prints. Collective;
 * returns an exit code (wrong elements are in the tallies, not the code).
 */
struct verify_opts;
struct verify_tally {
	uint64_t checks, wrong, skipped;
};
int verify_run(const struct cmd_ctx *ctx, const struct verify_opts *o, bool print,
               struct verify_tally *tally);
/* collscope verify's run: verify_run with its lines printed, under a watchdog of its own. */
int verify_watched(const struct cmd_ctx *ctx, const struct verify_opts *o,
                   struct verify_tally *tally);


/*
 * links (cmd/run/links_run.c). links_run is the whole command: the report's
 * skeleton, the watchdog, every round measured, the judgement twice, then on
 * rank 0 print(view, options, judgement) and the report; an exit code.
 * links_measure is the same measurement inside another command (accept):
 * its watchdog none (the caller's), nothing printed, no report written; rank 0
 * hands hand() the judged run (the view, the confirmed suspects and what the
 * run covered, valid during the call; hand returns 0, or -1 when out of memory). Both are
 * collective and return an exit code.
 */
typedef void (*links_print_fn)(const struct links_view *v, const struct links_opts *o,
                               const struct links_judgement *j);
int links_run(const struct cmd_ctx *ctx, const struct links_opts *o, links_print_fn print);
struct links_coverage;
typedef int (*links_outcome_fn)(void *arg, const struct links_view *v,
                                const struct detect_result *final,
                                const struct links_coverage *coverage);
int links_measure(const struct cmd_ctx *ctx, const struct links_opts *o, links_outcome_fn hand,
                  void *arg);

/*
 * links --plan-only: the plan printed, nothing measured. Without MPI for
 * o->planning.hosts x o->planning.ranks_per_host; with MPI (collective) for the
 * job's hosts. An exit code.
 */
int links_plan_only(const struct cmd_ctx *ctx, const struct links_opts *o);

/*
 * collscope congestion (cmd/run/congestion_run.c): the groups, every point
 * alone and together, where a degraded victim slows; rank 0 then calls
 * print with what was found and writes the report. Collective; an exit code.
 */
struct congestion_opts;
struct congestion_summary;
typedef void (*congestion_print_fn)(const struct congestion_opts *o,
                                    const struct congestion_summary *s,
                                    const struct report_context *c);
int congestion_measure(struct cmd_ctx *ctx, const struct congestion_opts *o,
                       congestion_print_fn print);

/*
 * collscope overlap (cmd/run/overlap_run.c): every point, both overlaps;
 * rank 0 then calls print with the rows and writes the report. Collective;
 * an exit code.
 */
struct overlap_opts;
struct overlap_row;
struct overlap_step_row;
typedef void (*overlap_print_fn)(const struct overlap_opts *o, const struct overlap_row *rows,
                                 int n, const struct overlap_step_row *steps, int nsteps);
int overlap_measure(struct cmd_ctx *ctx, const struct overlap_opts *o, overlap_print_fn print);

/*
 * collscope watch (cmd/run/watch_run.c): rounds until --duration or a
 * signal, each change handed to print on rank 0 as it is found (with the
 * state: its series and host names), the files written as it goes.
 * Collective; an exit code.
 */
struct watch_opts;
struct watch_state;
struct watch_event;
typedef void (*watch_event_fn)(const struct watch_state *s, const struct watch_event *e,
                               double start_s);
int watch_measure(struct cmd_ctx *ctx, const struct watch_opts *o, watch_event_fn print);

/* accept SPEC, measured (cmd/run/accept_run.c): the checks, the verdict, the culprit search. */
int accept_measure(struct cmd_ctx *ctx, const struct accept_opts *o);
/*
 * The options of accept's links check: links' defaults and its detector's,
 * accept's measurement options, no watchdog of its own; under --budget half
 * of left_s, shared by the repeats still to run (at least a sliver). For the
 * run and for --plan-only's estimate alike. An exit code, err naming a problem.
 */
struct links_opts;
int accept_links_opts(const struct accept_opts *o, double left_s, int repeats_left,
                      struct links_opts *lo, char *err, size_t len);
/*
 * accept SPEC --plan-only (cmd/run/accept_plan.c): the plan on stdout, for
 * the job (collective; rank 0 prints) or, without MPI, for --hosts x
 * --ranks-per-host. Nothing measured, no report.
 */
int accept_plan_only(struct cmd_ctx *ctx, const struct accept_opts *o);
/*
 * accept's spec at path into *spec (initialised here), on every rank
 * (cmd/run/accept_spec_load.c): rank 0 reads it and sends the text, each
 * rank parses it against the registry's variant, dtype and op names.
 * EXIT_OK, EXIT_USAGE (a bad spec, every problem named on rank 0) or
 * EXIT_RUNTIME; agreed.
 */
struct accept_spec;
int accept_load_spec(struct cmd_ctx *ctx, const char *path, struct accept_spec *spec);
/*
 * The same on one process, without MPI (--check-spec, --plan-only --hosts):
 * every problem named on stderr. An exit code: 2 a bad or unreadable spec,
 * 5 an I/O error.
 */
int accept_read_spec(const struct cmd_ctx *ctx, const char *path, struct accept_spec *spec);
/*
 * The names a spec may use, the registry's, into *n, pointing into the
 * caller's arrays (AR_MAX_VARIANTS, AR_DTYPE_COUNT and AR_OP_COUNT long):
 * the variants with in_all, so that "all" leaves the guideline mock-ups out,
 * the dtypes and the ops. Needs no MPI.
 */
struct accept_names;
void accept_registry_names(struct accept_names *n, const char **variants, bool *in_all,
                           const char **dtypes, const char **ops);

/*
 * Every point of s on the communicator of the first n world ranks of order
 * (scale's sub-communicators): ranks outside it idle. hosts: how many hosts
 * those ranks span. Collective over the whole job; an exit code.
 */
int sweep_on_first_ranks(struct sweep *s, const int *order, int n, int hosts);
/* The same for the variants selected in variants[] (a subset of the sweep's). */
int sweep_on_first_ranks_of(struct sweep *s, const int *order, int n, int hosts,
                            const bool *variants);

/*
 * scale --overlap measured (cmd/run/scale_step.c): the training step of
 * every selected variant that runs non-blocking, on the first n ranks of
 * order; out[v] on world rank 0 (NAN figures: not measured). Collective
 * over the whole job; an exit code.
 */
struct overlap_step;
struct scale_step_req {
	uint64_t grad_bytes, bucket_bytes;
	double compute_ms, interval_us;
	int iters;
	bool quiet;
};
int scale_measure_steps(struct sweep *s, const struct scale_step_req *q, const int *order, int n,
                        struct overlap_step *out);

/* The largest peak RSS and PSS of any rank, and which (rank 0; pss NAN when unknown). */
struct run_peak_memory {
	double rss_bytes, pss_bytes;
	int rss_rank, pss_rank;
};
void sweep_peak_memory(const struct sweep *s, struct run_peak_memory *out);

#endif
