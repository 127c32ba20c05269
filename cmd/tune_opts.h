/*
 * `collscope tune`: its options (tune_opts.c, pure), the run (cmd/tune.c;
 * the library's algorithms in algorithms/lib_algs.h).
 */
#ifndef COLLSCOPE_CMD_TUNE_OPTS_H
#define COLLSCOPE_CMD_TUNE_OPTS_H

#include "cmd/opts.h"
#include "cmd/opts_common.h"

enum { TUNE_MAX_RANK_COUNTS = 64, TUNE_MAX_NAMES = 16, TUNE_NAME_BYTES = 48 };
enum { TUNE_HEAP_STEADY, TUNE_HEAP_AS_IS }; /* --heap's values, in their order */

struct tune_opts {
	struct sweep_opts sweep;         /* the mpi variant alone; sizes, iterations, dtype, op */
	const char *ranks_arg;           /* --ranks as given: checked once N is known */
	int ranks[TUNE_MAX_RANK_COUNTS]; /* ascending, distinct, 2..world */
	int nranks;
	/* --library-algorithms: the names asked for (checked against the library's once it is up) */
	char names[TUNE_MAX_NAMES][TUNE_NAME_BYTES];
	int nnames; /* 0: every algorithm the library offers */
	/*
	 * --prove RULES: the library reads that rules file at MPI_Init, and only
	 * its decision is measured (mpi/default), to compare against a run without
	 */
	const char *prove;
	const char *rules; /* --rules FILE: the decision written for the library, or NULL */
	int heap;          /* --heap: TUNE_HEAP_STEADY or TUNE_HEAP_AS_IS (algorithms/heap_steady.h) */
	double timeout_s;
	struct cmd_out out;
};

extern const struct cmd_spec tune_spec;

#endif
