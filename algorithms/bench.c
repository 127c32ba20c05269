/* See bench.h. */
#include <mpi.h>

#include "bench.h"
#include "fault.h"
#include "progress.h"

#include <stdlib.h>
#include <string.h>

int bench_bufs_alloc(struct bench_bufs *b, size_t bytes, size_t scratch_bytes, int max_samples,
                     int nranks)
{
	memset(b, 0, sizeof *b);
	b->bytes = bytes;
	b->scratch_bytes = scratch_bytes;
	b->max_samples = max_samples;
	b->input = malloc(bytes ? bytes : 1);
	b->result = malloc(bytes ? bytes : 1);
	b->scratch = malloc(scratch_bytes ? scratch_bytes : 1);
	b->local_us = calloc((size_t)max_samples, sizeof(double));
	b->max_us = calloc((size_t)max_samples, sizeof(double));
	b->rank_mean_us = calloc((size_t)nranks, sizeof(double));
	if (!b->input || !b->result || !b->scratch || !b->local_us || !b->max_us || !b->rank_mean_us)
		return -1;
	/* touch every page now, so no timed iteration pays a first-touch fault */
	memset(b->input, 0, bytes);
	memset(b->result, 0, bytes);
	memset(b->scratch, 0, scratch_bytes);
	return 0;
}

int bench_bufs_alloc_shared(struct bench_bufs *b, MPI_Comm comm)
{
	size_t bytes = b->bytes ? b->bytes : 1;
	int rc = shm_arena_new(comm, 2 * bytes, &b->arena);
	if (rc == MPI_SUCCESS) {
		b->shared_input = shm_arena_base(b->arena);
		b->shared_result = (char *)b->shared_input + bytes;
	}
	return rc;
}

void bench_bufs_of(const struct bench_bufs *b, const struct ar_variant *v, void **input,
                   void **result)
{
	*input = v->shared_buffers ? b->shared_input : b->input;
	*result = v->shared_buffers ? b->shared_result : b->result;
}

const char *bench_variant_skipped(const struct bench_bufs *b, const struct ar_variant *v,
                                  int nranks, enum ar_op op)
{
	const char *why = ar_variant_unsupported(v, nranks, op);
	if (!why && v->shared_buffers && !b->arena)
		why = b->shared_skip ? b->shared_skip : "no shared-memory window";
	return why;
}

void bench_bufs_free(struct bench_bufs *b)
{
	shm_arena_free(&b->arena);
	free(b->input);
	free(b->result);
	free(b->scratch);
	free(b->local_us);
	free(b->max_us);
	free(b->rank_mean_us);
	memset(b, 0, sizeof *b);
}

/*
 * One iteration: untimed preparation (restore the input of an in-place call,
 * or poison the output of an out-of-place one so a variant that skips an
 * element cannot pass on the previous iteration's value), a barrier, then the
 * timed call alone.
 */
static int one_iteration(const struct exec_plan *plan, const struct ar_call *c, bool in_place,
                         bool poison, const struct bench_bufs *b, size_t bytes, double *elapsed_us)
{
	if (in_place)
		memcpy(b->result, b->input, bytes);
	else if (poison)
		memset(b->result, 0xA5, bytes);
	int rc = MPI_Barrier(c->comm);
	if (rc != MPI_SUCCESS)
		return rc;
	double t0 = MPI_Wtime();
	rc = exec_run(plan, c);
	double t1 = MPI_Wtime();
	*elapsed_us = (t1 - t0) * 1e6;
	return rc;
}

/* Rank 0 decides the adaptive count from the slowest rank's best warm-up, and broadcasts it. */
static int decide_iterations(const struct ar_call *c, const struct bench_cfg *cfg,
                             double best_warmup_us, int max_samples, int *iters)
{
	double slowest = 0;
	int rc = MPI_Reduce(&best_warmup_us, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, c->comm);
	if (rc != MPI_SUCCESS)
		return rc;
	if (c->rank == 0) {
		double fit = slowest > 0 ? cfg->budget_s * 1e6 / slowest : (double)cfg->max_iters;
		int n = fit > cfg->max_iters ? cfg->max_iters : (int)fit;
		if (n < cfg->min_iters)
			n = cfg->min_iters;
		*iters = n < max_samples ? n : max_samples;
	}
	return MPI_Bcast(iters, 1, MPI_INT, 0, c->comm);
}

