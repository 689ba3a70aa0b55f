#version 450
// The element-wise unary ops (abs ... tan) and the activations (elu ... clamp)
// of the ElementwiseUnary and Activation families, one variant per data type
// (-DA_<T>), the op a specialization constant (kOpCode). Semantics follow the
// reference device (src/ops/reference/elementwise_unary.cc, activation.cc).
//
// Floats: the routines of unary_math.glsl (a few ULP everywhere, no GLSL
// transcendental builtins). Integers (abs, neg, sign, relu, clamp): two's-
// complement wrap, so abs(MIN) = neg(MIN) = MIN, as the reference.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "unary_math.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) writeonly buffer O { A_T o[]; };

// P(0) n, P(1) op (unused: kOpCode), P(2) alpha (float bits), P(3) beta (float bits),
// P(4..5) clamp min (lo, hi words: float bits in lo for floats, the integer
// sign-extended to 64 bits otherwise), P(6..7) clamp max, P(8) bit 0: has min,
// bit 1: has max. Op codes: unary_math.glsl.

#if defined(A_FLOAT)
float Apply(uint op, float x) { return UnaryFloat(op, x, PF(2), PF(3), P(8), vec2(PF(4), PF(6))); }

#else  // integers: abs, neg, sign, relu, clamp

#if defined(A_64BIT)
A_CT Bound(uint lo_word) { return A_CT((uint64_t(P(lo_word + 1u)) << 32) | uint64_t(P(lo_word))); }
#else
A_CT Bound(uint lo_word) { return A_CT(P(lo_word)); }
#endif

A_CT Apply(uint op, A_CT x) {
  switch (op) {
#if defined(A_SINT)
    case kAbs: return x < A_CT(0) ? -x : x;
    case kNeg: return -x;
    case kSign: return x > A_CT(0) ? A_CT(1) : (x < A_CT(0) ? A_CT(-1) : A_CT(0));
    case kRelu: return x < A_CT(0) ? A_CT(0) : x;
#endif
    default: {  // kClamp
      const uint has = P(8);
      if ((has & 1u) != 0u && x < Bound(4)) x = Bound(4);
      if ((has & 2u) != 0u && x > Bound(6)) x = Bound(6);
      return x;
    }
  }
}

#endif

// The op code as a specialization constant: the pipeline compiler keeps the
// one case of Apply's switch it selects (llvmpipe ran every case's code with
// the op as a parameter: relu over 16M floats took 16 s).
layout(constant_id = 0) const uint kOpCode = 0;

void main() {
  const uint n = P(0), op = kOpCode;
  const uint ba = BASE(1), bo = BASE(2);
  GRID_STRIDE_LOOP(i, n) { o[bo + i] = A_T(Apply(op, A_CT(a[ba + i]))); }
}
