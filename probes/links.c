/*
 * Latency ping-pong and windowed bandwidth between pairs: see links.h.
 * Every timed loop uses buffers and requests allocated by probe_links_init;
 * nothing is allocated while timing.
 */
#include <mpi.h>

#include "cpu_wait.h"
#include "links.h"
#include "tournament.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_LAT = 4101, TAG_BW, TAG_ACK, TAG_BIDIR };

enum phase { PH_LAT_LO, PH_LAT_HI, PH_BW_LO, PH_BW_HI, PH_BIDIR, PH_COUNT };

void probe_links_release(struct probe_links *p)
{
	free(p->send_buf);
	free(p->recv_buf);
	free(p->reqs);
	free(p->lat_us);
	free(p->window_us);
	free(p->bidir_us);
	memset(p, 0, sizeof *p);
	p->peer = -1;
}

int probe_links_init(struct probe_links *p, MPI_Comm comm, const struct probe_link_opts *o)
{
	memset(p, 0, sizeof *p);
	p->opts = *o;
	p->comm = comm;
	p->peer = -1;
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
	p->lat_us = calloc((size_t)o->lat_iters, sizeof *p->lat_us);
	p->window_us = calloc((size_t)o->bw_iters, sizeof *p->window_us);
	p->bidir_us = calloc((size_t)o->bw_iters, sizeof *p->bidir_us);
	if (!p->send_buf || !p->recv_buf || !p->reqs || !p->lat_us || !p->window_us ||
	    !p->bidir_us) {
		probe_links_release(p);
		return MPI_ERR_NO_MEM;
	}
	/* fault every page in now, not in the first timed iteration */
	memset(p->send_buf, 0x5A, bytes);
	memset(p->recv_buf, 0, bytes);
	return MPI_SUCCESS;
}

/* Ping-pong: the starter keeps half of each round trip. */
static int ping_pong(struct probe_links *p, int peer, bool starter)
{
	const int bytes = (int)p->opts.lat_bytes;
	int rc = MPI_SUCCESS;
	for (int it = -p->opts.lat_warmup; it < p->opts.lat_iters && rc == MPI_SUCCESS; it++) {
		if (!starter) {
			rc = MPI_Recv(p->recv_buf, bytes, MPI_BYTE, peer, TAG_LAT, p->comm,
			              MPI_STATUS_IGNORE);
			if (rc == MPI_SUCCESS)
				rc = MPI_Send(p->send_buf, bytes, MPI_BYTE, peer, TAG_LAT, p->comm);
			continue;
		}
		double t0 = MPI_Wtime();
		rc = MPI_Send(p->send_buf, bytes, MPI_BYTE, peer, TAG_LAT, p->comm);
		if (rc == MPI_SUCCESS)
			rc = MPI_Recv(p->recv_buf, bytes, MPI_BYTE, peer, TAG_LAT, p->comm,
			              MPI_STATUS_IGNORE);
		double t = MPI_Wtime() - t0;
		if (it >= 0)
			p->lat_us[it] = t * 1e6 / 2;
	}
	return rc;
}

/* Post one window of sends (or receives) of bw_bytes into reqs. */
static int post_window(struct probe_links *p, int peer, bool send, int tag, MPI_Request *reqs)
{
	const int bytes = (int)p->opts.bw_bytes;
	int rc = MPI_SUCCESS;
	for (int w = 0; w < p->opts.window && rc == MPI_SUCCESS; w++)
		rc = send ? MPI_Isend(p->send_buf, bytes, MPI_BYTE, peer, tag, p->comm, &reqs[w])
		          : MPI_Irecv(p->recv_buf, bytes, MPI_BYTE, peer, tag, p->comm, &reqs[w]);
	return rc;
}

/* One direction: the sender times a window and the receiver's acknowledgement. */
static int one_way(struct probe_links *p, int peer, bool sender)
{
	int rc = MPI_SUCCESS;
	for (int it = -p->opts.bw_warmup; it < p->opts.bw_iters && rc == MPI_SUCCESS; it++) {
		double t0 = MPI_Wtime();
		rc = post_window(p, peer, sender, TAG_BW, p->reqs);
		if (rc == MPI_SUCCESS)
			rc = MPI_Waitall(p->opts.window, p->reqs, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS)
			rc = sender ? MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_ACK, p->comm,
			                       MPI_STATUS_IGNORE)
			            : MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_ACK, p->comm);
		double t = MPI_Wtime() - t0;
		if (sender && it >= 0)
			p->window_us[it] = t * 1e6;
	}
	return rc;
}

/* Both directions at once; each side times its own exchange. */
static int both_ways(struct probe_links *p, int peer)
{
	const int window = p->opts.window;
	int rc = MPI_SUCCESS;
	for (int it = -p->opts.bw_warmup; it < p->opts.bw_iters && rc == MPI_SUCCESS; it++) {
		double t0 = MPI_Wtime();
		rc = post_window(p, peer, false, TAG_BIDIR, p->reqs);
		if (rc == MPI_SUCCESS)
			rc = post_window(p, peer, true, TAG_BIDIR, p->reqs + window);
		if (rc == MPI_SUCCESS)
			rc = MPI_Waitall(2 * window, p->reqs, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS)
			rc = MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, TAG_ACK, NULL, 0, MPI_BYTE, peer,
			                  TAG_ACK, p->comm, MPI_STATUS_IGNORE);
		double t = MPI_Wtime() - t0;
		if (it >= 0)
			p->bidir_us[it] = t * 1e6;
	}
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
 * ranks after each phase, made even after an error.
 */
static int run_pair(struct probe_links *p, int peer, bool sync)
{
	int rc = MPI_SUCCESS;
	uint64_t waited = 0;
	double busy = 0;
	bool known = peer >= 0;
	p->peer = peer;
	for (int ph = 0; ph < PH_COUNT; ph++) {
		/* the pair's own time and waits only: the barriers are left out */
		uint64_t w0 = 0, w1 = 0;
		known = known && probe_cpu_wait_ns(&w0);
		double t = MPI_Wtime();
		if (rc == MPI_SUCCESS && peer >= 0)
			rc = run_phase(p, peer, (enum phase)ph);
		busy += MPI_Wtime() - t;
		known = known && probe_cpu_wait_ns(&w1) && w1 >= w0;
		waited += known ? w1 - w0 : 0;
		if (sync) {
			int brc = MPI_Barrier(p->comm);
			if (rc == MPI_SUCCESS)
				rc = brc;
		}
	}
	p->cpu_wait_share = known ? probe_cpu_wait_share(waited, busy) : NAN;
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
		rc = run_pair(p, peer, false);
	int brc = MPI_Barrier(p->comm);
	return rc != MPI_SUCCESS ? rc : brc;
}

int probe_links_round(struct probe_links *p, int round, enum probe_mode mode)
{
	int rc = MPI_SUCCESS, me = -1;
	if (mode == PROBE_CONCURRENT)
		return run_pair(p, probe_tournament_partner(p->nranks, round, p->rank), true);
	/* isolated: the pairs of the round one after the other, in order of lo */
	for (int lo = 0; lo < p->nranks; lo++) {
		int hi = probe_tournament_partner(p->nranks, round, lo);
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
