#version 450
// batchNormalization, float32/float16 (-DA_<T>) computed in float32:
//   (x - mean[c]) / sqrt(variance[c] + epsilon) * scale[c] + bias[c]
// with c the index along the channel axis.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) readonly buffer Mean { A_T mean[]; };
layout(std430, binding = 3) readonly buffer Variance { A_T variance[]; };
layout(std430, binding = 4) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 5) readonly buffer Bias { A_T bias[]; };
layout(std430, binding = 6) writeonly buffer O { A_T o[]; };

// P(0) n, P(1) channels, P(2) inner (elements per channel step),
// P(3) bit 0: scale given, bit 1: bias given, P(4) epsilon (float bits).
void main() {
  const uint n = P(0), channels = P(1), inner = P(2), flags = P(3);
  const float epsilon = PF(4);
  GRID_STRIDE_LOOP(i, n) {
    const uint c = (i / inner) % channels;
    float v = (float(x[BASE(1) + i]) - float(mean[BASE(2) + c])) / sqrt(float(variance[BASE(3) + c]) + epsilon);
    if ((flags & 1u) != 0u) v *= float(scale[BASE(4) + c]);
    if ((flags & 2u) != 0u) v += float(bias[BASE(5) + c]);
    o[BASE(6) + i] = A_T(v);
  }
}
