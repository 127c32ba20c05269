/*
 * Reduction kernels. Each (dtype, op) pair is one tight loop over restrict
 * pointers so the compiler vectorises it; the switch is outside the loop.
 */
#include "algorithms/dtype.h"

#include <math.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	size_t bytes;
} dtypes[AR_DTYPE_COUNT] = {
	[AR_FLOAT32] = {"float32", 4}, [AR_FLOAT64] = {"float64", 8}, [AR_INT32] = {"int32", 4},
	[AR_INT64] = {"int64", 8},     [AR_BFLOAT16] = {"bfloat16", 2},
};

static const char *const op_names[AR_OP_COUNT] = {
	[AR_SUM] = "sum", [AR_PROD] = "prod", [AR_MIN] = "min", [AR_MAX] = "max"};

size_t ar_dtype_bytes(enum ar_dtype t) { return dtypes[t].bytes; }
const char *ar_dtype_name(enum ar_dtype t) { return dtypes[t].name; }
const char *ar_op_name(enum ar_op op) { return op_names[op]; }
bool ar_op_is_commutative(enum ar_op op) { return op < AR_OP_COUNT; }

bool ar_dtype_parse(const char *name, enum ar_dtype *out)
{
	static const struct {
		const char *alias;
		enum ar_dtype t;
	} aliases[] = {
		{"float", AR_FLOAT32}, {"f32", AR_FLOAT32},  {"double", AR_FLOAT64}, {"f64", AR_FLOAT64},
		{"int", AR_INT32},     {"i32", AR_INT32},    {"i64", AR_INT64},      {"bf16", AR_BFLOAT16},
	};
	for (int t = 0; t < AR_DTYPE_COUNT; t++)
		if (strcasecmp(name, dtypes[t].name) == 0) {
			*out = (enum ar_dtype)t;
			return true;
		}
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcasecmp(name, aliases[i].alias) == 0) {
			*out = aliases[i].t;
			return true;
		}
	return false;
}

bool ar_op_parse(const char *name, enum ar_op *out)
{
	for (int op = 0; op < AR_OP_COUNT; op++)
		if (strcasecmp(name, op_names[op]) == 0) {
			*out = (enum ar_op)op;
			return true;
		}
	return false;
}

