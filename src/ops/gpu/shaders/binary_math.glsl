// The math of add, sub, mul, div, max, min, pow in every data type (A_CT of
// types.glsl), shared by elementwise_binary.comp and fused_elementwise.comp so
// that a fused op computes exactly what the op alone does. Semantics follow the
// reference device (src/ops/reference/elementwise_binary.cc): integers wrap,
// x / 0 = 0, INT_MIN / -1 wraps, max/min propagate NaN, integer pow by
// squaring, float pow as C's pow to about 1 ULP (float pairs, no float64).
#ifndef BINARY_MATH_GLSL
#define BINARY_MATH_GLSL

// Op codes (the same numbers as BinaryOpCode in src/ops/gpu/gpu_kernel.h).
const uint kAdd = 0, kSub = 1, kMul = 2, kDiv = 3, kMax = 4, kMin = 5, kPow = 6;

#if defined(A_FLOAT)
#include "float_float.glsl"

// +-m * 2^e (m < 2^32) rounded to float, subnormals and overflow included,
// built from bits (lavapipe may flush denormal arithmetic).
float RoundScaled(bool neg, uint m, int e) {
  if (m == 0u) return neg ? -0.0 : 0.0;
  const int msb = findMSB(m);
  const int lsb = max(msb + e - 23, -149);
  const int shift = lsb - e;
  uint q;
  if (shift <= 0) {
    q = m << uint(-shift);
  } else if (shift > msb + 1) {
    q = 0u;
  } else {
    q = shift >= 32 ? 0u : m >> uint(shift);
    const uint rem = m - (shift >= 32 ? 0u : q << uint(shift)), halfway = 1u << uint(shift - 1);
    if (rem > halfway || (rem == halfway && (q & 1u) != 0u)) q += 1u;
  }
  uint bits = (uint(lsb + 149) << 23) + q;
  if (lsb + 149 >= 255 || bits >= 0x7f800000u) bits = 0x7f800000u;
  return uintBitsToFloat(bits | (neg ? 0x80000000u : 0u));
}

// log2(x) for finite x > 0 as a float-float, about 2^-40 absolute: x = 2^k m
// (m in [sqrt(1/2), sqrt(2))), ln m = 2 atanh(s), s = (m - 1) / (m + 1), the
// leading terms 2s + 2s^3/3 in float-float, the rest (< 2^-13) in float.
vec2 Log2FF(float x) {
  uint b = floatBitsToUint(x);
  int k;
  if ((b >> 23) == 0u) {  // subnormal: normalize with integer shifts
    const int sh = 23 - findMSB(b);
    b = (b << uint(sh)) & 0x7fffffu;
    k = -126 - sh;
  } else {
    k = int(b >> 23) - 127;
    b &= 0x7fffffu;
  }
  float m = uintBitsToFloat(b | 0x3f800000u);
  if (m > 1.41421356) {
    m *= 0.5;
    k += 1;
  }
  precise float f = m - 1.0;  // exact (Sterbenz)
  const vec2 d = TwoSum(m, 1.0);
  // s = f / d as a float-float
  precise float sh = f / d.x;
  const vec2 p = TwoProduct(sh, d.x);
  precise float sl = (((f - p.x) - p.y) - sh * d.y) / d.x;
  const vec2 s = FastTwoSum(sh, sl);
  const vec2 s2 = FFMul(s, s);
  const vec2 s3 = FFMul(s2, s);
  const float z = s2.x;
  // 2 (s^5/5 + s^7/7 + ...) = 2 s^5 (1/5 + z/7 + z^2/9 + ...)
  precise float poly =
      0.2 + z * (0.14285714285714285 + z * (0.1111111111111111 + z * (0.09090909090909091 +
      z * (0.07692307692307693 + z * (0.06666666666666667 + z * 0.058823529411764705)))));
  precise float tail = 2.0 * (s3.x * z) * poly;
  const vec2 kTwoThirds = vec2(0.666666686534881591796875, -1.98682149251302083e-08);
  vec2 ln = FFAdd(vec2(2.0 * s.x, 2.0 * s.y), FFMul(s3, kTwoThirds));
  ln = FFAdd(ln, vec2(tail, 0.0));
  const vec2 kLog2e = vec2(1.44269502162933349609375, 1.925963033500011079e-08);
  return FFAdd(vec2(float(k), 0.0), FFMul(ln, kLog2e));
}

