/*
 * Private to collscope watch's run (watch_run.c: the loop and what it
 * measures; watch_files.c: signals and what it writes). Commands include
 * cmd/run/run.h only.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_RUN_WATCH_RUN_H
#define COLLSCOPE_CMD_RUN_WATCH_RUN_H

#include <signal.h>
#include <stdio.h>

#include "cmd/allreduce_opts.h"
#include "cmd/run/run.h"
#include "cmd/watch_opts.h"
#include "reports/watch/watch_state.h"

struct watch_run {
	struct cmd_ctx *ctx;
	const struct watch_opts *o;
	watch_event_fn print;
	struct report_context c;
	struct topo_map map;
	struct ar_opts ao; /* the two all-reduces, as a sweep of the library's */
	struct sweep sweep;
	bool sweep_ready;
	struct ar_record last; /* rank 0: the point just measured */
	struct watch_state st; /* rank 0 */
	struct detect_params detect;
	FILE *jsonl;      /* rank 0, --jsonl */
	double mono0_s;   /* CLOCK_MONOTONIC at the start */
	double epoch0_s;  /* the watch's clock at the start: the time of day */
	double measure_s; /* real seconds measuring, all rounds */
	uint64_t round;
	bool expired;       /* rank 0: --duration is over */
	bool reopen_failed; /* rank 0: --jsonl could not be opened again after SIGHUP */
};

/* Rank 0: the watch's clock, seconds since the epoch, --clock-factor times faster. */
double watch_now_s(const struct watch_run *w);

/*
 * watch_files.c. watch_signals_install: SIGTERM and SIGINT ask the loop to
 * stop, SIGHUP to reopen the files (every rank). watch_stop_signal: the
 * signal that asked to stop, or 0; watch_take_reopen: whether SIGHUP came
 * since the last call.
 */
void watch_signals_install(void);
int watch_stop_signal(void);
bool watch_take_reopen(void);

/*
 * Rank 0. watch_files_open: --jsonl opened for appending (EXIT_OK, or
 * EXIT_RUNTIME after naming it); watch_files_reopen: closed and opened again
 * after a rotation. watch_write_line: one record, its own line, flushed (the
 * object deleted); -1 on a write error. watch_write_round: the round's
 * samples, its events and its round line, then --metrics replaced; an exit
 * code. watch_write_end: the stop line and the report of -o; an exit code.
 */
int watch_files_open(struct watch_run *w);
int watch_files_reopen(struct watch_run *w);
void watch_files_close(struct watch_run *w);
int watch_write_line(struct watch_run *w, cJSON *line);
int watch_write_round(struct watch_run *w, size_t first_event, double round_s);
int watch_write_end(struct watch_run *w, const char *reason);

#endif
