/*
 * The codecs of the compressed variants (algorithms/codec.h): round trips,
 * the bound each format guarantees, and the edge values as documented there
 * (zeros, subnormals, infinities and NaN, the largest finite value, blocks
 * of one sign); top-k's selection and indices; error feedback over many calls.
 */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/codec.h"
#include "algorithms/codec_accuracy.h"
#include "algorithms/dtype.h"

/* A reproducible spread of values over many binades, both signs. */
static float spread(uint32_t *state, int min_exp, int max_exp)
{
	*state = *state * 1664525u + 1013904223u;
	uint32_t r = *state;
	float mant = 1.0f + (float)(r >> 9) * 0x1p-23f;
	int e = min_exp + (int)(r % (uint32_t)(max_exp - min_exp + 1));
	return (r & 0x100u ? -1.0f : 1.0f) * ldexpf(mant, e);
}

/* decode(encode(x)) for count values. */
static void round_trip(const struct ar_codec *c, const struct codec_cfg *cfg, const float *x,
                       float *out, size_t count, uint64_t seed)
{
	void *wire = malloc(c->wire_bound(count, cfg) + 1);
	void *work = malloc(codec_work_bytes(count) + 1);
	size_t bytes = c->encode(wire, x, count, cfg, seed, work);
	cr_assert_leq(bytes, c->wire_bound(count, cfg));
	cr_assert_eq(c->decode(out, NULL, wire, bytes, count), 0);
	free(wire);
	free(work);
}

/* --- the 16-bit casts ---------------------------------------------------- */

static void check_cast_bound(const struct ar_codec *c, double u, double eta, int min_exp,
                             int max_exp)
{
	enum { N = 20000 };
	static float x[N], y[N];
	uint32_t st = 7;
	for (int i = 0; i < N; i++)
		x[i] = spread(&st, min_exp, max_exp);
	round_trip(c, NULL, x, y, N, 0);
	for (int i = 0; i < N; i++)
		cr_assert_leq(fabs((double)y[i] - x[i]), u * fabs(x[i]) + eta, "%s: %a -> %a",
		              c->name, x[i], y[i]);
}

Test(codec_cast, bf16_error_within_its_bound_over_every_binade)
{
	check_cast_bound(&codec_bf16, 0x1p-8, 0x1p-134, -149, 127);
}

Test(codec_cast, fp16_error_within_its_bound_inside_its_range)
{
	/* up to 2^15 x 1.99: below 65504 + half an ulp, so nothing overflows */
	check_cast_bound(&codec_fp16, 0x1p-11, 0x1p-25, -30, 14);
}

Test(codec_cast, bf16_kernel_agrees_with_the_reduction_kernels_rounding)
{
	uint32_t st = 3;
	for (int i = 0; i < 5000; i++) {
		float x = spread(&st, -140, 127), y;
		round_trip(&codec_bf16, NULL, &x, &y, 1, 0);
		cr_assert_eq(y, ar_bf16_to_float(ar_float_to_bf16(x)), "%a", x);
	}
}

Test(codec_cast, fp16_every_pattern_round_trips)
{
	for (uint32_t h = 0; h <= 0xffffu; h++) {
		float f = codec_fp16_to_float((uint16_t)h);
		uint16_t back = codec_fp16_from_float(f);
		if (isnan(f))
			cr_assert(isnan(codec_fp16_to_float(back)), "0x%04x", h);
		else
			cr_assert_eq(back, h, "0x%04x -> %a -> 0x%04x", h, f, back);
	}
}

Test(codec_cast, fp16_rounds_to_nearest_even_and_overflows_as_ieee)
{
	cr_expect_eq(codec_fp16_from_float(1.0f + 0x1p-11f), 0x3c00); /* tie: to even */
	cr_expect_eq(codec_fp16_from_float(1.0f + 3 * 0x1p-11f), 0x3c02);
	cr_expect_eq(codec_fp16_from_float(65504.0f), 0x7bff); /* the largest finite */
	cr_expect_eq(codec_fp16_from_float(65519.0f), 0x7bff);
	cr_expect_eq(codec_fp16_from_float(65520.0f), 0x7c00); /* past it: infinity */
	cr_expect_eq(codec_fp16_from_float(0x1p-24f), 0x0001); /* the smallest subnormal */
	cr_expect_eq(codec_fp16_from_float(0x1p-26f), 0x0000); /* below half of it: zero */
	cr_expect_eq(codec_fp16_from_float(-0.0f), 0x8000);
	cr_expect_eq(codec_fp16_from_float(-INFINITY), 0xfc00);
	cr_expect(isnan(codec_fp16_to_float(codec_fp16_from_float(NAN))));
}

