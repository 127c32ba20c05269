/* See watchdog.h. The threads never call MPI: only shared memory, sockets, clocks and atomics. */
#include <mpi.h>

#include "cmd/run/watchdog.h"
#include "cmd/run/run.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "algorithms/clock_id.h"
#include "algorithms/progress.h"
#include "algorithms/trace.h"
#include "cmd/run/watchdog_int.h"
#include "cmd/run/watchdog_rendezvous.h"

struct wd_state wd = {.stop_pipe = {-1, -1}, .up = {.fd = -1}, .host = {.leaders = MPI_COMM_NULL}};

double wd_now_s(void)
{
	return clock_local_s();
}

int wd_poll_ms(void)
{
	return (int)(wd.period_s * 500) + 1;
}

struct wd_beat wd_my_beat(int64_t seq, bool with_entries)
{
	struct wd_beat b = {
	    .token = wd.token,
	    .rank = (uint64_t)wd.rank,
	    .ticks = atomic_load_explicit(&ar_progress.ticks, memory_order_acquire),
	    .bytes = atomic_load_explicit(&ar_progress.bytes, memory_order_relaxed),
	    .variant = atomic_load_explicit(&ar_progress.variant, memory_order_relaxed),
	    .iteration = atomic_load_explicit(&ar_progress.iteration, memory_order_relaxed),
	    .phase = atomic_load_explicit(&ar_progress.phase, memory_order_relaxed),
	    .seq = seq,
	    .where = atomic_load_explicit(&ar_progress.where, memory_order_relaxed),
	    .clock_ns = trace_now_ns(),
	};
	struct trace_ring *ring = with_entries ? trace_published() : NULL;
	struct trace_entry e[WD_FLIGHT_ENTRIES];
	b.nentries = ring ? trace_snapshot(ring, e, WD_FLIGHT_ENTRIES) : 0;
	for (uint64_t i = 0; i < b.nentries; i++)
		trace_pack(&e[i], &b.entries[i * TRACE_WORDS]);
	return b;
}

void wd_write_slot(double now, double *next, int64_t *seq)
{
	if (now < *next)
		return;
	struct wd_beat b = wd_my_beat((*seq)++, true);
	wd_slot_write(&wd.host.slots[wd.host.local], &b);
	*next = now + wd.period_s;
}

void wd_scan_slots(double now)
{
	for (int i = 0; i < wd.host.nlocal; i++) {
		struct wd_local *l = &wd.local[i];
		struct wd_beat b;
		uint64_t seq;
		if (l->done || (l->done = wd_slot_is_done(&wd.host.slots[i])))
			continue;
		if (wd_slot_read(&wd.host.slots[i], &b, &seq) && seq != l->seq) {
			l->seq = seq;
			l->heard_s = now;
			l->last = b;
		}
	}
}

/*
 * The rank this rank watches (its leader, or rank 0 for a leader) has been
 * silent for silent_s, last at b. Past the timeout the job ends; rank 1
 * (whose upstream is always rank 0: it is rank 0's host's or its own host's
 * leader) says so, the others wait 3 s longer, so rank 0's verdict comes first.
 */
static void upstream_silent(double silent_s, int who, const struct wd_beat *b)
{
	if (silent_s <= wd.timeout_s + (wd.rank == 1 ? 0 : 3))
		return;
	if (wd.rank == 1) {
		char where[160], here[160];
		struct wd_beat mine = wd_my_beat(0, false);
		progress_describe(where, sizeof where, (int)b->variant, b->bytes, (int)b->phase,
		                  b->iteration);
		progress_describe(here, sizeof here, (int)mine.variant, mine.bytes, (int)mine.phase,
		                  mine.iteration);
		fprintf(
		    stderr,
		    "collscope: [rank 1] error: hang in %s: rank %d has not answered for %.0f s "
		    "(stopped, stuck or dead); it was last at %s; this rank is at %s\n",
		    wd.command, who, silent_s, where, here);
	}
	_exit(EXIT_HANG);
}

