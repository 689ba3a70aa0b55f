#pragma once

#include <optional>
#include <vector>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct BatchNormalizationAttrs final : OpAttrs {
  uint32_t axis = 1;
  double epsilon = 1e-5;
};
struct InstanceNormalizationAttrs final : OpAttrs {
  double epsilon = 1e-5;
  MLInputOperandLayout layout = MLInputOperandLayout::kNchw;
};
struct LayerNormalizationAttrs final : OpAttrs {
  std::optional<std::vector<uint32_t>> axes;  // default [1, ..., rank-1]
  double epsilon = 1e-5;
};

// The axes layerNormalization reduces over: the given ones, or [1, ..., rank-1].
std::vector<uint32_t> LayerNormalizationAxes(const LayerNormalizationAttrs& attrs, uint32_t rank);

}  // namespace webnn::ops
