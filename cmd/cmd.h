/*
 * The command layer: the only code that parses argv, prints and exits.
 *
 * Adding a command: write cmd/<name>.c with `int cmd_<name>(int argc,
 * char **argv, struct cmd_ctx *ctx)` and its usage text `cmd_<name>_usage`,
 * declare both here, and add one line to the table in cmd/main.c.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_H
#define COLLSCOPE_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "context.h"
#include "dtype.h"
#include "report_io.h"

struct bench_bufs;

struct topo_map;

/* Exit codes (DESIGN.md): every command returns one of these. */
enum cmd_exit {
	EXIT_OK = 0,
	EXIT_CHECK_FAILED = 1, /* regression, threshold, confirmed suspect */
	EXIT_USAGE = 2,        /* bad usage or bad input */
	EXIT_WRONG = 3,        /* wrong results: data corruption */
	EXIT_HANG = 4,         /* a hang or a dead rank */
	EXIT_RUNTIME = 5,      /* runtime, MPI or I/O error */
};

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
/* The unknown-option / missing-argument message of getopt, as an exit code. */
int cmd_usage_error(const struct cmd_ctx *ctx, const char *cmd, int argc, char **argv);

/* Name lists (cmd/select.c): 'all' or comma-separated names; -1 after naming a bad one. */
int cmd_select_variants(const struct cmd_ctx *ctx, const char *cmd, char *arg, bool *sel);
int cmd_select_dtypes(const struct cmd_ctx *ctx, const char *cmd, char *arg, bool *sel);
int cmd_select_ops(const struct cmd_ctx *ctx, const char *cmd, char *arg, bool *sel);
int cmd_select_dtype(const struct cmd_ctx *ctx, const char *cmd, const char *arg,
                     enum ar_dtype *out);
int cmd_select_op(const struct cmd_ctx *ctx, const char *cmd, const char *arg, enum ar_op *out);

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
 * Refuse, before allocating anything, a sweep whose buffers cannot fit in the
 * memory of the host (all ranks of the host together): an OOM kill halfway
 * through helps nobody. Collective; EXIT_USAGE after naming the byte counts.
 */
int cmd_check_memory(const struct cmd_ctx *ctx, const char *cmd, uint64_t max_bytes,
                     uint64_t segment_bytes, bool shared, uint64_t *need);

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

int cmd_list(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_verify(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_allreduce(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_links(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_topo(int argc, char **argv, struct cmd_ctx *ctx);
extern const char cmd_list_usage[];
extern const char cmd_verify_usage[];
extern const char cmd_allreduce_usage[];
extern const char cmd_links_usage[];
extern const char cmd_topo_usage[];
int cmd_scale(int argc, char **argv, struct cmd_ctx *ctx);
extern const char cmd_scale_usage[];
int cmd_compare(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_report(int argc, char **argv, struct cmd_ctx *ctx);
extern const char cmd_compare_usage[];
extern const char cmd_report_usage[];
int cmd_accept(int argc, char **argv, struct cmd_ctx *ctx); extern const char cmd_accept_usage[];

#endif
