/*
 * The watchdog's state, shared by its files (internal: cmd/run/watchdog.c
 * starts it and runs the hosts' threads, cmd/run/watchdog_root.c runs rank 0's).
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_WATCHDOG_INT_H
#define COLLSCOPE_CMD_WATCHDOG_INT_H

#include <pthread.h>
#include <stdbool.h>

#include "cmd/run/watchdog.h"
#include "cmd/run/watchdog_conn.h"
#include "cmd/run/watchdog_host.h"
#include "cmd/run/watchdog_plan.h"
#include "cmd/run/watchdog_verdict.h"
#include "cmd/run/watchdog_wire.h"

/* What rank 0 knows of one rank. */
struct wd_peer {
	struct wd_beat last; /* its last beat */
	double heard_s;      /* when it was last heard from (its heartbeat moved) */
	double moved_s;      /* when its ticks last changed */
	bool seen;           /* watched: false once it stopped its watchdog */
	bool connected;      /* silence from it means something */
};

/* What a leader knows of one slot of its host. */
struct wd_local {
	uint64_t seq; /* the slot's seq when last read */
	double heard_s;
	bool done;
	struct wd_beat last;
};

struct wd_state {
	bool running;
	pthread_t thread;
	int stop_pipe[2];
	int rank, nranks;
	double timeout_s;
	double period_s; /* between heartbeats, and between a leader's frames */
	uint64_t token;
	const char *command;
	watchdog_hang_fn hook;
	void *hook_arg;
	struct wd_host host;    /* every rank: its host's slots */
	struct wd_local *local; /* leaders: per slot */
	struct wd_record *recs; /* leaders: scratch, a record per rank of the largest host */
	struct wd_conn up;      /* leaders but rank 0: to rank 0 */
	struct wd_conn *down;   /* rank 0: per host ([0], its own, unused) */
	struct wd_hosts hosts;  /* rank 0 */
	struct wd_peer *peers;  /* rank 0: nranks */
	struct wd_view *views;  /* rank 0: nranks, what the verdict reads */
};

extern struct wd_state wd;

double wd_now_s(void);
/* This rank's beat; with_entries: and the last entries of its trace, if it traces. */
struct wd_beat wd_my_beat(int64_t seq, bool with_entries);
/* Every period: this rank's beat into its slot. */
void wd_write_slot(double now, double *next, int64_t *seq);
/* Leaders: what each slot of the host says now. */
void wd_scan_slots(double now);
/* How long to wait in poll: half a period, in ms. */
int wd_poll_ms(void);
/* Rank 0's thread (cmd/run/watchdog_root.c). */
void *wd_serve(void *arg);

#endif
