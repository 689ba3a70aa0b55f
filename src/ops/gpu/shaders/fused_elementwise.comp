#version 450
// fusedElementwise (src/ops/fused_elementwise.h): a chain of float32
// element-wise steps run in one pass over memory. Each step is the op alone's
// math (unary_math.glsl, binary_math.glsl), so a fused chain gives the same
// bits as its ops run one by one.
//
// The program is specialization constants, so the pipeline compiler folds it
// into straight-line code (with the ops as parameters llvmpipe runs every
// case of every switch): kSteps, then per step one word kStep<i>:
//   bits 0..7   the op: a unary_math.glsl code, or 64 + a binary_math.glsl code
//   bits 8..11  binary steps: the input holding the other operand (0..6), or
//               15 for the running value itself (mul(x, x))
//   bit 12      binary steps: the running value is the second operand
// Bindings: 1 the output, 2..8 inputs 0..6 (input 0 starts the chain).
// P(0) n, P(1) rank, P(2..9) output shape, P(10..65) element strides of
// inputs 0..6 broadcast to the output (8 each), P(66) bit k: input k has the
// output's shape (read at the element's own index), P(67 + 5 s ..) step s's
// attributes: alpha, beta, clamp bounds flags, lower, upper bound (as
// UnaryFloat takes them).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "unary_math.glsl"
#include "binary_math.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) writeonly buffer O { float o[]; };
layout(std430, binding = 2) readonly buffer I0 { float i0[]; };
layout(std430, binding = 3) readonly buffer I1 { float i1[]; };
layout(std430, binding = 4) readonly buffer I2 { float i2[]; };
layout(std430, binding = 5) readonly buffer I3 { float i3[]; };
layout(std430, binding = 6) readonly buffer I4 { float i4[]; };
layout(std430, binding = 7) readonly buffer I5 { float i5[]; };
layout(std430, binding = 8) readonly buffer I6 { float i6[]; };

const uint kMaxSteps = 16;  // FusedElementwiseLimits in src/ops/gpu/fused_elementwise.cc
const uint kRunning = 15u;
layout(constant_id = 0) const uint kSteps = 0;
layout(constant_id = 1) const uint kStep0 = 0;
layout(constant_id = 2) const uint kStep1 = 0;
layout(constant_id = 3) const uint kStep2 = 0;
layout(constant_id = 4) const uint kStep3 = 0;
layout(constant_id = 5) const uint kStep4 = 0;
layout(constant_id = 6) const uint kStep5 = 0;
layout(constant_id = 7) const uint kStep6 = 0;
layout(constant_id = 8) const uint kStep7 = 0;
layout(constant_id = 9) const uint kStep8 = 0;
layout(constant_id = 10) const uint kStep9 = 0;
layout(constant_id = 11) const uint kStep10 = 0;
layout(constant_id = 12) const uint kStep11 = 0;
layout(constant_id = 13) const uint kStep12 = 0;
layout(constant_id = 14) const uint kStep13 = 0;
layout(constant_id = 15) const uint kStep14 = 0;
layout(constant_id = 16) const uint kStep15 = 0;

// Input k's element for output element i (k a constant after folding).
float Load(uint k, uint i) {
  uint at = i;
  if ((P(66) & (1u << k)) == 0u) {
    at = 0u;
    uint rest = i;
    for (int d = int(P(1)) - 1; d >= 0; --d) {
      const uint dim = P(2 + d);
      at += (rest % dim) * P(10 + 8u * k + uint(d));
      rest /= dim;
    }
  }
  switch (k) {
    case 0u: return i0[BASE(2) + at];
    case 1u: return i1[BASE(3) + at];
    case 2u: return i2[BASE(4) + at];
    case 3u: return i3[BASE(5) + at];
    case 4u: return i4[BASE(6) + at];
    case 5u: return i5[BASE(7) + at];
    default: return i6[BASE(8) + at];
  }
}

float Step(uint s, uint code, float x, uint i) {
  const uint op = code & 0xffu;
  if (op < 64u) {
    const uint p = 67u + 5u * s;
    return UnaryFloat(op, x, PF(p), PF(p + 1u), P(p + 2u), vec2(PF(p + 3u), PF(p + 4u)));
  }
  const uint operand = (code >> 8) & 15u;
  const float other = operand == kRunning ? x : Load(operand, i);
  return (code & 0x1000u) != 0u ? BinaryOp(op - 64u, other, x) : BinaryOp(op - 64u, x, other);
}

void main() {
  GRID_STRIDE_LOOP(i, P(0)) {
    float x = Load(0u, i);
    // Unrolled by hand: the step codes are constants only as named ones.
    if (kSteps > 0u) x = Step(0u, kStep0, x, i);
    if (kSteps > 1u) x = Step(1u, kStep1, x, i);
    if (kSteps > 2u) x = Step(2u, kStep2, x, i);
    if (kSteps > 3u) x = Step(3u, kStep3, x, i);
    if (kSteps > 4u) x = Step(4u, kStep4, x, i);
    if (kSteps > 5u) x = Step(5u, kStep5, x, i);
    if (kSteps > 6u) x = Step(6u, kStep6, x, i);
    if (kSteps > 7u) x = Step(7u, kStep7, x, i);
    if (kSteps > 8u) x = Step(8u, kStep8, x, i);
    if (kSteps > 9u) x = Step(9u, kStep9, x, i);
    if (kSteps > 10u) x = Step(10u, kStep10, x, i);
    if (kSteps > 11u) x = Step(11u, kStep11, x, i);
    if (kSteps > 12u) x = Step(12u, kStep12, x, i);
    if (kSteps > 13u) x = Step(13u, kStep13, x, i);
    if (kSteps > 14u) x = Step(14u, kStep14, x, i);
    if (kSteps > 15u) x = Step(15u, kStep15, x, i);
    o[BASE(1) + i] = x;
  }
}
