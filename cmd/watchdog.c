/* See watchdog.h. The thread never calls MPI: only sockets, clocks and atomics. */
#include <mpi.h>

#include "watchdog.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "flight.h"
#include "parse.h"
#include "progress.h"
#include "trace.h"
#include "variant.h"

/* WD_FLIGHT_ENTRIES: the last trace entries each heartbeat carries (with --trace). */
enum { WD_MAX_ADDRS = 16, WD_HB_WORDS = 11, WD_FLIGHT_ENTRIES = 8 };

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
	int listen_fd;      /* rank 0 */
	struct wd_peer *peers; /* rank 0: nranks */
	int fd;             /* others: connection to rank 0 */
} wd = {.listen_fd = -1, .fd = -1, .stop_pipe = {-1, -1}};

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

/*
 * --- The flight recorder (issue 14) ------------------------------------------
 * Every heartbeat carries the rank's step and the peer it waits for
 * (ar_progress.where) and, with --trace, its last WD_FLIGHT_ENTRIES trace
 * entries, so rank 0 holds what each rank last said, at most a second old
 * (a stopped rank's included). On a hang it judges them (reports/flight.h),
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
	char *event = malloc(65536), where[160];
	size_t used = 0;
	uint64_t most = 0;
	if (!event)
		_exit(EXIT_HANG);
	for (int r = 0; r < wd.nranks; r++)
		if (wd.peers[r].seen && wd.peers[r].last.ticks > most)
			most = wd.peers[r].last.ticks;
	used += (size_t)snprintf(event + used, 65536 - used,
	                         "hang in %s: no progress within the %.0f s timeout; ranks that had "
	                         "not arrived:", wd.command, wd.timeout_s);
	int late = 0;
	for (int r = 0; r < wd.nranks && used < 60000; r++) {
		const struct wd_peer *p = &wd.peers[r];
		bool silent = p->fd >= 0 && now - p->heard_s > wd.timeout_s;
		if (!p->seen || (!silent && (p->last.ticks == most || p->last.phase == PROGRESS_IDLE)))
			continue;
		describe_beat(where, sizeof where, &p->last);
		if (silent)
			used += (size_t)snprintf(event + used, 65536 - used,
			                         "%s rank %d (not answering for %.0f s: stopped, stuck or dead; "
			                         "last at %s)", late++ ? ";" : "", r, now - p->heard_s, where);
		else
			used += (size_t)snprintf(event + used, 65536 - used,
			                         "%s rank %d (answering but making no progress; last at %s)",
			                         late++ ? ";" : "", r, where);
	}
	if (!late)
		used += (size_t)snprintf(event + used, 65536 - used,
		                         " none: every rank is inside the same operation (a deadlock "
		                         "or a lost message)");
	for (int r = 0; r < wd.nranks && used < 60000; r++)
		if (wd.peers[r].seen && wd.peers[r].last.ticks == most &&
		    !(wd.peers[r].fd >= 0 && now - wd.peers[r].heard_s > wd.timeout_s)) {
			describe_beat(where, sizeof where, &wd.peers[r].last);
			used += (size_t)snprintf(event + used, 65536 - used, "; rank %d waits at %s", r, where);
			break; /* one example of where the others wait */
		}
	if (used < 60000)
		flight_record(now, event, 65536, &used);
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
	for (int r = 0; r < wd.nranks; r++) {
		const struct wd_peer *p = &wd.peers[r];
		if (!p->seen)
			continue;
		/* an idle rank (outside the current sub-communicator) may wait as long as it takes */
		bool stuck = now - p->moved_s > wd.timeout_s && p->last.phase != PROGRESS_IDLE;
		if (stuck || (p->fd >= 0 && now - p->heard_s > wd.timeout_s))
			declare_hang(now);
	}
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

/* Rank 0's IPv4 addresses, loopback last: the others try them in turn. */
static int local_addrs(uint32_t *addrs, int max)
{
	struct ifaddrs *ifs = NULL;
	int n = 0;
	if (getifaddrs(&ifs) == 0) {
		for (struct ifaddrs *i = ifs; i && n < max - 1; i = i->ifa_next) {
			if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
				continue;
			uint32_t a = ((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr.s_addr;
			if (ntohl(a) >> 24 != 127)
				addrs[n++] = a;
		}
		freeifaddrs(ifs);
	}
	addrs[n++] = htonl(INADDR_LOOPBACK);
	return n;
}

static int open_listener(uint16_t *port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
	socklen_t len = sizeof sa;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 4096) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(sa.sin_port);
	return fd;
}

/* Connect with a bound on the wait, so an address that swallows packets costs 2 s, not minutes. */
static int connect_to(uint32_t addr, uint16_t port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = addr};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		struct pollfd p = {.fd = fd, .events = POLLOUT};
		int err = 0;
		socklen_t len = sizeof err;
		if (errno != EINPROGRESS || poll(&p, 1, 2000) != 1 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err)
			goto fail;
	}
	/* back to blocking: the thread bounds its waits with poll */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}

