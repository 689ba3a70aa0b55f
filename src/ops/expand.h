#pragma once

#include <vector>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct ExpandAttrs final : OpAttrs {
  std::vector<MLDimension> newShape;
};

}  // namespace webnn::ops
