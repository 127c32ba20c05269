/*
 * mpi: the MPI library's own MPI_Allreduce, the reference every other
 * variant is weighed against. The library picks its algorithm by size and
 * rank count (Open MPI 4.1's tuned component: Rabenseifner from 256 KiB at 2
 * ranks, ...); collscope reports what it measures and does not second-guess.
 *
 * Counts beyond an int are sent as consecutive calls of at most
 * call->mpi_max_count elements (default INT_MAX), each a full all-reduce of
 * its slice: the result is the same, element by element.
 * bfloat16 has no MPI type: it travels as MPI_UINT16_T with a user-defined,
 * commutative operator that widens to float32 and rounds back.
 */
#include <mpi.h>

#include "algorithms/ar_mpi.h"
#include "algorithms/executor.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

MPI_Datatype ar_mpi_datatype(enum ar_dtype t)
{
	switch (t) {
	case AR_FLOAT32: return MPI_FLOAT;
	case AR_FLOAT64: return MPI_DOUBLE;
	case AR_INT32: return MPI_INT32_T;
	case AR_INT64: return MPI_INT64_T;
	default: return MPI_UINT16_T;
	}
}

#define BF16_USER_FN(OP, NAME)                                                                     \
	static void NAME(void *in, void *inout, int *len, MPI_Datatype *type)                      \
	{                                                                                          \
		(void)type;                                                                        \
		ar_reduce(inout, inout, in, (size_t)*len, AR_BFLOAT16, OP);                        \
	}
BF16_USER_FN(AR_SUM, bf16_sum)
BF16_USER_FN(AR_PROD, bf16_prod)
BF16_USER_FN(AR_MIN, bf16_min)
BF16_USER_FN(AR_MAX, bf16_max)

