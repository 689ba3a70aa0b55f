#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct ArgMinMaxAttrs final : OpAttrs {
  uint32_t axis = 0;
  bool keepDimensions = false;
  DataType outputDataType = DataType::kInt32;
};

}  // namespace webnn::ops
