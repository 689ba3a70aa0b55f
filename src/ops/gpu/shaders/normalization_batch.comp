#version 450
// batchNormalization, float32/float16 (-DA_<T>) computed in float32:
//   (x - mean[c]) / sqrt(variance[c] + epsilon) * scale[c] + bias[c]
// with c the index along the channel axis. WPT allows 6 ULP and bias can
// cancel the product to any small value, so with finite operands the whole
// expression runs in float pairs with one rounding at the end (and x - mean
// scaled by 2^-64 when above 2^100, so no intermediate overflows); otherwise,
// or when the pair result is not finite, plain float32.
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

bool Finite(float v) { return !isnan(v) && !isinf(v); }

void main() {
  const uint n = P(0), channels = P(1), inner = P(2), flags = P(3);
  const float epsilon = PF(4);
  GRID_STRIDE_LOOP(i, n) {
    const uint c = (i / inner) % channels;
    const float xv = float(x[BASE(1) + i]), mv = float(mean[BASE(2) + c]), vv = float(variance[BASE(3) + c]);
    const float sv = (flags & 1u) != 0u ? float(scale[BASE(4) + c]) : 1.0;
    const float bv = (flags & 2u) != 0u ? float(bias[BASE(5) + c]) : 0.0;
    float v = uintBitsToFloat(0x7fc00000u);
    if (Finite(xv) && Finite(mv) && Finite(vv) && Finite(sv) && Finite(bv)) {
      float dh, dl;
      TwoSum(xv, -mv, dh, dl);
      int k = 0;
      if (abs(dh) > 1.2676506e30) k = -64;
      const vec2 d = vec2(Scale2(dh, k), Scale2(dl, k));
      float vh, vl;
      TwoSum(vv, epsilon, vh, vl);
      const vec2 sd = FFSqrt(vec2(vh, vl));
      if (sd.x > 0.0 && Finite(sd.x)) {
        vec2 q = FFDiv(d, sd);
        q = FFMulF(q, sv);
        q = FFAdd(q, vec2(Scale2(bv, k), 0.0));
        v = Scale2(q.x + q.y, -k);
      }
    }
    if (isnan(v)) {
      v = (xv - mv) / sqrt(vv + epsilon);
      if ((flags & 1u) != 0u) v *= sv;
      if ((flags & 2u) != 0u) v += bv;
    }
    o[BASE(6) + i] = A_T(v);
  }
}
