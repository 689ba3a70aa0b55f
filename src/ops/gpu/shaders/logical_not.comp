#version 450
// logicalNot: uint8 in (any non-zero byte is true), uint8 0/1 out.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { uint8_t a[]; };
layout(std430, binding = 2) writeonly buffer O { uint8_t o[]; };

// P(0) n.
void main() {
  const uint n = P(0);
  const uint ba = BASE(1), bo = BASE(2);
  GRID_STRIDE_LOOP(i, n) { o[bo + i] = uint8_t(uint(a[ba + i]) == 0u ? 1u : 0u); }
}
