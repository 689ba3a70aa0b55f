#version 450
// identity (and cast to the same type): a copy of n elements of -DCOPY_T, an
// unsigned integer type of the element's width, so NaN payloads survive.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { COPY_T a[]; };
layout(std430, binding = 2) writeonly buffer O { COPY_T o[]; };

// P(0) n.
void main() {
  const uint n = P(0);
  const uint ba = BASE(1), bo = BASE(2);
  GRID_STRIDE_LOOP(i, n) { o[bo + i] = a[ba + i]; }
}
