/*
 * Latency ping-pong and windowed bandwidth between pairs: see links.h.
 * Every timed loop uses buffers and requests allocated by probe_links_init;
 * nothing is allocated while timing.
 */
#include <mpi.h>

#include "probes/cpu_wait.h"
#include "probes/nic_bytes.h"
#include "probes/p2p.h"
#include "probes/plan.h"
#include "probes/tournament.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* What every rank reports of a shift window: see shift_done. */
enum { SHIFT_TIMES = 3 };

enum { TAG_LAT = 4101, TAG_LAT_LAST, TAG_BW, TAG_ACK, TAG_BIDIR, TAG_PACE, TAG_SHIFT };

enum phase { PH_LAT_LO, PH_LAT_HI, PH_BW_LO, PH_BW_HI, PH_BIDIR, PH_COUNT };

void probe_links_release(struct probe_links *p)
{
	free(p->send_buf);
	free(p->recv_buf);
	free(p->reqs);
	free(p->done);
	free(p->lat_us);
	free(p->window_us);
	free(p->bidir_us);
	free(p->shift_send_us);
	free(p->shift_recv_us);
	free(p->shift_times);
	free(p->shift_fastest);
	free(p->shift_counts);
	memset(p, 0, sizeof *p);
	p->peer = p->shift_dest = p->shift_source = -1;
}

