#version 450
// Copy-bandwidth probe: vec4 (16-byte) loads and stores over P(0) vec4s with a
// grid-stride loop; bytes moved = 2 x 16 x P(0).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer A { vec4 a[]; };
layout(std430, binding = 2) writeonly buffer O { vec4 o[]; };

void main() {
  GRID_STRIDE_LOOP(i, P(0)) { o[i] = a[i]; }
}
