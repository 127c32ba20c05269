/*
 * The compute a training step overlaps with its all-reduce (overlap, issue
 * 32): real work, not a spin loop, of two kinds, since a reduction competes
 * for what the compute uses:
 *   gemm:   a dense 48 x 48 double matrix multiply, repeated; its operands
 *           stay in cache: compute-bound (about 110k multiply-adds a unit);
 *   stream: a triad a = b + s x c over 32 MiB arrays, 16 KiB of each a unit,
 *           walked in turn: memory-bound, as a reduction of a large buffer is.
 * compute_for runs units until a duration has passed, calling a test
 * function at most every interval: the test calls that progress a
 * non-blocking all-reduce, timed apart from the compute. Pure: no MPI.
 */
#ifndef COLLSCOPE_COMPUTE_H
#define COLLSCOPE_COMPUTE_H

#include <stdbool.h>
#include <stddef.h>

enum compute_kind { COMPUTE_GEMM, COMPUTE_STREAM, COMPUTE_KINDS };

/* "gemm", "stream"; NULL-terminated, in the enum's order. */
extern const char *const compute_kind_names[];

struct compute {
	enum compute_kind kind;
	double *a, *b, *c; /* owned */
	size_t len;        /* elements of each */
	size_t at;         /* stream: where the next unit starts */
	double sink;       /* keeps the work observable */
};

/* What one compute_for did: its wall time, and of it the test calls. */
struct compute_run {
	double wall_us, test_us;
	int tests, units;
};

/* Allocates and touches the operands. 0, or -1 when out of memory. */
int compute_init(struct compute *k, enum compute_kind kind);
void compute_release(struct compute *k);
/* One unit of work. */
void compute_unit(struct compute *k);
/*
 * Units until duration_us has passed (at least one); with test non-NULL,
 * test(arg) after a unit whenever interval_us has passed since the last
 * call ended. The first non-zero return of test stops the calls (not the
 * compute) and is returned; 0 otherwise.
 */
int compute_for(struct compute *k, double duration_us, double interval_us, int (*test)(void *arg),
                void *arg, struct compute_run *out);
/* Microseconds of CLOCK_MONOTONIC. */
double compute_now_us(void);

#endif