int probe_links_init(struct probe_links *p, MPI_Comm comm, const struct probe_link_opts *o)
{
	memset(p, 0, sizeof *p);
	p->opts = *o;
	p->comm = comm;
	p->peer = p->shift_dest = p->shift_source = -1;
	int rc = MPI_Comm_rank(comm, &p->rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(comm, &p->nranks);
	if (rc != MPI_SUCCESS)
		return rc;
	size_t bytes = o->lat_bytes > o->bw_bytes ? o->lat_bytes : o->bw_bytes;
	if (bytes == 0)
		bytes = 1;
	p->send_buf = malloc(bytes);
	p->recv_buf = malloc(bytes);
	p->reqs = calloc(2 * (size_t)o->window, sizeof(MPI_Request));
	p->done = calloc(2 * (size_t)o->window, sizeof *p->done);
	p->lat_us = calloc((size_t)o->lat_iters, sizeof *p->lat_us);
	p->window_us = calloc((size_t)o->bw_iters, sizeof *p->window_us);
	p->bidir_us = calloc((size_t)o->bw_iters, sizeof *p->bidir_us);
	p->shift_send_us = calloc((size_t)o->bw_iters, sizeof *p->shift_send_us);
	p->shift_recv_us = calloc((size_t)o->bw_iters, sizeof *p->shift_recv_us);
	p->shift_times = calloc(SHIFT_TIMES * (size_t)p->nranks, sizeof *p->shift_times);
	p->shift_fastest = calloc((size_t)p->nranks, sizeof *p->shift_fastest);
	p->shift_counts = calloc((size_t)p->nranks, sizeof *p->shift_counts);
	if (!p->send_buf || !p->recv_buf || !p->reqs || !p->done || !p->lat_us || !p->window_us ||
	    !p->bidir_us || !p->shift_send_us || !p->shift_recv_us || !p->shift_times ||
	    !p->shift_fastest || !p->shift_counts) {
		probe_links_release(p);
		return MPI_ERR_NO_MEM;
	}
	/* fault every page in now, not in the first timed iteration */
	memset(p->send_buf, 0x5A, bytes);
	memset(p->recv_buf, 0, bytes);
	return MPI_SUCCESS;
}

/*
 * Ping-pong: the starter keeps half of each round trip. It keeps the clock
 * too (a probe_pace of one-message windows, within lat_time_s) and marks its
 * last ping with TAG_LAT_LAST, so the other side knows when to stop without
 * a message more.
 */
static int ping_pong(struct probe_links *p, int peer, bool starter)
{
	const int bytes = (int)p->opts.lat_bytes;
	struct probe_pace c;
	MPI_Status st;
	int rc = MPI_SUCCESS, n = 0;
	if (!starter) {
		do {
			rc = MPI_Recv(p->recv_buf, bytes, MPI_BYTE, peer, MPI_ANY_TAG, p->comm, &st);
			if (rc == MPI_SUCCESS && st.MPI_TAG != TAG_LAT && st.MPI_TAG != TAG_LAT_LAST)
				rc = MPI_ERR_TAG;
			if (rc == MPI_SUCCESS)
				rc = MPI_Send(p->send_buf, bytes, MPI_BYTE, peer, TAG_LAT, p->comm);
		} while (rc == MPI_SUCCESS && st.MPI_TAG == TAG_LAT);
		return rc;
	}
	probe_pace_start(&c, p->opts.lat_iters, p->opts.lat_warmup, 1, p->opts.lat_time_s,
	                 MPI_Wtime());
	enum probe_window_kind kind = probe_pace_next(&c, MPI_Wtime(), &n);
	while (rc == MPI_SUCCESS && kind != PROBE_WINDOW_NONE) {
		double t0 = MPI_Wtime();
		/* what follows this ping is decided before it is sent, on the time
		   so far and the last round trip, so its tag can say "the last" */
		struct probe_pace after = c;
		probe_pace_done(&after, c.last_s);
		enum probe_window_kind next = probe_pace_next(&after, t0 + c.last_s, &n);
		rc = MPI_Send(p->send_buf, bytes, MPI_BYTE, peer,
		              next == PROBE_WINDOW_NONE ? TAG_LAT_LAST : TAG_LAT, p->comm);
		if (rc == MPI_SUCCESS)
			rc = MPI_Recv(p->recv_buf, bytes, MPI_BYTE, peer, TAG_LAT, p->comm,
			              MPI_STATUS_IGNORE);
		double t = MPI_Wtime() - t0;
		if (kind == PROBE_WINDOW_TIMED)
			p->lat_us[c.timed] = t * 1e6 / 2;
		probe_pace_done(&c, t);
		c.kind = kind = next;
	}
	p->lat_count = c.timed;
	return rc;
}

/* Post msgs sends (or receives) of bw_bytes into reqs. */
static int post_window(struct probe_links *p, int peer, bool send, int tag, int msgs,
                       MPI_Request *reqs)
{
	const int bytes = (int)p->opts.bw_bytes;
	int rc = MPI_SUCCESS;
	for (int w = 0; w < msgs && rc == MPI_SUCCESS; w++)
		rc = send ? MPI_Isend(p->send_buf, bytes, MPI_BYTE, peer, tag, p->comm, &reqs[w])
		          : MPI_Irecv(p->recv_buf, bytes, MPI_BYTE, peer, tag, p->comm, &reqs[w]);
	return rc;
}

/* A window of msgs messages, timed, in us scaled to a full window of `window` messages. */
static double full_window_us(const struct probe_links *p, double t_s, int msgs)
{
	return t_s * 1e6 * (double)p->opts.window / (double)msgs;
}

static void pace_start(const struct probe_links *p, struct probe_pace *c)
{
	probe_pace_start(c, p->opts.bw_iters, p->opts.bw_warmup, p->opts.window,
	                 p->opts.bw_time_s, MPI_Wtime());
}

static struct probe_windows pace_result(const struct probe_pace *c)
{
	return (struct probe_windows){
	    .windows = c->timed, .msgs = c->msgs, .stopped_by_time = c->stopped_by_time};
}

/*
 * The side that keeps the clock tells the other the next window: its message
 * count (0: the phase is over) and its kind, so both know which windows are
 * timed; *kind and *msgs are the same on both sides afterwards.
 */
static int next_window(struct probe_links *p, int peer, bool clock, struct probe_pace *c,
                       enum probe_window_kind *kind, int *msgs)
{
	int word[2], rc;
	if (clock) {
		*kind = probe_pace_next(c, MPI_Wtime(), msgs);
		word[0] = *msgs;
		word[1] = (int)*kind;
		return MPI_Send(word, 2, MPI_INT, peer, TAG_PACE, p->comm);
	}
	rc = MPI_Recv(word, 2, MPI_INT, peer, TAG_PACE, p->comm, MPI_STATUS_IGNORE);
	if (rc == MPI_SUCCESS && (word[0] < 0 || word[0] > p->opts.window ||
	                          word[1] < PROBE_WINDOW_NONE || word[1] > PROBE_WINDOW_TIMED))
		rc = MPI_ERR_COUNT;
	*msgs = rc == MPI_SUCCESS ? word[0] : 0;
	*kind = rc == MPI_SUCCESS ? (enum probe_window_kind)word[1] : PROBE_WINDOW_NONE;
	return rc;
}

/* One direction: the sender times a window and the receiver's acknowledgement. */
static int one_way(struct probe_links *p, int peer, bool sender)
{
	struct probe_pace c;
	enum probe_window_kind kind;
	int rc, msgs = 0;
	pace_start(p, &c);
	while ((rc = next_window(p, peer, sender, &c, &kind, &msgs)) == MPI_SUCCESS && msgs > 0) {
		double t0 = MPI_Wtime();
		rc = post_window(p, peer, sender, TAG_BW, msgs, p->reqs);
		if (rc == MPI_SUCCESS)
			rc = MPI_Waitall(msgs, p->reqs, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS)
			rc = sender ? MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_ACK, p->comm,
			                       MPI_STATUS_IGNORE)
			            : MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_ACK, p->comm);
		double t = MPI_Wtime() - t0;
		if (rc != MPI_SUCCESS)
			break;
		*(sender ? &p->bw_sent_bytes : &p->bw_received_bytes) +=
		    (uint64_t)msgs * (uint64_t)p->opts.bw_bytes;
		if (sender && kind == PROBE_WINDOW_TIMED)
			p->window_us[c.timed] = full_window_us(p, t, msgs);
		if (sender)
			probe_pace_done(&c, t);
	}
	if (sender)
		p->one_way = pace_result(&c);
	return rc;
}

