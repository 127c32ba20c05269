/* See step_bench.h. */
#include <mpi.h>

#include "algorithms/step_bench.h"

#include <stdlib.h>

#include "algorithms/exec_nb.h"
#include "algorithms/overlap_bench.h"
#include "algorithms/pattern.h"
#include "algorithms/progress.h"

struct step_run {
	const struct exec_plan *full, *last;
	const struct ar_call *call;
	const struct step_cfg *cfg;
	size_t nbuckets, started;
	struct exec_nb *nb; /* nbuckets */
};

/* Bucket i's call: its slice of the gradient, its own scratch. */
static struct ar_call bucket_call(const struct step_run *s, size_t i)
{
	const size_t w = s->full->elem_bytes;
	const size_t at = overlap_bucket_offset(s->cfg->bucket_count, i);
	struct ar_call c = *s->call;
	c.input = (const char *)s->call->input + at * w;
	c.result = (char *)s->call->result + at * w;
	c.count = overlap_bucket_count(s->call->count, s->cfg->bucket_count, i);
	c.scratch = (char *)s->call->scratch + i * exec_plan_scratch_bytes(s->full);
	return c;
}

static const struct exec_plan *plan_of(const struct step_run *s, size_t i)
{
	return i + 1 < s->nbuckets ? s->full : s->last;
}

/* compute_for's test: every bucket started so far, advanced. */
static int test_started(void *arg)
{
	struct step_run *s = arg;
	int rc = MPI_SUCCESS;
	for (size_t i = 0; i < s->started && rc == MPI_SUCCESS; i++) {
		bool done;
		rc = exec_nb_test(&s->nb[i], &done);
	}
	return rc;
}

static int overlapped(struct step_run *s, struct compute *k)
{
	const double chunk_us = s->cfg->compute_us / (double)s->nbuckets;
	int rc = MPI_SUCCESS;
	struct compute_run cr;
	s->started = 0;
	for (size_t i = 0; i < s->nbuckets && rc == MPI_SUCCESS; i++) {
		rc = compute_for(k, chunk_us, s->cfg->interval_us, s->started ? test_started : NULL,
		                 s, &cr);
		struct ar_call c = bucket_call(s, i);
		if (rc == MPI_SUCCESS)
			rc = exec_nb_start(&s->nb[i], plan_of(s, i), &c, (int)i);
		s->started = i + 1;
	}
	for (size_t i = 0; i < s->started && rc == MPI_SUCCESS; i++)
		rc = exec_nb_wait(&s->nb[i]);
	return rc;
}

static int serial(struct step_run *s, struct compute *k)
{
	struct compute_run cr;
	int rc = compute_for(k, s->cfg->compute_us, 0, NULL, NULL, &cr);
	for (size_t i = 0; i < s->nbuckets && rc == MPI_SUCCESS; i++) {
		struct ar_call c = bucket_call(s, i);
		rc = exec_run(plan_of(s, i), &c);
	}
	return rc;
}

enum step_phase { STEP_COMPUTE, STEP_SERIAL, STEP_OVERLAPPED };

/* The mean over iterations of one phase. */
static int phase(struct step_run *s, struct compute *k, enum step_phase ph, int iters,
                 double *mean_us)
{
	int rc = MPI_SUCCESS;
	*mean_us = 0;
	for (int i = 0; i < iters && rc == MPI_SUCCESS; i++) {
		struct compute_run cr;
		progress_step(PROGRESS_TIMED, i);
		rc = MPI_Barrier(s->call->comm);
		const double t0 = compute_now_us();
		if (rc == MPI_SUCCESS && ph == STEP_COMPUTE)
			compute_for(k, s->cfg->compute_us, 0, NULL, NULL, &cr);
		else if (rc == MPI_SUCCESS)
			rc = ph == STEP_SERIAL ? serial(s, k) : overlapped(s, k);
		*mean_us += (compute_now_us() - t0) / iters;
	}
	return rc;
}

int step_point(const struct exec_plan *plan_full, const struct exec_plan *plan_last,
               const struct ar_call *call, const struct step_cfg *cfg, struct compute *k,
               struct step_times *mine, uint64_t *wrong)
{
	struct step_run s = {.full = plan_full,
	                     .last = plan_last,
	                     .call = call,
	                     .cfg = cfg,
	                     .nbuckets = overlap_buckets(call->count, cfg->bucket_count)};
	double ignored;
	s.nb = calloc(s.nbuckets ? s.nbuckets : 1, sizeof *s.nb);
	int rc = s.nb ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	*mine = (struct step_times){0};
	ar_pattern_fill((void *)call->input, call->dtype, call->op, call->rank, call->nranks,
	                call->count);
	progress_step(PROGRESS_WARMUP, 0);
	if (rc == MPI_SUCCESS)
		rc = phase(&s, k, STEP_OVERLAPPED, cfg->warmup, &ignored);
	if (rc == MPI_SUCCESS)
		rc = phase(&s, k, STEP_COMPUTE, cfg->iters, &mine->compute_us);
	if (rc == MPI_SUCCESS)
		rc = phase(&s, k, STEP_SERIAL, cfg->iters, &mine->serial_us);
	if (rc == MPI_SUCCESS)
		rc = phase(&s, k, STEP_OVERLAPPED, cfg->iters, &mine->step_us);
	free(s.nb);
	return overlap_verify_agree(call, cfg->check, rc, wrong);
}
