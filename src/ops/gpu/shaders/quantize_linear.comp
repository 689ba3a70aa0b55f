#version 450
// quantizeLinear (-DQUANTIZE) and dequantizeLinear. -DA_F32/-DA_F16: the float
// side (quantize's input and scale, dequantize's scale and output);
// -DQ_<T>: the integer side (I8, U8, I32, U32, or I4/U4 packed two per byte,
// low nibble first). As the reference (src/ops/reference/quantize_linear.cc):
//   quantize:   saturate(roundEven(x / scale) + zeroPoint), the quotient
//               rounded from its exact value; NaN -> 0, +-Infinity saturate.
//   dequantize: (x - zeroPoint) * scale, the difference exact in 64 bits and
//               the product rounded once (DequantizeExact).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

#if defined(Q_I8)
#define Q_T int8_t
const int64_t kLo = -128l, kHi = 127l;
#elif defined(Q_U8)
#define Q_T uint8_t
const int64_t kLo = 0l, kHi = 255l;
#elif defined(Q_I32)
#define Q_T int
const int64_t kLo = -2147483648l, kHi = 2147483647l;
#elif defined(Q_U32)
#define Q_T uint
const int64_t kLo = 0l, kHi = 4294967295l;
#elif defined(Q_I4)
#define Q_T uint8_t
#define Q_PACKED 1
const int64_t kLo = -8l, kHi = 7l;
#elif defined(Q_U4)
#define Q_T uint8_t
#define Q_PACKED 1
const int64_t kLo = 0l, kHi = 15l;
#endif

#if defined(QUANTIZE)
layout(std430, binding = 1) readonly buffer X { A_T x[]; };
#else
layout(std430, binding = 1) readonly buffer X { Q_T x[]; };
#endif
layout(std430, binding = 2) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 3) readonly buffer ZeroPoint { Q_T zero_point[]; };
#if defined(QUANTIZE)
layout(std430, binding = 4) buffer O { Q_T o[]; };
#else
layout(std430, binding = 4) writeonly buffer O { A_T o[]; };
#endif

// P(0) n, P(1) rank, P(2..9) input shape, P(10..17) block sizes (inputDim /
// scaleDim), P(18..25) scale strides (0 where scaleDim is 1), P(26) 1 when
// scale has a single element.

uint ParamIndex(uint i) {
  if (P(26) != 0u) return 0u;
  uint p = 0u;
  for (int d = int(P(1)) - 1; d >= 0; --d) {
    const uint n = P(2 + d);
    p += ((i % n) / P(10 + d)) * P(18 + d);
    i /= n;
  }
  return p;
}

// Element i of a quantized buffer whose base is `base` (in bytes for 4-bit).
#if defined(Q_PACKED)
int64_t Unpack(uint byte_value, uint i) {
  const uint nibble = (i & 1u) != 0u ? (byte_value >> 4) & 15u : byte_value & 15u;
#if defined(Q_I4)
  return int64_t(int(nibble << 28) >> 28);
#else
  return int64_t(nibble);
#endif
}
#define LOAD_Q(buf, base, i) Unpack(uint(buf[(base) + ((i) >> 1)]), (i))
#else
#define LOAD_Q(buf, base, i) int64_t(buf[(base) + (i)])
#endif

#if defined(QUANTIZE)
// roundEven(x / s) for finite x and finite nonzero s, exact: from the
// integer mantissas, x / s = (X / S) * 2^e. Clamped to +-2^40, beyond every
// quantized type even after adding a zeroPoint.
int64_t RoundEvenQuotientExact(float x, float s) {
  int ex, es;
  const float mx = frexp(abs(x), ex), ms = frexp(abs(s), es);
  const uint64_t X = uint64_t(mx * 16777216.0), S = uint64_t(ms * 16777216.0);  // [2^23, 2^24)
  const int e = ex - es;
  uint64_t num = X, den = S;
  if (e > 36) return (x < 0.0) != (s < 0.0) ? -(1l << 40) : (1l << 40);  // |q| > 2^35
  if (e < -38) return 0l;                                                 // |q| < 2^-37
  if (e >= 0) num <<= uint(e);
  else den <<= uint(-e);
  uint64_t q = num / den;
  const uint64_t r2 = 2ul * (num - q * den);
  if (r2 > den || (r2 == den && (q & 1ul) != 0ul)) q += 1ul;
  const int64_t v = int64_t(min(q, 1ul << 40));
  return (x < 0.0) != (s < 0.0) ? -v : v;
}