/* Both directions at once; each side times its own exchange, lo keeps the clock. */
static int both_ways(struct probe_links *p, int peer)
{
	const int window = p->opts.window;
	const bool lo = p->rank < peer;
	struct probe_pace c;
	enum probe_window_kind kind;
	int rc, msgs = 0, timed = 0, last_msgs = 0;
	pace_start(p, &c);
	while ((rc = next_window(p, peer, lo, &c, &kind, &msgs)) == MPI_SUCCESS && msgs > 0) {
		double t0 = MPI_Wtime();
		rc = post_window(p, peer, false, TAG_BIDIR, msgs, p->reqs);
		if (rc == MPI_SUCCESS)
			rc = post_window(p, peer, true, TAG_BIDIR, msgs, p->reqs + window);
		if (rc == MPI_SUCCESS)
			rc = MPI_Waitall(msgs, p->reqs, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS)
			rc = MPI_Waitall(msgs, p->reqs + window, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS)
			rc = MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, TAG_ACK, NULL, 0, MPI_BYTE, peer,
			                  TAG_ACK, p->comm, MPI_STATUS_IGNORE);
		double t = MPI_Wtime() - t0;
		if (rc != MPI_SUCCESS)
			break;
		if (kind == PROBE_WINDOW_TIMED && timed < p->opts.bw_iters) {
			p->bidir_us[timed++] = full_window_us(p, t, msgs);
			last_msgs = msgs;
		}
		if (lo)
			probe_pace_done(&c, t);
	}
	p->bidir = lo ? pace_result(&c)
	              : (struct probe_windows){.windows = timed,
	                                       .msgs = last_msgs,
	                                       .stopped_by_time = timed < p->opts.bw_iters};
	return rc;
}

static int run_phase(struct probe_links *p, int peer, enum phase ph)
{
	bool lo = p->rank < peer;
	switch (ph) {
	case PH_LAT_LO: return ping_pong(p, peer, lo);
	case PH_LAT_HI: return ping_pong(p, peer, !lo);
	case PH_BW_LO: return one_way(p, peer, lo);
	case PH_BW_HI: return one_way(p, peer, !lo);
	case PH_BIDIR: return both_ways(p, peer);
	case PH_COUNT: break;
	}
	return MPI_ERR_ARG;
}

/*
 * All phases with peer (none when peer < 0); with sync, a barrier of all
 * ranks after each phase, made even after an error. nic: the interface
 * counters are read around the bandwidth phases, which mean another job's
 * traffic only when no other pair of this host runs meanwhile (alone, or in
 * a re-test step, whose pairs are on distinct hosts: reports/diagnose/retest.h);
 * in concurrent rounds the other pairs of the host move their bytes between
 * the two readings, unless the host has no other rank (p->nic_in_rounds).
 */
