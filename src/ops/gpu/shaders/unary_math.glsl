// The float math of the element-wise unary ops and the activations, shared by
// elementwise_unary.comp, fused_elementwise.comp and the fused epilogues of
// matmul/gemm/conv (epilogue.glsl), so that a fused op computes exactly what
// the op alone does. Semantics follow the reference device
// (src/ops/reference/elementwise_unary.cc, activation.cc).
//
// Floats compute in float32 (float16 rounds once at the store). GLSL's
// transcendental builtins are not used: their precision is left to the
// driver (lavapipe's exp is exp2(x * log2(e)), ~70 ULP at |x| = 88, more than
// WPT's 32) and they leave IEEE special cases undefined. The routines below
// are within a few ULP everywhere:
//   exp, expm1, log  exp_log.glsl (shared with reduce, softmax and gru/lstm);
//   sin/cos/tan  exact reduction by pi/2 (Payne-Hanek in integers), Cephes'
//            minimax polynomials on [-pi/4, pi/4]; tan near its poles in
//            float pairs;
//   erf, gelu    the cpu device's erfc (vector_math-inl.h: t * e^(-a^2 + P(t)),
//            Numerical Recipes' erfcc re-expanded, -a^2 as an exact float pair).
// Nothing relies on fma() being fused (lavapipe's is not: linear through
// fma() was 3807 ULP off near its root), and what relies on rounding is
// `precise` (lavapipe otherwise folds (1 + e) - 1 to e: softplus 8e6 ULP off).
#ifndef UNARY_MATH_GLSL
#define UNARY_MATH_GLSL

// Op codes (the same numbers as UnaryOpCode in src/ops/gpu/gpu_kernel.h).
const uint kAbs = 0, kCeil = 1, kCos = 2, kErf = 3, kExp = 4, kFloor = 5, kLog = 6, kNeg = 7,
           kReciprocal = 8, kRoundEven = 9, kSin = 10, kSign = 11, kSqrt = 12, kTan = 13;
const uint kElu = 20, kGelu = 21, kHardSigmoid = 22, kHardSwish = 23, kLeakyRelu = 24, kLinear = 25,
           kRelu = 26, kSigmoid = 27, kSoftplus = 28, kSoftsign = 29, kTanh = 30, kClamp = 31;

#if defined(A_FLOAT)
#include "exp_log.glsl"  // exp, log and float_float.glsl

// ---- sin, cos, tan -------------------------------------------------------------

// 2/pi in binary, 32 bits a word after a zero word (bits -31..0), enough for
// the largest float32 (exponent 127: bits up to 127 + 96).
const uint kTwoOverPi[9] = uint[9](0u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u,
                                   0x3c439041u, 0xfe5163abu, 0xdebbc561u);

uint TwoOverPiWord(int first_bit) {
  // Bits first_bit .. first_bit + 31 of 2/pi (first_bit >= -31).
  const int p = first_bit + 31;
  const int w = p >> 5, b = p & 31;
  if (b == 0) return kTwoOverPi[w];
  return (kTwoOverPi[w] << b) | (kTwoOverPi[w + 1] >> (32 - b));
}

// 2^e for e in [-126, 127].
float Pow2(int e) { return uintBitsToFloat(uint(e + 127) << 23); }

