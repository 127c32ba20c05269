/* The cache-bypassing copy: every byte lands, none beyond, at any alignment and length. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stream_copy.h"

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
