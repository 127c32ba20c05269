/* See stream_copy.h. Pure: no MPI. */
#include "algorithms/stream_copy.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

size_t ar_stream_threshold_bytes(long llc_bytes)
{
	size_t llc = llc_bytes > 0 ? (size_t)llc_bytes : AR_STREAM_LLC_MAX_BYTES;
	if (llc > AR_STREAM_LLC_MAX_BYTES)
		llc = AR_STREAM_LLC_MAX_BYTES;
	return llc / 4 * 3;
}

bool ar_stream_pays(size_t footprint_bytes)
{
	static size_t threshold;
	if (!threshold) {
#ifdef _SC_LEVEL3_CACHE_SIZE
		threshold = ar_stream_threshold_bytes(sysconf(_SC_LEVEL3_CACHE_SIZE));
#else
		threshold = ar_stream_threshold_bytes(0);
#endif
	}
	return footprint_bytes > threshold;
}

void ar_store_copy(void *dst, const void *src, size_t bytes, bool stream)
{
	if (stream)
		ar_stream_copy(dst, src, bytes);
	else
		memcpy(dst, src, bytes);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#include <immintrin.h>

/* 32-byte streaming stores from unaligned loads; dst is 32-byte aligned. */
__attribute__((target("avx2"))) static void stream_avx2(char *dst, const char *src, size_t n)
{
	for (size_t i = 0; i + 128 <= n; i += 128) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(src + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(src + i + 32));
		__m256i c = _mm256_loadu_si256((const __m256i *)(src + i + 64));
		__m256i d = _mm256_loadu_si256((const __m256i *)(src + i + 96));
		_mm256_stream_si256((__m256i *)(dst + i), a);
		_mm256_stream_si256((__m256i *)(dst + i + 32), b);
		_mm256_stream_si256((__m256i *)(dst + i + 64), c);
		_mm256_stream_si256((__m256i *)(dst + i + 96), d);
	}
	_mm_sfence();
}

void ar_stream_copy(void *dst, const void *src, size_t bytes)
{
	char *d = dst;
	const char *s = src;
	if (bytes < 4096 || !__builtin_cpu_supports("avx2")) {
		memcpy(d, s, bytes);
		return;
	}
	size_t head = (32 - ((uintptr_t)d & 31)) & 31;
	memcpy(d, s, head);
	size_t body = (bytes - head) & ~(size_t)127;
	stream_avx2(d + head, s + head, body);
	memcpy(d + head + body, s + head + body, bytes - head - body);
}

#else

void ar_stream_copy(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }

#endif
