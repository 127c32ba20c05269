/* See trace_gather.h. */
#include <mpi.h>

#include "algorithms/trace_gather.h"
#include "algorithms/clock_id.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CLOCK_TAG = 7302 };

void trace_gathered_init(struct trace_gathered *g)
{
	memset(g, 0, sizeof *g);
}

void trace_gathered_release(struct trace_gathered *g)
{
	free(g->entries);
	free(g->rank_of);
	free(g->offset_ns);
	free(g->error_ns);
	trace_gathered_init(g);
}

/*
 * Entries packed into words in place: entry i's words (80 bytes at 80 i)
 * end before entry i + 1 begins (at sizeof entry x (i + 1), more than 80),
 * and entry i is copied out before its words are written.
 */
static void pack_in_place(struct trace_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct trace_entry one = e[i];
		uint64_t w[TRACE_WORDS];
		trace_pack(&one, w);
		memcpy((char *)e + i * sizeof w, w, sizeof w);
	}
}

/*
 * Rank 0 against every rank whose clock is not its own, in turn: offsets and
 * their error bounds (rank 0 only). shared[r]: rank r reads rank 0's clock.
 */
static int clock_offsets(MPI_Comm comm, int rank, int nranks, const bool *shared, double *offset,
                         double *error)
{
	int rc = MPI_SUCCESS;
	if (rank != 0 && shared[rank])
		return rc;
	if (rank != 0) {
		for (int k = 0; k < TRACE_CLOCK_ROUNDS && rc == MPI_SUCCESS; k++) {
			uint64_t t;
			rc = MPI_Recv(&t, 1, MPI_UINT64_T, 0, CLOCK_TAG, comm, MPI_STATUS_IGNORE);
			t = trace_now_ns();
			if (rc == MPI_SUCCESS)
				rc = MPI_Send(&t, 1, MPI_UINT64_T, 0, CLOCK_TAG, comm);
		}
		return rc;
	}
	offset[0] = error[0] = 0;
	for (int r = 1; r < nranks && rc == MPI_SUCCESS; r++) {
		error[r] = shared[r] ? 0 : INFINITY;
		offset[r] = 0;
		if (shared[r])
			continue;
		for (int k = 0; k < TRACE_CLOCK_ROUNDS && rc == MPI_SUCCESS; k++) {
			uint64_t t1 = trace_now_ns(), t;
			rc = MPI_Send(&t1, 1, MPI_UINT64_T, r, CLOCK_TAG, comm);
			if (rc == MPI_SUCCESS)
				rc = MPI_Recv(&t, 1, MPI_UINT64_T, r, CLOCK_TAG, comm,
				              MPI_STATUS_IGNORE);
			uint64_t t2 = trace_now_ns();
			double half = (double)(t2 - t1) / 2;
			if (rc == MPI_SUCCESS && half < error[r]) {
				error[r] = half;
				offset[r] = (double)(int64_t)(t - t1) - half;
			}
		}
	}
	return rc;
}

static void shift(uint64_t *t, double offset_ns)
{
	*t = (uint64_t)((int64_t)*t - (int64_t)llround(offset_ns));
}

/* Every rank: *shared[r] says whether rank r reads rank 0's clock (clock_id). */
static int same_clocks(MPI_Comm comm, int rank, int nranks, bool **shared)
{
	char mine[CLOCK_ID_BYTES], *all = malloc((size_t)nranks * CLOCK_ID_BYTES);
	int rc = MPI_SUCCESS, ok = all && (*shared = calloc((size_t)nranks, sizeof **shared)),
	    every;
	(void)rank;
	clock_id(mine);
	rc = MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, comm);
	if (rc == MPI_SUCCESS && !every)
		rc = MPI_ERR_NO_MEM;
	if (rc == MPI_SUCCESS)
		rc = MPI_Allgather(mine, CLOCK_ID_BYTES, MPI_CHAR, all, CLOCK_ID_BYTES, MPI_CHAR,
		                   comm);
	for (int r = 0; rc == MPI_SUCCESS && r < nranks; r++)
		(*shared)[r] =
		    all[0] && memcmp(all, all + (size_t)r * CLOCK_ID_BYTES, CLOCK_ID_BYTES) == 0;
	free(all);
	return rc;
}

