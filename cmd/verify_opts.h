/* `collscope verify`: its options (verify_opts.c, pure) and the run (verify.c). */
#ifndef COLLSCOPE_CMD_VERIFY_OPTS_H
#define COLLSCOPE_CMD_VERIFY_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/dtype.h"
#include "cmd/opts.h"
#include "cmd/opts_common.h"
#include "algorithms/variant.h"

enum { VERIFY_MAX_COUNTS = 64, VERIFY_BIG_COUNT = 1048583 };

struct verify_opts {
	bool variants[AR_MAX_VARIANTS];
	bool dtypes[AR_DTYPE_COUNT];
	bool ops[AR_OP_COUNT];
	size_t counts[VERIFY_MAX_COUNTS]; /* --counts, or the default matrix for the job's size */
	int ncounts;
	bool explicit_counts;
	uint64_t segment_bytes;
	uint64_t mpi_max_count; /* 0: the library's limit */
	double timeout_s;
};

extern const struct cmd_spec verify_spec;

#endif
