// Attributes of the data-movement and shape operators.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct ConcatAttrs final : OpAttrs {
  uint32_t axis = 0;
};
struct ExpandAttrs final : OpAttrs {
  std::vector<MLDimension> newShape;
};
struct GatherAttrs final : OpAttrs {  // gather, gatherElements (gatherND ignores axis)
  uint32_t axis = 0;
};
struct ScatterAttrs final : OpAttrs {  // scatterElements (scatterND ignores axis)
  uint32_t axis = 0;
};
struct PadAttrs final : OpAttrs {
  std::vector<uint32_t> beginningPadding;
  std::vector<uint32_t> endingPadding;
  MLPaddingMode mode = MLPaddingMode::kConstant;
  MLNumber value = 0;
};
struct ReshapeAttrs final : OpAttrs {
  std::vector<MLDimension> newShape;
};
struct ReverseAttrs final : OpAttrs {
  std::optional<std::vector<uint32_t>> axes;  // default: all axes
};
struct SliceAttrs final : OpAttrs {
  std::vector<uint32_t> starts;
  std::vector<uint32_t> sizes;
  std::optional<std::vector<uint32_t>> strides;  // default: all 1
};
struct SplitAttrs final : OpAttrs {
  std::variant<uint32_t, std::vector<uint32_t>> splits;
  uint32_t axis = 0;
};
struct TileAttrs final : OpAttrs {
  std::vector<uint32_t> repetitions;
};
struct TransposeAttrs final : OpAttrs {
  std::optional<std::vector<uint32_t>> permutation;  // default: reversed axes
};
struct TriangularAttrs final : OpAttrs {
  bool upper = true;
  int32_t diagonal = 0;
};

// The permutation transpose applies for an input of `rank`.
std::vector<uint32_t> ResolvePermutation(const TransposeAttrs& attrs, uint32_t rank);

}  // namespace webnn::ops