/* Rank 0 accepts every rank that says it connected, each with a hello beat naming it. */
static int accept_peers(const int *connected)
{
	int expected = 0;
	for (int r = 1; r < wd.nranks; r++)
		expected += connected[r];
	for (int got = 0; got < expected; got++) {
		struct pollfd p = {.fd = wd.listen_fd, .events = POLLIN};
		struct wd_beat hello;
		if (poll(&p, 1, 10000) != 1)
			return -1;
		int fd = accept4(wd.listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			return -1;
		if (recv_beat(fd, &hello) != 0 || hello.rank == 0 || hello.rank >= (uint64_t)wd.nranks ||
		    wd.peers[hello.rank].fd >= 0) {
			close(fd);
			got--; /* a stranger or a duplicate: not one of ours */
			continue;
		}
		wd.peers[hello.rank].fd = fd;
	}
	return 0;
}

static void reset(void)
{
	for (int r = 0; wd.peers && r < wd.nranks; r++)
		if (wd.peers[r].fd >= 0)
			close(wd.peers[r].fd);
	free(wd.peers);
	wd.peers = NULL;
	for (int i = 0; i < 2; i++)
		if (wd.stop_pipe[i] >= 0)
			close(wd.stop_pipe[i]);
	if (wd.listen_fd >= 0)
		close(wd.listen_fd);
	if (wd.fd >= 0)
		close(wd.fd);
	wd.stop_pipe[0] = wd.stop_pipe[1] = wd.listen_fd = wd.fd = -1;
	wd.running = false;
}

/* Rank 0 publishes token, port and addresses; every other rank connects and says hello. */
static int rendezvous(const struct cmd_ctx *ctx)
{
	struct {
		uint64_t token;
		uint32_t addrs[WD_MAX_ADDRS];
		int naddrs;
		uint16_t port;
	} where = {0};
	int ok = 1, *connected = NULL;
	if (ctx->rank == 0) {
		if (getrandom(&where.token, sizeof where.token, 0) != sizeof where.token)
			where.token = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		wd.listen_fd = open_listener(&where.port);
		where.naddrs = wd.listen_fd >= 0 ? local_addrs(where.addrs, WD_MAX_ADDRS) : 0;
	}
	if (MPI_Bcast(&where, sizeof where, MPI_BYTE, 0, ctx->comm) != MPI_SUCCESS)
		return -1;
	wd.token = where.token;
	for (int i = 0; ctx->rank != 0 && wd.fd < 0 && i < where.naddrs; i++) {
		wd.fd = connect_to(where.addrs[i], where.port);
		struct wd_beat hello = my_beat(0, false);
		if (wd.fd >= 0 && send_beat(wd.fd, &hello) != 0) {
			close(wd.fd);
			wd.fd = -1;
		}
	}
	int mine = ctx->rank == 0 || wd.fd >= 0;
	if (ctx->rank != 0 && !mine)
		cmd_rank_error(ctx, "watchdog: cannot reach rank 0 (port %u): this rank runs unwatched",
		               (unsigned)where.port);
	if (ctx->rank == 0 && !(connected = calloc((size_t)ctx->nranks, sizeof *connected)))
		ok = 0;
	if (MPI_Gather(&mine, 1, MPI_INT, connected, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS)
		ok = 0;
	if (ctx->rank == 0 && ok && accept_peers(connected) != 0) {
		cmd_error(ctx, "watchdog: not every rank said hello in time: running unwatched");
		ok = 0;
	}
	free(connected);
	return ok && !cmd_any(ctx, !ok) ? 0 : -1;
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
	if (ctx->rank == 0 && !(wd.peers = calloc((size_t)ctx->nranks, sizeof *wd.peers)))
		return -1;
	double now = now_s();
	for (int r = 0; wd.peers && r < ctx->nranks; r++)
		wd.peers[r] = (struct wd_peer){.fd = -1, .heard_s = now, .moved_s = now, .seen = r == 0};
	if (rendezvous(ctx) != 0 || pipe2(wd.stop_pipe, O_CLOEXEC) != 0) {
		reset(); /* a watchdog that cannot start is no reason to refuse a benchmark */
		return 0;
	}
	for (int r = 1; wd.peers && r < ctx->nranks; r++)
		wd.peers[r].seen = wd.peers[r].fd >= 0;
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

int watchdog_parse_timeout(const struct cmd_ctx *ctx, const char *cmd, const char *arg,
                           double *out)
{
	const char *why = NULL;
	if (parse_double(arg, 0, 7 * 24 * 3600.0, out, &why) != 0)
		return cmd_error(ctx, "%s: bad value '%s' for --timeout: %s (seconds, 0 to disable)", cmd,
		                 arg, why);
	return 0;
}
