/*
 * The watchdog's rendezvous (see watchdog_rendezvous.h): every rank gives
 * rank 0 its addresses, rank 0 listens only where they can reach it
 * (watchdog_net.h), shares a fresh secret over MPI, and admits a connection
 * only when it answers a nonce with the secret's HMAC within the deadline.
 * The listeners close when the rendezvous ends: nothing listens while the
 * job runs.
 */
#include <mpi.h>

#include "cmd/run/watchdog_rendezvous.h"
#include "cmd/run/run.h"

#include "algorithms/clock_id.h"
#include "algorithms/fault.h"
#include "cmd/run/watchdog_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum {
	MAX_LISTENERS = WD_MAX_ADDRS + 1, /* every address, and loopback */
	RENDEZVOUS_MS = 10000,            /* every rank's time to arrive */
	CONNECT_MS = 2000, /* an address that swallows packets costs this, not minutes */
};

/* What rank 0 tells every rank. Never printed: the key is the job's secret. */
struct offer {
	unsigned char key[WD_KEY_BYTES];
	uint64_t token;
	int nlisten;
	uint32_t listen[MAX_LISTENERS]; /* host order */
	uint16_t port[MAX_LISTENERS];
	struct wd_addrs root;
};

static double now_ms(void)
{
	return 1e3 * clock_local_s();
}

/* This host's IPv4 addresses and netmasks, loopback left out. */
static void local_addrs(struct wd_addrs *out)
{
	struct ifaddrs *ifs = NULL;
	out->n = 0;
	if (getifaddrs(&ifs) != 0)
		return;
	for (struct ifaddrs *i = ifs; i && out->n < WD_MAX_ADDRS; i = i->ifa_next) {
		if (!i->ifa_addr || !i->ifa_netmask || i->ifa_addr->sa_family != AF_INET)
			continue;
		uint32_t a = ntohl(((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr.s_addr);
		uint32_t m = ntohl(((struct sockaddr_in *)(void *)i->ifa_netmask)->sin_addr.s_addr);
		if (a >> 24 != 127)
			out->a[out->n++] = (struct wd_addr){a, m};
	}
	freeifaddrs(ifs);
}

static int open_listener(uint32_t addr, uint16_t *port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(addr)};
	socklen_t len = sizeof sa;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 4096) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(sa.sin_port);
	return fd;
}

static int set_blocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

