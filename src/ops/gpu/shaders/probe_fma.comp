#version 450
// FMA-throughput probe: each invocation runs P(0) iterations of 8 independent
// vec4 FMA chains (32 FMAs, 64 flops per iteration) entirely in registers, so
// the time measures the ALUs alone. 8 chains cover the FMA latency (4 cycles
// on current GPUs) with room to spare. The sum is stored so nothing is dead.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 1) writeonly buffer O { float o[]; };

void main() {
  const float seed = float(gl_LocalInvocationID.x) * 1e-7;
  const vec4 m = vec4(PF(1)), c = vec4(PF(2));
  vec4 a0 = vec4(seed), a1 = a0 + 1.0, a2 = a0 + 2.0, a3 = a0 + 3.0;
  vec4 a4 = a0 + 4.0, a5 = a0 + 5.0, a6 = a0 + 6.0, a7 = a0 + 7.0;
  for (uint i = 0; i < P(0); ++i) {
    a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
    a4 = fma(a4, m, c); a5 = fma(a5, m, c); a6 = fma(a6, m, c); a7 = fma(a7, m, c);
  }
  const vec4 s = (a0 + a1) + (a2 + a3) + (a4 + a5) + (a6 + a7);
  o[gl_GlobalInvocationID.x] = s.x + s.y + s.z + s.w;
}
