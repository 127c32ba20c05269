/*
 * collscope overlap --step (issue 32, item 2): for every selected variant
 * and compute kind, the measured training step of algorithms/step_bench.h
 * on the whole job, over a gradient of its own (allocated once for all the
 * steps, with scratch for every bucket in flight). Rank 0 keeps the job's
 * figures (reports/model/overlap_model.h: the slowest rank's means).
 */
#include <mpi.h>

#include "cmd/run/overlap_run.h"

#include <stdlib.h>

#include "algorithms/exec_nb.h"
#include "algorithms/pattern.h"
#include "algorithms/step_bench.h"
#include "reports/model/overlap_model.h"

struct step_bufs {
	void *input, *result, *scratch;
	double *all; /* rank 0: 3 x nranks */
};

static int alloc_bufs(const struct overlap_run *run, struct step_bufs *b)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	const struct overlap_opts *o = run->o;
	size_t w = ar_dtype_bytes(o->sweep.dtype);
	size_t buckets = overlap_buckets(o->grad_bytes / w, o->bucket_bytes / w);
	size_t scratch = buckets * exec_scratch_bound_bytes(o->sweep.segment_bytes);
	b->input = calloc(1, o->grad_bytes);
	b->result = calloc(1, o->grad_bytes);
	b->scratch = calloc(1, scratch ? scratch : 1);
	b->all = ctx->rank == 0 ? calloc(3 * (size_t)ctx->nranks, sizeof *b->all) : NULL;
	bool failed = !b->input || !b->result || !b->scratch || (ctx->rank == 0 && !b->all);
	if (run_any(ctx, failed)) {
		cmd_error(ctx, "overlap: cannot allocate the step's gradient of %llu bytes twice",
		          (unsigned long long)o->grad_bytes);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static void free_bufs(struct step_bufs *b)
{
	free(b->input);
	free(b->result);
	free(b->scratch);
	free(b->all);
}

/* Rank 0: the row kept, the progress line. */
static int keep(struct overlap_run *run, const struct overlap_step_row *row)
{
	struct overlap_step_row *more =
	    realloc(run->steps, (size_t)(run->nsteps + 1) * sizeof *more);
	if (!more)
		return EXIT_RUNTIME;
	run->steps = more;
	run->steps[run->nsteps++] = *row;
	struct sweep *s = &run->sweep;
	if (row->skipped)
		cmd_progress(s->ctx, run->o->out.quiet, "overlap: [%d/%d] step, %s: skipped (%s)",
		             ++s->done, s->total, row->algorithm, row->skipped);
	else
		cmd_progress(s->ctx, run->o->out.quiet,
		             "overlap: [%d/%d] step, %s, %s: compute %.0f us, serial %.0f us, "
		             "step %.0f us, %.0f%% of the communication hidden",
		             ++s->done, s->total, row->algorithm, row->compute, row->s.compute_us,
		             row->s.serial_us, row->s.step_us, 100 * row->s.hidden_fraction);
	return EXIT_OK;
}

/* The plans of a full bucket and of the last one. */
static int plans(const struct overlap_run *run, int v, size_t count, size_t bucket,
                 struct exec_plan *full, struct exec_plan *last)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	const struct sweep_opts *so = &run->o->sweep;
	size_t rest = count - (overlap_buckets(count, bucket) - 1) * bucket;
	int a = exec_plan_init(full, ar_variants[v], ctx->rank, ctx->nranks, bucket, so->dtype,
	                       so->segment_bytes);
	int b = exec_plan_init(last, ar_variants[v], ctx->rank, ctx->nranks, rest, so->dtype,
	                       so->segment_bytes);
	return a || b ? -1 : 0;
}

static int one(struct overlap_run *run, struct step_bufs *b, int v, int kind)
{
	const struct cmd_ctx *ctx = run->sweep.ctx;
	const struct overlap_opts *o = run->o;
	const struct sweep_opts *so = &o->sweep;
	size_t w = ar_dtype_bytes(so->dtype), count = o->grad_bytes / w,
	       bucket = o->bucket_bytes / w;
	struct overlap_step_row row = {.algorithm = ar_variants[v]->name,
	                               .compute = compute_kind_names[kind],
	                               .ranks = ctx->nranks,
	                               .grad_bytes = o->grad_bytes,
	                               .bucket_bytes = o->bucket_bytes,
	                               .buckets = overlap_buckets(count, bucket),
	                               .wrong = so->check ? 0 : -1};
	row.skipped = ar_variant_unsupported(ar_variants[v], ctx->nranks, so->op);
	if (!row.skipped && !exec_nb_supported(ar_variants[v]))
		row.skipped = "no non-blocking form";
	int status = EXIT_OK;
	if (!row.skipped) {
		struct exec_plan full, last;
		bool failed = plans(run, v, count, bucket, &full, &last) != 0;
		struct ar_call call = {.comm = ctx->comm,
		                       .rank = ctx->rank,
		                       .nranks = ctx->nranks,
		                       .input = b->input,
		                       .result = b->result,
		                       .count = count,
		                       .dtype = so->dtype,
		                       .op = so->op,
		                       .scratch = b->scratch};
		struct step_cfg cfg = {.bucket_count = bucket,
		                       .compute_us = o->compute_ms * 1e3,
		                       .iters = so->iters,
		                       .warmup = so->warmup,
		                       .interval_us = o->interval_us,
		                       .check = so->check};
		struct step_times mine = {0};
		uint64_t wrong = 0;
		int rc = run_any(ctx, failed) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
		if (rc == MPI_SUCCESS)
			rc = step_point(&full, &last, &call, &cfg, &run->kernels[kind], &mine,
			                &wrong);
		if (rc == MPI_SUCCESS)
			rc = MPI_Gather(&mine, 3, MPI_DOUBLE, b->all, 3, MPI_DOUBLE, 0, ctx->comm);
		exec_plan_release(&full);
		exec_plan_release(&last);
		if (rc != MPI_SUCCESS) {
			char msg[MPI_MAX_ERROR_STRING];
			cmd_rank_error(ctx, "overlap: the step of %s: %s", row.algorithm,
			               run_mpi_error_text(rc, msg, sizeof msg));
			status = EXIT_RUNTIME;
		}
		row.s = ctx->rank == 0 ? overlap_step_of(b->all, ctx->nranks) : row.s;
		row.wrong = so->check ? (int64_t)wrong : -1;
	}
	if (status == EXIT_OK && ctx->rank == 0)
		status = keep(run, &row);
	return sweep_agree(&run->sweep, status);
}

int overlap_steps(struct overlap_run *run)
{
	struct step_bufs b = {0};
	int status = alloc_bufs(run, &b);
	for (int v = 0; ar_variants[v] && status == EXIT_OK; v++)
		for (int k = 0; k < COMPUTE_KINDS && status == EXIT_OK; k++)
			if (run->o->sweep.variants[v] && run->o->compute[k])
				status = one(run, &b, v, k);
	free_bufs(&b);
	return status;
}
