// exp and log in float32 within a few ULP, the one copy shared by the
// element-wise math (unary_math.glsl, and through it the activations of
// gru/lstm), reduce.comp (reduceLogSum, reduceLogSumExp) and softmax.comp.
// GLSL's builtins are not used: their precision is left to the driver
// (lavapipe's exp is exp2(x * log2(e)), ~70 ULP at |x| = 88, thousands of ULP
// in reduceLogSumExp; its log is 2^-21 absolute in [0.5, 2], ~3000 ULP near
// log(1) = 0) and they leave IEEE special cases undefined.
//   exp  Cody-Waite reduction by log(2) and a degree-8 Taylor polynomial,
//        scaled by 2^k in two steps so subnormal results round once;
//   log  fdlibm/musl logf (reduction to [sqrt(2)/2, sqrt(2)), < 1 ULP).
// What relies on rounding is `precise` (lavapipe otherwise folds (1 + e) - 1
// to e). Float-only: the includer puts it under A_FLOAT where needed.
#ifndef EXP_LOG_GLSL
#define EXP_LOG_GLSL
#include "float_float.glsl"  // Scale2

#define kInf uintBitsToFloat(0x7f800000u)
#define kNaN uintBitsToFloat(0x7fc00000u)
const float kLog2E = 1.442695040888963407359924681;
// log(2) = kLn2Hi + kLn2Lo; kLn2Hi has 15 significant bits, so q * kLn2Hi is
// exact for |q| < 2^9 and x - q * kLn2Hi is exact (Sterbenz) without an FMA.
const float kLn2Hi = 0.693145751953125;
const float kLn2Lo = 1.428606765330187045e-6;

// e^r - 1 for |r| <= log(2)/2 + a little: Taylor to r^8 (the r^9 term is
// below 2^-28 relative there). `precise` reaches the whole polynomial (glslang
// propagates it to what the result depends on): no driver contracts it into
// FMAs, so every driver rounds it as written.
float Expm1Poly(float r) {
  float p = 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  precise float em1 = r + r * r * p;
  return em1;
}

float ExpF(float x) {
  if (isnan(x)) return x;
  // e^-104 rounds to 0 and e^100 to Inf; the clamp keeps q in [-150, 145].
  const float xc = clamp(x, -104.0, 100.0);
  const float q = roundEven(xc * kLog2E);
  precise float r = xc - q * kLn2Hi;
  r = r - q * kLn2Lo;
  return Scale2(Expm1Poly(r) + 1.0, int(q));
}

float Expm1F(float x) {
  if (isnan(x) || x == 0.0) return x;  // e^-0 - 1 = -0
  // Below log(2)/2 the polynomial keeps full relative precision; above, e^x - 1
  // loses at most 2 ULP to the subtraction (e^x >= 1.41 or <= 0.71).
  if (abs(x) < 0.34657359) return Expm1Poly(x);
  return ExpF(x) - 1.0;
}

float LogF(float x) {
  if (isnan(x) || x == kInf) return x;
  if (x == 0.0) return -kInf;
  if (x < 0.0) return kNaN;
  uint ix = floatBitsToUint(x);
  int k = 0;
  if (ix < 0x00800000u) {  // subnormal: scale into the normal range
    k -= 25;
    ix = floatBitsToUint(x * 33554432.0);
  }
  // Reduce to m in [sqrt(2)/2, sqrt(2)) (musl's logf).
  ix += 0x3f800000u - 0x3f3504f3u;
  k += int(ix >> 23) - 0x7f;
  ix = (ix & 0x007fffffu) + 0x3f3504f3u;
  precise float f = uintBitsToFloat(ix) - 1.0;
  const float s = f / (2.0 + f);
  const float z = s * s;
  const float w = z * z;
  const float t1 = w * (0.40000972152 + w * 0.24279078841);
  const float t2 = z * (0.66666662693 + w * 0.28498786688);
  const float R = t2 + t1;
  const float hfsq = 0.5 * f * f;
  const float dk = float(k);
  precise float y = s * (hfsq + R) + dk * 9.0580006145e-06 - hfsq + f + dk * 6.9313812256e-01;
  return y;
}

// log(1 + e) for e in [0, 1] (softplus): log(u) * e / (u - 1) with u = 1 + e
// cancels the rounding of u (Goldberg), a few ULP with an accurate log.
float Log1pSmall(float e) {
  precise float u = 1.0 + e;
  if (u == 1.0) return e;
  precise float d = u - 1.0;
  return LogF(u) * (e / d);
}

#endif  // EXP_LOG_GLSL
