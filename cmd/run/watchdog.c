/* See watchdog.h. The thread never calls MPI: only sockets, clocks and atomics. */
#include <mpi.h>

#include "cmd/run/watchdog.h"
#include "cmd/run/run.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "reports/diagnose/flight.h"
#include "algorithms/progress.h"
#include "algorithms/trace.h"
#include "algorithms/variant.h"
#include "cmd/run/watchdog_rendezvous.h"
#include "cmd/run/watchdog_verdict.h"

/* WD_FLIGHT_ENTRIES: the last trace entries each heartbeat carries (with --trace). */
enum { WD_HB_WORDS = 11, WD_FLIGHT_ENTRIES = 8 };

/*
 * One heartbeat or answer: WD_HB_WORDS big-endian 64-bit words, then
 * nentries trace entries of TRACE_WORDS words (heartbeats only, with --trace).
 */
struct wd_beat {
	uint64_t token, rank, ticks, bytes;
	int64_t variant, iteration, phase, seq;
	uint64_t where;    /* ar_progress.where: the step and the peer it waits for */
	uint64_t clock_ns; /* the sender's trace clock when it sent this */
	uint64_t nentries;
	uint64_t entries[WD_FLIGHT_ENTRIES * TRACE_WORDS];
};

#define WD_BEAT_MAX_BYTES ((WD_HB_WORDS + WD_FLIGHT_ENTRIES * TRACE_WORDS) * 8)

/* What rank 0 knows of one rank. */
struct wd_peer {
	int fd;               /* -1: not connected (unwatched) */
	struct wd_beat last;  /* last heartbeat */
	double heard_s;       /* when last heard */
	double moved_s;       /* when its ticks last changed */
	bool seen;
};

static struct {
	bool running;
	pthread_t thread;
	int stop_pipe[2];
	int rank, nranks;
	double timeout_s;
	uint64_t token;
	const char *command;
	watchdog_hang_fn hook;
	void *hook_arg;
	struct wd_peer *peers; /* rank 0: nranks */
	struct wd_view *views; /* rank 0: nranks, what the verdict reads */
	int fd;             /* others: connection to rank 0 */
} wd = {.fd = -1, .stop_pipe = {-1, -1}};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void put_words(const uint64_t *w, size_t n, unsigned char *out)
{
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 8; k++)
			out[i * 8 + k] = (unsigned char)(w[i] >> (56 - 8 * k));
}

static void get_words(const unsigned char *in, size_t n, uint64_t *w)
{
	for (size_t i = 0; i < n; i++) {
		w[i] = 0;
		for (int k = 0; k < 8; k++)
			w[i] = (w[i] << 8) | in[i * 8 + k];
	}
}

/* Returns the bytes of the encoded beat. */
static size_t encode(const struct wd_beat *b, unsigned char *out)
{
	uint64_t w[WD_HB_WORDS] = {b->token, b->rank, b->ticks, b->bytes, (uint64_t)b->variant,
	                           (uint64_t)b->iteration, (uint64_t)b->phase, (uint64_t)b->seq,
	                           b->where, b->clock_ns, b->nentries};
	put_words(w, WD_HB_WORDS, out);
	put_words(b->entries, b->nentries * TRACE_WORDS, out + WD_HB_WORDS * 8);
	return (WD_HB_WORDS + b->nentries * TRACE_WORDS) * 8;
}

static void decode(const unsigned char *in, struct wd_beat *b)
{
	uint64_t w[WD_HB_WORDS];
	get_words(in, WD_HB_WORDS, w);
	*b = (struct wd_beat){.token = w[0], .rank = w[1], .ticks = w[2], .bytes = w[3],
	                      .variant = (int64_t)w[4], .iteration = (int64_t)w[5],
	                      .phase = (int64_t)w[6], .seq = (int64_t)w[7], .where = w[8],
	                      .clock_ns = w[9], .nentries = w[10]};
}

/* This rank's beat; with_entries: and the last entries of its trace, if it traces. */
static struct wd_beat my_beat(int64_t seq, bool with_entries)
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

