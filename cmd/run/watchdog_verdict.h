/*
 * The watchdog's judgement (cmd/run/watchdog.c gathers what it needs from the
 * heartbeats): when is the job hung, and who is to blame. Pure: no MPI, no
 * sockets, no clocks (the caller passes the time), so the verdicts are
 * unit-tested without waiting out a real timeout.
 */
#ifndef COLLSCOPE_CMD_WATCHDOG_VERDICT_H
#define COLLSCOPE_CMD_WATCHDOG_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What rank 0 knows of one rank: its last heartbeat and when things happened. */
struct wd_view {
	bool seen;      /* watched (rank 0: always); false once it stopped its watchdog */
	bool connected; /* its connection is open: silence from it means something */
	double heard_s; /* when it was last heard from */
	double moved_s; /* when its ticks last changed */
	uint64_t ticks; /* operations started (algorithms/progress.h) */
	int variant;
	uint64_t bytes;
	int64_t iteration;
	int phase; /* enum progress_phase */
};

/*
 * A rank not heard from for this long has missed two heartbeats (one a
 * second): in a hang's words it is not answering, whatever the timeout. One
 * figure for the verdict's text and the flight record's, so that a rank
 * stopped just after its last step is not "answering" in one and "not
 * answering" in the other (CI of 9f9a76d, mpi/reliability under load).
 */
#define WD_SILENT_S 2.5

/* Silent: connected but not heard from for the timeout (stopped, stuck or dead). */
bool wd_silent(const struct wd_view *v, double now, double timeout_s);
/*
 * True when a hang is to be declared: some seen rank has not moved for the
 * timeout (unless it idles outside the current sub-communicator, which may
 * wait as long as it takes), or is silent.
 */
bool wd_hung(const struct wd_view *v, int n, double now, double timeout_s);
/*
 * The verdict in words: "hang in CMD: no progress within the T s timeout;
 * ranks that had not arrived: rank 2 (not answering for 40 s: ...; last at
 * ...); rank 0 waits at ...". The ranks behind are those with fewer ticks
 * than the most advanced, and the silent ones (here: not heard for
 * WD_SILENT_S, or the timeout if shorter); when none is behind, every
 * rank is inside the same operation (a deadlock or a lost message). Returns
 * the length snprintf would write.
 */
int wd_describe(char *buf, size_t len, const char *command, double timeout_s,
                const struct wd_view *v, int n, double now);

#endif