Test(codec_cast, edge_values_as_documented)
{
	const float x[] = {0.0f,     -0.0f,     0x1p-149f, -0x1p-140f, FLT_MIN,
	                   INFINITY, -INFINITY, NAN,       0x1.fep127f /* bf16's largest finite */};
	float y[sizeof x / sizeof x[0]];
	round_trip(&codec_bf16, NULL, x, y, sizeof x / sizeof x[0], 0);
	cr_expect(y[0] == 0 && !signbit(y[0]) && y[1] == 0 && signbit(y[1]));
	cr_expect_leq(fabsf(y[2] - x[2]), 0x1p-134f);
	cr_expect_leq(fabsf(y[3] - x[3]), 0x1p-134f);
	cr_expect_eq(y[4], FLT_MIN);
	cr_expect(isinf(y[5]) && y[5] > 0 && isinf(y[6]) && y[6] < 0 && isnan(y[7]));
	cr_expect_eq(y[8], x[8]);
	float big = FLT_MAX, out;
	round_trip(&codec_bf16, NULL, &big, &out, 1, 0);
	cr_expect(isinf(out), "beyond bf16's largest finite IEEE rounding gives infinity");
}

/*
 * fp16's edges through the codec's own kernels, each value at every lane
 * of the vector body and in the scalar tail (the pattern repeated, odd
 * total): signed zeros, subnormals of both formats, the smallest normal,
 * the largest finite value and the ties around it, infinities and NaN.
 */
Test(codec_cast, fp16_codec_edges_in_every_lane)
{
	const float e[] = {0.0f,     -0.0f,    0x1p-24f /* smallest subnormal */,
	                   0x1p-25f /* a tie: to even, 0 */, -0x1p-140f, 0x1p-14f /* smallest normal */,
	                   65504.0f, 65519.0f /* to 65504 */, 65520.0f /* a tie: to infinity */,
	                   -65520.0f, FLT_MAX,  INFINITY, -INFINITY, NAN};
	enum { E = sizeof e / sizeof e[0], N = 3 * 64 + 5 };
	float x[N], y[N];
	for (int i = 0; i < N; i++)
		x[i] = e[(i + i / E) % E]; /* every value meets every lane in turn */
	round_trip(&codec_fp16, NULL, x, y, N, 0);
	for (int i = 0; i < N; i++) {
		float v = x[i];
		if (isnan(v))
			cr_expect(isnan(y[i]), "[%d] NaN stays NaN, got %a", i, y[i]);
		else if (fabsf(v) >= 65520.0f)
			cr_expect(isinf(y[i]) && signbit(y[i]) == signbit(v),
			          "[%d] %a beyond the largest finite: an infinity, got %a", i, v, y[i]);
		else if (v == 0x1p-25f || v == -0x1p-140f || v == 0.0f)
			cr_expect(y[i] == 0 && signbit(y[i]) == signbit(v), "[%d] %a -> %a", i, v, y[i]);
		else if (v == 65519.0f)
			cr_expect_eq(y[i], 65504.0f, "[%d] 65519 -> %a", i, y[i]);
		else
			cr_expect_eq(y[i], v, "[%d] %a is exact in binary16, got %a", i, v, y[i]);
	}
}

Test(codec_cast, decode_accumulates_in_float32)
{
	float x[3] = {1.0f, 2.0f, -3.0f}, lhs[3] = {0x1p-20f, 1.0f, 3.0f}, out[3];
	uint16_t wire[3];
	cr_assert_eq(codec_bf16.encode(wire, x, 3, NULL, 0, NULL), 6);
	cr_assert_eq(codec_bf16.decode(out, lhs, wire, 6, 3), 0);
	/* 1 + 2^-20 survives: the sum is float32, not bfloat16 */
	cr_expect_eq(out[0], 1.0f + 0x1p-20f);
	cr_expect_eq(out[1], 3.0f);
	cr_expect_eq(out[2], 0.0f);
	cr_expect_eq(codec_bf16.decode(out, lhs, wire, 5, 3), -1, "a short message is refused");
}

