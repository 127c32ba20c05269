/*
 * Element types, reduction operators and the reduction kernels.
 *
 * Pure: no MPI, no I/O. bfloat16 is stored as its 16-bit pattern and reduced
 * the way training frameworks do it: widen to float32, apply the operator,
 * round back to nearest-even.
 */
#ifndef COLLSCOPE_DTYPE_H
#define COLLSCOPE_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ar_dtype { AR_FLOAT32, AR_FLOAT64, AR_INT32, AR_INT64, AR_BFLOAT16, AR_DTYPE_COUNT };
enum ar_op { AR_SUM, AR_PROD, AR_MIN, AR_MAX, AR_OP_COUNT };

size_t ar_dtype_bytes(enum ar_dtype t);
const char *ar_dtype_name(enum ar_dtype t);
const char *ar_op_name(enum ar_op op);
/* Accept the canonical name and the usual aliases (float, double, bf16, ...). */
bool ar_dtype_parse(const char *name, enum ar_dtype *out);
bool ar_op_parse(const char *name, enum ar_op *out);
/* Every op here is commutative and associative on the exact inputs we use. */
bool ar_op_is_commutative(enum ar_op op);

/*
 * out[i] = a[i] op b[i] for i < count. out may be the same pointer as a or b;
 * otherwise the three ranges must not overlap.
 */
void ar_reduce(void *out, const void *a, const void *b, size_t count, enum ar_dtype t,
               enum ar_op op);

float ar_bf16_to_float(uint16_t v);
/* Round to nearest, ties to even; NaN stays a (quiet) NaN. */
uint16_t ar_float_to_bf16(float f);

#endif
