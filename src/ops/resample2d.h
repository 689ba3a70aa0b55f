#pragma once

#include <optional>
#include <vector>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct Resample2dAttrs final : OpAttrs {
  MLInterpolationMode mode = MLInterpolationMode::kNearestNeighbor;
  std::vector<float> scales = {1.0f, 1.0f};
  std::optional<std::vector<uint32_t>> sizes;  // overrides scales
  std::vector<uint32_t> axes = {2, 3};
};

}  // namespace webnn::ops