/* --- int8 blocks --------------------------------------------------------- */

/* Every element within its block's bound: s/2 to nearest, s stochastically. */
static void check_int8_blocks(const float *x, const float *y, size_t count, bool stochastic)
{
	for (size_t off = 0; off < count; off += CODEC_INT8_BLOCK) {
		size_t n = count - off < CODEC_INT8_BLOCK ? count - off : CODEC_INT8_BLOCK;
		float m = 0;
		for (size_t i = 0; i < n; i++)
			m = fmaxf(m, fabsf(x[off + i]));
		int e = codec_int8_exponent(m);
		double s = ldexp(1.0, e), bound = e == CODEC_INT8_EXP_MAX || stochastic ? s : s / 2;
		cr_assert_leq(s, 2.0 * m / 127 + 0x1p-133);
		for (size_t i = 0; i < n; i++)
			cr_assert_leq(fabs((double)y[off + i] - x[off + i]), bound,
			              "index %zu: %a -> %a (block max %a)", off + i, x[off + i],
			              y[off + i], m);
	}
}

Test(codec_int8, blocks_within_their_bound_at_every_scale)
{
	enum { N = 256 * 40 + 17 };
	static float x[N], y[N];
	uint32_t st = 11;
	for (int i = 0; i < N; i++) /* each block its own range of binades */
		x[i] = spread(&st, -140 + (i / 256) * 6, -130 + (i / 256) * 6);
	round_trip(&codec_int8, NULL, x, y, N, 0);
	check_int8_blocks(x, y, N, false);
	struct codec_cfg sr = {.stochastic = true};
	round_trip(&codec_int8, &sr, x, y, N, 42);
	check_int8_blocks(x, y, N, true);
}

Test(codec_int8, edge_blocks_zeros_subnormals_one_sign_largest)
{
	enum { B = CODEC_INT8_BLOCK };
	static float x[5 * B], y[5 * B];
	for (int i = 0; i < B; i++) {
		x[i] = 0.0f;                                  /* zeros */
		x[B + i] = (float)(i + 1) * 0x1p-149f;        /* subnormals */
		x[2 * B + i] = 1.0f + (float)i;               /* all positive */
		x[3 * B + i] = -0.001f * (float)(i + 1);      /* all negative */
		x[4 * B + i] = FLT_MAX - (float)i * 0x1p100f; /* the largest finite */
	}
	for (int stochastic = 0; stochastic < 2; stochastic++) { /* to nearest, then stochastically */
		struct codec_cfg cfg = {.stochastic = stochastic};
		round_trip(&codec_int8, &cfg, x, y, 5 * B, 77);
		check_int8_blocks(x, y, 5 * B, stochastic);
		for (int i = 0; i < B; i++) {
			cr_expect_eq(y[i], 0.0f);
			cr_expect(y[2 * B + i] >= 0 && y[3 * B + i] <= 0, "one sign stays one sign");
			cr_expect(isfinite(y[4 * B + i]), "the largest finite stays finite");
		}
		cr_expect_eq(y[2 * B + B - 1], 256.0f, "the block's largest is exact at a power of two");
	}
}

Test(codec_int8, a_non_finite_value_poisons_its_block_alone)
{
	enum { B = CODEC_INT8_BLOCK };
	static float x[3 * B], y[3 * B];
	for (int i = 0; i < 3 * B; i++)
		x[i] = (float)(i % 7) - 3.0f;
	x[B + 5] = INFINITY;
	x[2 * B + 9] = NAN;
	for (int stochastic = 0; stochastic < 2; stochastic++) {
		struct codec_cfg cfg = {.stochastic = stochastic};
		round_trip(&codec_int8, &cfg, x, y, 3 * B, 5);
		for (int i = 0; i < B; i++) {
			cr_expect_eq(y[i], x[i]);
			cr_expect(isnan(y[B + i]) && isnan(y[2 * B + i]));
		}
	}
}