/* User operators are created on first use and live until MPI_Finalize. */
int ar_mpi_op(enum ar_dtype t, enum ar_op op, MPI_Op *out)
{
	static MPI_Op bf16_ops[AR_OP_COUNT];
	static MPI_User_function *const bf16_fns[AR_OP_COUNT] = {bf16_sum, bf16_prod, bf16_min,
	                                                         bf16_max};
	static const MPI_Op builtin[AR_OP_COUNT] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
	if (t != AR_BFLOAT16) {
		*out = builtin[op];
		return MPI_SUCCESS;
	}
	if (!bf16_ops[op]) {
		int rc = MPI_Op_create(bf16_fns[op], 1, &bf16_ops[op]);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	*out = bf16_ops[op];
	return MPI_SUCCESS;
}

int ar_mpi_allreduce(const void *input, void *result, size_t count, enum ar_dtype t, enum ar_op o,
                     MPI_Comm comm, size_t max_count)
{
	MPI_Op op = MPI_OP_NULL;
	MPI_Datatype type = ar_mpi_datatype(t);
	size_t w = ar_dtype_bytes(t);
	int rc = ar_mpi_op(t, o, &op);
	bool in_place = input == MPI_IN_PLACE || input == result;
	if (max_count == 0 || max_count > (size_t)INT_MAX)
		max_count = INT_MAX;
	/* count 0 still calls once: the library's behaviour at 0 is part of what we measure */
	size_t done = 0;
	do {
		size_t n = count - done < max_count ? count - done : max_count;
		const void *src = in_place ? MPI_IN_PLACE : (const char *)input + done * w;
		if (rc == MPI_SUCCESS)
			rc = MPI_Allreduce(src, (char *)result + done * w, (int)n, type, op, comm);
		done += n;
	} while (done < count && rc == MPI_SUCCESS);
	return rc;
}

int ar_mpi_iallreduce(const void *input, void *result, size_t count, enum ar_dtype t, enum ar_op o,
                      MPI_Comm comm, MPI_Request *req)
{
	MPI_Op op = MPI_OP_NULL;
	if (count > (size_t)INT_MAX)
		return MPI_ERR_COUNT;
	int rc = ar_mpi_op(t, o, &op);
	const void *src = input == MPI_IN_PLACE || input == result ? MPI_IN_PLACE : input;
	if (rc == MPI_SUCCESS)
		rc = MPI_Iallreduce(src, result, (int)count, ar_mpi_datatype(t), op, comm, req);
	return rc;
}

static int mpi_run(const struct ar_call *c)
{
	return ar_mpi_allreduce(c->input, c->result, c->count, c->dtype, c->op, c->comm,
	                        c->mpi_max_count);
}

/*
 * The halves through the library (issue 35): MPI_Reduce_scatter and
 * MPI_Allgatherv with the balanced chunks of sched_part_offset, so awkward
 * counts run too (MPI_Reduce_scatter_block needs equal ones). Their counts
 * and displacements live in one array grown when a larger job first calls:
 * never inside a timed loop after its warm-up.
 */
static int *chunk_counts(int nranks, size_t count)
{
	static int *a;
	static int cap;
	if (nranks > cap) {
		int *more = realloc(a, 2 * (size_t)nranks * sizeof *more);
		if (!more)
			return NULL;
		a = more;
		cap = nranks;
	}
	for (int i = 0; i < nranks; i++) {
		a[i] = (int)sched_part_count(count, (size_t)nranks, (size_t)i);
		a[nranks + i] = (int)sched_part_offset(count, (size_t)nranks, (size_t)i);
	}
	return a;
}

int ar_mpi_reduce_scatter(const struct ar_call *c)
{
	MPI_Op op = MPI_OP_NULL;
	size_t w = ar_dtype_bytes(c->dtype);
	int *counts = c->count <= (size_t)INT_MAX ? chunk_counts(c->nranks, c->count) : NULL;
	int rc = counts ? ar_mpi_op(c->dtype, c->op, &op) : MPI_ERR_COUNT;
	if (rc != MPI_SUCCESS)
		return rc;
	char *mine = (char *)c->result + (size_t)counts[c->nranks + c->rank] * w;
	if (c->input != c->result)
		return MPI_Reduce_scatter(c->input, mine, counts, ar_mpi_datatype(c->dtype), op,
		                          c->comm);
	/* in place, the library leaves the rank's chunk at the buffer's start */
	rc = MPI_Reduce_scatter(MPI_IN_PLACE, c->result, counts, ar_mpi_datatype(c->dtype), op,
	                        c->comm);
	if (rc == MPI_SUCCESS)
		memmove(mine, c->result, (size_t)counts[c->rank] * w);
	return rc;
}

int ar_mpi_allgather(const struct ar_call *c)
{
	size_t w = ar_dtype_bytes(c->dtype);
	int *counts = c->count <= (size_t)INT_MAX ? chunk_counts(c->nranks, c->count) : NULL;
	if (!counts)
		return MPI_ERR_COUNT;
	const int *displs = counts + c->nranks;
	const void *src = c->input == c->result
	                      ? MPI_IN_PLACE
	                      : (const char *)c->input + (size_t)displs[c->rank] * w;
	return MPI_Allgatherv(src, counts[c->rank], ar_mpi_datatype(c->dtype), c->result, counts,
	                      displs, ar_mpi_datatype(c->dtype), c->comm);
}

static int mpi_start(const struct ar_call *c, void *request)
{
	return ar_mpi_iallreduce(c->input, c->result, c->count, c->dtype, c->op, c->comm, request);
}

const struct ar_variant ar_variant_mpi = {
    .name = "mpi",
    .summary = "the MPI library's own MPI_Allreduce (the reference)",
    .algorithm = "chosen by the library per size and rank count",
    .restrictions = 0,
    .run = mpi_run,
    .start = mpi_start,
    .run_reduce_scatter = ar_mpi_reduce_scatter,
    .run_allgather = ar_mpi_allgather,
};
