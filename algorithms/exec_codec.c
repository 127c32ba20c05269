/*
 * See exec_codec.h. The receive of step k+1 is posted before step k's
 * decode, as in executor.c; here it is always safe: receives land in one of
 * two wire buffers, never in the result.
 */
#include <mpi.h>

#include "algorithms/exec_codec.h"
#include "algorithms/progress.h"

#include <stdlib.h>
#include <string.h>

enum { EXEC_CODEC_TAG = 7302, ALIGN = 64 };

int exec_codec_state_resize(struct exec_codec_state **st, size_t count)
{
	if (!*st && !(*st = calloc(1, sizeof **st)))
		return -1;
	if ((*st)->count != count || !(*st)->residual) {
		float *r = realloc((*st)->residual, (count ? count : 1) * sizeof(float));
		if (!r)
			return -1;
		(*st)->residual = r;
		(*st)->count = count;
	}
	memset((*st)->residual, 0, count * sizeof(float));
	(*st)->calls = 0;
	return 0;
}

void exec_codec_state_free(struct exec_codec_state **st)
{
	if (*st)
		free((*st)->residual);
	free(*st);
	*st = NULL;
}

static size_t aligned(size_t n)
{
	return (n + ALIGN - 1) / ALIGN * ALIGN;
}

/* A wire buffer: at least every codec's bound (top-k at ratio 0.5: 8 ceil(m/2) bytes). */
static size_t wire_cap(size_t m)
{
	return aligned(4 * m + 16);
}

size_t exec_codec_scratch_bytes(size_t m)
{
	/* two receive wires, a send wire, the codec's work, and two float segments */
	return 3 * wire_cap(m) + aligned(codec_work_bytes(m)) + 2 * aligned(m * sizeof(float));
}

/* The call's scratch, cut up. */
struct bufs {
	char *rwire[2], *swire;
	void *work;
	float *tmp, *tmp2;
};

static struct bufs cut(void *scratch, size_t m)
{
	char *p = scratch;
	struct bufs b = {.rwire = {p, p + wire_cap(m)}, .swire = p + 2 * wire_cap(m)};
	b.work = b.swire + wire_cap(m);
	b.tmp = (float *)((char *)b.work + aligned(codec_work_bytes(m)));
	b.tmp2 = (float *)((char *)b.tmp + aligned(m * sizeof(float)));
	return b;
}

struct run {
	const struct exec_plan *p;
	const struct ar_call *c;
	const struct ar_codec *codec;
	struct bufs b;
	float *resid; /* error feedback's residual, or NULL */
	uint64_t seed;
	size_t sent;          /* bytes of the last send */
	struct trace_entry e; /* --trace: the step's entry */
};

/* x + residual into tmp (error feedback), or x itself. */
static const float *with_residual(const struct run *r, const float *x, size_t off, size_t n)
{
	if (!r->resid)
		return x;
	for (size_t i = 0; i < n; i++)
		r->b.tmp[i] = x[i] + r->resid[off + i];
	return r->b.tmp;
}

/* Encode and send [off, +n) of src (input or result); residual kept when from the input. */
static int send_range(struct run *r, const float *base, bool from_input, size_t off, size_t n,
                      int peer, MPI_Request *req)
{
	const float *src = from_input ? with_residual(r, base + off, off, n) : base + off;
	size_t bytes =
	    r->codec->encode(r->b.swire, src, n, r->c->codec_cfg, r->seed ^ off, r->b.work);
	if (r->resid && from_input &&
	    codec_residual(r->codec, r->resid + off, src, r->b.swire, bytes, n, r->b.tmp2) != 0)
		return MPI_ERR_INTERN;
	r->sent = bytes;
	if (r->c->tally) {
		r->c->tally->wire_bytes += bytes;
		r->c->tally->logical_bytes += n * sizeof(float);
	}
	return MPI_Isend(r->b.swire, (int)bytes, MPI_BYTE, peer, EXEC_CODEC_TAG, r->c->comm, req);
}

static int post_recv(const struct run *r, const struct sched_step *st, char *wire, MPI_Request *req)
{
	size_t cap = r->codec->wire_bound(st->recv_count, r->c->codec_cfg);
	return MPI_Irecv(wire, (int)cap, MPI_BYTE, st->recv_peer, EXEC_CODEC_TAG, r->c->comm, req);
}

/* Decode a received range: added to its left operand (reduce) or into the result (copy). */
static int land(struct run *r, const struct sched_step *st, const char *wire, int bytes)
{
	const float *in = r->c->input;
	float *res = r->c->result, *out = res + st->recv_offset;
	const float *lhs = NULL;
	if (st->action == SCHED_REDUCE) {
		lhs = (st->reduce_from_input ? in : res) + st->recv_offset;
		if (r->resid && st->reduce_from_input) {
			/* the residual joins this rank's own share, once */
			float *e = r->resid + st->recv_offset;
			for (size_t i = 0; i < st->recv_count; i++) {
				out[i] = lhs[i] + e[i];
				e[i] = 0;
			}
			lhs = out;
		}
	}
	return r->codec->decode(out, lhs, wire, (size_t)bytes, st->recv_count) == 0
	           ? MPI_SUCCESS
	           : MPI_ERR_TRUNCATE;
}

