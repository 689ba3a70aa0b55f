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

// ---- float-float arithmetic (value = x + y): lavapipe's fma() is not fused
// and it reassociates unless told, so products split (Dekker, 4097) and every
// rounding-sensitive step is `precise`.
void TwoSum(float a, float b, out float s, out float e) {
  precise float ss = a + b;
  precise float bb = ss - a;
  precise float ee = (a - (ss - bb)) + (b - bb);
  s = ss;
  e = ee;
}
vec2 FastTwoSum(float a, float b) {
  precise float s = a + b;
  precise float e = b - (s - a);
  return vec2(s, e);
}
void TwoProduct(float a, float b, out float hi, out float lo) {
  precise float p = a * b;
  precise float ca = 4097.0 * a;
  precise float ah = ca - (ca - a);
  precise float al = a - ah;
  precise float cb = 4097.0 * b;
  precise float bh = cb - (cb - b);
  precise float bl = b - bh;
  precise float e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  hi = p;
  lo = e;
}
vec2 FFAdd(vec2 a, vec2 b) {
  float s, e;
  TwoSum(a.x, b.x, s, e);
  precise float t = e + (a.y + b.y);
  return FastTwoSum(s, t);
}
vec2 FFMulF(vec2 a, float b) {
  float p, e;
  TwoProduct(a.x, b, p, e);
  precise float t = e + a.y * b;
  return FastTwoSum(p, t);
}
vec2 FFMul(vec2 a, vec2 b) {
  float p, e;
  TwoProduct(a.x, b.x, p, e);
  precise float t = e + (a.x * b.y + a.y * b.x);
  return FastTwoSum(p, t);
}
// a / b, b a float pair with b.x != 0.
vec2 FFDiv(vec2 a, vec2 b) {
  const float q1 = a.x / b.x;
  const vec2 r = FFAdd(a, -FFMulF(b, q1));
  const float q2 = r.x / b.x;
  const vec2 r2 = FFAdd(r, -FFMulF(b, q2));
  const float q3 = r2.x / b.x;
  return FFAdd(FastTwoSum(q1, q2), vec2(q3, 0.0));
}
vec2 FFDivF(vec2 a, float b) { return FFDiv(a, vec2(b, 0.0)); }
// sqrt(a), a.x >= 0 finite.
vec2 FFSqrt(vec2 a) {
  if (a.x <= 0.0) return vec2(sqrt(a.x), 0.0);
  const float s = sqrt(a.x);
  float p, e;
  TwoProduct(s, s, p, e);
  const vec2 r = FFAdd(a, -vec2(p, e));
  precise float c = r.x / (2.0 * s);
  return FastTwoSum(s, c);
}
// x * 2^k for k in [-252, 254]: two normal powers of two, so a subnormal
// result rounds once.
float Scale2(float x, int k) {
  const int k1 = k >> 1;
  const int k2 = k - k1;
  return x * uintBitsToFloat(uint(k1 + 127) << 23) * uintBitsToFloat(uint(k2 + 127) << 23);
}
// The unbiased exponent of |x| (finite, nonzero; subnormals give -127).
int Exponent(float x) { return int((floatBitsToUint(x) >> 23) & 0xffu) - 127; }
// ---- end float-float

const float kLog2E = 1.442695040888963407359924681;
// log(2) = kLn2Hi + kLn2Lo; q * kLn2Hi is exact for |q| < 2^9.
const float kLn2Hi = 0.693145751953125;
const float kLn2Lo = 1.428606765330187045e-6;

// e^r - 1 for |r| <= log(2)/2 + a little: Taylor to r^8.
float Expm1Poly(float r) {
  float p = 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  return r + r * r * p;
}

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

vec2 WorkgroupSum(vec2 v) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid] = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid] = FFAdd(partial[lid], partial[lid + s]);
    barrier();
  }
  const vec2 r = partial[0];
  barrier();
  return r;
}

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