static int send_beat(int fd, const struct wd_beat *b)
{
	unsigned char buf[WD_BEAT_MAX_BYTES];
	size_t n = encode(b, buf);
	return send(fd, buf, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

static int recv_all(int fd, unsigned char *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = recv(fd, buf + got, len - got, 0);
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/* Heartbeats are small and arrive whole on a stream socket in practice; be strict anyway. */
static int recv_beat(int fd, struct wd_beat *b)
{
	unsigned char buf[WD_BEAT_MAX_BYTES];
	if (recv_all(fd, buf, WD_HB_WORDS * 8) != 0)
		return -1;
	decode(buf, b);
	if (b->token != wd.token || b->nentries > WD_FLIGHT_ENTRIES ||
	    recv_all(fd, buf, b->nentries * TRACE_WORDS * 8) != 0)
		return -1;
	get_words(buf, b->nentries * TRACE_WORDS, b->entries);
	return 0;
}

static void describe_beat(char *buf, size_t len, const struct wd_beat *b)
{
	progress_describe(buf, len, (int)b->variant, b->bytes, (int)b->phase, b->iteration);
}

/* The peers as the verdict sees them (cmd/run/watchdog_verdict.h), in wd.views. */
static void fill_views(void)
{
	for (int r = 0; r < wd.nranks; r++) {
		const struct wd_peer *p = &wd.peers[r];
		wd.views[r] = (struct wd_view){.seen = p->seen, .connected = p->fd >= 0,
		                               .heard_s = p->heard_s, .moved_s = p->moved_s,
		                               .ticks = p->last.ticks, .variant = (int)p->last.variant,
		                               .bytes = p->last.bytes, .iteration = p->last.iteration,
		                               .phase = (int)p->last.phase};
	}
}

/*
 * --- The flight recorder (issue 14) ------------------------------------------
 * Every heartbeat carries the rank's step and the peer it waits for
 * (ar_progress.where) and, with --trace, its last WD_FLIGHT_ENTRIES trace
 * entries, so rank 0 holds what each rank last said, at most a second old
 * (a stopped rank's included). On a hang it judges them (reports/diagnose/flight.h),
 * appends the verdict to the event and keeps it for the hook
 * (watchdog_flight). A rank that missed two heartbeats is not answering.
 */
#define WD_SILENT_S 2.5

static struct {
	struct flight_rank *ranks;
	struct flight_entry *entries; /* WD_FLIGHT_ENTRIES per rank */
	char (*where)[160];
	struct flight_verdict verdict;
	int n;
} flight;

static const char *variant_name(int64_t v)
{
	return v >= 0 && (size_t)v < ar_variant_count() ? ar_variants[v]->name : NULL;
}

/* The entries of b; before_us: how long before the hang b was sent. */
static size_t flight_entries_of(const struct wd_beat *b, double before_us, struct flight_entry *out)
{
	for (uint64_t i = 0; i < b->nentries; i++) {
		struct trace_entry e;
		trace_unpack(&b->entries[i * TRACE_WORDS], &e);
		out[i] = (struct flight_entry){
		    .algorithm = variant_name(e.variant), .bytes = e.bytes, .iteration = e.iteration,
		    .phase = e.phase, .step = e.step, .send_peer = e.send_peer, .recv_peer = e.recv_peer,
		    .send_bytes = e.send_bytes, .recv_bytes = e.recv_bytes,
		    .duration_us = (double)(int64_t)(e.end_ns - e.start_ns) / 1e3,
		    .recv_wait_us = (double)(int64_t)(e.recv_done_ns - e.start_ns) / 1e3,
		    .ended_before_us = (double)(int64_t)(b->clock_ns - e.end_ns) / 1e3 + before_us};
	}
	return (size_t)b->nentries;
}

/* Rank 0: the flight record of every rank's last beat, appended to event. */
static void flight_record(double now, char *event, size_t cap, size_t *used)
{
	int n = wd.nranks;
	flight.ranks = calloc((size_t)n, sizeof *flight.ranks);
	flight.entries = calloc((size_t)n * WD_FLIGHT_ENTRIES, sizeof *flight.entries);
	flight.where = calloc((size_t)n, sizeof *flight.where);
	if (!flight.ranks || !flight.entries || !flight.where)
		return;
	wd.peers[0].last = my_beat(0, true);
	wd.peers[0].heard_s = now;
	for (int r = 0; r < n; r++) {
		const struct wd_peer *p = &wd.peers[r];
		const struct wd_beat *b = &p->last;
		struct flight_entry *e = &flight.entries[(size_t)r * WD_FLIGHT_ENTRIES];
		int step, peer;
		enum progress_wait kind;
		progress_where_unpack(b->where, &step, &peer, &kind);
		describe_beat(flight.where[r], sizeof flight.where[r], b);
		flight.ranks[r] = (struct flight_rank){
		    .known = p->seen,
		    .answering = !(p->fd >= 0 && now - p->heard_s > fmin(WD_SILENT_S, wd.timeout_s)),
		    .silent_s = now - p->heard_s, .idle = b->phase == PROGRESS_IDLE, .ticks = b->ticks,
		    .where = flight.where[r], .algorithm = variant_name(b->variant), .bytes = b->bytes,
		    .iteration = b->iteration, .step = step, .peer = peer, .wait = (enum flight_wait)kind,
		    .entries = e, .nentries = flight_entries_of(b, (now - p->heard_s) * 1e6, e)};
	}
	if (flight_judge(flight.ranks, n, &flight.verdict) != 0)
		return;
	flight.n = n;
	if (*used + 64 < cap) {
		*used += (size_t)snprintf(event + *used, cap - *used, "; flight record: ");
		*used += (size_t)flight_describe(flight.ranks, &flight.verdict, 32, event + *used,
		                                 cap - *used);
	}
}

const struct flight_rank *watchdog_flight(const struct flight_verdict **v, int *nranks)
{
	*v = &flight.verdict;
	*nranks = flight.n;
	return flight.n ? flight.ranks : NULL;
}

/* Rank 0: the verdict, printed, handed to the hook, and the end of the job. */
static void declare_hang(double now)
{
	enum { EVENT_BYTES = 65536 };
	char *event = malloc(EVENT_BYTES);
	if (!event)
		_exit(EXIT_HANG);
	wd_describe(event, EVENT_BYTES, wd.command, wd.timeout_s, wd.views, wd.nranks, now);
	size_t used = strlen(event);
	if (used < EVENT_BYTES - 4096)
		flight_record(now, event, EVENT_BYTES, &used);
	fprintf(stderr, "collscope: error: %s\n", event);
	fflush(stderr);
	if (wd.hook)
		wd.hook(wd.hook_arg, event);
	_exit(EXIT_HANG);
}

static void check_peers(double now)
{
	wd.peers[0].last = my_beat(0, false);
	wd.peers[0].heard_s = now;
	fill_views();
	if (wd_hung(wd.views, wd.nranks, now, wd.timeout_s))
		declare_hang(now);
}

static void serve_one(int r, double now)
{
	struct wd_peer *p = &wd.peers[r];
	struct wd_beat b;
	if (recv_beat(p->fd, &b) != 0 || b.rank != (uint64_t)r) {
		/* a closed connection: the rank finished, or died (mpirun then ends the job) */
		close(p->fd);
		p->fd = -1;
		p->seen = false;
		return;
	}
	if (b.ticks != p->last.ticks)
		p->moved_s = now;
	p->last = b;
	p->heard_s = now;
	struct wd_beat mine = my_beat(b.seq, false);
	send_beat(p->fd, &mine);
}

static void *serve(void *arg)
{
	(void)arg;
	struct pollfd *fds = calloc((size_t)wd.nranks + 1, sizeof *fds);
	uint64_t my_ticks = my_beat(0, false).ticks;
	if (!fds)
		return NULL;
	for (;;) {
		int n = 0;
		fds[n++] = (struct pollfd){.fd = wd.stop_pipe[0], .events = POLLIN};
		for (int r = 1; r < wd.nranks; r++)
			fds[n++] = (struct pollfd){.fd = wd.peers[r].fd, .events = POLLIN};
		poll(fds, (nfds_t)n, 250);
		double now = now_s();
		if (fds[0].revents)
			break;
		for (int r = 1; r < wd.nranks; r++)
			if (wd.peers[r].fd >= 0 && fds[r].revents)
				serve_one(r, now);
		uint64_t t = my_beat(0, false).ticks;
		if (t != my_ticks) {
			my_ticks = t;
			wd.peers[0].moved_s = now;
		}
		check_peers(now);
	}
	free(fds);
	return NULL;
}

/* Other ranks: a heartbeat a second; rank 1 speaks when rank 0 stops answering. */
static void *beat(void *arg)
{
	(void)arg;
	double answered = now_s();
	struct wd_beat root = {.variant = -1};
	for (int64_t seq = 1;; seq++) {
		struct pollfd fds[2] = {{.fd = wd.stop_pipe[0], .events = POLLIN},
		                        {.fd = wd.fd, .events = POLLIN}};
		struct wd_beat mine = my_beat(seq, true), got;
		if (send_beat(wd.fd, &mine) != 0)
			return NULL; /* rank 0 is gone: mpirun ends the job */
		double deadline = now_s() + 1.0;
		while (now_s() < deadline) {
			int ms = (int)((deadline - now_s()) * 1000) + 1;
			if (poll(fds, 2, ms) <= 0)
				continue;
			if (fds[0].revents)
				return NULL;
			if (recv_beat(wd.fd, &got) != 0)
				return NULL;
			root = got;
			answered = now_s();
		}
		double silent = now_s() - answered;
		if (silent > wd.timeout_s + (wd.rank == 1 ? 0 : 3)) {
			char where[160], here[160];
			describe_beat(where, sizeof where, &root);
			describe_beat(here, sizeof here, &mine);
			if (wd.rank == 1)
				fprintf(stderr,
				        "collscope: [rank 1] error: hang in %s: rank 0 has not answered for "
				        "%.0f s (stopped, stuck or dead); it was last at %s; this rank is at %s\n",
				        wd.command, silent, where, here);
			_exit(EXIT_HANG);
		}
	}
}

static void reset(void)
{
	for (int r = 0; wd.peers && r < wd.nranks; r++)
		if (wd.peers[r].fd >= 0)
			close(wd.peers[r].fd);
	free(wd.peers);
	free(wd.views);
	wd.peers = NULL;
	wd.views = NULL;
	for (int i = 0; i < 2; i++)
		if (wd.stop_pipe[i] >= 0)
			close(wd.stop_pipe[i]);
	if (wd.fd >= 0)
		close(wd.fd);
	wd.stop_pipe[0] = wd.stop_pipe[1] = wd.fd = -1;
	wd.running = false;
}

/* The rendezvous (watchdog_rendezvous.c): rank 0's connections in its peers, the others' in wd.fd. */
static int rendezvous(const struct cmd_ctx *ctx)
{
	int *fds = ctx->rank == 0 ? calloc((size_t)ctx->nranks, sizeof *fds) : NULL;
	bool failed = ctx->rank == 0 && !fds;
	for (int r = 0; fds && r < ctx->nranks; r++)
		fds[r] = -1;
	int rc = run_any(ctx, failed) ? -1 : wd_rendezvous(ctx, fds, &wd.fd, &wd.token);
	for (int r = 0; fds && r < ctx->nranks; r++)
		wd.peers[r].fd = fds[r];
	free(fds);
	return rc;
}

int watchdog_start(const struct cmd_ctx *ctx, const char *command, double timeout_s,
                   watchdog_hang_fn hook, void *hook_arg)
{
	if (timeout_s <= 0 || !ctx->mpi)
		return 0;
	wd.rank = ctx->rank;
	wd.nranks = ctx->nranks;
	wd.timeout_s = timeout_s;
	wd.command = command;
	wd.hook = hook;
	wd.hook_arg = hook_arg;
	if (ctx->rank == 0 && (!(wd.peers = calloc((size_t)ctx->nranks, sizeof *wd.peers)) ||
	                       !(wd.views = calloc((size_t)ctx->nranks, sizeof *wd.views)))) {
		reset();
		return -1;
	}
	for (int r = 0; wd.peers && r < ctx->nranks; r++)
		wd.peers[r] = (struct wd_peer){.fd = -1, .seen = r == 0};
	if (rendezvous(ctx) != 0 || pipe2(wd.stop_pipe, O_CLOEXEC) != 0) {
		reset(); /* a watchdog that cannot start is no reason to refuse a benchmark */
		return 0;
	}
	/* the clocks start now: however long the rendezvous took, it was no hang */
	double now = now_s();
	for (int r = 0; wd.peers && r < ctx->nranks; r++) {
		wd.peers[r].seen = r == 0 || wd.peers[r].fd >= 0;
		wd.peers[r].heard_s = wd.peers[r].moved_s = now;
	}
	if (pthread_create(&wd.thread, NULL, ctx->rank == 0 ? serve : beat, NULL) != 0) {
		reset();
		return 0;
	}
	wd.running = true;
	return 0;
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
