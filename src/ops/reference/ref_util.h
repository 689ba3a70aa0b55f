// Numerics and indexing helpers of the reference device.
//
// The reference device computes floats in float64 and rounds once, when a value
// is stored to its output type. Integers are computed exactly in 64-bit integer
// arithmetic and stored with the spec's semantics. Each data type belongs to one
// compute domain:
//   float32, float16           -> double
//   int64, int32, int8, int4   -> int64_t
//   uint64, uint32, uint8, uint4 -> uint64_t
// Kernels are written as templates over the domain type T and instantiated with
// VisitDomain().
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/float16.h"
#include "memory/workspace.h"
#include "ops/kernel.h"

namespace webnn::ops::ref {

// Calls f.template operator()<T>() with T the compute domain of `type`.
template <typename F>
decltype(auto) VisitDomain(DataType type, F&& f) {
  if (IsFloatingPoint(type)) return f.template operator()<double>();
  if (IsSignedInteger(type)) return f.template operator()<int64_t>();
  return f.template operator()<uint64_t>();
}

namespace internal {
inline int64_t SignExtend4(uint8_t nibble) { return (nibble & 0x8) ? int64_t(nibble) - 16 : int64_t(nibble); }
inline uint8_t Nibble(const std::byte* data, uint64_t i) {
  const uint8_t byte = static_cast<uint8_t>(data[i / 2]);
  return (i & 1) ? (byte >> 4) : (byte & 0xf);
}
inline void SetNibble(std::byte* data, uint64_t i, uint8_t v) {
  uint8_t byte = static_cast<uint8_t>(data[i / 2]);
  byte = (i & 1) ? static_cast<uint8_t>((byte & 0x0f) | (v << 4)) : static_cast<uint8_t>((byte & 0xf0) | (v & 0xf));
  data[i / 2] = static_cast<std::byte>(byte);
}
template <typename S>
S Raw(const std::byte* data, uint64_t i) {
  S v;
  std::memcpy(&v, data + i * sizeof(S), sizeof(S));
  return v;
}
template <typename S>
void SetRaw(std::byte* data, uint64_t i, S v) {
  std::memcpy(data + i * sizeof(S), &v, sizeof(S));
}
}  // namespace internal

// Element i of `t` in the compute domain T. Reading a float as an integer domain
// (or the reverse) converts the value (used by cast).
template <typename T>
T Load(const TensorView& t, uint64_t i) {
  using namespace internal;
  const std::byte* d = t.data;
  switch (t.type) {
    case DataType::kFloat32: return static_cast<T>(Raw<float>(d, i));
    case DataType::kFloat16: return static_cast<T>(core::HalfBitsToDouble(Raw<uint16_t>(d, i)));
    case DataType::kInt32: return static_cast<T>(Raw<int32_t>(d, i));
    case DataType::kUint32: return static_cast<T>(Raw<uint32_t>(d, i));
    case DataType::kInt64: return static_cast<T>(Raw<int64_t>(d, i));
    case DataType::kUint64: return static_cast<T>(Raw<uint64_t>(d, i));
    case DataType::kInt8: return static_cast<T>(Raw<int8_t>(d, i));
    case DataType::kUint8: return static_cast<T>(Raw<uint8_t>(d, i));
    case DataType::kInt4: return static_cast<T>(SignExtend4(Nibble(d, i)));
    case DataType::kUint4: return static_cast<T>(Nibble(d, i));
  }
  return T{};
}

// Float to integer, as the cast operator does it: truncate toward zero,
// saturate to the type's range, NaN -> 0.
template <typename I>
I SaturateTruncate(double v) {
  if (std::isnan(v)) return 0;
  v = std::trunc(v);
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::lowest());
  // 2^63 and 2^64 are exactly representable; values >= them saturate.
  constexpr double hi_exclusive = static_cast<double>(std::numeric_limits<I>::max()) + 1.0;
  if (v <= lo) return std::numeric_limits<I>::lowest();
  if (v >= hi_exclusive) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

// Stores `v` (compute domain T) as element i of `t`, rounding once:
//  double  -> float32/float16: round to nearest even (overflow to +-Inf);
//  double  -> integer types: truncate toward zero and saturate (NaN -> 0);
//  integer -> narrower integer types: two's-complement wrap (keep the low bits);
//  integer -> float types: round to nearest.
//  With t.unrounded set (a float output the oracle asked for), v as float64
//  is kept there too, before that rounding.
template <typename T>
void Store(const TensorView& t, uint64_t i, T v) {
  using namespace internal;
  std::byte* d = t.data;
  if (t.unrounded) t.unrounded[i] = static_cast<double>(v);
  if constexpr (std::is_same_v<T, double>) {
    switch (t.type) {
      case DataType::kFloat32: SetRaw<float>(d, i, static_cast<float>(v)); return;
      case DataType::kFloat16: SetRaw<uint16_t>(d, i, core::DoubleToHalfBits(v)); return;
      case DataType::kInt32: SetRaw<int32_t>(d, i, SaturateTruncate<int32_t>(v)); return;
      case DataType::kUint32: SetRaw<uint32_t>(d, i, SaturateTruncate<uint32_t>(v)); return;
      case DataType::kInt64: SetRaw<int64_t>(d, i, SaturateTruncate<int64_t>(v)); return;
      case DataType::kUint64: SetRaw<uint64_t>(d, i, SaturateTruncate<uint64_t>(v)); return;
      case DataType::kInt8: SetRaw<int8_t>(d, i, SaturateTruncate<int8_t>(v)); return;
      case DataType::kUint8: SetRaw<uint8_t>(d, i, SaturateTruncate<uint8_t>(v)); return;
      case DataType::kInt4: {
        double c = std::isnan(v) ? 0 : std::trunc(std::fmin(std::fmax(v, -8.0), 7.0));
        SetNibble(d, i, static_cast<uint8_t>(static_cast<int>(c) & 0xf));
        return;
      }
      case DataType::kUint4: {
        double c = std::isnan(v) ? 0 : std::trunc(std::fmin(std::fmax(v, 0.0), 15.0));
        SetNibble(d, i, static_cast<uint8_t>(c));
        return;
      }
    }
  } else {
    // Integer domain. Conversions to unsigned keep the low bits (wrap).
    const uint64_t bits = static_cast<uint64_t>(v);
    switch (t.type) {
      case DataType::kFloat32: SetRaw<float>(d, i, static_cast<float>(v)); return;
      case DataType::kFloat16: {
        // |v| > 2^53 would round twice here, but such values are Inf in float16 anyway.
        SetRaw<uint16_t>(d, i, core::DoubleToHalfBits(static_cast<double>(v)));
        return;
      }
      case DataType::kInt32: SetRaw<int32_t>(d, i, static_cast<int32_t>(static_cast<uint32_t>(bits))); return;
      case DataType::kUint32: SetRaw<uint32_t>(d, i, static_cast<uint32_t>(bits)); return;
      case DataType::kInt64: SetRaw<int64_t>(d, i, static_cast<int64_t>(bits)); return;
      case DataType::kUint64: SetRaw<uint64_t>(d, i, bits); return;
      case DataType::kInt8: SetRaw<int8_t>(d, i, static_cast<int8_t>(static_cast<uint8_t>(bits))); return;
      case DataType::kUint8: SetRaw<uint8_t>(d, i, static_cast<uint8_t>(bits)); return;
      case DataType::kInt4:
      case DataType::kUint4: SetNibble(d, i, static_cast<uint8_t>(bits & 0xf)); return;
    }
  }
}

// Row-major strides (in elements).
inline std::vector<uint64_t> Strides(const std::vector<uint32_t>& shape) {
  std::vector<uint64_t> s(shape.size());
  uint64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

// Strides of `in` for iterating an output of shape `out` under numpy
// broadcasting: right-aligned, 0 where `in` has size 1 or lacks the dimension.
inline std::vector<uint64_t> BroadcastStrides(const std::vector<uint32_t>& in, const std::vector<uint32_t>& out) {
  std::vector<uint64_t> in_strides = Strides(in);
  std::vector<uint64_t> s(out.size(), 0);
  const size_t offset = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) s[i + offset] = in[i] == 1 ? 0 : in_strides[i];
  return s;
}

// Calls f(index) for every multi-index of `shape` in row-major order, where
// `index` is a std::vector<uint32_t>. Scalars (rank 0) get one call.
template <typename F>
void ForEachIndex(const std::vector<uint32_t>& shape, F&& f) {
  const uint64_t n = core::ElementCount(shape);
  std::vector<uint32_t> index(shape.size(), 0);
  for (uint64_t linear = 0; linear < n; ++linear) {
    f(static_cast<const std::vector<uint32_t>&>(index));
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

// Linear offset of `index` with `strides`.
inline uint64_t Offset(const std::vector<uint32_t>& index, const std::vector<uint64_t>& strides) {
  uint64_t off = 0;
  for (size_t i = 0; i < index.size(); ++i) off += uint64_t{index[i]} * strides[i];
  return off;
}

// Wrapping integer arithmetic (no signed-overflow UB).
inline int64_t WrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
inline int64_t WrapSub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
inline int64_t WrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }
inline int64_t WrapNeg(int64_t a) { return static_cast<int64_t>(0 - static_cast<uint64_t>(a)); }
inline uint64_t WrapAdd(uint64_t a, uint64_t b) { return a + b; }
inline uint64_t WrapSub(uint64_t a, uint64_t b) { return a - b; }
inline uint64_t WrapMul(uint64_t a, uint64_t b) { return a * b; }
inline uint64_t WrapNeg(uint64_t a) { return 0 - a; }
inline double WrapAdd(double a, double b) { return a + b; }
inline double WrapSub(double a, double b) { return a - b; }
inline double WrapMul(double a, double b) { return a * b; }
inline double WrapNeg(double a) { return -a; }


// ---- Whole operands in float64 (the recurrent kernels) ---------------------

// Values in float64, charged as kernel workspace while they live
// (memory::ChargeRunMemory; before anything is allocated).
class Float64Values {
 public:
  Float64Values(uint64_t count, double value, std::string_view what)
      : charge_(memory::ChargeRunMemory(count * sizeof(double), what)), values_(count, value) {}
  // All of `t` (none for an absent optional operand).
  Float64Values(const TensorView& t, std::string_view what)
      : Float64Values(t.present() ? t.elements() : 0, 0.0, what) {
    for (uint64_t i = 0; i < values_.size(); ++i) values_[i] = Load<double>(t, i);
  }
  double* data() { return values_.data(); }
  const double* data() const { return values_.data(); }
  // data() + offset, or null when empty (an absent operand).
  const double* DataOrNull(uint64_t offset) const { return values_.empty() ? nullptr : values_.data() + offset; }
  uint64_t size() const { return values_.size(); }
  bool empty() const { return values_.empty(); }
  double& operator[](uint64_t i) { return values_[i]; }
  double operator[](uint64_t i) const { return values_[i]; }
  void swap(Float64Values& other) noexcept {
    values_.swap(other.values_);
    std::swap(charge_, other.charge_);
  }

 private:
  memory::Charge charge_;
  std::vector<double> values_;
};

// ctx.inputs[i], or an absent view past the end of the inputs.
inline const TensorView& InputOrAbsent(const KernelContext& ctx, size_t i) {
  static const TensorView kAbsent;
  return i < ctx.inputs.size() ? ctx.inputs[i] : kAbsent;
}

inline double Dot(const double* a, const double* b, uint64_t n) {
  double sum = -0.0;  // the identity of IEEE addition: keeps a sum of -0 terms -0
  for (uint64_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace webnn::ops::ref
