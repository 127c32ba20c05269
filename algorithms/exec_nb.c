/* See exec_nb.h. */
#include <mpi.h>

#include "algorithms/exec_nb.h"

#include <string.h>

enum { EXEC_NB_TAG_BASE = 8192 }; /* above the executor's and the probes' tags */

bool exec_nb_supported(const struct ar_variant *v)
{
	/* a compressed variant's messages go through its codec: exec_codec.c alone runs them */
	return (v->build && !v->codec) || v->start;
}

static int post(struct exec_nb *nb)
{
	const struct sched_step *st = &nb->p->sched.steps[nb->k];
	const struct ar_call *c = &nb->c;
	const size_t w = nb->p->elem_bytes;
	int rc = MPI_SUCCESS;
	nb->req[0] = nb->req[1] = MPI_REQUEST_NULL;
	if (st->recv_peer >= 0) {
		char *dst = st->action == SCHED_REDUCE ? c->scratch
		                                       : (char *)c->result + st->recv_offset * w;
		rc = MPI_Irecv(dst, (int)(st->recv_count * w), MPI_BYTE, st->recv_peer, nb->tag,
		               c->comm, &nb->req[0]);
	}
	if (rc == MPI_SUCCESS && st->send_peer >= 0) {
		const char *src =
		    (st->send_from_input ? (const char *)c->input : (const char *)c->result) +
		    st->send_offset * w;
		rc = MPI_Isend(src, (int)(st->send_count * w), MPI_BYTE, st->send_peer, nb->tag,
		               c->comm, &nb->req[1]);
	}
	nb->posted = rc == MPI_SUCCESS;
	return rc;
}

/* Both halves of step k completed: its reduction, then the next step is due. */
static void finish_step(struct exec_nb *nb)
{
	const struct sched_step *st = &nb->p->sched.steps[nb->k];
	const struct ar_call *c = &nb->c;
	const size_t w = nb->p->elem_bytes;
	if (st->recv_peer >= 0 && st->action == SCHED_REDUCE) {
		const char *lhs =
		    (st->reduce_from_input ? (const char *)c->input : (const char *)c->result) +
		    st->recv_offset * w;
		ar_reduce((char *)c->result + st->recv_offset * w, lhs, c->scratch, st->recv_count,
		          c->dtype, c->op);
	}
	nb->posted = false;
	nb->done = ++nb->k == nb->p->sched.nsteps;
}

int exec_nb_start(struct exec_nb *nb, const struct exec_plan *p, const struct ar_call *c, int tag)
{
	*nb = (struct exec_nb){.p = p,
	                       .c = *c,
	                       .req = {MPI_REQUEST_NULL, MPI_REQUEST_NULL},
	                       .tag = EXEC_NB_TAG_BASE + tag % EXEC_NB_TAGS};
	if (!p->variant->build) {
		nb->posted = true;
		return p->variant->start ? p->variant->start(&nb->c, &nb->req[0]) : MPI_ERR_OTHER;
	}
	const struct sched *s = &p->sched;
	if (c->input != c->result && s->copy_input_first && s->copy_count)
		memcpy((char *)c->result + s->copy_offset * p->elem_bytes,
		       (const char *)c->input + s->copy_offset * p->elem_bytes,
		       s->copy_count * p->elem_bytes);
	nb->done = p->sched.nsteps == 0;
	return nb->done ? MPI_SUCCESS : post(nb);
}

int exec_nb_test(struct exec_nb *nb, bool *done)
{
	int rc = MPI_SUCCESS, flag = 1;
	while (rc == MPI_SUCCESS && !nb->done && flag) {
		if (!nb->p->variant->build) {
			rc = MPI_Test(&nb->req[0], &flag, MPI_STATUS_IGNORE);
			nb->done = flag;
			break;
		}
		if (!nb->posted)
			rc = post(nb);
		if (rc == MPI_SUCCESS)
			rc = MPI_Testall(2, nb->req, &flag, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS && flag)
			finish_step(nb);
	}
	*done = nb->done;
	return rc;
}

int exec_nb_wait(struct exec_nb *nb)
{
	int rc = MPI_SUCCESS;
	while (rc == MPI_SUCCESS && !nb->done) {
		if (!nb->p->variant->build) {
			rc = MPI_Wait(&nb->req[0], MPI_STATUS_IGNORE);
			nb->done = true;
			break;
		}
		if (!nb->posted)
			rc = post(nb);
		if (rc == MPI_SUCCESS)
			rc = MPI_Waitall(2, nb->req, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS)
			finish_step(nb);
	}
	return rc;
}
