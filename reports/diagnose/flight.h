/*
 * The flight recorder's verdict on a hang (issue 14): from what each rank
 * last said (its heartbeat: the operation it is in, the schedule step, the
 * peer it waits for, and with --trace its last trace entries), who never
 * entered the operation the others are stuck in, whom each waiting rank
 * waits on, and where every chain of waits ends. Pure: no MPI, no I/O.
 *
 * Every rank runs the same sequence of operations and counts them (ticks,
 * algorithms/progress.h), so the operation "the others are stuck in" is the
 * one of the ranks with the most ticks, and an answering rank with fewer
 * never entered it. What a rank that stopped answering last said is up to a
 * heartbeat older than the moment it stopped, so fewer ticks there prove
 * nothing: whether it entered is unknown, and it is named as not answering. A rank inside it waits
 * on a peer (to receive from it or to send to it, at a step), or is inside a direct variant's call
 * (no peer known), or between calls (a barrier of the harness); a rank behind may wait on a peer
 * too, in the operation before (the neighbours of a rank that stopped there, while the others went
 * on to the next barrier). Following each waiting rank's peer, then that peer's peer, ends at a
 * rank that does not wait on anyone known: one that is not answering, never entered, or is outside
 * a step. That rank is where the chain is blocked (blocked_by); a chain that comes back on itself
 * is a cycle (a deadlock among ranks that all answer).
 */
#ifndef COLLSCOPE_FLIGHT_H
#define COLLSCOPE_FLIGHT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a rank inside a call waits for; the values of enum progress_wait. */
enum flight_wait { FLIGHT_WAIT_NONE, FLIGHT_WAIT_RECV, FLIGHT_WAIT_SEND, FLIGHT_WAIT_CALL };

/* One of a rank's last trace entries, as the recorder keeps it. */
struct flight_entry {
	const char *algorithm; /* borrowed name; NULL unknown */
	uint64_t bytes;
	int64_t iteration;
	int phase; /* enum progress_phase */
	int step;  /* -1: a direct variant's whole call */
	int send_peer, recv_peer;
	uint64_t send_bytes, recv_bytes;
	double duration_us, recv_wait_us;
	double ended_before_us; /* how long before the hang was declared it ended */
};

/* What rank 0 knows of one rank when the hang is declared. */
struct flight_rank {
	bool known;     /* heard from at least once (false: unwatched) */
	bool answering; /* heard from within the timeout */
	double silent_s;
	bool idle; /* outside the current sub-communicator (scale) */
	uint64_t ticks;
	const char *where;     /* "ring, 1048576 bytes, timed iteration 17" (borrowed) */
	const char *algorithm; /* borrowed; NULL outside a variant */
	uint64_t bytes;
	int64_t iteration;
	int step, peer; /* -1: none */
	enum flight_wait wait;
	const struct flight_entry *entries; /* oldest first (borrowed) */
	size_t nentries;
};

enum flight_state {
	FLIGHT_UNKNOWN,     /* never heard from */
	FLIGHT_SILENT,      /* not answering: stopped, stuck or dead */
	FLIGHT_IDLE,        /* outside the sub-communicator: may wait as long as it takes */
	FLIGHT_NOT_ENTERED, /* answering, behind the others: it never entered their operation */
	FLIGHT_WAITING,     /* inside it, waiting on a peer or inside a direct call */
	FLIGHT_OUTSIDE,     /* inside it but between calls (a barrier of the harness) */
};

/* The verdict; owned arrays, flight_verdict_release frees them. */
struct flight_verdict {
	int nranks;
	uint64_t op_ticks; /* ticks of the operation the others are in */
	int op_rank;       /* a rank inside it that answers, whose where names it; -1 */
	enum flight_state *state;
	signed char *entered; /* inside that operation: 1, 0, or -1 unknown (silent and behind) */
	int *blocked_by; /* ranks waiting on a peer: the end of their chain of waits; -1 else or in
	                    a cycle */
	bool *in_cycle;
	int never_entered, not_answering, waiting, cycles;
};

void flight_verdict_init(struct flight_verdict *v);
void flight_verdict_release(struct flight_verdict *v);

/* Judges ranks[0 .. n-1]. Returns 0, or -1 for bad arguments or no memory (v then empty). */
int flight_judge(const struct flight_rank *ranks, int n, struct flight_verdict *v);

/* "not_answering", "waiting", ...; "receive", "send", "call" or NULL for none. */
const char *flight_state_name(enum flight_state s);
const char *flight_wait_name(enum flight_wait w);

/*
 * The verdict in words, for the hang's message: "the others are in ring,
 * 1048576 bytes, timed iteration 17; never entered it: rank 2 (at ...);
 * rank 3 waits to receive from rank 2 at step 5; ...; every chain of waits
 * ends at rank 2 (not answering)". At most max_listed waiting ranks are
 * named, then "and N more". Returns the length snprintf would write.
 */
int flight_describe(const struct flight_rank *ranks, const struct flight_verdict *v, int max_listed,
                    char *buf, size_t len);

/*
 * Adds "hang" to root: operation {where, algorithm, bytes, iteration},
 * never_entered [...], not_answering [...], blocked_by [...] (where the
 * chains end), cycle, and ranks [{rank, host, state, answering, silent_s,
 * entered, where, algorithm, bytes, iteration, step, waits_on, wait,
 * blocked_by, last_entries [{algorithm, bytes, iteration, step, send_peer,
 * recv_peer, send_bytes, recv_bytes, duration_us, recv_wait_us,
 * ended_before_us}]}]. hosts (per rank) may be NULL. NULL when out of memory.
 */
cJSON *flight_to_json(cJSON *root, const struct flight_rank *ranks, const struct flight_verdict *v,
                      const char *const *hosts);

#endif
