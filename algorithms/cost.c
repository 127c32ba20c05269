/* See cost.h. */
#include "algorithms/cost.h"

#include <string.h>

size_t cost_segment_count(size_t segment_bytes, size_t elem_bytes)
{
	size_t n = elem_bytes ? segment_bytes / elem_bytes : segment_bytes;
	return n ? n : 1;
}

void cost_of_sched(const struct sched *s, size_t elem_bytes, struct cost_path *out)
{
	memset(out, 0, sizeof *out);
	out->busiest_rank = s->rank;
	out->one_rank = true;
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct sched_step *st = &s->steps[i];
		uint64_t sent = st->send_peer >= 0 ? (uint64_t)st->send_count * elem_bytes : 0;
		uint64_t recv = st->recv_peer >= 0 ? (uint64_t)st->recv_count * elem_bytes : 0;
		out->messages++;
		out->bytes += sent > recv ? sent : recv;
		out->bytes_sent += sent;
		if (st->action == SCHED_REDUCE)
			out->reduced_bytes += recv;
	}
}

/* Fold one rank's sums into the running maximum; track whether one rank holds every maximum. */
static void fold_max(struct cost_path *max, const struct cost_path *r, bool first)
{
	if (first) {
		*max = *r;
		return;
	}
	bool more_m = r->messages > max->messages, more_b = r->bytes > max->bytes;
	bool more_s = r->bytes_sent > max->bytes_sent,
	     more_r = r->reduced_bytes > max->reduced_bytes;
	bool eq = r->messages == max->messages && r->bytes == max->bytes &&
	          r->bytes_sent == max->bytes_sent && r->reduced_bytes == max->reduced_bytes;
	bool dominates = !eq && r->messages >= max->messages && r->bytes >= max->bytes &&
	                 r->bytes_sent >= max->bytes_sent && r->reduced_bytes >= max->reduced_bytes;
	bool dominated = r->messages <= max->messages && r->bytes <= max->bytes &&
	                 r->bytes_sent <= max->bytes_sent && r->reduced_bytes <= max->reduced_bytes;
	if (dominates) {
		/* this rank holds every maximum so far: its path is the one path */
		*max = *r;
		return;
	}
	if (dominated)
		return;
	/* neither dominates: the maxima now come from different ranks */
	max->one_rank = false;
	if (more_m) {
		max->messages = r->messages;
		max->busiest_rank = r->busiest_rank;
	}
	if (more_b)
		max->bytes = r->bytes;
	if (more_s)
		max->bytes_sent = r->bytes_sent;
	if (more_r)
		max->reduced_bytes = r->reduced_bytes;
}

/* The next rank of the sample after r (see cost.h), or n when done. */
static int next_sampled(int r, int n)
{
	for (int c = r + 1; c < n; c++) {
		bool pick = c < 4 || c >= n - 3 || c == n / 2 - 1 || c == n / 2 || c == n / 2 + 1;
		/* 64 evenly spaced: c is the first rank at or past i n / 64 */
		pick = pick || (int64_t)c * 64 / n != (int64_t)(c - 1) * 64 / n;
		for (int64_t p = 1; !pick && p <= n; p *= 2)
			pick = c == p - 1 || c == p || c == p + 1;
		if (pick)
			return c;
	}
	return n;
}

int cost_walk(const struct ar_variant *v, int nranks, size_t count, size_t elem_bytes,
              size_t segment_bytes, uint64_t max_steps, struct cost_path *out)
{
	return cost_walk_collective(v, AR_ALLREDUCE, nranks, count, elem_bytes, segment_bytes,
	                            max_steps, out);
}

int cost_walk_collective(const struct ar_variant *v, enum ar_collective c, int nranks,
                         size_t count, size_t elem_bytes, size_t segment_bytes, uint64_t max_steps,
                         struct cost_path *out)
{
	sched_build_fn build = v ? ar_collective_build(v, c) : NULL;
	struct sched s;
	struct cost_path r;
	size_t seg = cost_segment_count(segment_bytes, elem_bytes);
	bool sample = false;
	int rc = -1, walked = 0;
	memset(out, 0, sizeof *out);
	out->one_rank = true;
	if (!build || nranks < 1)
		return -1;
	sched_init(&s, 0, nranks, count, seg);
	for (int rank = 0; rank < nranks; rank = sample ? next_sampled(rank, nranks) : rank + 1) {
		sched_reset(&s, rank, nranks, count, seg);
		if (build(&s) != 0)
			goto out;
		/*
		 * rank 0 tells how long the whole walk would take: its steps, plus
		 * about nranks of work per rank that builders spend looping over
		 * peers even when most transfers are empty (a ring of 2 elements)
		 */
		if (rank == 0 && max_steps &&
		    ((uint64_t)s.nsteps + (uint64_t)nranks) * (uint64_t)nranks > max_steps)
			sample = true;
		cost_of_sched(&s, elem_bytes, &r);
		fold_max(out, &r, rank == 0);
		walked++;
	}
	out->sampled = sample;
	out->ranks_walked = walked;
	rc = 0;
out:
	sched_release(&s);
	return rc;
}
