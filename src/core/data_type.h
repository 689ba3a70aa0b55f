// Data-type sets and small helpers shared by every layer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "webnn/types.h"

namespace webnn::core {

using DataType = MLOperandDataType;

// A set of data types as a bitmask (10 types fit in 16 bits).
class DataTypeSet {
 public:
  constexpr DataTypeSet() = default;
  constexpr DataTypeSet(std::initializer_list<DataType> types) {
    for (DataType t : types) bits_ |= Bit(t);
  }
  static constexpr DataTypeSet FromBits(uint16_t bits) {
    DataTypeSet s;
    s.bits_ = bits;
    return s;
  }
  constexpr bool Contains(DataType t) const { return (bits_ & Bit(t)) != 0; }
  constexpr bool Empty() const { return bits_ == 0; }
  constexpr uint16_t bits() const { return bits_; }
  constexpr DataTypeSet operator&(DataTypeSet o) const { return FromBits(bits_ & o.bits_); }
  constexpr DataTypeSet operator|(DataTypeSet o) const { return FromBits(bits_ | o.bits_); }
  constexpr bool operator==(const DataTypeSet&) const = default;
  // In the IDL enum's order.
  std::vector<DataType> ToVector() const;
  // "float32, float16, int32"
  std::string ToString() const;

 private:
  static constexpr uint16_t Bit(DataType t) { return static_cast<uint16_t>(1u << static_cast<int>(t)); }
  uint16_t bits_ = 0;
};

// The spec's eight MLOperandDataType values ("any data type").
inline constexpr DataTypeSet kAnySpecType{DataType::kFloat32, DataType::kFloat16, DataType::kInt32,
                                          DataType::kUint32,  DataType::kInt64,   DataType::kUint64,
                                          DataType::kInt8,    DataType::kUint8};
// ... plus the packed 4-bit types.
inline constexpr DataTypeSet kAnyType = kAnySpecType | DataTypeSet{DataType::kInt4, DataType::kUint4};
inline constexpr DataTypeSet kFloatTypes{DataType::kFloat32, DataType::kFloat16};

// ---- Code templated on element types ------------------------------------------
// Kernels are templates over the C++ type of their elements; VisitType turns
// a run-time data type into the instantiation for it, so that no kernel keeps
// its own switch over the data types.

template <typename T>
struct TypeTag {
  using type = T;
};
template <typename... Ts>
struct TypeList {};

// The data type whose elements are T. float16 has no standard C++ type: any
// 2-byte non-integer type stands for it (the cpu kernels' hwy::float16_t);
// WebNN has no 16-bit integer types to confuse it with.
template <typename T>
constexpr DataType DataTypeOf() {
  if constexpr (std::is_same_v<T, float>) return DataType::kFloat32;
  else if constexpr (std::is_same_v<T, int32_t>) return DataType::kInt32;
  else if constexpr (std::is_same_v<T, uint32_t>) return DataType::kUint32;
  else if constexpr (std::is_same_v<T, int64_t>) return DataType::kInt64;
  else if constexpr (std::is_same_v<T, uint64_t>) return DataType::kUint64;
  else if constexpr (std::is_same_v<T, int8_t>) return DataType::kInt8;
  else if constexpr (std::is_same_v<T, uint8_t>) return DataType::kUint8;
  else {
    static_assert(sizeof(T) == 2 && !std::is_integral_v<T>, "no data type has elements of this type");
    return DataType::kFloat16;
  }
}

// The element types of the spec's eight data types (kAnySpecType), float16's
// as `Half`. The packed 4-bit types have none.
template <typename Half>
using SpecElementTypes = TypeList<float, Half, int32_t, uint32_t, int64_t, uint64_t, int8_t, uint8_t>;

namespace internal {
template <typename F, typename Otherwise>
decltype(auto) VisitTypeIn(TypeList<>, DataType, F&, Otherwise& otherwise) {
  return otherwise();
}
template <typename T, typename... Rest, typename F, typename Otherwise>
decltype(auto) VisitTypeIn(TypeList<T, Rest...>, DataType type, F& f, Otherwise& otherwise) {
  if (type == DataTypeOf<T>()) return f(TypeTag<T>{});
  return VisitTypeIn(TypeList<Rest...>{}, type, f, otherwise);
}
}  // namespace internal

// Returns f(TypeTag<T>{}) for the T of `List` (a TypeList) whose data type is
// `type`, or otherwise() when `List` has no such T:
//   VisitType<TypeList<int32_t, int64_t>>(t, [&]<typename T>(TypeTag<T>) { ... }, [&] { throw ...; });
template <typename List, typename F, typename Otherwise>
decltype(auto) VisitType(DataType type, F&& f, Otherwise&& otherwise) {
  return internal::VisitTypeIn(List{}, type, f, otherwise);
}
// The same where `type` is one of List's by construction (a kernel registered
// for those types only): any other type does nothing.
template <typename List, typename F>
void VisitType(DataType type, F&& f) {
  VisitType<List>(type, f, [] {});
}

}  // namespace webnn::core
