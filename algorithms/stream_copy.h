/*
 * A copy whose stores bypass the cache (non-temporal stores), for results
 * far larger than the cache that nobody on this core reads again soon: an
 * ordinary store first reads the line it writes (read for ownership), so
 * streaming saves a third of the memory traffic of a large copy. Falls back
 * to memcpy where the CPU (or the compiler) has no such stores. Ends with a
 * store fence: once it returns, a barrier publishes the data to other cores.
 */
#ifndef COLLSCOPE_STREAM_COPY_H
#define COLLSCOPE_STREAM_COPY_H

#include <stddef.h>

/* dst and src must not overlap; any alignment and length. */
void ar_stream_copy(void *dst, const void *src, size_t bytes);

#endif