/* A rank that leads no host: its heartbeat in its slot; its leader's watched in the leader's. */
static void *follow(void *arg)
{
	(void)arg;
	struct wd_slot *lead = &wd.host.slots[0];
	struct wd_beat last = {.variant = PROGRESS_NONE}, b;
	uint64_t seen = 0, seq;
	double heard = wd_now_s(), next = 0;
	int64_t mine = 1;
	for (;;) {
		struct pollfd stop = {.fd = wd.stop_pipe[0], .events = POLLIN};
		if (poll(&stop, 1, wd_poll_ms()) > 0)
			break;
		double now = wd_now_s();
		wd_write_slot(now, &next, &mine);
		if (wd_slot_is_done(lead))
			break; /* the leader finished: nothing is watched any more */
		if (wd_slot_read(lead, &b, &seq) && seq != seen) {
			seen = seq;
			heard = now;
			last = b;
		}
		upstream_silent(now - heard, wd.host.leader, &last);
	}
	wd_slot_done(&wd.host.slots[wd.host.local]);
	return NULL;
}

/* A frame a period to rank 0 with every rank of the host; rank 0's answers read. -1: it is gone. */
static int report_up(double now, double *next_send, short revents, double *answered,
                     struct wd_beat *root)
{
	size_t n = 0;
	uint64_t sender = 0;
	int rc = 0;
	if (now >= *next_send) {
		for (int i = 0; i < wd.host.nlocal; i++)
			wd.recs[i] = (struct wd_record){
			    .silent_ms = (uint64_t)fmax(0, (now - wd.local[i].heard_s) * 1e3),
			    .flags = wd.local[i].done ? WD_REC_DONE : 0,
			    .beat = wd.local[i].last};
		*next_send = now + wd.period_s;
		if (wd_conn_send(&wd.up, wd.token, (uint64_t)wd.rank, wd.recs,
		                 (size_t)wd.host.nlocal) != 0)
			return -1;
	} else if ((revents & POLLOUT) && wd_conn_flush(&wd.up) != 0) {
		return -1;
	}
	if ((revents & (POLLIN | POLLHUP | POLLERR)) && wd_conn_read(&wd.up) != 0)
		return -1; /* rank 0 finished (or died: mpirun then ends the job) */
	while ((rc = wd_conn_frame(&wd.up, wd.token, wd.recs, &n, &sender)) == 1)
		if (sender == 0 && n == 1) {
			*root = wd.recs[0].beat;
			*answered = now;
		}
	return rc;
}

/* A host's leader (not rank 0): its ranks' slots read, reported to rank 0, rank 0 watched. */
static void *lead(void *arg)
{
	(void)arg;
	struct wd_beat root = {.variant = PROGRESS_NONE};
	double answered = wd_now_s(), next = 0, next_send = 0;
	int64_t seq = 1;
	for (;;) {
		struct pollfd fds[2] = {
		    {.fd = wd.stop_pipe[0], .events = POLLIN},
		    {.fd = wd.up.fd,
		     .events = (short)(POLLIN | (wd_conn_pending(&wd.up) ? POLLOUT : 0))}};
		poll(fds, 2, wd_poll_ms());
		if (fds[0].revents)
			break;
		double now = wd_now_s();
		wd_write_slot(now, &next, &seq);
		wd_scan_slots(now);
		if (report_up(now, &next_send, fds[1].revents, &answered, &root) != 0)
			break;
		upstream_silent(now - answered, 0, &root);
	}
	/* its ranks stop watching it: a leader that stopped is no hang */
	wd_slot_done(&wd.host.slots[wd.host.local]);
	return NULL;
}

static void reset(void)
{
	for (int h = 0; wd.down && h < wd.hosts.nhosts; h++)
		wd_conn_release(&wd.down[h]);
	free(wd.down);
	wd.down = NULL;
	wd_conn_release(&wd.up);
	wd_hosts_release(&wd.hosts);
	wd_host_release(&wd.host);
	free(wd.peers);
	free(wd.views);
	free(wd.local);
	free(wd.recs);
	wd.peers = NULL;
	wd.views = NULL;
	wd.local = NULL;
	wd.recs = NULL;
	for (int i = 0; i < 2; i++)
		if (wd.stop_pipe[i] >= 0)
			close(wd.stop_pipe[i]);
	wd.stop_pipe[0] = wd.stop_pipe[1] = -1;
	wd.running = false;
}

