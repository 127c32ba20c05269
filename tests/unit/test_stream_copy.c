/* The cache-bypassing copy: every byte lands, none beyond, at any alignment and length. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/stream_copy.h"

/* Copy src+soff into dst+doff for len bytes; guard bytes around must stay untouched. */
static void check_copy(size_t doff, size_t soff, size_t len)
{
	enum { GUARD = 64 };
	unsigned char *src = malloc(len + soff + 1), *dst = malloc(len + doff + 2 * GUARD);
	cr_assert(src && dst);
	for (size_t i = 0; i < len + soff + 1; i++)
		src[i] = (unsigned char)(i * 131u + 7u);
	memset(dst, 0xEE, len + doff + 2 * GUARD);
	ar_stream_copy(dst + GUARD + doff, src + soff, len);
	cr_assert(memcmp(dst + GUARD + doff, src + soff, len) == 0,
	          "dst offset %zu, src offset %zu, %zu bytes: the copy differs", doff, soff, len);
	for (size_t i = 0; i < GUARD + doff; i++)
		cr_assert_eq(dst[i], 0xEE, "byte %zu before the copy was written", i);
	for (size_t i = GUARD + doff + len; i < len + doff + 2 * GUARD; i++)
		cr_assert_eq(dst[i], 0xEE, "byte %zu after the copy was written", i);
	free(src);
	free(dst);
}

Test(stream_copy, every_alignment_around_the_streaming_threshold)
{
	static const size_t lens[] = {0, 1, 31, 4095, 4096, 4097, 4096 + 127, 4096 + 128, 65536 + 33};
	for (size_t d = 0; d < 64; d += 7)
		for (size_t s = 0; s < 64; s += 5)
			for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
				check_copy(d, s, lens[i]);
}

Test(stream_copy, large)
{
	check_copy(3, 17, (size_t)9 << 20);
}

/* Streaming from 3/4 of the last-level cache, which is taken as 32 MiB when unknown or larger. */
Test(stream_copy, streams_only_what_overflows_the_cache)
{
	cr_assert_eq(ar_stream_threshold_bytes(8 << 20), (size_t)6 << 20, "an 8 MiB cache: from 6 MiB");
	cr_assert_eq(ar_stream_threshold_bytes(0), (size_t)24 << 20, "unknown: as a 32 MiB cache");
	cr_assert_eq(ar_stream_threshold_bytes(-1), (size_t)24 << 20, "sysconf failed: as unknown");
	cr_assert_eq(ar_stream_threshold_bytes(532676608), (size_t)24 << 20,
	             "a virtual machine's 508 MiB: capped at 32 MiB");
	cr_assert(!ar_stream_pays(64 << 10), "64 KiB of buffers fits any cache");
	cr_assert(ar_stream_pays((size_t)1 << 30), "1 GiB of buffers overflows any cache");
}

Test(stream_copy, store_copy_lands_either_way)
{
	char src[8192], a[8192], b[8192];
	for (size_t i = 0; i < sizeof src; i++)
		src[i] = (char)(i * 7u);
	ar_store_copy(a, src, sizeof src, true);
	ar_store_copy(b, src, sizeof src, false);
	cr_assert(memcmp(a, src, sizeof src) == 0 && memcmp(b, src, sizeof src) == 0);
}