/* Rank 0: the words of every rank into out, on rank 0's clock. */
static void unpack_all(const uint64_t *words, const int *counts, int nranks,
                       struct trace_gathered *out)
{
	size_t k = 0;
	for (int r = 0; r < nranks; r++)
		for (int i = 0; i < counts[r] / TRACE_WORDS; i++, k++) {
			struct trace_entry *e = &out->entries[k];
			trace_unpack(words + k * TRACE_WORDS, e);
			shift(&e->start_ns, out->offset_ns[r]);
			shift(&e->recv_done_ns, out->offset_ns[r]);
			shift(&e->reduced_ns, out->offset_ns[r]);
			shift(&e->end_ns, out->offset_ns[r]);
			out->rank_of[k] = r;
		}
	out->n = k;
}

/* Rank 0: room for total words of entries; false when out of memory. */
static bool alloc_out(struct trace_gathered *out, int nranks, size_t total_words, uint64_t **words,
                      int **displs)
{
	size_t n = total_words / TRACE_WORDS;
	out->entries = calloc(n ? n : 1, sizeof *out->entries);
	out->rank_of = calloc(n ? n : 1, sizeof *out->rank_of);
	out->offset_ns = calloc((size_t)nranks, sizeof *out->offset_ns);
	out->error_ns = calloc((size_t)nranks, sizeof *out->error_ns);
	*words = malloc((total_words ? total_words : 1) * sizeof **words);
	*displs = calloc((size_t)nranks, sizeof **displs);
	return out->entries && out->rank_of && out->offset_ns && out->error_ns && *words && *displs;
}

int trace_gather(const struct trace_ring *ring, uint64_t since, struct trace_entry *scratch,
                 MPI_Comm comm, int variant, uint64_t bytes, int phase, struct trace_gathered *out)
{
	int rank, nranks, rc, mine, ok = 1, *counts = NULL, *displs = NULL;
	bool *shared = NULL;
	uint64_t *words = NULL;
	size_t total = 0;
	trace_gathered_init(out);
	if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS ||
	    (rc = MPI_Comm_size(comm, &nranks)) != MPI_SUCCESS)
		return rc;
	uint64_t fresh = trace_written(ring) - since;
	size_t n = trace_snapshot(ring, scratch, fresh < ring->cap ? (size_t)fresh : ring->cap);
	n = trace_select(scratch, n, variant, bytes, phase);
	/* the last entries of each rank, so that the displacements stay within an int */
	size_t limit = (size_t)INT_MAX / ((size_t)nranks * TRACE_WORDS);
	uint64_t dropped = n > limit ? n - limit : 0;
	memmove(scratch, scratch + dropped, (n - dropped) * sizeof *scratch);
	n -= dropped;
	pack_in_place(scratch, n);
	mine = (int)(n * TRACE_WORDS);
	if (rank == 0 && !(counts = calloc((size_t)nranks, sizeof *counts)))
		ok = 0;
	rc = MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
	for (int r = 0; ok && rank == 0 && r < nranks; r++)
		total += (size_t)counts[r];
	if (rc == MPI_SUCCESS && rank == 0) {
		out->nranks = nranks;
		ok = ok && alloc_out(out, nranks, total, &words, &displs);
		for (int r = 1; ok && r < nranks; r++)
			displs[r] = displs[r - 1] + counts[r - 1];
	}
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
	if (rc == MPI_SUCCESS && !ok)
		rc = MPI_ERR_NO_MEM;
	if (rc == MPI_SUCCESS)
		rc = MPI_Gatherv(scratch, mine, MPI_UINT64_T, words, counts, displs, MPI_UINT64_T,
		                 0, comm);
	if (rc == MPI_SUCCESS)
		rc = same_clocks(comm, rank, nranks, &shared);
	if (rc == MPI_SUCCESS)
		rc = clock_offsets(comm, rank, nranks, shared, out->offset_ns, out->error_ns);
	if (rc == MPI_SUCCESS)
		rc = MPI_Reduce(&dropped, &out->dropped, 1, MPI_UINT64_T, MPI_SUM, 0, comm);
	if (rc == MPI_SUCCESS && rank == 0)
		unpack_all(words, counts, nranks, out);
	free(counts);
	free(displs);
	free(words);
	free(shared);
	if (rc != MPI_SUCCESS)
		trace_gathered_release(out);
	return rc;
}
