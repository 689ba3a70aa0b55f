// IEEE binary16 conversions with a single correct rounding (round to nearest,
// ties to even) from float64: the reference device rounds once, so float32
// intermediates would be a second, wrong rounding.
#pragma once

#include <cstdint>
#include <cstring>

namespace webnn::core {

inline double HalfBitsToDouble(uint16_t h) {
  const uint32_t sign = h >> 15;
  const uint32_t exp = (h >> 10) & 0x1f;
  const uint32_t mant = h & 0x3ff;
  double v;
  if (exp == 0) {
    v = static_cast<double>(mant) * 0x1p-24;  // subnormal: mant * 2^-24
  } else if (exp == 31) {
    if (mant != 0) {
      // Keep the payload's quiet bit; any NaN is fine for our purposes.
      uint64_t bits = 0x7ff8000000000000ull | (static_cast<uint64_t>(mant) << 42);
      std::memcpy(&v, &bits, sizeof v);
    } else {
      v = __builtin_inf();
    }
  } else {
    v = (1.0 + static_cast<double>(mant) * 0x1p-10) *
        static_cast<double>(uint64_t{1} << exp) * 0x1p-15;
  }
  return sign ? -v : v;
}

inline uint16_t DoubleToHalfBits(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000);
  const int exp = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t mant = bits & ((uint64_t{1} << 52) - 1);
  if (exp == 0x7ff) {
    if (mant == 0) return sign | 0x7c00;                               // +-Inf
    return static_cast<uint16_t>(sign | 0x7e00 | ((mant >> 42) & 0x1ff));  // quiet NaN
  }
  if (exp == 0) return sign;  // float64 subnormals are far below half's range
  const int e = exp - 1023;   // unbiased exponent
  if (e > 15) return sign | 0x7c00;
  const uint64_t significand = (uint64_t{1} << 52) | mant;  // 53 bits
  int half_exp = e + 15;
  int shift;  // how many low bits of `significand` are dropped
  uint16_t base;
  if (half_exp >= 1) {
    shift = 42;  // 52 - 10 fraction bits
    base = static_cast<uint16_t>(half_exp << 10);
    // Result = base + (significand >> 42) - implicit bit, rounding carries into exp.
    uint64_t kept = (significand >> shift) & 0x3ff;
    uint64_t rem = significand & ((uint64_t{1} << shift) - 1);
    uint64_t halfway = uint64_t{1} << (shift - 1);
    uint32_t r = base | static_cast<uint32_t>(kept);
    if (rem > halfway || (rem == halfway && (r & 1))) ++r;  // may carry to 0x7c00 = Inf
    return static_cast<uint16_t>(sign | r);
  }
  // Subnormal half: value = significand * 2^(e-52); units of 2^-24.
  shift = 52 - 24 - e;  // e <= -15 so shift >= 43
  if (shift > 63) return sign;  // below 2^-25 even after rounding
  uint64_t kept = significand >> shift;
  uint64_t rem = significand & ((uint64_t{1} << shift) - 1);
  uint64_t halfway = uint64_t{1} << (shift - 1);
  uint32_t r = static_cast<uint32_t>(kept);
  if (rem > halfway || (rem == halfway && (r & 1))) ++r;  // may become the smallest normal
  return static_cast<uint16_t>(sign | r);
}

// float64 -> float32 as IEEE rounds it: nearest even, overflow to +-Inf. (A
// static_cast of a value past the float range is undefined behaviour; the
// emulated Highway targets clamp it to the largest float instead.)
inline float DoubleToFloat(double x) {
  constexpr double kOverflow = 0x1.ffffffp127;  // halfway past FLT_MAX rounds to Inf
  if (x >= kOverflow) return __builtin_inff();
  if (x <= -kOverflow) return -__builtin_inff();
  return static_cast<float>(x);
}

inline float HalfBitsToFloat(uint16_t h) { return static_cast<float>(HalfBitsToDouble(h)); }
inline uint16_t FloatToHalfBits(float f) { return DoubleToHalfBits(static_cast<double>(f)); }

}  // namespace webnn::core