// x = q * pi/2 + (rh + rl) with |rh + rl| <= pi/4, rl below half an ULP of rh.
// Payne-Hanek in integer arithmetic, exact for every float32 (a float-only
// Cody-Waite reduction needs an FMA to stay exact, see TwoProduct): x = M * 2^E
// with a 24-bit integer M. Bits of 2/pi before position E - 1 contribute
// multiples of 4 to x * 2/pi and are dropped; the next 96 bits W give
// x * 2/pi mod 4 = (M * W mod 2^96) * 2^-94, with an error below 2^-70.
void ReduceHalfPi(float x, out int q, out float rh, out float rl) {
  if (abs(x) <= 0.785398163) {
    q = 0;
    rh = x;
    rl = 0.0;
    return;
  }
  const uint ix = floatBitsToUint(x);
  const uint M = (ix & 0x007fffffu) | 0x00800000u;
  const int s = int((ix >> 23) & 0xffu) - 151;  // E - 1 >= -25 here
  const uint w0 = TwoOverPiWord(s), w1 = TwoOverPiWord(s + 32), w2 = TwoOverPiWord(s + 64);
  uint hi2, lo2, hi1, lo1, carry;
  umulExtended(M, w2, hi2, lo2);
  umulExtended(M, w1, hi1, lo1);
  const uint r1 = uaddCarry(lo1, hi2, carry);
  const uint r0 = M * w0 + hi1 + carry;
  // Bits 95..94: the quadrant; bits 93..0: the fraction, of which the top 64
  // (fhi:flo) read as a signed number round the quadrant to nearest.
  int quadrant = int(r0 >> 30);
  uint fhi = (r0 << 2) | (r1 >> 30);
  uint flo = (r1 << 2) | (lo2 >> 30);
  const bool round_up = (fhi >> 31) != 0u;  // the fraction is negative
  if (round_up) {
    quadrant += 1;
    flo = ~flo + 1u;
    fhi = ~fhi + (flo == 0u ? 1u : 0u);
  }
  // |fraction| = (fhi:flo) * 2^-64 <= 1/2 (its sign: round_up): normalize,
  // then split into two floats.
  int e0 = -32;
  if (fhi == 0u) {
    fhi = flo;
    flo = 0u;
    e0 -= 32;
  }
  float fh = 0.0, fl = 0.0;
  if (fhi != 0u) {
    const int sh = 31 - findMSB(fhi);
    if (sh > 0) {
      fhi = (fhi << sh) | (flo >> (32 - sh));
      flo <<= sh;
    }
    e0 -= sh;  // fraction = (fhi + flo * 2^-32) * 2^e0
    fh = float(fhi & 0xffffff00u) * Pow2(e0);
    fl = float(((fhi & 0xffu) << 24) | (flo >> 8)) * Pow2(e0 - 24);
  }
  // times pi/2 = kPio2Hi + kPio2Lo, as a float pair.
  const float kPio2Hi = 1.57079637050628662109375, kPio2Lo = -4.37113900018624283e-8;
  float p, e;
  TwoProduct(fh, kPio2Hi, p, e);
  precise float lo = e + (fh * kPio2Lo + fl * kPio2Hi);
  precise float h = p + lo;
  precise float l = lo - (h - p);
  const bool neg = (ix >> 31) != 0u;
  q = neg ? -quadrant : quadrant;
  rh = neg != round_up ? -h : h;
  rl = neg != round_up ? -l : l;
}

// Cephes sinf/cosf/tanf minimax polynomials on [-pi/4, pi/4].
float SinPoly(float r) {
  const float z = r * r;
  return r + r * z * ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1);
}
float CosPoly(float r) {
  const float z = r * r;
  return 1.0 - 0.5 * z + z * z * ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2);
}
float TanPoly(float r) {
  const float z = r * r;
  float p = 9.38540185543e-3;
  p = p * z + 3.11992232697e-3;
  p = p * z + 2.44301354525e-2;
  p = p * z + 5.34112807005e-2;
  p = p * z + 1.33387994085e-1;
  p = p * z + 3.33331568548e-1;
  return r + r * z * p;
}

float SinF(float x) {
  if (isnan(x) || x == 0.0) return x;  // sin(-0) = -0
  if (isinf(x)) return kNaN;
  int q;
  float rh, rl;
  ReduceHalfPi(x, q, rh, rl);
  const float y = (q & 1) == 0 ? SinPoly(rh) : CosPoly(rh);
  return (q & 2) == 0 ? y : -y;
}

float CosF(float x) {
  if (isnan(x)) return x;
  if (isinf(x)) return kNaN;
  int q;
  float rh, rl;
  ReduceHalfPi(x, q, rh, rl);
  const float y = (q & 1) == 0 ? CosPoly(rh) : SinPoly(rh);
  return ((q + 1) & 2) == 0 ? y : -y;
}

// tan(x) as a float pair hi + lo. Near its poles tan reaches 2e7 in float32,
// where WPT's absolute tolerance (1e-3) asks for the correctly rounded float;
// for float16, whose ULP above 4 exceeds the tolerance (2e-3), hi + lo is
// rounded once through round-to-odd. So the odd quadrants, -cot(r), keep
// 1/r as a float pair: cot(r) = 1/r - g(r), g = r/3 + r^3/45 + ... (< 0.27,
// needed to float precision only).
void TanPair(float x, out float hi, out float lo) {
  lo = 0.0;
  if (isnan(x)) {
    hi = x;
    return;
  }
  if (isinf(x)) {
    hi = kNaN;
    return;
  }
  int q;
  float rh, rl;
  ReduceHalfPi(x, q, rh, rl);
  if ((q & 1) == 0) {
    const float t = TanPoly(rh);
    hi = t + rl * (1.0 + t * t);
    return;
  }
  // 1/r = qh + ql: qh = fl(1/rh), ql = qh * (1 - qh * (rh + rl)) with the
  // product qh * rh exact.
  const float qh = 1.0 / rh;
  float p, e;
  TwoProduct(qh, rh, p, e);
  precise float res = ((1.0 - p) - e) - qh * rl;
  precise float ql = qh * res;
  const float z = rh * rh;
  float g = 4.0 / 18243225.0;
  g = g * z + 1382.0 / 638512875.0;
  g = g * z + 2.0 / 93555.0;
  g = g * z + 1.0 / 4725.0;
  g = g * z + 2.0 / 945.0;
  g = g * z + 1.0 / 45.0;
  g = g * z + 1.0 / 3.0;
  g *= rh;
  float s, t;
  TwoSum(qh, -g, s, t);
  precise float l = t + ql;
  precise float h = s + l;
  precise float l2 = l - (h - s);
  hi = -h;
  lo = -l2;
}

