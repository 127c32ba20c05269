/* See stream_sum.h. Pure: no MPI. */
#include "algorithms/stream_sum.h"

#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#include <immintrin.h>

/* Elements [from, to) with ordinary stores: the unaligned head and the tail. */
static void sum_scalar(float *const *dst, int ndst, const float *const *src, int nsrc,
                       size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		float acc = src[0][i];
		for (int s = 1; s < nsrc; s++)
			acc += src[s][i];
		for (int d = 0; d < ndst; d++)
			dst[d][i] = acc;
	}
}

/* Elements [from, to), a multiple of 16 apart, every dst + from 32-byte aligned. */
__attribute__((target("avx2"))) static void sum_stream(float *const *dst, int ndst,
                                                      const float *const *src, int nsrc,
                                                      size_t from, size_t to)
{
	for (size_t i = from; i < to; i += 16) {
		/* 64 bytes a source and a result: a whole line for the write-combining buffers */
		__m256 lo = _mm256_loadu_ps(src[0] + i), hi = _mm256_loadu_ps(src[0] + i + 8);
		for (int s = 1; s < nsrc; s++) {
			lo = _mm256_add_ps(lo, _mm256_loadu_ps(src[s] + i));
			hi = _mm256_add_ps(hi, _mm256_loadu_ps(src[s] + i + 8));
		}
		for (int d = 0; d < ndst; d++) {
			_mm256_stream_ps(dst[d] + i, lo);
			_mm256_stream_ps(dst[d] + i + 8, hi);
		}
	}
}

bool ar_stream_sum_supported(void) { return __builtin_cpu_supports("avx2"); }

bool ar_stream_sum_f32(float *const *dst, int ndst, const float *const *src, int nsrc,
                       size_t count)
{
	if (ndst < 1 || nsrc < 1 || ndst > AR_STREAM_SUM_MAX || nsrc > AR_STREAM_SUM_MAX ||
	    !ar_stream_sum_supported())
		return false;
	const uintptr_t misalign = (uintptr_t)dst[0] & 31;
	for (int d = 1; d < ndst; d++)
		if (((uintptr_t)dst[d] & 31) != misalign)
			return false;
	if (misalign % sizeof(float))
		return false;
	size_t head = misalign ? (32 - misalign) / sizeof(float) : 0;
	if (head > count)
		head = count;
	const size_t body_end = head + (count - head) / 16 * 16;
	sum_scalar(dst, ndst, src, nsrc, 0, head);
	sum_stream(dst, ndst, src, nsrc, head, body_end);
	sum_scalar(dst, ndst, src, nsrc, body_end, count);
	_mm_sfence();
	return true;
}

#else

bool ar_stream_sum_supported(void) { return false; }

bool ar_stream_sum_f32(float *const *dst, int ndst, const float *const *src, int nsrc,
                       size_t count)
{
	(void)dst, (void)ndst, (void)src, (void)nsrc, (void)count;
	return false;
}

#endif
