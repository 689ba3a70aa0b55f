#version 450
// where: output = condition ? trueValue : falseValue, all three broadcast to
// the output. A selection, so elements move as unsigned integers of their
// width (-DCOPY_T): exact for every type, NaN payloads included.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer C { uint8_t c[]; };
layout(std430, binding = 2) readonly buffer T { COPY_T t[]; };
layout(std430, binding = 3) readonly buffer F { COPY_T f[]; };
layout(std430, binding = 4) writeonly buffer O { COPY_T o[]; };

// P(0) n, P(1) rank, P(2..9) output shape, P(10..17) condition strides,
// P(18..25) trueValue strides, P(26..33) falseValue strides, P(34) 1 when no
// operand broadcasts.
void main() {
  const uint n = P(0), rank = P(1);
  const uint bc = BASE(1), bt = BASE(2), bf = BASE(3), bo = BASE(4);
  GRID_STRIDE_LOOP(i, n) {
    uint ic = i, it = i, iff = i;
    if (P(34) == 0u) {
      ic = 0u;
      it = 0u;
      iff = 0u;
      uint rest = i;
      for (int d = int(rank) - 1; d >= 0; --d) {
        const uint dim = P(2 + d);
        const uint k = rest % dim;
        rest /= dim;
        ic += k * P(10 + d);
        it += k * P(18 + d);
        iff += k * P(26 + d);
      }
    }
    // Branches, not a select: a select of 16-bit values needs shaderInt16,
    // a plain copy only 16-bit storage.
    if (uint(c[bc + ic]) != 0u) {
      o[bo + i] = t[bt + it];
    } else {
      o[bo + i] = f[bf + iff];
    }
  }
}
