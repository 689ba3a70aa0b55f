#pragma once

#include <vector>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct PadAttrs final : OpAttrs {
  std::vector<uint32_t> beginningPadding;
  std::vector<uint32_t> endingPadding;
  MLPaddingMode mode = MLPaddingMode::kConstant;
  MLNumber value = 0;
};

}  // namespace webnn::ops
