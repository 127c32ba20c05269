/* `collscope allreduce`: options (allreduce_opts.c) and the sweep (allreduce.c). */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_ALLREDUCE_H
#define COLLSCOPE_CMD_ALLREDUCE_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "cmd.h"
#include "variant.h"

enum {
	AR_MAX_SIZES = 256,
	AR_MAX_ITERS = 100000,
	AR_ADAPTIVE_MIN_ITERS = 10,
	AR_ADAPTIVE_MAX_ITERS = 1000, /* enough for p99.9; keeps raw samples in the report small */
};

struct ar_opts {
	bool variants[32];
	uint64_t min_bytes, max_bytes;
	double step_factor;
	int iters; /* 0: adaptive */
	int warmup;
	double time_per_size_s;
	enum ar_dtype dtype;
	enum ar_op op;
	bool in_place, check, force, csv, quiet;
	uint64_t segment_bytes;
	double min_busbw_gbps; /* NAN: no gate */
	double timeout_s;      /* watchdog; 0 disables */
	const char *output;
	uint64_t sizes[AR_MAX_SIZES];
	int nsizes;
	bool explicit_sizes; /* --sizes given: -b/-e/-f are ignored */
	bool trace;             /* --trace: per-step trace, slow-hop attribution */
	uint64_t trace_entries; /* --trace-entries: entries of each rank's trace ring */
};

/* EXIT_OK, or an exit code after printing why. */
int ar_opts_parse(int argc, char **argv, const struct cmd_ctx *ctx, struct ar_opts *o);
/* Add "config" with every option in force; NULL on allocation failure. */
cJSON *ar_opts_to_json(cJSON *root, const struct ar_opts *o);

#endif
