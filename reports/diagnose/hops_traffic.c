/* Another job's traffic, told from a slow hop: see hops.h. */
#include "reports/diagnose/hops.h"

#include <math.h>
#include <stdlib.h>

#include "reports/stats/stats.h"

void hops_cross_host_bytes(const struct hops_step *steps, size_t n, const int *host_of_rank,
                           int nranks, double *own)
{
	for (int q = 0; q < nranks; q++)
		own[q] = 0;
	for (size_t i = 0; i < n; i++) {
		const struct hops_step *s = &steps[i];
		if (s->rank < 0 || s->rank >= nranks)
			continue;
		int h = host_of_rank[s->rank];
		if (s->send_peer >= 0 && s->send_peer < nranks && host_of_rank[s->send_peer] != h)
			own[s->rank] += (double)s->send_bytes;
		if (s->recv_peer >= 0 && s->recv_peer < nranks && host_of_rank[s->recv_peer] != h)
			own[s->rank] += (double)s->recv_bytes;
	}
}

/*
 * Host h's counters (the median of its ranks' readings: they read the same ones) and its
 * ranks' own traced bytes: 1, 0 when it has no rank here or no bytes of its own, -1 when a
 * reading is missing.
 */
static int host_reading(const double *counted, const double *own, const int *host_of_rank,
                        int nranks, int h, double *scratch, double *bytes, double *mine)
{
	int count = 0;
	*mine = 0;
	for (int q = 0; q < nranks; q++) {
		if (host_of_rank[q] != h)
			continue;
		if (isnan(counted[q]))
			return -1;
		scratch[count++] = counted[q];
		*mine += own[q];
	}
	if (!count || !(*mine > 0))
		return 0;
	*bytes = stats_median(scratch, (size_t)count);
	return isnan(*bytes) ? -1 : 1;
}

int hops_host_other_gbps(const double *counted, const double *own, const int *host_of_rank,
                         int nranks, int nhosts, double wall_s, double *other_gbps)
{
	if (!counted || !own || !host_of_rank || !other_gbps || nranks < 1 || nhosts < 1)
		return -1;
	for (int h = 0; h < nhosts; h++)
		other_gbps[h] = NAN;
	for (int q = 0; q < nranks; q++)
		if (host_of_rank[q] < 0 || host_of_rank[q] >= nhosts)
			return 0; /* a host not known: nothing to compare */
	double *scratch = malloc((size_t)nranks * sizeof *scratch);
	double *bytes = malloc((size_t)nhosts * sizeof *bytes);
	double *mine = malloc((size_t)nhosts * sizeof *mine);
	double *ratio = malloc((size_t)nhosts * sizeof *ratio);
	int used = 0, rc = scratch && bytes && mine && ratio ? 0 : -1;
	bool known = rc == 0 && wall_s > 0;
	for (int h = 0; known && h < nhosts; h++) {
		int got = host_reading(counted, own, host_of_rank, nranks, h, scratch, &bytes[h],
		                       &mine[h]);
		if (got < 0)
			known = false;
		else if (got == 0)
			mine[h] = NAN; /* not one of the collective's hosts across the network */
		else
			ratio[used++] = bytes[h] / mine[h];
	}
	if (known && used >= 3) {
		/* counted per traced byte: the calls not traced, the frames' overhead; one for all */
		double per = stats_median(ratio, (size_t)used);
		for (int h = 0; h < nhosts; h++)
			if (!isnan(mine[h]))
				other_gbps[h] = fmax(0, bytes[h] - per * mine[h]) / wall_s / 1e9;
	}
	free(scratch);
	free(bytes);
	free(mine);
	free(ratio);
	return rc;
}

/* Does other traffic of other_gbps make up hop h's deficit against its peers? */
static bool explains(const struct hops_hop *h, double other_gbps, double tolerance)
{
	if (isnan(other_gbps) || !(h->hop_time_us > 0) || !(h->median_hop_us > 0) ||
	    !(h->message_bytes > 0))
		return false;
	/* bytes per microsecond are 1e-3 GB/s */
	double rate = h->message_bytes / h->hop_time_us * 1e-3;
	double peers = h->message_bytes / h->median_hop_us * 1e-3;
	return rate + other_gbps >= (1 - tolerance) * peers;
}

/* Hop i into the named hops, when it is not there yet. */
static int name_hop(struct hops_result *r, size_t i)
{
	for (size_t k = 0; k < r->nnamed; k++)
		if (r->named[k] == i)
			return 0;
	if (!r->named && !(r->named = calloc(r->nhops, sizeof *r->named)))
		return -1;
	r->named[r->nnamed++] = i;
	return 0;
}