Test(codec_int8, decoded_blocks_encode_to_themselves)
{
	enum { N = 256 * 8 + 3 };
	static float x[N], y[N], z[N];
	uint32_t st = 5;
	for (int stochastic = 0; stochastic < 2; stochastic++) {
		struct codec_cfg cfg = {.stochastic = stochastic};
		for (int i = 0; i < N; i++)
			x[i] = spread(&st, -20, 20);
		round_trip(&codec_int8, &cfg, x, y, N, 1);
		round_trip(&codec_int8, &cfg, y, z, N, 2);
		cr_assert(memcmp(y, z, sizeof y) == 0, "stochastic %d", stochastic);
	}
}

Test(codec_int8, stochastic_rounding_is_unbiased)
{
	enum { N = 256, CALLS = 4000 };
	float x[N], y[N];
	double mean[N] = {0};
	struct codec_cfg cfg = {.stochastic = true};
	for (int i = 0; i < N; i++)
		x[i] = 127.0f * (float)i / N + 0.3f; /* scale 1: every value between two steps */
	for (int t = 0; t < CALLS; t++) {
		round_trip(&codec_int8, &cfg, x, y, N, (uint64_t)t * 7919);
		for (int i = 0; i < N; i++)
			mean[i] += y[i] / CALLS;
	}
	for (int i = 0; i < N; i++) /* the standard error is at most 0.5 / sqrt(4000) = 0.008 */
		cr_expect_leq(fabs(mean[i] - x[i]), 0.04, "index %d: mean %f of %f", i, mean[i],
		              x[i]);
}

Test(codec_int8, sizes_and_refusals)
{
	cr_expect_eq(codec_int8.wire_bound(1, NULL), 2);
	cr_expect_eq(codec_int8.wire_bound(256, NULL), 257);
	cr_expect_eq(codec_int8.wire_bound(257, NULL), 259);
	float x[2] = {1, 2}, y[2];
	uint8_t wire[4];
	size_t bytes = codec_int8.encode(wire, x, 2, NULL, 0, NULL);
	cr_expect_eq(codec_int8.decode(y, NULL, wire, bytes - 1, 2), -1);
	cr_expect_eq(codec_int8.decode(y, NULL, wire, bytes + 1, 2), -1);
}

/* --- top-k --------------------------------------------------------------- */

Test(codec_topk, k_is_the_ratio_rounded_up)
{
	cr_expect_eq(codec_topk_count(0, 0.01), 0);
	cr_expect_eq(codec_topk_count(1, 0.01), 1);
	cr_expect_eq(codec_topk_count(1000, 0.01), 10);
	cr_expect_eq(codec_topk_count(1031, 0.01), 11);
	cr_expect_eq(codec_topk_count(7, 0.5), 4);
}

Test(codec_topk, keeps_the_largest_magnitudes_exactly_and_drops_the_rest)
{
	enum { N = 1031 };
	static float x[N], y[N];
	uint32_t st = 9;
	for (int i = 0; i < N; i++)
		x[i] = spread(&st, -10, 10);
	struct codec_cfg cfg = {.topk_ratio = 0.05};
	size_t k = codec_topk_count(N, 0.05);
	round_trip(&codec_topk, &cfg, x, y, N, 0);
	float smallest_kept = INFINITY, largest_dropped = 0;
	size_t kept = 0;
	for (int i = 0; i < N; i++) {
		if (y[i] != 0) {
			cr_assert_eq(y[i], x[i], "a kept value is exact");
			smallest_kept = fminf(smallest_kept, fabsf(x[i]));
			kept++;
		} else {
			largest_dropped = fmaxf(largest_dropped, fabsf(x[i]));
		}
	}
	cr_expect_eq(kept, k);
	cr_expect_geq(smallest_kept, largest_dropped);
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x < y) - (x > y);
}

/* |x|'s bit pattern: codec.h's order of magnitudes, NaN above infinity above every finite value. */
static uint32_t magnitude_bits(float x)
{
	uint32_t b;
	memcpy(&b, &x, sizeof b);
	return b & 0x7fffffffu;
}

