/* See shm_pipe.h. */
#include <mpi.h>

#include "algorithms/schedule.h"
#include "algorithms/shm_pipe.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

/*
 * Tags: two per segment (its scatter and its gather), cycling. A leader
 * posts a segment's receives in segment order, its peers send in the same
 * order, and at most SHM_PIPE_DEPTH segments are in flight, so a tag comes
 * back only long after its last message was matched.
 */
enum { TAG_SEGMENTS = 8192, IDLE_SPINS = 1024 };

enum phase { FREE, SCATTER, GATHER, FINAL };

/* One segment in flight. */
struct flight {
	enum phase phase;
	size_t segment;
	MPI_Request *req; /* 2 (H - 1): receives, then sends */
	char *in;         /* H - 1 received chunks of the scatter */
};

/* The pipeline's view of one call. */
struct call {
	char *buf;
	size_t count, w, seg_n, nseg;
	enum ar_dtype t;
	enum ar_op op;
	MPI_Comm comm;
	int rank, n;
	size_t chunk_max; /* elements of the largest chunk of any segment */
};

size_t shm_pipe_segment_count(size_t w, int hosts)
{
	return SHM_PIPE_CHUNK_BYTES / w * (size_t)(hosts > 1 ? hosts : 1);
}

size_t shm_pipe_segments(size_t count, size_t w, int hosts)
{
	size_t seg = shm_pipe_segment_count(w, hosts);
	return (count + seg - 1) / seg;
}

size_t shm_pipe_segment_len(size_t count, size_t seg_n, size_t k)
{
	size_t first = k * seg_n;
	return count - first < seg_n ? count - first : seg_n;
}

void shm_pipe_scratch_release(struct shm_pipe_scratch *s)
{
	free(s->buf);
	free(s->req);
	*s = (struct shm_pipe_scratch){0};
}

static int grow(struct shm_pipe_scratch *s, size_t bytes, size_t nreq)
{
	if (bytes > s->bytes) {
		void *p = realloc(s->buf, bytes);
		if (!p)
			return MPI_ERR_NO_MEM;
		s->buf = p;
		s->bytes = bytes;
	}
	if (nreq > s->nreq) {
		MPI_Request *r = realloc(s->req, nreq * sizeof *r);
		if (!r)
			return MPI_ERR_NO_MEM;
		s->req = r;
		s->nreq = nreq;
	}
	return MPI_SUCCESS;
}

/* Where chunk j of segment k starts, and how many elements it has. */
static char *chunk_at(const struct call *c, size_t k, int j, size_t *len)
{
	size_t n = shm_pipe_segment_len(c->count, c->seg_n, k);
	*len = sched_part_count(n, (size_t)c->n, (size_t)j);
	return c->buf + (k * c->seg_n + sched_part_offset(n, (size_t)c->n, (size_t)j)) * c->w;
}

/* Leader j's place among the others (0 .. H-2). */
static int other(const struct call *c, int j)
{
	return j < c->rank ? j : j - 1;
}

static int tag(size_t k, int round)
{
	return (int)(k % TAG_SEGMENTS) * 2 + round;
}

/* Every other leader sends us our chunk of segment k; we send each its own. */
static int start_scatter(const struct call *c, struct flight *f, size_t k)
{
	size_t mine;
	chunk_at(c, k, c->rank, &mine);
	int rc = MPI_SUCCESS, others = c->n - 1;
	for (int j = 0; j < c->n; j++) {
		if (j == c->rank)
			continue;
		size_t len;
		char *theirs = chunk_at(c, k, j, &len);
		MPI_Request *r = &f->req[other(c, j)], *s = &f->req[others + other(c, j)];
		*r = *s = MPI_REQUEST_NULL;
		if (rc == MPI_SUCCESS && mine)
			rc = MPI_Irecv(f->in + (size_t)other(c, j) * c->chunk_max * c->w,
			               (int)(mine * c->w), MPI_BYTE, j, tag(k, 0), c->comm, r);
		if (rc == MPI_SUCCESS && len)
			rc = MPI_Isend(theirs, (int)(len * c->w), MPI_BYTE, j, tag(k, 0), c->comm,
			               s);
	}
	f->phase = SCATTER;
	f->segment = k;
	return rc;
}

/*
 * Our chunk of segment k combined in host order (leader 0's first), so that
 * every leader's chunk, and so every rank's result, has the same bits.
 */
static void combine(const struct call *c, const struct flight *f)
{
	size_t len;
	char *mine = chunk_at(c, f->segment, c->rank, &len);
	if (!len)
		return;
	const size_t stride = c->chunk_max * c->w;
	char *acc = c->rank == 0 ? mine : f->in; /* leader 0's chunk */
	for (int j = 1; j < c->n; j++) {
		const char *x = j == c->rank ? mine : f->in + (size_t)other(c, j) * stride;
		ar_reduce(acc, acc, x, len, c->t, c->op);
	}
	if (acc != mine)
		memcpy(mine, acc, len * c->w);
}

