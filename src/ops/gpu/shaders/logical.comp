#version 450
// logicalAnd, logicalOr, logicalXor (uint8 in, any non-zero byte is true;
// numpy broadcasting) and isNaN, isInfinite (float in): uint8 0/1 out.
// -DA_U8 for the logical ops, -DA_F32 / -DA_F16 for the classifications;
// logicalNot is logical_not.comp.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
#if defined(A_FLOAT)
layout(std430, binding = 2) writeonly buffer O { uint8_t o[]; };
#else
layout(std430, binding = 2) readonly buffer B { A_T b[]; };
layout(std430, binding = 3) writeonly buffer O { uint8_t o[]; };
#endif

// Floats: P(0) n, P(1) op (0 isNaN, 1 isInfinite).
// uint8: P(0) n, P(1) op (1 and, 2 or, 3 xor), P(2) rank, P(3..10) output
// shape, P(11..18) a strides, P(19..26) b strides, P(27) 1 when neither
// operand broadcasts.
void main() {
  const uint n = P(0), op = P(1);
#if defined(A_FLOAT)
  const uint ba = BASE(1), bo = BASE(2);
  GRID_STRIDE_LOOP(i, n) {
    const float x = float(a[ba + i]);
    o[bo + i] = uint8_t((op == 0u ? isnan(x) : isinf(x)) ? 1u : 0u);
  }
#else
  const uint rank = P(2);
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
    const bool x = uint(a[ba + ia]) != 0u;
    const bool y = uint(b[bb + ib]) != 0u;
    bool r;
    switch (op) {
      case 1u: r = x && y; break;
      case 2u: r = x || y; break;
      default: r = x != y; break;  // xor
    }
    o[bo + i] = uint8_t(r ? 1u : 0u);
  }
#endif
}
