/*
 * Runs a schedule over MPI with the step semantics of schedule.h.
 *
 * Overlap: while step k's received segment is being reduced, the receive of
 * step k+1 is already posted (double-buffered scratch), so the network and
 * the reduction kernel work at the same time. The prefetch is skipped when
 * step k+1 copies straight into a region that step k still sends or writes.
 * Messages are bytes (MPI_BYTE): every rank has the same dtype, and a
 * segment is at most SCHED_MAX_SEGMENT_BYTES, so counts always fit an int.
 */
#include <mpi.h>

#include "algorithms/executor.h"
#include "algorithms/exec_codec.h"
#include "algorithms/fault.h"
#include "algorithms/progress.h"
#include "algorithms/reduce_timed.h"

#include <string.h>

enum { EXEC_TAG = 7301 };

static size_t segment_count_of(size_t segment_bytes, size_t elem_bytes)
{
	size_t n = segment_bytes / elem_bytes;
	return n ? n : 1;
}

int exec_plan_init_collective(struct exec_plan *p, const struct ar_variant *v, enum ar_collective c,
                              int rank, int nranks, size_t count, enum ar_dtype t,
                              size_t segment_bytes)
{
	p->variant = v;
	p->collective = c;
	p->elem_bytes = ar_dtype_bytes(t);
	p->codec = NULL;
	sched_init(&p->sched, rank, nranks, count, segment_count_of(segment_bytes, p->elem_bytes));
	if (v->codec && exec_codec_state_resize(&p->codec, count) != 0)
		return -1;
	sched_build_fn build = ar_collective_build(v, c);
	return build ? build(&p->sched) : 0;
}

int exec_plan_init(struct exec_plan *p, const struct ar_variant *v, int rank, int nranks,
                   size_t count, enum ar_dtype t, size_t segment_bytes)
{
	return exec_plan_init_collective(p, v, AR_ALLREDUCE, rank, nranks, count, t, segment_bytes);
}

int exec_plan_rebuild(struct exec_plan *p, int rank, int nranks, size_t count, enum ar_dtype t,
                      size_t segment_bytes)
{
	p->elem_bytes = ar_dtype_bytes(t);
	sched_reset(&p->sched, rank, nranks, count, segment_count_of(segment_bytes, p->elem_bytes));
	if (p->variant->codec && exec_codec_state_resize(&p->codec, count) != 0)
		return -1;
	sched_build_fn build = ar_collective_build(p->variant, p->collective);
	return build ? build(&p->sched) : 0;
}

void exec_plan_release(struct exec_plan *p)
{
	sched_release(&p->sched);
	exec_codec_state_free(&p->codec);
}

size_t exec_plan_scratch_bytes(const struct exec_plan *p)
{
	if (p->codec)
		return exec_codec_scratch_bytes(p->sched.segment_count);
	return 2 * p->sched.max_recv_count * p->elem_bytes;
}

size_t exec_scratch_bound_bytes(size_t segment_bytes)
{
	/* a segment of the widest dtype, rounded up to whole elements, twice; or a codec's */
	size_t plain = 2 * (segment_bytes + 8);
	size_t codec = exec_codec_scratch_bytes(segment_bytes / 4 ? segment_bytes / 4 : 1);
	return plain > codec ? plain : codec;
}

static bool overlaps(size_t a_off, size_t a_cnt, size_t b_off, size_t b_cnt)
{
	return a_cnt && b_cnt && a_off < b_off + b_cnt && b_off < a_off + a_cnt;
}

/* May step `next`'s receive be posted while step `cur` is still in flight? */
static bool can_prefetch(const struct sched_step *cur, const struct sched_step *next, bool in_place)
{
	if (next->recv_peer < 0)
		return false;
	if (next->action == SCHED_REDUCE)
		return true; /* lands in the other scratch half */
	if (cur->recv_peer >= 0 &&
	    overlaps(cur->recv_offset, cur->recv_count, next->recv_offset, next->recv_count))
		return false;
	if (cur->send_peer >= 0 && (in_place || !cur->send_from_input) &&
	    overlaps(cur->send_offset, cur->send_count, next->recv_offset, next->recv_count))
		return false;
	return true;
}

static int post_recv(const struct sched_step *st, const struct ar_call *c, char *tmp, size_t w,
                     MPI_Request *req)
{
	char *dst = st->action == SCHED_REDUCE ? tmp : (char *)c->result + st->recv_offset * w;
	return MPI_Irecv(dst, (int)(st->recv_count * w), MPI_BYTE, st->recv_peer, EXEC_TAG, c->comm,
	                 req);
}

struct trace_entry exec_call_entry(void)
{
	return (struct trace_entry){
	    .variant = atomic_load_explicit(&ar_progress.variant, memory_order_relaxed),
	    .phase = atomic_load_explicit(&ar_progress.phase, memory_order_relaxed),
	    .iteration = atomic_load_explicit(&ar_progress.iteration, memory_order_relaxed),
	    .bytes = atomic_load_explicit(&ar_progress.bytes, memory_order_relaxed),
	};
}

/*
 * Inlined twice, with traced a constant true and false (run_schedule): the
 * untraced copy has no trace code at all. Traced, a step reads the clock
 * when its receive is done, when its reduction is done (reduce steps only)
 * and when it ends, which is also the next step's start: 2 or 3 reads.
 */
