#version 450
// softmax along one axis, float32 and float16 (-DA_<T>), computed in float32
// with one rounding at the store. As the reference
// (src/ops/reference/softmax.cc): the row maximum ignores NaN (fmax), then
// exp(x - max) / sum; a NaN, a +Infinity or a row of only -Infinity makes the
// whole row NaN through the sum.
//
// Precision (WPT: 3 * L + 3 ULP): x - max is kept exact as a float pair, the
// exponential is computed by hand (GLSL's exp is ~70 ULP off on lavapipe) as
// p * 2^q with p in [0.7, 1.5], the sum is compensated (float pair), and the
// result p / sum is scaled by 2^q last, so a subnormal result rounds once.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) writeonly buffer O { A_T o[]; };

// P(0) rows (outer * inner), P(1) length (the axis), P(2) inner,
// P(3) 1: a workgroup per row, 0: a thread per row.
shared vec2 partial[256];

#include "exp_log.glsl"  // kLog2E, kLn2Hi/Lo, Expm1Poly; float_float.glsl

// e^(x - m) = p * 2^q, x - m <= 0 (or NaN).
void ExpParts(float xv, float m, out float p, out int q) {
  float dh, dl;
  TwoSum(xv, -m, dh, dl);
  q = 0;
  if (isnan(dh)) {
    p = dh;
    return;
  }
  if (dh < -110.0) {  // also -Infinity: e^-110 is below half the least subnormal
    p = 0.0;
    return;
  }
  const float qf = roundEven(dh * kLog2E);
  precise float r = dh - qf * kLn2Hi;
  r = r - qf * kLn2Lo;
  r = r + dl;
  p = Expm1Poly(r) + 1.0;
  q = int(qf);
}

float Load(uint i) { return float(x[BASE(1) + i]); }

// fmax: a NaN operand loses, so the maximum stays a number.
float FMax(float a, float b) { return b > a ? b : a; }

float WorkgroupMax(float v) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid] = vec2(v, 0.0);
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid].x = FMax(partial[lid].x, partial[lid + s].x);
    barrier();
  }
  const float r = partial[0].x;
  barrier();
  return r;
}

#include "workgroup_sum.glsl"

// Adds e^(x - m) to the float pair (s.x + s.y); NaN propagates through s.x.
void Accumulate(inout vec2 s, float xv, float m) {
  float p;
  int q;
  ExpParts(xv, m, p, q);
  const float e = Scale2(p, q);
  float t, c;
  TwoSum(s.x, e, t, c);
  s = vec2(t, s.y + c);
}

float Sum(vec2 s) {
  if (isnan(s.x) || isnan(s.y)) return uintBitsToFloat(0x7fc00000u);
  return s.x + s.y;
}

float Result(float xv, float m, float sum) {
  float p;
  int q;
  ExpParts(xv, m, p, q);
  return Scale2(p / sum, q);
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
      vec2 s = vec2(0.0);
      for (uint k = 0u; k < len; ++k) Accumulate(s, Load(base + k * inner), m);
      const float sum = Sum(s);
      for (uint k = 0u; k < len; ++k) o[bo + base + k * inner] = A_T(Result(Load(base + k * inner), m, sum));
    }
    return;
  }
  const uint lid = gl_LocalInvocationID.x;
  for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) {
    const uint base = (r / inner) * len * inner + r % inner;
    float m = neg_inf;
    for (uint k = lid; k < len; k += 256u) m = FMax(m, Load(base + k * inner));
    m = WorkgroupMax(m);
    vec2 s = vec2(0.0);
    for (uint k = lid; k < len; k += 256u) Accumulate(s, Load(base + k * inner), m);
    s = FastTwoSum(s.x, s.y);
    const float sum = Sum(WorkgroupSum(s));
    for (uint k = lid; k < len; k += 256u) o[bo + base + k * inner] = A_T(Result(Load(base + k * inner), m, sum));
  }
}
