/*
 * The measurement harness of one all-reduce point (README, `collscope allreduce`, Method).
 *
 * Warm-up, then timed iterations. Each timed iteration starts after a
 * barrier; every rank times its own call with MPI_Wtime; the iteration's time
 * is the maximum over ranks. The adaptive iteration count is decided by rank
 * 0 from the warm-up and broadcast. Results are verified after the timed
 * loop (the last iteration's output), counted over all ranks.
 * Buffers are allocated once (bench_bufs_alloc) and nothing is allocated
 * while a point runs: the timer and the barrier stay outside the timed region.
 */
#include <mpi.h>

#ifndef COLLSCOPE_BENCH_H
#define COLLSCOPE_BENCH_H

#include <stdint.h>

#include "executor.h"
#include "pattern.h"
#include "shm_arena.h"

struct bench_cfg {
	int warmup;
	int iters;          /* fixed count; 0 = adaptive */
	double budget_s;    /* adaptive: time per point */
	int min_iters;      /* adaptive bounds */
	int max_iters;
	bool check;
};

struct bench_bufs {
	void *input, *result, *scratch;
	size_t bytes, scratch_bytes;
	/* variants with shared_buffers: input and result in a shared-memory arena */
	struct shm_arena *arena;
	void *shared_input, *shared_result;
	const char *shared_skip; /* static: why there is no arena, when there is none */
	double *local_us; /* this rank's samples */
	double *max_us;   /* rank 0: per iteration, max over ranks */
	double *rank_mean_us; /* rank 0: nranks */
	int max_samples;
};

/* Every rank allocates and touches its buffers; -1 on any failure (not agreed). */
int bench_bufs_alloc(struct bench_bufs *b, size_t bytes, size_t scratch_bytes, int max_samples,
                     int nranks);
/*
 * Collective over comm: the shared-memory input and result for variants with
 * shared_buffers (after bench_bufs_alloc). Returns an MPI error code.
 */
int bench_bufs_alloc_shared(struct bench_bufs *b, MPI_Comm comm);
void bench_bufs_free(struct bench_bufs *b);

/* The input and result that variant v runs on: the shared ones when it needs them. */
void bench_bufs_of(const struct bench_bufs *b, const struct ar_variant *v, void **input,
                   void **result);

/*
 * Why v cannot run nranks with op on b (a static string), or NULL: its
 * restrictions (ar_variant_unsupported), or no shared buffers when it needs them.
 */
const char *bench_variant_skipped(const struct bench_bufs *b, const struct ar_variant *v,
                                  int nranks, enum ar_op op);

struct bench_result {
	int iterations;
	uint64_t wrong;        /* all ranks, when checked */
	int first_bad_rank;    /* -1 when nothing was wrong */
	struct ar_mismatch first; /* of first_bad_rank (on rank 0) */
	int mpi_rc;            /* MPI_SUCCESS, or the first error seen on this rank */
};

/*
 * Measure one point. call carries comm, ranks, count, dtype, op, and whether
 * it is in place (input == result); its buffers are replaced by b's.
 * On rank 0, b->max_us[0..iterations) and b->rank_mean_us hold the samples.
 * Returns MPI_SUCCESS, or an MPI error code (agreed by all ranks).
 */
int bench_point(const struct exec_plan *plan, const struct ar_call *call, bool in_place,
                const struct bench_cfg *cfg, struct bench_bufs *b, struct bench_result *out);

/* Average cost of one MPI_Wtime call, in microseconds (measured here). */
double bench_timer_overhead_us(void);

#endif
