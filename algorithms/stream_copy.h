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

#include <stdbool.h>
#include <stddef.h>

/* dst and src must not overlap; any alignment and length. */
void ar_stream_copy(void *dst, const void *src, size_t bytes);

/*
 * Whether streaming pays for an operation whose buffers add up to footprint
 * bytes: only when they would not fit in the cache. Below that, ordinary
 * stores leave the data in cache for whoever reads it next, which is worth
 * more than the saved read: in the shm variant at 2 ranks, 1 MiB took 29-30
 * us with ordinary stores against 44-46 us streaming, while 16 MiB (64 MiB of
 * buffers) took 1.29-1.38 ms against 1.18-1.34.
 */
bool ar_stream_pays(size_t footprint_bytes);

/*
 * The footprint from which streaming pays, for a last-level cache of
 * llc_bytes (0 or less when unknown): 3/4 of it, as glibc's memcpy decides,
 * with the cache taken as AR_STREAM_LLC_MAX_BYTES at most. That cap is the
 * L3 one core complex of a current server CPU shares, and virtual machines
 * often report their host's whole cache (here 508 MiB, against a crossover
 * measured between 16 and 32 MiB of buffers at 2 and at 4 ranks).
 */
#define AR_STREAM_LLC_MAX_BYTES ((size_t)32 << 20)
size_t ar_stream_threshold_bytes(long llc_bytes);

/* ar_stream_copy when stream, else memcpy. */
void ar_store_copy(void *dst, const void *src, size_t bytes, bool stream);

#endif