static int verify(const struct ar_call *c, struct bench_result *out)
{
	struct { uint64_t wrong; struct ar_mismatch first; } mine = {0}, *all = NULL;
	size_t wrong = ar_pattern_check(c->result, c->dtype, c->op, c->nranks, c->count, &mine.first);
	mine.wrong = wrong == SIZE_MAX ? c->count : wrong;
	if (c->rank == 0 && !(all = calloc((size_t)c->nranks, sizeof *all)))
		return MPI_ERR_NO_MEM;
	int rc = MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, c->comm);
	out->wrong = 0;
	out->first_bad_rank = -1;
	for (int r = 0; rc == MPI_SUCCESS && c->rank == 0 && r < c->nranks; r++) {
		out->wrong += all[r].wrong;
		if (all[r].wrong && out->first_bad_rank < 0) {
			out->first_bad_rank = r;
			out->first = all[r].first;
		}
	}
	free(all);
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(&out->wrong, 1, MPI_UINT64_T, 0, c->comm);
	return rc;
}

int bench_point(const struct exec_plan *plan, const struct ar_call *tmpl, bool in_place,
                const struct bench_cfg *cfg, struct bench_bufs *b, struct bench_result *out)
{
	struct ar_call c = *tmpl;
	size_t bytes = c.count * ar_dtype_bytes(c.dtype);
	double best = -1, t = 0, sum = 0;
	int rc = MPI_SUCCESS, iters = cfg->iters, warmup = cfg->warmup;
	memset(out, 0, sizeof *out);
	out->first_bad_rank = -1;
	struct bench_bufs mine = *b;
	bench_bufs_of(b, plan->variant, &mine.input, &mine.result);
	c.input = in_place ? mine.result : mine.input;
	c.result = mine.result;
	c.scratch = b->scratch;
	ar_pattern_fill(mine.input, c.dtype, c.op, c.rank, c.nranks, c.count);
	if (iters == 0 && warmup == 0)
		warmup = 1; /* the adaptive count needs one call to go by */
	for (int i = 0; i < warmup && rc == MPI_SUCCESS; i++) {
		progress_step(PROGRESS_WARMUP, i);
		rc = one_iteration(plan, &c, in_place, false, &mine, bytes, &t);
		best = best < 0 || t < best ? t : best;
	}
	if (rc == MPI_SUCCESS && iters == 0)
		rc = decide_iterations(&c, cfg, best, b->max_samples, &iters);
	if (iters > b->max_samples)
		iters = b->max_samples;
	bool stall = fault_is(FAULT_STALL, c.rank);
	for (int i = 0; i < iters && rc == MPI_SUCCESS; i++) {
		if (stall && i == ar_fault.after)
			fault_stall();
		progress_step(PROGRESS_TIMED, i);
		rc = one_iteration(plan, &c, in_place, cfg->check && i == iters - 1, &mine, bytes,
		                   &b->local_us[i]);
		sum += b->local_us[i];
	}
	out->iterations = iters;
	progress_step(PROGRESS_VERIFY, 0);
	if (rc == MPI_SUCCESS && fault_is(FAULT_FLIP, c.rank))
		fault_flip(c.result, c.count, ar_dtype_bytes(c.dtype));
	/* every rank must learn of an error before any waits in the next collective */
	int worst = rc;
	if (MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, c.comm) != MPI_SUCCESS || worst)
		return out->mpi_rc = rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
	rc = MPI_Reduce(b->local_us, b->max_us, iters, MPI_DOUBLE, MPI_MAX, 0, c.comm);
	double mean = iters ? sum / iters : 0;
	if (rc == MPI_SUCCESS)
		rc = MPI_Gather(&mean, 1, MPI_DOUBLE, b->rank_mean_us, 1, MPI_DOUBLE, 0, c.comm);
	if (rc == MPI_SUCCESS && cfg->check)
		rc = verify(&c, out);
	return out->mpi_rc = rc;
}

double bench_timer_overhead_us(void)
{
	enum { CALLS = 1000 };
	double t0 = MPI_Wtime(), t = t0;
	for (int i = 0; i < CALLS; i++)
		t = MPI_Wtime();
	return (t - t0) / CALLS * 1e6;
}
