/* See overlap_bench.h. */
#include <mpi.h>

#include "algorithms/overlap_bench.h"

#include "algorithms/exec_nb.h"
#include "algorithms/pattern.h"
#include "algorithms/progress.h"
#include "algorithms/progress_thread.h"

static int test_call(void *arg)
{
	bool done;
	return exec_nb_test(arg, &done);
}

/*
 * One call, with compute_us of compute beside it (0: none); thread: the
 * progress thread that advances it meanwhile, or NULL.
 */
static int one_call(const struct exec_plan *plan, const struct ar_call *call, struct compute *k,
                    double compute_us, const struct overlap_cfg *cfg,
                    struct progress_thread *thread, struct compute_run *cr, double *total_us)
{
	struct exec_nb nb;
	const double t0 = compute_now_us();
	const bool tests = cfg->progress == PROGRESS_BY_TEST;
	int rc = exec_nb_start(&nb, plan, call, 0);
	*cr = (struct compute_run){0};
	if (rc == MPI_SUCCESS && compute_us > 0 && thread)
		progress_thread_give(thread, &nb);
	if (rc == MPI_SUCCESS && compute_us > 0)
		rc =
		    compute_for(k, compute_us, cfg->interval_us, tests ? test_call : NULL, &nb, cr);
	if (compute_us > 0 && thread) { /* taken back before this thread calls MPI again */
		int trc = progress_thread_take(thread);
		rc = rc == MPI_SUCCESS ? trc : rc;
	}
	if (rc == MPI_SUCCESS)
		rc = exec_nb_wait(&nb);
	*total_us = compute_now_us() - t0;
	return rc;
}

enum phase { PHASE_PURE, PHASE_CPU_ALONE, PHASE_OVERLAPPED };

/* The means over iterations of one phase into t; target_us: the compute's length. */
static int phase(const struct exec_plan *plan, const struct ar_call *call, struct compute *k,
                 enum phase ph, double target_us, const struct overlap_cfg *cfg,
                 struct progress_thread *thread, struct overlap_times *t)
{
	const int n = cfg->iters;
	int rc = MPI_SUCCESS;
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		struct compute_run cr;
		double total = 0;
		progress_step(PROGRESS_TIMED, i);
		rc = MPI_Barrier(call->comm);
		if (rc == MPI_SUCCESS && ph == PHASE_CPU_ALONE) {
			compute_for(k, target_us, 0, NULL, NULL, &cr);
			t->cpu_alone_us += cr.wall_us / n;
		} else if (rc == MPI_SUCCESS) {
			rc = one_call(plan, call, k, ph == PHASE_PURE ? 0 : target_us, cfg, thread,
			              &cr, &total);
			*(ph == PHASE_PURE ? &t->pure_us : &t->overall_us) += total / n;
			t->cpu_us += cr.wall_us / n;
			t->test_us += cr.test_us / n;
			t->tests += (double)cr.tests / n;
		}
	}
	return rc;
}

int overlap_point(const struct exec_plan *plan, const struct ar_call *call,
                  const struct overlap_cfg *cfg, struct compute *k, struct overlap_times *mine,
                  uint64_t *wrong)
{
	struct overlap_times t = {0};
	struct compute_run cr;
	double total, target = 0;
	int rc = MPI_SUCCESS;
	ar_pattern_fill((void *)call->input, call->dtype, call->op, call->rank, call->nranks,
	                call->count);
	progress_step(PROGRESS_WARMUP, 0);
	for (int i = 0; i < cfg->warmup && rc == MPI_SUCCESS; i++)
		rc = one_call(plan, call, k, 0, cfg, NULL, &cr, &total);
	if (rc == MPI_SUCCESS)
		rc = phase(plan, call, k, PHASE_PURE, 0, cfg, NULL, &t);
	if (rc == MPI_SUCCESS) /* every rank computes as long as the slowest rank's pure call */
		rc = MPI_Allreduce(&t.pure_us, &target, 1, MPI_DOUBLE, MPI_MAX, call->comm);
	if (rc == MPI_SUCCESS)
		rc = phase(plan, call, k, PHASE_CPU_ALONE, target, cfg, NULL, &t);
	struct progress_thread thread = {0};
	bool threaded = cfg->progress == PROGRESS_BY_THREAD;
	if (rc == MPI_SUCCESS && threaded && progress_thread_start(&thread, cfg->interval_us) != 0)
		rc = MPI_ERR_NO_MEM;
	if (rc == MPI_SUCCESS)
		rc = phase(plan, call, k, PHASE_OVERLAPPED, target, cfg, threaded ? &thread : NULL,
		           &t);
	progress_thread_stop(&thread);
	*mine = t;
	return overlap_verify_agree(call, cfg->check, rc, wrong);
}

int overlap_verify_agree(const struct ar_call *call, bool check, int rc, uint64_t *wrong)
{
	uint64_t bad = 0;
	*wrong = 0;
	if (rc == MPI_SUCCESS && check)
		bad = ar_pattern_check(call->result, call->dtype, call->op, call->nranks,
		                       call->count, NULL);
	if (rc == MPI_SUCCESS)
		rc = MPI_Allreduce(&bad, wrong, 1, MPI_UINT64_T, MPI_SUM, call->comm);
	int agreed = rc;
	if (MPI_Allreduce(&rc, &agreed, 1, MPI_INT, MPI_MAX, call->comm) != MPI_SUCCESS)
		return rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
	return agreed;
}