/* The wire against a sort: every value above the k-th largest magnitude, then its first ties. */
static void check_against_sort(const float *x, size_t n, double ratio)
{
	struct codec_cfg cfg = {.topk_ratio = ratio};
	size_t k = codec_topk_count(n, ratio);
	uint32_t *mag = malloc(n * sizeof *mag);
	uint32_t *wire = malloc(codec_topk.wire_bound(n, &cfg));
	void *work = malloc(codec_work_bytes(n));
	for (size_t i = 0; i < n; i++)
		mag[i] = magnitude_bits(x[i]);
	qsort(mag, n, sizeof *mag, cmp_desc);
	uint32_t t = mag[k - 1];
	size_t greater = 0;
	while (greater < n && mag[greater] > t)
		greater++;
	cr_assert_eq(codec_topk.encode(wire, x, n, &cfg, 0, work), 8 * k);
	size_t m = 0, ties = k - greater;
	for (size_t i = 0; i < n && m < k; i++) {
		uint32_t v = magnitude_bits(x[i]);
		if (v > t || (v == t && ties && ties--)) {
			cr_assert_eq(wire[m], i, "n %zu ratio %g: entry %zu", n, ratio, m);
			/* the value's bits: a NaN is sent as it is */
			cr_assert_eq(memcmp(wire + k + m, &x[i], sizeof x[i]), 0);
			m++;
		}
	}
	cr_assert_eq(m, k);
	free(mag);
	free(wire);
	free(work);
}

/* Both ways to the threshold (a sample's estimate, the radix histogram) agree with a sort. */
Test(codec_topk, selection_agrees_with_a_sort)
{
	enum { N = 65536 };
	static float x[N];
	codec_input_fill(x, 1, N); /* gradient-like: the sampled path */
	check_against_sort(x, N, 0.01);
	check_against_sort(x, N, 0.5);
	check_against_sort(x, N, 1.0 / N); /* k = 1 */
	for (int i = 0; i < N; i++)        /* three magnitudes: ties everywhere */
		x[i] = (float)(i % 3) - 1.0f;
	check_against_sort(x, N, 0.01);
	memset(x, 0, sizeof x); /* an all-gather's rounded chunk: mostly zeros */
	for (int i = 0; i < N; i += 211)
		x[i] = (float)i;
	check_against_sort(x, N, 0.01);
	check_against_sort(x, 1031, 0.01); /* too few for a sample */
}

/*
 * The sampled path's edges: NaN and infinities in the sample and outside
 * it, ties at the threshold among the candidates, counts that are no
 * multiple of the gather's blocks or the sample's runs, and a sample that
 * misjudges the rest (far too many candidates: the radix path decides).
 */
Test(codec_topk, sampled_path_edges_agree_with_a_sort)
{
	enum { N = 65536 + 13 };
	static float x[N];
	codec_input_fill(x, 2, N);
	/* the sample reads runs of 16 values 512 apart: 0 and 512 are in it, 7001 and N - 1 not */
	x[0] = NAN;
	x[512] = -INFINITY;
	x[7001] = INFINITY;
	x[N - 1] = -NAN;
	check_against_sort(x, N, 0.01);
	check_against_sort(x, N, 1.0 / N); /* k = 1: the largest NaN pattern */
	check_against_sort(x, 4099, 0.01);
	check_against_sort(x, 4099, 0.5);
	for (int i = 0; i < N; i++) /* a coarse grid: many ties at the threshold */
		x[i] = roundf(x[i] * 4) / 4;
	check_against_sort(x, N, 0.01);
	check_against_sort(x, N - 13, 0.003);
	for (int i = 0; i < N; i++) /* large everywhere but in the sample */
		x[i] = i % 512 < 16 ? (float)(i % 7) : 100.0f + (float)(i % 3);
	check_against_sort(x, N, 0.01);
	for (int i = 0; i < N; i++) /* one NaN pattern throughout: all ties */
		x[i] = NAN;
	check_against_sort(x, N, 0.01);
}

Test(codec_topk, tiny_segments_agree_with_a_sort)
{
	float x[5] = {-0.0f, 0.0f, 3, -3, NAN};
	for (size_t n = 1; n <= 5; n++) {
		check_against_sort(x, n, 0.5);  /* k = ceil(n / 2); k = count at n = 1 */
		check_against_sort(x, n, 0.01); /* k = 1 */
		check_against_sort(x + 5 - n, n, 0.5);
	}
}

