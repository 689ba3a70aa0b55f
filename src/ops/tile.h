#pragma once

#include <vector>

#include "ops/schema.h"

namespace webnn::ops {

struct TileAttrs final : OpAttrs {
  std::vector<uint32_t> repetitions;
};

}  // namespace webnn::ops
