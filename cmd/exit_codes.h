/* The exit codes of every command (README "Exit codes"). Pure: no MPI. */
#ifndef COLLSCOPE_EXIT_CODES_H
#define COLLSCOPE_EXIT_CODES_H

enum cmd_exit {
	EXIT_OK = 0,
	EXIT_CHECK_FAILED = 1, /* regression, threshold, confirmed suspect */
	EXIT_USAGE = 2,        /* bad usage or bad input */
	EXIT_WRONG = 3,        /* wrong results: data corruption */
	EXIT_HANG = 4,         /* a hang or a dead rank */
	EXIT_RUNTIME = 5,      /* runtime, MPI or I/O error */
};

#endif
