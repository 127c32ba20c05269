/*
 * The command layer: the only code that parses argv, prints and exits.
 *
 * Adding a command: its options struct and option table `<name>_spec`
 * (struct cmd_spec, cmd/opts.h) in a pure file (cmd/<name>_opts.c, no MPI,
 * so the unit tests parse with it), its run `int cmd_<name>(void *opts,
 * struct cmd_ctx *ctx)` in cmd/<name>.c, the run declared here, and one line
 * in the table of cmd/main.c. main() parses argv with the table before
 * MPI_Init, prints --help from it, and calls the run with the options.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_H
#define COLLSCOPE_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "reports/io/context.h"
#include "algorithms/dtype.h"
#include "cmd/exit_codes.h"
#include "cmd/opts_common.h"
#include "reports/io/report_io.h"

struct bench_bufs;

struct topo_map;

struct cmd_ctx {
	bool mpi;       /* MPI is initialised and comm is usable */
	MPI_Comm comm;  /* a duplicate of MPI_COMM_WORLD, errors returned */
	int rank, nranks;
	int argc_all;   /* the whole command line, for reports */
	char **argv_all;
};

/* Print "collscope: error: ..." on stderr from rank 0 only; returns -1. */
int cmd_error(const struct cmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same for a problem seen on one rank only: "[rank N] ..." from that rank. */
int cmd_rank_error(const struct cmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Progress on stderr from rank 0, unless quiet. */
void cmd_progress(const struct cmd_ctx *ctx, bool quiet, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The text of an MPI error code. */
const char *cmd_mpi_error_text(int rc, char *buf, int len);
/* True on every rank when any rank passes true (all-reduce MAX): ranks agree before they decide. */
bool cmd_any(const struct cmd_ctx *ctx, bool mine);
/*
 * Reports (cmd/context.c). cmd_context_begin is collective: it records the
 * tool, argv, start time, placement (map may be NULL) and environment
 * allow-list; -1 after printing why. cmd_report_new creates a root with
 * schema_version, command and context, owned by the caller. cmd_report_write
 * writes it from rank 0 (atomically) and returns an exit code.
 */
int cmd_context_begin(const struct cmd_ctx *ctx, struct report_context *c, struct topo_map *map);
void cmd_context_end(struct report_context *c);
cJSON *cmd_report_new(const char *command, const struct report_context *c);
int cmd_report_write(const struct cmd_ctx *ctx, const char *path, const cJSON *root, bool force);
/*
 * Before anything is measured: rank 0 checks that out->output can be
 * written (a missing directory, an existing file without --force); all
 * agree. EXIT_OK, or EXIT_USAGE after naming the path.
 */
int cmd_check_output(const struct cmd_ctx *ctx, const char *cmd, const struct cmd_out *out);

/*
 * Refuse, before allocating anything, a sweep whose buffers cannot fit in the
 * memory of the host (all ranks of the host together): an OOM kill halfway
 * through helps nobody. Collective; EXIT_USAGE after naming the byte counts.
 */
int cmd_check_memory(const struct cmd_ctx *ctx, const char *cmd, uint64_t max_bytes,
                     uint64_t segment_bytes, bool shared, uint64_t *need);

/* Collective: more ranks on this rank's host than it has online CPUs. */
bool cmd_host_oversubscribed(const struct cmd_ctx *ctx);

/* Does any selected variant (selected[i] for ar_variants[i]) need shared buffers? */
bool cmd_needs_shared(const bool *selected);

/*
 * Collective: when a selected variant needs them, the shared-memory input and
 * result of b (bench_bufs_alloc_shared). EXIT_OK, or EXIT_RUNTIME after
 * naming the failure.
 */
int cmd_alloc_shared(const struct cmd_ctx *ctx, const char *cmd, const bool *selected,
                     struct bench_bufs *b);

/*
 * "wrong result: variant ..., N bytes ... on N ranks: ... rank R, first bad
 * index I: got ..., expected ..., differing bits ..." (rank 0 prints it).
 */
struct ar_record;
struct bench_result;
void cmd_describe_wrong(const struct cmd_ctx *ctx, const struct ar_record *r,
                        const struct bench_result *br);
/*
 * Rank 0: fill a record from a measured point (its samples stay in b, borrowed
 * until the next point) and derive its statistics; -1 when out of memory.
 */
struct bench_bufs;
int cmd_record_measured(struct ar_record *r, const struct bench_result *br,
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

/* The runs of the commands (cmd/main.c's table); opts is the command's options struct. */
int cmd_list(void *opts, struct cmd_ctx *ctx);
int cmd_schema(void *opts, struct cmd_ctx *ctx);
int cmd_verify(void *opts, struct cmd_ctx *ctx);
int cmd_allreduce(void *opts, struct cmd_ctx *ctx);
int cmd_links(void *opts, struct cmd_ctx *ctx);
int cmd_topo(void *opts, struct cmd_ctx *ctx);
int cmd_scale(void *opts, struct cmd_ctx *ctx);
int cmd_compare(void *opts, struct cmd_ctx *ctx);
int cmd_report(void *opts, struct cmd_ctx *ctx);
int cmd_trend(void *opts, struct cmd_ctx *ctx);
int cmd_accept(void *opts, struct cmd_ctx *ctx);

#endif
