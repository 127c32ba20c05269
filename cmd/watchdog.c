/* See watchdog.h. The thread never calls MPI: only sockets, clocks and atomics. */
#include <mpi.h>

#include "watchdog.h"

#include <arpa/inet.h>
#include <errno.h>
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

#include "progress.h"
#include "watchdog_verdict.h"

enum { WD_MAX_ADDRS = 16, WD_HB_WORDS = 8 };

/* One heartbeat or answer: 8 big-endian 64-bit words. */
struct wd_beat {
	uint64_t token, rank, ticks, bytes;
	int64_t variant, iteration, phase, seq;
};

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
	struct wd_view *views; /* rank 0: nranks, what the verdict reads */
	int fd;             /* others: connection to rank 0 */
} wd = {.listen_fd = -1, .fd = -1, .stop_pipe = {-1, -1}};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void encode(const struct wd_beat *b, unsigned char out[WD_HB_WORDS * 8])
{
	uint64_t w[WD_HB_WORDS] = {b->token, b->rank, b->ticks, b->bytes, (uint64_t)b->variant,
	                           (uint64_t)b->iteration, (uint64_t)b->phase, (uint64_t)b->seq};
	for (int i = 0; i < WD_HB_WORDS; i++)
		for (int k = 0; k < 8; k++)
			out[i * 8 + k] = (unsigned char)(w[i] >> (56 - 8 * k));
}

static void decode(const unsigned char in[WD_HB_WORDS * 8], struct wd_beat *b)
{
	uint64_t w[WD_HB_WORDS] = {0};
	for (int i = 0; i < WD_HB_WORDS; i++)
		for (int k = 0; k < 8; k++)
			w[i] = (w[i] << 8) | in[i * 8 + k];
	*b = (struct wd_beat){w[0], w[1], w[2], w[3], (int64_t)w[4], (int64_t)w[5], (int64_t)w[6],
	                      (int64_t)w[7]};
}

static struct wd_beat my_beat(int64_t seq)
{
	return (struct wd_beat){
		.token = wd.token,
		.rank = (uint64_t)wd.rank,
		.ticks = atomic_load_explicit(&ar_progress.ticks, memory_order_acquire),
		.bytes = atomic_load_explicit(&ar_progress.bytes, memory_order_relaxed),
		.variant = atomic_load_explicit(&ar_progress.variant, memory_order_relaxed),
		.iteration = atomic_load_explicit(&ar_progress.iteration, memory_order_relaxed),
		.phase = atomic_load_explicit(&ar_progress.phase, memory_order_relaxed),
		.seq = seq,
	};
}

static int send_beat(int fd, const struct wd_beat *b)
{
	unsigned char buf[WD_HB_WORDS * 8];
	encode(b, buf);
	return send(fd, buf, sizeof buf, MSG_NOSIGNAL) == (ssize_t)sizeof buf ? 0 : -1;
}

/* Heartbeats are small and arrive whole on a stream socket in practice; be strict anyway. */
static int recv_beat(int fd, struct wd_beat *b)
{
	unsigned char buf[WD_HB_WORDS * 8];
	size_t got = 0;
	while (got < sizeof buf) {
		ssize_t n = recv(fd, buf + got, sizeof buf - got, 0);
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	decode(buf, b);
	return b->token == wd.token ? 0 : -1;
}

static void describe_beat(char *buf, size_t len, const struct wd_beat *b)
{
	progress_describe(buf, len, (int)b->variant, b->bytes, (int)b->phase, b->iteration);
}

/* The peers as the verdict sees them (cmd/watchdog_verdict.h), in wd.views. */
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

/* Rank 0: the verdict, printed, handed to the hook, and the end of the job. */
static void declare_hang(double now)
{
	enum { EVENT_BYTES = 65536 };
	char *event = malloc(EVENT_BYTES);
	if (!event)
		_exit(EXIT_HANG);
	wd_describe(event, EVENT_BYTES, wd.command, wd.timeout_s, wd.views, wd.nranks, now);
	fprintf(stderr, "collscope: error: %s\n", event);
	fflush(stderr);
	if (wd.hook)
		wd.hook(wd.hook_arg, event);
	_exit(EXIT_HANG);
}

static void check_peers(double now)
{
	wd.peers[0].last = my_beat(0);
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
	struct wd_beat mine = my_beat(b.seq);
	send_beat(p->fd, &mine);
}

static void *serve(void *arg)
{
	(void)arg;
	struct pollfd *fds = calloc((size_t)wd.nranks + 1, sizeof *fds);
	uint64_t my_ticks = my_beat(0).ticks;
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
		uint64_t t = my_beat(0).ticks;
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
		struct wd_beat mine = my_beat(seq), got;
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
	free(wd.views);
	wd.peers = NULL;
	wd.views = NULL;
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
		struct wd_beat hello = my_beat(0);
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
	if (ctx->rank == 0 && (!(wd.peers = calloc((size_t)ctx->nranks, sizeof *wd.peers)) ||
	                       !(wd.views = calloc((size_t)ctx->nranks, sizeof *wd.views)))) {
		reset();
		return -1;
	}
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