Test(codec_topk, ties_by_position_non_finite_kept_indices_checked)
{
	float x[8] = {1, -1, 1, NAN, 1, -INFINITY, 1, 0}, y[8];
	struct codec_cfg cfg = {.topk_ratio = 0.5}; /* k = 4 */
	uint32_t wire[8], *work = malloc(codec_work_bytes(8));
	size_t bytes = codec_topk.encode(wire, x, 8, &cfg, 0, work);
	free(work);
	cr_assert_eq(bytes, 32);
	/* NaN and -inf, and the first two ties of magnitude 1, in index order */
	cr_expect_eq(wire[0], 0);
	cr_expect_eq(wire[1], 1);
	cr_expect_eq(wire[2], 3);
	cr_expect_eq(wire[3], 5);
	cr_assert_eq(codec_topk.decode(y, NULL, wire, bytes, 8), 0);
	cr_expect(isnan(y[3]) && isinf(y[5]) && y[0] == 1 && y[1] == -1 && y[2] == 0);
	/* the receiver adds into its own values (the index exchange) */
	float acc[8] = {1, 1, 1, 0, 1, 0, 1, 1};
	cr_assert_eq(codec_topk.decode(acc, acc, wire, bytes, 8), 0);
	cr_expect(acc[0] == 2 && acc[1] == 0 && acc[2] == 1 && acc[7] == 1);
	wire[1] = 8; /* an index past the segment */
	cr_expect_eq(codec_topk.decode(y, NULL, wire, bytes, 8), -1);
	cr_expect_eq(codec_topk.decode(y, NULL, wire, 12, 8), -1);
}

/*
 * Error feedback: each of R ranks sends top-k of (gradient + residual) and
 * keeps what it dropped for the next call. Over many calls, the sum of what
 * was sent trails the sum of the gradients by exactly the residuals left, so
 * the accumulated error stays bounded; without feedback it grows with the
 * number of calls.
 */
static double accumulated_error(bool feedback, int calls, double *worst)
{
	enum { R = 3, N = 500 };
	static float resid[R][N], in[N], out[N];
	static double sent[N], exact[N];
	memset(resid, 0, sizeof resid);
	memset(sent, 0, sizeof sent);
	memset(exact, 0, sizeof exact);
	struct codec_cfg cfg = {.topk_ratio = 0.05, .error_feedback = feedback};
	uint32_t st = 1;
	*worst = 0;
	for (int t = 0; t < calls; t++) {
		for (int r = 0; r < R; r++) {
			for (int i = 0; i < N; i++) {
				/* a bias per index, as gradients have, and noise */
				float g = 0.01f * (float)(i % 13) + spread(&st, -12, -8);
				exact[i] += g;
				in[i] = g + (feedback ? resid[r][i] : 0.0f);
			}
			round_trip(&codec_topk, &cfg, in, out, N, 0);
			for (int i = 0; i < N; i++) {
				sent[i] += out[i];
				if (feedback)
					resid[r][i] = in[i] - out[i];
			}
		}
		double e = 0;
		for (int i = 0; i < N; i++)
			e = fmax(e, fabs(sent[i] - exact[i]));
		*worst = fmax(*worst, e);
	}
	double e = 0;
	for (int i = 0; i < N; i++)
		e = fmax(e, fabs(sent[i] - exact[i]));
	return e;
}

Test(codec_topk, error_feedback_keeps_the_accumulated_error_bounded)
{
	double worst_short, worst_long, worst_none;
	accumulated_error(true, 100, &worst_short);
	double last = accumulated_error(true, 1000, &worst_long);
	double none = accumulated_error(false, 1000, &worst_none);
	/* bounded: ten times more calls, no more error (the largest gradient is 0.13) */
	cr_expect_leq(worst_long, 1.5 * worst_short + 0.2, "EF: %g after 100 calls, %g after 1000",
	              worst_short, worst_long);
	cr_expect_leq(last, worst_long, "EF: %g", last);
	cr_log_info("top-k error feedback, largest accumulated error: %g after 100 calls, %g after "
	            "1000, %g without feedback",
	            worst_short, worst_long, none);
	cr_expect_geq(none, 20 * worst_long, "without EF: %g, with: %g", none, worst_long);
}

