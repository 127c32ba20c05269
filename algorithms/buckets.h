/*
 * The buckets of a training step's gradient (overlap --step, issue 32), as
 * PyTorch DDP cuts it: pure, no MPI, so the step's harness
 * (algorithms/step_bench.c) and the tests share one plan.
 */
#ifndef COLLSCOPE_BUCKETS_H
#define COLLSCOPE_BUCKETS_H

#include <stddef.h>

/* Buckets in flight at once: each needs a message tag of its own (algorithms/exec_nb.h). */
enum { OVERLAP_MAX_BUCKETS = 4096 };
/* The buckets of a gradient of grad_count elements, bucket_count each (>= 1), the last smaller. */
size_t overlap_buckets(size_t grad_count, size_t bucket_count);
/*
 * Bucket i (0 .. overlap_buckets - 1) of that gradient: its first element
 * and its element count (the last one holds what is left). Bucket i's
 * all-reduce starts when the i-th of as many compute chunks ends.
 */
size_t overlap_bucket_offset(size_t bucket_count, size_t i);
size_t overlap_bucket_count(size_t grad_count, size_t bucket_count, size_t i);

#endif
