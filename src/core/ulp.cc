#include "core/ulp.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "core/float16.h"

namespace webnn::core {

namespace {

template <typename S>
S Raw(std::span<const std::byte> data, uint64_t k) {
  S v;
  std::memcpy(&v, data.data() + k * sizeof(S), sizeof(S));
  return v;
}

uint8_t Nibble(std::span<const std::byte> data, uint64_t k) {
  const uint8_t b = static_cast<uint8_t>(data[k / 2]);
  return (k & 1) ? (b >> 4) : (b & 0xf);
}

}  // namespace

double ElementAsDouble(std::span<const std::byte> data, MLOperandDataType type, uint64_t k) {
  switch (type) {
    case MLOperandDataType::kFloat32: return Raw<float>(data, k);
    case MLOperandDataType::kFloat16: return HalfBitsToDouble(Raw<uint16_t>(data, k));
    case MLOperandDataType::kInt32: return Raw<int32_t>(data, k);
    case MLOperandDataType::kUint32: return Raw<uint32_t>(data, k);
    case MLOperandDataType::kInt64: return static_cast<double>(Raw<int64_t>(data, k));
    case MLOperandDataType::kUint64: return static_cast<double>(Raw<uint64_t>(data, k));
    case MLOperandDataType::kInt8: return Raw<int8_t>(data, k);
    case MLOperandDataType::kUint8: return Raw<uint8_t>(data, k);
    case MLOperandDataType::kInt4: {
      const int v = Nibble(data, k);
      return v >= 8 ? v - 16 : v;
    }
    case MLOperandDataType::kUint4: return Nibble(data, k);
  }
  return 0;
}

uint32_t FloatBitsOf(double x, MLOperandDataType type) {
  if (type == MLOperandDataType::kFloat16) return DoubleToHalfBits(x);
  const float f = static_cast<float>(x);  // round to nearest even
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

int64_t OrderedFloatBits(uint32_t bits, MLOperandDataType type) {
  const uint32_t sign = type == MLOperandDataType::kFloat16 ? 0x8000u : 0x80000000u;
  const int64_t magnitude = bits & (sign - 1);
  return (bits & sign) ? -magnitude : magnitude;
}

UlpDistance FloatUlpDistance(double candidate, double truth, MLOperandDataType type) {
  if (std::isnan(candidate) || std::isnan(truth))
    return std::isnan(candidate) && std::isnan(truth) ? UlpDistance{} : UlpDistance{UlpDistance::Kind::kNanMismatch};
  const uint32_t c = FloatBitsOf(candidate, type), t = FloatBitsOf(truth, type);
  const uint32_t infinity = type == MLOperandDataType::kFloat16 ? 0x7c00u : 0x7f800000u;
  const bool c_inf = (c & (type == MLOperandDataType::kFloat16 ? 0x7fffu : 0x7fffffffu)) == infinity;
  const bool t_inf = (t & (type == MLOperandDataType::kFloat16 ? 0x7fffu : 0x7fffffffu)) == infinity;
  if ((c_inf || t_inf) && c != t) return {UlpDistance::Kind::kInfMismatch};
  const int64_t d = OrderedFloatBits(c, type) - OrderedFloatBits(t, type);
  return {UlpDistance::Kind::kDistance, static_cast<uint64_t>(d < 0 ? -d : d)};
}

uint64_t IntegerDistance(std::span<const std::byte> a, std::span<const std::byte> b, MLOperandDataType type,
                         uint64_t k) {
  auto distance = [](auto x, auto y) -> uint64_t {
    // In the unsigned type of the same width: no signed overflow.
    using U = std::make_unsigned_t<decltype(x)>;
    return x >= y ? static_cast<uint64_t>(static_cast<U>(x) - static_cast<U>(y))
                  : static_cast<uint64_t>(static_cast<U>(y) - static_cast<U>(x));
  };
  switch (type) {
    case MLOperandDataType::kInt64: return distance(Raw<int64_t>(a, k), Raw<int64_t>(b, k));
    case MLOperandDataType::kUint64: return distance(Raw<uint64_t>(a, k), Raw<uint64_t>(b, k));
    default: {
      // Every narrower type fits an int64 exactly.
      const auto x = static_cast<int64_t>(ElementAsDouble(a, type, k));
      const auto y = static_cast<int64_t>(ElementAsDouble(b, type, k));
      return distance(x, y);
    }
  }
}

}  // namespace webnn::core
