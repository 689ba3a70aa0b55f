#version 450
// add, sub, mul, div, max, min, pow with numpy broadcasting, one variant per
// data type (-DA_<T>). Semantics follow the reference device
// (src/ops/reference/elementwise_binary.cc): integers wrap, x / 0 = 0,
// INT_MIN / -1 wraps, max/min propagate NaN, integer pow by squaring.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) readonly buffer B { A_T b[]; };
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };

// P(0) n, P(1) op (unused: kOpCode), P(2) rank, P(3..10) output shape, P(11..18) a strides,
// P(19..26) b strides, P(27) 1 when a and b are both the output's shape.
const uint kAdd = 0, kSub = 1, kMul = 2, kDiv = 3, kMax = 4, kMin = 5, kPow = 6;

#if defined(A_FLOAT)
float PowIeee(float x, float y) {
  // C's pow special cases (the reference uses std::pow); GLSL's pow leaves
  // x < 0 and x == 0 undefined.
  if (y == 0.0) return 1.0;
  if (x == 1.0) return 1.0;
  if (isnan(x) || isnan(y)) return x + y;
  const float inf = uintBitsToFloat(0x7f800000u);
  const bool y_int = !isinf(y) && floor(y) == y;
  const bool y_odd = y_int && abs(y) < 16777216.0 && mod(abs(y), 2.0) == 1.0;
  if (isinf(y)) {
    const float ax = abs(x);
    if (ax == 1.0) return 1.0;
    return (ax > 1.0) == (y > 0.0) ? inf : 0.0;
  }
  if (x == 0.0) {
    if (y < 0.0) return y_odd ? 1.0 / x : inf;
    return y_odd ? x : 0.0;
  }
  if (isinf(x)) {
    if (x > 0.0) return y > 0.0 ? inf : 0.0;
    if (y > 0.0) return y_odd ? -inf : inf;
    return y_odd ? -0.0 : 0.0;
  }
  if (x < 0.0) {
    if (!y_int) return uintBitsToFloat(0x7fc00000u);
    const float r = exp2(y * log2(-x));
    return y_odd ? -r : r;
  }
  return exp2(y * log2(x));
}
#endif

A_CT Apply(uint op, A_CT x, A_CT y) {
  switch (op) {
    case kAdd: return x + y;
    case kSub: return x - y;
    case kMul: return x * y;
    case kDiv:
#if defined(A_FLOAT)
      return x / y;
#else
      if (y == A_CT(0)) return A_CT(0);
#if defined(A_SINT)
      if (y == A_CT(-1)) return -x;  // INT_MIN / -1 would trap
#endif
      return x / y;
#endif
    case kMax:
#if defined(A_FLOAT)
      if (isnan(x) || isnan(y)) return uintBitsToFloat(0x7fc00000u);
#endif
      return x > y ? x : y;
    case kMin:
#if defined(A_FLOAT)
      if (isnan(x) || isnan(y)) return uintBitsToFloat(0x7fc00000u);
#endif
      return x < y ? x : y;
    default:  // kPow
#if defined(A_FLOAT)
      return PowIeee(x, y);
#else
    {
#if defined(A_SINT)
      if (y < A_CT(0)) {
        if (x == A_CT(1)) return A_CT(1);
        if (x == A_CT(-1)) return (y % A_CT(2)) == A_CT(0) ? A_CT(1) : A_CT(-1);
        return A_CT(0);
      }
#endif
      A_CT result = A_CT(1);
      A_CT base = x;
      A_CT e = y;
      while (e != A_CT(0)) {
        if ((e & A_CT(1)) != A_CT(0)) result *= base;
        base *= base;
        e >>= 1;
      }
      return result;
    }
#endif
  }
}

// The op code as a specialization constant: the pipeline compiler keeps the
// one case it selects (with the op as a parameter, llvmpipe ran every case's
// code for every element).
layout(constant_id = 0) const uint kOpCode = 0;

void main() {
  const uint n = P(0), op = kOpCode, rank = P(2);
  const uint ba = BASE(1), bb = BASE(2), bo = BASE(3);
  GRID_STRIDE_LOOP(i, n) {
    uint ia = i, ib = i;
    if (P(27) == 0u) {
      ia = 0u;
      ib = 0u;
      uint rest = i;
      for (int d = int(rank) - 1; d >= 0; --d) {
        const uint dim = P(3 + d);
        const uint c = rest % dim;
        rest /= dim;
        ia += c * P(11 + d);
        ib += c * P(19 + d);
      }
    }
    o[bo + i] = A_T(Apply(op, A_CT(a[ba + ia]), A_CT(b[bb + ib])));
  }
}
