#version 450
// Cooperative-matrix throughput probe (float16 products, float32
// accumulators, VK_NV_cooperative_matrix): each subgroup runs P(0) iterations
// of 8 independent 16x16x16 multiply-adds on fragments held in registers
// (8 * 2 * 16^3 = 65536 flops per iteration), so the time measures the matrix
// units alone; 8 chains cover their latency. The sums are stored so nothing
// is dead. Runs only where gpu_probes.cc finds the shape.
#extension GL_GOOGLE_include_directive : require
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 1) buffer O { float o[]; };
layout(std430, binding = 2) readonly buffer I { float16_t x[]; };

#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>

void main() {
  FRAG fa, fb;
  coopMatLoadNV(fa, x, 0, 16, false);
  coopMatLoadNV(fb, x, 256, 16, false);
  ACC c0 = ACC(0.0), c1 = ACC(0.0), c2 = ACC(0.0), c3 = ACC(0.0);
  ACC c4 = ACC(0.0), c5 = ACC(0.0), c6 = ACC(0.0), c7 = ACC(0.0);
  for (uint i = 0; i < P(0); ++i) {
    c0 = coopMatMulAddNV(fa, fb, c0); c1 = coopMatMulAddNV(fa, fb, c1);
    c2 = coopMatMulAddNV(fa, fb, c2); c3 = coopMatMulAddNV(fa, fb, c3);
    c4 = coopMatMulAddNV(fa, fb, c4); c5 = coopMatMulAddNV(fa, fb, c5);
    c6 = coopMatMulAddNV(fa, fb, c6); c7 = coopMatMulAddNV(fa, fb, c7);
  }
  c0 = c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7;
  coopMatStoreNV(c0, o, (gl_WorkGroupID.x * (gl_WorkGroupSize.x / gl_SubgroupSize) + gl_SubgroupID) * 256u, 16u, false);
}
