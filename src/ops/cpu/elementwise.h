// Single-threaded float32 rows of the element-wise unary and binary cpu
// kernels (elementwise_unary.cc, elementwise_binary.cc), for kernels that
// chain several element-wise ops over a block in cache (fused_elementwise.cc).
// The same SIMD code as the ops' own kernels, so results are bit-identical.
#pragma once

#include <cstddef>

#include "ops/op_kind.h"

namespace webnn::ops::cpu {

// out[k] = op(in[k]) for k < n; `op` is abs, ceil, cos, erf, exp, floor, log,
// neg, reciprocal, roundEven, sin, sign, sqrt or tan (not identity). `in` and
// `out` may be the same. `stream`: streaming stores (outputs beyond the LLC).
void ApplyUnaryF32(OpKind op, const float* in, float* out, size_t n, bool stream = false);

// out[k] = op(a[k or 0], b[k or 0]) for k < n (a/b advance iff a_vec/b_vec);
// `op` is add, sub, mul, div, max, min or pow. Any of a, b, out may alias.
void ApplyBinaryF32(OpKind op, const float* a, bool a_vec, const float* b, bool b_vec, float* out, size_t n,
                    bool stream = false);

}  // namespace webnn::ops::cpu
