#pragma once

#include <optional>
#include <vector>

#include "ops/schema.h"

namespace webnn::ops {

struct ReverseAttrs final : OpAttrs {
  std::optional<std::vector<uint32_t>> axes;  // default: all axes
};

}  // namespace webnn::ops
