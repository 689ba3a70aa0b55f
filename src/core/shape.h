// Shapes as the IR and the shape-inference functions see them.
//
// A Dim is a static size, or a dynamic dimension: a symbol of the graph's
// symbol table with `size` holding its upper bound (maxSize). Shape inference
// runs at build time on these (dynamic dims at their bounds, symbols carried
// through) and again at dispatch with every dim static, through the same code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/data_type.h"

namespace webnn::core {

// Dimensions and element counts must be "valid dimensions": > 0 and within long.
inline constexpr uint64_t kMaxDimension = 0x7fffffffu;
// Operand ranks we accept everywhere: the spec's "N".
inline constexpr uint32_t kMaxRank = 8;
// maxTensorByteLength reported by opSupportLimits(), 2 GiB.
inline constexpr uint64_t kMaxTensorByteLength = uint64_t{1} << 31;

struct Dim {
  uint32_t size = 0;    // static size, or the upper bound of a dynamic dim
  uint32_t symbol = 0;  // 0: static; otherwise a dynamic dimension's symbol id

  static Dim Static(uint32_t s) { return Dim{s, 0}; }
  bool IsStatic() const { return symbol == 0; }
  bool operator==(const Dim&) const = default;
};

// False only when the two are provably different (both static and unequal).
inline bool MaybeEqual(const Dim& a, const Dim& b) {
  if (a.IsStatic() && b.IsStatic()) return a.size == b.size;
  if (a.symbol == b.symbol) return true;
  return true;  // two different symbols, or symbol vs size: decided at dispatch
}
// True when the two are provably equal.
inline bool SurelyEqual(const Dim& a, const Dim& b) {
  if (a.IsStatic() && b.IsStatic()) return a.size == b.size;
  return a.symbol == b.symbol;
}

using Shape = std::vector<Dim>;

Shape StaticShape(const std::vector<uint32_t>& sizes);
std::vector<uint32_t> Sizes(const Shape& shape);  // static sizes / upper bounds
bool IsStatic(const Shape& shape);
// Product of sizes (upper bound for dynamic shapes); 1 for scalars. Saturates at UINT64_MAX.
uint64_t ElementCount(const Shape& shape);
uint64_t ElementCount(const std::vector<uint32_t>& sizes);
std::string ShapeToString(const Shape& shape);  // "[2, batch<=8, 3]" needs names: see graph

struct OperandDesc {
  DataType type = DataType::kFloat32;
  Shape shape;

  uint32_t rank() const { return static_cast<uint32_t>(shape.size()); }
  bool operator==(const OperandDesc&) const = default;
};

// Strides in elements of a row-major (C order) layout.
std::vector<uint64_t> RowMajorStrides(const std::vector<uint32_t>& sizes);

}  // namespace webnn::core
