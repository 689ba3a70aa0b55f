#include "ops/number_cast.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/float16.h"

namespace webnn::ops {
namespace {

// Clamp to [lo, hi] and drop the fraction. The spec's ConvertToInt rounds half
// to even, but WPT (mlNumber.json "cast fractional float to integer": 3.9 -> 3)
// expects truncation toward zero, as the cast operator does; we follow WPT.
double ClampTruncate(double x, double lo, double hi) {
  if (std::isnan(x)) return 0;
  x = std::trunc(std::fmin(std::fmax(x, lo), hi));
  return x == 0 ? 0.0 : x;
}

struct IntRange {
  bool is_signed;
  int bits;
};

IntRange RangeOf(DataType t) {
  switch (t) {
    case DataType::kInt64: return {true, 64};
    case DataType::kUint64: return {false, 64};
    case DataType::kInt32: return {true, 32};
    // The spec's table says "signed" for uint32 (a typo upstream); clamping to
    // the uint32 range is the only reading that produces a uint32.
    case DataType::kUint32: return {false, 32};
    case DataType::kInt8: return {true, 8};
    case DataType::kUint8: return {false, 8};
    case DataType::kInt4: return {true, 4};
    case DataType::kUint4: return {false, 4};
    default: return {true, 64};
  }
}

}  // namespace

CastValue CastMLNumber(const MLNumber& n, DataType type) {
  CastValue v;
  if (type == DataType::kFloat32) {
    v.f = static_cast<double>(static_cast<float>(n.kind() == MLNumber::Kind::kDouble ? n.asDouble()
                                                 : n.kind() == MLNumber::Kind::kBigInt
                                                     ? static_cast<float>(n.bigIntValue())
                                                     : static_cast<float>(n.bigUintValue())));
    return v;
  }
  if (type == DataType::kFloat16) {
    v.f = core::HalfBitsToDouble(core::DoubleToHalfBits(n.asDouble()));
    return v;
  }
  const IntRange r = RangeOf(type);
  if (r.is_signed) {
    const int64_t lo = r.bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (r.bits - 1));
    const int64_t hi = r.bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (r.bits - 1)) - 1;
    switch (n.kind()) {
      case MLNumber::Kind::kDouble: {
        double x = n.asDouble();
        if (std::isnan(x)) { v.i = 0; break; }
        if (x <= static_cast<double>(lo)) { v.i = lo; break; }
        if (x >= static_cast<double>(hi)) { v.i = hi; break; }  // 2^63 rounds to hi
        v.i = static_cast<int64_t>(ClampTruncate(x, static_cast<double>(lo), static_cast<double>(hi)));
        break;
      }
      case MLNumber::Kind::kBigInt: v.i = std::min(std::max(n.bigIntValue(), lo), hi); break;
      case MLNumber::Kind::kBigUint:
        v.i = n.bigUintValue() > static_cast<uint64_t>(hi) ? hi : static_cast<int64_t>(n.bigUintValue());
        break;
    }
    v.u = static_cast<uint64_t>(v.i);
    v.f = static_cast<double>(v.i);
  } else {
    const uint64_t hi = r.bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << r.bits) - 1;
    switch (n.kind()) {
      case MLNumber::Kind::kDouble: {
        double x = n.asDouble();
        if (std::isnan(x) || x <= 0) { v.u = 0; break; }
        if (x >= static_cast<double>(hi)) { v.u = hi; break; }
        v.u = static_cast<uint64_t>(ClampTruncate(x, 0, static_cast<double>(hi)));
        break;
      }
      case MLNumber::Kind::kBigInt: v.u = n.bigIntValue() < 0 ? 0 : std::min<uint64_t>(n.bigIntValue(), hi); break;
      case MLNumber::Kind::kBigUint: v.u = std::min(n.bigUintValue(), hi); break;
    }
    v.i = static_cast<int64_t>(v.u);
    v.f = static_cast<double>(v.u);
  }
  return v;
}

void WriteCastValue(const CastValue& v, DataType type, std::byte* out) {
  auto put = [out](auto x) { std::memcpy(out, &x, sizeof x); };
  switch (type) {
    case DataType::kFloat32: put(static_cast<float>(v.f)); break;
    case DataType::kFloat16: put(core::DoubleToHalfBits(v.f)); break;
    case DataType::kInt32: put(static_cast<int32_t>(v.i)); break;
    case DataType::kUint32: put(static_cast<uint32_t>(v.u)); break;
    case DataType::kInt64: put(v.i); break;
    case DataType::kUint64: put(v.u); break;
    case DataType::kInt8: put(static_cast<int8_t>(v.i)); break;
    case DataType::kUint8: put(static_cast<uint8_t>(v.u)); break;
    case DataType::kInt4:
    case DataType::kUint4: put(static_cast<uint8_t>(v.u & 0xf)); break;
  }
}

bool CastValueLess(const CastValue& a, const CastValue& b, DataType type) {
  if (IsFloatingPoint(type)) return a.f < b.f;
  if (IsSignedInteger(type)) return a.i < b.i;
  return a.u < b.u;
}

}  // namespace webnn::ops
