/* Reduction kernels, bfloat16 rounding, input patterns and their expected values. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "algorithms/dtype.h"
#include "algorithms/pattern.h"

Test(dtype, names_and_aliases_parse)
{
	enum ar_dtype t;
	enum ar_op op;
	cr_expect(ar_dtype_parse("float32", &t) && t == AR_FLOAT32);
	cr_expect(ar_dtype_parse("bf16", &t) && t == AR_BFLOAT16);
	cr_expect(ar_dtype_parse("DOUBLE", &t) && t == AR_FLOAT64);
	cr_expect(!ar_dtype_parse("float16", &t));
	cr_expect(!ar_dtype_parse("", &t));
	cr_expect(ar_op_parse("max", &op) && op == AR_MAX);
	cr_expect(!ar_op_parse("avg", &op));
	for (int i = 0; i < AR_DTYPE_COUNT; i++)
		cr_expect(ar_dtype_parse(ar_dtype_name((enum ar_dtype)i), &t) && t == (enum ar_dtype)i);
	cr_expect_eq(ar_dtype_bytes(AR_BFLOAT16), 2);
	cr_expect_eq(ar_dtype_bytes(AR_INT64), 8);
}

Test(dtype, bf16_round_to_nearest_even)
{
	/* 1 + 2^-8 lies halfway between bf16 1.0 and 1 + 2^-7: ties go to the even one, 1.0 */
	cr_expect_eq(ar_float_to_bf16(1.0f + 0x1p-8f), 0x3f80);
	/* 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even): rounds up */
	cr_expect_eq(ar_float_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
	/* just above halfway rounds up */
	cr_expect_eq(ar_float_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
	cr_expect_eq(ar_float_to_bf16(-2.0f), 0xc000);
	cr_expect_eq(ar_float_to_bf16(INFINITY), 0x7f80);
	cr_expect(isnan(ar_bf16_to_float(ar_float_to_bf16(NAN))));
	/* the largest float rounds to infinity, as IEEE rounding does */
	cr_expect_eq(ar_float_to_bf16(3.4028235e38f), 0x7f80);
	for (int v = -256; v <= 256; v++)
		cr_expect_eq(ar_bf16_to_float(ar_float_to_bf16((float)v)), (float)v, "integer %d", v);
}

Test(dtype, bf16_sum_is_rounded_back)
{
	/* 256 + 1 = 257 is not a bfloat16: it rounds to even, 256 */
	uint16_t a[3] = {ar_float_to_bf16(256), ar_float_to_bf16(1), ar_float_to_bf16(-3)};
	uint16_t b[3] = {ar_float_to_bf16(1), ar_float_to_bf16(2), ar_float_to_bf16(4)};
	uint16_t out[3];
	ar_reduce(out, a, b, 3, AR_BFLOAT16, AR_SUM);
	cr_expect_eq(ar_bf16_to_float(out[0]), 256.0f);
	cr_expect_eq(ar_bf16_to_float(out[1]), 3.0f);
	cr_expect_eq(ar_bf16_to_float(out[2]), 1.0f);
	ar_reduce(out, a, b, 3, AR_BFLOAT16, AR_MIN);
	cr_expect_eq(ar_bf16_to_float(out[2]), -3.0f);
}

/* Every dtype and op over a length that crosses the bfloat16 block size, aliased and not. */
Test(dtype, kernels_every_dtype_and_op)
{
	enum { N = 1031 };
	for (int t = 0; t < AR_DTYPE_COUNT; t++)
		for (int op = 0; op < AR_OP_COUNT; op++) {
			size_t w = ar_dtype_bytes((enum ar_dtype)t);
			unsigned char a[N * 8], b[N * 8], out[N * 8];
			ar_pattern_fill(a, (enum ar_dtype)t, (enum ar_op)op, 0, 2, N);
			ar_pattern_fill(b, (enum ar_dtype)t, (enum ar_op)op, 1, 2, N);
			ar_reduce(out, a, b, N, (enum ar_dtype)t, (enum ar_op)op);
			cr_expect_eq(ar_pattern_check(out, (enum ar_dtype)t, (enum ar_op)op, 2, N, NULL), 0,
			             "%s %s", ar_dtype_name((enum ar_dtype)t), ar_op_name((enum ar_op)op));
			unsigned char b2[N * 8];
			memcpy(b2, b, N * w);
			ar_reduce(b2, a, b2, N, (enum ar_dtype)t, (enum ar_op)op); /* out is b */
			cr_expect_eq(memcmp(b2, out, N * w), 0, "out == b");
			ar_reduce(a, a, b, N, (enum ar_dtype)t, (enum ar_op)op); /* out is a */
			cr_expect_eq(memcmp(a, out, N * w), 0, "out == a");
		}
}

Test(pattern, expected_is_the_reduction_of_values)
{
	for (int op = 0; op < AR_OP_COUNT; op++)
		for (int n = 1; n <= 70; n += 23)
			for (size_t i = 0; i < 200; i++) {
				int64_t acc = ar_pattern_value((enum ar_op)op, 0, n, i);
				for (int r = 1; r < n; r++) {
					int64_t v = ar_pattern_value((enum ar_op)op, r, n, i);
					acc = op == AR_SUM    ? acc + v
					      : op == AR_PROD ? acc * v
					      : op == AR_MIN  ? (v < acc ? v : acc)
					                      : (v > acc ? v : acc);
				}
				cr_expect_eq(ar_pattern_expected((enum ar_op)op, n, i), acc);
			}
}

/* Every expected value, at any rank count, is an integer that bfloat16 holds exactly. */
Test(pattern, expected_fits_bfloat16_up_to_4096_ranks)
{
	int counts[] = {1, 2, 3, 33, 64, 65, 1000, 4096};
	for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
		for (int op = 0; op < AR_OP_COUNT; op++)
			for (size_t i = 0; i < 600; i++) {
				int64_t e = ar_pattern_expected((enum ar_op)op, counts[k], i);
				float f = (float)e;
				cr_expect_eq(ar_bf16_to_float(ar_float_to_bf16(f)), f, "op %d n %d i %zu: %lld",
				             op, counts[k], i, (long long)e);
			}
}

Test(pattern, check_names_the_first_mismatch)
{
	float buf[100];
	struct ar_mismatch m;
	ar_pattern_fill(buf, AR_FLOAT32, AR_SUM, 0, 1, 100);
	cr_expect_eq(ar_pattern_check(buf, AR_FLOAT32, AR_SUM, 1, 100, &m), 0);
	buf[42] += 1;
	buf[77] = -buf[77] + 100;
	cr_expect_eq(ar_pattern_check(buf, AR_FLOAT32, AR_SUM, 1, 100, &m), 2);
	cr_expect_eq(m.index, 42);
	cr_expect_eq(m.got, m.expected + 1);
	cr_expect_neq(m.got_bits, m.expected_bits);
}

Test(pattern, fill_is_periodic_for_any_count)
{
	for (size_t count = 0; count < 300; count += 7) {
		int64_t buf[300];
		ar_pattern_fill(buf, AR_INT64, AR_PROD, 3, 5, count);
		for (size_t i = 0; i < count; i++)
			cr_expect_eq(buf[i], ar_pattern_value(AR_PROD, 3, 5, i));
	}
}
