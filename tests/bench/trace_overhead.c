/*
 * make bench: what --trace costs the all-reduce, measured in one process.
 *
 * The ring at SIZE bytes (float32 sum) runs ROUNDS x CALLS pairs of calls,
 * each call after a barrier and timed alone as allreduce times an iteration:
 * one untraced, one traced (call.trace set: every step writes its entry, as
 * with --trace), in an order that flips from pair to pair. A busy machine
 * slows both kinds alike, a call apart; the ratio of the medians of their
 * times is --trace's overhead. Rank 0
 * prints one JSON line: {"bytes", "ranks", "rounds", "calls", "plain_us",
 * "traced_us", "ratio", "entries_per_call"}.
 *
 * usage: mpirun -np 2 trace_overhead [SIZE (default 1048576)] [ROUNDS (60)] [CALLS (50)]
 * Built by tests/bench/bench.py against the objects of build/algorithms.
 */
#include <mpi.h>

#include "algorithms/executor.h"
#include "algorithms/pattern.h"
#include "algorithms/trace.h"

#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *x, int n)
{
	qsort(x, (size_t)n, sizeof *x, cmp);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* One call after a barrier, timed alone as allreduce times an iteration: the slowest rank's time. */
static double one_call(const struct exec_plan *p, const struct ar_call *c)
{
	double mine, slowest;
	MPI_Barrier(c->comm);
	double t0 = MPI_Wtime();
	exec_run(p, c);
	mine = (MPI_Wtime() - t0) * 1e6;
	MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, c->comm);
	return slowest;
}

int main(int argc, char **argv)
{
	size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)1 << 20;
	int rounds = argc > 2 ? atoi(argv[2]) : 60, calls = argc > 3 ? atoi(argv[3]) : 50;
	int rank, nranks;
	struct exec_plan plan;
	struct trace_ring ring;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	size_t count = bytes / sizeof(float);
	if (rounds < 1 || calls < 1 || count == 0 ||
	    exec_plan_init(&plan, &ar_variant_ring, rank, nranks, count, AR_FLOAT32,
	                   SCHED_DEFAULT_SEGMENT_BYTES) != 0 ||
	    trace_ring_init(&ring, TRACE_DEFAULT_ENTRIES) != 0) {
		fprintf(stderr, "trace_overhead: bad arguments or no memory\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	size_t scratch_bytes = exec_plan_scratch_bytes(&plan);
	void *in = calloc(count, sizeof(float)), *out = calloc(count, sizeof(float));
	void *scratch = calloc(scratch_bytes ? scratch_bytes : 1, 1);
	size_t n = (size_t)rounds * (size_t)calls;
	double *plain = calloc(n, sizeof *plain), *traced = calloc(n, sizeof *traced);
	if (!in || !out || !scratch || !plain || !traced)
		MPI_Abort(MPI_COMM_WORLD, 5);
	ar_pattern_fill(in, AR_FLOAT32, AR_SUM, rank, nranks, count);
	struct ar_call c = {.comm = MPI_COMM_WORLD, .rank = rank, .nranks = nranks, .input = in,
	                    .result = out, .count = count, .dtype = AR_FLOAT32, .op = AR_SUM,
	                    .scratch = scratch};
	for (int i = 0; i < calls; i++)
		one_call(&plan, &c); /* warm-up: pages, connections */
	/* pairs of calls, untraced and traced, in an order that flips every call */
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 2; k++) {
			bool trace = (k + (int)(i % 2)) % 2 == 1;
			c.trace = trace ? &ring : NULL;
			(trace ? traced : plain)[i] = one_call(&plan, &c);
		}
	uint64_t entries = trace_written(&ring);
	if (rank == 0) {
		double p = median(plain, (int)n), t = median(traced, (int)n);
		printf("{\"bytes\": %zu, \"ranks\": %d, \"rounds\": %d, \"calls\": %d, \"plain_us\": %.3f, "
		       "\"traced_us\": %.3f, \"ratio\": %.5f, \"entries_per_call\": %.2f}\n",
		       count * sizeof(float), nranks, rounds, calls, p, t, t / p,
		       (double)entries / ((double)rounds * calls));
	}
	free(in);
	free(out);
	free(scratch);
	free(plain);
	free(traced);
	trace_ring_release(&ring);
	exec_plan_release(&plan);
	MPI_Finalize();
	return 0;
}
