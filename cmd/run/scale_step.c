/*
 * scale --overlap measured (issue 32, item 3): at one rank count, the
 * training step of algorithms/step_bench.h measured on the communicator of
 * the first n ranks of scale's order, for every selected variant that runs
 * non-blocking; the ranks outside it nap in the sweep's barrier. The
 * gradient is the sweep's buffers (the gradient's size is one of the sweep's
 * sizes); the buckets' scratch is allocated here, once a rank count.
 */
#include <mpi.h>

#include "cmd/run/run.h"

#include <math.h>
#include <stdlib.h>

#include "algorithms/exec_nb.h"
#include "algorithms/step_bench.h"
#include "reports/model/overlap_model.h"

/* Members: variant v's step on c; on c's rank 0 the job's figures. An MPI error code. */
static int one(struct sweep *s, const struct scale_step_req *q, const struct sweep_comm *c, int v,
               void *scratch, struct compute *k, struct overlap_step *out)
{
	const struct sweep_opts *o = s->o;
	size_t w = ar_dtype_bytes(o->dtype), count = q->grad_bytes / w,
	       bucket = q->bucket_bytes / w;
	size_t rest = count - (overlap_buckets(count, bucket) - 1) * bucket;
	struct exec_plan full, last;
	int a = exec_plan_init(&full, ar_variants[v], c->rank, c->nranks, bucket, o->dtype,
	                       o->segment_bytes);
	int b = exec_plan_init(&last, ar_variants[v], c->rank, c->nranks, rest, o->dtype,
	                       o->segment_bytes);
	void *in, *res;
	bench_bufs_of(&s->bufs, ar_variants[v], &in, &res);
	struct ar_call call = {.comm = c->comm,
	                       .rank = c->rank,
	                       .nranks = c->nranks,
	                       .input = in,
	                       .result = res,
	                       .count = count,
	                       .dtype = o->dtype,
	                       .op = o->op,
	                       .scratch = scratch};
	struct step_cfg cfg = {.bucket_count = bucket,
	                       .compute_us = q->compute_ms * 1e3,
	                       .iters = q->iters,
	                       .warmup = 1,
	                       .interval_us = q->interval_us,
	                       .check = o->check};
	struct step_times mine;
	double *gathered = c->rank == 0 ? malloc(3 * (size_t)c->nranks * sizeof *gathered) : NULL;
	uint64_t wrong = 0;
	int failed = a || b || (c->rank == 0 && !gathered), any = failed;
	int rc = MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, c->comm);
	if (rc == MPI_SUCCESS && any)
		rc = MPI_ERR_NO_MEM;
	if (rc == MPI_SUCCESS)
		rc = step_point(&full, &last, &call, &cfg, k, &mine, &wrong);
	if (rc == MPI_SUCCESS)
		rc = MPI_Gather(&mine, 3, MPI_DOUBLE, gathered, 3, MPI_DOUBLE, 0, c->comm);
	if (rc == MPI_SUCCESS && c->rank == 0)
		*out = overlap_step_of(gathered, c->nranks);
	if (rc == MPI_SUCCESS && wrong)
		rc = MPI_ERR_OTHER; /* a wrong step is no figure: say so below */
	exec_plan_release(&full);
	exec_plan_release(&last);
	free(gathered);
	return rc;
}

int scale_measure_steps(struct sweep *s, const struct scale_step_req *q, const int *order, int n,
                        struct overlap_step *out)
{
	const struct cmd_ctx *ctx = s->ctx;
	struct sweep_comm c = {.comm = MPI_COMM_NULL, .nranks = n};
	struct compute k = {0};
	char msg[MPI_MAX_ERROR_STRING];
	int pos = -1, status = EXIT_OK;
	for (int i = 0; i < n; i++)
		pos = order[i] == ctx->rank ? i : pos;
	size_t w = ar_dtype_bytes(s->o->dtype);
	size_t scratch_bytes = overlap_buckets(q->grad_bytes / w, q->bucket_bytes / w) *
	                       exec_scratch_bound_bytes(s->o->segment_bytes);
	void *scratch = pos >= 0 ? calloc(1, scratch_bytes ? scratch_bytes : 1) : NULL;
	bool failed = pos >= 0 && (!scratch || compute_init(&k, COMPUTE_GEMM) != 0);
	int rc = MPI_Comm_split(ctx->comm, pos >= 0 ? 0 : MPI_UNDEFINED, pos, &c.comm);
	if (rc == MPI_SUCCESS && c.comm != MPI_COMM_NULL)
		rc = MPI_Comm_rank(c.comm, &c.rank);
	if (run_any(ctx, failed || rc != MPI_SUCCESS)) {
		cmd_error(ctx, "scale: cannot set up the measured step on %d ranks", n);
		status = EXIT_RUNTIME;
	}
	for (int v = 0; ar_variants[v] && status == EXIT_OK; v++) {
		out[v] = (struct overlap_step){NAN, NAN, NAN, NAN, NAN};
		if (!s->o->variants[v] || !exec_nb_supported(ar_variants[v]) ||
		    ar_variant_unsupported(ar_variants[v], n, s->o->op))
			continue;
		cmd_progress(ctx, q->quiet, "scale: the training step of %s on %d ranks",
		             ar_variants[v]->name, n);
		if (c.comm != MPI_COMM_NULL)
			rc = one(s, q, &c, v, scratch, &k, &out[v]);
		if (rc != MPI_SUCCESS) {
			cmd_rank_error(ctx, "scale: the training step of %s on %d ranks: %s",
			               ar_variants[v]->name, n,
			               run_mpi_error_text(rc, msg, sizeof msg));
			status = EXIT_RUNTIME;
		}
		status = sweep_agree(s, status);
	}
	if (c.comm != MPI_COMM_NULL)
		MPI_Comm_free(&c.comm);
	compute_release(&k);
	free(scratch);
	return status;
}
