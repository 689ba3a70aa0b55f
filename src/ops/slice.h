#pragma once

#include <optional>
#include <vector>

#include "ops/schema.h"

namespace webnn::ops {

struct SliceAttrs final : OpAttrs {
  std::vector<uint32_t> starts;
  std::vector<uint32_t> sizes;
  std::optional<std::vector<uint32_t>> strides;  // default: all 1
};

}  // namespace webnn::ops