/* A non-blocking connection to addr:port, or -1 after CONNECT_MS. */
static int connect_to(uint32_t addr, uint16_t port)
{
	struct sockaddr_in sa = {
	    .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(addr)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		struct pollfd p = {.fd = fd, .events = POLLOUT};
		int err = 0;
		socklen_t len = sizeof err;
		if (errno != EINPROGRESS || poll(&p, 1, CONNECT_MS) != 1 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* Reads exactly len bytes before deadline_ms; 0 or -1. */
static int read_by(int fd, unsigned char *buf, size_t len, double deadline_ms)
{
	size_t got = 0;
	while (got < len) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int wait = (int)(deadline_ms - now_ms());
		if (wait <= 0 || poll(&p, 1, wait) != 1)
			return -1;
		ssize_t n = recv(fd, buf + got, len - got, 0);
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/*
 * A rank other than 0, before the others have been counted: a connection to
 * the first of rank 0's listeners that takes it, in its order. The kernel
 * completes it in the listener's backlog; rank 0 accepts it afterwards.
 */
static int reach(const struct offer *o, const struct wd_addrs *mine)
{
	int order[MAX_LISTENERS];
	int n = wd_connect_order(mine, &o->root, o->listen, o->nlisten, order);
	for (int k = 0; k < n; k++) {
		int fd = connect_to(o->listen[order[k]], o->port[order[k]]);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

/* Then, while rank 0 accepts: the nonce it sends, answered. 0, or -1 (fd closed). */
static int prove(const struct offer *o, int fd, int rank)
{
	unsigned char nonce[WD_NONCE_BYTES], hello[WD_HELLO_BYTES];
	if (read_by(fd, nonce, sizeof nonce, now_ms() + RENDEZVOUS_MS) == 0) {
		wd_hello(o->key, nonce, (uint32_t)rank, hello);
		if (send(fd, hello, sizeof hello, MSG_NOSIGNAL) == (ssize_t)sizeof hello &&
		    set_blocking(fd) == 0)
			return 0;
	}
	close(fd);
	return -1;
}

/*
 * Connections in their handshake, on rank 0. All of them are polled at once
 * and share the rendezvous's one deadline, so connections that never answer
 * cost nothing but a slot: a flood delays no rank. When the slots are full,
 * the oldest goes: a rank answers its nonce within a round trip, a stranger
 * that has held its slot longest is the likeliest never to.
 */
enum { MAX_PENDING = 1024 };

struct pending {
	int fd;
	uint64_t seq; /* admission order: the smallest is the oldest */
	unsigned char nonce[WD_NONCE_BYTES];
	unsigned char hello[WD_HELLO_BYTES];
	size_t have;
};

struct table {
	struct pending p[MAX_PENDING];
	struct pollfd fds[MAX_LISTENERS + MAX_PENDING];
	int n;
	uint64_t next_seq;
	int strangers;
	int starved; /* dropped for want of a descriptor (rank 0's open-file limit) */
};

static void drop(struct table *t, int i)
{
	close(t->p[i].fd);
	t->p[i] = t->p[--t->n];
	t->strangers++;
}

static void drop_oldest(struct table *t)
{
	int old = 0;
	for (int i = 1; i < t->n; i++)
		old = t->p[i].seq < t->p[old].seq ? i : old;
	if (t->n > 0)
		drop(t, old);
}

/* Every connection waiting on listener lfd: each sent a nonce. */
static void admit_all(int lfd, struct table *t)
{
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if ((errno == EMFILE || errno == ENFILE) && t->n > 0) {
				drop_oldest(t); /* room for the next round */
				t->strangers--;
				t->starved++;
			}
			return;
		}
		if (t->n == MAX_PENDING)
			drop_oldest(t);
		struct pending *q = &t->p[t->n];
		*q = (struct pending){.fd = fd, .seq = t->next_seq++};
		randombytes_buf(q->nonce, sizeof q->nonce);
		/* a fresh socket's buffer holds 16 bytes: a short send is a broken peer */
		if (send(fd, q->nonce, sizeof q->nonce, MSG_NOSIGNAL) != (ssize_t)sizeof q->nonce) {
			close(fd);
			t->strangers++;
			continue;
		}
		t->n++;
	}
}

/* Pending connection i has data: read it; when its hello is whole, judge it. Returns a rank or -1.
 */
static int hear(const struct offer *o, struct pending *q, int nranks, const int *peer_fds,
                const int *connected, bool *drop_it)
{
	ssize_t n = recv(q->fd, q->hello + q->have, sizeof q->hello - q->have, 0);
	uint32_t r;
	*drop_it = n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
	if (n <= 0 || (q->have += (size_t)n) < sizeof q->hello)
		return -1;
	*drop_it = true;
	if (!wd_hello_valid(o->key, q->nonce, q->hello, &r) || r == 0 || r >= (uint32_t)nranks ||
	    !connected[r] || peer_fds[r] >= 0)
		return -1;
	*drop_it = false;
	return (int)r;
}

/* The pending connections that polled readable: heard, admitted as ranks or dropped. */
static int hear_all(const struct offer *o, struct table *t, int first, int nranks, int *peer_fds,
                    const int *connected)
{
	int arrived = 0;
	/* from the end: a dropped entry takes the last one's place, already seen */
	for (int i = t->n - 1; i >= 0; i--) {
		if (!t->fds[first + i].revents)
			continue;
		bool gone = false;
		int r = hear(o, &t->p[i], nranks, peer_fds, connected, &gone);
		if (r > 0 && set_blocking(t->p[i].fd) == 0) {
			peer_fds[r] = t->p[i].fd;
			t->p[i] = t->p[--t->n];
			arrived++;
		} else if (gone || r > 0) {
			drop(t, i);
		}
	}
	return arrived;
}

/*
 * Rank 0: admits every rank that says it connected, each proving itself
 * before the rendezvous's deadline; anyone else is dropped. 0 when all arrived.
 */
static int accept_peers(const struct offer *o, const int *lfd, const int *connected, int nranks,
                        int *peer_fds, int *strangers)
{
	struct table *t = calloc(1, sizeof *t);
	int expected = 0, arrived = 0;
	double end_ms = now_ms() + RENDEZVOUS_MS;
	if (!t)
		return -1;
	for (int r = 1; r < nranks; r++)
		expected += connected[r];
	while (arrived < expected && now_ms() < end_ms) {
		int nf = 0;
		for (int i = 0; i < o->nlisten; i++)
			t->fds[nf++] = (struct pollfd){.fd = lfd[i], .events = POLLIN};
		for (int i = 0; i < t->n; i++)
			t->fds[nf++] = (struct pollfd){.fd = t->p[i].fd, .events = POLLIN};
		int wait = (int)(end_ms - now_ms()) + 1;
		if (poll(t->fds, (nfds_t)nf, wait > 0 ? wait : 0) < 0 && errno != EINTR)
			break;
		arrived += hear_all(o, t, o->nlisten, nranks, peer_fds, connected);
		for (int i = 0; i < o->nlisten; i++)
			if (t->fds[i].revents)
				admit_all(lfd[i], t);
	}
	for (int i = 0; i < t->n; i++)
		close(t->p[i].fd);
	*strangers += t->strangers + t->n;
	if (t->starved)
		fprintf(
		    stderr,
		    "collscope: warning: watchdog: rank 0 dropped %d connection(s) to its port for "
		    "want of file descriptors\n",
		    t->starved);
	free(t);
	return arrived == expected ? 0 : -1;
}

/* Testing only (COLLSCOPE_FAULT=stranger:rank=0): two connections that are not ranks, first. */
static void strangers_knock(const struct offer *o, int out[2])
{
	unsigned char junk[WD_HELLO_BYTES];
	memset(junk, 0x5a, sizeof junk);
	out[0] = connect_to(o->listen[0], o->port[0]); /* says nothing */
	out[1] = connect_to(o->listen[0], o->port[0]); /* says the wrong thing */
	if (out[1] >= 0 && send(out[1], junk, sizeof junk, MSG_NOSIGNAL) < 0) {
		close(out[1]);
		out[1] = -1;
	}
}

/*
 * Testing only (COLLSCOPE_WATCHDOG_HOLD_MS=N): rank 0 says where it listens
 * and waits N ms before the others may connect, so a test can flood the port
 * first, as a scanner could.
 */
static void hold_for_test(const struct offer *o)
{
	const char *s = getenv("COLLSCOPE_WATCHDOG_HOLD_MS");
	long ms = s ? strtol(s, NULL, 10) : 0;
	if (ms <= 0)
		return;
	ms = ms > RENDEZVOUS_MS ? RENDEZVOUS_MS : ms;
	for (int i = 0; i < o->nlisten; i++)
		fprintf(stderr, "collscope: watchdog: listening on %u.%u.%u.%u:%u (held %ld ms)\n",
		        o->listen[i] >> 24, (o->listen[i] >> 16) & 255, (o->listen[i] >> 8) & 255,
		        o->listen[i] & 255, o->port[i], ms);
	fflush(stderr);
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Rank 0: the secret, the listeners on the planned addresses. -1 when none opens. */
static int make_offer(struct offer *o, const struct wd_addrs *all, int nranks, int *lfd)
{
	uint32_t plan[MAX_LISTENERS];
	int n = wd_listen_plan(&all[0], all + 1, nranks - 1, plan, MAX_LISTENERS);
	randombytes_buf(o->key, sizeof o->key);
	randombytes_buf(&o->token, sizeof o->token);
	o->root = all[0];
	o->nlisten = 0;
	for (int i = 0; i < n; i++) {
		int fd = open_listener(plan[i], &o->port[o->nlisten]);
		if (fd < 0)
			continue;
		lfd[o->nlisten] = fd;
		o->listen[o->nlisten++] = plan[i];
	}
	return o->nlisten > 0 ? 0 : -1;
}

int wd_rendezvous(const struct cmd_ctx *ctx, int world_rank, int *peer_fds, int *fd,
                  uint64_t *token)
{
	struct offer o = {0};
	struct wd_addrs mine, *all = NULL;
	int lfd[MAX_LISTENERS], knock[2] = {-1, -1}, *connected = NULL, strangers = 0, ok = 1;
	bool accepted = false;
	if (sodium_init() < 0)
		ok = 0;
	local_addrs(&mine);
	if (ctx->rank == 0 && !(all = calloc((size_t)ctx->nranks, sizeof *all)))
		ok = 0;
	if (MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, ctx->comm) !=
	    MPI_SUCCESS)
		ok = 0;
	if (ctx->rank == 0 && ok && ctx->nranks > 1)
		ok = make_offer(&o, all, ctx->nranks, lfd) == 0;
	if (ctx->rank == 0 && ok && o.nlisten && fault_is(FAULT_STRANGER, 0))
		strangers_knock(&o, knock);
	if (ctx->rank == 0 && ok && o.nlisten)
		hold_for_test(&o);
	if (run_any(ctx, !ok) || MPI_Bcast(&o, sizeof o, MPI_BYTE, 0, ctx->comm) != MPI_SUCCESS) {
		ok = 0;
		goto out;
	}
	*token = o.token;
	*fd = ctx->rank != 0 ? reach(&o, &mine) : -1;
	int arrived = ctx->rank == 0 || *fd >= 0;
	if (!arrived) {
		fprintf(stderr,
		        "collscope: [rank %d] error: watchdog: this host's leader cannot reach "
		        "rank 0 over TCP\n",
		        world_rank);
		ok = 0;
	}
	if (ctx->rank == 0 && !(connected = calloc((size_t)ctx->nranks, sizeof *connected)))
		ok = 0;
	if (MPI_Gather(&arrived, 1, MPI_INT, connected, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS)
		ok = 0;
	/* rank 0 accepts and challenges while the others answer */
	if (ctx->rank != 0 && *fd >= 0 && prove(&o, *fd, ctx->rank) != 0)
		*fd = -1;
	if (ctx->rank == 0 && ok && fault_is(FAULT_RENDEZVOUS, 0)) {
		cmd_error(ctx, "watchdog: rendezvous failed (COLLSCOPE_FAULT)");
		ok = 0;
	} else if (ctx->rank == 0 && ok) {
		accepted = true; /* the caller names the hosts whose leaders did not arrive */
		ok = accept_peers(&o, lfd, connected, ctx->nranks, peer_fds, &strangers) == 0;
	}
	if (ctx->rank == 0 && strangers > 0)
		fprintf(stderr,
		        "collscope: warning: watchdog: dropped %d connection(s) to its port that "
		        "did not "
		        "prove they belong to this job\n",
		        strangers);
out:
	/* every rank agrees, whichever path it took: none waits in a collective the others skip */
	bool any_failed = run_any(ctx, !ok);
	for (int i = 0; ctx->rank == 0 && i < o.nlisten; i++)
		close(lfd[i]);
	for (int i = 0; i < 2; i++)
		if (knock[i] >= 0)
			close(knock[i]);
	sodium_memzero(o.key, sizeof o.key);
	free(all);
	free(connected);
	return ok && !any_failed ? 0 : accepted ? -2 : -1;
}
