#version 450
// softmax along one axis, float32 and float16 (-DA_<T>), computed in float32
// with one rounding at the store. As the reference
// (src/ops/reference/softmax.cc): the row maximum ignores NaN (fmax), then
// exp(x - max) / sum; a NaN, a +Infinity or a row of only -Infinity makes the
// whole row NaN through the sum.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) writeonly buffer O { A_T o[]; };

// P(0) rows (outer * inner), P(1) length (the axis), P(2) inner,
// P(3) 1: a workgroup per row, 0: a thread per row.
shared float partial[256];

float Load(uint i) { return float(x[BASE(1) + i]); }

// fmax: a NaN operand loses, so the maximum stays a number.
float FMax(float a, float b) { return b > a ? b : a; }

float WorkgroupMax(float v) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid] = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid] = FMax(partial[lid], partial[lid + s]);
    barrier();
  }
  const float r = partial[0];
  barrier();
  return r;
}

float WorkgroupSum(float v) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid] = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid] += partial[lid + s];
    barrier();
  }
  const float r = partial[0];
  barrier();
  return r;
}

void main() {
  const uint rows = P(0), len = P(1), inner = P(2);
  const float neg_inf = uintBitsToFloat(0xff800000u);
  const uint bo = BASE(2);
  if (P(3) == 0u) {
    GRID_STRIDE_LOOP(r, rows) {
      const uint base = (r / inner) * len * inner + r % inner;
      float m = neg_inf;
      for (uint k = 0u; k < len; ++k) m = FMax(m, Load(base + k * inner));
      float sum = 0.0;
      for (uint k = 0u; k < len; ++k) sum += exp(Load(base + k * inner) - m);
      for (uint k = 0u; k < len; ++k) o[bo + base + k * inner] = A_T(exp(Load(base + k * inner) - m) / sum);
    }
    return;
  }
  const uint lid = gl_LocalInvocationID.x;
  for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) {
    const uint base = (r / inner) * len * inner + r % inner;
    float m = neg_inf;
    for (uint k = lid; k < len; k += 256u) m = FMax(m, Load(base + k * inner));
    m = WorkgroupMax(m);
    float sum = 0.0;
    for (uint k = lid; k < len; k += 256u) sum += exp(Load(base + k * inner) - m);
    sum = WorkgroupSum(sum);
    for (uint k = lid; k < len; k += 256u) o[bo + base + k * inner] = A_T(exp(Load(base + k * inner) - m) / sum);
  }
}
