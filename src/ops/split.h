#pragma once

#include <variant>
#include <vector>

#include "ops/schema.h"

namespace webnn::ops {

struct SplitAttrs final : OpAttrs {
  std::variant<uint32_t, std::vector<uint32_t>> splits;
  uint32_t axis = 0;
};

}  // namespace webnn::ops