/* The soft open-file limit up to the hard one, where allowed: rank 0 needs one per host. */
static void raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl); /* refused: the limit stays, and may suffice */
	}
}

static unsigned long long nofile_limit(void)
{
	struct rlimit rl;
	return getrlimit(RLIMIT_NOFILE, &rl) == 0 ? (unsigned long long)rl.rlim_cur : 0;
}

/* Leaders: the TCP rendezvous among them (rank 0 gets fds[h] per host, the others wd.up's fd). */
static int meet_leaders(const struct cmd_ctx *ctx, int **fds, int *nhosts, int *up)
{
	struct cmd_ctx l = *ctx;
	l.comm = wd.host.leaders;
	MPI_Comm_rank(l.comm, &l.rank);
	MPI_Comm_size(l.comm, &l.nranks);
	*nhosts = l.nranks;
	if (ctx->rank == 0 && (*fds = malloc((size_t)l.nranks * sizeof **fds)))
		for (int h = 0; h < l.nranks; h++)
			(*fds)[h] = -1;
	if (run_any(&l, ctx->rank == 0 && !*fds))
		return -1;
	return wd_rendezvous(&l, ctx->rank, *fds, up, &wd.token);
}

/* Rank 0: the hosts, a connection per other host, what it knows of every rank. */
static int root_setup(int nhosts, int *fds, double now, char *why, size_t len)
{
	bool *arrived = calloc((size_t)nhosts, sizeof *arrived);
	int rc = -1;
	if (!arrived || wd_hosts_plan(wd.host.leader_of, wd.nranks, &wd.hosts) != 0 ||
	    wd.hosts.nhosts != nhosts) {
		snprintf(why, len, "cannot plan the hosts (%d leaders)", nhosts);
		goto out;
	}
	for (int h = 1; h < nhosts; h++)
		arrived[h] = fds[h] >= 0;
	char missing[512];
	if (wd_hosts_missing(missing, sizeof missing, &wd.hosts, arrived) > 0) {
		snprintf(
		    why, len,
		    "%s did not reach rank 0 in time (rank 0 may open %llu files; it needs one "
		    "per host)",
		    missing, nofile_limit());
		goto out;
	}
	int most = 1;
	wd.down = calloc((size_t)nhosts, sizeof *wd.down);
	wd.peers = calloc((size_t)wd.nranks, sizeof *wd.peers);
	wd.views = calloc((size_t)wd.nranks, sizeof *wd.views);
	for (int h = 0; wd.down && h < nhosts; h++)
		wd.down[h] = (struct wd_conn){.fd = -1};
	for (int h = 1; wd.down && h < nhosts; h++) {
		most = wd.hosts.count[h] > most ? wd.hosts.count[h] : most;
		int fd = fds[h];
		fds[h] = -1; /* the connection's now, even when it fails */
		if (wd_conn_init(&wd.down[h], fd, (size_t)wd.hosts.count[h], 1) != 0)
			goto nomem;
		wd.down[h].heard_s = now;
	}
	if (!wd.down || !wd.peers || !wd.views ||
	    !(wd.recs = calloc((size_t)most, sizeof *wd.recs)))
		goto nomem;
	for (int r = 0; r < wd.nranks; r++)
		wd.peers[r] = (struct wd_peer){.seen = true,
		                               .connected = true,
		                               .heard_s = now,
		                               .moved_s = now,
		                               .last = {.variant = PROGRESS_NONE}};
	rc = 0;
	goto out;
nomem:
	snprintf(why, len, "out of memory for %d ranks", wd.nranks);
out:
	free(arrived);
	return rc;
}

/* Leaders: a record of every slot of the host. */
static int leader_setup(double now)
{
	int n = wd.host.nlocal;
	if (!(wd.local = calloc((size_t)n, sizeof *wd.local)) ||
	    (!wd.recs && !(wd.recs = calloc((size_t)n, sizeof *wd.recs))))
		return -1;
	for (int i = 0; i < n; i++)
		wd.local[i] = (struct wd_local){
		    .heard_s = now,
		    .last = {.rank = (uint64_t)wd.host.ranks[i], .variant = PROGRESS_NONE}};
	return 0;
}