// hi + lo (|lo| <= half an ULP of hi) rounded to odd: hi moved one ULP toward
// lo when inexact and even. A later rounding to float16 (11 bits << 24 - 2)
// then equals the single rounding of hi + lo.
float RoundToOdd(float hi, float lo) {
  uint b = floatBitsToUint(hi);
  if (lo == 0.0 || (b & 1u) != 0u || isinf(hi) || hi == 0.0) return hi;
  return uintBitsToFloat((lo > 0.0) == (hi > 0.0) ? b + 1u : b - 1u);
}

float TanF(float x) {
  if (x == 0.0) return x;  // tan(-0) = -0
  float hi, lo;
  TanPair(x, hi, lo);
#if defined(A_F16)
  return RoundToOdd(hi, lo);
#else
  return hi;
#endif
}

// ---- erf, gelu -------------------------------------------------------------------

// erfc(a) = t * mantissa * 2^k for a = 2 * ha >= 0 (finite, a <= 10.7) and
// -a^2 = na2hi + na2lo exactly; see vector_math-inl.h (ErfcScaled).
float ErfcScaled(float ha, float na2hi, float na2lo, out float t, out int k) {
  t = 1.0 / (ha + 1.0);
  const float u = ha * t;
  float p = -0.17087277;
  p = p * u + 0.7157027;
  p = p * u - 1.06271775;
  p = p * u + 0.61745735;
  p = p * u - 0.2159216;
  p = p * u + 0.25736096;
  p = p * u + 0.15292371;
  p = p * u - 0.30267231;
  p = p * u - 1.25677255;
  p = p * u;
  const float q = roundEven((na2hi + p) * kLog2E);
  precise float r = na2hi - q * kLn2Hi;  // exact: |q| <= 170
  r = r + p;
  r = r - q * kLn2Lo;
  r = r + na2lo;
  k = int(q);
  return Expm1Poly(r) + 1.0;
}

float ErfF(float x) {
  if (isnan(x) || x == 0.0) return x;  // erf(-0) = -0
  const float ax = min(abs(x), 10.0);  // erf(10) rounds to 1
  float a2, a2lo;
  TwoProduct(ax, ax, a2, a2lo);
  float y;
  if (ax < 0.5) {
    // 2/sqrt(pi) * (x - x^3/3 + x^5/10 - x^7/42 + x^9/216 - x^11/1320)
    float p = -1.0 / 1320.0;
    p = p * a2 + 1.0 / 216.0;
    p = p * a2 - 1.0 / 42.0;
    p = p * a2 + 1.0 / 10.0;
    p = p * a2 - 1.0 / 3.0;
    p = p * a2 + 1.0;
    y = p * ax * 1.1283791670955126;
  } else {
    float t;
    int k;
    const float m = ErfcScaled(ax * 0.5, -a2, -a2lo, t, k);
    y = 1.0 - Scale2(t * m, k);
  }
  return x < 0.0 ? -y : y;
}

// gelu(x) = x * Phi(x) = x/2 * erfc(-x / sqrt(2)).
float GeluF(float x) {
  if (isnan(x)) return x;
  // Below -14.9 gelu rounds to -0; above 15 Phi rounds to 1.
  const float xm = max(x, -15.0);
  const float xc = min(xm, 15.0);
  const float ha = abs(xc) * 0.35355339059327376;
  float x2, x2lo;
  TwoProduct(xc, xc, x2, x2lo);
  float t;
  int k;
  const float mantissa = ErfcScaled(ha, -0.5 * x2, -0.5 * x2lo, t, k);
  const float m = 0.5 * t * mantissa;
  if (x < 0.0) return Scale2(xm * m, k);  // the factor x before the scaling: one rounding
  return x * (1.0 - Scale2(m, k));
}

// ---- activations -------------------------------------------------------------------