/* A rank named for its hops whose slow hops are no longer most of them: its slow hops apart. */
static int recount_ranks(struct hops_result *r)
{
	size_t kept = 0;
	for (size_t k = 0; k < r->nranks; k++) {
		struct hops_rank *rank = &r->ranks[k];
		int slow = 0, total = 0;
		for (size_t i = 0; rank->reason == HOPS_RANK_HOPS && i < r->nhops; i++) {
			const struct hops_hop *h = &r->hops[i];
			if (h->judged && (h->from_rank == rank->rank || h->to_rank == rank->rank)) {
				total++;
				slow += h->slow;
			}
		}
		if (rank->reason != HOPS_RANK_HOPS || 2 * slow > total) {
			r->ranks[kept++] = *rank;
			continue;
		}
		for (size_t i = 0; i < r->nhops; i++) {
			const struct hops_hop *h = &r->hops[i];
			if (h->slow && (h->from_rank == rank->rank || h->to_rank == rank->rank) &&
			    name_hop(r, i) != 0)
				return -1;
		}
	}
	r->nranks = kept;
	return 0;
}

int hops_clear_traffic(struct hops_result *r, const int *host_of_rank, const double *other_gbps,
                       const struct hops_params *p)
{
	int cleared = 0;
	if (!host_of_rank || !other_gbps)
		return 0;
	for (size_t i = 0; i < r->nhops; i++) {
		struct hops_hop *h = &r->hops[i];
		if ((!h->slow && !h->suspect) || h->locality != HOPS_CROSS_HOST)
			continue;
		double other =
		    fmax(other_gbps[host_of_rank[h->from_rank]], other_gbps[host_of_rank[h->to_rank]]);
		h->other_traffic_gbps = other;
		if (!explains(h, other, p->traffic_tolerance))
			continue;
		r->nsuspects -= h->suspect;
		h->slow = h->suspect = false;
		h->traffic_cleared = true;
		cleared++;
	}
	size_t kept = 0;
	for (size_t k = 0; k < r->nnamed; k++)
		if (r->hops[r->named[k]].slow)
			r->named[kept++] = r->named[k];
	r->nnamed = kept;
	return cleared && recount_ranks(r) != 0 ? -1 : cleared;
}

int hops_clear_busy_reducers(struct hops_result *r, const int *host_of_rank,
                             const double *other_gbps, const double *own_bytes, int nranks,
                             double wall_s, const struct hops_params *p)
{
	if (!host_of_rank || !other_gbps || !own_bytes || !(wall_s > 0))
		return 0;
	size_t kept = 0;
	int cleared = 0;
	for (size_t i = 0; i < r->nrank_suspects; i++) {
		const struct hops_rank *k = &r->rank_suspects[i];
		int h = host_of_rank[k->rank];
		double own = 0;
		for (int q = 0; q < nranks; q++)
			own += host_of_rank[q] == h ? own_bytes[q] : 0;
		double other = other_gbps[h], own_gbps = own / wall_s * 1e-9;
		if (other >= p->traffic_tolerance * own_gbps && other > 0) {
			r->nsuspects--;
			cleared++;
			continue;
		}
		r->rank_suspects[kept++] = *k;
	}
	r->nrank_suspects = kept;
	return cleared;
}

int hops_clear_waiting_reducers(struct hops_result *r, const double *wait_share, int nranks,
                                const struct hops_params *p)
{
	if (!r->nrank_suspects)
		return 0;
	double *w = malloc((size_t)(nranks > 0 ? nranks : 1) * sizeof *w);
	size_t k = 0;
	if (!w || !wait_share)
		goto out;
	for (int q = 0; q < nranks; q++)
		if (wait_share[q] >= 0 && wait_share[q] < 1)
			w[k++] = wait_share[q];
	double w0 = k ? stats_median(w, k) : NAN;
	size_t kept = 0;
	for (size_t i = 0; i < r->nrank_suspects; i++) {
		const struct hops_rank *s = &r->rank_suspects[i];
		double wq = wait_share[s->rank];
		/* its rate had it run as the typical rank ran: its time x (1 - wq) / (1 - w0) */
		if (k && wq > w0 && wq < 1 &&
		    s->ratio * (1 - wq) / (1 - w0) < p->reduce_min_ratio) {
			r->nsuspects--;
			continue;
		}
		r->rank_suspects[kept++] = *s;
	}
	r->nrank_suspects = kept;
out:
	free(w);
	return w ? (int)k : -1;
}