static int run_pair(struct probe_links *p, int peer, bool sync, bool nic)
{
	int rc = MPI_SUCCESS;
	uint64_t waited = 0, waited_lat = 0;
	struct probe_nic_count nic0 = {0, 0}, nic1 = {0, 0};
	double busy = 0, busy_lat = 0, busy_bw = 0;
	bool known = peer >= 0, nic_known = peer >= 0 && nic;
	p->peer = peer;
	p->bw_sent_bytes = p->bw_received_bytes = 0;
	p->one_way = p->bidir = (struct probe_windows){0};
	p->lat_count = 0;
	for (int ph = 0; ph < PH_COUNT; ph++) {
		/* the pair's own time and waits only: the barriers are left out */
		uint64_t w0 = 0, w1 = 0;
		known = known && probe_cpu_wait_ns(&w0);
		if (ph == PH_BW_LO)
			nic_known = nic_known && probe_nic_count(&nic0);
		double t = MPI_Wtime();
		if (rc == MPI_SUCCESS && peer >= 0)
			rc = run_phase(p, peer, (enum phase)ph);
		t = MPI_Wtime() - t;
		busy += t;
		if (ph == PH_BW_LO || ph == PH_BW_HI)
			busy_bw += t;
		if (ph == PH_BW_HI)
			nic_known = nic_known && probe_nic_count(&nic1) && nic1.rx >= nic0.rx &&
			            nic1.tx >= nic0.tx;
		known = known && probe_cpu_wait_ns(&w1) && w1 >= w0;
		waited += known ? w1 - w0 : 0;
		if (ph == PH_LAT_LO || ph == PH_LAT_HI) {
			busy_lat += t;
			waited_lat += known ? w1 - w0 : 0;
		}
		if (sync) {
			int brc = MPI_Barrier(p->comm);
			if (rc == MPI_SUCCESS)
				rc = brc;
		}
	}
	p->cpu_wait_share = known ? probe_cpu_wait_share(waited, busy) : NAN;
	p->cpu_wait_share_lat = known ? probe_cpu_wait_share(waited_lat, busy_lat) : NAN;
	uint64_t rx = nic1.rx - nic0.rx, tx = nic1.tx - nic0.tx;
	p->nic_other_gbps =
	    nic_known ? probe_nic_other_gbps(rx + tx, p->bw_sent_bytes + p->bw_received_bytes,
	                                     busy_bw)
	              : NAN;
	p->nic_other_sent_gbps = nic_known ? probe_nic_other_way_gbps(tx, p->bw_sent_bytes,
	                                                              p->bw_received_bytes, busy_bw)
	                                   : NAN;
	p->nic_other_received_gbps = nic_known ? probe_nic_other_way_gbps(rx, p->bw_received_bytes,
	                                                                  p->bw_sent_bytes, busy_bw)
	                                       : NAN;
	return rc;
}

int probe_links_isolated(struct probe_links *p, int a, int b)
{
	int rc = MPI_SUCCESS;
	int peer = p->rank == a ? b : p->rank == b ? a : -1;
	if (a == b || a < 0 || b < 0 || a >= p->nranks || b >= p->nranks)
		peer = -1;
	p->peer = peer;
	if (peer >= 0)
		rc = run_pair(p, peer, false, true);
	int brc = MPI_Barrier(p->comm);
	return rc != MPI_SUCCESS ? rc : brc;
}

int probe_links_matched(struct probe_links *p, int peer)
{
	int partner = peer >= 0 && peer < p->nranks && peer != p->rank ? peer : -1;
	return run_pair(p, partner, true, true);
}

/* The partner of rank in round: the tournament's, or the plan's when there is one. */
static int partner_of(const struct probe_plan *plan, int nranks, int round, int rank)
{
	return plan ? probe_plan_partner(plan, round, rank)
	            : probe_tournament_partner(nranks, round, rank);
}

