/*
 * The verify run: every variant over awkward counts, every dtype and op, in
 * place and out of place, every element compared with its exact expected
 * value; the wrong ones named where they are (collscope verify, and accept's
 * verify check).
 */
#include <mpi.h>

#include "algorithms/bench.h"
#include "cmd/run/run.h"
#include "algorithms/executor.h"
#include "algorithms/fault.h"
#include "algorithms/pattern.h"
#include "algorithms/progress.h"
#include "cmd/verify_opts.h"
#include "cmd/run/watchdog.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What one rank tells rank 0 about one check. */
struct verify_outcome {
	uint64_t wrong;
	struct ar_mismatch first;
};

/*
 * Allocate on every rank, and agree: one rank short of memory fails them all.
 * Returns an exit code: EXIT_USAGE for counts no host could hold.
 */
static int bufs_alloc(const struct cmd_ctx *ctx, const struct verify_opts *o,
                      struct bench_bufs *b)
{
	size_t max_count = 0;
	for (int i = 0; i < o->ncounts; i++)
		if (o->counts[i] > max_count)
			max_count = o->counts[i];
	size_t bytes = (max_count ? max_count : 1) * sizeof(double);
	uint64_t need;
	/* the widest dtype decides: every count is run as float64 and int64 too */
	if (run_check_memory(ctx, "verify", (uint64_t)max_count * sizeof(double), o->segment_bytes,
	                     run_needs_shared(o->variants), &need) != EXIT_OK)
		return EXIT_USAGE;
	bool failed = bench_bufs_alloc(b, bytes, exec_scratch_bound_bytes(o->segment_bytes), 1,
	                               ctx->nranks) != 0;
	if (failed)
		cmd_rank_error(ctx, "verify: cannot allocate 2 x %zu bytes of buffers", bytes);
	if (run_any(ctx, failed))
		return EXIT_RUNTIME;
	return run_alloc_shared(ctx, "verify", o->variants, b);
}

static void describe_failure(const struct cmd_ctx *ctx, const struct ar_variant *v,
                             const struct ar_call *call, const struct verify_outcome *all)
{
	for (int r = 0; r < ctx->nranks; r++) {
		const struct verify_outcome *w = &all[r];
		if (!w->wrong)
			continue;
		size_t hex = 2 * ar_dtype_bytes(call->dtype);
		cmd_error(ctx,
		          "wrong result: variant %s, dtype %s, op %s, count %zu, %s: rank %d has %llu "
		          "wrong elements; first bad index %zu: got %g (0x%0*llx), expected %g (0x%0*llx), "
		          "differing bits 0x%0*llx",
		          v->name, ar_dtype_name(call->dtype), ar_op_name(call->op), call->count,
		          call->input == call->result ? "in place" : "out of place", r,
		          (unsigned long long)w->wrong, w->first.index, w->first.got, (int)hex,
		          (unsigned long long)w->first.got_bits, w->first.expected, (int)hex,
		          (unsigned long long)w->first.expected_bits, (int)hex,
		          (unsigned long long)(w->first.got_bits ^ w->first.expected_bits));
		return; /* the first bad rank is named; the others are counted */
	}
}

/*
 * One check on every rank. Returns the number of wrong elements over all
 * ranks (printing the first failure), or UINT64_MAX after an MPI error.
 */
static uint64_t check_one(const struct cmd_ctx *ctx, struct exec_plan *plan, struct ar_call *call,
                          struct verify_outcome *gathered)
{
	char msg[MPI_MAX_ERROR_STRING];
	struct verify_outcome mine = {0};
	if (call->input == call->result) {
		ar_pattern_fill(call->result, call->dtype, call->op, ctx->rank, ctx->nranks, call->count);
	} else {
		ar_pattern_fill((void *)call->input, call->dtype, call->op, ctx->rank, ctx->nranks,
		                call->count);
		memset(call->result, 0xA5, call->count * ar_dtype_bytes(call->dtype));
	}
	int rc = exec_run(plan, call);
	if (rc == MPI_SUCCESS && fault_is(FAULT_FLIP, ctx->rank))
		fault_flip(call->result, call->count, ar_dtype_bytes(call->dtype));
	if (run_any(ctx, rc != MPI_SUCCESS)) {
		if (rc != MPI_SUCCESS)
			cmd_rank_error(ctx, "variant %s, count %zu: %s", plan->variant->name, call->count,
			               run_mpi_error_text(rc, msg, sizeof msg));
		return UINT64_MAX;
	}
	size_t wrong = ar_pattern_check(call->result, call->dtype, call->op, ctx->nranks, call->count,
	                                &mine.first);
	mine.wrong = wrong == SIZE_MAX ? call->count : wrong;
	if (MPI_Gather(&mine, sizeof mine, MPI_BYTE, gathered, sizeof mine, MPI_BYTE, 0, ctx->comm) !=
	    MPI_SUCCESS)
		return UINT64_MAX;
	uint64_t total = 0;
	for (int r = 0; ctx->rank == 0 && r < ctx->nranks; r++)
		total += gathered[r].wrong;
	if (total)
		describe_failure(ctx, plan->variant, call, gathered);
	MPI_Bcast(&total, 1, MPI_UINT64_T, 0, ctx->comm);
	return total;
}

