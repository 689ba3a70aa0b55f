// Distances between a value of a data type and the truth, in units in the
// last place (ULP) of that type: the measure of WPT's tolerances and of
// `webnn oracle` (docs/ORACLE.md).
//
// Floats (float32, float16): both values are taken as bit patterns of the
// type (the truth rounded to it first, to nearest even), mapped to a line on
// which neighbouring representable values are 1 apart: sign-magnitude bits
// become a signed integer, so +0 and -0 are both 0, the smallest subnormals
// are +-1 (2 apart across zero), and +-Infinity sit one past the largest
// finite values. NaN against NaN is a match (distance 0) whatever the
// payloads; NaN against a number is a NaN mismatch; an infinity against
// anything but the same infinity is an infinity mismatch (no distance).
// Integers: the exact difference |a - b|.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "webnn/types.h"

namespace webnn::core {

// Element k of packed little-endian `data` of `type` (int4/uint4: two per
// byte, low nibble first) as a double: exact but for 64-bit integers past 2^53.
double ElementAsDouble(std::span<const std::byte> data, MLOperandDataType type, uint64_t k);

// The float32 or float16 bit pattern nearest `x` (round to nearest even,
// overflow to +-Infinity, float16 subnormals kept).
uint32_t FloatBitsOf(double x, MLOperandDataType type);

// `bits` (float32 or float16, not NaN) on the line described above.
int64_t OrderedFloatBits(uint32_t bits, MLOperandDataType type);

struct UlpDistance {
  enum class Kind { kDistance, kNanMismatch, kInfMismatch };
  Kind kind = Kind::kDistance;
  uint64_t ulps = 0;  // for kDistance
  bool matches() const { return kind == Kind::kDistance; }
};

// Floats: `candidate` (a value of `type`) against `truth` rounded to `type`.
UlpDistance FloatUlpDistance(double candidate, double truth, MLOperandDataType type);
// Element k of two packed buffers of one integer `type`.
uint64_t IntegerDistance(std::span<const std::byte> a, std::span<const std::byte> b, MLOperandDataType type,
                         uint64_t k);

}  // namespace webnn::core
