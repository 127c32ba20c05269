/*
 * Rank 0's watchdog thread (see watchdog.h): it reads the heartbeats of its
 * own host's ranks from shared memory and every other host's frames from
 * that host's leader, answers each frame with its own progress, and judges
 * (cmd/run/watchdog_verdict.h). Never calls MPI.
 */
#include <mpi.h>

#include "cmd/run/watchdog_int.h"
#include "cmd/run/run.h"

#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/progress.h"
#include "algorithms/trace.h"
#include "algorithms/variant.h"
#include "reports/diagnose/flight.h"

static void describe_beat(char *buf, size_t len, const struct wd_beat *b)
{
	progress_describe(buf, len, (int)b->variant, b->bytes, (int)b->phase, b->iteration);
}

/*
 * A rank of another host whose leader has missed two frames: what it said
 * last is stale, and its silence is its leader's. Only the leader is judged.
 */
static bool behind_quiet_leader(int r, double now)
{
	int h = wd.hosts.host_of[r];
	const struct wd_conn *c = &wd.down[h];
	return h != 0 && r != wd.hosts.leaders[h] && c->fd >= 0 &&
	       now - c->heard_s > 2.5 * wd.period_s;
}

/* The peers as the verdict sees them (cmd/run/watchdog_verdict.h), in wd.views. */
static void fill_views(double now)
{
	for (int r = 0; r < wd.nranks; r++) {
		const struct wd_peer *p = &wd.peers[r];
		wd.views[r] = (struct wd_view){.seen = p->seen && !behind_quiet_leader(r, now),
		                               .connected = p->connected,
		                               .heard_s = p->heard_s,
		                               .moved_s = p->moved_s,
		                               .ticks = p->last.ticks,
		                               .variant = (int)p->last.variant,
		                               .bytes = p->last.bytes,
		                               .iteration = p->last.iteration,
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
		    .algorithm = variant_name(e.variant),
		    .bytes = e.bytes,
		    .iteration = e.iteration,
		    .phase = e.phase,
		    .step = e.step,
		    .send_peer = e.send_peer,
		    .recv_peer = e.recv_peer,
		    .send_bytes = e.send_bytes,
		    .recv_bytes = e.recv_bytes,
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
	wd.peers[0].last = wd_my_beat(0, true);
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
		    .known = wd.views[r].seen,
		    .answering =
		        !(p->connected && now - p->heard_s > fmin(WD_SILENT_S, wd.timeout_s)),
		    .silent_s = now - p->heard_s,
		    .idle = b->phase == PROGRESS_IDLE,
		    .ticks = b->ticks,
		    .where = flight.where[r],
		    .algorithm = variant_name(b->variant),
		    .bytes = b->bytes,
		    .iteration = b->iteration,
		    .step = step,
		    .peer = peer,
		    .wait = (enum flight_wait)kind,
		    .entries = e,
		    .nentries = flight_entries_of(b, (now - p->heard_s) * 1e6, e)};
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

/* Rank r said b, heard at heard_s. */
static void hear(int r, const struct wd_beat *b, double heard_s, double now)
{
	struct wd_peer *p = &wd.peers[r];
	if (b->ticks != p->last.ticks)
		p->moved_s = now;
	p->last = *b;
	p->heard_s = heard_s;
}

/* Rank r stopped its watchdog (it finished), or its host's connection closed. */
static void forget(int r)
{
	wd.peers[r].seen = false;
	wd.peers[r].connected = false;
}

/* The ranks of rank 0's own host, from their slots (slot 0 is rank 0's own). */
static void hear_local(double now)
{
	wd_scan_slots(now);
	for (int i = 1; i < wd.host.nlocal; i++) {
		const struct wd_local *l = &wd.local[i];
		int r = wd.host.ranks[i];
		if (l->done)
			forget(r);
		else if (l->seq)
			hear(r, &l->last, l->heard_s, now);
	}
}

/* Host h's connection closed (its ranks finished, or died: mpirun then ends the job) or broke. */
static void drop_host(int h)
{
	wd_conn_release(&wd.down[h]);
	for (int r = 0; r < wd.nranks; r++)
		if (wd.hosts.host_of[r] == h)
			forget(r);
}

/* One frame of host h: every record must be of a rank of h. -1: drop the host. */
static int take_frame(int h, size_t n, uint64_t sender, double now)
{
	if (sender != (uint64_t)wd.hosts.leaders[h])
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = wd.recs[i].beat.rank;
		if (r >= (uint64_t)wd.nranks || wd.hosts.host_of[r] != h)
			return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct wd_record *rec = &wd.recs[i];
		int r = (int)rec->beat.rank;
		/* the leader is alive now: it sent this; the others as long ago as it last heard
		 * them */
		double heard = r == (int)sender ? now : now - (double)rec->silent_ms / 1e3;
		if (rec->flags & WD_REC_DONE)
			forget(r);
		else if (wd.peers[r].seen)
			hear(r, &rec->beat, heard, now);
	}
	wd.down[h].heard_s = now;
	struct wd_record mine = {.beat = wd_my_beat(0, false)};
	return wd_conn_send(&wd.down[h], wd.token, 0, &mine, 1);
}

static void serve_host(int h, short revents, double now)
{
	struct wd_conn *c = &wd.down[h];
	size_t n = 0;
	uint64_t sender = 0;
	int rc = 0;
	if ((revents & POLLOUT) && wd_conn_flush(c) != 0)
		rc = -1;
	if (rc == 0 && (revents & (POLLIN | POLLHUP | POLLERR)) && wd_conn_read(c) != 0)
		rc = -1;
	while (rc == 0 && (rc = wd_conn_frame(c, wd.token, wd.recs, &n, &sender)) == 1)
		rc = take_frame(h, n, sender, now);
	if (rc < 0)
		drop_host(h);
}

void *wd_serve(void *arg)
{
	(void)arg;
	int nh = wd.hosts.nhosts;
	struct pollfd *fds = calloc((size_t)nh + 1, sizeof *fds);
	uint64_t my_ticks = wd_my_beat(0, false).ticks;
	double next = 0;
	int64_t seq = 1;
	if (!fds)
		return NULL;
	for (;;) {
		fds[0] = (struct pollfd){.fd = wd.stop_pipe[0], .events = POLLIN};
		for (int h = 1; h < nh; h++)
			fds[h] = (struct pollfd){
			    .fd = wd.down[h].fd,
			    .events =
			        (short)(POLLIN | (wd_conn_pending(&wd.down[h]) ? POLLOUT : 0))};
		poll(fds, (nfds_t)nh, wd_poll_ms());
		double now = wd_now_s();
		if (fds[0].revents)
			break;
		wd_write_slot(now, &next, &seq);
		hear_local(now);
		for (int h = 1; h < nh; h++)
			if (wd.down[h].fd >= 0 && fds[h].revents)
				serve_host(h, fds[h].revents, now);
		wd.peers[0].last = wd_my_beat(0, false);
		wd.peers[0].heard_s = now;
		if (wd.peers[0].last.ticks != my_ticks) {
			my_ticks = wd.peers[0].last.ticks;
			wd.peers[0].moved_s = now;
		}
		fill_views(now);
		if (wd_hung(wd.views, wd.nranks, now, wd.timeout_s))
			declare_hang(now);
	}
	free(fds);
	return NULL;
}
