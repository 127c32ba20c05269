/*
 * The sum of several float32 arrays stored straight into several results with
 * streaming stores, in one pass: no partial sum is written anywhere. The shm
 * variant's one-host step (shm_host.h) is exactly that: the host's inputs of
 * a slice summed into every rank's result. Reducing a block into a buffer in
 * cache and then streaming the block out (what every other type and operator
 * still does) alternates a phase that only reads memory with one that only
 * writes it; this keeps both directions busy at once: 1.5-1.8x the busbw of
 * shm at 16-256 MiB (the figures are at sum_range_fused, shm_host.c).
 */
#ifndef COLLSCOPE_STREAM_SUM_H
#define COLLSCOPE_STREAM_SUM_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many sources or results: the pointers live on the stack. */
enum { AR_STREAM_SUM_MAX = 64 };

/*
 * dst[d][i] = ((src[0][i] + src[1][i]) + src[2][i]) + ... for every d < ndst
 * and i < count, summed left to right (so bit for bit what reducing the
 * sources pairwise in that order gives), every dst[d][i] written once, and a
 * store fence at the end. A dst may be one of the srcs (in place): element i
 * of every source is read before element i of any result is written.
 * Returns false, and writes nothing, where it cannot stream: no AVX2 (or a
 * build without it), more than AR_STREAM_SUM_MAX sources or results, or
 * results whose addresses differ modulo 32 bytes (no common alignment).
 */
bool ar_stream_sum_f32(float *const *dst, int ndst, const float *const *src, int nsrc,
                       size_t count);

/* Whether this build on this CPU streams at all (false under ASan, which the intrinsics skip). */
bool ar_stream_sum_supported(void);

#endif