static int any_round(struct probe_links *p, const struct probe_plan *plan, int round,
                     enum probe_mode mode)
{
	int rc = MPI_SUCCESS, me = -1;
	if (mode == PROBE_CONCURRENT)
		return run_pair(p, partner_of(plan, p->nranks, round, p->rank), true,
		                p->nic_in_rounds);
	/* isolated: the pairs of the round one after the other, in order of lo */
	for (int lo = 0; lo < p->nranks; lo++) {
		int hi = partner_of(plan, p->nranks, round, lo);
		if (hi <= lo)
			continue;
		int prc = probe_links_isolated(p, lo, hi);
		if (rc == MPI_SUCCESS)
			rc = prc;
		if (p->rank == lo || p->rank == hi)
			me = p->rank == lo ? hi : lo;
	}
	p->peer = me;
	return rc;
}

int probe_links_round(struct probe_links *p, int round, enum probe_mode mode)
{
	return any_round(p, NULL, round, mode);
}

int probe_links_plan_round(struct probe_links *p, const struct probe_plan *plan, int round,
                           enum probe_mode mode)
{
	if (plan->nranks != p->nranks)
		return MPI_ERR_ARG;
	return any_round(p, plan, round, mode);
}

/*
 * One window of the shift: recv_msgs receives from shift_source and
 * send_msgs sends to shift_dest at once; *recv_s and *send_s get the time
 * until the last of each set completed.
 */
static int shift_window(struct probe_links *p, int send_msgs, int recv_msgs, double *send_s,
                        double *recv_s)
{
	int left_recv = recv_msgs, left_send = send_msgs, count = 0;
	double t0 = MPI_Wtime();
	int rc = post_window(p, p->shift_source, false, TAG_SHIFT, recv_msgs, p->reqs);
	if (rc == MPI_SUCCESS)
		rc = post_window(p, p->shift_dest, true, TAG_SHIFT, send_msgs, p->reqs + recv_msgs);
	*send_s = *recv_s = NAN;
	while (rc == MPI_SUCCESS && (left_recv > 0 || left_send > 0)) {
		rc = MPI_Waitsome(recv_msgs + send_msgs, p->reqs, &count, p->done,
		                  MPI_STATUSES_IGNORE);
		if (rc != MPI_SUCCESS || count == MPI_UNDEFINED)
			break;
		double t = MPI_Wtime() - t0;
		for (int i = 0; i < count; i++) {
			/* receives were posted first: indices below recv_msgs */
			if (p->done[i] < recv_msgs)
				left_recv--;
			else
				left_send--;
		}
		if (left_recv == 0 && isnan(*recv_s))
			*recv_s = t;
		if (left_send == 0 && isnan(*send_s))
			*send_s = t;
	}
	return rc;
}

/*
 * Rank 0 paces the step: the kind and end of every window from the slowest
 * rank's time (one probe_pace), and each rank's own message count from its
 * own sizing windows (the fastest of its sends, as probe_pace sizes), so that a
 * healthy pair in the step of a slow one keeps full windows: windows of one
 * message cost more per byte than full ones, and that would look slow.
 */
struct shift_step {
	struct probe_pace pace;
	double *fastest; /* rank 0: nranks, each rank's fastest sizing window */
	int *msgs;       /* nranks, broadcast: the messages each rank sends a window */
	bool failed;     /* rank 0: some rank failed a window */
};

static void shift_sizes(struct probe_links *p, struct shift_step *st)
{
	const struct probe_pace *c = &st->pace;
	double each = c->budget_s / (PROBE_PACE_MIN_WINDOWS + 1);
	for (int r = 0; r < p->nranks; r++) {
		double t = st->fastest[r];
		double fit = t > 0 ? each / t : (double)p->opts.window;
		int m = fit >= p->opts.window ? p->opts.window : fit >= 1 ? (int)fit : 1;
		/* never fewer than the slowest rank gets: the pace counts on those */
		st->msgs[r] = m > c->msgs ? m : c->msgs;
	}
}

