/*
 * The fused sum-and-stream kernel: every result equals the pairwise left-to-right sum bit for
 * bit, at every alignment and length, nothing written outside, in place too; and it declines
 * (writing nothing) where it cannot stream.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/dtype.h"
#include "algorithms/stream_sum.h"

enum { GUARD = 16, MAXN = 5 };

static float value(int s, size_t i)
{
	return (float)((i * 2654435761u + (unsigned)s * 40503u) % 1000u) * 0.37f - 90.0f;
}

/* nsrc sources, ndst results at offset off (elements) of buffers of their own; checks all. */
static void check_sum(int nsrc, int ndst, size_t off, size_t count)
{
	float *src[MAXN], *dst[MAXN], *want = malloc((count + 1) * sizeof *want);
	for (int s = 0; s < nsrc; s++) {
		src[s] = malloc((count + off + 1) * sizeof(float));
		for (size_t i = 0; i < count + off + 1; i++)
			src[s][i] = value(s, i);
	}
	/* the reference: ar_reduce, pairwise, source 0 first */
	memcpy(want, src[0] + off, count * sizeof *want);
	for (int s = 1; s < nsrc; s++)
		ar_reduce(want, want, src[s] + off, count, AR_FLOAT32, AR_SUM);
	float *base[MAXN];
	for (int d = 0; d < ndst; d++) {
		base[d] = aligned_alloc(64, ((count + off + 2 * GUARD) * sizeof(float) + 63) / 64 * 64);
		for (size_t i = 0; i < count + off + 2 * GUARD; i++)
			base[d][i] = -1.0f;
		dst[d] = base[d] + GUARD + off;
	}
	const float *csrc[MAXN];
	for (int s = 0; s < nsrc; s++)
		csrc[s] = src[s] + off;
	bool ok = ar_stream_sum_f32(dst, ndst, csrc, nsrc, count);
	if (!ar_stream_sum_supported()) {
		cr_assert(!ok, "a build or CPU that cannot stream declines");
	} else {
		cr_assert(ok, "%d sources, %d results, offset %zu, %zu elements: declined", nsrc, ndst,
		          off, count);
		for (int d = 0; d < ndst; d++) {
			cr_assert(memcmp(dst[d], want, count * sizeof *want) == 0,
			          "%d sources, offset %zu, %zu elements: result %d differs", nsrc, off,
			          count, d);
			for (size_t i = 0; i < GUARD + off; i++)
				cr_assert_eq(base[d][i], -1.0f, "result %d: element %zu before it written", d, i);
			for (size_t i = GUARD + off + count; i < count + off + 2 * GUARD; i++)
				cr_assert_eq(base[d][i], -1.0f, "result %d: element %zu after it written", d, i);
		}
	}
	for (int s = 0; s < nsrc; s++)
		free(src[s]);
	for (int d = 0; d < ndst; d++)
		free(base[d]);
	free(want);
}

Test(stream_sum, every_alignment_length_and_count_of_ranks)
{
	static const size_t counts[] = {0, 1, 7, 15, 16, 17, 31, 33, 1000, 4099};
	for (int nsrc = 1; nsrc <= 4; nsrc++)
		for (int ndst = 1; ndst <= 3; ndst++)
			for (size_t off = 0; off < 16; off += 3)
				for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
					check_sum(nsrc, ndst, off, counts[k]);
}

Test(stream_sum, large)
{
	check_sum(3, 2, 5, (size_t)3 << 20);
}

/* Results in place: each result is also a source, as shm's in-place call has it. */
Test(stream_sum, in_place)
{
	enum { N = 4099 };
	const size_t bytes = N * sizeof(float) + 52; /* a multiple of 64, as aligned_alloc wants */
	float *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes);
	float *want = malloc(N * sizeof(float));
	for (size_t i = 0; i < N; i++) {
		a[i] = value(0, i);
		b[i] = value(1, i);
		want[i] = a[i] + b[i];
	}
	float *dst[] = {a, b};
	const float *src[] = {a, b};
	if (ar_stream_sum_f32(dst, 2, src, 2, N)) {
		cr_assert(memcmp(a, want, N * sizeof(float)) == 0, "the first result differs");
		cr_assert(memcmp(b, want, N * sizeof(float)) == 0, "the second result differs");
	}
	free(a);
	free(b);
	free(want);
}

Test(stream_sum, declines_without_writing)
{
	float buf[64] = {0}, out[64 + 8];
	const float *src[] = {buf, buf};
	float *mixed[] = {(float *)(((uintptr_t)out + 31) & ~(uintptr_t)31),
	                  (float *)(((uintptr_t)out + 31) & ~(uintptr_t)31) + 1};
	for (size_t i = 0; i < 64 + 8; i++)
		out[i] = 5.0f;
	cr_assert(!ar_stream_sum_f32(mixed, 2, src, 2, 32), "results 4 bytes apart modulo 32");
	float *too_many[AR_STREAM_SUM_MAX + 1];
	for (int d = 0; d <= AR_STREAM_SUM_MAX; d++)
		too_many[d] = mixed[0];
	cr_assert(!ar_stream_sum_f32(too_many, AR_STREAM_SUM_MAX + 1, src, 2, 32), "65 results");
	cr_assert(!ar_stream_sum_f32(mixed, 0, src, 2, 32), "no result");
	for (size_t i = 0; i < 64 + 8; i++)
		cr_assert_eq(out[i], 5.0f, "element %zu written by a call that declined", i);
}
