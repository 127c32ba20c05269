/*
 * Inputs are chosen so the exact all-reduce is known in closed form and is
 * representable in every dtype; see pattern.h. The expected value depends on
 * index only through index mod a short period, so checking builds a table of
 * one period and then costs one lookup and one compare per element.
 */
#include "algorithms/pattern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Past 64 ranks, only one rank in `spread` contributes at each index. */
static size_t spread_of(int nranks)
{
	return nranks <= 64 ? 1 : ((size_t)nranks + 63) / 64;
}

static size_t period_of(enum ar_op op, int nranks)
{
	size_t k = spread_of(nranks);
	switch (op) {
	case AR_SUM: return 9 * k;
	case AR_PROD: return 40 * k;
	default: return 13;
	}
}

int64_t ar_pattern_value(enum ar_op op, int rank, int nranks, size_t index)
{
	size_t r = (size_t)rank, k = spread_of(nranks);
	switch (op) {
	case AR_SUM:
		if ((r + index) % k != 0)
			return 0;
		return (int64_t)((3 * r + index) % 9) -
		       4; /* -4..4: any 64 of them sum to |x| <= 256 */
	case AR_PROD: {
		/* at most one factor 2 in 8 ranks, so any product is +-2^j with j <= 8 */
		int64_t mag = (r + index) % (8 * k) == 0 ? 2 : 1;
		return (r + 2 * index) % 5 == 0 ? -mag : mag;
	}
	default: return (int64_t)((7 * r + 3 * index) % 13) - 6;
	}
}

static int64_t combine(enum ar_op op, int64_t acc, int64_t v)
{
	switch (op) {
	case AR_SUM: return acc + v;
	case AR_PROD: return acc * v;
	case AR_MIN: return v < acc ? v : acc;
	default: return v > acc ? v : acc;
	}
}

int64_t ar_pattern_expected(enum ar_op op, int nranks, size_t index)
{
	int64_t acc = ar_pattern_value(op, 0, nranks, index);
	for (int r = 1; r < nranks; r++)
		acc = combine(op, acc, ar_pattern_value(op, r, nranks, index));
	return acc;
}

/* Store integer v as one element of type t at dst. */
static void store(void *dst, enum ar_dtype t, int64_t v)
{
	switch (t) {
	case AR_FLOAT32: *(float *)dst = (float)v; break;
	case AR_FLOAT64: *(double *)dst = (double)v; break;
	case AR_INT32: *(int32_t *)dst = (int32_t)v; break;
	case AR_INT64: *(int64_t *)dst = v; break;
	case AR_BFLOAT16: *(uint16_t *)dst = ar_float_to_bf16((float)v); break;
	default: break;
	}
}

static double as_double(const void *src, enum ar_dtype t)
{
	switch (t) {
	case AR_FLOAT32: return *(const float *)src;
	case AR_FLOAT64: return *(const double *)src;
	case AR_INT32: return *(const int32_t *)src;
	case AR_INT64: return (double)*(const int64_t *)src;
	case AR_BFLOAT16: return ar_bf16_to_float(*(const uint16_t *)src);
	default: return 0;
	}
}

static uint64_t bits_of(const void *src, size_t bytes)
{
	uint64_t bits = 0;
	memcpy(&bits, src, bytes); /* little-endian hosts: the low bytes */
	return bits;
}

void ar_pattern_fill(void *buf, enum ar_dtype t, enum ar_op op, int rank, int nranks, size_t count)
{
	size_t w = ar_dtype_bytes(t), period = period_of(op, nranks);
	unsigned char *p = buf;
	/* one period, then doubling copies (done stays a multiple of the period) */
	size_t first = count < period ? count : period;
	for (size_t i = 0; i < first; i++)
		store(p + i * w, t, ar_pattern_value(op, rank, nranks, i));
	for (size_t done = first; done < count;) {
		size_t n = done < count - done ? done : count - done;
		memcpy(p + done * w, p, n * w);
		done += n;
	}
}

size_t ar_pattern_check(const void *buf, enum ar_dtype t, enum ar_op op, int nranks, size_t count,
                        struct ar_mismatch *first)
{
	size_t w = ar_dtype_bytes(t), period = period_of(op, nranks);
	unsigned char *table = malloc(period * w);
	const unsigned char *p = buf;
	size_t wrong = 0;
	if (!table)
		return SIZE_MAX;
	for (size_t i = 0; i < period; i++)
		store(table + i * w, t, ar_pattern_expected(op, nranks, i));
	for (size_t i = 0, j = 0; i < count; i++, j = j + 1 == period ? 0 : j + 1) {
		if (memcmp(p + i * w, table + j * w, w) == 0)
			continue;
		if (wrong++ == 0 && first) {
			first->index = i;
			first->got_bits = bits_of(p + i * w, w);
			first->expected_bits = bits_of(table + j * w, w);
			first->got = as_double(p + i * w, t);
			first->expected = as_double(table + j * w, t);
		}
	}
	free(table);
	return wrong;
}

/* One element against one expected integer; counts it and describes the first. */
static void check_one(const unsigned char *p, size_t i, enum ar_dtype t, int64_t want,
                      size_t *wrong, struct ar_mismatch *first)
{
	unsigned char e[8];
	size_t w = ar_dtype_bytes(t);
	store(e, t, want);
	if (memcmp(p + i * w, e, w) == 0)
		return;
	if ((*wrong)++ == 0 && first) {
		first->index = i;
		first->got_bits = bits_of(p + i * w, w);
		first->expected_bits = bits_of(e, w);
		first->got = as_double(p + i * w, t);
		first->expected = as_double(e, t);
	}
}

size_t ar_pattern_check_collective(const void *buf, enum ar_dtype t, enum ar_op op, int rank,
                                   int nranks, size_t count, enum ar_collective c,
                                   struct ar_mismatch *first)
{
	const unsigned char *p = buf;
	size_t wrong = 0, n = (size_t)nranks;
	if (c == AR_ALLREDUCE)
		return ar_pattern_check(buf, t, op, nranks, count, first);
	if (c == AR_REDUCE_SCATTER) { /* the expected values repeat with the period: a table */
		size_t period = period_of(op, nranks),
		       at = sched_part_offset(count, n, (size_t)rank);
		int64_t *table = malloc(period * sizeof *table);
		if (!table)
			return SIZE_MAX;
		for (size_t j = 0; j < period; j++)
			table[j] = ar_pattern_expected(op, nranks, j);
		for (size_t i = at; i < at + sched_part_count(count, n, (size_t)rank); i++)
			check_one(p, i, t, table[i % period], &wrong, first);
		free(table);
		return wrong;
	}
	for (size_t b = 0; b < n; b++) {
		size_t at = sched_part_offset(count, n, b);
		for (size_t i = at; i < at + sched_part_count(count, n, b); i++)
			check_one(p, i, t, ar_pattern_value(op, (int)b, nranks, i), &wrong, first);
	}
	return wrong;
}
