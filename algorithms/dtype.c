/*
 * Reduction kernels. Each (dtype, op) pair is one tight loop over restrict
 * pointers so the compiler vectorises it; the switch is outside the loop.
 */
#include "dtype.h"

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

/* Ties of min/max keep a: both are equal then, bit for bit, for our inputs. */
#define AR_KERNELS(T, SUFFIX)                                                                      \
	static void reduce_sum_##SUFFIX(T *out, const T *a, const T *b, size_t n)        \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] = a[i] + b[i];                                                      \
	}                                                                                          \
	static void reduce_prod_##SUFFIX(T *out, const T *a, const T *b, size_t n)       \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] = a[i] * b[i];                                                      \
	}                                                                                          \
	static void reduce_min_##SUFFIX(T *out, const T *a, const T *b, size_t n)        \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] = b[i] < a[i] ? b[i] : a[i];                                        \
	}                                                                                          \
	static void reduce_max_##SUFFIX(T *out, const T *a, const T *b, size_t n)        \
	{                                                                                          \
		for (size_t i = 0; i < n; i++)                                                     \
			out[i] = b[i] > a[i] ? b[i] : a[i];                                        \
	}                                                                                          \
	static void reduce_##SUFFIX(void *out, const void *a, const void *b, size_t n,             \
	                            enum ar_op op)                                                 \
	{                                                                                          \
		switch (op) {                                                                      \
		case AR_SUM: reduce_sum_##SUFFIX(out, a, b, n); break;                             \
		case AR_PROD: reduce_prod_##SUFFIX(out, a, b, n); break;                           \
		case AR_MIN: reduce_min_##SUFFIX(out, a, b, n); break;                             \
		case AR_MAX: reduce_max_##SUFFIX(out, a, b, n); break;                             \
		default: break;                                                                    \
		}                                                                                  \
	}

AR_KERNELS(float, f32)
AR_KERNELS(double, f64)
AR_KERNELS(int32_t, i32)
AR_KERNELS(int64_t, i64)

/*
 * bfloat16 in blocks: widen a block to float32, reduce with the float kernel,
 * round back. out may alias a or b, so each block is read before it is written.
 */
static void reduce_bf16(uint16_t *out, const uint16_t *a, const uint16_t *b, size_t n,
                        enum ar_op op)
{
	enum { BLOCK = 256 };
	float fa[BLOCK], fb[BLOCK];
	for (size_t base = 0; base < n; base += BLOCK) {
		size_t m = n - base < BLOCK ? n - base : BLOCK;
		for (size_t i = 0; i < m; i++) {
			fa[i] = ar_bf16_to_float(a[base + i]);
			fb[i] = ar_bf16_to_float(b[base + i]);
		}
		reduce_f32(fa, fa, fb, m, op);
		for (size_t i = 0; i < m; i++)
			out[base + i] = ar_float_to_bf16(fa[i]);
	}
}

void ar_reduce(void *out, const void *a, const void *b, size_t count, enum ar_dtype t,
               enum ar_op op)
{
	switch (t) {
	case AR_FLOAT32: reduce_f32(out, a, b, count, op); break;
	case AR_FLOAT64: reduce_f64(out, a, b, count, op); break;
	case AR_INT32: reduce_i32(out, a, b, count, op); break;
	case AR_INT64: reduce_i64(out, a, b, count, op); break;
	case AR_BFLOAT16: reduce_bf16(out, a, b, count, op); break;
	default: break;
	}
}
