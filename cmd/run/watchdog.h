/*
 * The watchdog: MPI has no timeouts (a stopped or dead peer leaves the others
 * blocked for ever), so every measuring command runs one.
 *
 * Each rank runs a thread that never calls MPI. The ranks of a host
 * (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), cmd/run/watchdog_host.h) write
 * a heartbeat a period into their slot of one shared-memory segment
 * (cmd/run/watchdog_slot.h): their progress (algorithms/progress.h: the
 * operation, the step and the peer it waits for) and, when the command traces,
 * their last trace entries (the flight record). The host's lowest rank, its
 * leader, reads the slots and sends rank 0 a frame a period with them all
 * (cmd/run/watchdog_wire.h) over TCP; only the leaders meet rank 0, which
 * listens only for that rendezvous and only where they can reach it, and each
 * proves it belongs to the job (cmd/run/watchdog_rendezvous.c). Rank 0, the
 * leader of its own host, reads its host's slots itself and answers each
 * frame with its own progress: it holds one connection per other host and
 * none per rank (cmd/run/watchdog_plan.h). The hang clocks start once every
 * host has arrived.
 * Rank 0 declares a hang when some rank has made no progress, or has not been
 * heard from, for the timeout: it names the ranks that had not arrived and
 * where each one last was, and the flight record's verdict (reports/diagnose/flight.h:
 * who never entered, whom each rank waits on), calls the command's hang hook
 * (which writes the partial report), and ends the job with exit code 4. A
 * rank watches its leader, a leader rank 0: when rank 0 itself stops
 * answering, rank 1 says so and ends the job the same way.
 */
#include <mpi.h>

#ifndef COLLSCOPE_WATCHDOG_H
#define COLLSCOPE_WATCHDOG_H

#include "cmd/cmd.h"

/* Called on rank 0's watchdog thread with the event text, before the job ends. */
typedef void (*watchdog_hang_fn)(void *arg, const char *event);

/*
 * Collective over ctx->comm. timeout_s <= 0 disables the watchdog (returns 0).
 * First raises the soft open-file limit to the hard one. When the watchdog
 * cannot watch every rank (a host's leader did not reach rank 0, no shared
 * memory, ...), rank 0 says why and every rank returns -1 (agreed): the
 * command stops with exit 5 rather than run unwatched.
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