/* Everyone learns the next window: word {kind, sending ranks' counts follow}, count 0: over. */
static int shift_pace(struct probe_links *p, struct shift_step *st, int *word)
{
	if (p->rank == 0) {
		int n = 0;
		enum probe_window_kind k =
		    st->failed ? PROBE_WINDOW_NONE : probe_pace_next(&st->pace, MPI_Wtime(), &n);
		word[0] = k == PROBE_WINDOW_NONE ? 0 : n;
		word[1] = (int)k;
		if (k == PROBE_WINDOW_SIZING || k == PROBE_WINDOW_NONE)
			for (int r = 0; r < p->nranks; r++)
				st->msgs[r] = word[0];
	}
	int rc = MPI_Bcast(word, 2, MPI_INT, 0, p->comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(st->msgs, p->nranks, MPI_INT, 0, p->comm);
	for (int r = 0; rc == MPI_SUCCESS && r < p->nranks; r++)
		if (st->msgs[r] < 0 || st->msgs[r] > p->opts.window)
			rc = MPI_ERR_COUNT;
	return rc;
}

/*
 * Rank 0: the window's times of every rank (SHIFT_TIMES each: the slower of
 * its sends and receives, whether it failed, its sends alone) into the pace
 * and the sizing. A rank's count is sized on its sends alone: a rank that
 * receives from a slow link still sends full windows to a healthy one.
 */
static void shift_done(struct probe_links *p, struct shift_step *st, const double *times, int kind)
{
	double worst = 0;
	for (int r = 0; r < p->nranks; r++) {
		const double *t = times + SHIFT_TIMES * r;
		worst = t[0] > worst ? t[0] : worst;
		st->failed = st->failed || t[1] > 0;
		if (kind == PROBE_WINDOW_SIZING && (st->pace.sizings == 0 || t[2] < st->fastest[r]))
			st->fastest[r] = t[2];
	}
	probe_pace_done(&st->pace, worst);
	if (kind == PROBE_WINDOW_SIZING && st->pace.sized)
		shift_sizes(p, st);
}

int probe_links_shift(struct probe_links *p, int d)
{
	struct shift_step st = {.fastest = p->shift_fastest, .msgs = p->shift_counts};
	int word[2] = {0, PROBE_WINDOW_NONE}, rc, brc;
	p->shift_dest = probe_shift_dest(p->nranks, d, p->rank);
	p->shift_source = probe_shift_source(p->nranks, d, p->rank);
	p->shift = (struct probe_windows){0};
	if (p->shift_dest < 0 || p->shift_source < 0)
		return MPI_ERR_ARG; /* the same d on every rank: all return here */
	rc = MPI_Barrier(p->comm);
	pace_start(p, &st.pace);
	for (int r = 0; r < p->nranks; r++)
		st.msgs[r] = st.pace.msgs; /* full windows, until a sizing says otherwise */
	/* every rank joins every broadcast and gather, also after a failed window:
	   rank 0 learns of it in the gather and ends the step */
	while ((brc = shift_pace(p, &st, word)) == MPI_SUCCESS && word[0] > 0) {
		double send_s, recv_s, mine[SHIFT_TIMES];
		int send_msgs = st.msgs[p->rank], recv_msgs = st.msgs[p->shift_source];
		int wrc = rc == MPI_SUCCESS ? shift_window(p, send_msgs, recv_msgs, &send_s, &recv_s)
		                            : rc;
		mine[0] = wrc == MPI_SUCCESS ? (send_s > recv_s ? send_s : recv_s) : 0;
		mine[1] = wrc != MPI_SUCCESS;
		mine[2] = wrc == MPI_SUCCESS ? send_s : 0;
		brc = MPI_Gather(mine, SHIFT_TIMES, MPI_DOUBLE, p->shift_times, SHIFT_TIMES, MPI_DOUBLE,
		                 0, p->comm);
		if (rc == MPI_SUCCESS)
			rc = wrc != MPI_SUCCESS ? wrc : brc;
		if (rc == MPI_SUCCESS && word[1] == PROBE_WINDOW_TIMED &&
		    p->shift.windows < p->opts.bw_iters) {
			p->shift_send_us[p->shift.windows] = full_window_us(p, send_s, send_msgs);
			p->shift_recv_us[p->shift.windows] = full_window_us(p, recv_s, recv_msgs);
			p->shift.windows++;
			p->shift.msgs = send_msgs;
		}
		if (p->rank == 0 && brc == MPI_SUCCESS)
			shift_done(p, &st, p->shift_times, word[1]);
		if (brc != MPI_SUCCESS)
			break;
	}
	if (rc == MPI_SUCCESS)
		rc = brc;
	p->shift.stopped_by_time = p->shift.windows < p->opts.bw_iters;
	return rc;
}