// coefficient * x where a zero coefficient makes the term vanish also at Inf.
float ScaleBy(float c, float x) { return c == 0.0 && isinf(x) ? 0.0 : c * x; }

// alpha * x + beta rounded once (nearly: within an ULP, exact when the sum
// cancels), as the reference's float64 evaluation; a zero alpha ignores x.
float Linear(float alpha, float x, float beta) {
  if (alpha == 0.0 && !isnan(x)) return beta;
  float p, e;
  TwoProduct(alpha, x, p, e);
  // Inf, NaN, or where Dekker's split (x * 4097) would overflow.
  if (!(abs(alpha) < 1e30 && abs(x) < 1e30 && abs(p) < 1e37)) return p + beta;
  float s, t;
  TwoSum(p, beta, s, t);
  if (isinf(s)) return s;
  precise float r = s + (t + e);
  return r;
}

float TanhF(float x) {
  if (isnan(x) || x == 0.0) return x;  // tanh(-0) = -0
  // tanh(a) = e / (e + 2) with e = e^(2a) - 1; it rounds to 1 above 9.01.
  const float ax = min(abs(x), 9.5);
  const float e = Expm1F(2.0 * ax);
  const float y = e / (e + 2.0);
  return x < 0.0 ? -y : y;
}

float SigmoidF(float x) {
  if (isnan(x)) return x;
  // e = e^-|x|; e * r for x < 0 underflows gradually (sigmoid(-95) ~ 5e-42).
  const float e = ExpF(-abs(x));
  const float r = 1.0 / (1.0 + e);
  return x < 0.0 ? e * r : r;
}

// The op `op` (a code above) of x. `alpha`, `beta`: the op's attributes
// (elu, hardSigmoid, leakyRelu, linear); `bounds`: clamp's minimum and
// maximum, each applied when its bit in `has_bounds` is set (bit 0: minimum,
// bit 1: maximum).
float UnaryFloat(uint op, float x, float alpha, float beta, uint has_bounds, vec2 bounds) {
  switch (op) {
    case kAbs: return abs(x);
    case kCeil: return ceil(x);
    case kCos: return CosF(x);
    case kErf: return ErfF(x);
    case kExp: return ExpF(x);
    case kFloor: return floor(x);
    case kLog: return LogF(x);
    case kNeg: return -x;
    case kReciprocal: return DivIeee(1.0, x);
    case kRoundEven: return roundEven(x);
    case kSin: return SinF(x);
    case kSign: {
      // In integers: llvmpipe turned the float select (x > 0 ? 1 : x < 0 ?
      // -1 : 0) into its own sign, which gave -0 for +-0; the reference gives
      // +0 for zeros and NaN.
      const uint b = floatBitsToUint(x);
      if ((b & 0x7fffffffu) == 0u || isnan(x)) return 0.0;
      return uintBitsToFloat((b & 0x80000000u) | 0x3f800000u);
    }
    case kSqrt: return sqrt(x);
    case kTan: return TanF(x);
    case kElu: return x > 0.0 || isnan(x) ? x : alpha * Expm1F(x);
    case kGelu: return GeluF(x);
    case kHardSigmoid: {
      // One rounding of alpha * x + beta, as the reference's float64 rounds once.
      const float y = Linear(alpha, x, beta);
      return isnan(y) ? y : min(max(y, 0.0), 1.0);
    }
    case kHardSwish:
      if (x <= -3.0) return -0.0;
      if (x >= 3.0) return x;
      return x * (x + 3.0) / 6.0;
    case kLeakyRelu: return x >= 0.0 || isnan(x) ? x : ScaleBy(alpha, x);
    case kLinear: return Linear(alpha, x, beta);
    case kRelu: return x < 0.0 ? 0.0 : x;
    case kSigmoid: return SigmoidF(x);
    case kSoftplus:
      if (isnan(x)) return x;
      return max(x, 0.0) + Log1pSmall(ExpF(-abs(x)));
    case kSoftsign:
      if (isinf(x)) return x > 0.0 ? 1.0 : -1.0;
      return DivIeee(x, 1.0 + abs(x));  // 1 + |x| may pass 2^126 (DivIeee)
    case kTanh: return TanhF(x);
    default: {  // kClamp: absent or NaN bounds do not clamp; NaN stays NaN
      if ((has_bounds & 1u) != 0u && x < bounds.x) x = bounds.x;
      if ((has_bounds & 2u) != 0u && x > bounds.y) x = bounds.y;
      return x;
    }
  }
}
#endif  // A_FLOAT
#endif  // UNARY_MATH_GLSL