// 2^(h + l) for a float-float exponent, rounded once at the end through
// RoundScaled so subnormal results are kept; about 1 ulp.
float Exp2FF(vec2 t, bool neg) {
  const float inf = uintBitsToFloat(0x7f800000u);
  if (t.x >= 129.0) return neg ? -inf : inf;
  if (t.x < -152.0) return neg ? -0.0 : 0.0;
  const float n = roundEven(t.x);
  precise float r = (t.x - n) + t.y;  // t.x - n exact
  precise float u = r * 0.693147180559945309;
  // e^u, |u| <= 0.35 + tiny: Taylor to u^10
  precise float q = 1.0 + u * (1.0 + u * (0.5 + u * (0.16666666666666666 + u * (0.041666666666666664 +
      u * (0.008333333333333333 + u * (0.001388888888888889 + u * (1.984126984126984e-4 +
      u * (2.48015873015873e-5 + u * (2.755731922398589e-6 + u * 2.755731922398589e-7)))))))));
  const uint qb = floatBitsToUint(q);
  const uint mq = (qb & 0x7fffffu) | 0x800000u;
  const int eq = int(qb >> 23) - 150;
  return RoundScaled(neg, mq, eq + int(n));
}

// |x|^y for finite x != 0 and finite y != 0: exp2 of y * log2|x| with the
// product as a float-float, so the error does not grow with |y log2 x|.
float PowFinite(float ax, float y, bool neg) {
  const vec2 l = Log2FF(ax);
  precise float p0 = y * l.x;
  if (!(abs(p0) < 1024.0)) return Exp2FF(vec2(p0, 0.0), neg);  // over/underflows (splitting y could overflow)
  const vec2 p = TwoProduct(y, l.x);
  precise float lo = p.y + y * l.y;
  return Exp2FF(FastTwoSum(p.x, lo), neg);
}

float PowIeee(float x, float y) {
  // C's pow special cases (the reference uses std::pow); GLSL's pow leaves
  // x < 0 and x == 0 undefined.
  if (y == 0.0) return 1.0;
  if (x == 1.0) return 1.0;
  if (isnan(x) || isnan(y)) return x + y;
  const float inf = uintBitsToFloat(0x7f800000u);
  const bool y_int = !isinf(y) && floor(y) == y;
  const bool y_odd = y_int && abs(y) < 16777216.0 && mod(abs(y), 2.0) == 1.0;
  if (isinf(y)) {
    const float ax = abs(x);
    if (ax == 1.0) return 1.0;
    return (ax > 1.0) == (y > 0.0) ? inf : 0.0;
  }
  if (x == 0.0) {
    if (y < 0.0) return y_odd ? 1.0 / x : inf;
    return y_odd ? x : 0.0;
  }
  if (isinf(x)) {
    if (x > 0.0) return y > 0.0 ? inf : 0.0;
    if (y > 0.0) return y_odd ? -inf : inf;
    return y_odd ? -0.0 : 0.0;
  }
  if (x < 0.0) {
    if (!y_int) return uintBitsToFloat(0x7fc00000u);
    return PowFinite(-x, y, y_odd);
  }
  return PowFinite(x, y, false);
}
#endif

// The op `op` (a code above) of x and y, in the type A_CT.
A_CT BinaryOp(uint op, A_CT x, A_CT y) {
  switch (op) {
    case kAdd: return x + y;
    case kSub: return x - y;
    case kMul: return x * y;
    case kDiv:
#if defined(A_FLOAT)
      return DivIeee(x, y);
#else
      if (y == A_CT(0)) return A_CT(0);
#if defined(A_SINT)
      if (y == A_CT(-1)) return -x;  // INT_MIN / -1 would trap
#endif
      return x / y;
#endif
    case kMax:
#if defined(A_FLOAT)
      if (isnan(x) || isnan(y)) return uintBitsToFloat(0x7fc00000u);
#endif
      return x > y ? x : y;
    case kMin:
#if defined(A_FLOAT)
      if (isnan(x) || isnan(y)) return uintBitsToFloat(0x7fc00000u);
#endif
      return x < y ? x : y;
    default:  // kPow
#if defined(A_FLOAT)
      return PowIeee(x, y);
#else
    {
#if defined(A_SINT)
      if (y < A_CT(0)) {
        if (x == A_CT(1)) return A_CT(1);
        if (x == A_CT(-1)) return (y % A_CT(2)) == A_CT(0) ? A_CT(1) : A_CT(-1);
        return A_CT(0);
      }
#endif
      A_CT result = A_CT(1);
      A_CT base = x;
      A_CT e = y;
      while (e != A_CT(0)) {
        if ((e & A_CT(1)) != A_CT(0)) result *= base;
        base *= base;
        e >>= 1;
      }
      return result;
    }
#endif
  }
}
#endif  // BINARY_MATH_GLSL
