// Data-type sets and small helpers shared by every layer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
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

}  // namespace webnn::core
