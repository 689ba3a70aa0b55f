// The spec's "cast" algorithm for MLNumber arguments (clamp bounds, pad values,
// scalar constants): ConvertToFloat / ConvertToInt. float -> integer clamps to
// the type's range and truncates toward zero, as WPT expects (see number_cast.cc).
#pragma once

#include <cstdint>

#include "core/data_type.h"
#include "webnn/types.h"

namespace webnn::ops {

using core::DataType;

// A number cast to a data type; exactly one member is meaningful:
// `f` for float types, `i` for signed, `u` for unsigned integer types.
struct CastValue {
  double f = 0;
  int64_t i = 0;
  uint64_t u = 0;

  // Converts to the compute domain T (double, int64_t or uint64_t).
  template <typename T>
  T As() const;
};

CastValue CastMLNumber(const MLNumber& n, DataType type);

// Writes the value as one element of `type` (little-endian, packed for 4-bit).
void WriteCastValue(const CastValue& v, DataType type, std::byte* out);

// True when `a` < `b` as values of `type`.
bool CastValueLess(const CastValue& a, const CastValue& b, DataType type);

template <>
inline double CastValue::As<double>() const { return f; }
template <>
inline int64_t CastValue::As<int64_t>() const { return i; }
template <>
inline uint64_t CastValue::As<uint64_t>() const { return u; }

}  // namespace webnn::ops
