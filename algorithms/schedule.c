/*
 * Schedule storage and the helpers every builder shares: appending steps
 * (dropping empty halves), cutting transfers into segments, and the balanced
 * split of a buffer into parts. Pure: no MPI, no I/O.
 */
#include "algorithms/schedule.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SCHED_FIRST_CAP = 16 };

void sched_init(struct sched *s, int rank, int nranks, size_t count, size_t segment_count)
{
	memset(s, 0, sizeof *s);
	sched_reset(s, rank, nranks, count, segment_count);
}

void sched_release(struct sched *s)
{
	free(s->steps);
	s->steps = NULL;
	s->nsteps = 0;
	s->cap = 0;
	s->max_recv_count = 0;
}

void sched_reset(struct sched *s, int rank, int nranks, size_t count, size_t segment_count)
{
	s->rank = rank;
	s->nranks = nranks;
	s->count = count;
	/* the contract says >= 1; 0 would make every message empty, so treat it as 1 */
	s->segment_count = segment_count ? segment_count : 1;
	s->copy_input_first = false;
	s->copy_offset = 0;
	s->copy_count = count;
	s->halves = false;
	s->ag_first_step = 0;
	s->nsteps = 0;
	s->max_recv_count = 0;
}

/* Make room for one more step: doubling keeps appends amortised O(1). */
static int grow(struct sched *s)
{
	size_t cap_new;
	struct sched_step *steps_new;
	if (s->nsteps < s->cap)
		return 0;
	cap_new = s->cap ? s->cap * 2 : SCHED_FIRST_CAP;
	if (cap_new < s->cap || cap_new > SIZE_MAX / sizeof *steps_new)
		return -1;
	steps_new = realloc(s->steps, cap_new * sizeof *steps_new);
	if (!steps_new)
		return -1;
	s->steps = steps_new;
	s->cap = cap_new;
	return 0;
}

int sched_add(struct sched *s, const struct sched_step *step)
{
	struct sched_step st = *step;
	if (st.send_peer < 0 || st.send_count == 0) {
		st.send_peer = -1;
		st.send_count = 0;
	}
	if (st.recv_peer < 0 || st.recv_count == 0) {
		st.recv_peer = -1;
		st.recv_count = 0;
	}
	if (st.send_peer < 0 && st.recv_peer < 0)
		return 0;
	if (grow(s) != 0)
		return -1;
	s->steps[s->nsteps++] = st;
	if (st.recv_count > s->max_recv_count)
		s->max_recv_count = st.recv_count;
	return 0;
}

/* Segments of at most seg elements needed for count elements sent to peer. */
static size_t segments_of(int peer, size_t count, size_t seg)
{
	if (peer < 0 || count == 0)
		return 0;
	return count / seg + (count % seg != 0);
}

int sched_add_segmented(struct sched *s, int send_peer, size_t send_offset, size_t send_count,
                        int recv_peer, size_t recv_offset, size_t recv_count,
                        const struct sched_step *tmpl)
{
	size_t seg = s->segment_count;
	size_t nsend = segments_of(send_peer, send_count, seg);
	size_t nrecv = segments_of(recv_peer, recv_count, seg);
	size_t nsteps = nsend > nrecv ? nsend : nrecv;
	for (size_t k = 0; k < nsteps; k++) {
		struct sched_step st = *tmpl;
		size_t skip = k * seg;
		st.send_peer = k < nsend ? send_peer : -1;
		st.send_offset = send_offset + (k < nsend ? skip : 0);
		st.send_count = k < nsend ? (send_count - skip < seg ? send_count - skip : seg) : 0;
		st.recv_peer = k < nrecv ? recv_peer : -1;
		st.recv_offset = recv_offset + (k < nrecv ? skip : 0);
		st.recv_count = k < nrecv ? (recv_count - skip < seg ? recv_count - skip : seg) : 0;
		if (sched_add(s, &st) != 0)
			return -1;
	}
	return 0;
}

size_t sched_part_offset(size_t count, size_t parts, size_t i)
{
	size_t base, extra;
	if (parts == 0)
		return 0;
	base = count / parts;
	extra = count % parts;
	/* the first `extra` parts hold one element more */
	return i * base + (i < extra ? i : extra);
}

size_t sched_part_count(size_t count, size_t parts, size_t i)
{
	if (parts == 0 || i >= parts)
		return 0;
	return count / parts + (i < count % parts);
}

int sched_pow2_floor(int n)
{
	int p = 1;
	if (n < 1)
		return 0;
	while (p <= n / 2)
		p *= 2;
	return p;
}

int sched_fold_vrank(int r, int rem)
{
	if (r < 2 * rem)
		return r % 2 ? r / 2 : -1;
	return r - rem;
}

int sched_fold_rank(int v, int rem)
{
	return v < rem ? 2 * v + 1 : v + rem;
}

int sched_add_fold(struct sched *s)
{
	struct sched_step tmpl = {
	    .action = SCHED_REDUCE, .send_from_input = true, .reduce_from_input = true};
	if (s->rank % 2 == 0)
		return sched_add_segmented(s, s->rank + 1, 0, s->count, -1, 0, 0, &tmpl);
	return sched_add_segmented(s, -1, 0, 0, s->rank - 1, 0, s->count, &tmpl);
}

int sched_add_unfold(struct sched *s)
{
	struct sched_step tmpl = {.action = SCHED_COPY};
	if (s->rank % 2 == 0)
		return sched_add_segmented(s, -1, 0, 0, s->rank + 1, 0, s->count, &tmpl);
	return sched_add_segmented(s, s->rank - 1, 0, s->count, -1, 0, 0, &tmpl);
}

int sched_build_folded(struct sched *s, sched_folded_core core)
{
	if (s->nranks <= 1) {
		s->copy_input_first = true;
		return 0;
	}
	if (s->count == 0)
		return 0;
	int p = sched_pow2_floor(s->nranks), rem = s->nranks - p;
	bool folded = s->rank < 2 * rem;
	if (folded && sched_add_fold(s) != 0)
		return -1;
	if (sched_fold_vrank(s->rank, rem) >= 0 && core(s, p, rem, folded) != 0)
		return -1;
	if (folded && sched_add_unfold(s) != 0)
		return -1;
	return 0;
}

void sched_copy_own_chunk(struct sched *s)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank;
	s->copy_input_first = true;
	s->copy_offset = sched_part_offset(s->count, n, r);
	s->copy_count = sched_part_count(s->count, n, r);
}

int sched_build_halves(struct sched *s, sched_build_fn rs, sched_build_fn ag)
{
	if (s->nranks <= 1) {
		s->copy_input_first = true;
		return 0;
	}
	if (s->count == 0)
		return 0;
	if (rs(s) != 0)
		return -1;
	s->halves = true;
	s->ag_first_step = s->nsteps;
	return ag(s);
}
