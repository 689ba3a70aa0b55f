#version 450
// add, sub, mul, div, max, min, pow with numpy broadcasting, one variant per
// data type (-DA_<T>); the math is binary_math.glsl's.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "binary_math.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) readonly buffer B { A_T b[]; };
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };
#if defined(A_F32)
// The same bindings in float4, for same-shape operands: on an H100 the
// element-per-invocation loop moved 1.5 TB/s for add over 256M elements,
// where relu's (one stream fewer) reached 2.2 TB/s of a 2.6 TB/s copy.
layout(std430, binding = 1) readonly buffer A4 { vec4 a4[]; };
layout(std430, binding = 2) readonly buffer B4 { vec4 b4[]; };
layout(std430, binding = 3) writeonly buffer O4 { vec4 o4[]; };
#endif

// P(0) n, P(1) op (unused: kOpCode), P(2) rank, P(3..10) output shape, P(11..18) a strides,
// P(19..26) b strides, P(27) 1 when a and b are both the output's shape.

// The op code as a specialization constant: the pipeline compiler keeps the
// one case it selects (with the op as a parameter, llvmpipe ran every case's
// code for every element).
layout(constant_id = 0) const uint kOpCode = 0;

void main() {
  const uint n = P(0), op = kOpCode, rank = P(2);
  const uint ba = BASE(1), bb = BASE(2), bo = BASE(3);
  // Two loops, one of which runs no iteration (lavapipe runs both sides of a
  // branch it cannot prove uniform): float4 words when both operands have
  // the output's shape and every binding starts on a word, else elements.
#if defined(A_F32)
  const bool words = P(27) != 0u && ((n | ba | bb | bo) & 3u) == 0u;
  GRID_STRIDE_LOOP(q, words ? n / 4u : 0u) {
    const vec4 x = a4[ba / 4u + q], y = b4[bb / 4u + q];
    vec4 r;
    for (uint c = 0u; c < 4u; ++c) r[c] = BinaryOp(op, x[c], y[c]);
    o4[bo / 4u + q] = r;
  }
#else
  const bool words = false;
#endif
  GRID_STRIDE_LOOP(i, words ? 0u : n) {
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
    o[bo + i] = A_T(BinaryOp(op, A_CT(a[ba + ia]), A_CT(b[bb + ib])));
  }
}