/* Send our combined chunk to every other leader, and receive theirs in place. */
static int start_gather(const struct call *c, struct flight *f)
{
	size_t mine;
	const char *ours = chunk_at(c, f->segment, c->rank, &mine);
	int rc = MPI_SUCCESS, others = c->n - 1;
	for (int j = 0; j < c->n; j++) {
		if (j == c->rank)
			continue;
		size_t len;
		char *theirs = chunk_at(c, f->segment, j, &len);
		MPI_Request *r = &f->req[other(c, j)], *s = &f->req[others + other(c, j)];
		*r = *s = MPI_REQUEST_NULL;
		if (rc == MPI_SUCCESS && len)
			rc = MPI_Irecv(theirs, (int)(len * c->w), MPI_BYTE, j, tag(f->segment, 1),
			               c->comm, r);
		if (rc == MPI_SUCCESS && mine)
			rc = MPI_Isend(ours, (int)(mine * c->w), MPI_BYTE, j, tag(f->segment, 1),
			               c->comm, s);
	}
	f->phase = GATHER;
	return rc;
}

/* Move f on if its round has completed; sets *moved when it did. */
static int advance(const struct call *c, struct flight *f, bool *moved)
{
	int flag = 0, rc = MPI_Testall(2 * (c->n - 1), f->req, &flag, MPI_STATUSES_IGNORE);
	if (rc != MPI_SUCCESS || !flag)
		return rc;
	*moved = true;
	if (f->phase == SCATTER) {
		combine(c, f);
		return start_gather(c, f);
	}
	f->phase = FINAL;
	return MPI_SUCCESS;
}

/* Segments before *published are final and passed to done. */
static int run(const struct call *c, struct flight *fl, const struct shm_pipe_hooks *h,
               size_t *published_out)
{
	size_t next = 0, published = 0;
	int rc = MPI_SUCCESS, idle = 0;
	while (rc == MPI_SUCCESS && published < c->nseg) {
		bool moved = false;
		struct flight *f = &fl[next % SHM_PIPE_DEPTH];
		if (next < c->nseg && f->phase == FREE && h->ready(h->ctx, next)) {
			rc = start_scatter(c, f, next++);
			moved = true;
		}
		for (int i = 0; rc == MPI_SUCCESS && i < SHM_PIPE_DEPTH; i++)
			if (fl[i].phase == SCATTER || fl[i].phase == GATHER)
				rc = advance(c, &fl[i], &moved);
		/* in segment order: the host's peers copy a segment once all before it are final */
		for (f = &fl[published % SHM_PIPE_DEPTH];
		     f->phase == FINAL && f->segment == published;
		     f = &fl[published % SHM_PIPE_DEPTH]) {
			h->done(h->ctx, published++);
			f->phase = FREE;
			moved = true;
		}
		/* nothing in flight and the host not ready: give the core to whoever sums it */
		idle = moved ? 0 : idle + 1;
		if (idle > IDLE_SPINS)
			sched_yield();
	}
	*published_out = published;
	return rc;
}

int shm_pipe_allreduce(void *buf, size_t count, enum ar_dtype t, enum ar_op op, MPI_Comm comm,
                       const struct shm_pipe_hooks *hooks, struct shm_pipe_scratch *scratch)
{
	struct call c = {
	    .buf = buf, .count = count, .t = t, .op = op, .comm = comm, .w = ar_dtype_bytes(t)};
	int rc = MPI_Comm_rank(comm, &c.rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(comm, &c.n);
	c.seg_n = shm_pipe_segment_count(c.w, c.n);
	c.nseg = shm_pipe_segments(count, c.w, c.n);
	const size_t others = rc == MPI_SUCCESS && c.n > 1 ? (size_t)c.n - 1 : 0;
	c.chunk_max = sched_part_count(c.seg_n, (size_t)(c.n > 0 ? c.n : 1), 0);
	if (rc == MPI_SUCCESS && others)
		rc = grow(scratch, SHM_PIPE_DEPTH * others * c.chunk_max * c.w,
		          SHM_PIPE_DEPTH * 2 * others);
	size_t published = 0;
	if (rc == MPI_SUCCESS && others) {
		struct flight fl[SHM_PIPE_DEPTH];
		for (int i = 0; i < SHM_PIPE_DEPTH; i++)
			fl[i] = (struct flight){.phase = FREE,
			                        .req = scratch->req + (size_t)i * 2 * others,
			                        .in = (char *)scratch->buf +
			                              (size_t)i * others * c.chunk_max * c.w};
		rc = run(&c, fl, hooks, &published);
	}
	/* one leader (the host's sum is the result), or an error: the peers must not wait */
	for (size_t k = published; k < c.nseg; k++) {
		while (rc == MPI_SUCCESS && !hooks->ready(hooks->ctx, k))
			sched_yield();
		hooks->done(hooks->ctx, k);
	}
	return rc;
}
