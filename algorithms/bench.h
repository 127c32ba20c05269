/*
 * The measurement harness of one all-reduce point (algorithms/README.md, timing methods).
 *
 * Warm-up, then timed iterations, by one of three methods (algorithms/timing.h):
 * window (a common start on synchronised clocks, late starts dropped),
 * barrier (a barrier, every rank times its own call, the longest counts) or
 * pipelined (calls back to back after a barrier). Every rank stamps its
 * arrival in the call and its end on the reference clock (the sweep's clock
 * model); rank 0 gathers the stamps after the timed loop and derives the
 * samples, the late starts and the straggler with its cause. The adaptive
 * iteration count is decided by rank 0 from the warm-up and broadcast.
 * Results are verified after the timed loop (the last call's output),
 * counted over all ranks. Buffers are allocated once (bench_bufs_alloc) and
 * nothing is allocated while a point runs.
 */
#include <mpi.h>

#ifndef COLLSCOPE_BENCH_H
#define COLLSCOPE_BENCH_H

#include <stdint.h>

#include "algorithms/clock_model.h"
#include "algorithms/codec_check.h"
#include "algorithms/executor.h"
#include "algorithms/pattern.h"
#include "algorithms/shm_arena.h"
#include "algorithms/sample_stop.h"
#include "algorithms/timing.h"

struct bench_cfg {
	int warmup;
	int iters;          /* fixed count; 0 = adaptive */
	double budget_s;    /* adaptive: time per point */
	int min_iters;      /* adaptive bounds */
	int max_iters;
	double ci_width;    /* adaptive: stop when the median's 95% interval is within +-this; 0 never */
	bool check;
	enum timing_method timing;
	const struct clock_model *clock; /* this rank's clock against the reference */
	bool synced;                     /* clock holds a sync: arrivals compare across ranks */
	bool yield;                      /* window: yield while spinning (more ranks than cores) */
};

struct bench_bufs {
	void *input, *result, *scratch;
	size_t bytes, scratch_bytes;
	/* variants with shared_buffers: input and result in a shared-memory arena */
	struct shm_arena *arena;
	void *shared_input, *shared_result;
	const char *shared_skip; /* static: why there is no arena, when there is none */
	double *arrive_us, *end_us;         /* this rank's stamps, per attempt */
	double *learnt_us;                  /* window: when this rank learnt the start, after it */
	double *all_arrive_us, *all_end_us; /* rank 0: nranks x attempts, rank-major */
	double *all_learnt_us;              /* rank 0 (window): the same of learnt_us */
	double *max_us;       /* rank 0: the samples (kept attempts) */
	double *rank_mean_us; /* rank 0: nranks, mean time inside one call */
	double *rank_late_us; /* rank 0: nranks, mean arrival after the start */
	double *rank_learnt_us; /* rank 0 (window): nranks, mean time the start was learnt after it */
	double *blame_us;     /* rank 0: 2 x nranks, timing_analyze's scratch */
	double *sorted_us;    /* rank 0: max_samples, the stopping rule's scratch */
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
/* The same for collective c over hosts hosts (ar_collective_unsupported). */
const char *bench_collective_skipped(const struct bench_bufs *b, const struct ar_variant *v,
                                     enum ar_collective c, int nranks, int hosts, enum ar_op op);

struct bench_result {
	int iterations;        /* samples kept (in b->max_us) */
	int attempts;          /* timed attempts: iterations + late starts */
	int calls;             /* calls per sample: pipelined's batch, else 1 */
	double lead_us;        /* window: the lead of the last start */
	enum timing_method timing_method;
	struct timing_result timing; /* rank 0: late starts, straggler, cause */
	uint64_t wrong;        /* all ranks, when checked */
	int first_bad_rank;    /* -1 when nothing was wrong */
	struct ar_mismatch first; /* of first_bad_rank (on rank 0) */
	int mpi_rc;            /* MPI_SUCCESS, or the first error seen on this rank */
	/* rank 0: the p50's 95% interval (NAN with too few samples), and why sampling stopped */
	double ci_lo_us, ci_hi_us;
	enum sample_stop stop;
	struct codec_figures codec; /* a compressed variant's bytes and accuracy (on rank 0) */
};

/*
 * Measure one point. call carries comm, ranks, count, dtype, op, and whether
 * it is in place (input == result); its buffers are replaced by b's.
 * A compressed variant (ar_variant.codec) runs on gradient-like inputs
 * (codec_accuracy.h), counts the bytes it sends over the timed calls, and is
 * checked by one more call, untimed, against its format's bound.
 * On rank 0, b->max_us[0..iterations), b->rank_mean_us and b->rank_late_us
 * hold the samples and the per-rank means.
 * Returns MPI_SUCCESS, or an MPI error code (agreed by all ranks).
 */
int bench_point(const struct exec_plan *plan, const struct ar_call *call, bool in_place,
                const struct bench_cfg *cfg, struct bench_bufs *b, struct bench_result *out);

/* Average cost of one MPI_Wtime call, in microseconds (measured here). */
double bench_timer_overhead_us(void);

#endif