/*
 * The hosts (watchdog_host.h), the leaders' rendezvous with rank 0, the
 * state of each role. Collective; 0 or -1 on every rank, why set where it
 * was seen.
 */
static int setup(const struct cmd_ctx *ctx, char *why, size_t len)
{
	int *fds = NULL, nhosts = 0, up = -1, ok = 1, met = 0;
	if (wd_host_setup(ctx, &wd.host, why, len) != 0)
		return -1;
	bool leader = wd.host.local == 0;
	if (leader && (met = meet_leaders(ctx, &fds, &nhosts, &up)) != 0) {
		ok = 0;
		/* rank 0 names the hosts missing, or says it was the rendezvous itself */
		if (ctx->rank == 0 && (met != -2 || root_setup(nhosts, fds, 0, why, len) == 0))
			snprintf(why, len,
			         "the leaders' rendezvous with rank 0 failed (its error above)");
	}
	wd_host_leaders_free(&wd.host);
	/* the clocks start now: however long the rendezvous took, it was no hang */
	double now = wd_now_s();
	if (ok && ctx->rank == 0 && root_setup(nhosts, fds, now, why, len) != 0)
		ok = 0;
	if (ok && leader && ctx->rank != 0) {
		int fd = up;
		up = -1; /* wd.up's now, even when it fails */
		if (wd_conn_init(&wd.up, fd, 1, (size_t)wd.host.nlocal) != 0)
			ok = !snprintf(why, len, "out of memory for the connection to rank 0");
	}
	if (ok && leader && leader_setup(now) != 0)
		ok = !snprintf(why, len, "out of memory for this host's %d ranks", wd.host.nlocal);
	if (ok && pipe2(wd.stop_pipe, O_CLOEXEC) != 0)
		ok = !snprintf(why, len, "cannot open a pipe: %s (this rank may open %llu files)",
		               strerror(errno), nofile_limit());
	if (up >= 0)
		close(up);
	for (int h = 0; fds && h < nhosts; h++)
		if (fds[h] >= 0)
			close(fds[h]);
	free(fds);
	return run_any(ctx, !ok) ? -1 : 0;
}

int watchdog_start(const struct cmd_ctx *ctx, const char *command, double timeout_s,
                   watchdog_hang_fn hook, void *hook_arg)
{
	char why[768] = "";
	if (timeout_s <= 0 || !ctx->mpi)
		return 0;
	raise_nofile();
	wd.rank = ctx->rank;
	wd.nranks = ctx->nranks;
	wd.timeout_s = timeout_s;
	/* the ranks' heartbeats and the leaders' frames: a few per timeout, at most one a second */
	wd.period_s = fmin(1.0, fmax(0.05, timeout_s / 5));
	wd.command = command;
	wd.hook = hook;
	wd.hook_arg = hook_arg;
	int rc = setup(ctx, why, sizeof why);
	bool thread_failed = false;
	if (rc == 0) {
		void *(*fn)(void *) = ctx->rank == 0       ? wd_serve
		                      : wd.host.local == 0 ? lead
		                                           : follow;
		thread_failed = pthread_create(&wd.thread, NULL, fn, NULL) != 0;
		if (thread_failed)
			snprintf(why, sizeof why, "cannot start its thread");
	}
	/* the threads run already: a thread that failed on one rank is agreed like the rest */
	if (rc == 0 && !run_any(ctx, thread_failed)) {
		wd.running = true;
		return 0;
	}
	if (rc == 0 && !thread_failed) {
		wd.running = true;
		watchdog_stop();
	}
	if (ctx->rank != 0 && why[0])
		cmd_rank_error(ctx, "watchdog: %s", why);
	cmd_error(ctx,
	          "watchdog: cannot watch the job: %s; stopping rather than running unwatched: "
	          "raise the open-file limit (ulimit -n) or pass --timeout 0 to run without a "
	          "watchdog",
	          ctx->rank == 0 && why[0] ? why : "a rank could not set it up (its error above)");
	reset();
	return -1;
}

void watchdog_stop(void)
{
	if (!wd.running)
		return;
	if (write(wd.stop_pipe[1], "x", 1) != 1)
		pthread_cancel(wd.thread);
	pthread_join(wd.thread, NULL);
	reset();
}