float ar_bf16_to_float(uint16_t v)
{
	uint32_t bits = (uint32_t)v << 16;
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

uint16_t ar_float_to_bf16(float f)
{
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	if ((bits & 0x7fffffffu) > 0x7f800000u) /* NaN: keep it a NaN, quiet */
		return (uint16_t)((bits >> 16) | 0x0040u);
	/* Round to nearest even: add 0x7fff plus the lowest kept bit. */
	bits += 0x7fffu + ((bits >> 16) & 1u);
	return (uint16_t)(bits >> 16);
}

/*
 * Kernels come in two shapes so that every loop can promise the compiler its
 * pointers do not alias (restrict), which is what lets it vectorise without
 * run-time overlap checks: acc[i] = acc[i] op b[i] (the executor's in-place
 * reduction, and MPI user operators) and out[i] = a[i] op b[i] (reducing from
 * the input buffer, out of place). This file is built with -O3 (Makefile) and,
 * on x86-64, cloned for AVX-512 and AVX2 with run-time dispatch.
 * Ties of min/max keep the left operand: both are equal then, bit for bit.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define KERNEL __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define KERNEL
#endif

#define OP_SUM(x, y) ((x) + (y))
#define OP_PROD(x, y) ((x) * (y))
#define OP_MIN(x, y) ((y) < (x) ? (y) : (x))
#define OP_MAX(x, y) ((y) > (x) ? (y) : (x))

#define AR_KERNEL_PAIR(T, SUFFIX, OPNAME, OP)                                                      \
	KERNEL static void acc_##OPNAME##_##SUFFIX(T *restrict acc, const T *restrict b, size_t n) \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			acc[i] = OP(acc[i], b[i]);                                                 \
	}                                                                                          \
	KERNEL static void out_##OPNAME##_##SUFFIX(T *restrict out, const T *restrict a,           \
	                                           const T *restrict b, size_t n)                  \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] = OP(a[i], b[i]);                                                   \
	}

#define AR_KERNELS(T, SUFFIX)                                                                      \
	AR_KERNEL_PAIR(T, SUFFIX, sum, OP_SUM)                                                     \
	AR_KERNEL_PAIR(T, SUFFIX, prod, OP_PROD)                                                   \
	AR_KERNEL_PAIR(T, SUFFIX, min, OP_MIN)                                                     \
	AR_KERNEL_PAIR(T, SUFFIX, max, OP_MAX)                                                     \
	static void reduce_##SUFFIX(void *out, const void *a, const void *b, size_t n,             \
	                            enum ar_op op)                                                 \
	{                                                                                          \
		bool acc = out == a;                                                               \
		switch (op) {                                                                      \
		case AR_SUM:                                                                       \
			acc ? acc_sum_##SUFFIX(out, b, n) : out_sum_##SUFFIX(out, a, b, n);        \
			break;                                                                     \
		case AR_PROD:                                                                      \
			acc ? acc_prod_##SUFFIX(out, b, n) : out_prod_##SUFFIX(out, a, b, n);      \
			break;                                                                     \
		case AR_MIN:                                                                       \
			acc ? acc_min_##SUFFIX(out, b, n) : out_min_##SUFFIX(out, a, b, n);        \
			break;                                                                     \
		case AR_MAX:                                                                       \
			acc ? acc_max_##SUFFIX(out, b, n) : out_max_##SUFFIX(out, a, b, n);        \
			break;                                                                     \
		default: break;                                                                    \
		}                                                                                  \
	}

AR_KERNELS(float, f32)
AR_KERNELS(double, f64)
AR_KERNELS(int32_t, i32)
AR_KERNELS(int64_t, i64)

/*
 * bfloat16, element-wise and branch-free so that it vectorises: widen both
 * operands to float32 (a shift), apply the operator, round to nearest even
 * (add 0x7fff plus the lowest kept bit), keep NaNs quiet NaNs.
 */
static inline float widen(uint16_t v)
{
	uint32_t bits = (uint32_t)v << 16;
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static inline uint16_t narrow(float f)
{
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
	uint32_t nan = (bits >> 16) | 0x0040u;
	return (uint16_t)((bits & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
}

#define AR_BF16_KERNEL(OPNAME, OP)                                                                 \
	KERNEL static void bf16_##OPNAME(uint16_t *restrict out, const uint16_t *restrict a,       \
	                                 const uint16_t *restrict b, size_t n)                     \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] = narrow(OP(widen(a[i]), widen(b[i])));                             \
	}
AR_BF16_KERNEL(sum, OP_SUM)
AR_BF16_KERNEL(prod, OP_PROD)
AR_BF16_KERNEL(min, OP_MIN)
AR_BF16_KERNEL(max, OP_MAX)

/*
 * out may equal a (or b): then blocks of a are copied aside first, which
 * keeps the kernel's restrict promise; the copy is of L1-sized blocks.
 */
static void reduce_bf16(uint16_t *out, const uint16_t *a, const uint16_t *b, size_t n,
                        enum ar_op op)
{
	static void (*const fns[AR_OP_COUNT])(uint16_t *restrict, const uint16_t *restrict,
	                                      const uint16_t *restrict, size_t) = {
		bf16_sum, bf16_prod, bf16_min, bf16_max};
	enum { BLOCK = 2048 };
	uint16_t copy[BLOCK];
	if (out != a && out != b) {
		fns[op](out, a, b, n);
		return;
	}
	for (size_t base = 0; base < n; base += BLOCK) {
		size_t m = n - base < BLOCK ? n - base : BLOCK;
		memcpy(copy, out + base, m * sizeof copy[0]);
		if (out == a)
			fns[op](out + base, copy, b + base, m);
		else
			fns[op](out + base, a + base, copy, m);
	}
}

void ar_reduce(void *out, const void *a, const void *b, size_t count, enum ar_dtype t,
               enum ar_op op)
{
	if (out == b && out != a) { /* every op is commutative: keep out == left operand */
		b = a;
		a = out;
	}
	switch (t) {
	case AR_FLOAT32: reduce_f32(out, a, b, count, op); break;
	case AR_FLOAT64: reduce_f64(out, a, b, count, op); break;
	case AR_INT32: reduce_i32(out, a, b, count, op); break;
	case AR_INT64: reduce_i64(out, a, b, count, op); break;
	case AR_BFLOAT16: reduce_bf16(out, a, b, count, op); break;
	default: break;
	}
}