static int verify_variant(const struct cmd_ctx *ctx, const struct verify_opts *o,
                          const struct ar_variant *v, const struct bench_bufs *b,
                          struct verify_outcome *gathered, struct verify_tally *t)
{
	struct exec_plan plan;
	int status = EXIT_OK;
	void *input, *result;
	bench_bufs_of(b, v, &input, &result);
	if (exec_plan_init(&plan, v, ctx->rank, ctx->nranks, 0, AR_FLOAT32, o->segment_bytes) != 0)
		status = EXIT_RUNTIME;
	for (int ci = 0; ci < o->ncounts && status == EXIT_OK; ci++)
		for (int d = 0; d < AR_DTYPE_COUNT && status == EXIT_OK; d++)
			for (int op = 0; op < AR_OP_COUNT && status == EXIT_OK; op++) {
				if (!o->dtypes[d] || !o->ops[op])
					continue;
				/* compressed variants are inexact: allreduce checks them against their bound */
				if (v->codec || bench_variant_skipped(b, v, ctx->nranks, (enum ar_op)op)) {
					t->skipped += 2;
					continue;
				}
				bool failed = exec_plan_rebuild(&plan, ctx->rank, ctx->nranks, o->counts[ci],
				                                (enum ar_dtype)d, o->segment_bytes) != 0;
				if (run_any(ctx, failed)) {
					cmd_error(ctx, "verify: %s: cannot build the schedule for count %zu",
					          v->name, o->counts[ci]);
					status = EXIT_RUNTIME;
					break;
				}
				for (int in_place = 0; in_place < 2 && status == EXIT_OK; in_place++) {
					struct ar_call call = {
						.comm = ctx->comm, .rank = ctx->rank, .nranks = ctx->nranks,
						.input = in_place ? result : input, .result = result,
						.count = o->counts[ci], .dtype = (enum ar_dtype)d,
						.op = (enum ar_op)op, .scratch = b->scratch,
						.mpi_max_count = (size_t)o->mpi_max_count,
					};
					progress_point(ar_variant_index(v), call.count * ar_dtype_bytes(call.dtype));
					if (fault_is(FAULT_STALL, ctx->rank) && (int64_t)t->checks == ar_fault.after)
						fault_stall();
					progress_step(PROGRESS_CHECK, (int64_t)t->checks);
					uint64_t wrong = check_one(ctx, &plan, &call, gathered);
					if (wrong == UINT64_MAX) {
						status = EXIT_RUNTIME;
						break;
					}
					t->checks++;
					t->wrong += wrong;
				}
			}
	exec_plan_release(&plan);
	return status;
}

static void print_header(const struct cmd_ctx *ctx, const struct verify_opts *o)
{
	if (ctx->rank != 0)
		return;
	printf("# collscope verify: %d rank%s; counts", ctx->nranks, ctx->nranks == 1 ? "" : "s");
	for (int i = 0; i < o->ncounts; i++)
		printf(" %zu", o->counts[i]);
	printf("; dtypes");
	for (int d = 0; d < AR_DTYPE_COUNT; d++)
		if (o->dtypes[d])
			printf(" %s", ar_dtype_name((enum ar_dtype)d));
	printf("; ops");
	for (int op = 0; op < AR_OP_COUNT; op++)
		if (o->ops[op])
			printf(" %s", ar_op_name((enum ar_op)op));
	printf("; in place and out of place; segment %llu bytes\n",
	       (unsigned long long)o->segment_bytes);
	printf("# %-20s %8s %10s %8s  %s\n", "variant", "checks", "wrong", "skipped", "result");
	fflush(stdout);
}

int verify_run(const struct cmd_ctx *ctx, const struct verify_opts *o, bool print,
               struct verify_tally *tally)
{
	struct bench_bufs b = {0};
	struct verify_outcome *gathered = calloc((size_t)ctx->nranks, sizeof *gathered);
	int status = run_any(ctx, !gathered) ? EXIT_RUNTIME : bufs_alloc(ctx, o, &b);
	if (status == EXIT_OK && print)
		print_header(ctx, o);
	for (int i = 0; ar_variants[i] && status == EXIT_OK; i++) {
		struct verify_tally *t = &tally[i];
		*t = (struct verify_tally){0};
		if (!o->variants[i])
			continue;
		status = verify_variant(ctx, o, ar_variants[i], &b, gathered, t);
		if (status == EXIT_OK && print && ctx->rank == 0) {
			printf("  %-20s %8llu %10llu %8llu  %s\n", ar_variants[i]->name,
			       (unsigned long long)t->checks, (unsigned long long)t->wrong,
			       (unsigned long long)t->skipped, t->wrong ? "WRONG" : "ok");
			fflush(stdout);
		}
	}
	bench_bufs_free(&b);
	free(gathered);
	return status;
}

int verify_watched(const struct cmd_ctx *ctx, const struct verify_opts *o,
                   struct verify_tally *tally)
{
	int status = watchdog_start(ctx, "verify", o->timeout_s, NULL, NULL) != 0 ? EXIT_RUNTIME
	                                                                          : EXIT_OK;
	if (status == EXIT_OK)
		status = verify_run(ctx, o, true, tally);
	progress_step(PROGRESS_DONE, 0);
	watchdog_stop();
	return status;
}
