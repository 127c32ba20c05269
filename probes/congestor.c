/* The aggressors' congestors (probes/congestor.h). */
#include <mpi.h>

#include "probes/congestor.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_CONGESTOR = 4242 };

int congestor_init(struct congestor *c, MPI_Comm comm, enum congestor_kind kind, size_t bytes)
{
	*c = (struct congestor){.comm = comm, .kind = kind, .bytes = bytes};
	int rc = MPI_Comm_rank(comm, &c->rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(comm, &c->nranks);
	if (rc != MPI_SUCCESS)
		return rc;
	size_t n = (size_t)c->nranks;
	size_t send = kind == CONGESTOR_ALLTOALL ? n * bytes : bytes;
	size_t recv = kind == CONGESTOR_ALLTOALL || (kind == CONGESTOR_INCAST && c->rank == 0)
	                  ? n * bytes
	                  : bytes;
	c->send = malloc(send ? send : 1);
	c->recv = malloc(recv ? recv : 1);
	c->reqs = malloc(n * sizeof *c->reqs);
	if (!c->send || !c->recv || !c->reqs) {
		congestor_release(c);
		return MPI_ERR_NO_MEM;
	}
	/* touched now: the first round must not pay the page faults */
	memset(c->send, 1, send ? send : 1);
	memset(c->recv, 0, recv ? recv : 1);
	return MPI_SUCCESS;
}

static int incast(struct congestor *c)
{
	if (c->rank != 0)
		return MPI_Send(c->send, (int)c->bytes, MPI_BYTE, 0, TAG_CONGESTOR, c->comm);
	int rc = MPI_SUCCESS;
	for (int r = 1; r < c->nranks && rc == MPI_SUCCESS; r++)
		rc = MPI_Irecv(c->recv + (size_t)r * c->bytes, (int)c->bytes, MPI_BYTE, r,
		               TAG_CONGESTOR, c->comm, &c->reqs[r - 1]);
	if (rc == MPI_SUCCESS)
		rc = MPI_Waitall(c->nranks - 1, c->reqs, MPI_STATUSES_IGNORE);
	return rc;
}

static int shift(struct congestor *c)
{
	int d = 1 + (int)(c->rounds % (uint64_t)(c->nranks - 1));
	int to = (c->rank + d) % c->nranks, from = (c->rank - d + c->nranks) % c->nranks;
	return MPI_Sendrecv(c->send, (int)c->bytes, MPI_BYTE, to, TAG_CONGESTOR, c->recv,
	                    (int)c->bytes, MPI_BYTE, from, TAG_CONGESTOR, c->comm,
	                    MPI_STATUS_IGNORE);
}

int congestor_round(struct congestor *c)
{
	int rc = MPI_SUCCESS;
	if (c->nranks >= 2) {
		if (c->kind == CONGESTOR_ALLTOALL)
			rc = MPI_Alltoall(c->send, (int)c->bytes, MPI_BYTE, c->recv, (int)c->bytes,
			                  MPI_BYTE, c->comm);
		else if (c->kind == CONGESTOR_INCAST)
			rc = incast(c);
		else
			rc = shift(c);
	}
	c->rounds++;
	return rc;
}

void congestor_release(struct congestor *c)
{
	free(c->send);
	free(c->recv);
	free(c->reqs);
	c->send = c->recv = NULL;
	c->reqs = NULL;
}