static inline __attribute__((always_inline)) int run_steps(const struct exec_plan *p,
                                                           const struct ar_call *c, bool traced)
{
	const struct sched *s = &p->sched;
	const size_t w = p->elem_bytes;
	const bool in_place = c->input == c->result;
	const char *in = c->input;
	char *res = c->result;
	char *tmp[2] = {c->scratch, (char *)c->scratch + s->max_recv_count * w};
	MPI_Request next_req = MPI_REQUEST_NULL;
	bool next_posted = false;
	int rc = MPI_SUCCESS;
	struct trace_entry e = {0};
	/* COLLSCOPE_FAULT=compute (testing only): this rank's core is slower at its reductions */
	const int64_t compute_pct = fault_is(FAULT_COMPUTE, c->rank) ? ar_fault.pct : 0;

	if (!in_place && s->copy_input_first && s->copy_count)
		memcpy(res + s->copy_offset * w, in + s->copy_offset * w, s->copy_count * w);
	if (traced) {
		e = exec_call_entry();
		e.end_ns = trace_now_ns();
	}
	for (size_t k = 0; k < s->nsteps && rc == MPI_SUCCESS; k++) {
		const struct sched_step *st = &s->steps[k];
		MPI_Request rreq = MPI_REQUEST_NULL, sreq = MPI_REQUEST_NULL;
		if (traced)
			e.start_ns = e.end_ns;
		if (st->recv_peer >= 0) {
			if (next_posted)
				rreq = next_req;
			else
				rc = post_recv(st, c, tmp[k & 1], w, &rreq);
		}
		next_posted = false;
		if (rc == MPI_SUCCESS && st->send_peer >= 0) {
			const char *src = (st->send_from_input ? in : res) + st->send_offset * w;
			rc = MPI_Isend(src, (int)(st->send_count * w), MPI_BYTE, st->send_peer,
			               EXEC_TAG, c->comm, &sreq);
		}
		if (rc == MPI_SUCCESS && k + 1 < s->nsteps &&
		    can_prefetch(st, &s->steps[k + 1], in_place)) {
			rc = post_recv(&s->steps[k + 1], c, tmp[(k + 1) & 1], w, &next_req);
			next_posted = rc == MPI_SUCCESS;
		}
		progress_waiting((int)k, st->recv_peer, PROGRESS_WAIT_RECV);
		if (rc == MPI_SUCCESS)
			rc = MPI_Wait(&rreq, MPI_STATUS_IGNORE);
		if (traced) {
			e.recv_done_ns = e.reduced_ns =
			    st->recv_peer >= 0 ? trace_now_ns() : e.start_ns;
			e.reduce_busy_ns = 0;
		}
		progress_waiting((int)k, st->send_peer, PROGRESS_WAIT_SEND);
		if (rc == MPI_SUCCESS && st->recv_peer >= 0 && st->action == SCHED_REDUCE) {
			/* the reduction may overwrite what is being sent: let the send finish */
			if (st->send_peer >= 0 && (in_place || !st->send_from_input) &&
			    overlaps(st->send_offset, st->send_count, st->recv_offset,
			             st->recv_count))
				rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE);
			const char *lhs = (st->reduce_from_input ? in : res) + st->recv_offset * w;
			char *out = res + st->recv_offset * w;
			/* traced, or with COLLSCOPE_FAULT=compute: reduce_timed's chunks (its spins) */
			if (traced || compute_pct > 0) {
				uint64_t busy = reduce_timed(out, lhs, tmp[k & 1], st->recv_count,
				                             c->dtype, c->op, compute_pct);
				if (traced) {
					e.reduce_busy_ns = busy;
					e.reduced_ns = trace_now_ns();
				}
			} else {
				ar_reduce(out, lhs, tmp[k & 1], st->recv_count, c->dtype, c->op);
			}
		}
		if (rc == MPI_SUCCESS)
			rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE);
		if (traced) {
			e.end_ns = trace_now_ns();
			e.step = (int)k;
			e.half = !s->halves             ? TRACE_HALF_NONE
			         : k < s->ag_first_step ? TRACE_HALF_REDUCE_SCATTER
			                                : TRACE_HALF_ALLGATHER;
			e.send_peer = st->send_peer;
			e.recv_peer = st->recv_peer;
			e.send_bytes = st->send_peer >= 0 ? st->send_count * w : 0;
			e.recv_bytes = st->recv_peer >= 0 ? st->recv_count * w : 0;
			trace_write(c->trace, &e);
		}
	}
	progress_waiting(-1, -1, PROGRESS_WAIT_NONE);
	return rc;
}

static int run_schedule(const struct exec_plan *p, const struct ar_call *c)
{
	return c->trace ? run_steps(p, c, true) : run_steps(p, c, false);
}

/* A direct variant: one entry for the whole call. */
static int run_direct(const struct exec_plan *p, const struct ar_call *c)
{
	struct trace_entry e = {0};
	if (c->trace) {
		e = exec_call_entry();
		e.step = TRACE_WHOLE_CALL;
		e.send_peer = e.recv_peer = -1;
		e.start_ns = trace_now_ns();
	}
	progress_waiting(TRACE_WHOLE_CALL, -1, PROGRESS_WAIT_CALL);
	int rc = ar_collective_run(p->variant, p->collective)(c);
	progress_waiting(-1, -1, PROGRESS_WAIT_NONE);
	if (c->trace) {
		e.end_ns = e.recv_done_ns = e.reduced_ns = trace_now_ns();
		trace_write(c->trace, &e);
	}
	return rc;
}

int exec_run(const struct exec_plan *p, const struct ar_call *call)
{
	if (!ar_collective_build(p->variant, p->collective))
		return run_direct(p, call);
	if (p->codec)
		return exec_codec_run(p, call);
	return run_schedule(p, call);
}
