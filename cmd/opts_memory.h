/*
 * What options cost in memory, checked before anything is allocated. Pure:
 * no MPI, no printing.
 *
 * Message buffers are weighed against the host's memory when a sweep starts
 * (run_check_memory); what grows with the other options (a schedule's steps
 * with --segment-bytes, the trace with --trace-entries and the rank count,
 * the samples with -n) is bookkeeping, and a rank's bookkeeping must fit
 * OPTS_MEMORY_BUDGET_BYTES. An option over it is refused with EXIT_USAGE,
 * naming the option, its limit and what it would take.
 */
#ifndef COLLSCOPE_OPTS_MEMORY_H
#define COLLSCOPE_OPTS_MEMORY_H

#include "cmd/opts_common.h"

#include <stddef.h>
#include <stdint.h>

/* A rank's bookkeeping beyond its message buffers: 256 MiB. */
#define OPTS_MEMORY_BUDGET_BYTES (256.0 * 1024 * 1024)

/* Bytes of the largest schedule any variant builds for max_bytes cut in segment_bytes. */
double opts_memory_schedule_bytes(uint64_t max_bytes, uint64_t segment_bytes, int nranks);
/* Bytes rank 0 holds for a trace of entries per rank, gathered from nranks. */
double opts_memory_trace_bytes(uint64_t entries, int nranks);
/* Bytes rank 0 holds for iters samples of every rank. */
double opts_memory_samples_bytes(int iters, int nranks);

/*
 * --segment-bytes against the largest message, --trace-entries (with
 * --trace) and -n against the rank count. EXIT_OK, or EXIT_USAGE with the
 * reason in err (prefixed with cmd).
 */
int opts_memory_check_sweep(const char *cmd, const struct sweep_opts *o, int nranks, char *err,
                            size_t len);
/* The same for verify's largest count and --segment-bytes. */
int opts_memory_check_segments(const char *cmd, uint64_t max_bytes, uint64_t segment_bytes,
                               int nranks, char *err, size_t len);

#endif