int64_t Quantize(uint i) {
  const float v = float(x[BASE(1) + i]);
  const uint p = ParamIndex(i);
  const float s = float(scale[BASE(2) + p]);
  const int64_t zp = LOAD_Q(zero_point, BASE(3), p);
  const float q = v / s;
  if (isnan(q)) return 0l;
  if (isinf(q)) return q > 0.0 ? kHi : kLo;
  const float a = abs(q);
  int64_t k;
  // Fast path: the float quotient (Vulkan allows division 2.5 ulp off, under
  // a * 2^-21) is farther than a * 2^-20 from a tie, so it rounds like the
  // exact one. The exact path otherwise, and where a nonzero x over a finite
  // s underflowed to 0.
  if (a < 4194304.0 && abs(fract(a) - 0.5) > a * 9.5367431640625e-7 && (a != 0.0 || v == 0.0)) {
    k = int64_t(roundEven(q));
  } else if (isinf(s)) {
    k = 0l;  // finite x / +-Infinity
  } else {
    k = RoundEvenQuotientExact(v, s);
  }
  return clamp(k + zp, kLo, kHi);
}
#endif

#if !defined(QUANTIZE)
// +-m * 2^e rounded once to float (to nearest even, or to odd with `odd` so a
// later rounding to float16 is still a single correct rounding), subnormals
// and overflow included; built from bits (no denormal arithmetic).
float RoundScaled(bool neg, uint64_t m, int e, bool odd) {
  if (m == 0ul) return neg ? -0.0 : 0.0;
  const uint mh = uint(m >> 32);
  const int msb = mh != 0u ? findMSB(mh) + 32 : findMSB(uint(m));
  const int lsb = max(msb + e - 23, -149);  // exponent of the result's last bit
  const int shift = lsb - e;
  uint64_t q;
  if (shift <= 0) {
    q = m << uint(-shift);
  } else if (shift > msb + 1) {
    q = odd ? 1ul : 0ul;  // below half the last bit
  } else {
    q = m >> uint(shift);
    const uint64_t rem = m - (q << uint(shift)), halfway = 1ul << uint(shift - 1);
    if (odd) {
      if (rem != 0ul) q |= 1ul;
    } else if (rem > halfway || (rem == halfway && (q & 1ul) != 0ul)) {
      q += 1ul;
    }
  }
  uint bits = (uint(lsb + 149) << 23) + uint(q);
  if (lsb + 149 >= 255 || bits >= 0x7f800000u) bits = 0x7f800000u;
  return uintBitsToFloat(bits | (neg ? 0x80000000u : 0u));
}

// (x - zeroPoint) * scale with one rounding, as the reference's float64
// product: the 64-bit integer times scale's 24-bit mantissa is exact in 64 bits.
float DequantizeExact(int64_t c, float s) {
  const uint sb = floatBitsToUint(s);
  const uint se = (sb >> 23) & 255u;
  if (se == 255u || c == 0l) return float(c) * s;
  const uint64_t ms = uint64_t(se == 0u ? (sb & 0x7fffffu) : ((sb & 0x7fffffu) | 0x800000u));
  const int e = (se == 0u ? 1 : int(se)) - 150;
  const uint64_t ac = uint64_t(c < 0l ? -c : c);
#if defined(A_F16)
  const bool odd = true;
#else
  const bool odd = false;
#endif
  return RoundScaled((c < 0l) != ((sb >> 31) != 0u), ac * ms, e, odd);
}
#endif

void main() {
  const uint n = P(0);
#if defined(QUANTIZE)
#if defined(Q_PACKED)
  GRID_STRIDE_LOOP(b, (n + 1u) / 2u) {
    const uint lo = uint(Quantize(2u * b)) & 15u;
    const uint hi = 2u * b + 1u < n ? uint(Quantize(2u * b + 1u)) & 15u : 0u;
    o[BASE(4) + b] = uint8_t(lo | (hi << 4));
  }
#else
  GRID_STRIDE_LOOP(i, n) o[BASE(4) + i] = Q_T(Quantize(i));
#endif
#else
  GRID_STRIDE_LOOP(i, n) {
    const uint p = ParamIndex(i);
    const int64_t centered = LOAD_Q(x, BASE(1), i) - LOAD_Q(zero_point, BASE(3), p);
    o[BASE(4) + i] = A_T(DequantizeExact(centered, float(scale[BASE(2) + p])));
  }
#endif
}