/* The owned chunk through the codec in place, in the segments the all-gather sends. */
static int round_own(struct run *r)
{
	const struct sched *s = &r->p->sched;
	size_t n = (size_t)s->nranks, off = sched_part_offset(s->count, n, (size_t)s->rank);
	size_t end = off + sched_part_count(s->count, n, (size_t)s->rank);
	float *res = r->c->result;
	for (size_t o = off; o < end; o += s->segment_count) {
		size_t m = end - o < s->segment_count ? end - o : s->segment_count;
		size_t bytes = r->codec->encode(r->b.swire, res + o, m, r->c->codec_cfg,
		                                r->seed ^ ~o, r->b.work);
		if (r->resid && codec_residual(r->codec, r->b.tmp, res + o, r->b.swire, bytes, m,
		                               r->b.tmp2) != 0)
			return MPI_ERR_INTERN;
		for (size_t i = 0; r->resid && i < m; i++)
			r->resid[o + i] += r->b.tmp[i];
		if (r->codec->decode(res + o, NULL, r->b.swire, bytes, m) != 0)
			return MPI_ERR_INTERN;
	}
	return MPI_SUCCESS;
}

/* --trace: step k's entry, as executor.c writes them; the bytes are the wire's. */
static void trace_step(const struct run *r, size_t k, struct trace_entry *e, int recv_bytes)
{
	const struct sched *s = &r->p->sched;
	const struct sched_step *st = &s->steps[k];
	e->end_ns = trace_now_ns();
	e->step = (int)k;
	e->half = !s->halves             ? TRACE_HALF_NONE
	          : k < s->ag_first_step ? TRACE_HALF_REDUCE_SCATTER
	                                 : TRACE_HALF_ALLGATHER;
	e->send_peer = st->send_peer;
	e->recv_peer = st->recv_peer;
	e->send_bytes = st->send_peer >= 0 ? r->sent : 0;
	e->recv_bytes = st->recv_peer >= 0 ? (uint64_t)recv_bytes : 0;
	trace_write(r->c->trace, e);
}

/* Receive, decode and reduce step k's range; *bytes: what arrived. */
static int finish_recv(struct run *r, size_t k, MPI_Request *rreq, int *bytes)
{
	const struct sched_step *st = &r->p->sched.steps[k];
	MPI_Status status;
	int rc = MPI_Wait(rreq, &status);
	if (rc == MPI_SUCCESS)
		rc = MPI_Get_count(&status, MPI_BYTE, bytes);
	if (rc == MPI_SUCCESS && r->c->trace)
		r->e.recv_done_ns = trace_now_ns();
	if (rc == MPI_SUCCESS)
		rc = land(r, st, r->b.rwire[k & 1], *bytes);
	return rc;
}

static int run_steps(struct run *r)
{
	const struct sched *s = &r->p->sched;
	const struct ar_call *c = r->c;
	const float *in = c->input;
	float *res = c->result;
	MPI_Request next = MPI_REQUEST_NULL;
	bool next_posted = false;
	int rc = MPI_SUCCESS;
	for (size_t k = 0; k < s->nsteps && rc == MPI_SUCCESS; k++) {
		const struct sched_step *st = &s->steps[k];
		MPI_Request rreq = MPI_REQUEST_NULL, sreq = MPI_REQUEST_NULL;
		int bytes = 0;
		r->e.start_ns = r->e.end_ns;
		if (s->halves && k == s->ag_first_step)
			rc = round_own(r);
		if (rc == MPI_SUCCESS && st->recv_peer >= 0 && next_posted)
			rreq = next;
		else if (rc == MPI_SUCCESS && st->recv_peer >= 0)
			rc = post_recv(r, st, r->b.rwire[k & 1], &rreq);
		next_posted = false;
		if (rc == MPI_SUCCESS && st->send_peer >= 0)
			rc = send_range(r, st->send_from_input ? in : res, st->send_from_input,
			                st->send_offset, st->send_count, st->send_peer, &sreq);
		if (rc == MPI_SUCCESS && k + 1 < s->nsteps && s->steps[k + 1].recv_peer >= 0) {
			rc = post_recv(r, &s->steps[k + 1], r->b.rwire[(k + 1) & 1], &next);
			next_posted = rc == MPI_SUCCESS;
		}
		progress_waiting((int)k, st->recv_peer, PROGRESS_WAIT_RECV);
		r->e.recv_done_ns = r->e.start_ns;
		if (rc == MPI_SUCCESS && st->recv_peer >= 0)
			rc = finish_recv(r, k, &rreq, &bytes);
		if (c->trace)
			r->e.reduced_ns = st->recv_peer >= 0 ? trace_now_ns() : r->e.start_ns;
		progress_waiting((int)k, st->send_peer, PROGRESS_WAIT_SEND);
		if (rc == MPI_SUCCESS)
			rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && c->trace)
			trace_step(r, k, &r->e, bytes);
	}
	progress_waiting(-1, -1, PROGRESS_WAIT_NONE);
	return rc;
}

int exec_codec_run(const struct exec_plan *p, const struct ar_call *c)
{
	const struct sched *s = &p->sched;
	bool feedback = c->codec_cfg && c->codec_cfg->error_feedback;
	struct run r = {.p = p,
	                .c = c,
	                .codec = p->variant->codec,
	                .b = cut(c->scratch, s->segment_count),
	                .resid = feedback ? p->codec->residual : NULL,
	                /* a different stream per call and rank */
	                .seed =
	                    (p->codec->calls++ << 20) ^ (uint64_t)s->rank * 0x9e3779b97f4a7c15u};
	if (c->input != c->result && s->copy_input_first && s->copy_count)
		memcpy((float *)c->result + s->copy_offset,
		       (const float *)c->input + s->copy_offset, s->copy_count * sizeof(float));
	if (c->tally)
		c->tally->calls++;
	if (c->trace) {
		r.e = exec_call_entry();
		r.e.end_ns = trace_now_ns();
	}
	return run_steps(&r);
}
