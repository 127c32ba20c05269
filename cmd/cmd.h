/*
 * The command layer: the only code that parses argv, prints and exits.
 *
 * Adding a command: its options struct and option table `<name>_spec`
 * (struct cmd_spec, cmd/opts.h) in a pure file (cmd/<name>_opts.c, no MPI,
 * so the unit tests parse with it), its run `int cmd_<name>(void *opts,
 * struct cmd_ctx *ctx)` in cmd/<name>.c, the run declared here, and one line
 * in the table of cmd/main.c. main() parses argv with the table before
 * MPI_Init, prints --help from it, and calls the run with the options.
 *
 * A command is parse -> run -> print: what it measures, it measures through
 * the run layer's one header, cmd/run/run.h (MPI, the watchdog, reports on
 * disk); cmd/<name>.c itself makes no MPI call.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_H
#define COLLSCOPE_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "cmd/exit_codes.h"

struct cmd_ctx {
	bool mpi;      /* MPI is initialised and comm is usable */
	MPI_Comm comm; /* a duplicate of MPI_COMM_WORLD, errors returned */
	int rank, nranks;
	/* the MPI thread level provided: MPI_THREAD_SERIALIZED for a command that asks
	   (a progress thread calls MPI while the main thread computes), else single */
	int thread_level;
	int argc_all; /* the whole command line, for reports */
	char **argv_all;
};

/* Print "collscope: error: ..." on stderr from rank 0 only; returns -1. */
int cmd_error(const struct cmd_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same for a problem seen on one rank only: "[rank N] ..." from that rank. */
int cmd_rank_error(const struct cmd_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * One line on stdout (the newline added) that holds text from outside: a
 * host name, a spec's or a report's string, a file name. What a terminal
 * acts on is printed escaped (report_escape_text); the caller decides who
 * prints. Lines longer than 4 KiB are cut.
 */
void cmd_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * A sweep's second header lines: what its sizes mean when it measures a
 * half (collective, enum ar_collective), then the library (escaped), the
 * timing and the bus factor of the collective.
 */
void cmd_print_collective_header(int collective, const char *mpi_library);
/* Progress on stderr from rank 0, unless quiet. */
void cmd_progress(const struct cmd_ctx *ctx, bool quiet, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The runs of the commands (cmd/main.c's table); opts is the command's options struct. */
int cmd_list(void *opts, struct cmd_ctx *ctx);
int cmd_schema(void *opts, struct cmd_ctx *ctx);
int cmd_verify(void *opts, struct cmd_ctx *ctx);
int cmd_allreduce(void *opts, struct cmd_ctx *ctx);
int cmd_links(void *opts, struct cmd_ctx *ctx);
int cmd_topo(void *opts, struct cmd_ctx *ctx);
int cmd_scale(void *opts, struct cmd_ctx *ctx);
int cmd_tune(void *opts, struct cmd_ctx *ctx);
int cmd_compare(void *opts, struct cmd_ctx *ctx);
int cmd_report(void *opts, struct cmd_ctx *ctx);
int cmd_trend(void *opts, struct cmd_ctx *ctx);
int cmd_accept(void *opts, struct cmd_ctx *ctx);
int cmd_congestion(void *opts, struct cmd_ctx *ctx);
int cmd_overlap(void *opts, struct cmd_ctx *ctx);
int cmd_watch(void *opts, struct cmd_ctx *ctx);

#endif
