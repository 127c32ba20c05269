/* See shm_rail.h. */
#include <mpi.h>

#include "shm_rail.h"
#include "schedule.h"

#include <stdlib.h>

/* MPI counts are int: a chunk beyond this goes as several messages. */
enum { PIECE_BYTES = 1 << 30 };

void shm_rail_scratch_release(struct shm_rail_scratch *s)
{
	free(s->buf);
	s->buf = NULL;
	s->bytes = 0;
}

static int grow(struct shm_rail_scratch *s, size_t bytes)
{
	if (bytes <= s->bytes)
		return MPI_SUCCESS;
	void *p = realloc(s->buf, bytes);
	if (!p)
		return MPI_ERR_NO_MEM;
	s->buf = p;
	s->bytes = bytes;
	return MPI_SUCCESS;
}

/* Send out_bytes from out to next while receiving in_bytes into in from prev. */
static int exchange(const char *out, size_t out_bytes, char *in, size_t in_bytes, int next,
                    int prev, MPI_Comm comm)
{
	int rc = MPI_SUCCESS;
	for (size_t at = 0; rc == MPI_SUCCESS && (at < out_bytes || at < in_bytes);
	     at += PIECE_BYTES) {
		size_t o = out_bytes > at ? out_bytes - at : 0,
		       i = in_bytes > at ? in_bytes - at : 0;
		rc = MPI_Sendrecv(out + at, (int)(o < PIECE_BYTES ? o : PIECE_BYTES), MPI_BYTE,
		                  next, 0, in + at, (int)(i < PIECE_BYTES ? i : PIECE_BYTES),
		                  MPI_BYTE, prev, 0, comm, MPI_STATUS_IGNORE);
	}
	return rc;
}

int shm_rail_allreduce(void *buf, size_t count, enum ar_dtype t, enum ar_op op, MPI_Comm comm,
                       struct shm_rail_scratch *scratch)
{
	int rank, n, rc = MPI_Comm_rank(comm, &rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(comm, &n);
	if (rc != MPI_SUCCESS || n == 1)
		return rc;
	const size_t w = ar_dtype_bytes(t), N = (size_t)n;
	const int next = (rank + 1) % n, prev = (rank + n - 1) % n;
	char *b = buf;
	rc = grow(scratch, sched_part_count(count, N, 0) * w);
	/* reduce-scatter: step k sends chunk rank - k, receives and reduces chunk rank - k - 1 */
	for (int k = 0; rc == MPI_SUCCESS && k < n - 1; k++) {
		size_t s = (size_t)((rank - k + 2 * n) % n),
		       r = (size_t)((rank - k - 1 + 2 * n) % n);
		size_t rn = sched_part_count(count, N, r);
		rc = exchange(b + sched_part_offset(count, N, s) * w,
		              sched_part_count(count, N, s) * w, scratch->buf, rn * w, next, prev,
		              comm);
		if (rc == MPI_SUCCESS)
			ar_reduce(b + sched_part_offset(count, N, r) * w,
			          b + sched_part_offset(count, N, r) * w, scratch->buf, rn, t, op);
	}
	/* all-gather: rank holds chunk rank + 1; step k sends chunk rank + 1 - k, receives rank - k
	 */
	for (int k = 0; rc == MPI_SUCCESS && k < n - 1; k++) {
		size_t s = (size_t)((rank + 1 - k + 2 * n) % n),
		       r = (size_t)((rank - k + 2 * n) % n);
		rc = exchange(b + sched_part_offset(count, N, s) * w,
		              sched_part_count(count, N, s) * w,
		              b + sched_part_offset(count, N, r) * w,
		              sched_part_count(count, N, r) * w, next, prev, comm);
	}
	return rc;
}
