/*
 * The watchdog: MPI has no timeouts (a stopped or dead peer leaves the others
 * blocked for ever), so every measuring command runs one.
 *
 * Each rank runs a thread that never calls MPI. At start-up the others
 * connect to rank 0 over TCP, where it listens only for the rendezvous and
 * only on addresses they can reach, and prove they belong to the job
 * (cmd/run/watchdog_rendezvous.c); then each sends a heartbeat a second with its
 * progress (algorithms/progress.h: the operation, the step and the peer it
 * waits for) and, when the command traces, its last trace entries (the
 * flight record); rank 0 answers with its own progress. The hang clocks
 * start once every rank has arrived.
 * Rank 0 declares a hang when some rank has made no progress, or has not been
 * heard from, for the timeout: it names the ranks that had not arrived and
 * where each one last was, and the flight record's verdict (reports/diagnose/flight.h:
 * who never entered, whom each rank waits on), calls the command's hang hook
 * (which writes the partial report), and ends the job with exit code 4. When rank 0 itself
 * stops answering, rank 1 says so and ends the job the same way.
 */
#include <mpi.h>

#ifndef COLLSCOPE_WATCHDOG_H
#define COLLSCOPE_WATCHDOG_H

#include "cmd/cmd.h"

/* Called on rank 0's watchdog thread with the event text, before the job ends. */
typedef void (*watchdog_hang_fn)(void *arg, const char *event);

/*
 * Collective over ctx->comm. timeout_s <= 0 disables the watchdog (returns 0).
 * A rank that cannot reach rank 0 says so and runs unwatched; returns -1 only
 * for errors that stop the command.
 */
int watchdog_start(const struct cmd_ctx *ctx, const char *command, double timeout_s,
                   watchdog_hang_fn hook, void *hook_arg);
/* Not collective: ends this rank's thread (a normal finish is never a hang). */
void watchdog_stop(void);

/*
 * Inside the hang hook (rank 0's watchdog thread): the flight record of the
 * hang being declared (reports/diagnose/flight.h), nranks entries and their verdict;
 * NULL before a hang. Owned by the watchdog.
 */
struct flight_rank;
struct flight_verdict;
const struct flight_rank *watchdog_flight(const struct flight_verdict **v, int *nranks);

#endif