/* --- the bound check (codec_accuracy.h) ----------------------------------- */

Test(codec_accuracy, inputs_are_deterministic_heavy_tailed_and_in_range)
{
	enum { N = 5120 };
	static float a[N], b[N];
	codec_input_fill(a, 3, N);
	codec_input_fill(b, 3, N);
	cr_assert(memcmp(a, b, sizeof a) == 0, "seeded by (rank, index)");
	codec_input_fill(b, 4, N);
	cr_assert(memcmp(a, b, sizeof a) != 0, "another rank, other values");
	int zeros = 0;
	float most[5] = {0};
	for (int i = 0; i < N; i++) {
		cr_assert_leq(fabsf(a[i]), 200.0f);
		zeros += a[i] == 0;
		most[(i / 1024) % 5] = fmaxf(most[(i / 1024) % 5], fabsf(a[i]));
	}
	cr_expect(zeros > N / 128 && zeros < N / 32, "about 1 in 64 is zero: %d", zeros);
	for (int s = 1; s < 5; s++) /* five scales, ten times apart */
		cr_expect(most[s] > 3 * most[s - 1], "scale %d: %g after %g", s, most[s],
		          most[s - 1]);
}

/*
 * R ranks through a codec as exec_codec runs them (every input encoded once
 * to the owner, the float32 sum once back), then the check: within the
 * bound, until one element is moved past it.
 */
static void simulate_and_check(const struct ar_codec *c, const struct codec_cfg *cfg)
{
	enum { R = 3, N = 3000 };
	static float x[R][N], y[N], sum[N];
	static double exact[N], e1[N], share[N];
	memset(sum, 0, sizeof sum);
	memset(exact, 0, sizeof exact);
	memset(e1, 0, sizeof e1);
	for (int r = 0; r < R; r++) {
		codec_input_fill(x[r], r, N);
		round_trip(c, cfg, x[r], y, N, (uint64_t)r);
		codec_bound_share(c, cfg, R, x[r], N, 0, N, share);
		for (int i = 0; i < N; i++) {
			sum[i] += y[i];
			exact[i] += x[r][i];
			e1[i] += share[i];
		}
	}
	round_trip(c, cfg, sum, y, N, 99);
	struct codec_accuracy acc = {0};
	codec_check_slice(c, cfg, y, N, 0, N, exact, e1, &acc);
	cr_assert_eq(acc.beyond, 0, "%s: %llu beyond, first at %zu: %a against %a (bound %g)",
	             c->name, (unsigned long long)acc.beyond, acc.first_index, acc.first_got,
	             acc.first_expected, acc.first_bound);
	cr_expect_eq(acc.checked, N);
	cr_expect(acc.max_abs_error > 0 && codec_rel_l2(&acc) > 0);
	y[1234] = (float)(exact[1234] + 1.01 * (e1[1234] * 3 + 1)); /* past any bound */
	acc = (struct codec_accuracy){0};
	codec_check_slice(c, cfg, y, N, 0, N, exact, e1, &acc);
	cr_expect_eq(acc.beyond, 1, "%s", c->name);
	cr_expect(acc.have_first && acc.first_index == 1234, "%s", c->name);
}

Test(codec_accuracy, every_codec_within_its_bound_and_a_planted_error_beyond)
{
	struct codec_cfg sr = {.stochastic = true}, k = {.topk_ratio = 0.1};
	simulate_and_check(&codec_bf16, NULL);
	simulate_and_check(&codec_fp16, NULL);
	simulate_and_check(&codec_int8, NULL);
	simulate_and_check(&codec_int8, &sr);
	simulate_and_check(&codec_topk, &k);
}

Test(codec_accuracy, relative_l2)
{
	struct codec_accuracy a = {.sum_sq_error = 1, .sum_sq_exact = 4};
	cr_expect_eq(codec_rel_l2(&a), 0.5);
	a = (struct codec_accuracy){0};
	cr_expect(isnan(codec_rel_l2(&a)), "0 / 0: undefined");
}
