#version 450
// prelu: x >= 0 ? x : slope * x with input and slope broadcast to the output,
// one variant per type (-DA_<T>). Floats: a zero slope gives 0 also at
// x = -Inf, NaN x propagates, and the slope is not read for x >= 0 (a NaN
// slope leaves prelu(1) = 1), as the reference. float16 products of two
// float16 values are exact in float32, so the store rounds once. Integers
// wrap (int8 -128 * -1 = -128).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) readonly buffer S { A_T slope[]; };
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };

// P(0) n, P(1) rank, P(2..9) output shape, P(10..17) input strides,
// P(18..25) slope strides, P(26) 1 when neither operand broadcasts.
void main() {
  const uint n = P(0), rank = P(1);
  const uint ba = BASE(1), bs = BASE(2), bo = BASE(3);
  GRID_STRIDE_LOOP(i, n) {
    uint ia = i, is = i;
    if (P(26) == 0u) {
      ia = 0u;
      is = 0u;
      uint rest = i;
      for (int d = int(rank) - 1; d >= 0; --d) {
        const uint dim = P(2 + d);
        const uint k = rest % dim;
        rest /= dim;
        ia += k * P(10 + d);
        is += k * P(18 + d);
      }
    }
    A_CT x = A_CT(a[ba + ia]);
    if (!(x >= A_CT(0))) {  // negative, or NaN (which propagates below)
      const A_CT s = A_CT(slope[bs + is]);
#if defined(A_FLOAT)
      x = s == 0.0 && isinf(x) ? 0.0 : s * x;
#else
      x = s * x;
#endif
    }
    o[bo + i] = A_T(x);
  }
}
