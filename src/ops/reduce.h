#pragma once

#include <optional>
#include <vector>

#include "ops/schema.h"

namespace webnn::ops {

struct ReduceAttrs final : OpAttrs {
  std::optional<std::vector<uint32_t>> axes;  // default: all axes; [] reduces nothing
  bool keepDimensions = false;
};
// The axes a reduction runs over, for an input of `rank`.
std::vector<uint32_t> ResolveReduceAxes(const ReduceAttrs& attrs, uint32_t rank);

}  // namespace webnn::ops
